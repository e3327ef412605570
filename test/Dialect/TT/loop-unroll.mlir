// RUN: tritium-opt %s -split-input-file -tt-loop-unroll -verify-diagnostics | FileCheck %s

// A loop of 8 iterations with factor 2 runs 4 iterations of two copies of the
// body; the second copy sees i + step and the first copy's loop-carried
// value.  The attribute is gone.
// CHECK-LABEL: tt.func @unroll_by_two
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : i32
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i32
// CHECK: %[[R:.*]] = scf.for %[[I:.*]] = %[[C0]] to %[[C8]] step %[[C2]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (i32) : i32 {
// CHECK-NEXT: %[[A0:.*]] = arith.addi %[[ACC]], %[[I]] : i32
// CHECK: %[[I1:.*]] = arith.addi %[[I]], %{{.*}} : i32
// CHECK-NEXT: %[[A1:.*]] = arith.addi %[[A0]], %[[I1]] : i32
// CHECK-NEXT: scf.yield %[[A1]] : i32
// CHECK-NEXT: }
// CHECK-NOT: tt.loop_unroll_factor
// CHECK: tt.return %[[R]]
tt.func @unroll_by_two(%init: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (i32) : i32 {
    %a = arith.addi %acc, %i : i32
    scf.yield %a : i32
  } {tt.loop_unroll_factor = 2 : i32}
  tt.return %r : i32
}

// -----

// With a trip count only known at run time, an epilogue loop runs the
// iterations left over by the unrolled loop.
// CHECK-LABEL: tt.func @unroll_dynamic_bound
// CHECK: scf.for {{.*}} step %{{.*}} : i32 {
// CHECK-COUNT-4: tt.store
// CHECK: }
// CHECK: scf.for
// CHECK-COUNT-1: tt.store
// CHECK: }
// CHECK-NOT: tt.loop_unroll_factor
tt.func @unroll_dynamic_bound(%p: !tt.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    tt.store %p, %i : !tt.ptr<i32>
  } {tt.loop_unroll_factor = 4 : i32}
  tt.return
}

// -----

// A factor of 1 only removes the attribute.
// CHECK-LABEL: tt.func @factor_one
// CHECK: scf.for
// CHECK-COUNT-1: tt.store
// CHECK-NOT: tt.store
// CHECK-NOT: tt.loop_unroll_factor
tt.func @factor_one(%p: !tt.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    tt.store %p, %i : !tt.ptr<i32>
  } {tt.loop_unroll_factor = 1 : i32}
  tt.return
}

// -----

// Negative: a loop without the attribute is left exactly as it was, while
// the annotated loop nested in it is unrolled.
// CHECK-LABEL: tt.func @only_annotated
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C4]] step %[[C1]] : i32 {
// CHECK: %[[C2:.*]] = arith.constant 2 : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C4]] step %[[C2]] : i32 {
// CHECK-COUNT-2: tt.store
// CHECK: }
// CHECK: }
// CHECK-NOT: tt.loop_unroll_factor
tt.func @only_annotated(%p: !tt.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  scf.for %j = %c0 to %c4 step %c1 : i32 {
    scf.for %i = %c0 to %c4 step %c1 : i32 {
      tt.store %p, %i : !tt.ptr<i32>
    } {tt.loop_unroll_factor = 2 : i32}
  }
  tt.return
}

// -----

// A factor that is not an integer is reported at the loop.
tt.func @bad_factor(%p: !tt.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{tt.loop_unroll_factor must be an integer, got "two"}}
  scf.for %i = %c0 to %n step %c1 : i32 {
    tt.store %p, %i : !tt.ptr<i32>
  } {tt.loop_unroll_factor = "two"}
  tt.return
}
