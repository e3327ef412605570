// RUN: tritium-translate %s --emit=ptx --arch=90 --ptx-version=8.4 | FileCheck %s

// PTXWideShifts.cpp: a widening multiply whose product only the one add
// after it in its block takes becomes mad.wide (a sign-extending LEA pair in
// SASS); one whose product two adds take is split into cvt + shl.
// CHECK-LABEL: .visible .entry offsets(
// CHECK-DAG: mad.wide.s32 %rd{{[0-9]+}}, %r{{[0-9]+}}, 4, %rd{{[0-9]+}};
// CHECK-DAG: cvt.s64.s32 [[OFF:%rd[0-9]+]], %r{{[0-9]+}};
// CHECK-DAG: shl.b64 [[OFF]], [[OFF]], 2;
// CHECK-NOT: mul.wide
// CHECK: ret;
module attributes {ttg.shared = 0 : i32} {
  llvm.func @offsets(%p: !llvm.ptr<1>, %q: !llvm.ptr<1>, %x: i32, %y: i32) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32>} {
    %one = llvm.mlir.constant(1.0 : f32) : f32
    %two = llvm.mlir.constant(2.0 : f32) : f32
    %wx = llvm.sext %x : i32 to i64
    %px = llvm.getelementptr %p[%wx] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    llvm.store %one, %px : f32, !llvm.ptr<1>
    %wy = llvm.sext %y : i32 to i64
    %py = llvm.getelementptr %p[%wy] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %qy = llvm.getelementptr %q[%wy] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    llvm.store %two, %py : f32, !llvm.ptr<1>
    llvm.store %two, %qy : f32, !llvm.ptr<1>
    llvm.return
  }
}
