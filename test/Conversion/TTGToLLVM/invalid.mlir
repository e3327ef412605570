// RUN: tritium-opt %s -split-input-file -convert-ttg-to-llvm -verify-diagnostics

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// PTX has correctly rounded square roots of f32 and f64 only.
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @precise_sqrt_f16(%x: tensor<32xf16, #b>) -> tensor<32xf16, #b> {
    // expected-error@+2 {{precise_sqrt supports f32 and f64 only}}
    // expected-error@+1 {{failed to legalize operation 'tt.precise_sqrt'}}
    %y = tt.precise_sqrt %x : tensor<32xf16, #b>
    tt.return %y : tensor<32xf16, #b>
  }
}

// -----

#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 2], order = [0, 1]}>

// A conversion through shared memory (elements change warps) needs the
// offset ttg-allocate-shared-memory records.
module attributes {"ttg.num-warps" = 2 : i32} {
  tt.func @no_allocation(%x: tensor<16x16xf32, #row>) -> tensor<16x16xf32, #col> {
    // expected-error@+2 {{needs shared memory but has no 'allocation.offset'; run ttg-allocate-shared-memory before convert-ttg-to-llvm}}
    // expected-error@+1 {{failed to legalize operation 'ttg.convert_layout'}}
    %y = ttg.convert_layout %x : tensor<16x16xf32, #row> -> tensor<16x16xf32, #col>
    tt.return %y : tensor<16x16xf32, #col>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// PTX has no floating-point max atomic.
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @float_max(%p: !tt.ptr<f32>, %v: f32) {
    // expected-error@+2 {{no PTX atomic for this operation on 'f32'}}
    // expected-error@+1 {{failed to legalize operation 'tt.atomic_rmw'}}
    %o = tt.atomic_rmw max, relaxed, gpu, %p, %v : (!tt.ptr<f32>, f32) -> f32
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// Rounding toward zero to 8-bit floats exists for f8E5M2 only (the high
// byte of an f16), as in Triton.
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @fp8_rtz(%x: tensor<32xf32, #b>) -> tensor<32xf8E4M3FN, #b> {
    // expected-error@+2 {{rounding toward zero to 8-bit floats exists for float8e5 (f8E5M2) only}}
    // expected-error@+1 {{failed to legalize operation 'tt.fp_to_fp'}}
    %y = tt.fp_to_fp %x, rounding = rtz : tensor<32xf32, #b> -> tensor<32xf8E4M3FN, #b>
    tt.return %y : tensor<32xf8E4M3FN, #b>
  }
}

// -----

#src = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#other = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>

// A transpose into a layout that moves elements between threads needs a
// ttg.convert_layout first.
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @trans_across_threads(%x: tensor<16x32xf32, #src>) -> tensor<32x16xf32, #other> {
    // expected-error@+2 {{the result layout holds elements in other threads than the source layout; a ttg.convert_layout must come first}}
    // expected-error@+1 {{failed to legalize operation 'tt.trans'}}
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf32, #src> -> tensor<32x16xf32, #other>
    tt.return %t : tensor<32x16xf32, #other>
  }
}

// -----

#odd = #ttg.linear<{register = [[8, 0]], lane = [[2, 0], [0, 0], [8, 0], [4, 0], [16, 0]], warp = [[1, 0]], block = []}>

// A register basis and a lane basis reach the same rows: the butterflies
// would count those rows twice (ttg-legalize-reduction-layouts converts the
// operand first; the lowering alone refuses).
module attributes {"ttg.num-warps" = 2 : i32} {
  tt.func @reduce_repeated_basis(%x: tensor<32x1xi32, #odd>) -> tensor<1xi32, #ttg.slice<{dim = 0, parent = #odd}>> {
    // expected-error@+2 {{cannot lower the reduction along axis 0 of this layout: two lane or warp bases along the reduction axis, or one and a thread's registers, reach the same elements}}
    // expected-error@+1 {{failed to legalize operation 'tt.reduce'}}
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tt.reduce.return %t : i32
    }) : (tensor<32x1xi32, #odd>) -> tensor<1xi32, #ttg.slice<{dim = 0, parent = #odd}>>
    tt.return %s : tensor<1xi32, #ttg.slice<{dim = 0, parent = #odd}>>
  }
}
