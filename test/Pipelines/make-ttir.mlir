// RUN: tritium-opt %s -split-input-file -tritium-make-ttir | FileCheck %s

// A kernel calling a private device function: the call is inlined, the
// device function is gone, the kernel stays; the splatted scalar arithmetic
// of the callee runs once on scalars (reorder-broadcast), and the two address
// increments are one (combine).
// CHECK-NOT: @scale
// CHECK-LABEL: tt.func public @kernel
// CHECK-SAME: (%[[X:[^:]*]]: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %[[S:[^:]*]]: f32, %[[OFF:[^:]*]]: i32)
// CHECK-NOT: tt.call
// CHECK-DAG: %[[R:.*]] = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
// CHECK-DAG: %[[OFFS:.*]] = tt.splat %[[OFF]] : i32 -> tensor<128xi32>
// CHECK-DAG: %[[SUM:.*]] = arith.addi %[[R]], %[[OFFS]] : tensor<128xi32>
// CHECK-DAG: %[[XS:.*]] = tt.splat %[[X]] : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
// CHECK: %[[P:.*]] = tt.addptr %[[XS]], %[[SUM]] : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
// CHECK-NOT: tt.addptr
// CHECK: %[[V:.*]] = tt.load %[[P]] : tensor<128x!tt.ptr<f32>>
// CHECK: %[[SQ:.*]] = arith.mulf %[[S]], %[[S]] : f32
// CHECK: %[[SQS:.*]] = tt.splat %[[SQ]] : f32 -> tensor<128xf32>
// CHECK: %[[W:.*]] = arith.mulf %[[V]], %[[SQS]] : tensor<128xf32>
// CHECK: tt.store %[[P]], %[[W]] : tensor<128x!tt.ptr<f32>>
// CHECK: tt.return
// CHECK-NOT: @scale
tt.func private @scale(%v: tensor<128xf32>, %s: f32) -> tensor<128xf32> {
  %ss = tt.splat %s : f32 -> tensor<128xf32>
  %sq = arith.mulf %ss, %ss : tensor<128xf32>
  %r = arith.mulf %v, %sq : tensor<128xf32>
  tt.return %r : tensor<128xf32>
}
tt.func public @kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %s: f32, %off: i32) {
  %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %p0 = tt.addptr %xs, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %offs = tt.splat %off : i32 -> tensor<128xi32>
  %p = tt.addptr %p0, %offs : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %v = tt.load %p : tensor<128x!tt.ptr<f32>>
  %w = tt.call @scale(%v, %s) : (tensor<128xf32>, f32) -> tensor<128xf32>
  tt.store %p, %w : tensor<128x!tt.ptr<f32>>
  tt.return
}

// -----

// Block pointers in a loop, an annotated loop and a debug barrier go through
// the whole pipeline: no block pointer is left, the loop carries only its
// accumulator and offset, and it is unrolled twice.
// CHECK-LABEL: tt.func public @block_pointer_loop
// CHECK-NOT: tt.make_tensor_ptr
// CHECK-NOT: tt.advance
// CHECK: %[[R:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<16xf32>, i32) : i32 {
// CHECK-COUNT-2: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x!tt.ptr<f32>>
// CHECK: scf.yield
// CHECK-NOT: tt.loop_unroll_factor
// CHECK: gpu.barrier
// CHECK: tt.store %{{.*}}, %[[R]]#0 : tensor<16x!tt.ptr<f32>>
tt.func public @block_pointer_loop(%base: !tt.ptr<f32>, %k: i64, %out: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c1_64 = arith.constant 1 : i64
  %c8 = arith.constant 8 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %bp = tt.make_tensor_ptr %base, [%k], [%c1_64], [%c0] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  %r:2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero, %p = %bp) -> (tensor<16xf32>, !tt.ptr<tensor<16xf32>>) : i32 {
    %v = tt.load %p {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<16xf32>>
    %a = arith.addf %acc, %v : tensor<16xf32>
    %next = tt.advance %p, [%c16] : !tt.ptr<tensor<16xf32>>
    scf.yield %a, %next : tensor<16xf32>, !tt.ptr<tensor<16xf32>>
  } {tt.loop_unroll_factor = 2 : i32}
  gpu.barrier
  %ob = tt.make_tensor_ptr %out, [%k], [%c1_64], [%c0] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  tt.store %ob, %r#0 : !tt.ptr<tensor<16xf32>>
  tt.return
}
