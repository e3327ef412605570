// RUN: tritium-opt %s -split-input-file -ttg-allocate-shared-memory -ttg-fence-async-shared -convert-ttg-to-llvm -canonicalize -cse | FileCheck %s

// A wgmma accumulator truncated to f16 into a 128-byte-swizzled tile on
// sm_90: each thread's 32 elements are 16 pairs, four stmatrix.x4 (four 8x8
// matrices each), no plain stores.  Lane t's row address: lane bits 0-2
// are the row (offsets 72, 144, 288 elements: row * 64 with the 16-byte
// chunk XORed by the row), lane bits 3-4 the matrix (rows + 8: 512
// elements; columns + 8: the next chunk, 8), the warp's 16 rows (1024,
// 2048); instructions 1-3 (columns + 16, 32, 48: chunks 2, 4, 6) XOR 16,
// 32 and 48 into it.  Then the fence for the async proxy.
// CHECK-LABEL: llvm.func @accumulator_tile
// CHECK-DAG: llvm.mlir.constant(72 : i32)
// CHECK-DAG: llvm.mlir.constant(144 : i32)
// CHECK-DAG: llvm.mlir.constant(288 : i32)
// CHECK-DAG: llvm.mlir.constant(512 : i32)
// CHECK-DAG: llvm.mlir.constant(1024 : i32)
// CHECK-DAG: llvm.mlir.constant(2048 : i32)
// CHECK-NOT: llvm.store
// CHECK: stmatrix.sync.aligned.m8n8.x4.shared.b16 [ $0 + 0 ], { $1, $2, $3, $4 };
// CHECK: llvm.xor %{{.*}}, %{{.*}} : i32
// CHECK: stmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK: stmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK: stmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-NOT: stmatrix
// CHECK-NOT: llvm.store
// CHECK: fence.proxy.async.shared::cta
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @accumulator_tile(%acc: tensor<64x64xf32, #mma>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem> {
    %h = arith.truncf %acc : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %t = ttg.local_alloc %h : (tensor<64x64xf16, #mma>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
    tt.return %t : !ttg.memdesc<64x64xf16, #nvmma, #smem>
  }
}

// -----

// The same tile on sm_80: no stmatrix, 32-bit pairs stored one by one.
// CHECK-LABEL: llvm.func @accumulator_tile_sm80
// CHECK-NOT: stmatrix
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<3>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:80"} {
  tt.func @accumulator_tile_sm80(%h: tensor<64x64xf16, #mma>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem> {
    %t = ttg.local_alloc %h : (tensor<64x64xf16, #mma>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
    tt.return %t : !ttg.memdesc<64x64xf16, #nvmma, #smem>
  }
}

// -----

// Layouts stmatrix does not hold: 32-bit elements, and a blocked layout
// whose lanes do not step through a row's 8 elements (8 registers a
// thread: one 16-byte store each), keep the plain stores.
// CHECK-LABEL: llvm.func @not_fragments
// CHECK-NOT: stmatrix
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#rows = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma32 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 32, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @not_fragments(%acc: tensor<64x32xf32, #mma>, %x: tensor<64x64xf16, #rows>) {
    %a = ttg.local_alloc %acc : (tensor<64x32xf32, #mma>) -> !ttg.memdesc<64x32xf32, #nvmma32, #smem>
    %b = ttg.local_alloc %x : (tensor<64x64xf16, #rows>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
    tt.return
  }
}

// -----

// One 64-column slab of a 64x256 accumulator (ttg.extract_tile: registers
// 32-63 of each thread's 128, the slab at column 64), stored into a slot of
// a two-slot buffer with ttg.local_store: the same four stmatrix.x4 at the
// slot's base (16 KiB in); no plain stores, and no proxy fence (nothing
// reads the buffer through the async proxy).
// CHECK-LABEL: llvm.func @accumulator_slab
// CHECK: llvm.mlir.constant(8192 : i32)
// CHECK-NOT: llvm.store
// CHECK-COUNT-4: stmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-NOT: stmatrix
// CHECK-NOT: llvm.store
// CHECK-NOT: fence.proxy.async.shared::cta
// CHECK: llvm.return
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 256, 16]}>
#slab = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @accumulator_slab(%h: tensor<64x256xf16, #mma>) {
    %c1 = arith.constant 1 : i32
    %slots = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>
    %w = ttg.extract_tile %h [0, 64] : tensor<64x256xf16, #mma> -> tensor<64x64xf16, #slab>
    %slot = ttg.memdesc_index %slots[%c1] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
    ttg.local_store %w, %slot : tensor<64x64xf16, #slab> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
    tt.return
  }
}

// -----

// A TMA store of one 128x64 box of a 128x256 block (an epilogue slab): one
// copy at the op's indices, then its own bulk group.
// CHECK-LABEL: llvm.func @store_one_slab
// CHECK: "@$0 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$1, {$3, $4}], [$2];\0A@$0 cp.async.bulk.commit_group;"
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @store_one_slab(%d: !tt.tensordesc<tensor<128x256xf16>>, %m: i32, %n: i32) {
    %slot = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
    ttg.async_tma_copy_local_to_global %d[%m, %n] %slot : !tt.tensordesc<tensor<128x256xf16>>, !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
    tt.return
  }
}
