// RUN: tritium-opt %s -split-input-file -ttg-reduce-data-duplication | FileCheck %s

// mma.sync operands converted from their load layouts go through swizzled
// shared tiles that keep the loads' contiguous dimension: A (64 fp16 along
// K) in a 128-byte swizzle, K-major; B (128 fp16 along N) N-major.
// CHECK-DAG: #[[SA:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
// CHECK-LABEL: tt.func @mma_v2_operands
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[TA:.*]] = ttg.local_alloc %arg0 : (tensor<128x64xf16, #{{.*}}>) -> !ttg.memdesc<128x64xf16, #[[SA]], #smem>
// CHECK: %[[A:.*]] = ttg.local_load %[[TA]] : !ttg.memdesc<128x64xf16, #[[SA]], #smem> -> tensor<128x64xf16, #[[DA:dot_op[0-9]*]]>
// CHECK: %[[TB:.*]] = ttg.local_alloc %arg1 : (tensor<64x128xf16, #{{.*}}>) -> !ttg.memdesc<64x128xf16, #[[SA]], #smem>
// CHECK: %[[B:.*]] = ttg.local_load %[[TB]]
// CHECK: tt.dot %[[A]], %[[B]], %arg2
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dota = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#dotb = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:80"} {
  tt.func @mma_v2_operands(%a: tensor<128x64xf16, #ld>, %b: tensor<64x128xf16, #ld>, %c: tensor<128x128xf32, #mma>) -> tensor<128x128xf32, #mma> {
    %a1 = ttg.convert_layout %a : tensor<128x64xf16, #ld> -> tensor<128x64xf16, #dota>
    %b1 = ttg.convert_layout %b : tensor<64x128xf16, #ld> -> tensor<64x128xf16, #dotb>
    %d = tt.dot %a1, %b1, %c : tensor<128x64xf16, #dota> * tensor<64x128xf16, #dotb> -> tensor<128x128xf32, #mma>
    tt.return %d : tensor<128x128xf32, #mma>
  }
}

// -----

// Left alone: operands of a CUDA-core dot (dot_op of a blocked parent), a
// tile no swizzle fits (4 rows: the NVMMA tile needs multiples of 8), and
// conversions into layouts other than dot_op.
// CHECK-LABEL: tt.func @left_alone
// CHECK-NOT: ttg.local_alloc
// CHECK-COUNT-3: ttg.convert_layout
// CHECK-NOT: ttg.local_alloc
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#fma = #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#dotb = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:80"} {
  tt.func @left_alone(%a: tensor<64x32xf32, #ld>, %b: tensor<64x4xf16, #ld>, %c: tensor<64x64xf32, #ld>) {
    %0 = ttg.convert_layout %a : tensor<64x32xf32, #ld> -> tensor<64x32xf32, #fma>
    %1 = ttg.convert_layout %b : tensor<64x4xf16, #ld> -> tensor<64x4xf16, #dotb>
    %2 = ttg.convert_layout %c : tensor<64x64xf32, #ld> -> tensor<64x64xf32, #mma>
    tt.return
  }
}

// -----

// An mma.sync result reused as the A operand of the next dot converts in
// registers: no shared tile.
// CHECK-LABEL: tt.func @register_only
// CHECK-NOT: ttg.local_alloc
// CHECK: ttg.convert_layout %arg0 : tensor<64x32xf16, #mma> -> tensor<64x32xf16, #dot_op>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#dota = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:80"} {
  tt.func @register_only(%p: tensor<64x32xf16, #mma>) -> tensor<64x32xf16, #dota> {
    %a = ttg.convert_layout %p : tensor<64x32xf16, #mma> -> tensor<64x32xf16, #dota>
    tt.return %a : tensor<64x32xf16, #dota>
  }
}

// -----

// tf32 operands: A (32 fp32 along K) goes to an NVMMA tile that ldmatrix
// reads as pairs of b16; B, contiguous along N, is read element by element,
// from groups of 8 elements swizzled by the row (k) mod 4, so that a warp's
// 4 rows of k fall on 4 different quarters of the banks; a B only 16 wide
// along N (64 bytes a row, 2 groups) keeps an NVMMA tile.
// CHECK-DAG: #[[TA:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 32, order = [1, 0]}>
// CHECK-DAG: #[[TB:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #[[TN:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, elementBitWidth = 32, order = [1, 0]}>
// CHECK-LABEL: tt.func @tf32_operands
// CHECK: ttg.local_alloc %arg0 : (tensor<32x32xf32, #{{.*}}>) -> !ttg.memdesc<32x32xf32, #[[TA]], #smem>
// CHECK: ttg.local_alloc %arg1 : (tensor<32x64xf32, #{{.*}}>) -> !ttg.memdesc<32x64xf32, #[[TB]], #smem>
// CHECK: ttg.local_alloc %arg2 : (tensor<32x16xf32, #{{.*}}>) -> !ttg.memdesc<32x16xf32, #[[TN]], #smem>
#ld = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#mman = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#dota = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
#dotb = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>
#dotn = #ttg.dot_op<{opIdx = 1, parent = #mman, kWidth = 1}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @tf32_operands(%a: tensor<32x32xf32, #ld>, %b: tensor<32x64xf32, #ld>, %n: tensor<32x16xf32, #ld>) -> (tensor<32x32xf32, #dota>, tensor<32x64xf32, #dotb>, tensor<32x16xf32, #dotn>) {
    %a1 = ttg.convert_layout %a : tensor<32x32xf32, #ld> -> tensor<32x32xf32, #dota>
    %b1 = ttg.convert_layout %b : tensor<32x64xf32, #ld> -> tensor<32x64xf32, #dotb>
    %n1 = ttg.convert_layout %n : tensor<32x16xf32, #ld> -> tensor<32x16xf32, #dotn>
    tt.return %a1, %b1, %n1 : tensor<32x32xf32, #dota>, tensor<32x64xf32, #dotb>, tensor<32x16xf32, #dotn>
  }
}
