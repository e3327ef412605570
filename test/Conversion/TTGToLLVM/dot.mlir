// RUN: tritium-opt %s -split-input-file -ttg-allocate-shared-memory -ttg-fence-async-shared -convert-ttg-to-llvm -canonicalize -cse | FileCheck %s

// A warpgroup dot from two swizzled shared tiles: the operands are stored
// with 16-byte vectors, then fenced for the async proxy; the dot fences
// the accumulator, issues one wgmma per 16 of K with shared-memory
// descriptors (A K-major, B N-major: transpose flag 1), commits and waits.
// A CTA of one warpgroup has no warpgroup offsets (no warp index is read);
// each descriptor is the tile's address field plus one constant (flat), the
// LBO/SBO/swizzle bits and the K slab's offset together: 2 more a slab for
// A (32 bytes along a 128-byte row), 128 more for B (16 rows of 128
// bytes), all as PTX add.s64 (not or-ed constants) from the same field,
// never from another descriptor.
// CHECK-LABEL: llvm.func @wgmma_fp16
// CHECK-NOT: nvvm.shfl.sync
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK: fence.proxy.async.shared::cta
// CHECK: %[[FA:.*]] = llvm.zext %{{.*}} : i32 to i64
// CHECK: %[[FB:.*]] = llvm.zext %{{.*}} : i32 to i64
// CHECK: wgmma.fence.sync.aligned
// CHECK-DAG: %[[DA:.*]] = llvm.inline_asm asm_dialect = att "add.s64 $0, $1, 4611686293305360384;", "=l,l" %[[FA]]
// CHECK-DAG: %[[DB:.*]] = llvm.inline_asm asm_dialect = att "add.s64 $0, $1, 4611686293338849280;", "=l,l" %[[FB]]
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}} p, 1, 1, 0, 1;
// CHECK-SAME: %[[DA]], %[[DB]],
// CHECK: "add.s64 $0, $1, 4611686293338849408;", "=l,l" %[[FB]]
// CHECK-NEXT: "add.s64 $0, $1, 4611686293305360386;", "=l,l" %[[FA]]
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK-NOT: wgmma.mma_async
// CHECK: wgmma.commit_group.sync.aligned
// CHECK: wgmma.wait_group.sync.aligned 0;
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @wgmma_fp16(%a: tensor<64x64xf16, #ld>, %b: tensor<64x64xf16, #ld>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %as = ttg.local_alloc %a : (tensor<64x64xf16, #ld>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
    %bs = ttg.local_alloc %b : (tensor<64x64xf16, #ld>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
    %d = ttg.warp_group_dot %as, %bs, %c : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// Two warpgroups split M: the warp index that places each comes from lane
// 0 by a shfl at the function's entry (warp-uniform for ptxas); the rows'
// warpgroup is (w % 8) / 4.  Each operand's base descriptor (its moved
// address field plus the fixed bits) is made once, and each later K slab's
// descriptor is an add to it (chained): 128 more a slab for B, 2 for A;
// every add pinned (has_side_effects) at the dot.
// CHECK-LABEL: llvm.func @wgmma_two_warpgroups
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK-NEXT: %[[WARP:.*]] = llvm.lshr %[[TID]], %{{.*}} : i32
// CHECK-NEXT: %[[UNIFORM:.*]] = nvvm.shfl.sync  idx %{{.*}}, %[[WARP]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK: llvm.urem %[[UNIFORM]], %{{.*}} : i32
// CHECK: %[[BA:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "add.s64 $0, $1, 4611686293305360384;"
// CHECK: %[[BB:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "add.s64 $0, $1, 4611686293338849280;"
// CHECK: wgmma.fence.sync.aligned
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}} %[[BA]], %[[BB]],
// CHECK: "add.s64 $0, $1, 128;", "=l,l" %[[BB]]
// CHECK-NEXT: "add.s64 $0, $1, 2;", "=l,l" %[[BA]]
// CHECK-COUNT-3: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK-NOT: wgmma.mma_async
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @wgmma_two_warpgroups(%a: tensor<128x64xf16, #ld>, %b: tensor<64x64xf16, #ld>, %c: tensor<128x64xf32, #mma>) -> tensor<128x64xf32, #mma> {
    %as = ttg.local_alloc %a : (tensor<128x64xf16, #ld>) -> !ttg.memdesc<128x64xf16, #nvmma, #smem>
    %bs = ttg.local_alloc %b : (tensor<64x64xf16, #ld>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
    %d = ttg.warp_group_dot %as, %bs, %c : !ttg.memdesc<128x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<128x64xf32, #mma>
    tt.return %d : tensor<128x64xf32, #mma>
  }
}

// -----

// A dot of two warpgroups in a loop, reading tiles defined above it: the
// warp index is read by a shfl at the dot, in the loop body, not at the
// function's entry, so that the loop-invariant descriptors are rebuilt in
// the loop rather than hoisted out of it.
// CHECK-LABEL: llvm.func @wgmma_invariant_tiles_in_loop
// CHECK-NOT: nvvm.shfl.sync
// CHECK: scf.for
// CHECK: nvvm.shfl.sync  idx
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK: scf.yield
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @wgmma_invariant_tiles_in_loop(%a: tensor<128x64xf16, #ld>, %b: tensor<64x64xf16, #ld>, %c: tensor<128x64xf32, #mma>, %n: i32) -> tensor<128x64xf32, #mma> {
    %as = ttg.local_alloc %a : (tensor<128x64xf16, #ld>) -> !ttg.memdesc<128x64xf16, #nvmma, #smem>
    %bs = ttg.local_alloc %b : (tensor<64x64xf16, #ld>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<128x64xf32, #mma>) : i32 {
      %d = ttg.warp_group_dot %as, %bs, %acc : !ttg.memdesc<128x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<128x64xf32, #mma>
      scf.yield %d : tensor<128x64xf32, #mma>
    }
    tt.return %r : tensor<128x64xf32, #mma>
  }
}

// -----

// A warpgroup dot with A in registers (#ttg.dot_op of the accumulator):
// each wgmma takes four 32-bit registers of A in place of its descriptor,
// and no imm-trans-a (B N-major: 1).
// CHECK-LABEL: llvm.func @wgmma_register_a
// CHECK: wgmma.fence.sync.aligned
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}}, {{[{][$][0-9]+, [$][0-9]+, [$][0-9]+, [$][0-9]+[}], [$][0-9]+}}, p, 1, 1, 1;
// CHECK-NOT: wgmma.mma_async
// CHECK: wgmma.wait_group.sync.aligned 0;
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @wgmma_register_a(%a: tensor<64x64xf16, #da>, %b: tensor<64x64xf16, #ld>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %bs = ttg.local_alloc %b : (tensor<64x64xf16, #ld>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
    %d = ttg.warp_group_dot %a, %bs, %c : tensor<64x64xf16, #da> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// A zero accumulator is not materialized: the registers start undefined
// (no zeros moved into them) and the first wgmma's scale-d operand is 0,
// the later ones' 1.  The fence takes and returns the accumulator (32 f32)
// and nothing else here.
// CHECK-LABEL: llvm.func @wgmma_zero_accumulator
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG: %[[UNDEF:.*]] = llvm.mlir.undef : f32
// CHECK-NOT: llvm.mlir.constant(0.000000e+00 : f32)
// CHECK: "wgmma.fence.sync.aligned;"{{.*}} %[[UNDEF]], %[[UNDEF]]
// CHECK: wgmma.mma_async{{.*}}, %[[ZERO]] :
// CHECK: wgmma.mma_async{{.*}}, %[[ONE]] :
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @wgmma_zero_accumulator(%as: !ttg.memdesc<64x64xf16, #nvmma, #smem>, %bs: !ttg.memdesc<64x64xf16, #nvmma, #smem>) -> tensor<64x64xf32, #mma> {
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %d = ttg.warp_group_dot %as, %bs, %zero : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// A K slice of an A tile (ttg-prefetch's sub-tiles): one ldmatrix.x4 for
// the 16 x 16 slice at K offset 16, the sub-tile view itself no code.
// CHECK-LABEL: llvm.func @ldmatrix_k_slice
// CHECK-COUNT-1: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-NOT: ldmatrix
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 64, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:80"} {
  tt.func @ldmatrix_k_slice(%a: tensor<16x32xf16, #ld>) -> tensor<16x16xf16, #da> {
    %as = ttg.local_alloc %a : (tensor<16x32xf16, #ld>) -> !ttg.memdesc<16x32xf16, #nvmma, #smem>
    %s = ttg.memdesc_subslice %as [0, 16] : !ttg.memdesc<16x32xf16, #nvmma, #smem> -> !ttg.memdesc<16x16xf16, #nvmma, #smem, 16x32>
    %ar = ttg.local_load %s : !ttg.memdesc<16x16xf16, #nvmma, #smem, 16x32> -> tensor<16x16xf16, #da>
    tt.return %ar : tensor<16x16xf16, #da>
  }
}

// -----

// A K slice of a CUDA-core dot's A tile (ttg-slice-cuda-core-dots): row r
// of the swizzled tile (16 floats, chunks of 4 permuted by r % 4) holds
// the slice's 4 values at columns 8-11 in chunk 2 ^ (r % 4), so a lane
// (row lane / 4) reads one vector at r * 16 + 4 * (r % 4) ^ 8: its row
// bits weigh 20, 40 and 64, and the origin XORs 8.
// CHECK-LABEL: llvm.func @fma_k_slice
// CHECK-DAG: %[[C8:.*]] = llvm.mlir.constant(8 : i32)
// CHECK-DAG: llvm.mlir.constant(20 : i32)
// CHECK-DAG: llvm.mlir.constant(40 : i32)
// CHECK-DAG: llvm.mlir.constant(64 : i32)
// CHECK: llvm.store {{.*}} : vector<4xf32>, !llvm.ptr<3>
// CHECK: %[[X:.*]] = llvm.xor %{{.*}}, %[[C8]] : i32
// CHECK-NEXT: %[[P:.*]] = llvm.getelementptr %{{.*}}[%[[X]]]
// CHECK-NEXT: llvm.load %[[P]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: llvm.load
#ld = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#sw = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @fma_k_slice(%a: tensor<8x16xf32, #ld>) -> tensor<8x4xf32, #da> {
    %as = ttg.local_alloc %a : (tensor<8x16xf32, #ld>) -> !ttg.memdesc<8x16xf32, #sw, #smem>
    %s = ttg.memdesc_subslice %as [0, 8] : !ttg.memdesc<8x16xf32, #sw, #smem> -> !ttg.memdesc<8x4xf32, #sw, #smem, 8x16>
    %ar = ttg.local_load %s : !ttg.memdesc<8x4xf32, #sw, #smem, 8x16> -> tensor<8x4xf32, #da>
    tt.return %ar : tensor<8x4xf32, #da>
  }
}

// -----

// A K slice of a CUDA-core dot's B tile, as a 4x4 accumulator per thread
// gives it: a thread's registers run along K first, so the 4 N values at
// consecutive addresses are registers r, r+4, r+8, r+12.  One 16-byte load
// per K row, its elements placed in those registers, not 16 scalar loads.
// CHECK-LABEL: llvm.func @fma_b_k_slice
// CHECK: %[[L0:.*]] = llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NEXT: %[[K0:.*]] = llvm.extractelement %[[L0]]
// CHECK: %[[L1:.*]] = llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NEXT: %[[K1:.*]] = llvm.extractelement %[[L1]]
// CHECK-COUNT-2: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: llvm.load
// CHECK: %[[R0:.*]] = llvm.insertvalue %[[K0]], %{{.*}}[0]
// CHECK-NEXT: llvm.insertvalue %[[K1]], %[[R0]][1]
#ld = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
#db = #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @fma_b_k_slice(%b: tensor<8x64xf32, #ld>) -> tensor<4x64xf32, #db> {
    %bs = ttg.local_alloc %b : (tensor<8x64xf32, #ld>) -> !ttg.memdesc<8x64xf32, #sh, #smem>
    %s = ttg.memdesc_subslice %bs [4, 0] : !ttg.memdesc<8x64xf32, #sh, #smem> -> !ttg.memdesc<4x64xf32, #sh, #smem, 8x64>
    %br = ttg.local_load %s : !ttg.memdesc<4x64xf32, #sh, #smem, 8x64> -> tensor<4x64xf32, #db>
    tt.return %br : tensor<4x64xf32, #db>
  }
}

// -----

// An mma v2 dot: per 16x8 accumulator tile and 16 of K, one mma.sync on
// four A registers, two B registers and four accumulators.
// CHECK-LABEL: llvm.func @mma_sync_fp16
// CHECK-COUNT-2: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: mma.sync
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#db = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:80"} {
  tt.func @mma_sync_fp16(%a: tensor<16x32xf16, #da>, %b: tensor<32x8xf16, #db>, %c: tensor<16x8xf32, #mma>) -> tensor<16x8xf32, #mma> {
    %d = tt.dot %a, %b, %c : tensor<16x32xf16, #da> * tensor<32x8xf16, #db> -> tensor<16x8xf32, #mma>
    tt.return %d : tensor<16x8xf32, #mma>
  }
}

// -----

// A CUDA-core dot: one fused multiply-add per product, K of them per
// accumulator element (2 x 4 here, one element per thread).
// CHECK-LABEL: llvm.func @fma_dot
// CHECK-COUNT-4: llvm.intr.fma
// CHECK-NOT: llvm.intr.fma
#acc = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#db = #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @fma_dot(%a: tensor<4x4xf32, #da>, %b: tensor<4x8xf32, #db>, %c: tensor<4x8xf32, #acc>) -> tensor<4x8xf32, #acc> {
    %d = tt.dot %a, %b, %c : tensor<4x4xf32, #da> * tensor<4x8xf32, #db> -> tensor<4x8xf32, #acc>
    tt.return %d : tensor<4x8xf32, #acc>
  }
}

// -----

// A CUDA-core dot steps through k in the outer loop: both accumulator
// elements of a thread take their k = 0 product before either takes its
// k = 1 product, so one step's operands are dead before the next step's.
// CHECK-LABEL: llvm.func @fma_dot_k_outer
// CHECK: %[[D0:.*]] = llvm.intr.fma(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
// CHECK-NEXT: %[[D1:.*]] = llvm.intr.fma(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
// CHECK-NEXT: llvm.intr.fma(%{{.*}}, %{{.*}}, %[[D0]])
// CHECK-NEXT: llvm.intr.fma(%{{.*}}, %{{.*}}, %[[D1]])
// CHECK-NOT: llvm.intr.fma
#acc = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#db = #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @fma_dot_k_outer(%a: tensor<4x2xf32, #da>, %b: tensor<2x16xf32, #db>, %c: tensor<4x16xf32, #acc>) -> tensor<4x16xf32, #acc> {
    %d = tt.dot %a, %b, %c : tensor<4x2xf32, #da> * tensor<2x16xf32, #db> -> tensor<4x16xf32, #acc>
    tt.return %d : tensor<4x16xf32, #acc>
  }
}

// -----

// Async copies of 8 consecutive fp16 per thread: one 16-byte cp.async.cg
// each, zero-filled where the mask is off; commit, then wait.
// CHECK-LABEL: llvm.func @async_copy
// CHECK: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i32
// CHECK: cp.async.cg.shared.global [$0], [$1], 16, $2;
// CHECK: cp.async.commit_group
// CHECK: cp.async.wait_group 0;
// CHECK-NOT: fence.proxy.async
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #ttg.slice<{dim = 0, parent = #blocked}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @async_copy(%base: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %go: i1) {
    %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #slice>
    %re = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
    %rb = tt.broadcast %re : tensor<1x64xi32, #blocked> -> tensor<16x64xi32, #blocked>
    %bs = tt.splat %base : !tt.ptr<f16> -> tensor<16x64x!tt.ptr<f16>, #blocked>
    %p = tt.addptr %bs, %rb : tensor<16x64x!tt.ptr<f16>, #blocked>, tensor<16x64xi32, #blocked>
    %m = tt.splat %go : i1 -> tensor<16x64xi1, #blocked>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<16x64xf16, #nvmma, #smem, mutable>
    %t = ttg.async_copy_global_to_local %p, %buf mask %m : tensor<16x64x!tt.ptr<f16>, #blocked> -> !ttg.memdesc<16x64xf16, #nvmma, #smem, mutable>
    %g = ttg.async_commit_group
    %w = ttg.async_wait {num = 0 : i32}
    tt.return
  }
}

// -----

// A small tile held by two warps each (64 elements, 128 threads) copied
// into a plain shared slot: one of the two threads holding each element
// copies it (the other would write the same word again), 4 bytes a copy.
// CHECK-LABEL: llvm.func @async_copy_of_a_replicated_tile
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: llvm.icmp "eq"
// CHECK: @$3 cp.async.ca.shared.global [$0], [$1], 4, $2;
// CHECK-NOT: cp.async.ca
// CHECK: llvm.return
#row = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @async_copy_of_a_replicated_tile(%base: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #row>
    %bs = tt.splat %base : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #row>
    %p = tt.addptr %bs, %r : tensor<64x!tt.ptr<f32>, #row>, tensor<64xi32, #row>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64xf32, #plain, #smem, mutable>
    %t = ttg.async_copy_global_to_local %p, %buf : tensor<64x!tt.ptr<f32>, #row> -> !ttg.memdesc<64xf32, #plain, #smem, mutable>
    %g = ttg.async_commit_group
    tt.return
  }
}

// -----

// tf32 operands of mma.sync (m16n8k8, kWidth 1): A stored contiguous along
// K reads with one ldmatrix.x4 of b16 pairs per 16x8 tile; B stored
// contiguous along N is read element by element (ldmatrix.trans would swap
// the halves of each element).
// CHECK-LABEL: llvm.func @ldmatrix_tf32_operands
// CHECK-COUNT-2: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-NOT: ldmatrix
// CHECK: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
#ld = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
#db = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 64, elementBitWidth = 32, order = [1, 0]}>
#nvmmab = #ttg.nvmma_shared<{swizzlingByteWidth = 64, elementBitWidth = 32, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:80"} {
  tt.func @ldmatrix_tf32_operands(%a: tensor<16x16xf32, #ld>, %b: tensor<16x16xf32, #ld>, %c: tensor<16x16xf32, #mma>) -> tensor<16x16xf32, #mma> {
    %as = ttg.local_alloc %a : (tensor<16x16xf32, #ld>) -> !ttg.memdesc<16x16xf32, #nvmma, #smem>
    %bs = ttg.local_alloc %b : (tensor<16x16xf32, #ld>) -> !ttg.memdesc<16x16xf32, #nvmmab, #smem>
    %ar = ttg.local_load %as : !ttg.memdesc<16x16xf32, #nvmma, #smem> -> tensor<16x16xf32, #da>
    %br = ttg.local_load %bs : !ttg.memdesc<16x16xf32, #nvmmab, #smem> -> tensor<16x16xf32, #db>
    %d = tt.dot %ar, %br, %c, inputPrecision = tf32 : tensor<16x16xf32, #da> * tensor<16x16xf32, #db> -> tensor<16x16xf32, #mma>
    tt.return %d : tensor<16x16xf32, #mma>
  }
}

// -----

// mma.sync operands read from swizzled shared tiles: A (K contiguous) with
// one ldmatrix.x4 per 16x16 tile, B (N contiguous) with ldmatrix.x2.trans
// per 16x8 tile; no async-proxy fence before sm_90.
// CHECK-LABEL: llvm.func @ldmatrix_operands
// CHECK-NOT: fence.proxy.async
// CHECK-COUNT-2: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-COUNT-4: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// CHECK-NOT: ldmatrix
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#db = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 64, elementBitWidth = 16, order = [1, 0]}>
#nvmmab = #ttg.nvmma_shared<{swizzlingByteWidth = 32, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:80"} {
  tt.func @ldmatrix_operands(%a: tensor<16x32xf16, #ld>, %b: tensor<32x16xf16, #ld>, %c: tensor<16x16xf32, #mma>) -> tensor<16x16xf32, #mma> {
    %as = ttg.local_alloc %a : (tensor<16x32xf16, #ld>) -> !ttg.memdesc<16x32xf16, #nvmma, #smem>
    %bs = ttg.local_alloc %b : (tensor<32x16xf16, #ld>) -> !ttg.memdesc<32x16xf16, #nvmmab, #smem>
    %ar = ttg.local_load %as : !ttg.memdesc<16x32xf16, #nvmma, #smem> -> tensor<16x32xf16, #da>
    %br = ttg.local_load %bs : !ttg.memdesc<32x16xf16, #nvmmab, #smem> -> tensor<32x16xf16, #db>
    %d = tt.dot %ar, %br, %c : tensor<16x32xf16, #da> * tensor<32x16xf16, #db> -> tensor<16x16xf32, #mma>
    tt.return %d : tensor<16x16xf32, #mma>
  }
}
