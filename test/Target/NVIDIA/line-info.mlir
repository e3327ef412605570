// RUN: tritium-translate %s --line-info | FileCheck %s
// RUN: tritium-translate %s | FileCheck %s --check-prefix=NOLINES

// With line information, each instruction carries the file:line of the IR
// it came from (for a kernel, the Python source line), as `.loc` directives
// only: the target stays optimizable (no ", debug" after it).

// CHECK: .target sm_90a{{$}}
// CHECK-LABEL: .visible .entry scale(
// CHECK: .loc [[FILE:[0-9]+]] [[@LINE+9]]
// CHECK: ld.global
// CHECK: .file [[FILE]] "{{.*}}line-info.mlir"
// NOLINES-NOT: .loc
// NOLINES-NOT: .file
module {
  llvm.func @scale(%x: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %p = llvm.getelementptr %x[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %v = llvm.load %p : !llvm.ptr<1> -> f32
    %c = llvm.mlir.constant(3.0 : f32) : f32
    %w = llvm.fmul %v, %c : f32
    llvm.store %w, %p : f32, !llvm.ptr<1>
    llvm.return
  }
}
