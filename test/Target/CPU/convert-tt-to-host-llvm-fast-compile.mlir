// RUN: tritium-opt %s -split-input-file -convert-tt-to-host-llvm="fast-compile=1" | FileCheck %s

// With fast-compile (TRITON_INTERPRET=1's compiles), a chain of as few as
// two element-wise ops on 1024 lanes or more runs in a loop over 16-lane
// chunks (without it, chains of 16 or more do).
// CHECK-LABEL: llvm.func internal @short_chain(
// CHECK: llvm.store {{.*}} : vector<1024xi32>, !llvm.ptr
// CHECK: llvm.mul %{{.*}} : vector<16xi32>
// CHECK: llvm.xor %{{.*}} : vector<16xi32>
// CHECK-NOT: llvm.mul %{{.*}} : vector<1024xi32>
// CHECK: llvm.return
tt.func public @short_chain(%s: i32) -> tensor<1024xi32> {
  %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %sp = tt.splat %s : i32 -> tensor<1024xi32>
  %v1 = arith.addi %r, %sp : tensor<1024xi32>
  %v2 = arith.muli %v1, %v1 : tensor<1024xi32>
  %v3 = arith.xori %v2, %v1 : tensor<1024xi32>
  tt.return %v3 : tensor<1024xi32>
}

// -----

// On fewer lanes the chain stays on whole vectors.
// CHECK-LABEL: llvm.func internal @short_chain_512(
// CHECK-NOT: vector<16xi32>
// CHECK: llvm.mul %{{.*}} : vector<512xi32>
// CHECK-NOT: vector<16xi32>
// CHECK: llvm.return
tt.func public @short_chain_512(%s: i32) -> tensor<512xi32> {
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %sp = tt.splat %s : i32 -> tensor<512xi32>
  %v1 = arith.addi %r, %sp : tensor<512xi32>
  %v2 = arith.muli %v1, %v1 : tensor<512xi32>
  %v3 = arith.xori %v2, %v1 : tensor<512xi32>
  tt.return %v3 : tensor<512xi32>
}

// -----

// From 4096 lanes on, a single element-wise op runs in chunks too; on 1024
// lanes it stays whole.
// CHECK-LABEL: llvm.func internal @single_op_4096(
// CHECK: llvm.fmul %{{.*}} : vector<16xf32>
// CHECK-NOT: llvm.fmul %{{.*}} : vector<4096xf32>
// CHECK: llvm.return
tt.func public @single_op_4096(%x: tensor<4096xf32>) -> tensor<4096xf32> {
  %c = arith.constant dense<2.0> : tensor<4096xf32>
  %y = arith.mulf %x, %c : tensor<4096xf32>
  tt.return %y : tensor<4096xf32>
}

// -----

// CHECK-LABEL: llvm.func internal @single_op_1024(
// CHECK-NOT: vector<16xf32>
// CHECK: llvm.fmul %{{.*}} : vector<1024xf32>
// CHECK: llvm.return
tt.func public @single_op_1024(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %c = arith.constant dense<2.0> : tensor<1024xf32>
  %y = arith.mulf %x, %c : tensor<1024xf32>
  tt.return %y : tensor<1024xf32>
}
