// RUN: tritium-opt %s -split-input-file -convert-ttg-to-llvm | FileCheck %s

// A public function is a kernel: nvvm.kernel, nvvm.reqntid from the module's
// warps and lanes, llvm.align from tt.divisibility on pointers only (never
// noalias), and pointers keep their address space.
// CHECK-LABEL: llvm.func @kernel
// CHECK-SAME: (%{{.*}}: !llvm.ptr<1> {llvm.align = 16 : i64}, %{{.*}}: !llvm.ptr<3>, %{{.*}}: i32)
// CHECK-SAME: attributes {nvvm.kernel, nvvm.reqntid = array<i32: 64, 1, 1>}
// CHECK-NOT: noalias
// CHECK: llvm.return
module attributes {"ttg.num-warps" = 2 : i32} {
  tt.func public @kernel(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f16, 3>, %n: i32 {tt.divisibility = 8 : i32}) {
    tt.return
  }
}

// -----

// ttg.maxnreg (the maxnreg launch option) caps a kernel's registers:
// nvvm.maxnreg on the kernel, nothing on a device function.
// CHECK-LABEL: llvm.func internal @capped_helper() {
// CHECK-LABEL: llvm.func @capped_kernel()
// CHECK-SAME: attributes {nvvm.kernel, nvvm.maxnreg = 40 : i32, nvvm.reqntid = array<i32: 128, 1, 1>}
module attributes {"ttg.num-warps" = 4 : i32, "ttg.maxnreg" = 40 : i32} {
  tt.func private @capped_helper() {
    tt.return
  }
  tt.func public @capped_kernel() {
    tt.call @capped_helper() : () -> ()
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>

// A private function stays a device function (internal, no kernel
// attributes); a tensor argument is the struct of a thread's two elements;
// several results travel as one struct, packed by the return and unpacked
// after the call.
// CHECK-LABEL: llvm.func internal @helper
// CHECK-SAME: (%[[A:.*]]: !llvm.struct<(f32, f32)>, %[[S:.*]]: i32) -> !llvm.struct<(struct<(f32, f32)>, i32)> {
// CHECK: %[[P0:.*]] = llvm.insertvalue %[[A]], %{{.*}}[0]
// CHECK: %[[P1:.*]] = llvm.insertvalue %[[S]], %[[P0]][1]
// CHECK: llvm.return %[[P1]]
// CHECK: llvm.func @decl(i32) -> i32
// CHECK-LABEL: llvm.func @caller
// CHECK: %[[R:.*]] = llvm.call @helper(%{{.*}}, %{{.*}}) : (!llvm.struct<(f32, f32)>, i32) -> !llvm.struct<(struct<(f32, f32)>, i32)>
// CHECK: %[[R1:.*]] = llvm.extractvalue %[[R]][1]
// CHECK: llvm.call @decl(%[[R1]]) : (i32) -> i32
module attributes {"ttg.num-warps" = 2 : i32} {
  tt.func private @helper(%a: tensor<128xf32, #b>, %s: i32) -> (tensor<128xf32, #b>, i32) {
    tt.return %a, %s : tensor<128xf32, #b>, i32
  }
  tt.func private @decl(i32) -> i32
  tt.func public @caller(%t: tensor<128xf32, #b>, %i: i32) {
    %r:2 = tt.call @helper(%t, %i) : (tensor<128xf32, #b>, i32) -> (tensor<128xf32, #b>, i32)
    %d = tt.call @decl(%r#1) : (i32) -> i32
    tt.return
  }
}
