// RUN: tritium-opt %s -convert-ttg-to-llvm="compute-capability=80" -verify-diagnostics

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// The 8-bit float conversion instructions need sm_89; the option says which
// GPU the code is for.
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @fp8_on_ampere(%x: tensor<32xf32, #b>) -> tensor<32xf8E4M3FN, #b> {
    // expected-error@+2 {{conversions of 8-bit floats need compute capability 89 or newer, the target has 80}}
    // expected-error@+1 {{failed to legalize operation 'tt.fp_to_fp'}}
    %y = tt.fp_to_fp %x, rounding = rtne : tensor<32xf32, #b> -> tensor<32xf8E4M3FN, #b>
    tt.return %y : tensor<32xf8E4M3FN, #b>
  }
}
