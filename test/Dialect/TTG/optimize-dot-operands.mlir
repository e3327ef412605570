// RUN: tritium-opt %s -split-input-file -ttg-optimize-dot-operands | FileCheck %s

// Attention's P @ V: P is computed in the first dot's accumulator layout
// and stored to a shared tile only to be read by the second wgmma; it goes
// to the tensor cores from registers instead (the conversion into the
// blocked layout of the store goes too).
// CHECK-LABEL: tt.func @probabilities_from_registers
// CHECK-NOT: ttg.local_alloc
// CHECK: %[[P:.*]] = ttg.convert_layout %arg0 : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #[[DOT:.*]]>
// CHECK-NOT: ttg.local_alloc
// CHECK: ttg.warp_group_dot %[[P]], %arg1, %arg2 : tensor<128x64xf16, #[[DOT]]> * !ttg.memdesc<64x64xf16
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @probabilities_from_registers(%p: tensor<128x64xf16, #mma>, %v: !ttg.memdesc<64x64xf16, #nvmma, #smem>,
                                        %acc: tensor<128x64xf32, #mma>) -> tensor<128x64xf32, #mma> {
    %pb = ttg.convert_layout %p : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #blocked>
    %a = ttg.local_alloc %pb : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #nvmma, #smem>
    %o = ttg.warp_group_dot %a, %v, %acc : !ttg.memdesc<128x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<128x64xf32, #mma>
    tt.return %o : tensor<128x64xf32, #mma>
  }
}

// -----

// fp8 probabilities (attention in e4m3): the register operand of an 8-bit
// wgmma holds four elements a register (kWidth 4: the lowering checks it).
// CHECK-LABEL: tt.func @fp8_probabilities_from_registers
// CHECK-NOT: ttg.local_alloc
// CHECK: %[[P:.*]] = ttg.convert_layout %arg0 : tensor<128x64xf8E4M3FN, #mma> -> tensor<128x64xf8E4M3FN, #[[DOT:.*]]>
// CHECK: ttg.warp_group_dot %[[P]], %arg1, %arg2 : tensor<128x64xf8E4M3FN, #[[DOT]]> * !ttg.memdesc<64x64xf8E4M3FN
#blocked = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 64, elementBitWidth = 8, order = [1, 0]}>
#nvmmaT = #ttg.nvmma_shared<{swizzlingByteWidth = 64, elementBitWidth = 8, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @fp8_probabilities_from_registers(%p: tensor<128x64xf8E4M3FN, #mma>, %v: !ttg.memdesc<64x64xf8E4M3FN, #nvmmaT, #smem>,
                                            %acc: tensor<128x64xf32, #mma>) -> tensor<128x64xf32, #mma> {
    %pb = ttg.convert_layout %p : tensor<128x64xf8E4M3FN, #mma> -> tensor<128x64xf8E4M3FN, #blocked>
    %a = ttg.local_alloc %pb : (tensor<128x64xf8E4M3FN, #blocked>) -> !ttg.memdesc<128x64xf8E4M3FN, #nvmma, #smem>
    %o = ttg.warp_group_dot %a, %v, %acc : !ttg.memdesc<128x64xf8E4M3FN, #nvmma, #smem> * !ttg.memdesc<64x64xf8E4M3FN, #nvmmaT, #smem> -> tensor<128x64xf32, #mma>
    tt.return %o : tensor<128x64xf32, #mma>
  }
}

// -----

// Left in shared memory: a loaded tile (ttg-pipeline streams it), a 32-bit
// operand (tf32), and a tile read by two dots.
// CHECK-LABEL: tt.func @stays_shared
// CHECK-COUNT-3: ttg.local_alloc
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#mma8 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#nvmma32 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 32, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @stays_shared(%ptrs: tensor<128x64x!tt.ptr<f16>, #blocked>, %x: tensor<128x32xf32, #mma8>,
                        %y: tensor<128x64xf16, #mma>, %v: !ttg.memdesc<64x64xf16, #nvmma, #smem>,
                        %w: !ttg.memdesc<32x64xf32, #nvmma32, #smem>, %acc: tensor<128x64xf32, #mma>) {
    %l = tt.load %ptrs : tensor<128x64x!tt.ptr<f16>, #blocked>
    %a = ttg.local_alloc %l : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #nvmma, #smem>
    %0 = ttg.warp_group_dot %a, %v, %acc : !ttg.memdesc<128x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<128x64xf32, #mma>
    %b = ttg.local_alloc %x : (tensor<128x32xf32, #mma8>) -> !ttg.memdesc<128x32xf32, #nvmma32, #smem>
    %1 = ttg.warp_group_dot %b, %w, %acc, inputPrecision = tf32 : !ttg.memdesc<128x32xf32, #nvmma32, #smem> * !ttg.memdesc<32x64xf32, #nvmma32, #smem> -> tensor<128x64xf32, #mma>
    %c = ttg.local_alloc %y : (tensor<128x64xf16, #mma>) -> !ttg.memdesc<128x64xf16, #nvmma, #smem>
    %2 = ttg.warp_group_dot %c, %v, %acc : !ttg.memdesc<128x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<128x64xf32, #mma>
    %3 = ttg.warp_group_dot %c, %v, %2 : !ttg.memdesc<128x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<128x64xf32, #mma>
    tt.return
  }
}

// -----

// A loaded tile scaled by a loaded row in a loop body (Mamba-2's
// dstates gradient): the chain is computed in the operand layout instead.
// The tile is read from a shared tile in that layout (ttg-pipeline fills it
// ahead), the row is loaded again in a slice of it, and the computed A goes
// to the wgmma from registers.
// CHECK-LABEL: tt.func @scaled_operand_from_loaded_tiles
// CHECK: scf.for
// CHECK: %[[TILE:.*]] = tt.load %arg0 : tensor<128x32x!tt.ptr<bf16>, #blocked>
// CHECK: %[[SHARED:.*]] = ttg.local_alloc %[[TILE]] : (tensor<128x32xbf16, #blocked>) -> !ttg.memdesc<128x32xbf16, #[[NVMMA:.*]], #smem>
// CHECK: %[[READ:.*]] = ttg.local_load %[[SHARED]] : !ttg.memdesc<128x32xbf16, #[[NVMMA]], #smem> -> tensor<128x32xbf16, #[[DOT:.*]]>
// CHECK: arith.extf %[[READ]] : tensor<128x32xbf16, #[[DOT]]> to tensor<128x32xf32, #[[DOT]]>
// CHECK: tt.load %{{.*}} : tensor<32x!tt.ptr<f32>, #[[SLICE:.*]]>
// CHECK: tt.expand_dims %{{.*}} {axis = 0 : i32} : tensor<32xf32, #[[SLICE]]> -> tensor<1x32xf32, #[[DOT]]>
// CHECK: %[[A:.*]] = arith.truncf %{{.*}} : tensor<128x32xf32, #[[DOT]]> to tensor<128x32xbf16, #[[DOT]]>
// CHECK-NOT: ttg.local_alloc
// CHECK: ttg.warp_group_dot %[[A]], %arg2, %{{.*}} : tensor<128x32xbf16, #[[DOT]]> * !ttg.memdesc<32x64xbf16
#blocked = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 64, elementBitWidth = 16, order = [1, 0]}>
#nvmmaB = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @scaled_operand_from_loaded_tiles(%tile_ptrs: tensor<128x32x!tt.ptr<bf16>, #blocked>,
                                            %row_start: !tt.ptr<f32>,
                                            %b: !ttg.memdesc<32x64xbf16, #nvmmaB, #smem>, %n: i32) -> tensor<128x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    %offsets = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %row_base = tt.splat %row_start : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>
    %row_ptrs = tt.addptr %row_base, %offsets : tensor<32x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>, tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
      %t = tt.load %tile_ptrs : tensor<128x32x!tt.ptr<bf16>, #blocked>
      %tf = arith.extf %t : tensor<128x32xbf16, #blocked> to tensor<128x32xf32, #blocked>
      %row = tt.load %row_ptrs : tensor<32x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>
      %scale = math.exp %row : tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
      %s2 = tt.expand_dims %scale {axis = 0 : i32} : tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xf32, #blocked>
      %sb = tt.broadcast %s2 : tensor<1x32xf32, #blocked> -> tensor<128x32xf32, #blocked>
      %m = arith.mulf %tf, %sb : tensor<128x32xf32, #blocked>
      %a = arith.truncf %m : tensor<128x32xf32, #blocked> to tensor<128x32xbf16, #blocked>
      %sa = ttg.local_alloc %a : (tensor<128x32xbf16, #blocked>) -> !ttg.memdesc<128x32xbf16, #nvmma, #smem>
      %d = ttg.warp_group_dot %sa, %b, %acc : !ttg.memdesc<128x32xbf16, #nvmma, #smem> * !ttg.memdesc<32x64xbf16, #nvmmaB, #smem> -> tensor<128x64xf32, #mma>
      scf.yield %d : tensor<128x64xf32, #mma>
    }
    tt.return %r : tensor<128x64xf32, #mma>
  }
}

// -----

// The same chain stays as it is where the operand layout would hold each
// value twice (warps along N: every element-wise op would run twice) and
// outside a loop (nothing streams the loads there).
// CHECK-LABEL: tt.func @scaled_operand_stays_shared
// CHECK: %[[A:.*]] = arith.truncf %{{.*}} : tensor<128x32xf32, #blocked> to tensor<128x32xbf16, #blocked>
// CHECK: %[[S:.*]] = ttg.local_alloc %[[A]]
// CHECK: ttg.warp_group_dot %[[S]]
// CHECK: %[[A2:.*]] = arith.truncf %{{.*}} : tensor<128x32xf32, #blocked> to tensor<128x32xbf16, #blocked>
// CHECK: %[[S2:.*]] = ttg.local_alloc %[[A2]]
// CHECK: ttg.warp_group_dot %[[S2]]
#blocked = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 8], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 32, 16]}>
#mma4 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 64, elementBitWidth = 16, order = [1, 0]}>
#nvmmaB = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @scaled_operand_stays_shared(%tile_ptrs: tensor<128x32x!tt.ptr<bf16>, #blocked>,
                                       %scale_ptrs: tensor<128x32x!tt.ptr<f32>, #blocked>,
                                       %b: !ttg.memdesc<32x64xbf16, #nvmmaB, #smem>, %n: i32) -> tensor<128x64xf32, #mma4> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
      %t = tt.load %tile_ptrs : tensor<128x32x!tt.ptr<bf16>, #blocked>
      %tf = arith.extf %t : tensor<128x32xbf16, #blocked> to tensor<128x32xf32, #blocked>
      %scale = tt.load %scale_ptrs : tensor<128x32x!tt.ptr<f32>, #blocked>
      %m = arith.mulf %tf, %scale : tensor<128x32xf32, #blocked>
      %a = arith.truncf %m : tensor<128x32xf32, #blocked> to tensor<128x32xbf16, #blocked>
      %sa = ttg.local_alloc %a : (tensor<128x32xbf16, #blocked>) -> !ttg.memdesc<128x32xbf16, #nvmma, #smem>
      %d = ttg.warp_group_dot %sa, %b, %acc : !ttg.memdesc<128x32xbf16, #nvmma, #smem> * !ttg.memdesc<32x64xbf16, #nvmmaB, #smem> -> tensor<128x64xf32, #mma>
      scf.yield %d : tensor<128x64xf32, #mma>
    }
    %zero4 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma4>
    %t2 = tt.load %tile_ptrs : tensor<128x32x!tt.ptr<bf16>, #blocked>
    %tf2 = arith.extf %t2 : tensor<128x32xbf16, #blocked> to tensor<128x32xf32, #blocked>
    %scale2 = tt.load %scale_ptrs : tensor<128x32x!tt.ptr<f32>, #blocked>
    %m2 = arith.mulf %tf2, %scale2 : tensor<128x32xf32, #blocked>
    %a2 = arith.truncf %m2 : tensor<128x32xf32, #blocked> to tensor<128x32xbf16, #blocked>
    %sa2 = ttg.local_alloc %a2 : (tensor<128x32xbf16, #blocked>) -> !ttg.memdesc<128x32xbf16, #nvmma, #smem>
    %d2 = ttg.warp_group_dot %sa2, %b, %zero4 : !ttg.memdesc<128x32xbf16, #nvmma, #smem> * !ttg.memdesc<32x64xbf16, #nvmmaB, #smem> -> tensor<128x64xf32, #mma4>
    tt.return %d2 : tensor<128x64xf32, #mma4>
  }
}
