"""A CUDA-core dot lowered and *run* without a GPU: integer operands built
from element ids in coalesced layouts, converted to the dot's operand
layouts, multiplied by the FMA lowering (a multiply and an add per product
for integers), once as the conversions (shared scratch or shuffles, one
operand after the other) and once through ttg-cuda-core-dot-operands'
shared tiles (both stored, one barrier, both loaded).  The lockstep
interpreter of lowered_ir_interpreter.py runs every thread of the CTA with
its shared-memory race check; every accumulator element must equal the
product computed here."""
import pytest

from tritium._native import native_library
from lowered_ir_interpreter import blocked, element_id_ops, simulate, tensor_type

LOWER = "builtin.module({}ttg-allocate-shared-memory,ttg-membar,convert-ttg-to-llvm,canonicalize,cse)"


def ids(shape, alias, prefix):
    """element_id_ops for `shape` in layout `alias`, its values renamed."""
    lines, idx, _ = element_id_ops(shape)
    return [line.replace("%", f"%{prefix}_").replace("#b", alias) for line in lines], idx.replace("%", f"%{prefix}_")


def ttgir(batch, m, n, k, a_layout, b_layout, acc_layout, num_warps):
    """The dot of id-valued operands; `batch` 0 for a 2-D dot."""
    lead = [batch] if batch else []
    a_shape, b_shape, c_shape = lead + [m, k], lead + [k, n], lead + [m, n]
    a_lines, a = ids(a_shape, "#la", "a")
    b_lines, b = ids(b_shape, "#lb", "b")
    c_lines, c = ids(c_shape, "#acc", "c")
    acc = tensor_type(c_shape, "#acc")
    body = a_lines + b_lines + c_lines + [
        f"%da = ttg.convert_layout {a} : {tensor_type(a_shape, '#la')} -> {tensor_type(a_shape, '#da')}",
        f"%db = ttg.convert_layout {b} : {tensor_type(b_shape, '#lb')} -> {tensor_type(b_shape, '#db')}",
        f"%zero = arith.constant dense<0> : {acc}",
        f"%d = tt.dot %da, %db, %zero : {tensor_type(a_shape, '#da')} * {tensor_type(b_shape, '#db')} -> {acc}",
    ]
    body = "\n    ".join(body)
    return f"""#la = {a_layout}
#lb = {b_layout}
#acc = {acc_layout}
#da = #ttg.dot_op<{{opIdx = 0, parent = #acc, kWidth = 1}}>
#db = #ttg.dot_op<{{opIdx = 1, parent = #acc, kWidth = 1}}>
module attributes {{"ttg.num-warps" = {num_warps} : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"}} {{
  tt.func @f() -> ({acc}, {acc}) {{
    {body}
    tt.return %d, {c} : {acc}, {acc}
  }}
}}
"""


CASES = [
    # batch (0: a 2-D dot), m, n, k, A's layout, B's layout (K contiguous, as a transposed B),
    # accumulator, warps
    (0, 32, 32, 16, blocked([1, 4], [8, 4], [4, 1], [1, 0]), blocked([4, 1], [4, 8], [1, 4], [0, 1]),
     blocked([2, 2], [2, 16], [4, 1], [1, 0]), 4),
    (0, 16, 64, 8, blocked([1, 4], [16, 2], [1, 2], [1, 0]), blocked([1, 4], [1, 32], [2, 1], [1, 0]),
     blocked([4, 4], [1, 32], [2, 1], [1, 0]), 2),
    (2, 16, 16, 8, blocked([1, 1, 4], [1, 16, 2], [2, 1, 1], [2, 1, 0]),
     blocked([1, 4, 1], [1, 2, 16], [2, 1, 1], [1, 2, 0]), blocked([1, 2, 2], [1, 4, 8], [2, 1, 1], [2, 1, 0]), 2),
]


@pytest.mark.parametrize("staged", [False, True], ids=["conversions", "shared-tiles"])
@pytest.mark.parametrize("batch,m,n,k,a_layout,b_layout,acc_layout,num_warps", CASES,
                         ids=[("%dx" % c[0] if c[0] else "") + f"{c[1]}x{c[2]}x{c[3]}" for c in CASES])
def test_cuda_core_dot_computes_every_element(batch, m, n, k, a_layout, b_layout, acc_layout, num_warps, staged):
    pipeline = LOWER.format("ttg-cuda-core-dot-operands," if staged else "")
    source = ttgir(batch, m, n, k, a_layout, b_layout, acc_layout, num_warps)
    llir = native_library().run_pipeline(source, pipeline, "dot.ttgir")
    if staged:
        assert "llvm.store" in llir
    ret = simulate(llir, "f", 32 * num_warps)
    d, element = ret[0], ret[1]
    assert set(d) == set(element)
    for reg in element:
        for t in range(32 * num_warps):
            bb, rest = divmod(element[reg][t], m * n)
            row, col = divmod(rest, n)
            want = sum((bb * m * k + row * k + kk) * (bb * k * n + kk * n + col) for kk in range(k)) & 0xFFFFFFFF
            assert d[reg][t] == want, (f"thread {t} register {reg}: element ({bb}, {row}, {col}) is {d[reg][t]}, "
                                       f"not {want}")
