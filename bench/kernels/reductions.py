# Reduction kernels of bench_reductions.py and the GPU tests
# (test_softmax_layernorm.py), executed once per compiler with `triton` and
# `tl` bound to it (kernel_sources.load_kernels), so Tritium and Triton
# compile the same source.  Tutorial 02's softmax and tutorial 05's layer
# norm are in tutorials.py.


# tutorial 02's kernel for half-precision rows: the row upcast to fp32 after
# the load (Triton's tl.exp takes fp32/fp64 only); the store rounds back
@triton.jit  # noqa: F821
def softmax_kernel_fp32_math(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                             BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):  # noqa: F821
    row_start = tl.program_id(0)  # noqa: F821
    row_step = tl.num_programs(0)  # noqa: F821
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):  # noqa: F821
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)  # noqa: F821
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf')).to(tl.float32)  # noqa: F821
        row_minus_max = row - tl.max(row, axis=0)  # noqa: F821
        numerator = tl.exp(row_minus_max)  # noqa: F821
        denominator = tl.sum(numerator, axis=0)  # noqa: F821
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)  # noqa: F821


# row-wise argmax: one row per program, index of the first maximum
@triton.jit  # noqa: F821
def argmax_rows_kernel(x_ptr, out_ptr, n_cols, stride, BLOCK_SIZE: tl.constexpr):  # noqa: F821
    row = tl.program_id(0)  # noqa: F821
    cols = tl.arange(0, BLOCK_SIZE)  # noqa: F821
    x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=-float('inf'))  # noqa: F821
    tl.store(out_ptr + row, tl.argmax(x, axis=0))  # noqa: F821


# inclusive prefix sum along the rows of a [ROWS, BLOCK_SIZE] tile (axis 1)
@triton.jit  # noqa: F821
def cumsum_rows_kernel(x_ptr, out_ptr, n_rows, n_cols, stride, ROWS: tl.constexpr,
                       BLOCK_SIZE: tl.constexpr):  # noqa: F821
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)  # noqa: F821
    cols = tl.arange(0, BLOCK_SIZE)  # noqa: F821
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offs = rows[:, None] * stride + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.)  # noqa: F821
    tl.store(out_ptr + offs, tl.cumsum(x, axis=1), mask=mask)  # noqa: F821


@triton.jit  # noqa: F821
def row_sum_loop_kernel(x_ptr, out_ptr, n_cols, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):  # noqa: F821
    # Row sums over a loop of column tiles, each tile's sums folded into a
    # running value (the form Triton's optimize-thread-locality pass
    # rewrites: partials per thread, the threads combined after the loop).
    off_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)  # noqa: F821
    total = tl.zeros([BLOCK_M], dtype=tl.float32)  # noqa: F821
    for start in range(0, n_cols, BLOCK_N):
        off_n = start + tl.arange(0, BLOCK_N)  # noqa: F821
        x = tl.load(x_ptr + off_m[:, None] * n_cols + off_n[None, :])  # noqa: F821
        total = total + tl.sum(x, axis=1)  # noqa: F821
    tl.store(out_ptr + off_m, total)  # noqa: F821
