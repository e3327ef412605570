"""One tl.dot_scaled tile, operands in any MX or plain format, scales
optional (e8m0 bytes or floats, one per GROUP elements of K), fp4 packed
along K or along M / N, an optional accumulator.
Compiled by the CPU tests (tensor-core codegen, spills) and run by the GPU
tests against a float64 reference."""
import tritium as triton
import tritium.language as tl


@triton.jit
def scaled_dot_kernel(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, acc_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr,
                      K: tl.constexpr, A_ROWS: tl.constexpr, A_COLS: tl.constexpr, B_ROWS: tl.constexpr,
                      B_COLS: tl.constexpr, FORMAT_A: tl.constexpr, FORMAT_B: tl.constexpr, A_PACK_K: tl.constexpr,
                      B_PACK_K: tl.constexpr, FAST: tl.constexpr, WITH_ACC: tl.constexpr, GROUP: tl.constexpr = 32):
    a = tl.load(a_ptr + tl.arange(0, A_ROWS)[:, None] * A_COLS + tl.arange(0, A_COLS)[None, :])
    b = tl.load(b_ptr + tl.arange(0, B_ROWS)[:, None] * B_COLS + tl.arange(0, B_COLS)[None, :])
    a_scale = None
    b_scale = None
    if a_scale_ptr is not None:
        a_scale = tl.load(a_scale_ptr + tl.arange(0, M)[:, None] * (K // GROUP) + tl.arange(0, K // GROUP)[None, :])
    if b_scale_ptr is not None:
        b_scale = tl.load(b_scale_ptr + tl.arange(0, N)[:, None] * (K // GROUP) + tl.arange(0, K // GROUP)[None, :])
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    acc = None
    if WITH_ACC:
        acc = tl.load(acc_ptr + offs)
    c = tl.dot_scaled(a, a_scale, FORMAT_A, b, b_scale, FORMAT_B, acc=acc, fast_math=FAST, lhs_k_pack=A_PACK_K,
                      rhs_k_pack=B_PACK_K)
    tl.store(out_ptr + offs, c)
