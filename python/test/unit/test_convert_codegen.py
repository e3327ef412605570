"""ttg.convert_layout lowered and *run* without a GPU.

Each case computes every element's row-major id in a source layout,
converts it to a destination layout and returns it next to the ids computed
directly in the destination layout; the lockstep interpreter of
lowered_ir_interpreter.py runs the lowered LLVM for every thread of the CTA
(shared memory with its race check, barriers, shuffles) and every register
of every thread must hold the id of its own element.  The layout pairs move
elements between warps, so most go through the shared-memory tile (padded
or swizzled, with its per-register address arithmetic); some stay inside
warps (shuffles) or threads."""
import re

import pytest

from tritium._native import native_library
from lowered_ir_interpreter import blocked, element_id_ops, simulate, tensor_type

LOWER = "builtin.module(ttg-allocate-shared-memory,ttg-membar,convert-ttg-to-llvm,canonicalize,cse)"


def ttgir(shape, src, dst, num_warps):
    lines, idx, _ = element_id_ops(shape)
    # the same ids computed in the destination layout, under other names
    direct = [line.replace("%", "%d_").replace("#b", "#c") for line in lines]
    src_type, dst_type = tensor_type(shape), tensor_type(shape, "#c")
    body = "\n    ".join(lines + direct + [f"%conv = ttg.convert_layout {idx} : {src_type} -> {dst_type}"])
    return f"""#b = {src}
#c = {dst}
module attributes {{"ttg.num-warps" = {num_warps} : i32}} {{
  tt.func @f() -> ({dst_type}, {dst_type}) {{
    {body}
    tt.return %conv, {idx.replace('%', '%d_')} : {dst_type}, {dst_type}
  }}
}}
"""


CASES = [
    # shape, source, destination, num_warps
    ([64, 64], blocked([1, 4], [2, 16], [4, 1], [1, 0]), blocked([4, 1], [16, 2], [1, 4], [0, 1]), 4),  # transpose
    ([64, 64], blocked([4, 1], [16, 2], [1, 4], [0, 1]), blocked([1, 4], [2, 16], [4, 1], [1, 0]), 4),
    ([32, 128], blocked([1, 4], [1, 32], [4, 1], [1, 0]), blocked([4, 1], [32, 1], [1, 4], [0, 1]), 4),
    ([128, 32], blocked([1, 8], [8, 4], [8, 1], [1, 0]), blocked([2, 2], [4, 8], [2, 4], [1, 0]), 8),
    ([4, 8, 16], blocked([1, 2, 2], [2, 4, 4], [2, 1, 2], [2, 1, 0]),
     blocked([2, 1, 1], [1, 4, 8], [1, 2, 2], [0, 1, 2]), 4),
    ([1024], blocked([4], [32], [8], [0]), blocked([1], [32], [8], [0]), 8),
    ([16, 16], blocked([1, 1], [8, 4], [4, 1], [1, 0]), blocked([1, 1], [4, 8], [1, 4], [0, 1]), 4),  # duplicates
    ([8, 256], blocked([1, 8], [1, 32], [8, 1], [1, 0]), blocked([1, 1], [2, 16], [1, 8], [1, 0]), 8),
    # the destination's vectors run along dim 0: a column-major tile
    ([64, 16], blocked([1, 1], [2, 16], [4, 1], [1, 0]), blocked([4, 1], [16, 2], [1, 4], [0, 1]), 4),
    ([4, 16, 8], blocked([1, 1, 1], [1, 4, 8], [2, 2, 1], [2, 1, 0]),
     blocked([1, 4, 1], [2, 4, 4], [2, 1, 2], [1, 2, 0]), 4),
]


@pytest.mark.parametrize("shape,src,dst,num_warps", CASES,
                         ids=["x".join(map(str, c[0])) + f"-{i}" for i, c in enumerate(CASES)])
def test_lowered_convert_layout_moves_every_element(shape, src, dst, num_warps):
    llir = native_library().run_pipeline(ttgir(shape, src, dst, num_warps), LOWER, "convert.ttgir")
    ret = simulate(llir, "f", 32 * num_warps)
    converted, expected = ret[0], ret[1]
    assert set(converted) == set(expected)
    for reg in expected:
        for t in range(32 * num_warps):
            assert converted[reg][t] == expected[reg][t], (
                f"register {reg} of thread {t} holds element {converted[reg][t]}, expected {expected[reg][t]}")


def test_the_transpose_tile_is_addressed_from_one_thread_offset():
    """The swizzled transpose tile is XOR-linear (SharedMemoryAccess.cpp):
    its 8 vector stores and 32 scalar loads per thread share a few pointers
    computed at run time (one XOR of the thread's offset each) and reach the
    rest through constant offsets, which PTX folds into the instruction."""
    shape, src, dst, num_warps = CASES[0]
    llir = native_library().run_pipeline(ttgir(shape, src, dst, num_warps), LOWER, "convert.ttgir")
    lines = llir.splitlines()
    accesses = [line for line in lines if re.search(r"llvm\.(load|store) .*!llvm\.ptr<3>", line)]
    assert len(accesses) == 8 + 32
    shared_geps = [line for line in lines if "llvm.getelementptr" in line and "!llvm.ptr<3>" in line]
    computed = [line for line in shared_geps if re.search(r"\[%", line)]
    constant = [line for line in shared_geps if re.search(r"\[\d+\]", line)]
    assert len(computed) <= 12, "\n".join(computed)
    assert len(constant) >= 28
