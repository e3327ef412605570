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


def ttgir(m, n, k, a_layout, b_layout, acc_layout, num_warps):
    a_lines, a = ids([m, k], "#la", "a")
    b_lines, b = ids([k, n], "#lb", "b")
    c_lines, c = ids([m, n], "#acc", "c")
    acc = tensor_type([m, n], "#acc")
    body = a_lines + b_lines + c_lines + [
        f"%da = ttg.convert_layout {a} : {tensor_type([m, k], '#la')} -> {tensor_type([m, k], '#da')}",
        f"%db = ttg.convert_layout {b} : {tensor_type([k, n], '#lb')} -> {tensor_type([k, n], '#db')}",
        f"%zero = arith.constant dense<0> : {acc}",
        f"%d = tt.dot %da, %db, %zero : {tensor_type([m, k], '#da')} * {tensor_type([k, n], '#db')} -> {acc}",
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
    # m, n, k, A's layout, B's layout (K contiguous, as a transposed B), accumulator, warps
    (32, 32, 16, blocked([1, 4], [8, 4], [4, 1], [1, 0]), blocked([4, 1], [4, 8], [1, 4], [0, 1]),
     blocked([2, 2], [2, 16], [4, 1], [1, 0]), 4),
    (16, 64, 8, blocked([1, 4], [16, 2], [1, 2], [1, 0]), blocked([1, 4], [1, 32], [2, 1], [1, 0]),
     blocked([4, 4], [1, 32], [2, 1], [1, 0]), 2),
]


@pytest.mark.parametrize("staged", [False, True], ids=["conversions", "shared-tiles"])
@pytest.mark.parametrize("m,n,k,a_layout,b_layout,acc_layout,num_warps", CASES,
                         ids=[f"{c[0]}x{c[1]}x{c[2]}" for c in CASES])
def test_cuda_core_dot_computes_every_element(m, n, k, a_layout, b_layout, acc_layout, num_warps, staged):
    pipeline = LOWER.format("ttg-cuda-core-dot-operands," if staged else "")
    source = ttgir(m, n, k, a_layout, b_layout, acc_layout, num_warps)
    llir = native_library().run_pipeline(source, pipeline, "dot.ttgir")
    if staged:
        assert "llvm.store" in llir
    ret = simulate(llir, "f", 32 * num_warps)
    d, element = ret[0], ret[1]
    assert set(d) == set(element)
    for reg in element:
        for t in range(32 * num_warps):
            row, col = divmod(element[reg][t], n)
            want = sum((row * k + kk) * (kk * n + col) for kk in range(k)) & 0xFFFFFFFF
            assert d[reg][t] == want, f"thread {t} register {reg}: element ({row}, {col}) is {d[reg][t]}, not {want}"
