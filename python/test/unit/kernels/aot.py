"""Kernels compiled ahead of time by the AOT tests: by
python/test/unit/test_aot_tools.py (triton.tools.compile and link, the
generated C built with gcc) and python/test/gpu/test_aot_from_c.py (the C
launched from a C program).  The tests copy this file and pass its path to
the command line, as a user passes a kernel file."""
import tritium as triton
import tritium.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@triton.jit
def scaled_matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, alpha,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # block pointers feeding a dot: on sm_90 their tiles move by TMA, with
    # tensor maps in global scratch memory
    a = tl.make_block_ptr(a_ptr, (M, K), (stride_am, 1), (tl.program_id(0) * BM, 0), (BM, BK), (1, 0))
    b = tl.make_block_ptr(b_ptr, (K, N), (stride_bk, 1), (0, tl.program_id(1) * BN), (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, K, BK):
        acc += tl.dot(tl.load(a, boundary_check=(0, 1)), tl.load(b, boundary_check=(0, 1)))
        a = tl.advance(a, (0, BK))
        b = tl.advance(b, (BK, 0))
    c = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, 1), (tl.program_id(0) * BM, tl.program_id(1) * BN),
                          (BM, BN), (1, 0))
    tl.store(c, acc * alpha.to(tl.float32), boundary_check=(0, 1))


@triton.jit
def made_descriptor_copy(x_ptr, y_ptr, rows, cols, row_stride):
    src = tl.make_tensor_descriptor(x_ptr, shape=[rows, cols], strides=[row_stride, 1], block_shape=[16, 32])
    dst = tl.make_tensor_descriptor(y_ptr, shape=[rows, cols], strides=[row_stride, 1], block_shape=[16, 32])
    dst.store([0, 0], src.load([0, 0]))
