// RUN: tritium-opt %s -split-input-file -ttg-pipeline=num-stages=3 | FileCheck %s

// The loads of a matmul loop feed only shared operands of a warpgroup dot:
// they become async copies into two rings of 3 buffers, the first 2
// iterations' copies are issued before the loop (each masked by whether its
// iteration exists), and each iteration waits for its own group (1 may stay
// in flight), computes on ring[extract], then issues the copies of
// iteration i + 2 into ring[insert].  The dot only accumulates, so it runs
// asynchronously: the loop waits for the previous iteration's MMAs only.
// CHECK-LABEL: tt.func @matmul_loop
// CHECK: %[[RA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #nvmma, #smem, mutable>
// CHECK: %[[RB:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #nvmma, #smem, mutable>
// CHECK: arith.cmpi slt
// CHECK: ttg.memdesc_index %[[RA]][%{{.*}}]
// CHECK: ttg.async_copy_global_to_local
// CHECK: ttg.async_copy_global_to_local
// CHECK: ttg.async_commit_group
// CHECK: ttg.async_copy_global_to_local
// CHECK: ttg.async_copy_global_to_local
// CHECK: ttg.async_commit_group
// CHECK: %[[LOOP:[^ ]*]]:5 = scf.for {{.*}} iter_args(%[[ACC:[^ ]*]] = %{{[^ ]*}}, %{{[^ ]*}} = %{{[^ ]*}}, %{{[^ ]*}} = %{{[^ ]*}}, %[[IN:[^ ]*]] = %c2_i32, %[[OUT:[^ ]*]] = %c0_i32{{[_0-9]*}})
// CHECK:   ttg.async_wait {num = 1 : i32}
// CHECK:   %[[A:.*]] = ttg.memdesc_index %[[RA]][%[[OUT]]]
// CHECK:   %[[B:.*]] = ttg.memdesc_index %[[RB]][%[[OUT]]]
// CHECK:   %[[D:.*]] = ttg.warp_group_dot %[[A]], %[[B]], %[[ACC]] {isAsync}
// CHECK:   %[[W:.*]] = ttg.warp_group_dot_wait %[[D]] {pendings = 1 : i32}
// CHECK:   ttg.memdesc_index %[[RA]][%[[IN]]]
// CHECK:   ttg.async_copy_global_to_local
// CHECK:   ttg.async_copy_global_to_local
// CHECK:   ttg.async_commit_group
// CHECK:   scf.yield %[[W]],
// CHECK: %[[LAST:.*]] = ttg.warp_group_dot_wait %[[LOOP]]#0 {pendings = 0 : i32}
// CHECK: ttg.async_wait {num = 0 : i32}
// CHECK: tt.return %[[LAST]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #ttg.slice<{dim = 0, parent = #blocked}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @matmul_loop(%base: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #slice>
    %re = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
    %rb = tt.broadcast %re : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %bs = tt.splat %base : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %p = tt.addptr %bs, %rb : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %p, %pb = %p) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>) : i32 {
      %a = tt.load %pa : tensor<64x64x!tt.ptr<f16>, #blocked>
      %b = tt.load %pb : tensor<64x64x!tt.ptr<f16>, #blocked>
      %as = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      %bs2 = ttg.local_alloc %b : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      %d = ttg.warp_group_dot %as, %bs2, %acc : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
      %pa2 = tt.addptr %pa, %step : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %pb2 = tt.addptr %pb, %step : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %d, %pa2, %pb2 : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>
    }
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// A load whose masked-out elements are not zero cannot be an async copy
// (cp.async zero-fills): the loop stays as it is.
// CHECK-LABEL: tt.func @nonzero_other
// CHECK-NOT: ttg.async_copy_global_to_local
// CHECK: tt.load
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #ttg.slice<{dim = 0, parent = #blocked}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @nonzero_other(%base: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32, %m: tensor<64x64xi1, #blocked>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %one = arith.constant dense<1.0> : tensor<64x64xf16, #blocked>
    %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #slice>
    %re = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
    %rb = tt.broadcast %re : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %bs = tt.splat %base : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %p = tt.addptr %bs, %rb : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = tt.load %p, %m, %one : tensor<64x64x!tt.ptr<f16>, #blocked>
      %as = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      %d = ttg.warp_group_dot %as, %as, %acc : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %res : tensor<64x64xf32, #mma>
  }
}
