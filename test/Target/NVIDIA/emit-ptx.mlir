// RUN: tritium-translate %s -split-input-file --emit=ptx --arch=90 --ptx-version=8.4 | FileCheck %s
// RUN: tritium-translate %s -split-input-file --emit=ptx --arch=80 --ptx-version=7.4 | FileCheck %s --check-prefix=SM80
// RUN: tritium-translate %s -split-input-file --emit=llvm | FileCheck %s --check-prefix=LLVM

// A kernel (nvvm.kernel) becomes a PTX .entry; compute capability 9.0 is
// compiled for sm_90a, and the PTX declares the ISA version asked for.

// CHECK: .version 8.4
// CHECK: .target sm_90a
// CHECK: .address_size 64
// CHECK-LABEL: .visible .entry copy(
// CHECK: .maxntid 128
// CHECK: mov.u32 {{.*}}%tid.x
// CHECK: ld.global
// CHECK: st.global
// SM80: .version 7.4
// SM80: .target sm_80
// SM80-LABEL: .visible .entry copy(
// Shared, const and local pointers are 32 bits (nvptx-short-ptr).
// LLVM: target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
// LLVM: target triple = "nvptx64-nvidia-cuda"
// LLVM: define ptx_kernel void @copy(
module attributes {ttg.shared = 0 : i32} {
  llvm.func @copy(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128>} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %px = llvm.getelementptr %x[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %py = llvm.getelementptr %y[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %v = llvm.load %px : !llvm.ptr<1> -> f32
    llvm.store %v, %py : f32, !llvm.ptr<1>
    llvm.return
  }
}

// -----

// Helper functions are internalized and inlined away: only the kernel is
// left, as the one .entry, and no .func survives.

// CHECK-LABEL: .visible .entry scale(
// CHECK-NOT: .func
// CHECK: mul.f32
// SM80-LABEL: .visible .entry scale(
// LLVM: define float @thrice(
// LLVM-LABEL: define ptx_kernel void @scale(
module {
  llvm.func @thrice(%v: f32) -> f32 {
    %c = llvm.mlir.constant(3.0 : f32) : f32
    %r = llvm.fmul %v, %c : f32
    llvm.return %r : f32
  }
  llvm.func @scale(%x: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %p = llvm.getelementptr %x[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %v = llvm.load %p : !llvm.ptr<1> -> f32
    %w = llvm.call @thrice(%v) : (f32) -> f32
    llvm.store %w, %p : f32, !llvm.ptr<1>
    llvm.return
  }
}

// -----

// a * b + c contracts into one fma by default (enable_fp_fusion).

// CHECK-LABEL: .visible .entry axpy(
// CHECK: fma.rn.f32
// SM80-LABEL: .visible .entry axpy(
// SM80: fma.rn.f32
// LLVM-LABEL: define ptx_kernel void @axpy(
module {
  llvm.func @axpy(%x: !llvm.ptr<1>, %a: f32, %b: f32) attributes {nvvm.kernel} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %p = llvm.getelementptr %x[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %v = llvm.load %p : !llvm.ptr<1> -> f32
    %m = llvm.fmul %v, %a : f32
    %s = llvm.fadd %m, %b : f32
    llvm.store %s, %p : f32, !llvm.ptr<1>
    llvm.return
  }
}
