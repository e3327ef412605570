// RUN: tritium-translate %s --emit=ptx | FileCheck %s --check-prefix=FUSED
// RUN: tritium-translate %s --emit=ptx --no-fp-fusion | FileCheck %s --check-prefix=SEPARATE

// enable_fp_fusion=False keeps a * b + c as a rounded multiply and a rounded
// add (what the Python source says), instead of one fma.

// FUSED-LABEL: .visible .entry mul_add(
// FUSED: fma.rn.f32
// SEPARATE-LABEL: .visible .entry mul_add(
// SEPARATE-NOT: fma
// SEPARATE: mul.rn.f32
// SEPARATE: add.rn.f32
module {
  llvm.func @mul_add(%x: !llvm.ptr<1>, %a: f32, %b: f32) attributes {nvvm.kernel} {
    %v = llvm.load %x : !llvm.ptr<1> -> f32
    %m = llvm.fmul %v, %a : f32
    %s = llvm.fadd %m, %b : f32
    llvm.store %s, %x : f32, !llvm.ptr<1>
    llvm.return
  }
}
