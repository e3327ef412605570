# Kernel source of test_descriptor_atomics_gather.py, executed once per
# compiler with `triton` and `tl` bound to it (kernel_sources.load_kernels).
#   atomic_kernel             one block per program, the atomic named by OP
#                             with values from a buffer covering the grid;
#   device_atomic_add_kernel  the same through a descriptor made in the
#                             kernel (rows n + 8 apart);
#   same_block_kernel         every program adds its values to block (0, 0);
#   gather_scatter_kernel     gathers rows, adds 1, scatters them back.


@triton.jit
def atomic_kernel(desc, v_ptr, OP: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rows = pm * BM + tl.arange(0, BM)[:, None]
    cols = pn * BN + tl.arange(0, BN)[None, :]
    v = tl.load(v_ptr + rows * (tl.num_programs(1) * BN) + cols)
    if OP == "add":
        desc.atomic_add([pm * BM, pn * BN], v)
    elif OP == "min":
        desc.atomic_min([pm * BM, pn * BN], v)
    elif OP == "max":
        desc.atomic_max([pm * BM, pn * BN], v)
    elif OP == "and":
        desc.atomic_and([pm * BM, pn * BN], v)
    elif OP == "or":
        desc.atomic_or([pm * BM, pn * BN], v)
    else:
        desc.atomic_xor([pm * BM, pn * BN], v)


@triton.jit
def device_atomic_add_kernel(x_ptr, v_ptr, m, n, row_stride, BM: tl.constexpr, BN: tl.constexpr):
    desc = tl.make_tensor_descriptor(x_ptr, shape=[m, n], strides=[row_stride, 1], block_shape=[BM, BN])
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rows = pm * BM + tl.arange(0, BM)[:, None]
    cols = pn * BN + tl.arange(0, BN)[None, :]
    desc.atomic_add([pm * BM, pn * BN], tl.load(v_ptr + rows * (tl.num_programs(1) * BN) + cols))


@triton.jit
def same_block_kernel(desc, v_ptr, BM: tl.constexpr, BN: tl.constexpr):
    p = tl.program_id(0)
    v = tl.load(v_ptr + tl.arange(0, BM)[:, None] * (tl.num_programs(0) * BN) + p * BN + tl.arange(0, BN)[None, :])
    desc.atomic_add([0, 0], v)


@triton.jit
def gather_scatter_kernel(src, dst, rows_ptr, col, R: tl.constexpr):
    rows = tl.load(rows_ptr + tl.arange(0, R))
    x = src.gather(rows, col)
    dst.scatter(x + 1, rows, col)
