// RUN: tritium-opt %s -split-input-file -convert-ttg-to-llvm | FileCheck %s

#b = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [1, 0]}>

// A splat fills every register with the scalar; a splat tensor constant
// every register with one llvm.mlir.constant.
// CHECK-LABEL: llvm.func @splats
// CHECK-SAME: (%[[S:.*]]: f32)
// CHECK: %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(f32, f32)>
// CHECK: %[[A:.*]] = llvm.insertvalue %[[S]], %[[U]][0]
// CHECK: llvm.insertvalue %[[S]], %[[A]][1]
// CHECK: %[[C:.*]] = llvm.mlir.constant(2.000000e+00 : f16) : f16
// CHECK: %[[V:.*]] = llvm.mlir.undef : !llvm.struct<(f16, f16)>
// CHECK: %[[B:.*]] = llvm.insertvalue %[[C]], %[[V]][0]
// CHECK: llvm.insertvalue %[[C]], %[[B]][1]
module attributes {"ttg.num-warps" = 2 : i32} {
  tt.func @splats(%s: f32) -> (tensor<16x8xf32, #b>, tensor<16x8xf16, #b>) {
    %sp = tt.splat %s : f32 -> tensor<16x8xf32, #b>
    %c = arith.constant dense<2.0> : tensor<16x8xf16, #b>
    tt.return %sp, %c : tensor<16x8xf32, #b>, tensor<16x8xf16, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [1, 0]}>

// expand_dims from the slice to its parent moves no data: the two registers
// of the slice are the two registers of the 1x8 tensor.  Broadcasting that
// to 32x8 repeats the 16-row tile, so the thread's four registers are
// source registers 0, 1, 0, 1 (picked by their column).
// CHECK-LABEL: llvm.func @expand_broadcast
// CHECK-SAME: (%[[X:.*]]: !llvm.struct<(i32, i32)>)
// CHECK: %[[X0:.*]] = llvm.extractvalue %[[X]][0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %[[X]][1]
// CHECK: %[[E0:.*]] = llvm.insertvalue %[[X0]], %{{.*}}[0]
// CHECK: %[[E:.*]] = llvm.insertvalue %[[X1]], %[[E0]][1]
// CHECK: %[[B0:.*]] = llvm.extractvalue %[[E]][0]
// CHECK: %[[B1:.*]] = llvm.extractvalue %[[E]][1]
// CHECK: %[[R0:.*]] = llvm.insertvalue %[[B0]], %{{.*}}[0] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK: %[[R1:.*]] = llvm.insertvalue %[[B1]], %[[R0]][1]
// CHECK: %[[R2:.*]] = llvm.insertvalue %[[B0]], %[[R1]][2]
// CHECK: llvm.insertvalue %[[B1]], %[[R2]][3]
module attributes {"ttg.num-warps" = 2 : i32} {
  tt.func @expand_broadcast(%x: tensor<8xi32, #ttg.slice<{dim = 0, parent = #b}>>) -> tensor<32x8xi32, #b> {
    %e = tt.expand_dims %x {axis = 0 : i32} : tensor<8xi32, #ttg.slice<{dim = 0, parent = #b}>> -> tensor<1x8xi32, #b>
    %bc = tt.broadcast %e : tensor<1x8xi32, #b> -> tensor<32x8xi32, #b>
    tt.return %bc : tensor<32x8xi32, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [1, 0]}>

// Along dim 1 the slice holds one element per thread.  The 16x1 tensor
// keeps the parent's two registers per thread, which hold the same element
// (the layout wraps around the single column); the broadcast to 16x8 then
// fills both columns from the first of them.
// CHECK-LABEL: llvm.func @expand_dim1
// CHECK-SAME: (%[[X:.*]]: !llvm.struct<(f32)>)
// CHECK: %[[X0:.*]] = llvm.extractvalue %[[X]][0]
// CHECK: %[[E0:.*]] = llvm.insertvalue %[[X0]], %{{.*}}[0] : !llvm.struct<(f32, f32)>
// CHECK: %[[E:.*]] = llvm.insertvalue %[[X0]], %[[E0]][1]
// CHECK: %[[B0:.*]] = llvm.extractvalue %[[E]][0]
// CHECK: %[[R0:.*]] = llvm.insertvalue %[[B0]], %{{.*}}[0] : !llvm.struct<(f32, f32)>
// CHECK: llvm.insertvalue %[[B0]], %[[R0]][1]
// CHECK-NOT: tt.broadcast
module attributes {"ttg.num-warps" = 2 : i32} {
  tt.func @expand_dim1(%x: tensor<16xf32, #ttg.slice<{dim = 1, parent = #b}>>) -> tensor<16x8xf32, #b> {
    %e = tt.expand_dims %x {axis = 1 : i32} : tensor<16xf32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<16x1xf32, #b>
    %bc = tt.broadcast %e : tensor<16x1xf32, #b> -> tensor<16x8xf32, #b>
    tt.return %bc : tensor<16x8xf32, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>

// A constant with different elements becomes a constant table (row-major;
// booleans as bytes); each register loads its element at
// row * 8 + column of its coordinates.
// CHECK-DAG: llvm.mlir.global internal constant @[[BOOLS:tensorConstant_[0-9]+]](dense<[1, 0, 1, 0, {{.*}}]> : tensor<16xi8>) {addr_space = 0 : i32} : !llvm.array<16 x i8>
// CHECK-DAG: llvm.mlir.global internal constant @[[INTS:tensorConstant_[0-9]+]](dense<[0, 1, 2, 3, 4, 5, 6, 7, 9, {{.*}}]> : tensor<16xi32>) {addr_space = 0 : i32} : !llvm.array<16 x i32>
// CHECK-LABEL: llvm.func @tables
// CHECK: %[[T:.*]] = llvm.mlir.addressof @[[INTS]] : !llvm.ptr
// CHECK: %[[ROW:.*]] = llvm.mul %{{.*}}, %{{.*}} : i32
// CHECK: %[[OFF:.*]] = llvm.add %{{.*}}, %[[ROW]] : i32
// CHECK: %[[P:.*]] = llvm.getelementptr %[[T]][%[[OFF]]] : (!llvm.ptr, i32) -> !llvm.ptr, i32
// CHECK: llvm.load %[[P]] : !llvm.ptr -> i32
// CHECK: %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i8
// CHECK: llvm.trunc %[[B]] : i8 to i1
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @tables() -> (tensor<2x8xi32, #b>, tensor<2x8xi1, #b>) {
    %c = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7], [9, 1, 2, 3, 4, 5, 6, 7]]> : tensor<2x8xi32, #b>
    %m = arith.constant dense<[[true, false, true, false, true, false, true, false], [true, false, true, false, true, false, true, true]]> : tensor<2x8xi1, #b>
    tt.return %c, %m : tensor<2x8xi32, #b>, tensor<2x8xi1, #b>
  }
}

// -----

#src = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#tr = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#flat = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// trans to the transposed layout and reshape to the flat layout keep every
// element in its thread: registers only.  Element (i, j) of the source is
// (j, i) of the transpose, and flat element 32i + j; all three are held by
// lane j of warp i % 4, in register i / 4.  cat appends a thread's rhs
// registers to its lhs ones.
// CHECK-LABEL: llvm.func @trans_reshape_cat
// CHECK-SAME: (%[[X:.*]]: !llvm.struct<(f32, f32, f32, f32)>)
// CHECK-NOT: nvvm.barrier0
// CHECK-DAG: %[[X0:.*]] = llvm.extractvalue %[[X]][0]
// CHECK-DAG: %[[X1:.*]] = llvm.extractvalue %[[X]][1]
// CHECK: %[[T0:.*]] = llvm.insertvalue %[[X0]], %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK: %[[T:.*]] = llvm.insertvalue %[[X1]], %[[T0]][1]
// CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[3] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[7] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @trans_reshape_cat(%x: tensor<16x32xf32, #src>) -> (tensor<32x16xf32, #tr>, tensor<512xf32, #flat>, tensor<1024xf32, #flat>) {
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf32, #src> -> tensor<32x16xf32, #tr>
    %r = tt.reshape %x : tensor<16x32xf32, #src> -> tensor<512xf32, #flat>
    %c = tt.cat %r, %r : tensor<512xf32, #flat> -> tensor<1024xf32, #flat>
    tt.return %t, %r, %c : tensor<32x16xf32, #tr>, tensor<512xf32, #flat>, tensor<1024xf32, #flat>
  }
}

// -----

#src = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#joined = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>

// join puts lhs and rhs in the two registers of the new minor dimension;
// split takes them apart again.
// CHECK-LABEL: llvm.func @join_split
// CHECK-SAME: (%[[A:.*]]: !llvm.struct<(f32, f32, f32, f32)>, %[[B:.*]]: !llvm.struct<(f32, f32, f32, f32)>)
// CHECK-DAG: %[[A0:.*]] = llvm.extractvalue %[[A]][0]
// CHECK-DAG: %[[B0:.*]] = llvm.extractvalue %[[B]][0]
// CHECK: %[[J0:.*]] = llvm.insertvalue %[[A0]], %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK: %[[J1:.*]] = llvm.insertvalue %[[B0]], %[[J0]][1]
// CHECK: %[[J:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[7]
// CHECK-DAG: %[[S0:.*]] = llvm.extractvalue %[[J]][0]
// CHECK-DAG: %[[S1:.*]] = llvm.extractvalue %[[J]][1]
// CHECK: %[[L:.*]] = llvm.insertvalue %[[S0]], %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK: %[[R:.*]] = llvm.insertvalue %[[S1]], %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32)>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @join_split(%a: tensor<16x32xf32, #src>, %b: tensor<16x32xf32, #src>) -> (tensor<16x32xf32, #src>, tensor<16x32xf32, #src>) {
    %j = tt.join %a, %b : tensor<16x32xf32, #src> -> tensor<16x32x2xf32, #joined>
    %l, %r = tt.split %j : tensor<16x32x2xf32, #joined> -> tensor<16x32xf32, #src>
    tt.return %l, %r : tensor<16x32xf32, #src>, tensor<16x32xf32, #src>
  }
}
