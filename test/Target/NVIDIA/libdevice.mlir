// REQUIRES: libdevice
// RUN: tritium-translate %s -split-input-file --emit=ptx --arch=90 | FileCheck %s
// RUN: tritium-translate %s -split-input-file --emit=llvm-opt --arch=90 | FileCheck %s --check-prefix=OPT
// RUN: tritium-translate %s -split-input-file --emit=llvm-opt --arch=90 --ftz | FileCheck %s --check-prefix=FTZ
// RUN: env TRITIUM_LIBDEVICE_PATH=/nonexistent/libdevice.10.bc not tritium-translate %s -split-input-file 2>&1 | FileCheck %s --check-prefix=NOLIB

// An explicit libdevice path that is wrong is reported, not replaced by
// another libdevice.
// NOLIB: error: cannot read libdevice at /nonexistent/libdevice.10.bc: No such file or directory

// A call of a libdevice function (__nv_expf) is linked from libdevice.10.bc
// and inlined: the PTX declares no external function and computes exp2.

// CHECK-LABEL: .visible .entry softplus_exp(
// CHECK-NOT: .extern
// CHECK-NOT: call
// CHECK: ex2.approx
// CHECK-NOT: __nv_expf
// OPT: define ptx_kernel void @softplus_exp(
// OPT-NOT: __nv_expf
// OPT-NOT: __nvvm_reflect
// OPT: !{i32 4, !"nvvm-reflect-ftz", i32 0}
// FTZ: !{i32 4, !"nvvm-reflect-ftz", i32 1}
module {
  llvm.func @softplus_exp(%x: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %p = llvm.getelementptr %x[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %v = llvm.load %p : !llvm.ptr<1> -> f32
    %e = llvm.call @__nv_expf(%v) : (f32) -> f32
    llvm.store %e, %p : f32, !llvm.ptr<1>
    llvm.return
  }
  llvm.func @__nv_expf(f32) -> f32
}

// -----

// Several libdevice functions, in f64 too, all resolve.

// CHECK-LABEL: .visible .entry two_calls(
// CHECK-NOT: .extern
// CHECK: st.global.b64
// OPT-LABEL: define ptx_kernel void @two_calls(
// OPT-NOT: declare {{.*}}@__nv_
module {
  llvm.func @two_calls(%x: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %p = llvm.getelementptr %x[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f64
    %v = llvm.load %p : !llvm.ptr<1> -> f64
    %s = llvm.call @__nv_sin(%v) : (f64) -> f64
    %r = llvm.call @__nv_sqrt(%s) : (f64) -> f64
    llvm.store %r, %p : f64, !llvm.ptr<1>
    llvm.return
  }
  llvm.func @__nv_sin(f64) -> f64
  llvm.func @__nv_sqrt(f64) -> f64
}
