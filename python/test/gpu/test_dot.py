"""tl.dot on the GPU against torch in float64: every operand dtype and input
precision, out_dtype, tiles from 1 to 256 in each dimension, 1-8 warps,
row- and column-major operands, batched 3-D dots, a bias + activation
epilogue, and the tutorial matmul kernel (grouped ordering, masks, a K
loop) on sizes that are not multiples of its tile.  Each runs for the
H100 itself (cuda:90) and for cuda:80, whose mma.sync PTX the driver
JIT-compiles for the H100.  Outputs are poisoned before every launch."""
import os
import sys

import pytest

torch = pytest.importorskip("torch")

import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "unit"))
from kernels.attention import attention_kernel  # noqa: E402
from kernels.gated_state_scan import gated_state_scan  # noqa: E402
from kernels.masked_matmul import rows_cols_masked_matmul  # noqa: E402

ARCHS = [None, "sm80"]  # None: the device's own target

TORCH_DTYPES = {
    "float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32,
    "float64": torch.float64, "int8": torch.int8, "int32": torch.int32,
    # getattr: CI collects these tests with an older CPU torch that lacks fp8
    "float8e4nv": getattr(torch, "float8_e4m3fn", None), "float8e5": getattr(torch, "float8_e5m2", None),
}


def random_operand(shape, dtype, col_major=False):
    """Random values exactly representable in `dtype`, optionally stored
    column-major (the transpose of a contiguous tensor)."""
    if col_major:
        return random_operand(shape[:-2] + (shape[-1], shape[-2]), dtype).transpose(-1, -2)
    torch_dtype = TORCH_DTYPES[dtype]
    if dtype == "int8":
        return torch.randint(-128, 128, shape, device="cuda", dtype=torch.int8)
    x = torch.randn(shape, device="cuda", dtype=torch.float32)
    if dtype.startswith("float8"):
        x = x * 2  # spread over the fp8 exponents
    return x.to(torch_dtype)


def reference(a, b):
    return torch.matmul(a.to(torch.float64), b.to(torch.float64))


def poisoned(shape, dtype):
    torch_dtype = TORCH_DTYPES[dtype]
    if torch_dtype.is_floating_point:
        return torch.full(shape, float("nan"), device="cuda", dtype=torch_dtype)
    return torch.full(shape, -77, device="cuda", dtype=torch_dtype)


@triton.jit
def dot_tile_kernel(X, sxm, sxk, Y, syk, syn, Z, szm, szn,
                    M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                    INPUT_PRECISION: tl.constexpr, OUT_DTYPE: tl.constexpr):
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    x = tl.load(X + m[:, None] * sxm + k[None, :] * sxk)
    y = tl.load(Y + k[:, None] * syk + n[None, :] * syn)
    z = tl.dot(x, y, input_precision=INPUT_PRECISION, out_dtype=OUT_DTYPE)
    tl.store(Z + m[:, None] * szm + n[None, :] * szn, z)


def run_tile(M, N, K, in_dtype, out_dtype, precision, num_warps, arch, col_a=False, col_b=False):
    a = random_operand((M, K), in_dtype, col_a)
    b = random_operand((K, N), in_dtype, col_b)
    z = poisoned((M, N), out_dtype)
    out_tl = {"float32": tl.float32, "float16": tl.float16, "int32": tl.int32,
              "float64": tl.float64, "bfloat16": tl.bfloat16}[out_dtype]
    options = {"arch": arch} if arch else {}
    dot_tile_kernel[(1,)](a, a.stride(0), a.stride(1), b, b.stride(0), b.stride(1), z, z.stride(0), z.stride(1),
                          M=M, N=N, K=K, INPUT_PRECISION=precision, OUT_DTYPE=out_tl,
                          num_warps=num_warps, **options)
    return a, b, z


# (in_dtype, out_dtype, input_precision, rtol, atol); values are randn-sized, so
# K=64 sums are about 8 in magnitude.
DTYPE_CASES = [
    ("float16", "float32", "ieee", 1e-5, 1e-4),
    ("float16", "float16", "ieee", 1e-2, 6e-2),
    ("bfloat16", "float32", "ieee", 1e-5, 1e-4),
    ("float32", "float32", "tf32", 1e-2, 5e-2),
    ("float32", "float32", "tf32x3", 1e-5, 1e-4),
    # two / three bf16 parts: about 16 / 24 bits of each operand
    ("float32", "float32", "bf16x3", 1e-4, 2e-3),
    ("float32", "float32", "bf16x6", 1e-5, 1e-4),
    ("float32", "float32", "ieee", 1e-5, 1e-4),
    ("int8", "int32", "ieee", 0, 0),
    # Hopper's fp8 wgmma adds products at reduced precision (about 2^-11 of
    # the sum), as Triton's default max_num_imprecise_acc lets it.
    ("float8e4nv", "float32", "ieee", 1e-2, 5e-2),
    ("float8e5", "float32", "ieee", 1e-2, 5e-2),
    ("float64", "float64", "ieee", 1e-12, 1e-12),
]


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("in_dtype,out_dtype,precision,rtol,atol", DTYPE_CASES)
def test_dot_dtypes_and_precisions(in_dtype, out_dtype, precision, rtol, atol, arch):
    if in_dtype == "float8e4nv" and arch == "sm80":
        with pytest.raises(triton.CompilationError, match="fp8e4nv need compute capability 89"):
            run_tile(64, 32, 64, in_dtype, out_dtype, precision, 4, arch)
        return
    a, b, z = run_tile(64, 32, 64, in_dtype, out_dtype, precision, 4, arch)
    want = reference(a, b)
    if out_dtype == "int32":
        assert torch.equal(z.to(torch.int64), want.to(torch.int64))
    else:
        torch.testing.assert_close(z.to(torch.float64), want, rtol=rtol, atol=atol)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("M,N,K,num_warps", [
    (16, 16, 16, 1), (16, 32, 16, 2), (32, 16, 64, 4), (64, 128, 32, 4), (128, 64, 64, 8),
    (128, 256, 32, 8), (256, 128, 16, 8), (256, 16, 32, 4), (16, 256, 64, 4), (64, 64, 256, 2),
    (32, 32, 128, 1), (16, 64, 256, 8),
    # under one tensor-core instruction: CUDA cores
    (2, 4, 32, 1), (1, 2, 32, 1), (16, 16, 8, 4), (8, 64, 16, 2), (64, 4, 16, 4),
])
def test_dot_tiles_and_warps(M, N, K, num_warps, arch):
    a, b, z = run_tile(M, N, K, "float16", "float32", "ieee", num_warps, arch)
    torch.testing.assert_close(z.to(torch.float64), reference(a, b), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("col_a,col_b", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("in_dtype,out_dtype", [("float16", "float32"), ("int8", "int32"), ("float32", "float32")])
def test_dot_operand_majorness(col_a, col_b, in_dtype, out_dtype, arch):
    a, b, z = run_tile(64, 64, 32, in_dtype, out_dtype, "tf32x3", 4, arch, col_a, col_b)
    want = reference(a, b)
    if out_dtype == "int32":
        assert torch.equal(z.to(torch.int64), want.to(torch.int64))
    else:
        torch.testing.assert_close(z.to(torch.float64), want, rtol=1e-5, atol=1e-4)


@triton.jit
def dot_3d_kernel(X, Y, Z, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    b = tl.arange(0, B)[:, None, None]
    m = tl.arange(0, M)[None, :, None]
    n = tl.arange(0, N)[None, None, :]
    kr = tl.arange(0, K)[None, None, :]
    kc = tl.arange(0, K)[None, :, None]
    x = tl.load(X + b * M * K + m * K + kr)
    y = tl.load(Y + b * K * N + kc * N + n)
    z = tl.dot(x, y)
    tl.store(Z + b * M * N + m * N + n, z)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("B,M,N,K,num_warps", [(2, 16, 16, 16, 1), (4, 32, 64, 32, 4), (8, 16, 32, 64, 8)])
def test_batched_3d_dot(B, M, N, K, num_warps, arch):
    a = random_operand((B, M, K), "float16")
    b = random_operand((B, K, N), "float16")
    z = poisoned((B, M, N), "float32")
    dot_3d_kernel[(1,)](a, b, z, B=B, M=M, N=N, K=K, num_warps=num_warps, **({"arch": arch} if arch else {}))
    torch.testing.assert_close(z.to(torch.float64), reference(a, b), rtol=1e-5, atol=1e-4)


@triton.jit
def matmul_with_epilogue(a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                         stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                         GROUP_M: tl.constexpr, EPILOGUE: tl.constexpr):
    # tutorial 03's grouped matmul with a bias + ReLU or a leaky-ReLU epilogue
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    if EPILOGUE == "bias_relu":
        accumulator += tl.load(bias_ptr + offs_cn, mask=offs_cn < N, other=0.0)[None, :]
        accumulator = tl.where(accumulator > 0, accumulator, 0.0)
    elif EPILOGUE == "leaky_relu":
        accumulator = tl.where(accumulator >= 0, accumulator, 0.01 * accumulator)
    c = accumulator.to(c_ptr.dtype.element_ty)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


def run_matmul(M, N, K, BM, BN, BK, num_warps, num_stages, dtype, epilogue="none", col_a=False, col_b=False,
               arch=None):
    a = random_operand((M, K), dtype, col_a)
    b = random_operand((K, N), dtype, col_b)
    bias = torch.randn(N, device="cuda", dtype=torch.float32)
    out_dtype = "float16" if dtype in ("float16", "bfloat16") else "float32"
    c = poisoned((M, N), out_dtype)
    grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN),)
    matmul_with_epilogue[grid](a, b, c, bias, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                               c.stride(0), c.stride(1), BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, GROUP_M=8,
                               EPILOGUE=epilogue, num_warps=num_warps, num_stages=num_stages,
                               **({"arch": arch} if arch else {}))
    want = reference(a, b)
    if epilogue == "bias_relu":
        want = torch.relu(want + bias.to(torch.float64)[None, :])
    elif epilogue == "leaky_relu":
        want = torch.where(want >= 0, want, 0.01 * want)
    return c, want


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("M,N,K,BM,BN,BK,num_warps,num_stages", [
    (333, 257, 129, 64, 64, 32, 4, 1), (512, 512, 512, 128, 128, 64, 8, 3), (1000, 700, 300, 128, 64, 32, 4, 4),
    (77, 1029, 64, 32, 128, 64, 4, 2), (256, 256, 1000, 64, 256, 32, 8, 5), (129, 130, 131, 16, 16, 16, 1, 2),
])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_matmul_sizes_not_multiples_of_the_tile(M, N, K, BM, BN, BK, num_warps, num_stages, dtype, arch):
    c, want = run_matmul(M, N, K, BM, BN, BK, num_warps, num_stages, dtype, arch=arch)
    # fp16/bf16 outputs round to 11/8 bits; tf32 inputs keep 10 mantissa bits.
    tol = {"float16": (2e-3, 2e-2), "bfloat16": (1e-2, 1e-1), "float32": (1e-2, 1e-1)}[dtype]
    torch.testing.assert_close(c.to(torch.float64), want, rtol=tol[0], atol=tol[1])


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("M,N,K,num_warps,num_stages", [(37, 5, 128, 8, 3), (200, 72, 256, 4, 4),
                                                        (64, 64, 64, 4, 3)])
def test_matmul_with_masks_the_k_loop_does_not_change(M, N, K, num_warps, num_stages, arch):
    # Pipelining these loads once crashed the compiler (the mask, defined
    # before the loop, was looked up among the loop's cloned values).
    a = random_operand((M, K), "float16")
    b = random_operand((K, N), "float16")
    c = poisoned((M, N), "float32")
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
    rows_cols_masked_matmul[grid](a, b, c, M, N, K, BLOCK_M=64, BLOCK_N=64, BLOCK_K=64, num_warps=num_warps,
                                  num_stages=num_stages, **({"arch": arch} if arch else {}))
    torch.testing.assert_close(c.to(torch.float64), reference(a, b), rtol=1e-3, atol=1e-2)


@pytest.mark.parametrize("bk, bv, num_warps", [(64, 64, 1), (64, 32, 1), (32, 64, 2), (64, 64, 4)])
def test_gated_state_scan_matches_torch(bk, bv, num_warps):
    # A chunked gated recurrence (kernels/gated_state_scan.py): the fp32 gate
    # and the fp16 tile it scales stream together into an mma.sync operand;
    # T is not a multiple of the chunk, so the last chunk is masked.
    B, T, H, K, V, BT = 2, 200, 2, 128, 128, 64
    k = torch.randn(B, T, H, K, device="cuda", dtype=torch.float16)
    v = torch.randn(B, T, H, V, device="cuda", dtype=torch.float16)
    g = torch.cumsum(-torch.rand(B, T, H, K, device="cuda"), dim=1) / 16
    NT = triton.cdiv(T, BT)
    h = poisoned((B, NT, H, K, V), "float16")
    gated_state_scan[(K // bk, V // bv, B * H)](k, v, g, h, T, H=H, K=K, V=V, BT=BT, BK=bk, BV=bv,
                                              num_warps=num_warps, num_stages=2)
    state = torch.zeros(B, H, K, V, device="cuda", dtype=torch.float32)
    expected = []
    for t in range(NT):
        expected.append(state.clone())
        lo, hi = t * BT, min(t * BT + BT, T)
        g_last = g[:, hi - 1]                                              # [B, H, K]
        kt = (k[:, lo:hi].float() * torch.exp2(g_last[:, None] - g[:, lo:hi])).half().float()
        state = state * torch.exp2(g_last)[..., None] + torch.einsum("bthk,bthv->bhkv", kt, v[:, lo:hi].float())
    expected = torch.stack(expected, dim=1).half()
    torch.testing.assert_close(h.float(), expected.float(), rtol=2e-2, atol=5e-2)


@triton.jit
def fma_matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # fp32 without TF32: the dot runs on FMAs, its operands staged in shared
    # tiles that the pipeline fills by cp.async
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_n = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc, mask=(rows[:, None] < M) & (cols[None, :] < N))


@pytest.mark.parametrize("col_a,col_b", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("BM,BN,BK,num_stages,num_warps", [(32, 64, 32, 5, 8), (64, 64, 16, 2, 4),
                                                           (64, 128, 32, 4, 8)])
def test_fma_matmul_pipelined_operands_any_majorness(col_a, col_b, BM, BN, BK, num_stages, num_warps):
    M, N, K = 200, 330, 232
    a = random_operand((M, K), "float32", col_a)
    b = random_operand((K, N), "float32", col_b)
    c = poisoned((M, N), "float32")
    fma_matmul[(triton.cdiv(M, BM), triton.cdiv(N, BN))](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                                                       b.stride(1), BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK,
                                                       num_warps=num_warps, num_stages=num_stages)
    torch.testing.assert_close(c.to(torch.float64), reference(a, b), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("col_a,col_b", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("BM,BN,BK,num_stages,num_warps", [(128, 128, 32, 3, 4), (128, 128, 32, 2, 8),
                                                           (64, 128, 32, 4, 8), (128, 64, 32, 3, 4),
                                                           (64, 64, 64, 3, 8)])
def test_tf32_matmul_pipelined_operands_any_majorness(col_a, col_b, BM, BN, BK, num_stages, num_warps):
    # wgmma reads tf32 operands K-major: an operand loaded along M or N is
    # transposed on its way to shared memory, by 4-byte copies through the
    # ring when its tile is 128 wide, by the store in its iteration otherwise
    c, want = run_matmul(200, 330, 232, BM, BN, BK, num_warps, num_stages, "float32", col_a=col_a, col_b=col_b)
    torch.testing.assert_close(c.to(torch.float64), want, rtol=1e-2, atol=1e-1)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("col_a,col_b", [(True, False), (False, True)])
@pytest.mark.parametrize("epilogue", ["bias_relu", "leaky_relu"])
def test_matmul_epilogue_and_majorness(col_a, col_b, epilogue, arch):
    c, want = run_matmul(300, 200, 256, 64, 128, 32, 4, 3, "float16", epilogue, col_a, col_b, arch)
    torch.testing.assert_close(c.to(torch.float64), want, rtol=2e-3, atol=2e-2)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("num_warps,num_stages,BLOCK_N", [(4, 1, 64), (4, 3, 64), (8, 3, 32)])
def test_attention_chained_dots(num_warps, num_stages, BLOCK_N, arch):
    # On sm_90 the second dot takes P from registers (wgmma register A), on
    # sm_80 as mma.sync operand registers; both against float64 softmax.
    N_CTX, HEAD_DIM, BLOCK_M = 512, 64, 128
    q, k, v = (random_operand((N_CTX, HEAD_DIM), "float16") for _ in range(3))
    o = poisoned((N_CTX, HEAD_DIM), "float16")
    sm_scale = 0.125 * 1.4426950408889634  # 1/sqrt(d) in base 2
    attention_kernel[(N_CTX // BLOCK_M,)](q, k, v, o, sm_scale, N_CTX, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                                          HEAD_DIM=HEAD_DIM, num_warps=num_warps, num_stages=num_stages,
                                          **({"arch": arch} if arch else {}))
    scores = (q.double() @ k.double().T) * 0.125
    want = torch.softmax(scores, dim=-1) @ v.double()
    torch.testing.assert_close(o.double(), want, rtol=2e-2, atol=2e-2)


@triton.jit
def gated_state_gradient(q_ptr, g_ptr, do_ptr, dh_ptr, T, K, V, BT: tl.constexpr, BK: tl.constexpr,
                         BV: tl.constexpr):
    # dh = sum over time chunks of (q * exp2(g))^T-chunk @ do-chunk: both dot
    # operands' tiles are loaded in the loop, the first one scaled by a tile
    # of gates loaded beside it (a load that reaches the dot through math)
    i_k, i_v = tl.program_id(0), tl.program_id(1)
    rk = i_k * BK + tl.arange(0, BK)
    rv = i_v * BV + tl.arange(0, BV)
    acc = tl.zeros([BK, BV], dtype=tl.float32)
    for t0 in range(0, T, BT):
        rt = t0 + tl.arange(0, BT)
        qk_mask = (rk[:, None] < K) & (rt[None, :] < T)
        q = tl.load(q_ptr + rt[None, :] * K + rk[:, None], mask=qk_mask, other=0.0)
        g = tl.load(g_ptr + rt[None, :] * K + rk[:, None], mask=qk_mask, other=0.0)
        do = tl.load(do_ptr + rt[:, None] * V + rv[None, :], mask=(rt[:, None] < T) & (rv[None, :] < V), other=0.0)
        acc += tl.dot((q * tl.exp2(g)).to(q.dtype), do)
    tl.store(dh_ptr + rk[:, None] * V + rv[None, :], acc, mask=(rk[:, None] < K) & (rv[None, :] < V))


@pytest.mark.parametrize("BT,BK,BV,num_warps,num_stages", [(64, 64, 64, 4, 2), (64, 64, 64, 4, 3),
                                                            (32, 128, 64, 8, 3), (64, 64, 32, 1, 2)])
def test_dot_operand_scaled_by_a_tile_loaded_in_the_loop(BT, BK, BV, num_warps, num_stages):
    T, K, V = 1000, 128, 96
    q = random_operand((T, K), "float16")
    g = -torch.rand(T, K, device="cuda")  # gates in (-1, 0]: exp2 in (0.5, 1]
    do = random_operand((T, V), "float16")
    dh = poisoned((K, V), "float32")
    gated_state_gradient[(triton.cdiv(K, BK), triton.cdiv(V, BV))](q, g, do, dh, T, K, V, BT=BT, BK=BK, BV=BV,
                                                                   num_warps=num_warps, num_stages=num_stages)
    scaled = (q.float() * torch.exp2(g)).half().double()
    torch.testing.assert_close(dh.double(), scaled.T @ do.double(), rtol=2e-3, atol=5e-2)


@triton.jit
def row_scaled_operand_matmul(a_ptr, r_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, BM: tl.constexpr,
                              BN: tl.constexpr, BK: tl.constexpr):
    # C = (A * exp(r)[None, :]) @ B, A's tile scaled by a row loaded beside it
    # (Mamba-2's state gradient): on Hopper the scaled A goes to wgmma from
    # registers, the tile read from its ring in the operand layout (ldmatrix,
    # transposed where A is stored along M)
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * sam + rk[None, :] * sak
    b_ptrs = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
    r_ptrs = r_ptr + rk
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < K - k), other=0.0).to(tl.float32)
        r = tl.load(r_ptrs, mask=rk < K - k, other=0.0)
        a = (a * tl.exp(r)[None, :]).to(a_ptr.dtype.element_ty)
        b = tl.load(b_ptrs, mask=(rk[:, None] < K - k) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
        r_ptrs += BK
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("a_along_m", [True, False])
@pytest.mark.parametrize("BM,BN,BK,num_warps,num_stages", [(128, 64, 32, 4, 4), (64, 64, 64, 4, 2),
                                                            (128, 128, 32, 8, 3), (64, 128, 16, 4, 1)])
def test_operand_scaled_by_a_row_loaded_in_the_loop(dtype, a_along_m, BM, BN, BK, num_warps, num_stages):
    M, N, K = 300, 200, 456
    a = random_operand((M, K), dtype, col_major=a_along_m)
    r = -torch.rand(K, device="cuda")  # exp(r) in (0.37, 1]
    b = random_operand((K, N), dtype)
    c = poisoned((M, N), "float32")
    row_scaled_operand_matmul[(triton.cdiv(M, BM), triton.cdiv(N, BN))](
        a, r, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), BM=BM, BN=BN, BK=BK,
        num_warps=num_warps, num_stages=num_stages)
    scaled = (a.float() * torch.exp(r)[None, :]).to(a.dtype).double()
    torch.testing.assert_close(c.double(), scaled @ b.double(), rtol=2e-3, atol=5e-2)


@triton.jit
def int4_weight_matmul(a_ptr, w_ptr, s_ptr, z_ptr, c_ptr, M, N, K, GROUP: tl.constexpr, BM: tl.constexpr,
                       BN: tl.constexpr, BK: tl.constexpr):
    # C = A @ W with W stored as 4-bit values, eight to an int32 along K, and
    # dequantized per group of GROUP rows of K (w * scale + zero): the packed
    # tile is loaded in one layout and dequantized in its scales' (one
    # element a thread along N), the conversion between them inside the loop
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    w_ptrs = w_ptr + (rk[:, None] // 8) * N + rn[None, :]
    shift = ((rk % 8) * 4)[:, None]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K // BK):
        a = tl.load(a_ptrs, mask=rm[:, None] < M, other=0.0)
        packed = tl.load(w_ptrs)
        group = (k * BK) // GROUP
        scale = tl.load(s_ptr + group * N + rn[None, :])
        zero = tl.load(z_ptr + group * N + rn[None, :])
        w = ((packed >> shift) & 15).to(tl.float16) * scale + zero
        acc = tl.dot(a, w, acc)
        a_ptrs += BK
        w_ptrs += (BK // 8) * N
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16), mask=rm[:, None] < M)


@pytest.mark.parametrize("BM,BN,BK,num_warps,num_stages", [(64, 256, 64, 8, 2), (64, 128, 128, 4, 2),
                                                            (64, 64, 32, 4, 4), (32, 64, 64, 2, 3),
                                                            (128, 128, 64, 8, 3)])
def test_dequantized_weight_matmul(BM, BN, BK, num_warps, num_stages):
    M, N, K, group = 300, 512, 1024, 128
    q = torch.randint(0, 16, (K, N), device="cuda", dtype=torch.int32)
    packed = torch.zeros(K // 8, N, device="cuda", dtype=torch.int32)
    for j in range(8):
        packed |= q[j::8] << (4 * j)
    scales = (torch.rand(K // group, N, device="cuda") * 0.02 + 0.001).half()
    zeros = (-7.0 * scales.float()).half()
    a = random_operand((M, K), "float16")
    c = poisoned((M, N), "float16")
    int4_weight_matmul[(triton.cdiv(M, BM), N // BN)](a, packed, scales, zeros, c, M, N, K, GROUP=group, BM=BM, BN=BN,
                                                      BK=BK, num_warps=num_warps, num_stages=num_stages)
    rows = torch.arange(K, device="cuda") // group
    w = (q.half() * scales[rows] + zeros[rows]).double()
    torch.testing.assert_close(c.double(), a.double() @ w, rtol=2e-2, atol=2e-2)
