// RUN: tritium-opt %s -split-input-file -ttg-allocate-shared-memory -convert-ttg-to-llvm -verify-diagnostics

#a = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>

// A gather reads each result element's index in the same thread: indices
// in another layout than the result are refused (the TTGIR passes keep
// them in one layout).
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @gather_index_layout(%src: tensor<32x8xf32, #a>, %idx: tensor<32x8xi32, #b>) -> tensor<32x8xf32, #a> {
    // expected-error@+2 {{tt.gather: the indices' layout must hold every index in the thread of its result element}}
    // expected-error@+1 {{failed to legalize operation 'tt.gather'}}
    %g = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<32x8xf32, #a>, tensor<32x8xi32, #b>) -> tensor<32x8xf32, #a>
    tt.return %g : tensor<32x8xf32, #a>
  }
}
