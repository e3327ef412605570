// RUN: tritium-opt %s -split-input-file -tt-combine | FileCheck %s

// An add of a dot with a zero accumulator becomes the dot accumulating the
// addend, whichever side of the add the dot is on.
// CHECK-LABEL: tt.func @dot_add_float
// CHECK-SAME: (%[[A:.*]]: tensor<16x16xf16>, %[[B:.*]]: tensor<16x16xf16>, %[[C:.*]]: tensor<16x16xf32>)
// CHECK-NOT: arith.addf
// CHECK: %[[D0:.*]] = tt.dot %[[A]], %[[B]], %[[C]] : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
// CHECK: %[[D1:.*]] = tt.dot %[[A]], %[[B]], %[[C]] : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
// CHECK-NOT: arith.addf
// CHECK: tt.return %[[D0]], %[[D1]]
tt.func @dot_add_float(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %d0 = tt.dot %a, %b, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %r0 = arith.addf %d0, %c : tensor<16x16xf32>
  %d1 = tt.dot %a, %b, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %r1 = arith.addf %c, %d1 : tensor<16x16xf32>
  tt.return %r0, %r1 : tensor<16x16xf32>, tensor<16x16xf32>
}

// -----

// Integer dots fold their addend the same way.
// CHECK-LABEL: tt.func @dot_add_int
// CHECK-SAME: (%[[A:.*]]: tensor<16x32xi8>, %[[B:.*]]: tensor<32x16xi8>, %[[C:.*]]: tensor<16x16xi32>)
// CHECK: %[[D:.*]] = tt.dot %[[A]], %[[B]], %[[C]] : tensor<16x32xi8> * tensor<32x16xi8> -> tensor<16x16xi32>
// CHECK-NOT: arith.addi
// CHECK: tt.return %[[D]]
tt.func @dot_add_int(%a: tensor<16x32xi8>, %b: tensor<32x16xi8>, %c: tensor<16x16xi32>) -> tensor<16x16xi32> {
  %zero = arith.constant dense<0> : tensor<16x16xi32>
  %d = tt.dot %a, %b, %zero : tensor<16x32xi8> * tensor<32x16xi8> -> tensor<16x16xi32>
  %r = arith.addi %d, %c : tensor<16x16xi32>
  tt.return %r : tensor<16x16xi32>
}

// -----

// Negative: a dot with another use, a non-zero accumulator, or a bounded
// number of imprecise accumulations keeps its add.
// CHECK-LABEL: tt.func @dot_add_kept
// CHECK: %[[USED:.*]] = tt.dot
// CHECK: arith.addf %[[USED]]
// CHECK: %[[NONZERO:.*]] = tt.dot
// CHECK: arith.addf %[[NONZERO]]
// CHECK: %[[IMPRECISE:.*]] = tt.dot {{.*}}maxNumImpreciseAcc = 32
// CHECK: arith.addf %[[IMPRECISE]]
tt.func @dot_add_kept(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) {
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %one = arith.constant dense<1.0> : tensor<16x16xf32>
  %d0 = tt.dot %a, %b, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %r0 = arith.addf %d0, %c : tensor<16x16xf32>
  %d1 = tt.dot %a, %b, %one : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %r1 = arith.addf %d1, %c : tensor<16x16xf32>
  %d2 = tt.dot %a, %b, %zero {maxNumImpreciseAcc = 32 : i32} : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %r2 = arith.addf %d2, %c : tensor<16x16xf32>
  tt.return %r0, %d0, %r1, %r2 : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
}

// -----

// Two pointer increments with offsets of one type become one increment by
// their sum.
// CHECK-LABEL: tt.func @addptr_chain
// CHECK-SAME: (%[[P:.*]]: tensor<64x!tt.ptr<f32>>, %[[X:.*]]: tensor<64xi32>, %[[Y:.*]]: tensor<64xi32>)
// CHECK: %[[SUM:.*]] = arith.addi %[[X]], %[[Y]] : tensor<64xi32>
// CHECK: %[[Q:.*]] = tt.addptr %[[P]], %[[SUM]] : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
// CHECK: tt.return %[[Q]]
tt.func @addptr_chain(%p: tensor<64x!tt.ptr<f32>>, %x: tensor<64xi32>, %y: tensor<64xi32>) -> tensor<64x!tt.ptr<f32>> {
  %q0 = tt.addptr %p, %x : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %q1 = tt.addptr %q0, %y : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  tt.return %q1 : tensor<64x!tt.ptr<f32>>
}

// -----

// Negative: offsets of different integer types are not added.
// CHECK-LABEL: tt.func @addptr_chain_mixed_types
// CHECK: %[[Q0:.*]] = tt.addptr %{{.*}}, %{{.*}} : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
// CHECK: tt.addptr %[[Q0]], %{{.*}} : tensor<64x!tt.ptr<f32>>, tensor<64xi64>
// CHECK-NOT: arith.addi
tt.func @addptr_chain_mixed_types(%p: tensor<64x!tt.ptr<f32>>, %x: tensor<64xi32>, %y: tensor<64xi64>) -> tensor<64x!tt.ptr<f32>> {
  %q0 = tt.addptr %p, %x : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %q1 = tt.addptr %q0, %y : tensor<64x!tt.ptr<f32>>, tensor<64xi64>
  tt.return %q1 : tensor<64x!tt.ptr<f32>>
}

// -----

// A select under the load's own mask becomes the load's other value.
// CHECK-LABEL: tt.func @select_masked_load
// CHECK-SAME: (%[[P:.*]]: tensor<64x!tt.ptr<f32>>, %[[M:.*]]: tensor<64xi1>, %[[O:.*]]: tensor<64xf32>)
// CHECK: %[[V:.*]] = tt.load %[[P]], %[[M]], %[[O]] : tensor<64x!tt.ptr<f32>>
// CHECK-NOT: arith.select
// CHECK: tt.return %[[V]]
tt.func @select_masked_load(%p: tensor<64x!tt.ptr<f32>>, %m: tensor<64xi1>, %o: tensor<64xf32>) -> tensor<64xf32> {
  %v = tt.load %p, %m : tensor<64x!tt.ptr<f32>>
  %s = arith.select %m, %v, %o : tensor<64xi1>, tensor<64xf32>
  tt.return %s : tensor<64xf32>
}

// -----

// A scalar condition whose splat is the load's mask works too; a constant
// other value written after the load is available at the load, which stays
// before the store.
// CHECK-LABEL: tt.func @select_splat_mask_constant_other
// CHECK-SAME: (%[[P:.*]]: tensor<64x!tt.ptr<f32>>, %[[C:.*]]: i1, %[[V:.*]]: tensor<64xf32>)
// CHECK-DAG: %[[M:.*]] = tt.splat %[[C]] : i1 -> tensor<64xi1>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64xf32>
// CHECK: %[[L:.*]] = tt.load %[[P]], %[[M]], %[[ZERO]] : tensor<64x!tt.ptr<f32>>
// CHECK: tt.store %[[P]], %[[V]]
// CHECK-NOT: arith.select
// CHECK: tt.return %[[L]]
tt.func @select_splat_mask_constant_other(%p: tensor<64x!tt.ptr<f32>>, %c: i1, %v: tensor<64xf32>) -> tensor<64xf32> {
  %m = tt.splat %c : i1 -> tensor<64xi1>
  %l = tt.load %p, %m : tensor<64x!tt.ptr<f32>>
  tt.store %p, %v : tensor<64x!tt.ptr<f32>>
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %s = arith.select %c, %l, %zero : tensor<64xf32>
  tt.return %s : tensor<64xf32>
}

// -----

// Negative: a select under another mask, a load that already has an other
// value, and an other value computed after the load all stay as they are.
// CHECK-LABEL: tt.func @select_masked_load_kept
// CHECK-COUNT-3: arith.select
tt.func @select_masked_load_kept(%p: tensor<64x!tt.ptr<f32>>, %m: tensor<64xi1>, %n: tensor<64xi1>, %o: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %v0 = tt.load %p, %m : tensor<64x!tt.ptr<f32>>
  %s0 = arith.select %n, %v0, %o : tensor<64xi1>, tensor<64xf32>
  %v1 = tt.load %p, %m, %o : tensor<64x!tt.ptr<f32>>
  %s1 = arith.select %m, %v1, %o : tensor<64xi1>, tensor<64xf32>
  %v2 = tt.load %p, %m : tensor<64x!tt.ptr<f32>>
  %late = arith.addf %o, %o : tensor<64xf32>
  %s2 = arith.select %m, %v2, %late : tensor<64xi1>, tensor<64xf32>
  tt.return %s0, %s1, %s2 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// -----

// A broadcast of a splat is a splat of the broadcast's shape.
// CHECK-LABEL: tt.func @broadcast_of_splat
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK: %[[S:.*]] = tt.splat %[[X]] : f32 -> tensor<32x64xf32>
// CHECK-NOT: tt.broadcast
// CHECK: tt.return %[[S]]
tt.func @broadcast_of_splat(%x: f32) -> tensor<32x64xf32> {
  %s = tt.splat %x : f32 -> tensor<1x64xf32>
  %b = tt.broadcast %s : tensor<1x64xf32> -> tensor<32x64xf32>
  tt.return %b : tensor<32x64xf32>
}

// -----

// The sum over k of a[m, k] * b[k, n], written with expand_dims, broadcast,
// mulf and a reduce along axis 1, is an exact dot.
// CHECK-LABEL: tt.func @broadcast_mul_reduce
// CHECK-SAME: (%[[A:.*]]: tensor<16x32xf32>, %[[B:.*]]: tensor<32x8xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<16x8xf32>
// CHECK: %[[D:.*]] = tt.dot %[[A]], %[[B]], %[[ZERO]] : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
// CHECK-NOT: tt.reduce
// CHECK: tt.return %[[D]]
tt.func @broadcast_mul_reduce(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %ae = tt.expand_dims %a {axis = 2 : i32} : tensor<16x32xf32> -> tensor<16x32x1xf32>
  %ab = tt.broadcast %ae : tensor<16x32x1xf32> -> tensor<16x32x8xf32>
  %be = tt.expand_dims %b {axis = 0 : i32} : tensor<32x8xf32> -> tensor<1x32x8xf32>
  %bb = tt.broadcast %be : tensor<1x32x8xf32> -> tensor<16x32x8xf32>
  %p = arith.mulf %bb, %ab : tensor<16x32x8xf32>
  %s = "tt.reduce"(%p) <{axis = 1 : i32}> ({
  ^bb0(%x: f32, %y: f32):
    %t = arith.addf %y, %x : f32
    tt.reduce.return %t : f32
  }) : (tensor<16x32x8xf32>) -> tensor<16x8xf32>
  tt.return %s : tensor<16x8xf32>
}

// -----

// Negative: a max-reduction of the same product is not a dot, and neither is
// a sum along another axis.
// CHECK-LABEL: tt.func @broadcast_mul_reduce_kept
// CHECK-NOT: tt.dot
// CHECK: tt.reduce
// CHECK: arith.maxnumf
// CHECK: tt.reduce
// CHECK: arith.addf
// CHECK-NOT: tt.dot
tt.func @broadcast_mul_reduce_kept(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>) -> (tensor<16x8xf32>, tensor<32x8xf32>) {
  %ae = tt.expand_dims %a {axis = 2 : i32} : tensor<16x32xf32> -> tensor<16x32x1xf32>
  %ab = tt.broadcast %ae : tensor<16x32x1xf32> -> tensor<16x32x8xf32>
  %be = tt.expand_dims %b {axis = 0 : i32} : tensor<32x8xf32> -> tensor<1x32x8xf32>
  %bb = tt.broadcast %be : tensor<1x32x8xf32> -> tensor<16x32x8xf32>
  %p = arith.mulf %ab, %bb : tensor<16x32x8xf32>
  %m = "tt.reduce"(%p) <{axis = 1 : i32}> ({
  ^bb0(%x: f32, %y: f32):
    %t = arith.maxnumf %x, %y : f32
    tt.reduce.return %t : f32
  }) : (tensor<16x32x8xf32>) -> tensor<16x8xf32>
  %s = "tt.reduce"(%p) <{axis = 0 : i32}> ({
  ^bb0(%x: f32, %y: f32):
    %t = arith.addf %x, %y : f32
    tt.reduce.return %t : f32
  }) : (tensor<16x32x8xf32>) -> tensor<32x8xf32>
  tt.return %m, %s : tensor<16x8xf32>, tensor<32x8xf32>
}
