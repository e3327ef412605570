// RUN: tritium-opt %s -split-input-file | FileCheck %s

// Layouts as Triton prints them, as in the TTGIR files Triton's tests
// compile: the CTA-group fields (one CTA per group) are read and dropped,
// `transposed` in #ttg.nvmma_shared becomes an order, and a batched mma v2
// tile's instrShape [1, 16, 8] becomes the instruction's [16, 8].

// CHECK: #[[BLOCKED:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
// CHECK: #[[BATCHED:.*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2, 1], instrShape = [16, 8]}>
// CHECK: #[[ROWS:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
// CHECK: #[[COLUMNS:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, elementBitWidth = 16, order = [0, 1]}>
// CHECK: #[[SWIZZLED:.*]] = #ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-LABEL: tt.func @triton_printed_layouts
// CHECK-SAME: tensor<64x64xf32, #[[BLOCKED]]>
// CHECK-SAME: tensor<64x64xf32, #[[MMA]]>
// CHECK-SAME: tensor<2x32x16xf32, #[[BATCHED]]>
// CHECK-SAME: !ttg.memdesc<64x64xf16, #[[SWIZZLED]], #smem>
// CHECK-SAME: !ttg.memdesc<64x64xf16, #[[ROWS]], #smem>
// CHECK-SAME: !ttg.memdesc<64x64xf16, #[[COLUMNS]], #smem>

#blocked = #ttg.blocked<{sizePerThread=[1, 4], threadsPerWarp=[8, 4], warpsPerCTA=[4, 1], order=[1, 0], CTAsPerCGA=[1, 1], CTASplitNum=[1, 1], CTAOrder=[0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor=3, versionMinor=0, warpsPerCTA=[4, 1], CTAsPerCGA=[1, 1], CTASplitNum=[1, 1], CTAOrder=[1, 0], instrShape=[16, 32, 16]}>
#batched = #ttg.nvidia_mma<{versionMajor=2, versionMinor=0, warpsPerCTA=[2, 2, 1], CTAsPerCGA=[1, 1, 1], CTASplitNum=[1, 1, 1], CTAOrder=[2, 1, 0], instrShape=[1, 16, 8]}>
#swizzled = #ttg.swizzled_shared<{vec=4, perPhase=2, maxPhase=4, order=[1, 0], CTAsPerCGA=[1, 1], CTASplitNum=[1, 1], CTAOrder=[0, 1]}>
#rows = #ttg.nvmma_shared<{swizzlingByteWidth=128, transposed=false, elementBitWidth=16, CTAsPerCGA=[1, 1], CTASplitNum=[1, 1], CTAOrder=[1, 0]}>
#columns = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @triton_printed_layouts(%a: tensor<64x64xf32, #blocked>, %b: tensor<64x64xf32, #mma>,
                                  %c: tensor<2x32x16xf32, #batched>,
                                  %d: !ttg.memdesc<64x64xf16, #swizzled, #smem>,
                                  %e: !ttg.memdesc<64x64xf16, #rows, #smem>,
                                  %f: !ttg.memdesc<64x64xf16, #columns, #smem>) {
    tt.return
  }
}
