// RUN: tritium-translate %s --emit=ptx --arch=90 --ptx-version=8.4 | FileCheck %s

// NVPTX's straight-line strength reduction does not run (PTXEmission.cpp):
// b + 5*s and b + 7*s stay multiply-adds of their own instead of becoming
// bumps of b + 3*s by 2*s (a shl and two adds).
// CHECK-LABEL: .visible .entry bumps(
// CHECK: mad.lo.s64 {{.*}}, 3,
// CHECK: mad.lo.s64 {{.*}}, 5,
// CHECK: mad.lo.s64 {{.*}}, 7,
// CHECK-NOT: shl.b64
// CHECK: ret;
module attributes {ttg.shared = 0 : i32} {
  llvm.func @bumps(%p: !llvm.ptr<1>, %b: i64, %s: i64) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32>} {
    %c3 = llvm.mlir.constant(3 : i64) : i64
    %c5 = llvm.mlir.constant(5 : i64) : i64
    %c7 = llvm.mlir.constant(7 : i64) : i64
    %m3 = llvm.mul %s, %c3 : i64
    %a3 = llvm.add %b, %m3 : i64
    %m5 = llvm.mul %s, %c5 : i64
    %a5 = llvm.add %b, %m5 : i64
    %m7 = llvm.mul %s, %c7 : i64
    %a7 = llvm.add %b, %m7 : i64
    %q5 = llvm.getelementptr %p[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
    %q7 = llvm.getelementptr %p[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
    llvm.store %a3, %p : i64, !llvm.ptr<1>
    llvm.store %a5, %q5 : i64, !llvm.ptr<1>
    llvm.store %a7, %q7 : i64, !llvm.ptr<1>
    llvm.return
  }
}
