// RUN: tritium-opt %s -split-input-file -tritium-test-print-layouts | FileCheck %s

// The layout algebra, end to end: for each distributed tensor the test pass
// prints its register count, its linear-layout bases (register, lane and warp
// bit -> coordinates) and, for rank 2, the ids (lane + 32 * warp) of the
// threads holding each element; `a/b` marks an element held by several
// threads.  Bases are lists of coordinate vectors: `{{\[}}[0,1], [1,0]]` reads
// `[[0,1], [1,0]]`.

// A 16x16 tensor over 2 warps: each thread holds a 2x2 block, 4 lanes cover
// 8 columns, 8 lanes cover the 16 rows, and warp 1 holds the right half
// (the example of the #ttg.blocked documentation).

#blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 2], order = [1, 0]}>
module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @blocked_16x16() {
    %0 = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #blocked>
    tt.return
  }
}

// CHECK-LABEL: layout of arith.constant result #0: tensor<16x16xf32, #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 2], order = [1, 0]}>>
// CHECK-NEXT: elems per thread: 4
// CHECK-NEXT: bases: register: {{\[}}[0,1], [1,0]]
// CHECK-NEXT: lane: {{\[}}[0,2], [0,4], [2,0], [4,0], [8,0]]
// CHECK-NEXT: warp: {{\[}}[0,8]]
// CHECK-NEXT: shape: [16,16]
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}0 0 1 1 2 2 3 3 32 32 33 33 34 34 35 35{{$}}
// CHECK-NEXT: {{^}}0 0 1 1 2 2 3 3 32 32 33 33 34 34 35 35{{$}}
// CHECK-NEXT: {{^}}4 4 5 5 6 6 7 7 36 36 37 37 38 38 39 39{{$}}
// CHECK-NEXT: {{^}}4 4 5 5 6 6 7 7 36 36 37 37 38 38 39 39{{$}}
// CHECK-NEXT: {{^}}8 8 9 9 10 10 11 11 40 40 41 41 42 42 43 43{{$}}
// CHECK-NEXT: {{^}}8 8 9 9 10 10 11 11 40 40 41 41 42 42 43 43{{$}}
// CHECK-NEXT: {{^}}12 12 13 13 14 14 15 15 44 44 45 45 46 46 47 47{{$}}
// CHECK-NEXT: {{^}}12 12 13 13 14 14 15 15 44 44 45 45 46 46 47 47{{$}}
// CHECK-NEXT: {{^}}16 16 17 17 18 18 19 19 48 48 49 49 50 50 51 51{{$}}
// CHECK-NEXT: {{^}}16 16 17 17 18 18 19 19 48 48 49 49 50 50 51 51{{$}}
// CHECK-NEXT: {{^}}20 20 21 21 22 22 23 23 52 52 53 53 54 54 55 55{{$}}
// CHECK-NEXT: {{^}}20 20 21 21 22 22 23 23 52 52 53 53 54 54 55 55{{$}}
// CHECK-NEXT: {{^}}24 24 25 25 26 26 27 27 56 56 57 57 58 58 59 59{{$}}
// CHECK-NEXT: {{^}}24 24 25 25 26 26 27 27 56 56 57 57 58 58 59 59{{$}}
// CHECK-NEXT: {{^}}28 28 29 29 30 30 31 31 60 60 61 61 62 62 63 63{{$}}
// CHECK-NEXT: {{^}}28 28 29 29 30 30 31 31 60 60 61 61 62 62 63 63{{$}}
// CHECK-NOT: layout of
// CHECK-LABEL: tt.func @blocked_16x16

// -----

// A 2x8 tensor over a layout whose lanes cover 2x16: lane bit 3 (column 8)
// falls outside the tensor and wraps around, so lanes l and l + 8 hold the
// same element.

module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @smaller_than_lanes() {
    %0 = arith.constant dense<0.000000e+00> : tensor<2x8xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>>
    tt.return
  }
}

// CHECK-LABEL: layout of arith.constant result #0: tensor<2x8xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>>
// CHECK-NEXT: elems per thread: 1
// CHECK-NEXT: bases: register: []
// CHECK-NEXT: lane: {{\[}}[0,1], [0,2], [0,4], [0,0], [1,0]]
// CHECK-NEXT: warp: []
// CHECK-NEXT: shape: [2,8]
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}0/8 1/9 2/10 3/11 4/12 5/13 6/14 7/15{{$}}
// CHECK-NEXT: {{^}}16/24 17/25 18/26 19/27 20/28 21/29 22/30 23/31{{$}}
// CHECK-LABEL: tt.func @smaller_than_lanes

// -----

// A 4x8 tensor over 4 warps whose lanes already cover it: both warp bases
// wrap around, so all four warps hold every element.

module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @smaller_than_warps() {
    %0 = arith.constant dense<0.000000e+00> : tensor<4x8xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
    tt.return
  }
}

// CHECK-LABEL: layout of arith.constant result #0: tensor<4x8xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
// CHECK-NEXT: elems per thread: 1
// CHECK-NEXT: bases: register: []
// CHECK-NEXT: lane: {{\[}}[0,1], [0,2], [0,4], [1,0], [2,0]]
// CHECK-NEXT: warp: {{\[}}[0,0], [0,0]]
// CHECK-NEXT: shape: [4,8]
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}0/32/64/96 1/33/65/97 2/34/66/98 3/35/67/99 4/36/68/100 5/37/69/101 6/38/70/102 7/39/71/103{{$}}
// CHECK-NEXT: {{^}}8/40/72/104 9/41/73/105 10/42/74/106 11/43/75/107 12/44/76/108 13/45/77/109 14/46/78/110 15/47/79/111{{$}}
// CHECK-NEXT: {{^}}16/48/80/112 17/49/81/113 18/50/82/114 19/51/83/115 20/52/84/116 21/53/85/117 22/54/86/118 23/55/87/119{{$}}
// CHECK-NEXT: {{^}}24/56/88/120 25/57/89/121 26/58/90/122 27/59/91/123 28/60/92/124 29/61/93/125 30/62/94/126 31/63/95/127{{$}}
// CHECK-LABEL: tt.func @smaller_than_warps

// -----

// Slices of the 16x16 layout above.  Along dim 1 (a row reduction's result):
// the register and lane bases that moved along columns vanish, so the four
// lanes of a row group and both warps hold the same rows.  Along dim 0: only
// column bases remain, and the eight lanes of a column share it.

#blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 2], order = [1, 0]}>
module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @slices() {
    %rows = arith.constant dense<0.000000e+00> : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %cols = arith.constant dense<0.000000e+00> : tensor<16xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.return
  }
}

// CHECK-LABEL: layout of arith.constant result #0: tensor<16xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 2], order = [1, 0]}>}>>
// CHECK-NEXT: elems per thread: 2
// CHECK-NEXT: bases: register: {{\[}}[1]]
// CHECK-NEXT: lane: {{\[}}[0], [0], [2], [4], [8]]
// CHECK-NEXT: warp: {{\[}}[0]]
// CHECK-NEXT: shape: [16]
// CHECK-LABEL: layout of arith.constant result #0: tensor<16xf32, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 2], order = [1, 0]}>}>>
// CHECK-NEXT: elems per thread: 2
// CHECK-NEXT: bases: register: {{\[}}[1]]
// CHECK-NEXT: lane: {{\[}}[2], [4], [0], [0], [0]]
// CHECK-NEXT: warp: {{\[}}[8]]
// CHECK-NEXT: shape: [16]
// CHECK-LABEL: tt.func @slices

// -----

// A rank-2 slice of a rank-3 layout: the lanes and warps that moved along the
// removed dimension 0 (lane bits 3 and 4, warp bit 0) all hold the same
// elements, eight threads per element.

module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @slice_of_rank3() {
    %0 = arith.constant dense<0.000000e+00> : tensor<2x8xf32, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [4, 2, 4], warpsPerCTA = [2, 1, 1], order = [2, 1, 0]}>}>>
    tt.return
  }
}

// CHECK-LABEL: layout of arith.constant result #0: tensor<2x8xf32, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [4, 2, 4], warpsPerCTA = [2, 1, 1], order = [2, 1, 0]}>}>>
// CHECK-NEXT: elems per thread: 2
// CHECK-NEXT: bases: register: {{\[}}[0,1]]
// CHECK-NEXT: lane: {{\[}}[0,2], [0,4], [1,0], [0,0], [0,0]]
// CHECK-NEXT: warp: {{\[}}[0,0]]
// CHECK-NEXT: shape: [2,8]
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}0/8/16/24/32/40/48/56 0/8/16/24/32/40/48/56 1/9/17/25/33/41/49/57 1/9/17/25/33/41/49/57 2/10/18/26/34/42/50/58 2/10/18/26/34/42/50/58 3/11/19/27/35/43/51/59 3/11/19/27/35/43/51/59{{$}}
// CHECK-NEXT: {{^}}4/12/20/28/36/44/52/60 4/12/20/28/36/44/52/60 5/13/21/29/37/45/53/61 5/13/21/29/37/45/53/61 6/14/22/30/38/46/54/62 6/14/22/30/38/46/54/62 7/15/23/31/39/47/55/63 7/15/23/31/39/47/55/63{{$}}
// CHECK-LABEL: tt.func @slice_of_rank3

// -----

// The mma.sync m16n8 accumulator over one warp: lane l holds rows l/4 and
// l/4 + 8 at columns 2*(l%4) and 2*(l%4) + 1, so row 8 repeats row 0.

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mma_v2_accumulator() {
    %0 = arith.constant dense<0.000000e+00> : tensor<16x8xf32, #mma>
    tt.return
  }
}

// CHECK-LABEL: layout of arith.constant result #0: tensor<16x8xf32, #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>>
// CHECK-NEXT: elems per thread: 4
// CHECK-NEXT: bases: register: {{\[}}[0,1], [8,0]]
// CHECK-NEXT: lane: {{\[}}[0,2], [0,4], [1,0], [2,0], [4,0]]
// CHECK-NEXT: warp: []
// CHECK-NEXT: shape: [16,8]
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}0 0 1 1 2 2 3 3{{$}}
// CHECK-NEXT: {{^}}4 4 5 5 6 6 7 7{{$}}
// CHECK-NEXT: {{^}}8 8 9 9 10 10 11 11{{$}}
// CHECK-NEXT: {{^}}12 12 13 13 14 14 15 15{{$}}
// CHECK-NEXT: {{^}}16 16 17 17 18 18 19 19{{$}}
// CHECK-NEXT: {{^}}20 20 21 21 22 22 23 23{{$}}
// CHECK-NEXT: {{^}}24 24 25 25 26 26 27 27{{$}}
// CHECK-NEXT: {{^}}28 28 29 29 30 30 31 31{{$}}
// CHECK-NEXT: {{^}}0 0 1 1 2 2 3 3{{$}}
// CHECK-NEXT: {{^}}4 4 5 5 6 6 7 7{{$}}
// CHECK-NEXT: {{^}}8 8 9 9 10 10 11 11{{$}}
// CHECK-NEXT: {{^}}12 12 13 13 14 14 15 15{{$}}
// CHECK-NEXT: {{^}}16 16 17 17 18 18 19 19{{$}}
// CHECK-NEXT: {{^}}20 20 21 21 22 22 23 23{{$}}
// CHECK-NEXT: {{^}}24 24 25 25 26 26 27 27{{$}}
// CHECK-NEXT: {{^}}28 28 29 29 30 30 31 31{{$}}
// CHECK-LABEL: tt.func @mma_v2_accumulator

// -----

// Four warps tile the accumulator: mma v2 places warps along N first
// (warp 1 at columns 8..15), mma v3 along M (warp w at rows 16w..16w+15,
// each warp repeating the 16x8 pattern along its N = 16 columns).

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#mma3 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 16, 16]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mma_warps() {
    %v2 = arith.constant dense<0.000000e+00> : tensor<32x16xf32, #mma>
    %v3 = arith.constant dense<0.000000e+00> : tensor<64x16xf32, #mma3>
    tt.return
  }
}

// CHECK-LABEL: layout of arith.constant result #0: tensor<32x16xf32, #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>
// CHECK-NEXT: elems per thread: 4
// CHECK-NEXT: bases: register: {{\[}}[0,1], [8,0]]
// CHECK-NEXT: lane: {{\[}}[0,2], [0,4], [1,0], [2,0], [4,0]]
// CHECK-NEXT: warp: {{\[}}[0,8], [16,0]]
// CHECK-NEXT: shape: [32,16]
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}0 0 1 1 2 2 3 3 32 32 33 33 34 34 35 35{{$}}
// CHECK: {{^}}64 64 65 65 66 66 67 67 96 96 97 97 98 98 99 99{{$}}
// CHECK-LABEL: layout of arith.constant result #0: tensor<64x16xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 16, 16]}>>
// CHECK-NEXT: elems per thread: 8
// CHECK-NEXT: bases: register: {{\[}}[0,1], [8,0], [0,8]]
// CHECK-NEXT: lane: {{\[}}[0,2], [0,4], [1,0], [2,0], [4,0]]
// CHECK-NEXT: warp: {{\[}}[16,0], [32,0]]
// CHECK-NEXT: shape: [64,16]
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}0 0 1 1 2 2 3 3 0 0 1 1 2 2 3 3{{$}}
// CHECK: {{^}}32 32 33 33 34 34 35 35 32 32 33 33 34 34 35 35{{$}}
// CHECK: {{^}}64 64 65 65 66 66 67 67 64 64 65 65 66 66 67 67{{$}}
// CHECK: {{^}}96 96 97 97 98 98 99 99 96 96 97 97 98 98 99 99{{$}}
// CHECK-LABEL: tt.func @mma_warps

// -----

// The A (16x16) and B (16x8) operands of one m16n8k16 mma.sync over one warp,
// fp16 (kWidth 2).  A: lane l holds rows l/4 and l/4 + 8 at columns
// 2*(l%4), +1 and the same 8 columns further.  B: lane l holds column l/4 at
// rows 2*(l%4), +1, +8, +9.

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @dot_operands() {
    %a = arith.constant dense<0.000000e+00> : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %b = arith.constant dense<0.000000e+00> : tensor<16x8xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    tt.return
  }
}

// CHECK-LABEL: layout of arith.constant result #0: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>, kWidth = 2}>>
// CHECK-NEXT: elems per thread: 8
// CHECK-NEXT: bases: register: {{\[}}[0,1], [8,0], [0,8]]
// CHECK-NEXT: lane: {{\[}}[0,2], [0,4], [1,0], [2,0], [4,0]]
// CHECK-NEXT: warp: []
// CHECK-NEXT: shape: [16,16]
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}0 0 1 1 2 2 3 3 0 0 1 1 2 2 3 3{{$}}
// CHECK-NEXT: {{^}}4 4 5 5 6 6 7 7 4 4 5 5 6 6 7 7{{$}}
// CHECK-NEXT: {{^}}8 8 9 9 10 10 11 11 8 8 9 9 10 10 11 11{{$}}
// CHECK-NEXT: {{^}}12 12 13 13 14 14 15 15 12 12 13 13 14 14 15 15{{$}}
// CHECK-NEXT: {{^}}16 16 17 17 18 18 19 19 16 16 17 17 18 18 19 19{{$}}
// CHECK-NEXT: {{^}}20 20 21 21 22 22 23 23 20 20 21 21 22 22 23 23{{$}}
// CHECK-NEXT: {{^}}24 24 25 25 26 26 27 27 24 24 25 25 26 26 27 27{{$}}
// CHECK-NEXT: {{^}}28 28 29 29 30 30 31 31 28 28 29 29 30 30 31 31{{$}}
// CHECK-NEXT: {{^}}0 0 1 1 2 2 3 3 0 0 1 1 2 2 3 3{{$}}
// CHECK-NEXT: {{^}}4 4 5 5 6 6 7 7 4 4 5 5 6 6 7 7{{$}}
// CHECK-NEXT: {{^}}8 8 9 9 10 10 11 11 8 8 9 9 10 10 11 11{{$}}
// CHECK-NEXT: {{^}}12 12 13 13 14 14 15 15 12 12 13 13 14 14 15 15{{$}}
// CHECK-NEXT: {{^}}16 16 17 17 18 18 19 19 16 16 17 17 18 18 19 19{{$}}
// CHECK-NEXT: {{^}}20 20 21 21 22 22 23 23 20 20 21 21 22 22 23 23{{$}}
// CHECK-NEXT: {{^}}24 24 25 25 26 26 27 27 24 24 25 25 26 26 27 27{{$}}
// CHECK-NEXT: {{^}}28 28 29 29 30 30 31 31 28 28 29 29 30 30 31 31{{$}}
// CHECK-LABEL: layout of arith.constant result #0: tensor<16x8xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>, kWidth = 2}>>
// CHECK-NEXT: elems per thread: 4
// CHECK-NEXT: bases: register: {{\[}}[1,0], [8,0]]
// CHECK-NEXT: lane: {{\[}}[2,0], [4,0], [0,1], [0,2], [0,4]]
// CHECK-NEXT: warp: []
// CHECK-NEXT: shape: [16,8]
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}0 4 8 12 16 20 24 28{{$}}
// CHECK-NEXT: {{^}}0 4 8 12 16 20 24 28{{$}}
// CHECK-NEXT: {{^}}1 5 9 13 17 21 25 29{{$}}
// CHECK-NEXT: {{^}}1 5 9 13 17 21 25 29{{$}}
// CHECK-NEXT: {{^}}2 6 10 14 18 22 26 30{{$}}
// CHECK-NEXT: {{^}}2 6 10 14 18 22 26 30{{$}}
// CHECK-NEXT: {{^}}3 7 11 15 19 23 27 31{{$}}
// CHECK-NEXT: {{^}}3 7 11 15 19 23 27 31{{$}}
// CHECK-NEXT: {{^}}0 4 8 12 16 20 24 28{{$}}
// CHECK-NEXT: {{^}}0 4 8 12 16 20 24 28{{$}}
// CHECK-NEXT: {{^}}1 5 9 13 17 21 25 29{{$}}
// CHECK-NEXT: {{^}}1 5 9 13 17 21 25 29{{$}}
// CHECK-NEXT: {{^}}2 6 10 14 18 22 26 30{{$}}
// CHECK-NEXT: {{^}}2 6 10 14 18 22 26 30{{$}}
// CHECK-NEXT: {{^}}3 7 11 15 19 23 27 31{{$}}
// CHECK-NEXT: {{^}}3 7 11 15 19 23 27 31{{$}}
// CHECK-LABEL: tt.func @dot_operands

// -----

// An A operand over a 2x2 warp grid: the two warps along N (0 and 1, 2 and 3)
// need the same rows of A and hold identical copies; warps along M split the
// rows (warps 2 and 3 from row 16).

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @dot_operand_warps() {
    %a = arith.constant dense<0.000000e+00> : tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    tt.return
  }
}

// CHECK-LABEL: layout of arith.constant result #0: tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>>
// CHECK-NEXT: elems per thread: 8
// CHECK-NEXT: bases: register: {{\[}}[0,1], [8,0], [0,8]]
// CHECK-NEXT: lane: {{\[}}[0,2], [0,4], [1,0], [2,0], [4,0]]
// CHECK-NEXT: warp: {{\[}}[0,0], [16,0]]
// CHECK-NEXT: shape: [32,16]
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}0/32 0/32 1/33 1/33 2/34 2/34 3/35 3/35 0/32 0/32 1/33 1/33 2/34 2/34 3/35 3/35{{$}}
// CHECK: {{^}}64/96 64/96 65/97 65/97 66/98 66/98 67/99 67/99 64/96 64/96 65/97 65/97 66/98 66/98 67/99 67/99{{$}}
// CHECK-LABEL: tt.func @dot_operand_warps

// -----

// #ttg.linear gives the bases themselves: these are the 16x16 blocked
// layout's above, so the 16x16 tensor is held the same way.  A 32x16 tensor
// repeats the 16x16 tile in one more register (the basis [16,0]); a 8x16
// tensor wraps (rows 8-15 fold onto 0-7: lane basis [8,0] becomes [0,0]).

#linear = #ttg.linear<{register=[[0, 1], [1, 0]], lane=[[0, 2], [0, 4], [2, 0], [4, 0], [8, 0]], warp=[[0, 8]], block=[]}>
module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @linear_16x16() {
    %0 = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #linear>
    %1 = arith.constant dense<0.000000e+00> : tensor<32x16xf32, #linear>
    %2 = arith.constant dense<0.000000e+00> : tensor<8x16xf32, #linear>
    tt.return
  }
}

// CHECK-LABEL: layout of arith.constant result #0: tensor<16x16xf32, #ttg.linear<{register = {{\[}}[0, 1], [1, 0]], lane = {{\[}}[0, 2], [0, 4], [2, 0], [4, 0], [8, 0]], warp = {{\[}}[0, 8]], block = []}>>
// CHECK-NEXT: elems per thread: 4
// CHECK-NEXT: bases: register: {{\[}}[0,1], [1,0]]
// CHECK-NEXT: lane: {{\[}}[0,2], [0,4], [2,0], [4,0], [8,0]]
// CHECK-NEXT: warp: {{\[}}[0,8]]
// CHECK-NEXT: shape: [16,16]
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}0 0 1 1 2 2 3 3 32 32 33 33 34 34 35 35{{$}}
// CHECK-NEXT: {{^}}0 0 1 1 2 2 3 3 32 32 33 33 34 34 35 35{{$}}
// CHECK-NEXT: {{^}}4 4 5 5 6 6 7 7 36 36 37 37 38 38 39 39{{$}}

// CHECK-LABEL: layout of arith.constant result #0: tensor<32x16xf32
// CHECK-NEXT: elems per thread: 8
// CHECK-NEXT: bases: register: {{\[}}[0,1], [1,0], [16,0]]
// CHECK-NEXT: lane: {{\[}}[0,2], [0,4], [2,0], [4,0], [8,0]]
// CHECK-NEXT: warp: {{\[}}[0,8]]
// CHECK-NEXT: shape: [32,16]

// CHECK-LABEL: layout of arith.constant result #0: tensor<8x16xf32
// CHECK-NEXT: elems per thread: 4
// CHECK-NEXT: bases: register: {{\[}}[0,1], [1,0]]
// CHECK-NEXT: lane: {{\[}}[0,2], [0,4], [2,0], [4,0], [0,0]]
// CHECK-NEXT: warp: {{\[}}[0,8]]
// CHECK-NEXT: shape: [8,16]
