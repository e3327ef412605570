# Kernel sources shared by tritium and triton in bench_elementwise.py: this
# file is executed twice, once with `triton`/`tl` bound to tritium and once
# to Triton, so both compile exactly the same source.
# (No imports here on purpose: the two bindings are injected.)


@triton.jit  # noqa: F821
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):  # noqa: F821
    pid = tl.program_id(0)  # noqa: F821
    offs = pid * BLOCK + tl.arange(0, BLOCK)  # noqa: F821
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)  # noqa: F821
    y = tl.load(y_ptr + offs, mask=mask)  # noqa: F821
    tl.store(out_ptr + offs, x + y, mask=mask)  # noqa: F821


@triton.jit  # noqa: F821
def silu_mul_add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):  # noqa: F821
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)  # noqa: F821
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)  # noqa: F821
    y = tl.load(y_ptr + offs, mask=mask).to(tl.float32)  # noqa: F821
    out = x * tl.sigmoid(x) + y  # noqa: F821
    tl.store(out_ptr + offs, out.to(tl.bfloat16), mask=mask)  # noqa: F821


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


@triton.jit  # noqa: F821
def fill_kernel(out_ptr, n, value, BLOCK: tl.constexpr):  # noqa: F821
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)  # noqa: F821
    tl.store(out_ptr + offs, tl.full([BLOCK], value, tl.float32), mask=offs < n)  # noqa: F821
