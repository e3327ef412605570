// RUN: not tritium-translate %s -split-input-file 2>&1 | FileCheck %s

// A module without an nvvm.kernel function has nothing to launch.

// CHECK: error: the module has no kernel: no llvm.func carries the nvvm.kernel attribute
module {
  llvm.func @not_a_kernel() {
    llvm.return
  }
}

// -----

// A `__nv_` function that libdevice does not define is an error here, not an
// unresolved extern in ptxas.

// CHECK: error: libdevice ({{.*}}libdevice.10.bc) has no function __nv_no_such_function
module {
  llvm.func @calls_missing(%x: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %v = llvm.load %x : !llvm.ptr<1> -> f32
    %e = llvm.call @__nv_no_such_function(%v) : (f32) -> f32
    llvm.store %e, %x : f32, !llvm.ptr<1>
    llvm.return
  }
  llvm.func @__nv_no_such_function(f32) -> f32
}

// -----

// Ops of dialects that have no LLVM IR translation must be lowered before.

// CHECK: error: cannot be converted to LLVM IR: missing `LLVMTranslationDialectInterface` registration for dialect for op: arith.addf
// CHECK: error: the LLVM dialect module could not be translated to LLVM IR
module {
  llvm.func @unlowered(%a: f32) attributes {nvvm.kernel} {
    %b = arith.addf %a, %a : f32
    llvm.return
  }
}
