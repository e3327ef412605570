// RUN: tritium-opt %s -split-input-file -ttg-prefetch-next-tile | FileCheck %s

// A persistent TMA matmul's tile loop marked tt.flatten: the rings and the
// barrier array move before the loop; the first tile's index arithmetic
// runs before the loop and its barrier inits and prologue copies under
// `scf.if %lb < %ub`; after the K loop's drain (the barriers invalidated),
// the next tile's offsets are computed at `select(%t + %s < %ub, %t + %s,
// %t)` and its inits and copies issued under `scf.if %t + %s < %ub`, before
// this tile's epilogue; the loop carries the offsets and is marked.  The
// epilogue's store and its wait stay as they were (ttg-defer-tma-store-wait
// moves the wait).

// CHECK-LABEL: tt.func public @matmul_tma_persistent
// CHECK: %[[RA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16
// CHECK: %[[RB:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16
// CHECK: %[[BAR:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
// CHECK: %[[FIRST:.*]] = arith.cmpi slt, %[[LB:0]], %[[UB:7]] : i32
// CHECK: scf.if %[[FIRST]] {
// CHECK:   ttg.init_barrier
// CHECK:   ttg.async_tma_copy_global_to_local %arg0[%[[OFF0:[^,]*]],
// CHECK: }
// CHECK: scf.for %[[T:.*]] = %[[LB]] to %[[UB]] step %[[S:[^ ]*]] iter_args(%[[OFF:[^ ]*]] = %[[OFF0]], %{{.*}}) -> (i32, i32)
// CHECK:   scf.for
// CHECK:     ttg.async_tma_copy_global_to_local %arg0[%[[OFF]],
// CHECK:   }
// CHECK:   ttg.inval_barrier
// CHECK:   %[[NEXT:.*]] = arith.addi %[[T]], %[[S]]
// CHECK:   %[[EXISTS:.*]] = arith.cmpi slt, %[[NEXT]], %[[UB]]
// CHECK:   %[[VALID:.*]] = arith.select %[[EXISTS]], %[[NEXT]], %[[T]]
// CHECK:   scf.if %[[EXISTS]] {
// CHECK:     ttg.init_barrier
// CHECK:     ttg.async_tma_copy_global_to_local %arg0[%[[NOFF:[^,]*]],
// CHECK:   }
// CHECK:   %[[TILE:.*]] = ttg.local_alloc %{{.*}} : (tensor<64x64xf16, #mma>)
// CHECK-NEXT: ttg.async_tma_copy_local_to_global %arg12[%[[OFF]], %{{.*}}] %[[TILE]]
// CHECK-NEXT: ttg.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: scf.yield %[[NOFF]], %{{.*}} : i32, i32
// CHECK: } {tt.flatten, ttg.prefetched_next_tile}
// CHECK-NOT: ttg.async_tma_store_wait


#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#nvmma1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @matmul_tma_persistent(%arg0: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i64, %arg5: i64, %arg6: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg7: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg8: i32, %arg9: i32, %arg10: i64, %arg11: i64, %arg12: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg13: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg14: i32, %arg15: i32, %arg16: i64, %arg17: i64, %arg18: i32 {tt.divisibility = 16 : i32}, %arg19: i32 {tt.divisibility = 16 : i32}, %arg20: i32 {tt.divisibility = 16 : i32}) {
    %c63_i32 = arith.constant 63 : i32
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %c132_i32 = arith.constant 132 : i32
    %c8_i32 = arith.constant 8 : i32
    %c64_i32 = arith.constant 64 : i32
    %0 = tt.get_program_id {axis = 0 : i32} : i32
    %1 = arith.addi %arg18, %c63_i32 : i32
    %2 = arith.divsi %1, %c64_i32 : i32
    %3 = arith.addi %arg19, %c63_i32 : i32
    %4 = arith.divsi %3, %c64_i32 : i32
    %5 = arith.addi %arg20, %c63_i32 : i32
    %6 = arith.divsi %5, %c64_i32 : i32
    %7 = arith.muli %2, %4 : i32
    %8 = arith.muli %4, %c8_i32 : i32
    scf.for %arg21 = %0 to %7 step %c132_i32  : i32 {
      %17 = arith.muli %arg21, %c64_i32 : i32
      %18 = arith.addi %17, %c64_i32 : i32
      %19 = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>
      %20 = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>
      %21 = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #shared, #smem, mutable>
      %c0_i32_0 = arith.constant 0 : i32
      %22 = ttg.memdesc_index %21[%c0_i32_0] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      ttg.init_barrier %22, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      %c1_i32_1 = arith.constant 1 : i32
      %23 = ttg.memdesc_index %21[%c1_i32_1] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      ttg.init_barrier %23, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      %c0_i32_2 = arith.constant 0 : i32
      %24 = arith.muli %c1_i32, %c0_i32_2 : i32
      %25 = arith.cmpi slt, %c0_i32, %6 : i32
      %c0_i32_3 = arith.constant 0 : i32
      %26 = ttg.memdesc_index %21[%c0_i32_3] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      ttg.barrier_expect %26, 16384, %25 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      %27 = arith.muli %c0_i32, %c64_i32 : i32
      %28 = ttg.memdesc_index %19[%c0_i32_3] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
      ttg.async_tma_copy_global_to_local %arg0[%17, %27] %28, %26, %25 : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
      %29 = ttg.memdesc_index %20[%c0_i32_3] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
      ttg.async_tma_copy_global_to_local %arg6[%18, %27] %29, %26, %25 : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
      %c1_i32_4 = arith.constant 1 : i32
      %c0_i32_5 = arith.constant 0 : i32
      %c0_i32_6 = arith.constant 0 : i32
      %30:4 = scf.for %arg22 = %c0_i32 to %6 step %c1_i32 iter_args(%arg23 = %cst, %arg24 = %c1_i32_4, %arg25 = %c0_i32_5, %arg26 = %c0_i32_6) -> (tensor<64x64xf32, #mma>, i32, i32, i32)  : i32 {
        %37 = ttg.memdesc_index %21[%arg25] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
        ttg.wait_barrier %37, %arg26 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
        %38 = ttg.memdesc_index %19[%arg25] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        %39 = ttg.memdesc_index %20[%arg25] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        %40 = ttg.memdesc_trans %39 : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64> -> !ttg.memdesc<64x64xf16, #nvmma1, #smem, mutable, 2x64x64>
        %41 = ttg.warp_group_dot %38, %40, %arg23 {isAsync} : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64> * !ttg.memdesc<64x64xf16, #nvmma1, #smem, mutable, 2x64x64> -> tensor<64x64xf32, #mma>
        %42 = ttg.warp_group_dot_wait %41 {pendings = 1 : i32} : tensor<64x64xf32, #mma>
        %c1_i32_9 = arith.constant 1 : i32
        %43 = arith.muli %c1_i32, %c1_i32_9 : i32
        %44 = arith.addi %arg22, %43 : i32
        %45 = arith.cmpi slt, %44, %6 : i32
        %46 = ttg.memdesc_index %21[%arg24] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
        ttg.barrier_expect %46, 16384, %45 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
        %47 = arith.muli %44, %c64_i32 : i32
        %48 = ttg.memdesc_index %19[%arg24] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        ttg.async_tma_copy_global_to_local %arg0[%17, %47] %48, %46, %45 : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        %49 = ttg.memdesc_index %20[%arg24] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        ttg.async_tma_copy_global_to_local %arg6[%18, %47] %49, %46, %45 : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        %c1_i32_10 = arith.constant 1 : i32
        %50 = arith.addi %arg24, %c1_i32_10 : i32
        %c2_i32 = arith.constant 2 : i32
        %51 = arith.cmpi eq, %50, %c2_i32 : i32
        %c0_i32_11 = arith.constant 0 : i32
        %52 = arith.select %51, %c0_i32_11, %50 : i32
        %c1_i32_12 = arith.constant 1 : i32
        %53 = arith.addi %arg25, %c1_i32_12 : i32
        %c2_i32_13 = arith.constant 2 : i32
        %54 = arith.cmpi eq, %53, %c2_i32_13 : i32
        %c0_i32_14 = arith.constant 0 : i32
        %55 = arith.select %54, %c0_i32_14, %53 : i32
        %c0_i32_15 = arith.constant 0 : i32
        %56 = arith.cmpi eq, %55, %c0_i32_15 : i32
        %c1_i32_16 = arith.constant 1 : i32
        %57 = arith.xori %arg26, %c1_i32_16 : i32
        %58 = arith.select %56, %57, %arg26 : i32
        scf.yield %42, %52, %55, %58 : tensor<64x64xf32, #mma>, i32, i32, i32
      }
      %31 = ttg.warp_group_dot_wait %30#0 {pendings = 0 : i32} : tensor<64x64xf32, #mma>
      %c0_i32_7 = arith.constant 0 : i32
      %32 = ttg.memdesc_index %21[%c0_i32_7] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      ttg.inval_barrier %32 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      %c1_i32_8 = arith.constant 1 : i32
      %33 = ttg.memdesc_index %21[%c1_i32_8] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      ttg.inval_barrier %33 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      %34 = arith.truncf %31 : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %36 = ttg.local_alloc %34 : (tensor<64x64xf16, #mma>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      ttg.async_tma_copy_local_to_global %arg12[%17, %18] %36 : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<64x64xf16, #nvmma, #smem>
      ttg.async_tma_store_wait {pendings = 0 : i32}
    } {tt.flatten}
    tt.return
  }
}

// -----

// Without tt.flatten (the user did not ask for tiles to overlap) the loop
// is left alone.

// CHECK-LABEL: tt.func public @not_flattened
// CHECK: scf.for
// CHECK:   ttg.local_alloc : ()
// CHECK:   ttg.init_barrier
// CHECK-NOT: ttg.prefetched_next_tile


#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#nvmma1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @not_flattened(%arg0: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i64, %arg5: i64, %arg6: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg7: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg8: i32, %arg9: i32, %arg10: i64, %arg11: i64, %arg12: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg13: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg14: i32, %arg15: i32, %arg16: i64, %arg17: i64, %arg18: i32 {tt.divisibility = 16 : i32}, %arg19: i32 {tt.divisibility = 16 : i32}, %arg20: i32 {tt.divisibility = 16 : i32}) {
    %c63_i32 = arith.constant 63 : i32
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %c132_i32 = arith.constant 132 : i32
    %c8_i32 = arith.constant 8 : i32
    %c64_i32 = arith.constant 64 : i32
    %0 = tt.get_program_id {axis = 0 : i32} : i32
    %1 = arith.addi %arg18, %c63_i32 : i32
    %2 = arith.divsi %1, %c64_i32 : i32
    %3 = arith.addi %arg19, %c63_i32 : i32
    %4 = arith.divsi %3, %c64_i32 : i32
    %5 = arith.addi %arg20, %c63_i32 : i32
    %6 = arith.divsi %5, %c64_i32 : i32
    %7 = arith.muli %2, %4 : i32
    %8 = arith.muli %4, %c8_i32 : i32
    scf.for %arg21 = %0 to %7 step %c132_i32  : i32 {
      %17 = arith.muli %arg21, %c64_i32 : i32
      %18 = arith.addi %17, %c64_i32 : i32
      %19 = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>
      %20 = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>
      %21 = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #shared, #smem, mutable>
      %c0_i32_0 = arith.constant 0 : i32
      %22 = ttg.memdesc_index %21[%c0_i32_0] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      ttg.init_barrier %22, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      %c1_i32_1 = arith.constant 1 : i32
      %23 = ttg.memdesc_index %21[%c1_i32_1] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      ttg.init_barrier %23, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      %c0_i32_2 = arith.constant 0 : i32
      %24 = arith.muli %c1_i32, %c0_i32_2 : i32
      %25 = arith.cmpi slt, %c0_i32, %6 : i32
      %c0_i32_3 = arith.constant 0 : i32
      %26 = ttg.memdesc_index %21[%c0_i32_3] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      ttg.barrier_expect %26, 16384, %25 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      %27 = arith.muli %c0_i32, %c64_i32 : i32
      %28 = ttg.memdesc_index %19[%c0_i32_3] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
      ttg.async_tma_copy_global_to_local %arg0[%17, %27] %28, %26, %25 : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
      %29 = ttg.memdesc_index %20[%c0_i32_3] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
      ttg.async_tma_copy_global_to_local %arg6[%18, %27] %29, %26, %25 : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
      %c1_i32_4 = arith.constant 1 : i32
      %c0_i32_5 = arith.constant 0 : i32
      %c0_i32_6 = arith.constant 0 : i32
      %30:4 = scf.for %arg22 = %c0_i32 to %6 step %c1_i32 iter_args(%arg23 = %cst, %arg24 = %c1_i32_4, %arg25 = %c0_i32_5, %arg26 = %c0_i32_6) -> (tensor<64x64xf32, #mma>, i32, i32, i32)  : i32 {
        %37 = ttg.memdesc_index %21[%arg25] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
        ttg.wait_barrier %37, %arg26 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
        %38 = ttg.memdesc_index %19[%arg25] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        %39 = ttg.memdesc_index %20[%arg25] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        %40 = ttg.memdesc_trans %39 : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64> -> !ttg.memdesc<64x64xf16, #nvmma1, #smem, mutable, 2x64x64>
        %41 = ttg.warp_group_dot %38, %40, %arg23 {isAsync} : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64> * !ttg.memdesc<64x64xf16, #nvmma1, #smem, mutable, 2x64x64> -> tensor<64x64xf32, #mma>
        %42 = ttg.warp_group_dot_wait %41 {pendings = 1 : i32} : tensor<64x64xf32, #mma>
        %c1_i32_9 = arith.constant 1 : i32
        %43 = arith.muli %c1_i32, %c1_i32_9 : i32
        %44 = arith.addi %arg22, %43 : i32
        %45 = arith.cmpi slt, %44, %6 : i32
        %46 = ttg.memdesc_index %21[%arg24] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
        ttg.barrier_expect %46, 16384, %45 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
        %47 = arith.muli %44, %c64_i32 : i32
        %48 = ttg.memdesc_index %19[%arg24] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        ttg.async_tma_copy_global_to_local %arg0[%17, %47] %48, %46, %45 : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        %49 = ttg.memdesc_index %20[%arg24] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        ttg.async_tma_copy_global_to_local %arg6[%18, %47] %49, %46, %45 : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        %c1_i32_10 = arith.constant 1 : i32
        %50 = arith.addi %arg24, %c1_i32_10 : i32
        %c2_i32 = arith.constant 2 : i32
        %51 = arith.cmpi eq, %50, %c2_i32 : i32
        %c0_i32_11 = arith.constant 0 : i32
        %52 = arith.select %51, %c0_i32_11, %50 : i32
        %c1_i32_12 = arith.constant 1 : i32
        %53 = arith.addi %arg25, %c1_i32_12 : i32
        %c2_i32_13 = arith.constant 2 : i32
        %54 = arith.cmpi eq, %53, %c2_i32_13 : i32
        %c0_i32_14 = arith.constant 0 : i32
        %55 = arith.select %54, %c0_i32_14, %53 : i32
        %c0_i32_15 = arith.constant 0 : i32
        %56 = arith.cmpi eq, %55, %c0_i32_15 : i32
        %c1_i32_16 = arith.constant 1 : i32
        %57 = arith.xori %arg26, %c1_i32_16 : i32
        %58 = arith.select %56, %57, %arg26 : i32
        scf.yield %42, %52, %55, %58 : tensor<64x64xf32, #mma>, i32, i32, i32
      }
      %31 = ttg.warp_group_dot_wait %30#0 {pendings = 0 : i32} : tensor<64x64xf32, #mma>
      %c0_i32_7 = arith.constant 0 : i32
      %32 = ttg.memdesc_index %21[%c0_i32_7] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      ttg.inval_barrier %32 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      %c1_i32_8 = arith.constant 1 : i32
      %33 = ttg.memdesc_index %21[%c1_i32_8] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      ttg.inval_barrier %33 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      %34 = arith.truncf %31 : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %36 = ttg.local_alloc %34 : (tensor<64x64xf16, #mma>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      ttg.async_tma_copy_local_to_global %arg12[%17, %18] %36 : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<64x64xf16, #nvmma, #smem>
      ttg.async_tma_store_wait {pendings = 0 : i32}
    }
    tt.return
  }
}

// -----

// A tile taken from an atomic counter: the copies' coordinates read the
// atomic's result, so the head cannot run a tile ahead: left alone.

// CHECK-LABEL: tt.func public @copy_after_an_atomic
// CHECK: scf.for
// CHECK-NEXT: tt.atomic_rmw
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16
// CHECK: } {tt.flatten}


#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#nvmma1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @copy_after_an_atomic(%arg0: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i64, %arg5: i64, %arg6: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg7: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg8: i32, %arg9: i32, %arg10: i64, %arg11: i64, %arg12: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg13: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg14: i32, %arg15: i32, %arg16: i64, %arg17: i64, %arg18: i32 {tt.divisibility = 16 : i32}, %arg19: i32 {tt.divisibility = 16 : i32}, %arg20: i32 {tt.divisibility = 16 : i32}) {
    %c63_i32 = arith.constant 63 : i32
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %c132_i32 = arith.constant 132 : i32
    %c8_i32 = arith.constant 8 : i32
    %c64_i32 = arith.constant 64 : i32
    %0 = tt.get_program_id {axis = 0 : i32} : i32
    %1 = arith.addi %arg18, %c63_i32 : i32
    %2 = arith.divsi %1, %c64_i32 : i32
    %3 = arith.addi %arg19, %c63_i32 : i32
    %4 = arith.divsi %3, %c64_i32 : i32
    %5 = arith.addi %arg20, %c63_i32 : i32
    %6 = arith.divsi %5, %c64_i32 : i32
    %7 = arith.muli %2, %4 : i32
    %8 = arith.muli %4, %c8_i32 : i32
    scf.for %arg21 = %0 to %7 step %c132_i32  : i32 {
      %ticket = tt.atomic_rmw add, relaxed, gpu, %arg1, %c1_i32 : (!tt.ptr<i32>, i32) -> i32
      %17 = arith.muli %ticket, %c64_i32 : i32
      %18 = arith.addi %17, %c64_i32 : i32
      %19 = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>
      %20 = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>
      %21 = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #shared, #smem, mutable>
      %c0_i32_0 = arith.constant 0 : i32
      %22 = ttg.memdesc_index %21[%c0_i32_0] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      ttg.init_barrier %22, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      %c1_i32_1 = arith.constant 1 : i32
      %23 = ttg.memdesc_index %21[%c1_i32_1] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      ttg.init_barrier %23, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      %c0_i32_2 = arith.constant 0 : i32
      %24 = arith.muli %c1_i32, %c0_i32_2 : i32
      %25 = arith.cmpi slt, %c0_i32, %6 : i32
      %c0_i32_3 = arith.constant 0 : i32
      %26 = ttg.memdesc_index %21[%c0_i32_3] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      ttg.barrier_expect %26, 16384, %25 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      %27 = arith.muli %c0_i32, %c64_i32 : i32
      %28 = ttg.memdesc_index %19[%c0_i32_3] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
      ttg.async_tma_copy_global_to_local %arg0[%17, %27] %28, %26, %25 : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
      %29 = ttg.memdesc_index %20[%c0_i32_3] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
      ttg.async_tma_copy_global_to_local %arg6[%18, %27] %29, %26, %25 : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
      %c1_i32_4 = arith.constant 1 : i32
      %c0_i32_5 = arith.constant 0 : i32
      %c0_i32_6 = arith.constant 0 : i32
      %30:4 = scf.for %arg22 = %c0_i32 to %6 step %c1_i32 iter_args(%arg23 = %cst, %arg24 = %c1_i32_4, %arg25 = %c0_i32_5, %arg26 = %c0_i32_6) -> (tensor<64x64xf32, #mma>, i32, i32, i32)  : i32 {
        %37 = ttg.memdesc_index %21[%arg25] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
        ttg.wait_barrier %37, %arg26 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
        %38 = ttg.memdesc_index %19[%arg25] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        %39 = ttg.memdesc_index %20[%arg25] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        %40 = ttg.memdesc_trans %39 : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64> -> !ttg.memdesc<64x64xf16, #nvmma1, #smem, mutable, 2x64x64>
        %41 = ttg.warp_group_dot %38, %40, %arg23 {isAsync} : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64> * !ttg.memdesc<64x64xf16, #nvmma1, #smem, mutable, 2x64x64> -> tensor<64x64xf32, #mma>
        %42 = ttg.warp_group_dot_wait %41 {pendings = 1 : i32} : tensor<64x64xf32, #mma>
        %c1_i32_9 = arith.constant 1 : i32
        %43 = arith.muli %c1_i32, %c1_i32_9 : i32
        %44 = arith.addi %arg22, %43 : i32
        %45 = arith.cmpi slt, %44, %6 : i32
        %46 = ttg.memdesc_index %21[%arg24] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
        ttg.barrier_expect %46, 16384, %45 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
        %47 = arith.muli %44, %c64_i32 : i32
        %48 = ttg.memdesc_index %19[%arg24] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        ttg.async_tma_copy_global_to_local %arg0[%17, %47] %48, %46, %45 : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        %49 = ttg.memdesc_index %20[%arg24] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        ttg.async_tma_copy_global_to_local %arg6[%18, %47] %49, %46, %45 : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        %c1_i32_10 = arith.constant 1 : i32
        %50 = arith.addi %arg24, %c1_i32_10 : i32
        %c2_i32 = arith.constant 2 : i32
        %51 = arith.cmpi eq, %50, %c2_i32 : i32
        %c0_i32_11 = arith.constant 0 : i32
        %52 = arith.select %51, %c0_i32_11, %50 : i32
        %c1_i32_12 = arith.constant 1 : i32
        %53 = arith.addi %arg25, %c1_i32_12 : i32
        %c2_i32_13 = arith.constant 2 : i32
        %54 = arith.cmpi eq, %53, %c2_i32_13 : i32
        %c0_i32_14 = arith.constant 0 : i32
        %55 = arith.select %54, %c0_i32_14, %53 : i32
        %c0_i32_15 = arith.constant 0 : i32
        %56 = arith.cmpi eq, %55, %c0_i32_15 : i32
        %c1_i32_16 = arith.constant 1 : i32
        %57 = arith.xori %arg26, %c1_i32_16 : i32
        %58 = arith.select %56, %57, %arg26 : i32
        scf.yield %42, %52, %55, %58 : tensor<64x64xf32, #mma>, i32, i32, i32
      }
      %31 = ttg.warp_group_dot_wait %30#0 {pendings = 0 : i32} : tensor<64x64xf32, #mma>
      %c0_i32_7 = arith.constant 0 : i32
      %32 = ttg.memdesc_index %21[%c0_i32_7] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      ttg.inval_barrier %32 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      %c1_i32_8 = arith.constant 1 : i32
      %33 = ttg.memdesc_index %21[%c1_i32_8] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      ttg.inval_barrier %33 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      %34 = arith.truncf %31 : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %36 = ttg.local_alloc %34 : (tensor<64x64xf16, #mma>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      ttg.async_tma_copy_local_to_global %arg12[%17, %18] %36 : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<64x64xf16, #nvmma, #smem>
      ttg.async_tma_store_wait {pendings = 0 : i32}
    } {tt.flatten}
    tt.return
  }
}

// -----

// 128x256 tiles at 4 stages: the rings and the whole output tile do not fit
// in shared memory at once.  Only with the tile stored a slab at a time
// would they (ttg-subtile-tma-store's rewrite, not run here): left alone.

// CHECK-LABEL: tt.func public @matmul_tma_persistent_slabs
// CHECK: scf.for
// CHECK:   ttg.local_alloc : () -> !ttg.memdesc<4x128x64xf16
// CHECK: } {tt.flatten}


#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 8], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 256, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#nvmma1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @matmul_tma_persistent_slabs(%arg0: !tt.tensordesc<tensor<128x64xf16>> {tt.tma_box = array<i32: 128, 64>, tt.tma_swizzle = 128 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i64, %arg5: i64, %arg6: !tt.tensordesc<tensor<256x64xf16>> {tt.tma_box = array<i32: 256, 64>, tt.tma_swizzle = 128 : i32}, %arg7: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg8: i32, %arg9: i32, %arg10: i64, %arg11: i64, %arg12: !tt.tensordesc<tensor<128x256xf16>> {tt.tma_box = array<i32: 128, 64>, tt.tma_swizzle = 128 : i32}, %arg13: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg14: i32, %arg15: i32, %arg16: i64, %arg17: i64, %arg18: i32 {tt.divisibility = 16 : i32}, %arg19: i32 {tt.divisibility = 16 : i32}, %arg20: i32 {tt.divisibility = 16 : i32}) {
    %c63_i32 = arith.constant 63 : i32
    %c255_i32 = arith.constant 255 : i32
    %c127_i32 = arith.constant 127 : i32
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x256xf32, #mma>
    %c132_i32 = arith.constant 132 : i32
    %c8_i32 = arith.constant 8 : i32
    %c64_i32 = arith.constant 64 : i32
    %c256_i32 = arith.constant 256 : i32
    %c128_i32 = arith.constant 128 : i32
    %0 = tt.get_program_id {axis = 0 : i32} : i32
    %1 = arith.addi %arg18, %c127_i32 : i32
    %2 = arith.divsi %1, %c128_i32 : i32
    %3 = arith.addi %arg19, %c255_i32 : i32
    %4 = arith.divsi %3, %c256_i32 : i32
    %5 = arith.addi %arg20, %c63_i32 : i32
    %6 = arith.divsi %5, %c64_i32 : i32
    %7 = arith.muli %2, %4 : i32
    %8 = arith.muli %4, %c8_i32 : i32
    scf.for %arg21 = %0 to %7 step %c132_i32  : i32 {
      %9 = arith.divsi %arg21, %8 : i32
      %10 = arith.muli %9, %c8_i32 : i32
      %11 = arith.subi %2, %10 : i32
      %12 = arith.minsi %11, %c8_i32 : i32
      %13 = arith.remsi %arg21, %12 : i32
      %14 = arith.addi %10, %13 : i32
      %15 = arith.remsi %arg21, %8 : i32
      %16 = arith.divsi %15, %12 : i32
      %17 = arith.muli %14, %c128_i32 : i32
      %18 = arith.muli %16, %c256_i32 : i32
      %19 = ttg.local_alloc : () -> !ttg.memdesc<4x128x64xf16, #nvmma, #smem, mutable>
      %20 = ttg.local_alloc : () -> !ttg.memdesc<4x256x64xf16, #nvmma, #smem, mutable>
      %21 = ttg.local_alloc : () -> !ttg.memdesc<4x1xi64, #shared, #smem, mutable>
      %c0_i32_0 = arith.constant 0 : i32
      %22 = ttg.memdesc_index %21[%c0_i32_0] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      ttg.init_barrier %22, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      %c1_i32_1 = arith.constant 1 : i32
      %23 = ttg.memdesc_index %21[%c1_i32_1] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      ttg.init_barrier %23, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      %c2_i32 = arith.constant 2 : i32
      %24 = ttg.memdesc_index %21[%c2_i32] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      ttg.init_barrier %24, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      %c3_i32 = arith.constant 3 : i32
      %25 = ttg.memdesc_index %21[%c3_i32] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      ttg.init_barrier %25, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      %c0_i32_2 = arith.constant 0 : i32
      %26 = arith.muli %c1_i32, %c0_i32_2 : i32
      %27 = arith.cmpi slt, %c0_i32, %6 : i32
      %c0_i32_3 = arith.constant 0 : i32
      %28 = ttg.memdesc_index %21[%c0_i32_3] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      ttg.barrier_expect %28, 49152, %27 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      %29 = arith.muli %c0_i32, %c64_i32 : i32
      %30 = ttg.memdesc_index %19[%c0_i32_3] : !ttg.memdesc<4x128x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 4x128x64>
      ttg.async_tma_copy_global_to_local %arg0[%17, %29] %30, %28, %27 : !tt.tensordesc<tensor<128x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 4x128x64>
      %31 = ttg.memdesc_index %20[%c0_i32_3] : !ttg.memdesc<4x256x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<256x64xf16, #nvmma, #smem, mutable, 4x256x64>
      ttg.async_tma_copy_global_to_local %arg6[%18, %29] %31, %28, %27 : !tt.tensordesc<tensor<256x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1> -> !ttg.memdesc<256x64xf16, #nvmma, #smem, mutable, 4x256x64>
      %c1_i32_4 = arith.constant 1 : i32
      %32 = arith.muli %c1_i32, %c1_i32_4 : i32
      %33 = arith.addi %c0_i32, %32 : i32
      %34 = arith.cmpi slt, %33, %6 : i32
      %c1_i32_5 = arith.constant 1 : i32
      %35 = ttg.memdesc_index %21[%c1_i32_5] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      ttg.barrier_expect %35, 49152, %34 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      %36 = arith.muli %33, %c64_i32 : i32
      %37 = ttg.memdesc_index %19[%c1_i32_5] : !ttg.memdesc<4x128x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 4x128x64>
      ttg.async_tma_copy_global_to_local %arg0[%17, %36] %37, %35, %34 : !tt.tensordesc<tensor<128x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 4x128x64>
      %38 = ttg.memdesc_index %20[%c1_i32_5] : !ttg.memdesc<4x256x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<256x64xf16, #nvmma, #smem, mutable, 4x256x64>
      ttg.async_tma_copy_global_to_local %arg6[%18, %36] %38, %35, %34 : !tt.tensordesc<tensor<256x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1> -> !ttg.memdesc<256x64xf16, #nvmma, #smem, mutable, 4x256x64>
      %c2_i32_6 = arith.constant 2 : i32
      %39 = arith.muli %c1_i32, %c2_i32_6 : i32
      %40 = arith.addi %c0_i32, %39 : i32
      %41 = arith.cmpi slt, %40, %6 : i32
      %c2_i32_7 = arith.constant 2 : i32
      %42 = ttg.memdesc_index %21[%c2_i32_7] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      ttg.barrier_expect %42, 49152, %41 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      %43 = arith.muli %40, %c64_i32 : i32
      %44 = ttg.memdesc_index %19[%c2_i32_7] : !ttg.memdesc<4x128x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 4x128x64>
      ttg.async_tma_copy_global_to_local %arg0[%17, %43] %44, %42, %41 : !tt.tensordesc<tensor<128x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 4x128x64>
      %45 = ttg.memdesc_index %20[%c2_i32_7] : !ttg.memdesc<4x256x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<256x64xf16, #nvmma, #smem, mutable, 4x256x64>
      ttg.async_tma_copy_global_to_local %arg6[%18, %43] %45, %42, %41 : !tt.tensordesc<tensor<256x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1> -> !ttg.memdesc<256x64xf16, #nvmma, #smem, mutable, 4x256x64>
      %c3_i32_8 = arith.constant 3 : i32
      %c0_i32_9 = arith.constant 0 : i32
      %c0_i32_10 = arith.constant 0 : i32
      %46:4 = scf.for %arg22 = %c0_i32 to %6 step %c1_i32 iter_args(%arg23 = %cst, %arg24 = %c3_i32_8, %arg25 = %c0_i32_9, %arg26 = %c0_i32_10) -> (tensor<128x256xf32, #mma>, i32, i32, i32)  : i32 {
        %55 = ttg.memdesc_index %21[%arg25] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
        ttg.wait_barrier %55, %arg26 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
        %56 = ttg.memdesc_index %19[%arg25] : !ttg.memdesc<4x128x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 4x128x64>
        %57 = ttg.memdesc_index %20[%arg25] : !ttg.memdesc<4x256x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<256x64xf16, #nvmma, #smem, mutable, 4x256x64>
        %58 = ttg.memdesc_trans %57 : !ttg.memdesc<256x64xf16, #nvmma, #smem, mutable, 4x256x64> -> !ttg.memdesc<64x256xf16, #nvmma1, #smem, mutable, 4x256x64>
        %59 = ttg.warp_group_dot %56, %58, %arg23 {isAsync} : !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 4x128x64> * !ttg.memdesc<64x256xf16, #nvmma1, #smem, mutable, 4x256x64> -> tensor<128x256xf32, #mma>
        %60 = ttg.warp_group_dot_wait %59 {pendings = 1 : i32} : tensor<128x256xf32, #mma>
        %c3_i32_15 = arith.constant 3 : i32
        %61 = arith.muli %c1_i32, %c3_i32_15 : i32
        %62 = arith.addi %arg22, %61 : i32
        %63 = arith.cmpi slt, %62, %6 : i32
        %64 = ttg.memdesc_index %21[%arg24] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
        ttg.barrier_expect %64, 49152, %63 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
        %65 = arith.muli %62, %c64_i32 : i32
        %66 = ttg.memdesc_index %19[%arg24] : !ttg.memdesc<4x128x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 4x128x64>
        ttg.async_tma_copy_global_to_local %arg0[%17, %65] %66, %64, %63 : !tt.tensordesc<tensor<128x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 4x128x64>
        %67 = ttg.memdesc_index %20[%arg24] : !ttg.memdesc<4x256x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<256x64xf16, #nvmma, #smem, mutable, 4x256x64>
        ttg.async_tma_copy_global_to_local %arg6[%18, %65] %67, %64, %63 : !tt.tensordesc<tensor<256x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1> -> !ttg.memdesc<256x64xf16, #nvmma, #smem, mutable, 4x256x64>
        %c1_i32_16 = arith.constant 1 : i32
        %68 = arith.addi %arg24, %c1_i32_16 : i32
        %c4_i32 = arith.constant 4 : i32
        %69 = arith.cmpi eq, %68, %c4_i32 : i32
        %c0_i32_17 = arith.constant 0 : i32
        %70 = arith.select %69, %c0_i32_17, %68 : i32
        %c1_i32_18 = arith.constant 1 : i32
        %71 = arith.addi %arg25, %c1_i32_18 : i32
        %c4_i32_19 = arith.constant 4 : i32
        %72 = arith.cmpi eq, %71, %c4_i32_19 : i32
        %c0_i32_20 = arith.constant 0 : i32
        %73 = arith.select %72, %c0_i32_20, %71 : i32
        %c0_i32_21 = arith.constant 0 : i32
        %74 = arith.cmpi eq, %73, %c0_i32_21 : i32
        %c1_i32_22 = arith.constant 1 : i32
        %75 = arith.xori %arg26, %c1_i32_22 : i32
        %76 = arith.select %74, %75, %arg26 : i32
        scf.yield %60, %70, %73, %76 : tensor<128x256xf32, #mma>, i32, i32, i32
      }
      %47 = ttg.warp_group_dot_wait %46#0 {pendings = 0 : i32} : tensor<128x256xf32, #mma>
      %c0_i32_11 = arith.constant 0 : i32
      %48 = ttg.memdesc_index %21[%c0_i32_11] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      ttg.inval_barrier %48 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      %c1_i32_12 = arith.constant 1 : i32
      %49 = ttg.memdesc_index %21[%c1_i32_12] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      ttg.inval_barrier %49 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      %c2_i32_13 = arith.constant 2 : i32
      %50 = ttg.memdesc_index %21[%c2_i32_13] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      ttg.inval_barrier %50 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      %c3_i32_14 = arith.constant 3 : i32
      %51 = ttg.memdesc_index %21[%c3_i32_14] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      ttg.inval_barrier %51 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
      %52 = arith.truncf %47 : tensor<128x256xf32, #mma> to tensor<128x256xf16, #mma>
      %53 = ttg.convert_layout %52 : tensor<128x256xf16, #mma> -> tensor<128x256xf16, #blocked>
      %54 = ttg.local_alloc %52 : (tensor<128x256xf16, #mma>) -> !ttg.memdesc<128x256xf16, #nvmma, #smem>
      ttg.async_tma_copy_local_to_global %arg12[%17, %18] %54 : !tt.tensordesc<tensor<128x256xf16>>, !ttg.memdesc<128x256xf16, #nvmma, #smem>
      ttg.async_tma_store_wait {pendings = 0 : i32}
    } {tt.flatten}
    tt.return
  }
}
