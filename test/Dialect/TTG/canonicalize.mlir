// RUN: tritium-opt %s -split-input-file -canonicalize | FileCheck %s

#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// A conversion of a splat constant is the constant in the new layout.
// CHECK: [[B:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4, 1]
// CHECK-LABEL: tt.func @convert_constant
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<16x16xf32, [[B]]>
// CHECK: tt.return %[[C]]
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @convert_constant() -> tensor<16x16xf32, #b> {
  %c = arith.constant dense<1.0> : tensor<16x16xf32, #a>
  %d = ttg.convert_layout %c : tensor<16x16xf32, #a> -> tensor<16x16xf32, #b>
  tt.return %d : tensor<16x16xf32, #b>
}
}

// -----

#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// A chain of conversions becomes one; a conversion back to the source layout
// disappears.
// CHECK-LABEL: tt.func @convert_chain
// CHECK-SAME: (%[[X:.*]]: tensor
// CHECK-NEXT: %[[Y:.*]] = ttg.convert_layout %[[X]]
// CHECK-NEXT: tt.return %[[Y]], %[[X]]
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @convert_chain(%x: tensor<16x16xf32, #a>) -> (tensor<16x16xf32, #b>, tensor<16x16xf32, #a>) {
  %y = ttg.convert_layout %x : tensor<16x16xf32, #a> -> tensor<16x16xf32, #b>
  %z = ttg.convert_layout %y : tensor<16x16xf32, #b> -> tensor<16x16xf32, #b>
  %w = ttg.convert_layout %z : tensor<16x16xf32, #b> -> tensor<16x16xf32, #a>
  tt.return %z, %w : tensor<16x16xf32, #b>, tensor<16x16xf32, #a>
}
}

// -----

#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// A conversion of a value that is not constant stays.
// CHECK-LABEL: tt.func @convert_stays
// CHECK: ttg.convert_layout
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @convert_stays(%x: tensor<16x16xf32, #a>) -> tensor<16x16xf32, #b> {
  %y = ttg.convert_layout %x : tensor<16x16xf32, #a> -> tensor<16x16xf32, #b>
  tt.return %y : tensor<16x16xf32, #b>
}
}
