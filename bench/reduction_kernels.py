# Kernel sources shared by tritium and triton in bench_reductions.py: this
# file is executed twice, once with `triton`/`tl` bound to tritium and once
# to Triton, so both compile exactly the same source.
# (No imports here on purpose: the two bindings are injected.)


# Triton's tutorial 02 (fused softmax), unchanged
@triton.jit  # noqa: F821
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):  # noqa: F821
    row_start = tl.program_id(0)  # noqa: F821
    row_step = tl.num_programs(0)  # noqa: F821
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):  # noqa: F821
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)  # noqa: F821
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))  # noqa: F821
        row_minus_max = row - tl.max(row, axis=0)  # noqa: F821
        numerator = tl.exp(row_minus_max)  # noqa: F821
        denominator = tl.sum(numerator, axis=0)  # noqa: F821
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)  # noqa: F821


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


# Triton's tutorial 05 (layer norm), the forward kernel unchanged
@triton.jit  # noqa: F821
def _layer_norm_fwd_fused(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):  # noqa: F821
    row = tl.program_id(0)  # noqa: F821
    Y += row * stride
    X += row * stride
    mean = 0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)  # noqa: F821
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)  # noqa: F821
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)  # noqa: F821
        _mean += a
    mean = tl.sum(_mean, axis=0) / N  # noqa: F821
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)  # noqa: F821
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)  # noqa: F821
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)  # noqa: F821
        x = tl.where(cols < N, x - mean, 0.)  # noqa: F821
        _var += x * x
    var = tl.sum(_var, axis=0) / N  # noqa: F821
    rstd = 1 / tl.sqrt(var + eps)  # noqa: F821
    tl.store(Mean + row, mean)  # noqa: F821
    tl.store(Rstd + row, rstd)  # noqa: F821
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)  # noqa: F821
        mask = cols < N
        w = tl.load(W + cols, mask=mask)  # noqa: F821
        b = tl.load(B + cols, mask=mask)  # noqa: F821
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)  # noqa: F821
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)  # noqa: F821


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
