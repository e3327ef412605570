"""Reshapes and transposes lowered and *run* without a GPU, after
ttg-remove-layout-conversions has chosen their layouts.

Each case computes every element's row-major id in a source layout,
reshapes the tile to a view, permutes the view's dimensions, flattens it and
converts it to a 1-D destination layout, and returns it next to the flat
index each register of the destination layout holds.  The layout pass lets
layouts flow through tt.reshape and tt.trans (as #ttg.linear layouts,
relabelled), here from the returned tile back to the index ranges, so the
ids are computed in relabelled #ttg.linear layouts and the reshapes and the
transpose lower to renamed registers; the lockstep interpreter of
lowered_ir_interpreter.py runs it for every thread of the CTA, and every
register must hold the id numpy's reshape/transpose puts at its index.
(The intermediate layouts as written are placeholders: without the layout
pass, the lowering refuses a reshape between layouts that place elements in
other threads.)"""
import numpy as np
import pytest

from tritium._native import native_library
from lowered_ir_interpreter import blocked, element_id_ops, simulate, tensor_type

LOWER = "ttg-allocate-shared-memory,ttg-membar,convert-ttg-to-llvm,canonicalize,cse"


def ttgir(shape, view, perm, src, mid, dst, num_warps):
    lines, idx, _ = element_id_ops(shape)
    total = int(np.prod(shape))
    flat_lines, flat_idx, _ = element_id_ops([total])
    direct = [line.replace("%", "%d_").replace("#b", "#c") for line in flat_lines]
    permuted = [view[p] for p in perm]
    body = lines + direct + [
        f"%v = ttg.convert_layout {idx} : {tensor_type(shape)} -> {tensor_type(shape, '#m')}",
        f"%r = tt.reshape %v : {tensor_type(shape, '#m')} -> {tensor_type(view, '#rv')}",
        f"%t = tt.trans %r {{order = array<i32: {', '.join(map(str, perm))}>}} : "
        f"{tensor_type(view, '#rv')} -> {tensor_type(permuted, '#tv')}",
        f"%f = tt.reshape %t : {tensor_type(permuted, '#tv')} -> {tensor_type([total], '#fl')}",
        f"%conv = ttg.convert_layout %f : {tensor_type([total], '#fl')} -> {tensor_type([total], '#c')}",
    ]
    out = tensor_type([total], "#c")
    default = lambda rank: blocked([1] * rank, [1] * (rank - 1) + [32], [num_warps] + [1] * (rank - 1),  # noqa: E731
                                   list(range(rank - 1, -1, -1)))
    return f"""#b = {src}
#m = {mid}
#rv = {default(len(view))}
#tv = {default(len(view))}
#fl = {default(1)}
#c = {dst}
module attributes {{"ttg.num-warps" = {num_warps} : i32, "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func @f() -> ({out}, {out}) {{
    {chr(10).join('    ' + line for line in body).lstrip()}
    tt.return %conv, {flat_idx.replace('%', '%d_')} : {out}, {out}
  }}
}}
"""


CASES = [
    # shape, view, perm, source layout, the layout before the reshape, 1-D destination, num_warps
    # Triton's test_trans_reshape
    ([32, 32], [32, 4, 4, 2], [1, 2, 3, 0], blocked([1, 4], [4, 8], [4, 1], [1, 0]),
     blocked([1, 4], [4, 8], [4, 1], [1, 0]), blocked([4], [32], [4], [0]), 4),
    ([64, 16], [64, 16], [1, 0], blocked([1, 4], [8, 4], [4, 1], [1, 0]),
     blocked([1, 4], [8, 4], [4, 1], [1, 0]), blocked([1], [32], [4], [0]), 4),
    ([16, 8, 8], [8, 16, 2, 4], [3, 0, 2, 1], blocked([1, 2, 2], [2, 4, 4], [2, 1, 2], [2, 1, 0]),
     blocked([2, 1, 1], [1, 4, 8], [1, 2, 2], [0, 1, 2]), blocked([2], [32], [4], [0]), 4),
    ([2048], [16, 128], [1, 0], blocked([4], [32], [8], [0]), blocked([4], [32], [8], [0]),
     blocked([1], [32], [8], [0]), 8),
    ([16, 16], [4, 4, 16], [2, 1, 0], blocked([1, 1], [8, 4], [4, 1], [1, 0]),  # lanes holding duplicates
     blocked([1, 1], [8, 4], [4, 1], [1, 0]), blocked([1], [32], [4], [0]), 4),
]


def expected_ids(shape, view, perm):
    ids = np.arange(int(np.prod(shape))).reshape(shape)
    return ids.reshape(view).transpose(perm).reshape(-1)


@pytest.mark.parametrize("shape,view,perm,src,mid,dst,num_warps", CASES,
                         ids=["x".join(map(str, c[0])) + f"-{i}" for i, c in enumerate(CASES)])
def test_reshape_and_transpose_keep_every_element(shape, view, perm, src, mid, dst, num_warps):
    text = ttgir(shape, view, perm, src, mid, dst, num_warps)
    lib = native_library()
    # the pass leaves no conversion inside the chain: at most the one into #c
    ttg = lib.run_pipeline(text, "builtin.module(ttg-remove-layout-conversions)", "reshape.ttgir")
    assert ttg.count("ttg.convert_layout") <= 1, ttg
    llir = lib.run_pipeline(text, f"builtin.module(ttg-remove-layout-conversions,{LOWER})", "reshape.ttgir")
    ret = simulate(llir, "f", 32 * num_warps)
    values, flat = ret[0], ret[1]
    want = expected_ids(shape, view, perm)
    assert set(values) == set(flat)
    for reg in flat:
        for t in range(32 * num_warps):
            assert values[reg][t] == want[flat[reg][t]], (
                f"register {reg} of thread {t} holds element {values[reg][t]} at index {flat[reg][t]}, "
                f"expected {want[flat[reg][t]]}")
