// RUN: tritium-opt %s -split-input-file -tt-reorder-broadcast | FileCheck %s

// An element-wise op on two splats runs once on the scalars; the result is
// splatted.
// CHECK-LABEL: tt.func @splat_operands
// CHECK-SAME: (%[[X:.*]]: f32, %[[Y:.*]]: f32)
// CHECK: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK: %[[T:.*]] = tt.splat %[[S]] : f32 -> tensor<128xf32>
// CHECK: tt.return %[[T]]
tt.func @splat_operands(%x: f32, %y: f32) -> tensor<128xf32> {
  %xs = tt.splat %x : f32 -> tensor<128xf32>
  %ys = tt.splat %y : f32 -> tensor<128xf32>
  %s = arith.addf %xs, %ys : tensor<128xf32>
  tt.return %s : tensor<128xf32>
}

// -----

// A splat constant operand becomes a scalar constant, and a comparison
// yields a splatted i1.
// CHECK-LABEL: tt.func @splat_and_constant
// CHECK-SAME: (%[[N:.*]]: i32)
// CHECK: %[[C:.*]] = arith.constant 16 : i32
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[N]], %[[C]] : i32
// CHECK: %[[M:.*]] = tt.splat %[[LT]] : i1 -> tensor<64xi1>
// CHECK: tt.return %[[M]]
tt.func @splat_and_constant(%n: i32) -> tensor<64xi1> {
  %ns = tt.splat %n : i32 -> tensor<64xi32>
  %c = arith.constant dense<16> : tensor<64xi32>
  %m = arith.cmpi slt, %ns, %c : tensor<64xi32>
  tt.return %m : tensor<64xi1>
}

// -----

// An element-wise op on broadcasts from one source shape runs on the
// sources; a splat operand is re-splatted to the source shape.
// CHECK-LABEL: tt.func @broadcast_operands
// CHECK-SAME: (%[[A:.*]]: tensor<1x64xf32>, %[[B:.*]]: tensor<1x64xf32>, %[[C:.*]]: f32)
// CHECK: %[[M:.*]] = arith.mulf %[[A]], %[[B]] : tensor<1x64xf32>
// CHECK: %[[CS:.*]] = tt.splat %[[C]] : f32 -> tensor<1x64xf32>
// CHECK: %[[S:.*]] = arith.addf %[[M]], %[[CS]] : tensor<1x64xf32>
// CHECK: %[[W:.*]] = tt.broadcast %[[S]] : tensor<1x64xf32> -> tensor<32x64xf32>
// CHECK: tt.return %[[W]]
tt.func @broadcast_operands(%a: tensor<1x64xf32>, %b: tensor<1x64xf32>, %c: f32) -> tensor<32x64xf32> {
  %ab = tt.broadcast %a : tensor<1x64xf32> -> tensor<32x64xf32>
  %bb = tt.broadcast %b : tensor<1x64xf32> -> tensor<32x64xf32>
  %m = arith.mulf %ab, %bb : tensor<32x64xf32>
  %cs = tt.splat %c : f32 -> tensor<32x64xf32>
  %s = arith.addf %m, %cs : tensor<32x64xf32>
  tt.return %s : tensor<32x64xf32>
}

// -----

// A splat constant next to a broadcast becomes a constant of the source
// shape.
// CHECK-LABEL: tt.func @broadcast_and_constant
// CHECK-SAME: (%[[A:.*]]: tensor<32x1xi32>)
// CHECK: %[[C:.*]] = arith.constant dense<3> : tensor<32x1xi32>
// CHECK: %[[M:.*]] = arith.muli %[[A]], %[[C]] : tensor<32x1xi32>
// CHECK: %[[W:.*]] = tt.broadcast %[[M]] : tensor<32x1xi32> -> tensor<32x16xi32>
// CHECK: tt.return %[[W]]
tt.func @broadcast_and_constant(%a: tensor<32x1xi32>) -> tensor<32x16xi32> {
  %ab = tt.broadcast %a : tensor<32x1xi32> -> tensor<32x16xi32>
  %c = arith.constant dense<3> : tensor<32x16xi32>
  %m = arith.muli %ab, %c : tensor<32x16xi32>
  tt.return %m : tensor<32x16xi32>
}

// -----

// An expand_dims of a splat is a splat of the expanded shape.
// CHECK-LABEL: tt.func @expand_dims_of_splat
// CHECK-SAME: (%[[X:.*]]: i32)
// CHECK: %[[S:.*]] = tt.splat %[[X]] : i32 -> tensor<1x64xi32>
// CHECK-NOT: tt.expand_dims
// CHECK: tt.return %[[S]]
tt.func @expand_dims_of_splat(%x: i32) -> tensor<1x64xi32> {
  %s = tt.splat %x : i32 -> tensor<64xi32>
  %e = tt.expand_dims %s {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  tt.return %e : tensor<1x64xi32>
}

// -----

// Negative: broadcasts from different source shapes (an outer sum) stay
// where they are.
// CHECK-LABEL: tt.func @different_source_shapes
// CHECK: %[[RB:.*]] = tt.broadcast %{{.*}} : tensor<32x1xi32> -> tensor<32x64xi32>
// CHECK: %[[CB:.*]] = tt.broadcast %{{.*}} : tensor<1x64xi32> -> tensor<32x64xi32>
// CHECK: %[[S:.*]] = arith.addi %[[RB]], %[[CB]] : tensor<32x64xi32>
// CHECK: tt.return %[[S]]
tt.func @different_source_shapes(%r: tensor<32x1xi32>, %c: tensor<1x64xi32>) -> tensor<32x64xi32> {
  %rb = tt.broadcast %r : tensor<32x1xi32> -> tensor<32x64xi32>
  %cb = tt.broadcast %c : tensor<1x64xi32> -> tensor<32x64xi32>
  %s = arith.addi %rb, %cb : tensor<32x64xi32>
  tt.return %s : tensor<32x64xi32>
}

// -----

// Negative: an operand that is neither a splat nor a broadcast, an op with
// memory effects, and element-wise inline assembly keep their shapes.
// CHECK-LABEL: tt.func @not_moved
// CHECK: %[[XS:.*]] = tt.splat %{{.*}} : f32 -> tensor<64xf32>
// CHECK: arith.addf %[[XS]], %{{.*}} : tensor<64xf32>
// CHECK: tt.extern_elementwise %[[XS]] {{.*}}pure = false
// CHECK: tt.elementwise_inline_asm {{.*}} %[[XS]] : tensor<64xf32> -> tensor<64xf32>
tt.func @not_moved(%x: f32, %v: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %xs = tt.splat %x : f32 -> tensor<64xf32>
  %a = arith.addf %xs, %v : tensor<64xf32>
  %e = tt.extern_elementwise %xs {libname = "libdevice", libpath = "", symbol = "__nv_expf", pure = false} : (tensor<64xf32>) -> tensor<64xf32>
  %i = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %xs : tensor<64xf32> -> tensor<64xf32>
  tt.return %a, %e, %i : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}
