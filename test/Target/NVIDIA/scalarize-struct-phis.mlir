// RUN: tritium-translate %s -split-input-file --emit=llvm-opt --arch=90 | FileCheck %s

// Loops carrying a struct of four floats (a tensor of four elements a
// thread, as the TTGIR lowering carries it).  With a constant trip count
// (1000, too many to unroll whole) the loop carries one phi per element
// after O3, and no struct; with a trip count known only at run time it
// keeps its struct phi.

// CHECK-LABEL: define ptx_kernel void @running_sums(
// CHECK-NOT: phi {
// CHECK: phi float
// CHECK: phi float
// CHECK-NOT: phi {
// CHECK-LABEL: define ptx_kernel void @running_sums_to_n(
// CHECK: phi { float, float, float, float }
llvm.func @running_sums(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>) attributes {nvvm.kernel} {
  %n = llvm.mlir.constant(1000 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  %zero = llvm.mlir.zero : !llvm.struct<(f32, f32, f32, f32)>
  llvm.br ^loop(%c0, %zero : i32, !llvm.struct<(f32, f32, f32, f32)>)
^loop(%i: i32, %acc: !llvm.struct<(f32, f32, f32, f32)>):
  %more = llvm.icmp "slt" %i, %n : i32
  llvm.cond_br %more, ^body, ^done
^body:
  %base = llvm.mul %i, %c4 : i32
  %p0 = llvm.getelementptr %in[%base] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
  %x0 = llvm.load %p0 : !llvm.ptr<1> -> f32
  %p1 = llvm.getelementptr %p0[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
  %x1 = llvm.load %p1 : !llvm.ptr<1> -> f32
  %p2 = llvm.getelementptr %p0[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
  %x2 = llvm.load %p2 : !llvm.ptr<1> -> f32
  %p3 = llvm.getelementptr %p0[3] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
  %x3 = llvm.load %p3 : !llvm.ptr<1> -> f32
  %a0 = llvm.extractvalue %acc[0] : !llvm.struct<(f32, f32, f32, f32)>
  %a1 = llvm.extractvalue %acc[1] : !llvm.struct<(f32, f32, f32, f32)>
  %a2 = llvm.extractvalue %acc[2] : !llvm.struct<(f32, f32, f32, f32)>
  %a3 = llvm.extractvalue %acc[3] : !llvm.struct<(f32, f32, f32, f32)>
  %s0 = llvm.fadd %a0, %x0 : f32
  %s1 = llvm.fadd %a1, %x1 : f32
  %s2 = llvm.fadd %a2, %x2 : f32
  %s3 = llvm.fadd %a3, %x3 : f32
  %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
  %v0 = llvm.insertvalue %s0, %u[0] : !llvm.struct<(f32, f32, f32, f32)>
  %v1 = llvm.insertvalue %s1, %v0[1] : !llvm.struct<(f32, f32, f32, f32)>
  %v2 = llvm.insertvalue %s2, %v1[2] : !llvm.struct<(f32, f32, f32, f32)>
  %v3 = llvm.insertvalue %s3, %v2[3] : !llvm.struct<(f32, f32, f32, f32)>
  %next = llvm.add %i, %c1 : i32
  llvm.br ^loop(%next, %v3 : i32, !llvm.struct<(f32, f32, f32, f32)>)
^done:
  %r0 = llvm.extractvalue %acc[0] : !llvm.struct<(f32, f32, f32, f32)>
  %r3 = llvm.extractvalue %acc[3] : !llvm.struct<(f32, f32, f32, f32)>
  %r = llvm.fadd %r0, %r3 : f32
  llvm.store %r, %out : f32, !llvm.ptr<1>
  llvm.return
}

llvm.func @running_sums_to_n(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>, %n: i32) attributes {nvvm.kernel} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  %zero = llvm.mlir.zero : !llvm.struct<(f32, f32, f32, f32)>
  llvm.br ^loop(%c0, %zero : i32, !llvm.struct<(f32, f32, f32, f32)>)
^loop(%i: i32, %acc: !llvm.struct<(f32, f32, f32, f32)>):
  %more = llvm.icmp "slt" %i, %n : i32
  llvm.cond_br %more, ^body, ^done
^body:
  %base = llvm.mul %i, %c4 : i32
  %p0 = llvm.getelementptr %in[%base] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
  %x0 = llvm.load %p0 : !llvm.ptr<1> -> f32
  %p1 = llvm.getelementptr %p0[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
  %x1 = llvm.load %p1 : !llvm.ptr<1> -> f32
  %p2 = llvm.getelementptr %p0[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
  %x2 = llvm.load %p2 : !llvm.ptr<1> -> f32
  %p3 = llvm.getelementptr %p0[3] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
  %x3 = llvm.load %p3 : !llvm.ptr<1> -> f32
  %a0 = llvm.extractvalue %acc[0] : !llvm.struct<(f32, f32, f32, f32)>
  %a1 = llvm.extractvalue %acc[1] : !llvm.struct<(f32, f32, f32, f32)>
  %a2 = llvm.extractvalue %acc[2] : !llvm.struct<(f32, f32, f32, f32)>
  %a3 = llvm.extractvalue %acc[3] : !llvm.struct<(f32, f32, f32, f32)>
  %s0 = llvm.fadd %a0, %x0 : f32
  %s1 = llvm.fadd %a1, %x1 : f32
  %s2 = llvm.fadd %a2, %x2 : f32
  %s3 = llvm.fadd %a3, %x3 : f32
  %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
  %v0 = llvm.insertvalue %s0, %u[0] : !llvm.struct<(f32, f32, f32, f32)>
  %v1 = llvm.insertvalue %s1, %v0[1] : !llvm.struct<(f32, f32, f32, f32)>
  %v2 = llvm.insertvalue %s2, %v1[2] : !llvm.struct<(f32, f32, f32, f32)>
  %v3 = llvm.insertvalue %s3, %v2[3] : !llvm.struct<(f32, f32, f32, f32)>
  %next = llvm.add %i, %c1 : i32
  llvm.br ^loop(%next, %v3 : i32, !llvm.struct<(f32, f32, f32, f32)>)
^done:
  %r0 = llvm.extractvalue %acc[0] : !llvm.struct<(f32, f32, f32, f32)>
  %r3 = llvm.extractvalue %acc[3] : !llvm.struct<(f32, f32, f32, f32)>
  %r = llvm.fadd %r0, %r3 : f32
  llvm.store %r, %out : f32, !llvm.ptr<1>
  llvm.return
}
