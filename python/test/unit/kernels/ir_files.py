"""Files of Triton IR for `triton.compile(path)`.  TTGIR written the way
Triton prints it: a kernel that reads an M x N float16 tile in one layout,
moves it (and its offsets) to another layout, optionally through shared
memory in a third, and writes it back where it came from.  The output
equals the input for every layout pair, so a wrong conversion shows as
wrong elements.  And a small TTIR kernel.  The CPU tests compile these
files; the GPU tests run them."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "tools", "fuzz"))
from layout_generator import copy_ttgir, cumsum_ttgir, sum_ttgir  # noqa: E402

# A .ttir kernel: x[i] += 1 for i < n (one program of 128 elements).
TTIR_ADD = """\
module {
  tt.func public @add_one(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %offs = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %bound = tt.splat %n : i32 -> tensor<128xi32>
    %mask = arith.cmpi slt, %offs, %bound : tensor<128xi32>
    %ptrs = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %at = tt.addptr %ptrs, %offs : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %v = tt.load %at, %mask : tensor<128x!tt.ptr<f32>>
    %one = arith.constant dense<1.0> : tensor<128xf32>
    %w = arith.addf %v, %one : tensor<128xf32>
    tt.store %at, %w, %mask : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}
"""

# Layouts in Triton's printed syntax, CTA-group fields included.
BLOCKED_ROWS = ("#ttg.blocked<{sizePerThread=[1, 4], threadsPerWarp=[8, 4], warpsPerCTA=[4, 1], order=[1, 0], "
                "CTAsPerCGA=[1, 1], CTASplitNum=[1, 1], CTAOrder=[1, 0]}>")
BLOCKED_COLUMNS = ("#ttg.blocked<{sizePerThread=[1, 1], threadsPerWarp=[32, 1], warpsPerCTA=[2, 2], order=[0, 1], "
                   "CTAsPerCGA=[1, 1], CTASplitNum=[1, 1], CTAOrder=[0, 1]}>")
MMA_V2 = ("#ttg.nvidia_mma<{versionMajor=2, versionMinor=0, warpsPerCTA=[2, 2], CTAsPerCGA=[1, 1], "
          "CTASplitNum=[1, 1], CTAOrder=[1, 0], instrShape=[16, 8]}>")
MMA_V3 = ("#ttg.nvidia_mma<{versionMajor=3, versionMinor=0, warpsPerCTA=[4, 1], CTAsPerCGA=[1, 1], "
          "CTASplitNum=[1, 1], CTAOrder=[1, 0], instrShape=[16, 32, 16]}>")
# mma v3 with fewer than 4 warps along M (no wgmma computes it; Triton's
# layout tests convert such layouts)
MMA_V3_ACROSS = ("#ttg.nvidia_mma<{versionMajor=3, versionMinor=0, warpsPerCTA=[1, 4], CTAsPerCGA=[1, 1], "
                 "CTASplitNum=[1, 1], CTAOrder=[1, 0], instrShape=[16, 32, 32]}>")
MMA_V3_SQUARE = ("#ttg.nvidia_mma<{versionMajor=3, versionMinor=0, warpsPerCTA=[2, 2], CTAsPerCGA=[1, 1], "
                 "CTASplitNum=[1, 1], CTAOrder=[1, 0], instrShape=[16, 64, 16]}>")
# A batched (rank-3) wgmma tile's A operand, sliced to rank 2 (batch x K),
# as in Triton's test_convert2d
SLICED_BATCHED_V3_A = ("#ttg.slice<{dim=1, parent=#ttg.dot_op<{opIdx=0, parent=#ttg.nvidia_mma<{versionMajor=3, "
                       "versionMinor=0, warpsPerCTA=[4, 1, 1], CTAsPerCGA=[1, 1, 1], CTASplitNum=[1, 1, 1], "
                       "CTAOrder=[2, 1, 0], instrShape=[16, 32, 16]}>, kWidth=2}>}>")
DOT_A_V2 = f"#ttg.dot_op<{{parent={MMA_V2}, opIdx=0, kWidth=2}}>"
# Threads along columns, registers along rows: a 16 x 32 tile over 4 warps.
LINEAR = ("#ttg.linear<{register=[[1, 0], [2, 0]], lane=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], "
          "warp=[[4, 0], [8, 0]], block=[]}>")
SWIZZLED = ("#ttg.swizzled_shared<{vec=4, perPhase=2, maxPhase=4, order=[1, 0], CTAsPerCGA=[1, 1], "
            "CTASplitNum=[1, 1], CTAOrder=[0, 1]}>")
NVMMA_ROWS = ("#ttg.nvmma_shared<{swizzlingByteWidth=64, transposed=false, elementBitWidth=16, CTAsPerCGA=[1, 1], "
              "CTASplitNum=[1, 1], CTAOrder=[1, 0]}>")

LAYOUT_PAIRS = [(BLOCKED_ROWS, BLOCKED_COLUMNS, None), (BLOCKED_ROWS, MMA_V2, None), (MMA_V3, BLOCKED_COLUMNS, None),
                (MMA_V2, DOT_A_V2, None), (BLOCKED_COLUMNS, MMA_V3, SWIZZLED), (BLOCKED_ROWS, MMA_V2, NVMMA_ROWS),
                (LINEAR, BLOCKED_ROWS, None), (MMA_V2, LINEAR, SWIZZLED), (MMA_V3_ACROSS, MMA_V3, None),
                (MMA_V3_SQUARE, BLOCKED_ROWS, SWIZZLED), (SLICED_BATCHED_V3_A, BLOCKED_COLUMNS, None)]


# Reductions and scans over layouts their lowerings cannot run directly
# (found wrong by the layout fuzzer before ttg-legalize-reduction-layouts):
# (m, n, warps, layout, axis).
#   a register basis and a lane basis reach the same rows (seed 1585);
#   a lane basis moves along the axis and across it (seed 43);
#   two lane bases reach the same rows (seed 218);
#   XOR-mixed bases over a 128 x 128 tile, 8 warps (seed 796).
ODD_REDUCTIONS = [
    (32, 1, 8, "#ttg.linear<{register=[[8, 0]], lane=[[2, 0], [0, 0], [8, 0], [4, 0], [16, 0]], "
               "warp=[[0, 0], [0, 0], [1, 0]], block=[]}>", 0),
    (16, 4, 1, "#ttg.linear<{register=[[0, 1]], lane=[[2, 0], [0, 2], [4, 0], [8, 0], [1, 1]], warp=[], block=[]}>", 1),
    (4, 2, 4, "#ttg.linear<{register=[[0, 0]], lane=[[2, 0], [2, 0], [0, 0], [0, 0], [1, 0]], "
              "warp=[[0, 1], [0, 0]], block=[]}>", 0),
    (128, 128, 8, "#ttg.linear<{register=[[0, 16], [1, 1], [64, 0], [16, 64], [0, 32], [0, 8], [66, 0]], "
                  "lane=[[0, 4], [0, 2], [32, 0], [0, 64], [0, 0]], warp=[[1, 0], [8, 0], [5, 0]], block=[]}>", 0),
]
# Scans along an axis whose lanes are not consecutive lane ids, or whose
# bases mix the axis with the other dimension: (m, n, warps, layout, axis).
# Kernels: sum_ttgir and cumsum_ttgir, the layout fuzzer's templates.
ODD_SCANS = [
    (4, 8, 1, "#ttg.linear<{register=[], lane=[[0, 1], [1, 0], [0, 2], [2, 0], [0, 4]], warp=[], block=[]}>", 1),
    (16, 4, 1, "#ttg.linear<{register=[[0, 1]], lane=[[2, 0], [0, 2], [4, 0], [8, 0], [1, 1]], warp=[], block=[]}>", 0),
]


# Pairs whose 256 x 256 int32 conversion (256 KiB) exceeds shared memory and
# runs in parts (both layouts repeat along rows in registers).
LARGE_TILE_PAIRS = [(BLOCKED_ROWS, BLOCKED_COLUMNS), (MMA_V2, BLOCKED_COLUMNS), (MMA_V3, BLOCKED_ROWS)]


def large_tile_copy_ttgir(src: str, dst: str) -> str:
    """The copy kernel `kernel(x: *i32, z: *i32)` over a 256 x 256 tile (4
    warps)."""
    return copy_ttgir(256, 256, "i32", 4, src, dst, None)


def layout_copy_ttgir(m: int, n: int, src: str, dst: str, interm: str = None) -> str:
    """The copy kernel `kernel(x: *fp16, z: *fp16)` over an m x n tile (4
    warps): the layout fuzzer's template (tools/fuzz/layout_generator.py)."""
    return copy_ttgir(m, n, "f16", 4, src, dst, interm)
