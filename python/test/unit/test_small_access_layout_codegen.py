"""Loads and stores of fewer elements than threads follow their values'
layouts, compiled without a GPU (cuda:90, TTGIR).

Such an access anchors nothing (no layout makes it cheaper), so the value
it stores, or the users of the value it loads, decide its layout and its
pointers go with it.  Stored from a reduction's layout, a column of row
results needs no conversion; had the pointers kept their coalesced layout,
each result would go through shared memory (a store, a barrier and a load)
before its store."""
import re

import tritium as triton
import tritium.language as tl


@triton.jit
def row_mean_and_spread(x_ptr, mean_ptr, var_ptr, count_ptr, rows, cols,
                        ROWS: tl.constexpr, COLS: tl.constexpr):
    # A looped row reduction in the shape torch.compile generates for
    # normalization statistics: [ROWS, COLS] tiles summed over the columns,
    # three [ROWS, 1] results stored at the end.
    row = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    row_ok = row < rows
    total = tl.zeros([ROWS, COLS], tl.float32)
    squares = tl.zeros([ROWS, COLS], tl.float32)
    count = tl.zeros([ROWS, COLS], tl.float32)
    for start in range(0, cols, COLS):
        col = start + tl.arange(0, COLS)[None, :]
        ok = row_ok & (col < cols)
        x = tl.load(x_ptr + row * cols + col, mask=ok, other=0.0)
        total += x
        squares += x * x
        count += tl.where(ok, 1.0, 0.0)
    n = tl.sum(count, 1)[:, None]
    mean = tl.sum(total, 1)[:, None] / n
    var = tl.sum(squares, 1)[:, None] / n - mean * mean
    tl.store(mean_ptr + row, mean, row_ok)
    tl.store(var_ptr + row, var, row_ok)
    tl.store(count_ptr + row, n, row_ok)


def test_a_column_of_row_results_is_stored_from_the_reductions_layout():
    signature = {"x_ptr": "*fp32", "mean_ptr": "*fp32", "var_ptr": "*fp32", "count_ptr": "*fp32",
                 "rows": "i32", "cols": "i32"}
    k = triton.compile(row_mean_and_spread, signature=signature, target="cuda:90",
                       constexprs={"ROWS": 16, "COLS": 32}, num_warps=4,
                       attrs={n: [["tt.divisibility", 16]] for n in signature})
    ttgir = k.asm["ttgir"]
    after_loop = ttgir[ttgir.rindex("scf.yield"):]
    assert "ttg.convert_layout" not in after_loop, after_loop
    stores = re.findall(r"tt\.store [^\n]*: tensor<16x1x!tt\.ptr<f32>, (#\w+)>", after_loop)
    loop_layout = re.search(r"tt\.load [^\n]*: tensor<16x32x!tt\.ptr<f32>, (#\w+)>", ttgir).group(1)
    assert stores == [loop_layout] * 3, (stores, loop_layout)
    assert "bar.sync" not in k.asm["ptx"]
