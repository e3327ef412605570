// RUN: tritium-opt %s -split-input-file -ttg-allocate-shared-memory -convert-ttg-to-llvm -canonicalize -cse | FileCheck %s

// A 1-D sum over 4 warps: each thread folds its 8 registers, five butterfly
// shuffles (xor 1, 2, 4, 8, 16) reduce the warp, and the four warp partials
// meet in 16 bytes of scratch: stored at the warp's position, a barrier,
// then lane l loads partial l % 4 and two more butterflies (xor 1, 2) add
// the four in every lane.
#b1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 16 : i32
// CHECK-LABEL: llvm.func @sum_1d
// CHECK-COUNT-7: llvm.fadd
// CHECK: nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[ONE:[0-9]+]], %{{.*}} : i32 -> i32
// CHECK-COUNT-4: nvvm.shfl.sync  bfly
// CHECK-NOT: nvvm.shfl.sync
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: llvm.load %{{.*}} : !llvm.ptr<3>
// CHECK-COUNT-2: nvvm.shfl.sync  bfly
// CHECK-NOT: nvvm.shfl.sync
// CHECK: st.global.b32
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32} {
  tt.func @sum_1d(%x: tensor<1024xf32, #b1>, %out: !tt.ptr<f32>) {
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<1024xf32, #b1>) -> f32
    tt.store %out, %s : !tt.ptr<f32>
    tt.return
  }
}

// -----

// Rows of 64 spread over 4 registers x 16 lanes, warps stacked along rows:
// the max of a row stays within a warp (4 butterflies over the 16 lanes of a
// row), so no shared memory and no barrier; the result, sliced at axis 1,
// takes each thread's row partials in place.
#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @row_max
// CHECK-COUNT-4: nvvm.shfl.sync  bfly
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.return
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32} {
  tt.func @row_max(%x: tensor<8x64xf32, #rows>) -> tensor<8xf32, #ttg.slice<{dim = 1, parent = #rows}>> {
    %m = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.maxnumf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<8x64xf32, #rows>) -> tensor<8xf32, #ttg.slice<{dim = 1, parent = #rows}>>
    tt.return %m : tensor<8xf32, #ttg.slice<{dim = 1, parent = #rows}>>
  }
}

// -----

// Columns reduce across the warps: two operands (a value and its index, as
// argmax lowers) each get a section of the scratch: 64 columns x 4 warps x
// 4 bytes = 1024 bytes per operand.  One lane bit runs along the columns:
// one butterfly for each of a thread's 4 columns and each operand, then one
// barrier between the scratch stores and loads.
#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 2048 : i32
// CHECK-LABEL: llvm.func @column_argmax
// CHECK-COUNT-8: nvvm.shfl.sync  bfly
// CHECK-NOT: nvvm.shfl.sync
// CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32} {
  tt.func @column_argmax(%x: tensor<8x64xf32, #rows>, %i: tensor<8x64xi32, #rows>) -> (tensor<64xf32, #ttg.slice<{dim = 0, parent = #rows}>>, tensor<64xi32, #ttg.slice<{dim = 0, parent = #rows}>>) {
    %m:2 = "tt.reduce"(%x, %i) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf ogt, %a, %b : f32
      %eq = arith.cmpf oeq, %a, %b : f32
      %lt = arith.cmpi slt, %ai, %bi : i32
      %tie = arith.andi %eq, %lt : i1
      %keep = arith.ori %gt, %tie : i1
      %v = arith.select %keep, %a, %b : f32
      %vi = arith.select %keep, %ai, %bi : i32
      tt.reduce.return %v, %vi : f32, i32
    }) : (tensor<8x64xf32, #rows>, tensor<8x64xi32, #rows>) -> (tensor<64xf32, #ttg.slice<{dim = 0, parent = #rows}>>, tensor<64xi32, #ttg.slice<{dim = 0, parent = #rows}>>)
    tt.return %m#0, %m#1 : tensor<64xf32, #ttg.slice<{dim = 0, parent = #rows}>>, tensor<64xi32, #ttg.slice<{dim = 0, parent = #rows}>>
  }
}

// -----

// Rows reduce across 8 warps, and the result layout has only two lane bits
// that repeat a result (not enough to spread 8 partials over lanes): every
// thread loads the 8 partials of each of its 4 rows.  The scratch is
// [warp][row] (32 rows x 8 warps x 4 bytes): a warp's lanes store and load
// rows next to each other, where [row][warp] would put the 8 lanes that hold
// rows 4 apart 128 bytes apart, in the same banks.
#cols = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]}>
// CHECK-LABEL: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.shared = 1024 : i32
// CHECK-LABEL: llvm.func @row_sum_across_warps
// CHECK-DAG: [[C7:%.*]] = llvm.mlir.constant(7 : i32)
// CHECK-DAG: [[C32:%.*]] = llvm.mlir.constant(32 : i32)
// CHECK: [[WARP_ROW:%.*]] = llvm.mul %{{.*}}, [[C32]] : i32
// CHECK: llvm.add [[WARP_ROW]], [[ROW:%.*]] : i32
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: [[LAST_ROW:%.*]] = llvm.mul [[C7]], [[C32]] : i32
// CHECK: llvm.add [[LAST_ROW]], [[ROW]] : i32
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32} {
  tt.func @row_sum_across_warps(%x: tensor<32x64xf32, #cols>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #cols}>> {
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<32x64xf32, #cols>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #cols}>>
    tt.return %s : tensor<32xf32, #ttg.slice<{dim = 1, parent = #cols}>>
  }
}
