// RUN: tritium-opt %s -split-input-file -ttg-fence-async-shared | FileCheck %s

// A tile a warpgroup dot reads gets the fence after its store; a tile only
// ttg.local_load reads (ldmatrix for mma.sync) gets none, nor does a
// swizzled_shared tile.
// CHECK-LABEL: tt.func @wgmma_and_ldmatrix_tiles
// CHECK: %[[A:.*]] = ttg.local_alloc %{{.*}} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
// CHECK-NEXT: ttg.fence_async_shared
// CHECK-NEXT: ttg.warp_group_dot %[[A]]
// CHECK: ttg.local_alloc %{{.*}} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma1, #smem>
// CHECK-NEXT: ttg.local_alloc %{{.*}} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
// CHECK-NOT: ttg.fence_async_shared
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#mma2 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#nvmma1 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, elementBitWidth = 16, order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @wgmma_and_ldmatrix_tiles(%x: tensor<64x64xf16, #blocked>, %acc: tensor<64x64xf32, #mma>) -> (tensor<64x64xf32, #mma>, tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma2, kWidth = 2}>>, tensor<64x64xf16, #blocked>) {
    %a = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
    %d = ttg.warp_group_dot %a, %a, %acc : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
    %l = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma1, #smem>
    %s = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %lo = ttg.local_load %l : !ttg.memdesc<64x64xf16, #nvmma1, #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma2, kWidth = 2}>>
    %so = ttg.local_load %s : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
    tt.return %d, %lo, %so : tensor<64x64xf32, #mma>, tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma2, kWidth = 2}>>, tensor<64x64xf16, #blocked>
  }
}

// -----

// A store into a slot of a ring (through ttg.memdesc_index) whose other
// slot a warpgroup dot reads: fenced (the buffer is the unit).  A ring
// only ttg.local_load reads: not fenced.
// CHECK-LABEL: tt.func @ring_slots
// CHECK: ttg.local_store %{{.*}}, %[[SLOT:.*]] :
// CHECK-NEXT: ttg.fence_async_shared
// CHECK: ttg.local_store
// CHECK-NOT: ttg.fence_async_shared
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @ring_slots(%x: tensor<64x64xf16, #blocked>, %acc: tensor<64x64xf32, #mma>) -> (tensor<64x64xf32, #mma>, tensor<64x64xf16, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %ring = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>
    %w = ttg.memdesc_index %ring[%c0] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
    ttg.local_store %x, %w : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
    %r = ttg.memdesc_index %ring[%c1] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
    %d = ttg.warp_group_dot %r, %r, %acc : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64> * !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64> -> tensor<64x64xf32, #mma>
    %ring2 = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>
    %w2 = ttg.memdesc_index %ring2[%c0] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
    ttg.local_store %x, %w2 : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
    %o = ttg.local_load %w2 : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64> -> tensor<64x64xf16, #blocked>
    tt.return %d, %o : tensor<64x64xf32, #mma>, tensor<64x64xf16, #blocked>
  }
}

// -----

// Before sm_90 there is no async proxy: no fence even for a tile a
// function returns (an unknown reader).
// CHECK-LABEL: tt.func @sm80_tile
// CHECK-NOT: ttg.fence_async_shared
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:80"} {
  tt.func @sm80_tile(%x: tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem> {
    %a = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
    tt.return %a : !ttg.memdesc<64x64xf16, #nvmma, #smem>
  }
}
