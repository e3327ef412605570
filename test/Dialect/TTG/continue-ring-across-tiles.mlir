// RUN: tritium-opt %s -split-input-file -ttg-prefetch-next-tile -ttg-continue-ring-across-tiles | FileCheck %s
// RUN: tritium-opt %s -split-input-file -ttg-continue-ring-across-tiles | FileCheck %s --check-prefix=UNMARKED

// The tile loop ttg-prefetch-next-tile rewrote, whose K loop streams only
// TMA copies: the K loops of consecutive tiles share one ring.  Before the
// loop, `cross` (the K loop's trip count reaches the lookahead); the next
// tile's offsets are computed before the K loop; `cont` = a next tile
// exists and `cross`.  In the K loop, each copy's coordinates select this
// tile's (while the lookahead is inside it) or the next tile's (offsets,
// and k shifted back by the trip count), issued when either holds.  The
// barriers are invalidated, and the next tile's head issued, only where
// the ring does not continue; the loop carries the ring's slots and phase.

// CHECK-LABEL: tt.func public @matmul_tma_persistent
// CHECK: scf.if %{{.*}} {
// CHECK:   ttg.init_barrier
// CHECK: }
// CHECK: %[[TRIPS:.*]] = arith.divsi
// CHECK: %[[CROSS:.*]] = arith.cmpi sge, %[[TRIPS]], %{{.*}}
// CHECK: %[[SPAN:.*]] = arith.muli %[[TRIPS]]
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %[[UB:[^ ]*]] step %[[S:[^ ]*]] iter_args(%[[OFF:[^ ]*]] = %{{.*}}, %[[OFFB:[^ ]*]] = %{{.*}}, %[[R:[^ ]*]] = %{{.*}}, %[[P:[^ ]*]] = %{{.*}}, %[[W:[^ ]*]] = %{{.*}}) -> (i32, i32, i32, i32, i32)
// CHECK:   %[[NEXT0:.*]] = arith.addi %[[T]], %[[S]]
// CHECK:   %[[EXISTS0:.*]] = arith.cmpi slt, %[[NEXT0]], %[[UB]]
// CHECK:   %[[CONT:.*]] = arith.andi %[[EXISTS0]], %[[CROSS]]
// CHECK:   %[[NOFF:.*]] = arith.muli %{{.*}}, %c64_i32
// CHECK:   %[[RES:.*]]:4 = scf.for %[[K:[^ ]*]] = {{.*}} iter_args(%{{.*}} = %cst, %{{.*}} = %[[W]], %{{.*}} = %[[R]], %[[KP:[^ ]*]] = %[[P]])
// CHECK:     ttg.wait_barrier %{{.*}}, %[[KP]]
// CHECK:     %[[SHIFTED:.*]] = arith.addi %[[K]],
// CHECK:     %[[SHIFTEDNEXT:.*]] = arith.subi %[[SHIFTED]], %[[SPAN]]
// CHECK:     %[[ISSUE:.*]] = arith.cmpi slt, %[[SHIFTED]]
// CHECK:     %[[ISSUEORNEXT:.*]] = arith.ori %[[ISSUE]], %[[CONT]]
// CHECK:     ttg.barrier_expect %{{.*}}, 16384, %[[ISSUEORNEXT]]
// CHECK:     %[[ROW:.*]] = arith.select %[[ISSUE]], %[[OFF]], %[[NOFF]]
// CHECK:     %[[COL:.*]] = arith.select %[[ISSUE]], %{{.*}}, %{{.*}}
// CHECK:     ttg.async_tma_copy_global_to_local %arg0[%[[ROW]], %[[COL]]] %{{.*}}, %{{.*}}, %[[ISSUEORNEXT]]
// CHECK:   }
// CHECK:   %[[STOP:.*]] = arith.xori %[[CONT]], %true
// CHECK:   scf.if %[[STOP]] {
// CHECK:     ttg.inval_barrier
// CHECK:   }
// CHECK:   %[[NOTCROSS:.*]] = arith.xori %[[CROSS]], %true
// CHECK:   %[[HEAD:.*]] = arith.andi %{{.*}}, %[[NOTCROSS]]
// CHECK:   scf.if %[[HEAD]] {
// CHECK:     ttg.init_barrier
// CHECK:   }
// CHECK:   %[[R2:.*]] = arith.select %[[CONT]], %[[RES]]#2, %{{.*}}
// CHECK:   %[[P2:.*]] = arith.select %[[CONT]], %[[RES]]#3, %{{.*}}
// CHECK:   %[[W2:.*]] = arith.select %[[CONT]], %[[RES]]#1, %{{.*}}
// CHECK:   scf.yield %{{.*}}, %{{.*}}, %[[R2]], %[[P2]], %[[W2]] : i32, i32, i32, i32, i32
// CHECK: } {tt.flatten, ttg.prefetched_next_tile, ttg.ring_across_tiles}

// Not rewritten by ttg-prefetch-next-tile (unmarked): left alone.

// UNMARKED-LABEL: tt.func public @matmul_tma_persistent
// UNMARKED-NOT: arith.ori
// UNMARKED-NOT: ttg.ring_across_tiles
// UNMARKED: } {tt.flatten}


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
