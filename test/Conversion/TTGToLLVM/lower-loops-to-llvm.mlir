// RUN: tritium-opt %s -split-input-file -lower-loops-to-llvm | FileCheck %s

// What convert-ttg-to-llvm leaves: an scf.for and an scf.if with LLVM
// types around LLVM-dialect ops.  The loop becomes a header block taking
// the induction variable and the carried struct, an llvm.icmp of the bound
// and an llvm.cond_br; the increment is an llvm.add; the if becomes a
// branch to two blocks joining with the struct.  The LLVM ops inside are
// left as they are.
// CHECK-LABEL: llvm.func @loop_and_if
// CHECK-NOT: scf.
// CHECK-NOT: arith.
// CHECK-NOT: cf.
// CHECK: llvm.br ^[[HEAD:bb[0-9]+]](%{{.*}}, %{{.*}} : i32, !llvm.struct<(f32, f32)>)
// CHECK: ^[[HEAD]](%[[I:.*]]: i32, %[[A:.*]]: !llvm.struct<(f32, f32)>):
// CHECK: %[[MORE:.*]] = llvm.icmp "slt" %[[I]], %{{.*}} : i32
// CHECK: llvm.cond_br %[[MORE]], ^[[BODY:bb[0-9]+]], ^[[EXIT:bb[0-9]+]]
// CHECK: ^[[BODY]]:
// CHECK: llvm.extractvalue %[[A]][0] : !llvm.struct<(f32, f32)>
// CHECK: llvm.fadd
// CHECK: %[[NEXT:.*]] = llvm.add %[[I]], %{{.*}} : i32
// CHECK: llvm.br ^[[HEAD]](%[[NEXT]], %{{.*}} : i32, !llvm.struct<(f32, f32)>)
// CHECK: ^[[EXIT]]:
// CHECK: llvm.cond_br %{{.*}}, ^[[THEN:bb[0-9]+]], ^[[ELSE:bb[0-9]+]]
// CHECK-NOT: scf.
// CHECK: llvm.return
llvm.func @loop_and_if(%n: i32, %c: i1, %init: !llvm.struct<(f32, f32)>) -> !llvm.struct<(f32, f32)> {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %init) -> (!llvm.struct<(f32, f32)>) : i32 {
    %x = llvm.extractvalue %a[0] : !llvm.struct<(f32, f32)>
    %y = llvm.fadd %x, %x : f32
    %b = llvm.insertvalue %y, %a[1] : !llvm.struct<(f32, f32)>
    scf.yield %b : !llvm.struct<(f32, f32)>
  }
  %r = scf.if %c -> (!llvm.struct<(f32, f32)>) {
    scf.yield %acc : !llvm.struct<(f32, f32)>
  } else {
    scf.yield %init : !llvm.struct<(f32, f32)>
  }
  llvm.return %r : !llvm.struct<(f32, f32)>
}

// -----

// Nested loops, and a pair of unrealized casts that undo each other (what a
// conversion leaves between converted types): the casts are reconciled
// away, both loops become branches.
// CHECK-LABEL: llvm.func @nested_and_casts
// CHECK-NOT: unrealized_conversion_cast
// CHECK-NOT: scf.
// CHECK: llvm.icmp "slt"
// CHECK: llvm.icmp "slt"
// CHECK: llvm.store %arg1, %arg2 : i32, !llvm.ptr
// CHECK: llvm.return
llvm.func @nested_and_casts(%n: i32, %v: i32, %p: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    scf.for %j = %c0 to %n step %c1 : i32 {
      %w = builtin.unrealized_conversion_cast %v : i32 to index
      %u = builtin.unrealized_conversion_cast %w : index to i32
      llvm.store %u, %p : i32, !llvm.ptr
    }
  }
  llvm.return
}
