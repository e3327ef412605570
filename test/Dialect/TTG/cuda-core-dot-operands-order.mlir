// RUN: tritium-opt %s -ttg-cuda-core-dot-operands -mlir-print-local-scope | FileCheck %s

// A staged operand's tile is contiguous along its source's contiguous
// dimension, so that ttg-pipeline can fill a ring of such tiles by
// cp.async.  B (Inductor's mm template at BLOCK_N 64, 8 warps: rows of 4
// consecutive elements a thread) is read by the dot along k, in wider
// vectors from a tile contiguous along k; the tile stays row-major (order
// [1, 0]) instead.  A column-major A (4 consecutive rows a thread) gets a
// tile contiguous along its rows (order [0, 1]).
// CHECK-LABEL: tt.func @staged_tiles_follow_the_source
// CHECK: ttg.local_alloc %arg0 : (tensor<32x32xf32, {{.*}}order = [0, 1]}>>) -> !ttg.memdesc<32x32xf32, #ttg.swizzled_shared<{{.*}}order = [0, 1]}>
// CHECK: ttg.local_alloc %arg1 : (tensor<32x64xf32, {{.*}}order = [1, 0]}>>) -> !ttg.memdesc<32x64xf32, #ttg.swizzled_shared<{{.*}}order = [1, 0]}>
#acol = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]}>
#brow = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#db = #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @staged_tiles_follow_the_source(%a: tensor<32x32xf32, #acol>, %b: tensor<32x64xf32, #brow>, %c: tensor<32x64xf32, #acc>) -> tensor<32x64xf32, #acc> {
    %ca = ttg.convert_layout %a : tensor<32x32xf32, #acol> -> tensor<32x32xf32, #da>
    %cb = ttg.convert_layout %b : tensor<32x64xf32, #brow> -> tensor<32x64xf32, #db>
    %d = tt.dot %ca, %cb, %c : tensor<32x32xf32, #da> * tensor<32x64xf32, #db> -> tensor<32x64xf32, #acc>
    tt.return %d : tensor<32x64xf32, #acc>
  }
}
