// RUN: tritium-opt %s -split-input-file -tritium-cpu-bounds-checks | FileCheck %s

// Each pointer argument gets two i64 arguments at the end (its buffer's
// first and past-the-end addresses); a masked load checks the lanes its
// mask has on, an unmasked store all of them, each with an assert at the
// access that names the argument.
// CHECK-LABEL: tt.func public @copy(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>, %arg2: i32, %arg3: i64, %arg4: i64, %arg5: i64, %arg6: i64)
// CHECK: %[[P:.*]] = tt.addptr
// CHECK: %[[A:.*]] = tt.ptr_to_int %[[P]] : tensor<64x!tt.ptr<f32>> -> tensor<64xi64>
// CHECK: %[[FOUR:.*]] = tt.splat %{{.*}} : i64 -> tensor<64xi64>
// CHECK: %[[END:.*]] = arith.addi %[[A]], %[[FOUR]]
// CHECK: %[[LO:.*]] = tt.splat %arg3
// CHECK: arith.cmpi uge, %[[A]], %[[LO]]
// CHECK: %[[HI:.*]] = tt.splat %arg4
// CHECK: arith.cmpi ule, %[[END]], %[[HI]]
// CHECK: arith.xori
// CHECK: %[[OK:.*]] = arith.ori
// CHECK: tt.assert %[[OK]], "out-of-bounds load through argument 'src'"
// CHECK-NEXT: tt.load %[[P]]
// CHECK: tt.splat %arg5
// CHECK: tt.splat %arg6
// CHECK-NOT: arith.xori
// CHECK: tt.assert %{{.*}}, "out-of-bounds store through argument 'dst'"
// CHECK-NEXT: tt.store
tt.func public @copy(%src: !tt.ptr<f32> loc("src"), %dst: !tt.ptr<f32> loc("dst"), %n: i32 loc("n")) {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ns = tt.splat %n : i32 -> tensor<64xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<64xi32>
  %sp = tt.splat %src : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %p = tt.addptr %sp, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %x = tt.load %p, %m : tensor<64x!tt.ptr<f32>>
  %dp = tt.splat %dst : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %q = tt.addptr %dp, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  tt.store %q, %x : tensor<64x!tt.ptr<f32>>
  tt.return
}

// -----

// Pointers a loop carries keep their argument (the initial value and the
// yielded one both come from it); a pointer loaded from memory has no
// argument and is not checked.
// CHECK-LABEL: tt.func public @walk
// CHECK: scf.for
// CHECK: tt.assert %{{.*}}, "out-of-bounds load through argument 'table'"
// CHECK-NEXT: tt.load %{{.*}} : tensor<16x!tt.ptr<!tt.ptr<f32>>>
// CHECK-NOT: tt.assert
// CHECK: tt.load %{{.*}} : tensor<16x!tt.ptr<f32>>
// CHECK: scf.yield
tt.func public @walk(%table: !tt.ptr<!tt.ptr<f32>> loc("table")) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %sixteen = arith.constant dense<16> : tensor<16xi32>
  %sp = tt.splat %table : !tt.ptr<!tt.ptr<f32>> -> tensor<16x!tt.ptr<!tt.ptr<f32>>>
  %p0 = tt.addptr %sp, %r : tensor<16x!tt.ptr<!tt.ptr<f32>>>, tensor<16xi32>
  %last = scf.for %i = %c0 to %c4 step %c1 iter_args(%p = %p0) -> (tensor<16x!tt.ptr<!tt.ptr<f32>>>) : i32 {
    %rows = tt.load %p : tensor<16x!tt.ptr<!tt.ptr<f32>>>
    %v = tt.load %rows : tensor<16x!tt.ptr<f32>>
    %next = tt.addptr %p, %sixteen : tensor<16x!tt.ptr<!tt.ptr<f32>>>, tensor<16xi32>
    scf.yield %next : tensor<16x!tt.ptr<!tt.ptr<f32>>>
  }
  tt.return
}

// -----

// A carried pointer that may switch to another argument's buffer has no
// single origin: neither it nor what is computed from it in the loop is
// checked (the first load, before the loop, is).
// CHECK-LABEL: tt.func public @switch
// CHECK: tt.assert %{{.*}}, "out-of-bounds load through argument 'a'"
// CHECK: scf.for
// CHECK-NOT: tt.assert
// CHECK: scf.yield
tt.func public @switch(%a: !tt.ptr<f32> loc("a"), %b: !tt.ptr<f32> loc("b"), %c: i1 loc("c")) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %x0 = tt.load %a : !tt.ptr<f32>
  %last = scf.for %i = %c0 to %c4 step %c1 iter_args(%p = %a) -> (!tt.ptr<f32>) : i32 {
    %q = tt.addptr %p, %c1 : !tt.ptr<f32>, i32
    %x = tt.load %q : !tt.ptr<f32>
    %next = arith.select %c, %q, %b : !tt.ptr<f32>
    scf.yield %next : !tt.ptr<f32>
  }
  tt.return
}
