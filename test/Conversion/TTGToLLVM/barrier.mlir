// RUN: tritium-opt %s -split-input-file -ttg-allocate-shared-memory -ttg-membar -convert-ttg-to-llvm -canonicalize -cse | FileCheck %s

// ttg.barrier lowers to bar.sync 0 (nvvm.barrier0), and nothing else.
// CHECK-LABEL: llvm.func @plain_barrier
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: llvm.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @plain_barrier() {
    ttg.barrier
    tt.return
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// Two conversions through the same scratch bytes, after ttg-membar: the
// first stores without waiting (a kernel starts with nothing pending), each
// has its own barrier between its stores and its loads, and the membar
// barrier keeps the second's stores after the first's loads: three
// barriers in all.
// CHECK-LABEL: llvm.func @two_conversions
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.store
// CHECK-NOT: llvm.load
// CHECK: nvvm.barrier0
// CHECK-NOT: llvm.store
// CHECK: llvm.load
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK-NOT: llvm.load
// CHECK: llvm.store
// CHECK-NOT: llvm.load
// CHECK: nvvm.barrier0
// CHECK-NOT: llvm.store
// CHECK: llvm.load
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @two_conversions(%x: tensor<64x64xf32, #a>) -> tensor<64x64xf32, #a> {
    %y = ttg.convert_layout %x : tensor<64x64xf32, #a> -> tensor<64x64xf32, #b>
    %s = arith.addf %y, %y : tensor<64x64xf32, #b>
    %z = ttg.convert_layout %s : tensor<64x64xf32, #b> -> tensor<64x64xf32, #a>
    tt.return %z : tensor<64x64xf32, #a>
  }
}
