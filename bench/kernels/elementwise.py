# Element-wise kernels of bench_elementwise.py and the GPU tests
# (test_elementwise.py), executed once per compiler with `triton` and `tl`
# bound to it (kernel_sources.load_kernels), so Tritium and Triton compile
# the same source.  The vector add is tutorial 01's (tutorials.py).
#   silu_mul_add_kernel  x * sigmoid(x) + y in fp32, stored in out's dtype;
#   transpose_kernel     dst = src^T through BLOCK_M x BLOCK_N tiles (dst
#                        rows stride_dn apart);
#   tiny_kernel          one program adding 1 to n elements in place: a
#                        launch that costs the GPU next to nothing, for
#                        timing the host's side of a launch.


@triton.jit  # noqa: F821
def silu_mul_add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):  # noqa: F821
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)  # noqa: F821
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)  # noqa: F821
    y = tl.load(y_ptr + offs, mask=mask).to(tl.float32)  # noqa: F821
    out = x * tl.sigmoid(x) + y  # noqa: F821
    tl.store(out_ptr + offs, out.to(out_ptr.dtype.element_ty), mask=mask)  # noqa: F821


@triton.jit  # noqa: F821
def transpose_kernel(src, dst, M, N, stride_sm, stride_dn,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):  # noqa: F821
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)  # noqa: F821
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)  # noqa: F821
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(src + rm[:, None] * stride_sm + rn[None, :], mask=mask)  # noqa: F821
    tl.store(dst + rn[None, :] * stride_dn + rm[:, None], x, mask=mask)  # noqa: F821


@triton.jit  # noqa: F821
def tiny_kernel(x_ptr, n, BLOCK: tl.constexpr):  # noqa: F821
    offs = tl.arange(0, BLOCK)  # noqa: F821
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)  # noqa: F821
    tl.store(x_ptr + offs, x + 1, mask=mask)  # noqa: F821
