// RUN: tritium-opt %s -split-input-file -tt-split-loop-pointers | FileCheck %s

// Two tiles at the same offsets from different bases, each advanced by the
// same splat step: the loop carries the two scalar bases, and both tiles
// are rebuilt from the one offset tensor at the top of the body.
// CHECK-LABEL: tt.func @two_tiles_one_offset
// CHECK-SAME: (%[[K:.*]]: !tt.ptr<f16>, %[[V:.*]]: !tt.ptr<f16>, %[[OFF:.*]]: tensor<32x64xi32>, %[[X:.*]]: i32, %[[N:.*]]: i32)
// CHECK: %[[R:.*]]:3 = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[BK:.*]] = %[[K]], %[[BV:.*]] = %[[V]]) -> (tensor<32x64xf16>, !tt.ptr<f16>, !tt.ptr<f16>)
// CHECK: %[[SV:.*]] = tt.splat %[[BV]] : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
// CHECK: %[[PV:.*]] = tt.addptr %[[SV]], %[[OFF]]
// CHECK: %[[SK:.*]] = tt.splat %[[BK]] : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
// CHECK: %[[PK:.*]] = tt.addptr %[[SK]], %[[OFF]]
// CHECK: tt.load %[[PK]]
// CHECK: tt.load %[[PV]]
// CHECK: %[[NK:.*]] = tt.addptr %[[BK]], %[[X]] : !tt.ptr<f16>, i32
// CHECK: %[[NV:.*]] = tt.addptr %[[BV]], %[[X]] : !tt.ptr<f16>, i32
// CHECK: scf.yield %{{.*}}, %[[NK]], %[[NV]] : tensor<32x64xf16>, !tt.ptr<f16>, !tt.ptr<f16>
// CHECK: tt.return %[[R]]#0
tt.func @two_tiles_one_offset(%k: !tt.ptr<f16>, %v: !tt.ptr<f16>, %off: tensor<32x64xi32>, %x: i32, %n: i32) -> tensor<32x64xf16> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<32x64xf16>
  %ks = tt.splat %k : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %k0 = tt.addptr %ks, %off : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
  %vs = tt.splat %v : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %v0 = tt.addptr %vs, %off : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
  %step = tt.splat %x : i32 -> tensor<32x64xi32>
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %kp = %k0, %vp = %v0) -> (tensor<32x64xf16>, tensor<32x64x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>) : i32 {
    %a = tt.load %kp : tensor<32x64x!tt.ptr<f16>>
    %b = tt.load %vp : tensor<32x64x!tt.ptr<f16>>
    %s = arith.addf %a, %b : tensor<32x64xf16>
    %t = arith.addf %acc, %s : tensor<32x64xf16>
    %kn = tt.addptr %kp, %step : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    %vn = tt.addptr %vp, %step : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    scf.yield %t, %kn, %vn : tensor<32x64xf16>, tensor<32x64x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>
  }
  tt.return %r#0 : tensor<32x64xf16>
}

// -----

// A constant step becomes a scalar constant; the pointers after the loop
// are rebuilt from the loop's scalar result.
// CHECK-LABEL: tt.func @constant_step_and_result
// CHECK-SAME: (%[[P:.*]]: !tt.ptr<f32>, %[[OFF:.*]]: tensor<128xi32>, %[[N:.*]]: i32)
// CHECK: %[[C16:.*]] = arith.constant 16 : i32
// CHECK: %[[B:.*]] = scf.for %{{.*}} iter_args(%[[A:.*]] = %[[P]]) -> (!tt.ptr<f32>)
// CHECK: %[[NEXT:.*]] = tt.addptr %[[A]], %[[C16]] : !tt.ptr<f32>, i32
// CHECK: scf.yield %[[NEXT]] : !tt.ptr<f32>
// CHECK: %[[S:.*]] = tt.splat %[[B]] : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
// CHECK: %[[PS:.*]] = tt.addptr %[[S]], %[[OFF]]
// CHECK: tt.store %[[PS]]
tt.func @constant_step_and_result(%p: !tt.ptr<f32>, %off: tensor<128xi32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %sixteen = arith.constant dense<16> : tensor<128xi32>
  %one = arith.constant dense<1.0> : tensor<128xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %p0 = tt.addptr %ps, %off : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%q = %p0) -> (tensor<128x!tt.ptr<f32>>) : i32 {
    tt.store %q, %one : tensor<128x!tt.ptr<f32>>
    %qn = tt.addptr %q, %sixteen : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    scf.yield %qn : tensor<128x!tt.ptr<f32>>
  }
  tt.store %r, %one : tensor<128x!tt.ptr<f32>>
  tt.return
}

// -----

// A step that changes from turn to turn, and pointers not made as one base
// plus offsets, stay tensors.
// CHECK-LABEL: tt.func @not_split
// CHECK: scf.for {{.*}} -> (tensor<64x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>)
tt.func @not_split(%p: !tt.ptr<f32>, %ptrs: tensor<64x!tt.ptr<f32>>, %off: tensor<64xi32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant dense<1.0> : tensor<64xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %p0 = tt.addptr %ps, %off : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%q = %p0, %u = %ptrs) -> (tensor<64x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>) : i32 {
    tt.store %q, %one : tensor<64x!tt.ptr<f32>>
    tt.store %u, %one : tensor<64x!tt.ptr<f32>>
    %is = tt.splat %i : i32 -> tensor<64xi32>
    %qn = tt.addptr %q, %is : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %un = tt.addptr %u, %off : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    scf.yield %qn, %un : tensor<64x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>
  }
  tt.return
}

// -----

// Pointers built as the frontend builds `k + a[None, :] + b[:, None]`
// (an addptr, a broadcast, an addptr) gather their offsets into one tensor
// before the loop: broadcast as the pointers were, then added, here
// sign-extended to i64 since the two offsets' types differ.  A step
// computed in the body from loop-invariant values moves before the loop.
// CHECK-LABEL: tt.func @offsets_through_broadcast
// CHECK-SAME: (%[[K:.*]]: !tt.ptr<f16>, %[[A:.*]]: tensor<1x32xi32>, %[[B:.*]]: tensor<64x32xi64>, %[[S:.*]]: i32, %[[N:.*]]: i32)
// CHECK: %[[X:.*]] = arith.muli %[[S]], %{{.*}} : i32
// CHECK: %[[AB:.*]] = tt.broadcast %[[A]] : tensor<1x32xi32> -> tensor<64x32xi32>
// CHECK: %[[AW:.*]] = arith.extsi %[[AB]] : tensor<64x32xi32> to tensor<64x32xi64>
// CHECK: %[[OFF:.*]] = arith.addi %[[AW]], %[[B]] : tensor<64x32xi64>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[BK:[^ ]*]] = %[[K]]) -> (tensor<64x32xf16>, !tt.ptr<f16>)
// CHECK: %[[SK:.*]] = tt.splat %[[BK]] : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
// CHECK: %[[PK:.*]] = tt.addptr %[[SK]], %[[OFF]] : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi64>
// CHECK: tt.load %[[PK]]
// CHECK: tt.addptr %[[BK]], %[[X]] : !tt.ptr<f16>, i32
tt.func @offsets_through_broadcast(%k: !tt.ptr<f16>, %a: tensor<1x32xi32>, %b: tensor<64x32xi64>, %s: i32, %n: i32) -> tensor<64x32xf16> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x32xf16>
  %ks = tt.splat %k : !tt.ptr<f16> -> tensor<1x32x!tt.ptr<f16>>
  %k1 = tt.addptr %ks, %a : tensor<1x32x!tt.ptr<f16>>, tensor<1x32xi32>
  %kb = tt.broadcast %k1 : tensor<1x32x!tt.ptr<f16>> -> tensor<64x32x!tt.ptr<f16>>
  %k0 = tt.addptr %kb, %b : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi64>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %p = %k0) -> (tensor<64x32xf16>, tensor<64x32x!tt.ptr<f16>>) : i32 {
    %v = tt.load %p : tensor<64x32x!tt.ptr<f16>>
    %t = arith.addf %acc, %v : tensor<64x32xf16>
    %c32 = arith.constant 32 : i32
    %x = arith.muli %s, %c32 : i32
    %xs = tt.splat %x : i32 -> tensor<64x32xi32>
    %pn = tt.addptr %p, %xs : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    scf.yield %t, %pn : tensor<64x32xf16>, tensor<64x32x!tt.ptr<f16>>
  }
  tt.return %r#0 : tensor<64x32xf16>
}

// -----

// A step computed in the body by a division that may trap (its divisor is
// not a known non-zero constant) does not move before the loop, which may
// run no turn: the pointers stay a tensor.
// CHECK-LABEL: tt.func @step_by_division
// CHECK: scf.for {{.*}} -> (tensor<64x!tt.ptr<f32>>)
// CHECK: arith.divsi
tt.func @step_by_division(%p: !tt.ptr<f32>, %off: tensor<64xi32>, %s: i32, %d: i32, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant dense<1.0> : tensor<64xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %p0 = tt.addptr %ps, %off : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%q = %p0) -> (tensor<64x!tt.ptr<f32>>) : i32 {
    tt.store %q, %one : tensor<64x!tt.ptr<f32>>
    %x = arith.divsi %s, %d : i32
    %xs = tt.splat %x : i32 -> tensor<64xi32>
    %qn = tt.addptr %q, %xs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    scf.yield %qn : tensor<64x!tt.ptr<f32>>
  }
  tt.return
}
