// RUN: tritium-opt %s -split-input-file -ttg-optimize-thread-locality | FileCheck %s

// A running max of each iteration's row maxima: each thread holds 4 of the
// 64 columns (16 threads along them), so the loop carries a 32x16 partial
// reduced in registers (axis 2 of the 32x16x4 view) and the 16 threads are
// combined once after the loop, then the initial value folded in.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #ttg.slice<{dim = 1, parent = #blocked}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-DAG: #[[B3:.*]] = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [2, 16, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-DAG: #[[PART:.*]] = #ttg.slice<{dim = 2, parent = #[[B3]]}>
// CHECK-LABEL: tt.func @running_max
// CHECK: %[[NEUTRAL:.*]] = arith.constant dense<0xFF800000> : tensor<32x16xf32, #[[PART]]>
// CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT:.*]], %[[P:.*]] = %[[NEUTRAL]])
// CHECK:   %[[X:.*]] = tt.load
// CHECK:   %[[V:.*]] = tt.reshape %[[X]] allow_reorder efficient_layout : tensor<32x64xf32, #blocked> -> tensor<32x16x4xf32, #[[B3]]>
// CHECK:   %[[T:.*]] = "tt.reduce"(%[[V]]) <{axis = 2 : i32}>
// CHECK:     arith.maxnumf
// CHECK:   (tensor<32x16x4xf32, #[[B3]]>) -> tensor<32x16xf32, #[[PART]]>
// CHECK:   %[[Q:.*]] = arith.maxnumf %[[P]], %[[T]] : tensor<32x16xf32, #[[PART]]>
// CHECK:   scf.yield %[[ACC]], %[[Q]]
// CHECK: %[[S:.*]] = "tt.reduce"(%[[LOOP]]#1) <{axis = 1 : i32}>
// CHECK: %[[C:.*]] = ttg.convert_layout %[[S]] : {{.*}} -> tensor<32xf32, #slice>
// CHECK: %[[R:.*]] = arith.maxnumf %[[INIT]], %[[C]] : tensor<32xf32, #slice>
// CHECK: tt.store {{.*}}, %[[R]]
tt.func @running_max(%x: tensor<32x64x!tt.ptr<f32>, #blocked>, %out: tensor<32x!tt.ptr<f32>, #slice>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %init = arith.constant dense<0xFF800000> : tensor<32xf32, #slice>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<32xf32, #slice>) : i32 {
    %v = tt.load %x : tensor<32x64x!tt.ptr<f32>, #blocked>
    %m = "tt.reduce"(%v) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.maxnumf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<32x64xf32, #blocked>) -> tensor<32xf32, #slice>
    %next = arith.maxnumf %acc, %m : tensor<32xf32, #slice>
    scf.yield %next : tensor<32xf32, #slice>
  }
  tt.store %out, %r : tensor<32x!tt.ptr<f32>, #slice>
  tt.return
}
}

// -----

// Left alone: the fold is another operation than the reduction's (a
// product of row sums is not a sum of partial products); the running value
// is read in the loop; one element per thread along the axis; a reduction
// along the outer axis.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#one = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #ttg.slice<{dim = 1, parent = #blocked}>
#slice_one = #ttg.slice<{dim = 1, parent = #one}>
#slice0 = #ttg.slice<{dim = 0, parent = #blocked}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @left_alone
// CHECK-NOT: tt.reshape
// CHECK: tt.return
tt.func @left_alone(%x: tensor<32x64x!tt.ptr<f32>, #blocked>, %y: tensor<32x32x!tt.ptr<f32>, #one>, %out: tensor<32x!tt.ptr<f32>, #slice>, %out1: tensor<32x!tt.ptr<f32>, #slice_one>, %out0: tensor<64x!tt.ptr<f32>, #slice0>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant dense<1.0> : tensor<32xf32, #slice>
  %zero = arith.constant dense<0.0> : tensor<32xf32, #slice>
  %zero1 = arith.constant dense<0.0> : tensor<32xf32, #slice_one>
  %zero0 = arith.constant dense<0.0> : tensor<64xf32, #slice0>
  %r:5 = scf.for %i = %c0 to %n step %c1 iter_args(%prod = %one, %seen = %zero, %sum = %zero, %s1 = %zero1, %s0 = %zero0) -> (tensor<32xf32, #slice>, tensor<32xf32, #slice>, tensor<32xf32, #slice>, tensor<32xf32, #slice_one>, tensor<64xf32, #slice0>) : i32 {
    %v = tt.load %x : tensor<32x64x!tt.ptr<f32>, #blocked>
    %s = "tt.reduce"(%v) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<32x64xf32, #blocked>) -> tensor<32xf32, #slice>
    %p = arith.mulf %prod, %s : tensor<32xf32, #slice>
    %t = "tt.reduce"(%v) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<32x64xf32, #blocked>) -> tensor<32xf32, #slice>
    %u = arith.addf %sum, %t : tensor<32xf32, #slice>
    tt.store %out, %sum : tensor<32x!tt.ptr<f32>, #slice>
    %w = tt.load %y : tensor<32x32x!tt.ptr<f32>, #one>
    %ws = "tt.reduce"(%w) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<32x32xf32, #one>) -> tensor<32xf32, #slice_one>
    %w1 = arith.addf %s1, %ws : tensor<32xf32, #slice_one>
    %c0s = "tt.reduce"(%v) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<32x64xf32, #blocked>) -> tensor<64xf32, #slice0>
    %w0 = arith.addf %s0, %c0s : tensor<64xf32, #slice0>
    scf.yield %p, %seen, %u, %w1, %w0 : tensor<32xf32, #slice>, tensor<32xf32, #slice>, tensor<32xf32, #slice>, tensor<32xf32, #slice_one>, tensor<64xf32, #slice0>
  }
  tt.store %out, %r#0 : tensor<32x!tt.ptr<f32>, #slice>
  tt.store %out, %r#2 : tensor<32x!tt.ptr<f32>, #slice>
  tt.store %out1, %r#3 : tensor<32x!tt.ptr<f32>, #slice_one>
  tt.store %out0, %r#4 : tensor<64x!tt.ptr<f32>, #slice0>
  tt.return
}
}

// -----

// Left alone: a running maxnum started from NaN (an empty loop must return
// the NaN; maxnum of it and the partials' -inf would not).

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #ttg.slice<{dim = 1, parent = #blocked}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @nan_start
// CHECK-NOT: tt.reshape
// CHECK: tt.return
tt.func @nan_start(%x: tensor<32x64x!tt.ptr<f32>, #blocked>, %out: tensor<32x!tt.ptr<f32>, #slice>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %init = arith.constant dense<0x7FC00000> : tensor<32xf32, #slice>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<32xf32, #slice>) : i32 {
    %v = tt.load %x : tensor<32x64x!tt.ptr<f32>, #blocked>
    %m = "tt.reduce"(%v) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.maxnumf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<32x64xf32, #blocked>) -> tensor<32xf32, #slice>
    %next = arith.maxnumf %acc, %m : tensor<32xf32, #slice>
    scf.yield %next : tensor<32xf32, #slice>
  }
  tt.store %out, %r : tensor<32x!tt.ptr<f32>, #slice>
  tt.return
}
}
