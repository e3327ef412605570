// RUN: tritium-opt %s -split-input-file -ttg-loop-aware-cse | FileCheck %s

// Two pointers that start equal and advance by the same step are one.
// CHECK-LABEL: tt.func @same_step
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[A:.*]] = %arg0) -> (!tt.ptr<f32>)
// CHECK-NEXT: %[[X:.*]] = tt.load %[[A]]
// CHECK-NEXT: tt.store %[[A]], %[[X]]
// CHECK-NEXT: %[[N:.*]] = tt.addptr %[[A]]
// CHECK-NEXT: scf.yield %[[N]] : !tt.ptr<f32>
// CHECK: tt.store %[[R]]
// CHECK-NOT: tt.store
tt.func @same_step(%p: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %p, %b = %p) -> (!tt.ptr<f32>, !tt.ptr<f32>) : i32 {
    %x = tt.load %a : !tt.ptr<f32>
    tt.store %b, %x : !tt.ptr<f32>
    %a2 = tt.addptr %a, %c1 : !tt.ptr<f32>, i32
    %b2 = tt.addptr %b, %c1 : !tt.ptr<f32>, i32
    scf.yield %a2, %b2 : !tt.ptr<f32>, !tt.ptr<f32>
  }
  %v = arith.constant 1.0 : f32
  tt.store %r#1, %v : !tt.ptr<f32>
  tt.return
}

// -----

// Equal only together: x and y are each computed from the other pair's
// member, so neither pair is provably equal on its own (the greatest
// fixpoint keeps both).
// CHECK-LABEL: tt.func @mutual
// CHECK: %[[R:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %arg0, %{{.*}} = %arg1) -> (i32, i32)
// CHECK: tt.return %[[R]]#0, %[[R]]#1, %[[R]]#0, %[[R]]#1
tt.func @mutual(%s: i32, %t: i32, %n: i32) -> (i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %s, %u = %t, %y = %s, %v = %t) -> (i32, i32, i32, i32) : i32 {
    %x2 = arith.addi %u, %c1 : i32
    %u2 = arith.muli %x, %x : i32
    %y2 = arith.addi %v, %c1 : i32
    %v2 = arith.muli %y, %y : i32
    scf.yield %x2, %u2, %y2, %v2 : i32, i32, i32, i32
  }
  tt.return %r#0, %r#1, %r#2, %r#3 : i32, i32, i32, i32
}

// -----

// Different steps, different inits, and values that go through memory stay
// apart.
// CHECK-LABEL: tt.func @not_equal
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %arg0, %{{.*}} = %arg0, %{{.*}} = %arg1, %{{.*}} = %arg0, %{{.*}} = %arg0) -> (i32, i32, i32, i32, i32)
tt.func @not_equal(%s: i32, %t: i32, %n: i32, %p: !tt.ptr<i32>) -> (i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %r:5 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %s, %b = %s, %d = %t, %e = %s, %f = %s) -> (i32, i32, i32, i32, i32) : i32 {
    %a2 = arith.addi %a, %c1 : i32
    %b2 = arith.addi %b, %c2 : i32
    %d2 = arith.addi %d, %c1 : i32
    %e2 = tt.atomic_rmw add, acq_rel, gpu, %p, %e : (!tt.ptr<i32>, i32) -> i32
    %f2 = tt.atomic_rmw add, acq_rel, gpu, %p, %f : (!tt.ptr<i32>, i32) -> i32
    scf.yield %a2, %b2, %d2, %e2, %f2 : i32, i32, i32, i32, i32
  }
  tt.return %r#0, %r#1, %r#2, %r#3, %r#4 : i32, i32, i32, i32, i32
}
