// RUN: tritium-translate %s --emit=llvm-opt --arch=90 --ptx-version=8.4 | FileCheck %s

// VectorCombine does not run on NVPTX (Optimize.cpp): a shared-memory vector
// load whose uses are all extracts (a CUDA-core dot operand's K values) stays
// one load instead of being split into one scalar load per element, which
// NVPTX's load-store vectorizer would then merge again.
// CHECK-LABEL: define {{.*}} @fma_row(
// CHECK: load <4 x float>, ptr addrspace(3)
// CHECK-NOT: load float, ptr addrspace(3)
// CHECK: ret void
module attributes {ttg.shared = 16 : i32} {
  llvm.func @fma_row(%s: !llvm.ptr<3>, %x: f32, %out: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32>} {
    %v = llvm.load %s {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c2 = llvm.mlir.constant(2 : i32) : i32
    %c3 = llvm.mlir.constant(3 : i32) : i32
    %e0 = llvm.extractelement %v[%c0 : i32] : vector<4xf32>
    %e1 = llvm.extractelement %v[%c1 : i32] : vector<4xf32>
    %e2 = llvm.extractelement %v[%c2 : i32] : vector<4xf32>
    %e3 = llvm.extractelement %v[%c3 : i32] : vector<4xf32>
    %a0 = llvm.intr.fma(%e0, %x, %x) : (f32, f32, f32) -> f32
    %a1 = llvm.intr.fma(%e1, %x, %a0) : (f32, f32, f32) -> f32
    %a2 = llvm.intr.fma(%e2, %x, %a1) : (f32, f32, f32) -> f32
    %a3 = llvm.intr.fma(%e3, %x, %a2) : (f32, f32, f32) -> f32
    llvm.store %a3, %out : f32, !llvm.ptr<1>
    llvm.return
  }
}
