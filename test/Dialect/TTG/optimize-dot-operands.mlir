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
