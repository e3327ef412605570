// RUN: tritium-opt %s -split-input-file -ttg-accelerate-matmul | FileCheck %s

// On sm_90 an fp16 dot with a 128-row tile and 4 warps becomes a warpgroup
// dot: both operands are stored to 128-byte swizzled shared tiles from the
// layouts they were loaded in (A K-major, B N-major as loaded), the
// accumulator moves to a version-3 mma layout with one warpgroup along M
// and the whole N in one instruction, and the result converts back.
// CHECK-DAG: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
// CHECK-DAG: #[[SA:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
// CHECK-LABEL: tt.func @wgmma_fp16
// CHECK: %[[A:.*]] = ttg.local_alloc %arg0 : (tensor<128x64xf16, #{{.*}}>) -> !ttg.memdesc<128x64xf16, #[[SA]], #smem>
// CHECK: %[[B:.*]] = ttg.local_alloc %arg1 : (tensor<64x128xf16, #{{.*}}>) -> !ttg.memdesc<64x128xf16, #[[SA]], #smem>
// CHECK: %[[C:.*]] = ttg.convert_layout %arg2 : {{.*}} -> tensor<128x128xf32, #[[MMA]]>
// CHECK: %[[D:.*]] = ttg.warp_group_dot %[[A]], %[[B]], %[[C]]
// CHECK: ttg.convert_layout %[[D]] : tensor<128x128xf32, #[[MMA]]> -> tensor<128x128xf32, #{{.*}}>
// CHECK-NOT: tt.dot
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#dota = #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#dotb = #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @wgmma_fp16(%a: tensor<128x64xf16, #ld>, %b: tensor<64x128xf16, #ld>, %c: tensor<128x128xf32, #acc>) -> tensor<128x128xf32, #acc> {
    %a1 = ttg.convert_layout %a : tensor<128x64xf16, #ld> -> tensor<128x64xf16, #dota>
    %b1 = ttg.convert_layout %b : tensor<64x128xf16, #ld> -> tensor<64x128xf16, #dotb>
    %d = tt.dot %a1, %b1, %c : tensor<128x64xf16, #dota> * tensor<64x128xf16, #dotb> -> tensor<128x128xf32, #acc>
    tt.return %d : tensor<128x128xf32, #acc>
  }
}

// -----

// The same dot on sm_80 runs on mma.sync m16n8k16: a version-2 mma layout
// with the 4 warps as a 2 x 2 grid, operands converted from the layouts
// they were loaded in to #ttg.dot_op of the mma (two fp16 per register:
// kWidth 2); ttg-reduce-data-duplication takes them through shared tiles.
// CHECK-DAG: #[[MMA2:mma[0-9]*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-DAG: #[[DA2:dot_op[0-9]*]] = #ttg.dot_op<{opIdx = 0, parent = #[[MMA2]], kWidth = 2}>
// CHECK-DAG: #[[DB2:dot_op[0-9]*]] = #ttg.dot_op<{opIdx = 1, parent = #[[MMA2]], kWidth = 2}>
// CHECK-LABEL: tt.func @mma_sync_fp16
// CHECK: %[[A2:.*]] = ttg.convert_layout %arg0 : tensor<128x64xf16, #{{.*}}> -> tensor<128x64xf16, #[[DA2]]>
// CHECK: %[[B2:.*]] = ttg.convert_layout %arg1 : tensor<64x128xf16, #{{.*}}> -> tensor<64x128xf16, #[[DB2]]>
// CHECK: tt.dot %[[A2]], %[[B2]], %{{.*}} : {{.*}} -> tensor<128x128xf32, #[[MMA2]]>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#dota = #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#dotb = #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:80"} {
  tt.func @mma_sync_fp16(%a: tensor<128x64xf16, #ld>, %b: tensor<64x128xf16, #ld>, %c: tensor<128x128xf32, #acc>) -> tensor<128x128xf32, #acc> {
    %a1 = ttg.convert_layout %a : tensor<128x64xf16, #ld> -> tensor<128x64xf16, #dota>
    %b1 = ttg.convert_layout %b : tensor<64x128xf16, #ld> -> tensor<64x128xf16, #dotb>
    %d = tt.dot %a1, %b1, %c : tensor<128x64xf16, #dota> * tensor<64x128xf16, #dotb> -> tensor<128x128xf32, #acc>
    tt.return %d : tensor<128x128xf32, #acc>
  }
}

// -----

// tf32 on sm_80 is m16n8k8 (kWidth 1); int8 is m16n8k32 (kWidth 4).
// CHECK-DAG: #[[TF:dot_op[0-9]*]] = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
// CHECK-DAG: #[[I8:dot_op[0-9]*]] = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>
// CHECK-LABEL: tt.func @mma_sync_tf32_int8
// CHECK: tt.dot {{.*}} inputPrecision = tf32 : tensor<64x32xf32, #[[TF]]>
// CHECK: tt.dot {{.*}} : tensor<64x32xi8, #[[I8]]>
#acc = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#dota = #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#dotb = #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:80"} {
  tt.func @mma_sync_tf32_int8(%a: tensor<64x32xf32, #dota>, %b: tensor<32x64xf32, #dotb>, %c: tensor<64x64xf32, #acc>,
                              %x: tensor<64x32xi8, #dota>, %y: tensor<32x64xi8, #dotb>, %z: tensor<64x64xi32, #acc>) {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf32, #dota> * tensor<32x64xf32, #dotb> -> tensor<64x64xf32, #acc>
    %e = tt.dot %x, %y, %z : tensor<64x32xi8, #dota> * tensor<32x64xi8, #dotb> -> tensor<64x64xi32, #acc>
    tt.return
  }
}

// -----

// Dots no tensor-core instruction fits stay on the CUDA cores with their
// blocked accumulator: exact fp32 (ieee), and an fp16 tile of 8 rows, whose
// operands are widened to the f32 accumulator first.
// CHECK-LABEL: tt.func @fma_dots
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.dot %arg0, %arg1, %arg2 : tensor<64x32xf32, #{{dot_op[0-9]*}}> * {{.*}} -> tensor<64x64xf32, #{{blocked[0-9]*}}>
// CHECK: %[[X:.*]] = arith.extf %arg3 : tensor<8x16xf16, {{.*}}> to tensor<8x16xf32, {{.*}}>
// CHECK: %[[Y:.*]] = arith.extf %arg4 : tensor<16x8xf16, {{.*}}> to tensor<16x8xf32, {{.*}}>
// CHECK: tt.dot %[[X]], %[[Y]], %arg5
#acc = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#dota = #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#dotb = #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @fma_dots(%a: tensor<64x32xf32, #dota>, %b: tensor<32x64xf32, #dotb>, %c: tensor<64x64xf32, #acc>,
                    %x: tensor<8x16xf16, #dota>, %y: tensor<16x8xf16, #dotb>, %z: tensor<8x8xf32, #acc>) {
    %d = tt.dot %a, %b, %c, inputPrecision = ieee : tensor<64x32xf32, #dota> * tensor<32x64xf32, #dotb> -> tensor<64x64xf32, #acc>
    %e = tt.dot %x, %y, %z : tensor<8x16xf16, #dota> * tensor<16x8xf16, #dotb> -> tensor<8x8xf32, #acc>
    tt.return
  }
}

// -----

// A batched (3-D) dot runs on mma.sync on sm_90 too (wgmma is 2-D): the
// warps go to the batch first (2 of them for a batch of 2), the other 2
// over M x N, here along N (32 columns are 4 steps of 8, 32 rows 2 of 16);
// the operands are converted (NVMMA tiles are 2-D).
// CHECK-DAG: #[[MMA3:mma[0-9]*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 1, 2], instrShape = [16, 8]}>
// CHECK-DAG: #[[DA3:dot_op[0-9]*]] = #ttg.dot_op<{opIdx = 0, parent = #[[MMA3]], kWidth = 2}>
// CHECK-LABEL: tt.func @batched
// CHECK: ttg.convert_layout %arg0 : tensor<2x32x32xf16, #{{.*}}> -> tensor<2x32x32xf16, #[[DA3]]>
// CHECK: tt.dot {{.*}} -> tensor<2x32x32xf32, #[[MMA3]]>
#ld = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 8, 4], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#dota = #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#dotb = #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @batched(%a: tensor<2x32x32xf16, #ld>, %b: tensor<2x32x32xf16, #ld>, %c: tensor<2x32x32xf32, #acc>) -> tensor<2x32x32xf32, #acc> {
    %a1 = ttg.convert_layout %a : tensor<2x32x32xf16, #ld> -> tensor<2x32x32xf16, #dota>
    %b1 = ttg.convert_layout %b : tensor<2x32x32xf16, #ld> -> tensor<2x32x32xf16, #dotb>
    %d = tt.dot %a1, %b1, %c : tensor<2x32x32xf16, #dota> * tensor<2x32x32xf16, #dotb> -> tensor<2x32x32xf32, #acc>
    tt.return %d : tensor<2x32x32xf32, #acc>
  }
}

// -----

// Two chained mma.sync dots (attention's S = Q K and O = P V, P computed
// from S) take every warp along M, so that P reaches the second dot as
// its A operand in registers; counted alone, each 128x64 tile would spread
// its 4 warps as 2 x 2 (64 columns are 8 steps of 8, 128 rows 8 of 16).
// CHECK-DAG: #[[MMAC:mma[0-9]*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @chained_dots
// CHECK: tt.dot {{.*}} -> tensor<128x64xf32, #[[MMAC]]>
// CHECK: tt.dot {{.*}} -> tensor<128x64xf32, #[[MMAC]]>
// CHECK-NOT: warpsPerCTA = [2, 2]
#acc = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#dota = #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#dotb = #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:80"} {
  tt.func @chained_dots(%q: tensor<128x64xf16, #dota>, %k: tensor<64x64xf16, #dotb>, %v: tensor<64x64xf16, #dotb>, %c: tensor<128x64xf32, #acc>) -> tensor<128x64xf32, #acc> {
    %s = tt.dot %q, %k, %c : tensor<128x64xf16, #dota> * tensor<64x64xf16, #dotb> -> tensor<128x64xf32, #acc>
    %p = arith.truncf %s : tensor<128x64xf32, #acc> to tensor<128x64xf16, #acc>
    %pa = ttg.convert_layout %p : tensor<128x64xf16, #acc> -> tensor<128x64xf16, #dota>
    %o = tt.dot %pa, %v, %c : tensor<128x64xf16, #dota> * tensor<64x64xf16, #dotb> -> tensor<128x64xf32, #acc>
    tt.return %o : tensor<128x64xf32, #acc>
  }
}

// -----

// Two mma.sync dots that reach each other only through a tile they both
// read (flash-linear-attention's WY-representation backward: dA += dU V^T
// and dV = A dU in one loop body) are chained too: the slice is grown
// backward and forward until it stops, as Triton's is.  Counted alone, each
// 64x64 tile over 2 warps would take them along N (1 x 2); chained, both
// take them along M.
// CHECK-DAG: #[[MMAS:mma[0-9]*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 1], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @dots_sharing_a_tile
// CHECK: tt.dot {{.*}} -> tensor<64x64xf32, #[[MMAS]]>
// CHECK: tt.dot {{.*}} -> tensor<64x64xf32, #[[MMAS]]>
// CHECK-NOT: warpsPerCTA = [1, 2]
#blk = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
#opa = #ttg.dot_op<{opIdx = 0, parent = #blk, kWidth = 1}>
#opb = #ttg.dot_op<{opIdx = 1, parent = #blk, kWidth = 1}>
module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:80"} {
  tt.func @dots_sharing_a_tile(%y: tensor<64x64xf16, #blk>, %vt: tensor<64x64xf16, #opb>, %a: tensor<64x64xf16, #opa>, %c: tensor<64x64xf32, #blk>) -> (tensor<64x64xf32, #blk>, tensor<64x64xf32, #blk>) {
    %du = arith.addf %y, %y : tensor<64x64xf16, #blk>
    %dua = ttg.convert_layout %du : tensor<64x64xf16, #blk> -> tensor<64x64xf16, #opa>
    %da = tt.dot %dua, %vt, %c : tensor<64x64xf16, #opa> * tensor<64x64xf16, #opb> -> tensor<64x64xf32, #blk>
    %dub = ttg.convert_layout %du : tensor<64x64xf16, #blk> -> tensor<64x64xf16, #opb>
    %dv = tt.dot %a, %dub, %c : tensor<64x64xf16, #opa> * tensor<64x64xf16, #opb> -> tensor<64x64xf32, #blk>
    tt.return %da, %dv : tensor<64x64xf32, #blk>, tensor<64x64xf32, #blk>
  }
}
