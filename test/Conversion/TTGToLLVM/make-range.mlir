// RUN: tritium-opt %s -split-input-file -convert-ttg-to-llvm -canonicalize -cse | FileCheck %s

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Element indices from the thread id: lane = tid & 31 and warp = tid >> 5;
// lane bits 0-4 become index bits 2-6 (one shift), warp bits 0-1 index bits
// 7-8, and the eight registers xor in 0-3 and 512-515 (the tile of 512
// repeats once).
// CHECK-LABEL: llvm.func @blocked_1d
// CHECK-DAG: %[[C31:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK-DAG: %[[C5:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[C7:.*]] = llvm.mlir.constant(7 : i32) : i32
// CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG: %[[C513:.*]] = llvm.mlir.constant(513 : i32) : i32
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x range <i32, 0, 128> : i32
// CHECK: %[[LANE:.*]] = llvm.and %[[TID]], %[[C31]] : i32
// CHECK: %[[WARP:.*]] = llvm.lshr %[[TID]], %[[C5]] : i32
// CHECK: %[[L:.*]] = llvm.shl %[[LANE]], %[[C2]] : i32
// CHECK: %[[W:.*]] = llvm.shl %[[WARP]], %[[C7]] : i32
// CHECK: %[[R0:.*]] = llvm.xor %[[L]], %[[W]] : i32
// CHECK: %[[R1:.*]] = llvm.xor %[[R0]], %[[C1]] : i32
// CHECK: %[[R5:.*]] = llvm.xor %[[R0]], %[[C513]] : i32
// CHECK: llvm.insertvalue %[[R0]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[R1]], %{{.*}}[1]
// CHECK: llvm.insertvalue %[[R5]], %{{.*}}[5]
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @blocked_1d() -> tensor<1024xi32, #b> {
    %r = tt.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #b>
    tt.return %r : tensor<1024xi32, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// A slice along dim 1 keeps dim 0 of the parent: lane bits 3-4 (the 4 lanes
// along dim 0) give index bits 0-1 through a mask and a right shift, warp
// bits give bits 2-3, and the four registers repeat the 16-row tile.  The
// lanes along the sliced dim do not contribute: those threads hold the same
// elements.
// CHECK-LABEL: llvm.func @slice_dim1
// CHECK-DAG: %[[C24:.*]] = llvm.mlir.constant(24 : i32) : i32
// CHECK-DAG: %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-DAG: %[[C48:.*]] = llvm.mlir.constant(48 : i32) : i32
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[LANE:.*]] = llvm.and %[[TID]], %{{.*}} : i32
// CHECK: %[[WARP:.*]] = llvm.lshr %[[TID]], %{{.*}} : i32
// CHECK: %[[M:.*]] = llvm.and %[[LANE]], %[[C24]] : i32
// CHECK: %[[L:.*]] = llvm.lshr %[[M]], %[[C3]] : i32
// CHECK: %[[W:.*]] = llvm.shl %[[WARP]], %[[C2]] : i32
// CHECK: %[[R0:.*]] = llvm.xor %[[L]], %[[W]] : i32
// CHECK: %[[R1:.*]] = llvm.xor %[[R0]], %[[C16]] : i32
// CHECK: %[[R3:.*]] = llvm.xor %[[R0]], %[[C48]] : i32
// CHECK: llvm.insertvalue %[[R0]], %{{.*}}[0] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK: llvm.insertvalue %[[R3]], %{{.*}}[3]
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @slice_dim1() -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>> {
    %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>>
    tt.return %r : tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// A range that does not start at 0 adds its start to every index; warps lie
// along the sliced dim, so they do not appear at all.
// CHECK-LABEL: llvm.func @slice_dim0_offset
// CHECK-DAG: %[[C7:.*]] = llvm.mlir.constant(7 : i32) : i32
// CHECK-DAG: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK: %[[LANE:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
// CHECK-NOT: llvm.lshr
// CHECK: %[[M:.*]] = llvm.and %[[LANE]], %[[C7]] : i32
// CHECK: %[[L:.*]] = llvm.shl %[[M]], %{{.*}} : i32
// CHECK: llvm.add %[[L]], %[[C32]] : i32
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @slice_dim0_offset() -> tensor<32xi32, #ttg.slice<{dim = 0, parent = #b}>> {
    %r = tt.make_range {start = 32 : i32, end = 64 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #b}>>
    tt.return %r : tensor<32xi32, #ttg.slice<{dim = 0, parent = #b}>>
  }
}
