// REQUIRES: libdevice
// RUN: tritium-translate %s -split-input-file --emit=ptx --arch=90 | FileCheck %s

// The sine and the cosine of one value (a rotary embedding's pair) are one
// libdevice __nv_sincosf: one argument reduction, whose slow path reads the
// 2/pi table __cudart_i2opi_f, instead of one per function.

// CHECK-LABEL: .visible .entry rotary(
// CHECK: mov.b64 {{.*}}__cudart_i2opi_f;
// CHECK-NOT: __cudart_i2opi_f;
// CHECK: ret;
module {
  llvm.func @rotary(%x: !llvm.ptr<1>, %out: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %p = llvm.getelementptr %x[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %v = llvm.load %p : !llvm.ptr<1> -> f32
    %s = llvm.call @__nv_sinf(%v) : (f32) -> f32
    %c = llvm.call @__nv_cosf(%v) : (f32) -> f32
    %sum = llvm.fadd %s, %c : f32
    %q = llvm.getelementptr %out[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    llvm.store %sum, %q : f32, !llvm.ptr<1>
    llvm.return
  }
  llvm.func @__nv_sinf(f32) -> f32
  llvm.func @__nv_cosf(f32) -> f32
}

// -----

// The sine and the cosine of two different values keep a reduction each.

// CHECK-LABEL: .visible .entry two_angles(
// CHECK: __cudart_i2opi_f;
// CHECK: __cudart_i2opi_f;
// CHECK: ret;
module {
  llvm.func @two_angles(%x: !llvm.ptr<1>, %out: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %p = llvm.getelementptr %x[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %v = llvm.load %p : !llvm.ptr<1> -> f32
    %w = llvm.fadd %v, %v : f32
    %s = llvm.call @__nv_sinf(%v) : (f32) -> f32
    %c = llvm.call @__nv_cosf(%w) : (f32) -> f32
    %sum = llvm.fadd %s, %c : f32
    %q = llvm.getelementptr %out[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    llvm.store %sum, %q : f32, !llvm.ptr<1>
    llvm.return
  }
  llvm.func @__nv_sinf(f32) -> f32
  llvm.func @__nv_cosf(f32) -> f32
}
