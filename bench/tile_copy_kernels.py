# Kernel sources for bench/tools/transpose_ceiling.py: copies with the same
# traffic as the transpose of bench_elementwise.py (one read, one write of
# every element), without the transposition.  Executed once per compiler
# with `triton`/`tl` injected, like elementwise_kernels.py.


@triton.jit  # noqa: F821
def tile_copy_kernel(src, dst, M, N, stride_s, stride_d,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):  # noqa: F821
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)  # noqa: F821
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)  # noqa: F821
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(src + rm[:, None] * stride_s + rn[None, :], mask=mask)  # noqa: F821
    tl.store(dst + rm[:, None] * stride_d + rn[None, :], x, mask=mask)  # noqa: F821


@triton.jit  # noqa: F821
def flat_copy_kernel(src, dst, n, BLOCK: tl.constexpr):  # noqa: F821
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)  # noqa: F821
    mask = offs < n
    tl.store(dst + offs, tl.load(src + offs, mask=mask), mask=mask)  # noqa: F821
