// RUN: tritium-opt %s -split-input-file -canonicalize | FileCheck %s

// A load under an all-true mask loses its mask and other value.
// CHECK-LABEL: tt.func @load_all_true_mask
// CHECK: %[[V:.*]] = tt.load %{{.*}} : tensor<16x!tt.ptr<f32>>
// CHECK-NOT: arith.constant
// CHECK: tt.return %[[V]]
tt.func @load_all_true_mask(%p: tensor<16x!tt.ptr<f32>>) -> tensor<16xf32> {
  %m = arith.constant dense<true> : tensor<16xi1>
  %o = arith.constant dense<0.0> : tensor<16xf32>
  %v = tt.load %p, %m, %o : tensor<16x!tt.ptr<f32>>
  tt.return %v : tensor<16xf32>
}

// -----

// A load under an all-false mask is its other value: no memory is touched.
// CHECK-LABEL: tt.func @load_all_false_mask
// CHECK-NOT: tt.load
// CHECK: %[[O:.*]] = arith.constant dense<2.000000e+00> : tensor<16xf32>
// CHECK: tt.return %[[O]]
tt.func @load_all_false_mask(%p: tensor<16x!tt.ptr<f32>>) -> tensor<16xf32> {
  %m = arith.constant dense<false> : tensor<16xi1>
  %o = arith.constant dense<2.0> : tensor<16xf32>
  %v = tt.load %p, %m, %o : tensor<16x!tt.ptr<f32>>
  tt.return %v : tensor<16xf32>
}

// -----

// A volatile load is kept even under an all-false mask.
// CHECK-LABEL: tt.func @volatile_load_stays
// CHECK: tt.load %{{.*}}, %{{.*}}, %{{.*}} {isVolatile = true}
tt.func @volatile_load_stays(%p: tensor<16x!tt.ptr<f32>>) -> tensor<16xf32> {
  %m = arith.constant dense<false> : tensor<16xi1>
  %o = arith.constant dense<2.0> : tensor<16xf32>
  %v = tt.load %p, %m, %o {isVolatile = true} : tensor<16x!tt.ptr<f32>>
  tt.return %v : tensor<16xf32>
}

// -----

// A loop spinning on a volatile load (waiting for another program's flag)
// stays: the load declares a write, so neither it nor the loop is dead.  The
// same loop on a plain load has no effect but reads and is erased.
// CHECK-LABEL: tt.func @spin_on_volatile_load
// CHECK: scf.while
// CHECK: tt.load %{{.*}} {isVolatile = true} : !tt.ptr<i32>
// CHECK: tt.return
tt.func @spin_on_volatile_load(%flag: !tt.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  scf.while : () -> () {
    %v = tt.load %flag {isVolatile = true} : !tt.ptr<i32>
    %wait = arith.cmpi eq, %v, %c0 : i32
    scf.condition(%wait)
  } do {
    scf.yield
  }
  tt.return
}

// CHECK-LABEL: tt.func @spin_on_plain_load
// CHECK-NOT: scf.while
// CHECK: tt.return
tt.func @spin_on_plain_load(%flag: !tt.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  scf.while : () -> () {
    %v = tt.load %flag : !tt.ptr<i32>
    %wait = arith.cmpi eq, %v, %c0 : i32
    scf.condition(%wait)
  } do {
    scf.yield
  }
  tt.return
}

// -----

// A load whose mask is not constant keeps it.
// CHECK-LABEL: tt.func @load_runtime_mask
// CHECK: tt.load %{{.*}}, %{{.*}} : tensor<16x!tt.ptr<f32>>
tt.func @load_runtime_mask(%p: tensor<16x!tt.ptr<f32>>, %m: tensor<16xi1>) -> tensor<16xf32> {
  %v = tt.load %p, %m : tensor<16x!tt.ptr<f32>>
  tt.return %v : tensor<16xf32>
}

// -----

// A store under an all-true mask loses its mask; under an all-false mask it
// disappears.
// CHECK-LABEL: tt.func @store_constant_masks
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<16x!tt.ptr<f32>>
// CHECK-NOT: tt.store
tt.func @store_constant_masks(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>) {
  %t = arith.constant dense<true> : tensor<16xi1>
  %f = arith.constant dense<false> : tensor<16xi1>
  tt.store %p, %v, %t : tensor<16x!tt.ptr<f32>>
  tt.store %p, %v, %f : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// Splats, broadcasts, reshapes and transposes of constants fold to constants;
// identity shape ops fold away.
// CHECK-LABEL: tt.func @shape_folds
// CHECK-DAG: %[[S:.*]] = arith.constant dense<7> : tensor<4x8xi32>
// CHECK-DAG: %[[T:.*]] = arith.constant dense<7> : tensor<8x4xi32>
// CHECK-DAG: %[[R:.*]] = arith.constant dense<7> : tensor<32xi32>
// CHECK-NOT: tt.splat
// CHECK-NOT: tt.broadcast
// CHECK-NOT: tt.trans
// CHECK-NOT: tt.reshape
// CHECK: tt.return %[[S]], %[[T]], %[[R]], %arg0
tt.func @shape_folds(%x: tensor<4x8xi32>) -> (tensor<4x8xi32>, tensor<8x4xi32>, tensor<32xi32>, tensor<4x8xi32>) {
  %c = arith.constant 7 : i32
  %s = tt.splat %c : i32 -> tensor<1x8xi32>
  %b = tt.broadcast %s : tensor<1x8xi32> -> tensor<4x8xi32>
  %t = tt.trans %b {order = array<i32: 1, 0>} : tensor<4x8xi32> -> tensor<8x4xi32>
  %r = tt.reshape %t : tensor<8x4xi32> -> tensor<32xi32>
  %same = tt.broadcast %x : tensor<4x8xi32> -> tensor<4x8xi32>
  %id = tt.trans %same {order = array<i32: 0, 1>} : tensor<4x8xi32> -> tensor<4x8xi32>
  tt.return %b, %t, %r, %id : tensor<4x8xi32>, tensor<8x4xi32>, tensor<32xi32>, tensor<4x8xi32>
}

// -----

// A transpose of a transpose is one permutation (result dimension i is the
// source's inner[outer[i]]), or none when the two cancel: tl.trans of a
// transposed descriptor load then feeds the dot from the load's own tile.
// CHECK-LABEL: tt.func @trans_of_trans
// CHECK-NEXT: %[[C:.*]] = tt.trans %arg1 {order = array<i32: 2, 1, 0>} : tensor<2x4x8xf16> -> tensor<8x4x2xf16>
// CHECK-NEXT: tt.return %arg0, %[[C]]
tt.func @trans_of_trans(%x: tensor<64x32xf16>, %y: tensor<2x4x8xf16>) -> (tensor<64x32xf16>, tensor<8x4x2xf16>) {
  %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x32xf16> -> tensor<32x64xf16>
  %back = tt.trans %t {order = array<i32: 1, 0>} : tensor<32x64xf16> -> tensor<64x32xf16>
  %r = tt.trans %y {order = array<i32: 1, 2, 0>} : tensor<2x4x8xf16> -> tensor<4x8x2xf16>
  %s = tt.trans %r {order = array<i32: 1, 0, 2>} : tensor<4x8x2xf16> -> tensor<8x4x2xf16>
  tt.return %back, %s : tensor<64x32xf16>, tensor<8x4x2xf16>
}

// -----

// Adding a zero offset, bitcasting to the same type and advancing by zero are
// no-ops.
// CHECK-LABEL: tt.func @pointer_folds
// CHECK-NEXT: tt.return %arg0, %arg1, %arg2
tt.func @pointer_folds(%p: tensor<16x!tt.ptr<f32>>, %f: tensor<16xf32>, %bp: !tt.ptr<tensor<16x16xf16>>)
    -> (tensor<16x!tt.ptr<f32>>, tensor<16xf32>, !tt.ptr<tensor<16x16xf16>>) {
  %z = arith.constant dense<0> : tensor<16xi32>
  %q = tt.addptr %p, %z : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %g = tt.bitcast %f : tensor<16xf32> -> tensor<16xf32>
  %c0 = arith.constant 0 : i32
  %a = tt.advance %bp, [%c0, %c0] : !tt.ptr<tensor<16x16xf16>>
  tt.return %q, %g, %a : tensor<16x!tt.ptr<f32>>, tensor<16xf32>, !tt.ptr<tensor<16x16xf16>>
}

// -----

// A non-zero offset is kept.
// CHECK-LABEL: tt.func @addptr_nonzero_stays
// CHECK: tt.addptr
tt.func @addptr_nonzero_stays(%p: tensor<16x!tt.ptr<f32>>) -> tensor<16x!tt.ptr<f32>> {
  %o = arith.constant dense<4> : tensor<16xi32>
  %q = tt.addptr %p, %o : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  tt.return %q : tensor<16x!tt.ptr<f32>>
}
