// RUN: tritium-opt %s -split-input-file -ttg-cuda-core-dot-operands | FileCheck %s

// Both operands of a CUDA-core dot go to shared tiles where their
// conversions were, and are loaded right before the dot, A first; the
// tiles are row-major swizzled_shared.
// CHECK-LABEL: tt.func @fma_dot
// CHECK: %[[SA:.*]] = ttg.local_alloc %arg0 : (tensor<32x64xf32, #{{.*}}>) -> !ttg.memdesc<32x64xf32, #[[LA:shared[0-9]*]], #smem>
// CHECK: arith.addf
// CHECK: %[[SB:.*]] = ttg.local_alloc %arg1 : (tensor<64x32xf32, #{{.*}}>) -> !ttg.memdesc<64x32xf32, #[[LB:shared[0-9]*]], #smem>
// CHECK-NEXT: %[[A:.*]] = ttg.local_load %[[SA]] : !ttg.memdesc<32x64xf32, #[[LA]], #smem> -> tensor<32x64xf32, #dot_op{{[0-9]*}}>
// CHECK-NEXT: %[[B:.*]] = ttg.local_load %[[SB]] : !ttg.memdesc<64x32xf32, #[[LB]], #smem> -> tensor<64x32xf32, #dot_op{{[0-9]*}}>
// CHECK-NEXT: tt.dot %[[A]], %[[B]], %arg2
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#acc = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#db = #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @fma_dot(%a: tensor<32x64xf32, #blocked>, %b: tensor<64x32xf32, #blocked1>, %c: tensor<32x32xf32, #acc>, %s: f32) -> tensor<32x32xf32, #acc> {
    %ca = ttg.convert_layout %a : tensor<32x64xf32, #blocked> -> tensor<32x64xf32, #da>
    %x = arith.addf %s, %s : f32
    %cb = ttg.convert_layout %b : tensor<64x32xf32, #blocked1> -> tensor<64x32xf32, #db>
    %d = tt.dot %ca, %cb, %c : tensor<32x64xf32, #da> * tensor<64x32xf32, #db> -> tensor<32x32xf32, #acc>
    tt.return %d : tensor<32x32xf32, #acc>
  }
}

// -----

// An operand converted for another user too keeps its conversion (the
// other operand is still staged); two tiles too large for shared memory
// together keep their conversions.
// CHECK-LABEL: tt.func @kept
// CHECK: ttg.convert_layout %arg0
// CHECK-NEXT: ttg.local_alloc %arg1
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: tt.dot
// CHECK-LABEL: tt.func @too_large
// CHECK-COUNT-2: ttg.convert_layout
// CHECK-NOT: ttg.local_alloc
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#acc = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#big = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#db = #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>
#dba = #ttg.dot_op<{opIdx = 0, parent = #big, kWidth = 1}>
#dbb = #ttg.dot_op<{opIdx = 1, parent = #big, kWidth = 1}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @kept(%a: tensor<32x64xf32, #blocked>, %b: tensor<64x32xf32, #blocked1>, %c: tensor<32x32xf32, #acc>) -> (tensor<32x32xf32, #acc>, tensor<32x64xf32, #da>) {
    %ca = ttg.convert_layout %a : tensor<32x64xf32, #blocked> -> tensor<32x64xf32, #da>
    %cb = ttg.convert_layout %b : tensor<64x32xf32, #blocked1> -> tensor<64x32xf32, #db>
    %d = tt.dot %ca, %cb, %c : tensor<32x64xf32, #da> * tensor<64x32xf32, #db> -> tensor<32x32xf32, #acc>
    tt.return %d, %ca : tensor<32x32xf32, #acc>, tensor<32x64xf32, #da>
  }
  tt.func @too_large(%a: tensor<128x128xf32, #blocked>, %b: tensor<128x128xf32, #blocked1>, %c: tensor<128x128xf32, #big>) -> tensor<128x128xf32, #big> {
    %ca = ttg.convert_layout %a : tensor<128x128xf32, #blocked> -> tensor<128x128xf32, #dba>
    %cb = ttg.convert_layout %b : tensor<128x128xf32, #blocked1> -> tensor<128x128xf32, #dbb>
    %d = tt.dot %ca, %cb, %c : tensor<128x128xf32, #dba> * tensor<128x128xf32, #dbb> -> tensor<128x128xf32, #big>
    tt.return %d : tensor<128x128xf32, #big>
  }
}

// -----

// The budget is half of a block's shared memory on the target: two 32 KiB
// tiles are staged on sm_90 and kept as conversions on sm_86 (99 KiB).
// CHECK-LABEL: tt.func @sm86_budget
// CHECK-COUNT-2: ttg.convert_layout
// CHECK-NOT: ttg.local_alloc
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#db = #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:86"} {
  tt.func @sm86_budget(%a: tensor<64x128xf32, #blocked>, %b: tensor<128x64xf32, #blocked1>, %c: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
    %ca = ttg.convert_layout %a : tensor<64x128xf32, #blocked> -> tensor<64x128xf32, #da>
    %cb = ttg.convert_layout %b : tensor<128x64xf32, #blocked1> -> tensor<128x64xf32, #db>
    %d = tt.dot %ca, %cb, %c : tensor<64x128xf32, #da> * tensor<128x64xf32, #db> -> tensor<64x64xf32, #acc>
    tt.return %d : tensor<64x64xf32, #acc>
  }
}

// -----

// CHECK-LABEL: tt.func @sm90_budget
// CHECK-COUNT-2: ttg.local_alloc
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#db = #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @sm90_budget(%a: tensor<64x128xf32, #blocked>, %b: tensor<128x64xf32, #blocked1>, %c: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
    %ca = ttg.convert_layout %a : tensor<64x128xf32, #blocked> -> tensor<64x128xf32, #da>
    %cb = ttg.convert_layout %b : tensor<128x64xf32, #blocked1> -> tensor<128x64xf32, #db>
    %d = tt.dot %ca, %cb, %c : tensor<64x128xf32, #da> * tensor<128x64xf32, #db> -> tensor<64x64xf32, #acc>
    tt.return %d : tensor<64x64xf32, #acc>
  }
}
