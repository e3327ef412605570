// RUN: tritium-opt %s -split-input-file -verify-diagnostics

// The four fields of a blocked layout must have one entry per dimension.

// expected-error@+1 {{invalid #ttg.blocked: sizePerThread, threadsPerWarp, warpsPerCTA and order must have the same rank (got 2, 1, 1, 1)}}
tt.func @blocked_rank_mismatch(%arg0: tensor<16xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {
  tt.return
}

// -----

// A blocked layout has at least one dimension.

// expected-error@+1 {{invalid #ttg.blocked: blocked layout must have rank at least 1}}
tt.func @blocked_rank_zero(%arg0: tensor<16xf32, #ttg.blocked<{sizePerThread = [], threadsPerWarp = [], warpsPerCTA = [], order = []}>>) {
  tt.return
}

// -----

// sizePerThread entries are powers of two.

// expected-error@+1 {{invalid #ttg.blocked: sizePerThread[0] is 3, expected a positive power of two}}
tt.func @blocked_size_not_power_of_two(%arg0: tensor<16xf32, #ttg.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {
  tt.return
}

// -----

// threadsPerWarp entries are powers of two.

// expected-error@+1 {{invalid #ttg.blocked: threadsPerWarp[1] is 6, expected a positive power of two}}
tt.func @blocked_threads_not_power_of_two(%arg0: tensor<16x16xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 6], warpsPerCTA = [4, 1], order = [1, 0]}>>) {
  tt.return
}

// -----

// warpsPerCTA entries are positive: zero is not a power of two.

// expected-error@+1 {{invalid #ttg.blocked: warpsPerCTA[0] is 0, expected a positive power of two}}
tt.func @blocked_zero_warps(%arg0: tensor<16xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [0], order = [0]}>>) {
  tt.return
}

// -----

// order is a permutation of the dimensions.

// expected-error@+1 {{invalid #ttg.blocked: order [0,0] is not a permutation of 0..1}}
tt.func @blocked_order_repeats(%arg0: tensor<16x16xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [0, 0]}>>) {
  tt.return
}

// -----

// order entries name existing dimensions.

// expected-error@+1 {{invalid #ttg.blocked: order [1,2] is not a permutation of 0..1}}
tt.func @blocked_order_out_of_range(%arg0: tensor<16x16xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 2]}>>) {
  tt.return
}

// -----

// A field the layout does not have is rejected.

// expected-error@+1 {{unknown field 'foo' in #ttg.blocked}}
tt.func @blocked_unknown_field(%arg0: tensor<16xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], foo = 1}>>) {
  tt.return
}

// -----

// Every field is required.

// expected-error@+1 {{#ttg.blocked field 'warpsPerCTA' is missing}}
tt.func @blocked_missing_field(%arg0: tensor<16xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], order = [0]}>>) {
  tt.return
}

// -----

// Array fields must be arrays.

// expected-error@+1 {{#ttg.blocked field 'sizePerThread' must be an integer array}}
tt.func @blocked_field_not_array(%arg0: tensor<16xf32, #ttg.blocked<{sizePerThread = 1, threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {
  tt.return
}

// -----

// Array fields hold non-negative integers.

// expected-error@+1 {{#ttg.blocked field 'sizePerThread' must hold non-negative integers}}
tt.func @blocked_negative_entry(%arg0: tensor<16xf32, #ttg.blocked<{sizePerThread = [-1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {
  tt.return
}

// -----

// An entry too large for the 32-bit field is rejected, not truncated
// (4294967297 would otherwise read as 1).

// expected-error@+1 {{#ttg.blocked field 'sizePerThread'}}
tt.func @blocked_entry_overflows(%arg0: tensor<16xf32, #ttg.blocked<{sizePerThread = [4294967297], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {
  tt.return
}

// -----

// A field error is reported at the attribute also when the attribute ends its
// line, as in an alias definition.

// expected-error@+1 {{#ttg.blocked field 'warpsPerCTA' is missing}}
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], order = [0]}>

tt.func @alias_missing_field(%arg0: tensor<16xf32, #blocked>) {
  tt.return
}

// -----

// An unknown field in an alias definition is reported on the alias line.

// expected-error@+1 {{unknown field 'bogus' in #ttg.blocked}}
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], bogus = 1}>

tt.func @alias_unknown_field(%arg0: tensor<16xf32, #blocked>) {
  tt.return
}

// -----

// The sliced dimension exists in the parent.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error@+1 {{#ttg.slice dim 2 is out of range for a rank-2 parent}}
tt.func @slice_dim_out_of_range(%arg0: tensor<16xf32, #ttg.slice<{dim = 2, parent = #blocked}>>) {
  tt.return
}

// -----

// A slice's parent is a distributed layout, not a shared one.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error@+1 {{#ttg.slice parent must be a distributed layout, got #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>}}
tt.func @slice_of_shared(%arg0: tensor<16xf32, #ttg.slice<{dim = 0, parent = #shared}>>) {
  tt.return
}

// -----

// A slice's parent is a layout attribute, not any attribute.

// expected-error@+1 {{#ttg.slice parent must be a distributed layout, got 3 : i64}}
tt.func @slice_of_integer(%arg0: tensor<16xf32, #ttg.slice<{dim = 0, parent = 3}>>) {
  tt.return
}

// -----

// A slice needs its parent.

// expected-error@+1 {{#ttg.slice field 'parent' is missing}}
tt.func @slice_without_parent(%arg0: tensor<16xf32, #ttg.slice<{dim = 0}>>) {
  tt.return
}

// -----

// Only mma versions 2 (mma.sync) and 3 (wgmma) exist.

// expected-error@+1 {{invalid #ttg.nvidia_mma: unsupported mma versionMajor 1, expected 2 or 3}}
tt.func @mma_bad_version(%arg0: tensor<16x16xf32, #ttg.nvidia_mma<{versionMajor = 1, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>) {
  tt.return
}

// -----

// mma v2 has the m16n8 instruction shape only.

// expected-error@+1 {{invalid #ttg.nvidia_mma: instrShape [16,16] is invalid for mma v2, expected [16,8]}}
tt.func @mma_v2_bad_instr_shape(%arg0: tensor<16x16xf32, #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 16]}>>) {
  tt.return
}

// -----

// mma v3 instruction shapes are [16, N, K].

// expected-error@+1 {{invalid #ttg.nvidia_mma: instrShape [16,64] is invalid for mma v3, expected [16,N,K]}}
tt.func @mma_v3_instr_shape_rank(%arg0: tensor<64x64xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64]}>>) {
  tt.return
}

// -----

// mma v3 N is at most 256.

// expected-error@+1 {{invalid #ttg.nvidia_mma: instrShape N is 512, expected a multiple of 8 in 8..256}}
tt.func @mma_v3_n_too_large(%arg0: tensor<64x64xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 512, 16]}>>) {
  tt.return
}

// -----

// mma v3 N must be a power of two here, though wgmma accepts any multiple of 8.

// expected-error@+1 {{invalid #ttg.nvidia_mma: instrShape N is 24, expected a power of two (layouts need power-of-two tiles)}}
tt.func @mma_v3_n_not_power_of_two(%arg0: tensor<64x64xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 24, 16]}>>) {
  tt.return
}

// -----

// mma v3 K is a power of two.

// expected-error@+1 {{invalid #ttg.nvidia_mma: instrShape K is 12, expected a positive power of two}}
tt.func @mma_v3_bad_k(%arg0: tensor<64x64xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 12]}>>) {
  tt.return
}

// -----

// An mma v3 layout may have fewer than 4 warps along M (Triton's layout
// tests convert such layouts), but wgmma places whole warpgroups along M.

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
tt.func @mma_v3_partial_warpgroup(%a: !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory>, %b: !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory>, %c: tensor<64x64xf32, #mma>) {
  // expected-error@+1 {{the accumulator's warpsPerCTA[0] is 2, expected a multiple of 4 (a warpgroup spans M)}}
  %d = ttg.warp_group_dot %a, %b, %c : !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory> * !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory> -> tensor<64x64xf32, #mma>
  tt.return
}

// -----

// mma layouts are rank 2 or 3.

// expected-error@+1 {{invalid #ttg.nvidia_mma: warpsPerCTA must have rank 2 (or 3, batch first), got 1}}
tt.func @mma_warps_rank(%arg0: tensor<16x16xf32, #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4], instrShape = [16, 8]}>>) {
  tt.return
}

// -----

// mma warpsPerCTA entries are powers of two.

// expected-error@+1 {{invalid #ttg.nvidia_mma: warpsPerCTA[0] is 3, expected a positive power of two}}
tt.func @mma_warps_not_power_of_two(%arg0: tensor<16x16xf32, #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [3, 1], instrShape = [16, 8]}>>) {
  tt.return
}

// -----

// A dot operand of a blocked accumulator (a CUDA-core dot) has kWidth 1:
// every thread holds all of K.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error@+1 {{invalid #ttg.dot_op: kWidth must be 1 with a #ttg.blocked parent, got 2}}
tt.func @dot_op_blocked_parent(%arg0: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked, kWidth = 2}>>) {
  tt.return
}

// -----

// A dot operand's parent is an mma or a blocked layout.

#slice = #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>
// expected-error@+1 {{#ttg.dot_op parent must be a #ttg.nvidia_mma or #ttg.blocked layout}}
tt.func @dot_op_slice_parent(%arg0: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #slice, kWidth = 2}>>) {
  tt.return
}

// -----

// A warpgroup dot needs a version-3 mma accumulator.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
tt.func @warp_group_dot_blocked(%a: !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory>, %b: !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory>, %c: tensor<64x64xf32, #blocked>) {
  // expected-error@+1 {{accumulator must have a #ttg.nvidia_mma layout of version 3}}
  %d = ttg.warp_group_dot %a, %b, %c : !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory> * !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory> -> tensor<64x64xf32, #blocked>
  tt.return
}

// -----

// A warpgroup dot's register A is 16-bit or 8-bit, in the dot_op layout of
// its accumulator with four bytes a register.

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
tt.func @warp_group_dot_register_a_layout(%a: tensor<64x64xf16, #blocked>, %b: !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory>, %c: tensor<64x64xf32, #mma>) {
  // expected-error@+1 {{a register operand must be 16-bit or 8-bit, in the #ttg.dot_op layout (opIdx 0, kWidth 32 / element bits) of the accumulator}}
  %d = ttg.warp_group_dot %a, %b, %c : tensor<64x64xf16, #blocked> * !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory> -> tensor<64x64xf32, #mma>
  tt.return
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
#dot2 = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 64, elementBitWidth = 8, order = [0, 1]}>
tt.func @warp_group_dot_fp8_register_a_kwidth(%a: tensor<64x64xf8E4M3FN, #dot2>, %b: !ttg.memdesc<64x64xf8E4M3FN, #nvmma, #ttg.shared_memory>, %c: tensor<64x64xf32, #mma>) {
  // expected-error@+1 {{a register operand must be 16-bit or 8-bit, in the #ttg.dot_op layout (opIdx 0, kWidth 32 / element bits) of the accumulator}}
  %d = ttg.warp_group_dot %a, %b, %c : tensor<64x64xf8E4M3FN, #dot2> * !ttg.memdesc<64x64xf8E4M3FN, #nvmma, #ttg.shared_memory> -> tensor<64x64xf32, #mma>
  tt.return
}

// -----

// An NVMMA shared layout swizzles 32, 64 or 128 bytes.

// expected-error@+1 {{invalid #ttg.nvmma_shared: swizzlingByteWidth is 48, expected 32, 64 or 128}}
tt.func @nvmma_bad_swizzle(%a: !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 48, elementBitWidth = 16, order = [1, 0]}>, #ttg.shared_memory>) {
  tt.return
}

// -----

// opIdx is 0 (A) or 1 (B).

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error@+1 {{invalid #ttg.dot_op: opIdx is 2, expected 0 or 1}}
tt.func @dot_op_bad_op_idx(%arg0: tensor<16x16xf16, #ttg.dot_op<{opIdx = 2, parent = #mma, kWidth = 2}>>) {
  tt.return
}

// -----

// kWidth is a power of two.

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error@+1 {{invalid #ttg.dot_op: kWidth is 3, expected a power of two in 1..16}}
tt.func @dot_op_kwidth_not_power_of_two(%arg0: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 3}>>) {
  tt.return
}

// -----

// kWidth is at most 16.

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error@+1 {{invalid #ttg.dot_op: kWidth is 32, expected a power of two in 1..16}}
tt.func @dot_op_kwidth_too_large(%arg0: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 32}>>) {
  tt.return
}

// -----

// kWidth is at least 1.

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error@+1 {{invalid #ttg.dot_op: kWidth is 0, expected a power of two in 1..16}}
tt.func @dot_op_kwidth_zero(%arg0: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 0}>>) {
  tt.return
}

// -----

// wgmma reads B from shared memory: an mma v3 parent admits operand A only.

#mma3 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// expected-error@+1 {{invalid #ttg.dot_op: with an mma v3 parent only operand A (opIdx 0) may be held in registers}}
tt.func @dot_op_v3_operand_b(%arg0: tensor<16x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma3, kWidth = 2}>>) {
  tt.return
}

// -----

// vec is a power of two.

// expected-error@+1 {{invalid #ttg.swizzled_shared: vec is 3, expected a positive power of two}}
tt.func @swizzle_vec_not_power_of_two(%arg0: !ttg.memdesc<16x16xf16, #ttg.swizzled_shared<{vec = 3, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #ttg.shared_memory>) {
  tt.return
}

// -----

// perPhase is a power of two.

// expected-error@+1 {{invalid #ttg.swizzled_shared: perPhase is 6, expected a positive power of two}}
tt.func @swizzle_per_phase_not_power_of_two(%arg0: !ttg.memdesc<16x16xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 6, maxPhase = 1, order = [1, 0]}>, #ttg.shared_memory>) {
  tt.return
}

// -----

// maxPhase is a power of two.

// expected-error@+1 {{invalid #ttg.swizzled_shared: maxPhase is 5, expected a positive power of two}}
tt.func @swizzle_max_phase_not_power_of_two(%arg0: !ttg.memdesc<16x16xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 5, order = [1, 0]}>, #ttg.shared_memory>) {
  tt.return
}

// -----

// A shared layout's order is a permutation of the dimensions.

// expected-error@+1 {{invalid #ttg.swizzled_shared: order [1,2] is not a permutation of 0..1}}
tt.func @swizzle_order_not_permutation(%arg0: !ttg.memdesc<16x16xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 2]}>, #ttg.shared_memory>) {
  tt.return
}

// -----

// A shared layout has at least one dimension.

// expected-error@+1 {{invalid #ttg.swizzled_shared: order must have rank at least 1}}
tt.func @swizzle_empty_order(%arg0: !ttg.memdesc<16x16xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = []}>, #ttg.shared_memory>) {
  tt.return
}

// -----

// Dimensions of a tensor with a distributed layout are powers of two.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error@+1 {{tensor dimensions must be powers of two to carry a distributed layout, got 24}}
tt.func @tensor_dim_not_power_of_two(%arg0: tensor<16x24xf32, #blocked>) {
  tt.return
}

// -----

// The power-of-two rule holds for op results as for arguments.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @constant_dim_not_power_of_two() {
  // expected-error@+1 {{tensor dimensions must be powers of two to carry a distributed layout, got 12}}
  %0 = arith.constant dense<0.000000e+00> : tensor<16x12xf32, #blocked>
  tt.return
}

// -----

// Dynamic dimensions cannot carry a distributed layout.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error@+1 {{a tensor with a distributed layout must have a static shape}}
tt.func @tensor_dynamic_dim(%arg0: tensor<16x?xf32, #blocked>) {
  tt.return
}

// -----

// A blocked layout's rank is the tensor's.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error@+1 {{layout #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}> is for rank 2 tensors, not rank 1}}
tt.func @blocked_rank_differs(%arg0: tensor<16xf32, #blocked>) {
  tt.return
}

// -----

// A slice has its parent's rank minus one.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error@+1 {{layout #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}> is for rank 1 tensors, not rank 2}}
tt.func @slice_rank_differs(%arg0: tensor<16x16xf32, #ttg.slice<{dim = 0, parent = #blocked}>>) {
  tt.return
}

// -----

// mma layouts are for rank-2 tensors.

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error@+1 {{layout #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}> is for rank 2 tensors, not rank 3}}
tt.func @mma_rank_differs(%arg0: tensor<2x16x16xf32, #mma>) {
  tt.return
}

// -----

// Dot operands follow the power-of-two rule too.

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error@+1 {{tensor dimensions must be powers of two to carry a distributed layout, got 48}}
tt.func @dot_op_dim_not_power_of_two(%arg0: tensor<16x48xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>) {
  tt.return
}

// -----

// A layout spans exactly the module's warps (checked on block arguments).

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // expected-error@+1 {{'tt.func' op layout #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}> spans 2 warps, but the module has ttg.num-warps = 4}}
  tt.func @too_few_warps(%arg0: tensor<16x16xf32, #blocked>) {
    tt.return
  }
}

// -----

// A layout spans exactly the module's warps (checked on op results).

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @too_many_warps() {
    // expected-error@+1 {{'arith.constant' op layout #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}> spans 8 warps, but the module has ttg.num-warps = 4}}
    %0 = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>>
    tt.return
  }
}

// -----

// A slice spans its parent's warps.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 2 : i32} {
  // expected-error@+1 {{'tt.func' op layout #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}> spans 4 warps, but the module has ttg.num-warps = 2}}
  tt.func @slice_warps(%arg0: tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) {
    tt.return
  }
}

// -----

// The lanes of a layout are exactly the module's threads per warp.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // expected-error@+1 {{'tt.func' op layout #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}> uses 16 threads per warp, but the module has ttg.threads-per-warp = 32}}
  tt.func @too_few_lanes(%arg0: tensor<16x16xf32, #blocked>) {
    tt.return
  }
}

// -----

// mma layouts assume 32-lane warps.

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32} {
  // expected-error@+1 {{'tt.func' op layout #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}> uses 32 threads per warp, but the module has ttg.threads-per-warp = 64}}
  tt.func @mma_on_wave64(%arg0: tensor<32x16xf32, #mma>) {
    tt.return
  }
}

// -----

// The threads-per-warp check does not depend on ttg.num-warps being present.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.threads-per-warp" = 16 : i32} {
  // expected-error@+1 {{'tt.func' op layout #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}> uses 32 threads per warp, but the module has ttg.threads-per-warp = 16}}
  tt.func @lanes_without_num_warps(%arg0: tensor<16x16xf32, #blocked>) {
    tt.return
  }
}

// -----

// A function declaration's signature is checked like a definition's.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // expected-error@+1 {{'tt.func' op layout #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}> spans 2 warps, but the module has ttg.num-warps = 4}}
  tt.func private @declaration(tensor<16x16xf32, #blocked>)
}

// -----

// A nested module is checked against its own ttg.num-warps, not its parent's.

#blocked4 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked8 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @outer(%arg0: tensor<16x16xf32, #blocked4>) {
    tt.return
  }
  module attributes {"ttg.num-warps" = 8 : i32} {
    tt.func @inner(%arg0: tensor<16x16xf32, #blocked8>) {
      tt.return
    }
    // expected-error@+1 {{'tt.func' op layout #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}> spans 4 warps, but the module has ttg.num-warps = 8}}
    tt.func @inner_bad(%arg0: tensor<16x16xf32, #blocked4>) {
      tt.return
    }
  }
}

// -----

// ttg.num-warps is a power of two.

// expected-error@+1 {{'ttg.num-warps' must be a positive power-of-two integer}}
module attributes {"ttg.num-warps" = 3 : i32} {
}

// -----

// ttg.num-warps is positive.

// expected-error@+1 {{'ttg.num-warps' must be a positive power-of-two integer}}
module attributes {"ttg.num-warps" = 0 : i32} {
}

// -----

// ttg.num-warps is an integer.

// expected-error@+1 {{'ttg.num-warps' must be a positive power-of-two integer}}
module attributes {"ttg.num-warps" = "four"} {
}

// -----

// ttg.threads-per-warp is a power of two.

// expected-error@+1 {{'ttg.threads-per-warp' must be a positive power-of-two integer}}
module attributes {"ttg.threads-per-warp" = 48 : i32} {
}

// -----

// ttg.num-ctas is a power of two.

// expected-error@+1 {{'ttg.num-ctas' must be a positive power-of-two integer}}
module attributes {"ttg.num-ctas" = 3 : i32} {
}

// -----

// ttg.target names a CUDA target.

// expected-error@+1 {{'ttg.target' must be a string "cuda:<compute capability>", e.g. "cuda:90"}}
module attributes {"ttg.target" = "hip:90"} {
}

// -----

// ttg.target ends in a number.

// expected-error@+1 {{'ttg.target' must be a string "cuda:<compute capability>", e.g. "cuda:90"}}
module attributes {"ttg.target" = "cuda:sm90"} {
}

// -----

// ttg.target has a compute capability.

// expected-error@+1 {{'ttg.target' must be a string "cuda:<compute capability>", e.g. "cuda:90"}}
module attributes {"ttg.target" = "cuda:"} {
}

// -----

// ttg.target is a string.

// expected-error@+1 {{'ttg.target' must be a string "cuda:<compute capability>", e.g. "cuda:90"}}
module attributes {"ttg.target" = 90 : i32} {
}

// -----

// ttg.maxnreg is a register count a thread can address (PTX .maxnreg).

// expected-error@+1 {{'ttg.maxnreg' must be an integer from 1 to 255}}
module attributes {"ttg.maxnreg" = 256 : i32} {
}

// -----

// ttg.maxnreg is positive.

// expected-error@+1 {{'ttg.maxnreg' must be an integer from 1 to 255}}
module attributes {"ttg.maxnreg" = 0 : i32} {
}

// -----

// ttg.maxnreg is an integer.

// expected-error@+1 {{'ttg.maxnreg' must be an integer from 1 to 255}}
module attributes {"ttg.maxnreg" = "32"} {
}

// -----

// ttg.maxnreg belongs on the module, not on a function.

module {
  // expected-error@+1 {{'ttg.maxnreg' belongs on a builtin.module}}
  tt.func @maxnreg_on_func() attributes {"ttg.maxnreg" = 32 : i32} {
    tt.return
  }
}

// -----

// ttg.num-warps belongs on the module, not on a function.

module {
  // expected-error@+1 {{'ttg.num-warps' belongs on a builtin.module}}
  tt.func @num_warps_on_func() attributes {"ttg.num-warps" = 4 : i32} {
    tt.return
  }
}

// -----

// ttg.target belongs on the module, not on a function.

module {
  // expected-error@+1 {{'ttg.target' belongs on a builtin.module}}
  tt.func @target_on_func() attributes {"ttg.target" = "cuda:90"} {
    tt.return
  }
}

// -----

// A buffer's encoding is a shared layout.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error@+1 {{memdesc encoding must be a shared layout, got #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}}
tt.func @memdesc_distributed_encoding(%arg0: !ttg.memdesc<16x16xf16, #blocked, #ttg.shared_memory>) {
  tt.return
}

// -----

// The shared layout's order has one entry per buffer dimension.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error@+1 {{shared layout order has 2 entries for a rank-1 memdesc}}
tt.func @memdesc_order_rank(%arg0: !ttg.memdesc<16xf16, #shared, #ttg.shared_memory>) {
  tt.return
}

// -----

// A ring of 2-D tiles is read one slot at a time.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 1, 4], order = [2, 1, 0]}>
tt.func @local_load_of_a_whole_ring(%ring: !ttg.memdesc<2x16x32xf16, #shared, #ttg.shared_memory>) {
  // expected-error@+1 {{accesses a ring of 2-D tiles as a whole: index one slot (ttg.memdesc_index) first}}
  %t = ttg.local_load %ring : !ttg.memdesc<2x16x32xf16, #shared, #ttg.shared_memory> -> tensor<2x16x32xf16, #blocked>
  tt.return
}

// -----

// Buffers live in #ttg.shared_memory.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error@+1 {{memdesc memory space must be #ttg.shared_memory}}
tt.func @memdesc_bad_memory_space(%arg0: !ttg.memdesc<16x16xf16, #shared, 3 : i32>) {
  tt.return
}

// -----

// A view is no larger than the allocation it views.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error@+1 {{view dimension 32 exceeds the allocation's 16}}
tt.func @memdesc_view_too_large(%arg0: !ttg.memdesc<16x32xf16, #shared, #ttg.shared_memory, mutable, 16x16>) {
  tt.return
}

// -----

// A view has at most the rank of its allocation.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error@+1 {{allocation shape must have at least the view's rank}}
tt.func @memdesc_alloc_rank_too_small(%arg0: !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory, mutable, 16>) {
  tt.return
}

// -----

// A memdesc names at most one allocation shape.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error@+1 {{expected at most one allocation shape}}
tt.func @memdesc_two_alloc_shapes(%arg0: !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory, 32x16, 64x16>) {
  tt.return
}

// -----

// Buffer elements are integers, floats or pointers.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error@+1 {{memdesc element type must be an integer, float or pointer, got 'tensor<2xf16>'}}
tt.func @memdesc_tensor_element(%arg0: !ttg.memdesc<16x16xtensor<2xf16>, #shared, #ttg.shared_memory>) {
  tt.return
}

// -----

// Buffer dimensions are positive.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error@+1 {{memdesc dimensions must be positive}}
tt.func @memdesc_zero_dim(%arg0: !ttg.memdesc<16x0xf16, #shared, #ttg.shared_memory>) {
  tt.return
}

// -----

// Buffers have rank at least 1.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error@+1 {{memdesc must have rank >= 1}}
tt.func @memdesc_rank_zero(%arg0: !ttg.memdesc<f16, #shared, #ttg.shared_memory>) {
  tt.return
}

// -----

// convert_layout takes a tensor with a layout.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @convert_from_unlaid_out(%arg0: tensor<16x16xf32>) {
  // expected-error@+1 {{'ttg.convert_layout' op both types need a layout encoding}}
  %0 = ttg.convert_layout %arg0 : tensor<16x16xf32> -> tensor<16x16xf32, #blocked>
  tt.return
}

// -----

// convert_layout produces a tensor with a layout.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @convert_to_unlaid_out(%arg0: tensor<16x16xf32, #blocked>) {
  // expected-error@+1 {{'ttg.convert_layout' op both types need a layout encoding}}
  %0 = ttg.convert_layout %arg0 : tensor<16x16xf32, #blocked> -> tensor<16x16xf32>
  tt.return
}

// -----

// convert_layout keeps the shape.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @convert_changes_shape(%arg0: tensor<16x16xf32, #blocked>) {
  // expected-error@+1 {{'ttg.convert_layout' op requires the same shape for all operands and results}}
  %0 = ttg.convert_layout %arg0 : tensor<16x16xf32, #blocked> -> tensor<16x32xf32, #blocked1>
  tt.return
}

// -----

// convert_layout keeps the element type.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @convert_changes_element_type(%arg0: tensor<16x16xf32, #blocked>) {
  // expected-error@+1 {{'ttg.convert_layout' op requires the same element type for all operands and results}}
  %0 = ttg.convert_layout %arg0 : tensor<16x16xf32, #blocked> -> tensor<16x16xf16, #blocked1>
  tt.return
}

// -----

// An uninitialized buffer is mutable: nothing could ever write it otherwise.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @alloc_immutable_without_src() {
  // expected-error@+1 {{'ttg.local_alloc' op an uninitialized buffer must be mutable}}
  %0 = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory>
  tt.return
}

// -----

// An allocation is a whole buffer, not a view of a larger one.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @alloc_of_view_type() {
  // expected-error@+1 {{'ttg.local_alloc' op}}
  %0 = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory, mutable, 2x16x16>
  tt.return
}

// -----

// local_alloc's source has the buffer's shape.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @alloc_shape_mismatch(%arg0: tensor<16x16xf16, #blocked>) {
  // expected-error@+1 {{'ttg.local_alloc' op tensor and shared buffer shapes differ}}
  %0 = ttg.local_alloc %arg0 : (tensor<16x16xf16, #blocked>) -> !ttg.memdesc<16x32xf16, #shared, #ttg.shared_memory>
  tt.return
}

// -----

// local_alloc's source has the buffer's element type.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @alloc_element_mismatch(%arg0: tensor<16x16xf16, #blocked>) {
  // expected-error@+1 {{'ttg.local_alloc' op tensor element type 'f16' differs from the buffer's 'f32'}}
  %0 = ttg.local_alloc %arg0 : (tensor<16x16xf16, #blocked>) -> !ttg.memdesc<16x16xf32, #shared, #ttg.shared_memory>
  tt.return
}

// -----

// local_load produces the buffer's shape.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @load_shape_mismatch(%arg0: !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory>) {
  // expected-error@+1 {{'ttg.local_load' op tensor and shared buffer shapes differ}}
  %0 = ttg.local_load %arg0 : !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory> -> tensor<32x16xf16, #blocked>
  tt.return
}

// -----

// local_load produces the buffer's element type.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @load_element_mismatch(%arg0: !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory>) {
  // expected-error@+1 {{'ttg.local_load' op tensor element type 'bf16' differs from the buffer's 'f16'}}
  %0 = ttg.local_load %arg0 : !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory> -> tensor<16x16xbf16, #blocked>
  tt.return
}

// -----

// local_load's token is an async token.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-note@+1 {{prior use here}}
tt.func @load_token_not_a_token(%arg0: !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory>, %arg1: i32) {
  // expected-error@+1 {{use of value '%arg1' expects different type than prior uses: '!ttg.async.token' vs 'i32'}}
  %0 = ttg.local_load %arg0 token %arg1 : !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory> -> tensor<16x16xf16, #blocked>
  tt.return
}

// -----

// Only mutable buffers are written.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @store_into_immutable(%arg0: tensor<16x16xf16, #blocked>, %arg1: !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory>) {
  // expected-error@+1 {{'ttg.local_store' op cannot store into an immutable buffer}}
  ttg.local_store %arg0, %arg1 : tensor<16x16xf16, #blocked> -> !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory>
  tt.return
}

// -----

// local_store writes a tensor of the buffer's shape.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @store_shape_mismatch(%arg0: tensor<16x16xf16, #blocked>, %arg1: !ttg.memdesc<16x32xf16, #shared, #ttg.shared_memory, mutable>) {
  // expected-error@+1 {{'ttg.local_store' op tensor and shared buffer shapes differ}}
  ttg.local_store %arg0, %arg1 : tensor<16x16xf16, #blocked> -> !ttg.memdesc<16x32xf16, #shared, #ttg.shared_memory, mutable>
  tt.return
}

// -----

// local_store writes a tensor of the buffer's element type.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @store_element_mismatch(%arg0: tensor<16x16xf32, #blocked>, %arg1: !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory, mutable>) {
  // expected-error@+1 {{'ttg.local_store' op tensor element type 'f32' differs from the buffer's 'f16'}}
  ttg.local_store %arg0, %arg1 : tensor<16x16xf32, #blocked> -> !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory, mutable>
  tt.return
}

// -----

// memdesc_index needs a leading dimension to index and one to keep.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
tt.func @index_rank_one(%arg0: !ttg.memdesc<16xf16, #shared, #ttg.shared_memory, mutable>, %arg1: i32) {
  // expected-error@+1 {{'ttg.memdesc_index' op needs a source of rank >= 2 to index its leading dimension}}
  %0 = ttg.memdesc_index %arg0[%arg1] : !ttg.memdesc<16xf16, #shared, #ttg.shared_memory, mutable> -> !ttg.memdesc<16xf16, #shared, #ttg.shared_memory, mutable>
  tt.return
}

// -----

// memdesc_index drops exactly the leading dimension.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
tt.func @index_wrong_shape(%arg0: !ttg.memdesc<2x16x16xf16, #shared3, #ttg.shared_memory, mutable>, %arg1: i32) {
  // expected-error@+1 {{'ttg.memdesc_index' op result shape must be the source shape without its leading dimension}}
  %0 = ttg.memdesc_index %arg0[%arg1] : !ttg.memdesc<2x16x16xf16, #shared3, #ttg.shared_memory, mutable> -> !ttg.memdesc<16x8xf16, #shared, #ttg.shared_memory, mutable, 2x16x16>
  tt.return
}

// -----

// A view cannot drop the mutability of its buffer.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
tt.func @index_drops_mutability(%arg0: !ttg.memdesc<2x16x16xf16, #shared3, #ttg.shared_memory, mutable>, %arg1: i32) {
  // expected-error@+1 {{'ttg.memdesc_index' op a view must keep the element type, memory space and mutability of its source}}
  %0 = ttg.memdesc_index %arg0[%arg1] : !ttg.memdesc<2x16x16xf16, #shared3, #ttg.shared_memory, mutable> -> !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory, 2x16x16>
  tt.return
}

// -----

// A view cannot make an immutable buffer mutable.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
tt.func @index_adds_mutability(%arg0: !ttg.memdesc<2x16x16xf16, #shared3, #ttg.shared_memory>, %arg1: i32) {
  // expected-error@+1 {{'ttg.memdesc_index' op a view must keep the element type, memory space and mutability of its source}}
  %0 = ttg.memdesc_index %arg0[%arg1] : !ttg.memdesc<2x16x16xf16, #shared3, #ttg.shared_memory> -> !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory, mutable, 2x16x16>
  tt.return
}

// -----

// A view keeps the element type of its buffer.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
tt.func @index_changes_element_type(%arg0: !ttg.memdesc<2x16x16xf16, #shared3, #ttg.shared_memory, mutable>, %arg1: i32) {
  // expected-error@+1 {{'ttg.memdesc_index' op a view must keep the element type, memory space and mutability of its source}}
  %0 = ttg.memdesc_index %arg0[%arg1] : !ttg.memdesc<2x16x16xf16, #shared3, #ttg.shared_memory, mutable> -> !ttg.memdesc<16x16xf32, #shared, #ttg.shared_memory, mutable, 2x16x16>
  tt.return
}

// -----

// A view records the allocation shape of the buffer it views.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
tt.func @index_loses_alloc_shape(%arg0: !ttg.memdesc<2x16x16xf16, #shared3, #ttg.shared_memory, mutable>, %arg1: i32) {
  // expected-error@+1 {{'ttg.memdesc_index' op a view must keep its source's allocation shape}}
  %0 = ttg.memdesc_index %arg0[%arg1] : !ttg.memdesc<2x16x16xf16, #shared3, #ttg.shared_memory, mutable> -> !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory, mutable>
  tt.return
}

// -----

// A sub-tile fits inside its source.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @subslice_out_of_bounds(%arg0: !ttg.memdesc<16x32xf16, #shared, #ttg.shared_memory, mutable>) {
  // expected-error@+1 {{'ttg.memdesc_subslice' op sub-tile [24, 40) of dimension 1 does not fit in the source's 32}}
  %0 = ttg.memdesc_subslice %arg0 [0, 24] : !ttg.memdesc<16x32xf16, #shared, #ttg.shared_memory, mutable> -> !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory, mutable, 16x32>
  tt.return
}

// -----

// Sub-tile offsets are non-negative.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @subslice_negative_offset(%arg0: !ttg.memdesc<16x32xf16, #shared, #ttg.shared_memory, mutable>) {
  // expected-error@+1 {{'ttg.memdesc_subslice' op sub-tile [-1, 7) of dimension 0 does not fit in the source's 16}}
  %0 = ttg.memdesc_subslice %arg0 [-1, 0] : !ttg.memdesc<16x32xf16, #shared, #ttg.shared_memory, mutable> -> !ttg.memdesc<8x16xf16, #shared, #ttg.shared_memory, mutable, 16x32>
  tt.return
}

// -----

// memdesc_subslice has one offset per dimension.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @subslice_offset_count(%arg0: !ttg.memdesc<16x32xf16, #shared, #ttg.shared_memory, mutable>) {
  // expected-error@+1 {{'ttg.memdesc_subslice' op needs one offset per dimension and a result of the source's rank}}
  %0 = ttg.memdesc_subslice %arg0 [0] : !ttg.memdesc<16x32xf16, #shared, #ttg.shared_memory, mutable> -> !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory, mutable, 16x32>
  tt.return
}

// -----

// A sub-tile view keeps the mutability of its source.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @subslice_drops_mutability(%arg0: !ttg.memdesc<16x32xf16, #shared, #ttg.shared_memory, mutable>) {
  // expected-error@+1 {{'ttg.memdesc_subslice' op a view must keep the element type, memory space and mutability of its source}}
  %0 = ttg.memdesc_subslice %arg0 [0, 16] : !ttg.memdesc<16x32xf16, #shared, #ttg.shared_memory, mutable> -> !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory, 16x32>
  tt.return
}

// -----

// A sub-tile view records the allocation shape of its source.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @subslice_loses_alloc_shape(%arg0: !ttg.memdesc<16x32xf16, #shared, #ttg.shared_memory, mutable>) {
  // expected-error@+1 {{'ttg.memdesc_subslice' op a view must keep its source's allocation shape}}
  %0 = ttg.memdesc_subslice %arg0 [0, 16] : !ttg.memdesc<16x32xf16, #shared, #ttg.shared_memory, mutable> -> !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory, mutable>
  tt.return
}

// -----

// Async copies write mutable buffers only.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @copy_into_immutable(%arg0: tensor<16x16x!tt.ptr<f16>, #blocked>, %arg1: !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory>) {
  // expected-error@+1 {{'ttg.async_copy_global_to_local' op cannot copy into an immutable buffer}}
  %0 = ttg.async_copy_global_to_local %arg0, %arg1 : tensor<16x16x!tt.ptr<f16>, #blocked> -> !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory>
  tt.return
}

// -----

// The pointer tensor has the buffer's shape.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @copy_shape_mismatch(%arg0: tensor<16x16x!tt.ptr<f16>, #blocked>, %arg1: !ttg.memdesc<16x32xf16, #shared, #ttg.shared_memory, mutable>) {
  // expected-error@+1 {{'ttg.async_copy_global_to_local' op pointer tensor and buffer shapes differ}}
  %0 = ttg.async_copy_global_to_local %arg0, %arg1 : tensor<16x16x!tt.ptr<f16>, #blocked> -> !ttg.memdesc<16x32xf16, #shared, #ttg.shared_memory, mutable>
  tt.return
}

// -----

// The pointers point to the buffer's element type.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @copy_element_mismatch(%arg0: tensor<16x16x!tt.ptr<f16>, #blocked>, %arg1: !ttg.memdesc<16x16xf32, #shared, #ttg.shared_memory, mutable>) {
  // expected-error@+1 {{'ttg.async_copy_global_to_local' op pointers must point to the buffer's element type}}
  %0 = ttg.async_copy_global_to_local %arg0, %arg1 : tensor<16x16x!tt.ptr<f16>, #blocked> -> !ttg.memdesc<16x16xf32, #shared, #ttg.shared_memory, mutable>
  tt.return
}

// -----

// 'other' replaces masked-off elements, so it needs a mask.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @copy_other_without_mask(%arg0: tensor<16x16x!tt.ptr<f16>, #blocked>, %arg1: !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory, mutable>, %arg2: tensor<16x16xf16, #blocked>) {
  // expected-error@+1 {{'ttg.async_copy_global_to_local' op 'other' needs a mask}}
  %0 = ttg.async_copy_global_to_local %arg0, %arg1 other %arg2 : tensor<16x16x!tt.ptr<f16>, #blocked> -> !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory, mutable>
  tt.return
}

// -----

// The mask is i1 of the pointer tensor's type (its layout included).

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-note@+1 {{prior use here}}
tt.func @copy_mask_without_layout(%arg0: tensor<16x16x!tt.ptr<f16>, #blocked>, %arg1: !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory, mutable>, %arg2: tensor<16x16xi1>) {
  // expected-error@+1 {{use of value '%arg2' expects different type than prior uses: 'tensor<16x16xi1, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>' vs 'tensor<16x16xi1>'}}
  %0 = ttg.async_copy_global_to_local %arg0, %arg1 mask %arg2 : tensor<16x16x!tt.ptr<f16>, #blocked> -> !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory, mutable>
  tt.return
}

// -----

// async_wait counts commit groups: the count is non-negative.

tt.func @wait_negative() {
  // expected-error@+1 {{'ttg.async_wait' op attribute 'num' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
  %0 = ttg.async_wait {num = -1 : i32}
  tt.return
}

// -----

// async_wait needs its count.

tt.func @wait_without_num() {
  // expected-error@+1 {{'ttg.async_wait' op requires attribute 'num'}}
  %0 = ttg.async_wait
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 64, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @memdesc_trans_same_order(%t: !ttg.memdesc<64x32xf16, #nvmma, #smem>) {
  // expected-error @+1 {{the result's layout must be the source's with its order swapped}}
  %v = ttg.memdesc_trans %t : !ttg.memdesc<64x32xf16, #nvmma, #smem> -> !ttg.memdesc<32x64xf16, #nvmma, #smem>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 64, elementBitWidth = 16, order = [1, 0]}>
#nvmmaT = #ttg.nvmma_shared<{swizzlingByteWidth = 64, elementBitWidth = 16, order = [0, 1]}>
#smem = #ttg.shared_memory
tt.func @memdesc_trans_shape(%t: !ttg.memdesc<64x32xf16, #nvmma, #smem>) {
  // expected-error @+1 {{the result's shape must be the source's transposed}}
  %v = ttg.memdesc_trans %t : !ttg.memdesc<64x32xf16, #nvmma, #smem> -> !ttg.memdesc<64x32xf16, #nvmmaT, #smem>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 64, elementBitWidth = 16, order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @tma_copy_tile(%d: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>,
                       %buf: !ttg.memdesc<64x32xf16, #nvmma, #smem, mutable>, %p: i1) {
  // expected-error @+1 {{copies blocks of 'tensor<64x64xf16>' but the shared tile is}}
  ttg.async_tma_copy_global_to_local %d[%i, %i] %buf, %bar, %p : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #nvmma, #smem, mutable>
  tt.return
}

// -----

// ttg.warp_specialize ends its block's work: the partition's warps leave the
// kernel after their region, so only the return may follow it.
tt.func @warp_specialize_not_last(%x: i32) -> i32 {
  // expected-error@+1 {{'ttg.warp_specialize' op must be the last op of its block before the return}}
  ttg.warp_specialize default {
    ttg.warp_yield
  } partition num_warps(1) {
    ttg.warp_yield
  }
  %y = arith.addi %x, %x : i32
  tt.return %y : i32
}

// -----

// The lowering branches on the launch's warps: the module must count the
// partition's.
module attributes {"ttg.num-warps" = 4 : i32, "ttg.total-num-warps" = 4 : i32} {
  tt.func @warp_specialize_uncounted() {
    // expected-error@+1 {{'ttg.warp_specialize' op needs the module's ttg.total-num-warps to be num-warps + 1, got 4}}
    ttg.warp_specialize default {
      ttg.warp_yield
    } partition num_warps(1) {
      ttg.warp_yield
    }
    tt.return
  }
}

// -----

// A window of a tensor whose warps split N: the window's warp 1 would hold
// other columns than the source's, so data would have to move.
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 128, 16]}>
#slab = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 32, 16]}>
module attributes {"ttg.num-warps" = 8 : i32} {
  tt.func @extract_tile_across_warps(%x: tensor<64x256xf16, #mma>) {
    // expected-error@+1 {{takes no window of registers: the window's layout puts elements in other threads than the source's}}
    %w = ttg.extract_tile %x [0, 64] : tensor<64x256xf16, #mma> -> tensor<64x64xf16, #slab>
    tt.return
  }
}

// -----

// The window's offsets are multiples of its size.
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 256, 16]}>
#slab = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @extract_tile_unaligned(%x: tensor<64x256xf16, #mma>) {
    // expected-error@+1 {{takes no window of registers: the window [64,64] at [0,32] is not an aligned tile of the source [64,256]}}
    %w = ttg.extract_tile %x [0, 32] : tensor<64x256xf16, #mma> -> tensor<64x64xf16, #slab>
    tt.return
  }
}

// -----

// A TMA store of part of a block writes whole boxes: a 128x256 f16 block
// moves as 128x64 boxes, so a 64x64 tile splits a box's rows.
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @tma_store_part_of_a_box(%d: !tt.tensordesc<tensor<128x256xf16>>, %i: i32) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    // expected-error@+1 {{copies blocks of 'tensor<128x256xf16>' but the shared tile is '!ttg.memdesc<64x64xf16}}
    ttg.async_tma_copy_local_to_global %d[%i, %i] %buf : !tt.tensordesc<tensor<128x256xf16>>, !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    tt.return
  }
}

// -----

// Only a transposed NVMMA tile may view its allocation's last two
// dimensions swapped.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
// expected-error@+1 {{view dimension 64 exceeds the allocation's 32}}
tt.func @swapped_view_of_a_plain_tile(%m: !ttg.memdesc<32x64xf16, #shared, #smem, mutable, 2x64x32>) {
  tt.return
}

// -----

// Triton's CTA-group fields are read, but only for one CTA per group.

// expected-error@+1 {{#ttg.blocked field 'CTASplitNum' must be all ones: Tritium runs one CTA per CTA group (num_ctas = 1)}}
#split = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CTAsPerCGA = [1], CTASplitNum = [2], CTAOrder = [0]}>

tt.func @split_over_ctas(%arg0: tensor<256xf32, #split>) {
  tt.return
}

// -----

// #ttg.nvmma_shared takes Triton's `transposed` or Tritium's `order`.

// expected-error@+1 {{#ttg.nvmma_shared field 'transposed' cannot be given with 'order'}}
#both = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0], transposed = false}>

tt.func @order_and_transposed(%arg0: !ttg.memdesc<64x64xf16, #both, #ttg.shared_memory>) {
  tt.return
}

// -----

// expected-error@+1 {{#ttg.nvmma_shared field 'transposed' must be true or false}}
#notbool = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, transposed = 1}>

tt.func @transposed_not_a_bool(%arg0: !ttg.memdesc<64x64xf16, #notbool, #ttg.shared_memory>) {
  tt.return
}

// -----

// expected-error@+1 {{#ttg.linear field 'block' must be empty: Tritium runs one CTA per CTA group (num_ctas = 1)}}
#linear_blocks = #ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [], block = [[0, 2]]}>

tt.func @linear_over_ctas(%arg0: tensor<32x4xf32, #linear_blocks>) {
  tt.return
}

// -----

// expected-error@+1 {{#ttg.linear field 'lane' has a basis of 3 coordinates where the layout has rank 2}}
#linear_ranks = #ttg.linear<{register = [[0, 1]], lane = [[1, 0, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [], block = []}>

tt.func @linear_mixed_ranks(%arg0: tensor<32x4xf32, #linear_ranks>) {
  tt.return
}

// -----

// A 2-D #ttg.nvmma_shared allocation holds whole swizzle rows: 16x2 f16
// with a 64-byte swizzle would place elements past the buffer.

#narrow = #ttg.nvmma_shared<{swizzlingByteWidth = 64, elementBitWidth = 16, order = [1, 0]}>
// expected-error@+1 {{invalid #ttg.nvmma_shared tile 16x2: the contiguous dimension (2) must be a multiple of the 32-element swizzle row}}
tt.func @nvmma_tile_narrower_than_its_swizzle(%t: !ttg.memdesc<16x2xf16, #narrow, #ttg.shared_memory>) {
  tt.return
}
