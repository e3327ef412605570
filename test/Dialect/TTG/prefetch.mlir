// RUN: tritium-opt %s -split-input-file -ttg-prefetch | FileCheck %s

// A pipelined mma.sync loop: the dot on 32 of K becomes two dots on 16-wide
// slices; slice 0 comes from registers the loop carries (read before the
// loop for the first slot, at the end of the body for the next slot, each
// after the loop's wait), slice 1 is read from the slot in the body.
// CHECK-LABEL: tt.func @pipelined
// CHECK: ttg.async_wait {num = 1 : i32}
// CHECK: %[[VA0:.*]] = ttg.memdesc_index %arg0[%c0_i32]
// CHECK: %[[SA0:.*]] = ttg.memdesc_subslice %[[VA0]] [0, 0] : {{.*}} -> !ttg.memdesc<64x16xf16
// CHECK: %[[A0:.*]] = ttg.local_load %[[SA0]]
// CHECK: %[[B0:.*]] = ttg.local_load
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %arg2, %[[SLOT:.*]] = %c0_i32, %[[CA:.*]] = %[[A0]], %[[CB:.*]] = %[[B0]])
// CHECK-NEXT: ttg.async_wait {num = 1 : i32}
// CHECK: %[[VA:.*]] = ttg.memdesc_index %arg0[%[[SLOT]]]
// CHECK: %[[D0:.*]] = tt.dot %[[CA]], %[[CB]], %[[ACC]] : tensor<64x16xf16
// CHECK: %[[SA1:.*]] = ttg.memdesc_subslice %[[VA]] [0, 16]
// CHECK: %[[A1:.*]] = ttg.local_load %[[SA1]]
// CHECK: %[[SB1:.*]] = ttg.memdesc_subslice %{{.*}} [16, 0]
// CHECK: %[[B1:.*]] = ttg.local_load %[[SB1]]
// CHECK: %[[D1:.*]] = tt.dot %[[A1]], %[[B1]], %[[D0]]
// CHECK: %[[NEXT:.*]] = arith.select
// CHECK: ttg.async_wait {num = 1 : i32}
// CHECK: ttg.memdesc_index %arg0[%[[NEXT]]]
// CHECK: %[[NA:.*]] = ttg.local_load
// CHECK: %[[NB:.*]] = ttg.local_load
// CHECK: scf.yield %[[D1]], %[[NEXT]], %[[NA]], %[[NB]]
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#db = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 64, elementBitWidth = 16, order = [1, 0]}>
#nvmmb = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:80"} {
  tt.func @pipelined(%ra: !ttg.memdesc<3x64x32xf16, #nvmma, #smem, mutable>, %rb: !ttg.memdesc<3x32x64xf16, #nvmmb, #smem, mutable>,
                     %c: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c, %slot = %c0) -> (tensor<64x64xf32, #mma>, i32) : i32 {
      %w = ttg.async_wait {num = 1 : i32}
      %va = ttg.memdesc_index %ra[%slot] : !ttg.memdesc<3x64x32xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x32xf16, #nvmma, #smem, mutable, 3x64x32>
      %vb = ttg.memdesc_index %rb[%slot] : !ttg.memdesc<3x32x64xf16, #nvmmb, #smem, mutable> -> !ttg.memdesc<32x64xf16, #nvmmb, #smem, mutable, 3x32x64>
      %a = ttg.local_load %va : !ttg.memdesc<64x32xf16, #nvmma, #smem, mutable, 3x64x32> -> tensor<64x32xf16, #da>
      %b = ttg.local_load %vb : !ttg.memdesc<32x64xf16, #nvmmb, #smem, mutable, 3x32x64> -> tensor<32x64xf16, #db>
      %d = tt.dot %a, %b, %acc : tensor<64x32xf16, #da> * tensor<32x64xf16, #db> -> tensor<64x64xf32, #mma>
      %s1 = arith.addi %slot, %c1 : i32
      %wrap = arith.cmpi eq, %s1, %c3 : i32
      %s2 = arith.select %wrap, %c0, %s1 : i32
      scf.yield %d, %s2 : tensor<64x64xf32, #mma>, i32
    }
    tt.return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// Left alone: a loop without the pipeliner's wait, and operands not read
// from ring slots.
// CHECK-LABEL: tt.func @not_pipelined
// CHECK-NOT: ttg.memdesc_subslice
// CHECK: tt.dot {{.*}} : tensor<64x32xf16
// CHECK-NOT: ttg.memdesc_subslice
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#db = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 64, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:80"} {
  tt.func @not_pipelined(%ta: !ttg.memdesc<64x32xf16, #nvmma, #smem>, %b: tensor<32x64xf16, #db>,
                         %c: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = ttg.local_load %ta : !ttg.memdesc<64x32xf16, #nvmma, #smem> -> tensor<64x32xf16, #da>
      %d = tt.dot %a, %b, %acc : tensor<64x32xf16, #da> * tensor<32x64xf16, #db> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}
