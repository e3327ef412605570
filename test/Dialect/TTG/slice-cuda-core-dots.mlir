// RUN: tritium-opt %s -split-input-file -ttg-slice-cuda-core-dots="min-operand-registers=0" | FileCheck %s
// RUN: tritium-opt %s -split-input-file -ttg-slice-cuda-core-dots | FileCheck %s --check-prefix=DEFAULT

// A CUDA-core dot on two tiles loaded whole becomes a chain of dots over
// K slices of 4, each slice's operands loaded right before its dot.
// CHECK-LABEL: tt.func @sliced
// CHECK-NOT: tt.dot
// CHECK: %[[VA0:.*]] = ttg.memdesc_subslice %arg0 [0, 0] : !ttg.memdesc<32x8xf32, #shared, #smem> -> !ttg.memdesc<32x4xf32, #shared, #smem, 32x8>
// CHECK: %[[A0:.*]] = ttg.local_load %[[VA0]] : !ttg.memdesc<32x4xf32, #shared, #smem, 32x8> -> tensor<32x4xf32, #dot_op>
// CHECK: %[[VB0:.*]] = ttg.memdesc_subslice %arg1 [0, 0] : !ttg.memdesc<8x32xf32, #shared, #smem> -> !ttg.memdesc<4x32xf32, #shared, #smem, 8x32>
// CHECK: %[[B0:.*]] = ttg.local_load %[[VB0]]
// CHECK: %[[D0:.*]] = tt.dot %[[A0]], %[[B0]], %arg2 : tensor<32x4xf32, #dot_op> * tensor<4x32xf32, #dot_op1> -> tensor<32x32xf32, #blocked>
// CHECK: ttg.memdesc_subslice %arg0 [0, 4]
// CHECK: ttg.local_load
// CHECK: ttg.memdesc_subslice %arg1 [4, 0]
// CHECK: ttg.local_load
// CHECK: %[[D1:.*]] = tt.dot %{{.*}}, %{{.*}}, %[[D0]]
// CHECK-NOT: tt.dot
// CHECK: tt.return %[[D1]]
#acc = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#db = #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @sliced(%ta: !ttg.memdesc<32x8xf32, #shared, #smem>, %tb: !ttg.memdesc<8x32xf32, #shared, #smem>, %c: tensor<32x32xf32, #acc>) -> tensor<32x32xf32, #acc> {
    %a = ttg.local_load %ta : !ttg.memdesc<32x8xf32, #shared, #smem> -> tensor<32x8xf32, #da>
    %b = ttg.local_load %tb : !ttg.memdesc<8x32xf32, #shared, #smem> -> tensor<8x32xf32, #db>
    %d = tt.dot %a, %b, %c : tensor<32x8xf32, #da> * tensor<8x32xf32, #db> -> tensor<32x32xf32, #acc>
    tt.return %d : tensor<32x32xf32, #acc>
  }
}

// -----

// The element-wise casts between a tile's load and the dot are applied to
// each slice.
// CHECK-LABEL: tt.func @casts
// CHECK-COUNT-2: ttg.local_load {{.*}} -> tensor<32x4xf16, #dot_op>
// CHECK-NOT: ttg.local_load {{.*}} -> tensor<32x8xf16
// CHECK-LABEL: tt.func @casts_order
// CHECK: ttg.local_load {{.*}} -> tensor<32x4xf16, #dot_op>
// CHECK-NEXT: arith.extf {{.*}} : tensor<32x4xf16, #dot_op> to tensor<32x4xf32, #dot_op>
// CHECK: ttg.local_load {{.*}} -> tensor<4x32xf16, #dot_op1>
// CHECK-NEXT: arith.extf {{.*}} : tensor<4x32xf16, #dot_op1> to tensor<4x32xf32, #dot_op1>
// CHECK-NEXT: tt.dot {{.*}} : tensor<32x4xf32, #dot_op> * tensor<4x32xf32, #dot_op1>
#acc = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#db = #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @casts(%ta: !ttg.memdesc<32x8xf16, #shared, #smem>, %tb: !ttg.memdesc<8x32xf16, #shared, #smem>, %c: tensor<32x32xf32, #acc>) -> tensor<32x32xf32, #acc> {
    %a = ttg.local_load %ta : !ttg.memdesc<32x8xf16, #shared, #smem> -> tensor<32x8xf16, #da>
    %b = ttg.local_load %tb : !ttg.memdesc<8x32xf16, #shared, #smem> -> tensor<8x32xf16, #db>
    %ea = arith.extf %a : tensor<32x8xf16, #da> to tensor<32x8xf32, #da>
    %eb = arith.extf %b : tensor<8x32xf16, #db> to tensor<8x32xf32, #db>
    %d = tt.dot %ea, %eb, %c : tensor<32x8xf32, #da> * tensor<8x32xf32, #db> -> tensor<32x32xf32, #acc>
    tt.return %d : tensor<32x32xf32, #acc>
  }
  tt.func @casts_order(%ta: !ttg.memdesc<32x8xf16, #shared, #smem>, %tb: !ttg.memdesc<8x32xf16, #shared, #smem>, %c: tensor<32x32xf32, #acc>) -> tensor<32x32xf32, #acc> {
    %a = ttg.local_load %ta : !ttg.memdesc<32x8xf16, #shared, #smem> -> tensor<32x8xf16, #da>
    %ea = arith.extf %a : tensor<32x8xf16, #da> to tensor<32x8xf32, #da>
    %b = ttg.local_load %tb : !ttg.memdesc<8x32xf16, #shared, #smem> -> tensor<8x32xf16, #db>
    %eb = arith.extf %b : tensor<8x32xf16, #db> to tensor<8x32xf32, #db>
    %d = tt.dot %ea, %eb, %c : tensor<32x8xf32, #da> * tensor<8x32xf32, #db> -> tensor<32x32xf32, #acc>
    tt.return %d : tensor<32x32xf32, #acc>
  }
}

// -----

// Left alone: a store to shared memory between the loads and the dot (the
// slices would read what it wrote), an operand with another user, and K
// no larger than a slice.
// CHECK-LABEL: tt.func @store_between
// CHECK: ttg.local_load {{.*}} -> tensor<32x8xf32
// CHECK: ttg.local_store
// CHECK: tt.dot {{.*}} : tensor<32x8xf32
// CHECK-LABEL: tt.func @shared_operand
// CHECK: tt.dot {{.*}} : tensor<32x8xf32
// CHECK-LABEL: tt.func @k_of_one_slice
// CHECK-NOT: ttg.memdesc_subslice
// CHECK: tt.dot {{.*}} : tensor<32x4xf32
#acc = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#db = #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @store_between(%ta: !ttg.memdesc<32x8xf32, #shared, #smem, mutable>, %tb: !ttg.memdesc<8x32xf32, #shared, #smem>, %c: tensor<32x32xf32, #acc>, %x: tensor<32x8xf32, #acc>) -> tensor<32x32xf32, #acc> {
    %a = ttg.local_load %ta : !ttg.memdesc<32x8xf32, #shared, #smem, mutable> -> tensor<32x8xf32, #da>
    %b = ttg.local_load %tb : !ttg.memdesc<8x32xf32, #shared, #smem> -> tensor<8x32xf32, #db>
    ttg.local_store %x, %ta : tensor<32x8xf32, #acc> -> !ttg.memdesc<32x8xf32, #shared, #smem, mutable>
    %d = tt.dot %a, %b, %c : tensor<32x8xf32, #da> * tensor<8x32xf32, #db> -> tensor<32x32xf32, #acc>
    tt.return %d : tensor<32x32xf32, #acc>
  }
  tt.func @shared_operand(%ta: !ttg.memdesc<32x8xf32, #shared, #smem>, %tb: !ttg.memdesc<8x32xf32, #shared, #smem>, %c: tensor<32x32xf32, #acc>) -> (tensor<32x32xf32, #acc>, tensor<32x8xf32, #da>) {
    %a = ttg.local_load %ta : !ttg.memdesc<32x8xf32, #shared, #smem> -> tensor<32x8xf32, #da>
    %b = ttg.local_load %tb : !ttg.memdesc<8x32xf32, #shared, #smem> -> tensor<8x32xf32, #db>
    %d = tt.dot %a, %b, %c : tensor<32x8xf32, #da> * tensor<8x32xf32, #db> -> tensor<32x32xf32, #acc>
    tt.return %d, %a : tensor<32x32xf32, #acc>, tensor<32x8xf32, #da>
  }
  tt.func @k_of_one_slice(%ta: !ttg.memdesc<32x4xf32, #shared, #smem>, %tb: !ttg.memdesc<4x32xf32, #shared, #smem>, %c: tensor<32x32xf32, #acc>) -> tensor<32x32xf32, #acc> {
    %a = ttg.local_load %ta : !ttg.memdesc<32x4xf32, #shared, #smem> -> tensor<32x4xf32, #da>
    %b = ttg.local_load %tb : !ttg.memdesc<4x32xf32, #shared, #smem> -> tensor<4x32xf32, #db>
    %d = tt.dot %a, %b, %c : tensor<32x4xf32, #da> * tensor<4x32xf32, #db> -> tensor<32x32xf32, #acc>
    tt.return %d : tensor<32x32xf32, #acc>
  }
}

// -----

// By default only dots whose operands, whole K, take a thread at least 512
// registers are sliced: here 4 rows of A and 4 columns of B per thread,
// 8 * 64 = 512 at K = 64 (sliced), 8 * 32 = 256 at K = 32 (left whole).
// DEFAULT-LABEL: tt.func @at_threshold
// DEFAULT-COUNT-16: tt.dot {{.*}} : tensor<32x4xf32, #dot_op> * tensor<4x16xf32, #dot_op1>
// DEFAULT-NOT: tt.dot
// DEFAULT-LABEL: tt.func @below_threshold
// DEFAULT: tt.dot {{.*}} : tensor<32x32xf32, #dot_op> * tensor<32x16xf32, #dot_op1>
// DEFAULT-NOT: tt.dot
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#db = #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @at_threshold(%ta: !ttg.memdesc<32x64xf32, #shared, #smem>, %tb: !ttg.memdesc<64x16xf32, #shared, #smem>, %c: tensor<32x16xf32, #acc>) -> tensor<32x16xf32, #acc> {
    %a = ttg.local_load %ta : !ttg.memdesc<32x64xf32, #shared, #smem> -> tensor<32x64xf32, #da>
    %b = ttg.local_load %tb : !ttg.memdesc<64x16xf32, #shared, #smem> -> tensor<64x16xf32, #db>
    %d = tt.dot %a, %b, %c : tensor<32x64xf32, #da> * tensor<64x16xf32, #db> -> tensor<32x16xf32, #acc>
    tt.return %d : tensor<32x16xf32, #acc>
  }
  tt.func @below_threshold(%ta: !ttg.memdesc<32x32xf32, #shared, #smem>, %tb: !ttg.memdesc<32x16xf32, #shared, #smem>, %c: tensor<32x16xf32, #acc>) -> tensor<32x16xf32, #acc> {
    %a = ttg.local_load %ta : !ttg.memdesc<32x32xf32, #shared, #smem> -> tensor<32x32xf32, #da>
    %b = ttg.local_load %tb : !ttg.memdesc<32x16xf32, #shared, #smem> -> tensor<32x16xf32, #db>
    %d = tt.dot %a, %b, %c : tensor<32x32xf32, #da> * tensor<32x16xf32, #db> -> tensor<32x16xf32, #acc>
    tt.return %d : tensor<32x16xf32, #acc>
  }
}
