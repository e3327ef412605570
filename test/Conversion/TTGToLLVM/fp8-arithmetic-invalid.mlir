// RUN: tritium-opt %s -split-input-file -ttg-allocate-shared-memory -convert-ttg-to-llvm -verify-diagnostics

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// fp8 has no arithmetic: an add of two fp8e4nv tensors is refused at its
// location, before anything is rewritten.
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @fp8_add(%x: tensor<512xf8E4M3FN, #b>) -> tensor<512xf8E4M3FN, #b> {
    // expected-error@+1 {{fp8e4nv values have no arithmetic (+): convert them first}}
    %y = arith.addf %x, %x : tensor<512xf8E4M3FN, #b>
    tt.return %y : tensor<512xf8E4M3FN, #b>
  }
}

// -----

// A comparison of scalars of fp8e5 too; conversions and selects are not
// arithmetic.
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @fp8_compare(%a: f8E5M2, %b: f8E5M2, %c: i1) -> (i1, f16, f8E5M2) {
    // expected-error@+1 {{fp8e5 values have no arithmetic (a comparison)}}
    %lt = arith.cmpf olt, %a, %b : f8E5M2
    %wide = arith.extf %a : f8E5M2 to f16
    %pick = arith.select %c, %a, %b : f8E5M2
    tt.return %lt, %wide, %pick : i1, f16, f8E5M2
  }
}
