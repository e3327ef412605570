"""ttg-optimize-thread-locality on a kernel as users write it, without a
GPU: a loop folding row sums, maxima or minima into a running value keeps
per-thread partials (two tt.reduce in the TTGIR: in the loop, within
threads; after it, across them); another fold than the reduction's own
operation is left alone."""
import pytest

import tritium

from kernels.thread_locality import row_reduce_loop


def compile_loop(op, block_n, num_warps=4):
    return tritium.compile(row_reduce_loop, signature={"X": "*fp32", "Y": "*fp32", "N": "i32"},
                           constexprs={"BLOCK_M": 32, "BLOCK_N": block_n, "OP": op},
                           attrs={"X": [["tt.divisibility", 16]], "N": [["tt.divisibility", 16]]},
                           target="cuda:90", num_warps=num_warps)


@pytest.mark.parametrize("op", [0, 1, 2])
@pytest.mark.parametrize("block_n", [32, 64, 128])
def test_the_threads_are_combined_once_after_the_loop(op, block_n):
    ttgir = compile_loop(op, block_n).asm["ttgir"]
    assert ttgir.count("\"tt.reduce\"") == 2
    assert "allow_reorder efficient_layout" in ttgir
    loop = ttgir[ttgir.index("scf.for"):ttgir.index("scf.yield")]
    assert "axis = 2" in loop and "axis = 1" not in loop  # in the loop: within threads only


def test_a_product_of_row_sums_is_left_alone():
    ttgir = compile_loop(3, 64).asm["ttgir"]
    assert ttgir.count("\"tt.reduce\"") == 1 and "allow_reorder" not in ttgir
