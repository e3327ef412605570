// RUN: tritium-opt %s -split-input-file -ttg-reorder-instructions | FileCheck %s

// The accumulator's conversion sinks to the store that needs it; a tile's
// local_alloc rises to right after its load.
// CHECK-LABEL: tt.func @epilogue_and_operand
// CHECK: %[[X:.*]] = tt.load %arg1
// CHECK-NEXT: ttg.local_alloc %[[X]]
// CHECK: tt.splat %arg2
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %arg0
// CHECK-NEXT: tt.store %{{.*}}, %[[C]]
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:80"} {
  tt.func @epilogue_and_operand(%acc: tensor<64x64xf32, #mma>, %px: tensor<64x64x!tt.ptr<f16>, #blocked>, %out: !tt.ptr<f32>) {
    %c = ttg.convert_layout %acc : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %x = tt.load %px : tensor<64x64x!tt.ptr<f16>, #blocked>
    %y = arith.addf %x, %x : tensor<64x64xf16, #blocked>
    %s = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.store %p, %c : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A local_load does not move past a store into shared memory; a conversion
// used inside a loop stops right before the loop.
// CHECK-LABEL: tt.func @stays
// CHECK: %[[L:.*]] = ttg.local_load %arg0
// CHECK-NEXT: ttg.local_store %arg1, %arg0
// CHECK: %[[C:.*]] = ttg.convert_layout %arg2
// CHECK-NEXT: scf.for
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:80"} {
  tt.func @stays(%m: !ttg.memdesc<64x64xf32, #shared, #smem, mutable>, %v: tensor<64x64xf32, #blocked>,
                 %w: tensor<64x64xf32, #blocked>, %p: tensor<64x64x!tt.ptr<f32>, #blocked1>, %n: i32) {
    %l = ttg.local_load %m : !ttg.memdesc<64x64xf32, #shared, #smem, mutable> -> tensor<64x64xf32, #blocked>
    %c = ttg.convert_layout %w : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    ttg.local_store %v, %m : tensor<64x64xf32, #blocked> -> !ttg.memdesc<64x64xf32, #shared, #smem, mutable>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      tt.store %p, %c : tensor<64x64x!tt.ptr<f32>, #blocked1>
    }
    %q = arith.addf %l, %l : tensor<64x64xf32, #blocked>
    tt.return
  }
}

// -----

// An immutable tile of a tensor defined before the loops leaves them (stored
// once, not every iteration), and two such tiles of one tensor become one.
// CHECK-LABEL: tt.func @invariant_tile
// CHECK: %[[T:.*]] = ttg.local_alloc %arg0
// CHECK-NOT: ttg.local_alloc
// CHECK: scf.for
// CHECK: ttg.local_load %[[T]]
// CHECK: scf.for
// CHECK: ttg.local_load %[[T]]
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @invariant_tile(%q: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %t = ttg.local_alloc %q : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      %l = ttg.local_load %t : !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf16, #blocked>
      tt.store %p, %l : tensor<64x64x!tt.ptr<f16>, #blocked>
    }
    scf.for %i = %c0 to %n step %c1 : i32 {
      %t = ttg.local_alloc %q : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      %l = ttg.local_load %t : !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf16, #blocked>
      tt.store %p, %l : tensor<64x64x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}

// -----

// A norm's backward row: dW's update (dw + dy * x) does not depend on the
// row's sum and is the last use of x and of dW's old value, so it moves
// above the reduction (x and the old dW no longer live across it, the new
// dW does).  dz = dy * z alone would trade z for dz (dy is read after the
// sum anyway), so it stays; so does the work that reads the sum.
// CHECK-LABEL: tt.func @independent_work_above_a_reduction
// CHECK: %[[P:.*]] = arith.mulf %[[X:.*]], %[[W:.*]] : tensor<256xf32, #blocked>
// CHECK: %[[U:.*]] = arith.mulf %[[DY:.*]], %[[X]] : tensor<256xf32, #blocked>
// CHECK: %[[DW:.*]] = arith.addf %{{.*}}, %[[U]] : tensor<256xf32, #blocked>
// CHECK: "tt.reduce"(%[[P]])
// CHECK: tt.splat
// CHECK: arith.mulf %[[DY]], %{{.*}} : tensor<256xf32, #blocked>
// CHECK: arith.mulf %[[DY]], %{{.*}} : tensor<256xf32, #blocked>
// CHECK: tt.return %[[DW]]
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @independent_work_above_a_reduction(%x: tensor<256xf32, #blocked>, %w: tensor<256xf32, #blocked>,
                                              %dy: tensor<256xf32, #blocked>, %z: tensor<256xf32, #blocked>,
                                              %dw0: tensor<256xf32, #blocked>)
      -> (tensor<256xf32, #blocked>, tensor<256xf32, #blocked>, tensor<256xf32, #blocked>) {
    %p = arith.mulf %x, %w : tensor<256xf32, #blocked>
    %s = "tt.reduce"(%p) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<256xf32, #blocked>) -> f32
    %ss = tt.splat %s : f32 -> tensor<256xf32, #blocked>
    %dx = arith.mulf %dy, %ss : tensor<256xf32, #blocked>
    %u = arith.mulf %dy, %x : tensor<256xf32, #blocked>
    %dw = arith.addf %dw0, %u : tensor<256xf32, #blocked>
    %dz = arith.mulf %dy, %z : tensor<256xf32, #blocked>
    tt.return %dw, %dx, %dz : tensor<256xf32, #blocked>, tensor<256xf32, #blocked>, tensor<256xf32, #blocked>
  }
}

// -----

// Two products that each only trade one tensor for another, joined by a sum
// that frees both: one chain, which moves above the reduction whole.
// CHECK-LABEL: tt.func @chains_joined_by_a_use_move_together
// CHECK: arith.mulf %[[U:.*]], %[[U]]
// CHECK: arith.mulf %[[V:.*]], %[[V]]
// CHECK: %[[Z:.*]] = arith.addf
// CHECK: "tt.reduce"
// CHECK: tt.return %[[Z]]
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @chains_joined_by_a_use_move_together(%p: tensor<256xf32, #blocked>, %u: tensor<256xf32, #blocked>,
                                                %v: tensor<256xf32, #blocked>) -> (tensor<256xf32, #blocked>, f32) {
    %s = "tt.reduce"(%p) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<256xf32, #blocked>) -> f32
    %x = arith.mulf %u, %u : tensor<256xf32, #blocked>
    %y = arith.mulf %v, %v : tensor<256xf32, #blocked>
    %z = arith.addf %x, %y : tensor<256xf32, #blocked>
    tt.return %z, %s : tensor<256xf32, #blocked>, f32
  }
}
