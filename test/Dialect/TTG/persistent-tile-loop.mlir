// RUN: tritium-opt %s -split-input-file -ttg-subtile-tma-store -ttg-prefetch-next-tile -ttg-defer-tma-store-wait -ttg-continue-ring-across-tiles -ttg-defer-tile-store | FileCheck %s
// RUN: tritium-opt %s -split-input-file -ttg-subtile-tma-store -ttg-prefetch-next-tile -ttg-defer-tma-store-wait -ttg-continue-ring-across-tiles -ttg-defer-tile-store -ttg-allocate-shared-memory -ttg-membar | FileCheck %s --check-prefix=MEMBAR

// The five persistent tile-loop passes in pipeline order, together; each
// also has a file of its own (subtile-tma-store.mlir, prefetch-next-tile.mlir,
// defer-tma-store-wait.mlir, continue-ring-across-tiles.mlir,
// defer-tile-store.mlir).
//

// A persistent TMA matmul's tile loop marked tt.flatten: the rings and the
// barrier array move before the loop; the first tile's index arithmetic
// runs before the loop and its barrier inits and copies under
// `scf.if %lb < %ub`; the loop carries the tile's offsets.  The K loop
// streams only TMA copies, so its ring continues from tile to tile: the
// next tile's offsets are computed before the K loop (at this tile's index
// past the last one), the K loop's copies past the tile's end fetch the
// next tile's first steps (offsets and k position selected by the issue
// predicate, issued when it holds or the ring continues), and the loop
// carries the ring's slots and phase.  The barriers are invalidated, and
// the next tile's head (inits and prologue copies) issued before this
// tile's epilogue, only where the ring cannot continue (no next tile, or a
// K loop shorter than the lookahead).  The tile is the body's only shared
// buffer, so the wait for its TMA store to have read it moves to before
// the next tile writes it (with a barrier), and after the loop.  Then the
// write and the store are deferred: the loop carries `pending`, the store's
// offsets and the tile's value; the next tile's K loop, in its first
// iteration, waits for the previous store (after its MMA, before its ring
// ops), then after its ring copies writes the tile into a buffer allocated
// before the loop and issues the store (both where the epilogue's wait was
// when the K loop ran no iteration), the last tile's after the loop.
// CHECK-LABEL: tt.func public @matmul_tma_persistent
// CHECK: %[[RA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16
// CHECK: %[[RB:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16
// CHECK: %[[BAR:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
// CHECK: %[[FIRST:.*]] = arith.cmpi slt, %[[LB:0]], %[[UB:7]] : i32
// CHECK: %[[OFF0:.*]] = arith.muli %[[LB]], %c64_i32
// CHECK: scf.if %[[FIRST]] {
// CHECK:   ttg.init_barrier
// CHECK:   ttg.async_tma_copy_global_to_local %arg0[%[[OFF0]], %{{.*}}]
// CHECK: }
// CHECK: %[[TRIPS:.*]] = arith.divsi
// CHECK: %[[CROSS:.*]] = arith.cmpi sge, %[[TRIPS]], %{{.*}}
// CHECK: %[[SPAN:.*]] = arith.muli %[[TRIPS]]
// CHECK: %[[CT:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
// CHECK: %[[TILES:.*]]:9 = scf.for %[[T:.*]] = %[[LB]] to %[[UB]] step %[[S:[^ ]*]] iter_args(%[[OFF:[^ ]*]] = %[[OFF0]], %[[OFFB:[^ ]*]] = %{{.*}}, %[[R:[^ ]*]] = %{{.*}}, %[[P:[^ ]*]] = %{{.*}}, %[[W:[^ ]*]] = %{{.*}}, %[[PEND:[^ ]*]] = %false, %[[SI:[^ ]*]] = %{{.*}}, %[[SJ:[^ ]*]] = %{{.*}}, %[[VT:[^ ]*]] = %{{.*}}) -> (i32, i32, i32, i32, i32, i1, i32, i32, tensor<64x64xf16, #mma>)
// CHECK:   %[[NEXT0:.*]] = arith.addi %[[T]], %[[S]]
// CHECK:   %[[EXISTS0:.*]] = arith.cmpi slt, %[[NEXT0]], %[[UB]]
// CHECK:   %[[CONT:.*]] = arith.andi %[[EXISTS0]], %[[CROSS]]
// CHECK:   %[[NEXT:.*]] = arith.addi %[[T]], %[[S]]
// CHECK:   %[[EXISTS:.*]] = arith.cmpi slt, %[[NEXT]], %[[UB]]
// CHECK:   %[[VALID:.*]] = arith.select %[[EXISTS]], %[[NEXT]], %[[T]]
// CHECK:   %[[NOFF:.*]] = arith.muli %[[VALID]], %c64_i32
// CHECK:   %[[RES:.*]]:4 = scf.for %[[K:[^ ]*]] = {{.*}} iter_args(%{{.*}} = %cst, %[[KW:[^ ]*]] = %[[W]], %[[KR:[^ ]*]] = %[[R]], %[[KP:[^ ]*]] = %[[P]])
// CHECK:     ttg.wait_barrier %{{.*}}, %[[KP]]
// CHECK:     %[[SHIFTED:.*]] = arith.addi %[[K]],
// CHECK:     %[[SHIFTEDNEXT:.*]] = arith.subi %[[SHIFTED]], %[[SPAN]]
// CHECK:     %[[ISSUE:.*]] = arith.cmpi slt, %[[SHIFTED]]
// CHECK:     %[[ISSUEORNEXT:.*]] = arith.ori %[[ISSUE]], %[[CONT]]
// CHECK:     %[[FIRSTK:.*]] = arith.cmpi eq, %[[K]], %c0_i32
// CHECK:     %[[GO:.*]] = arith.andi %[[FIRSTK]], %[[PEND]]
// CHECK:     scf.if %[[GO]] {
// CHECK-NEXT:  ttg.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: }
// CHECK:     ttg.barrier_expect %{{.*}}, 16384, %[[ISSUEORNEXT]]
// CHECK:     %[[KOFF:.*]] = arith.muli %[[SHIFTED]], %c64_i32
// CHECK:     %[[ROW:.*]] = arith.select %[[ISSUE]], %[[OFF]], %[[NOFF]]
// CHECK:     %[[NKOFF:.*]] = arith.muli %[[SHIFTEDNEXT]], %c64_i32
// CHECK:     %[[COL:.*]] = arith.select %[[ISSUE]], %[[KOFF]], %[[NKOFF]]
// CHECK:     ttg.async_tma_copy_global_to_local %arg0[%[[ROW]], %[[COL]]] %{{.*}}, %{{.*}}, %[[ISSUEORNEXT]]
// CHECK:     ttg.async_tma_copy_global_to_local %arg6
// CHECK-NEXT: scf.if %[[GO]] {
// CHECK-NEXT:   ttg.local_store %[[VT]], %[[CT]]
// CHECK-NEXT:   ttg.async_tma_copy_local_to_global %arg12[%[[SI]], %[[SJ]]] %[[CT]]
// CHECK:     }
// CHECK:   }
// CHECK:   ttg.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
// CHECK:   %[[STOP:.*]] = arith.xori %[[CONT]], %true
// CHECK:   scf.if %[[STOP]] {
// CHECK:     ttg.inval_barrier
// CHECK:     ttg.inval_barrier
// CHECK:   }
// CHECK:   %[[NOTCROSS:.*]] = arith.xori %[[CROSS]], %true
// CHECK:   %[[HEAD:.*]] = arith.andi %[[EXISTS]], %[[NOTCROSS]]
// CHECK:   scf.if %[[HEAD]] {
// CHECK:     ttg.init_barrier
// CHECK:     ttg.async_tma_copy_global_to_local %arg0[%[[NOFF]], %{{.*}}]
// CHECK:   }
// CHECK:   %[[TILE:.*]] = arith.truncf
// CHECK:   %[[NOK:.*]] = arith.cmpi sge, %c0_i32, %{{.*}}
// CHECK:   %[[LEFT:.*]] = arith.andi %[[NOK]], %[[PEND]]
// CHECK:   scf.if %[[LEFT]] {
// CHECK-NEXT: ttg.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_store %[[VT]], %[[CT]]
// CHECK-NEXT: ttg.async_tma_copy_local_to_global %arg12[%[[SI]], %[[SJ]]] %[[CT]]
// CHECK-NEXT: }
// CHECK-NOT: ttg.async_tma_store_wait
// CHECK-NOT: ttg.async_tma_copy_local_to_global
// CHECK:   %[[R2:.*]] = arith.select %[[CONT]], %[[RES]]#2, %{{.*}}
// CHECK:   %[[P2:.*]] = arith.select %[[CONT]], %[[RES]]#3, %{{.*}}
// CHECK:   %[[W2:.*]] = arith.select %[[CONT]], %[[RES]]#1, %{{.*}}
// CHECK:   scf.yield %[[NOFF]], %{{.*}}, %[[R2]], %[[P2]], %[[W2]], %true{{.*}}, %[[OFF]], %[[OFFB]], %[[TILE]] : i32, i32, i32, i32, i32, i1, i32, i32, tensor<64x64xf16, #mma>
// CHECK: } {tt.flatten, ttg.prefetched_next_tile, ttg.ring_across_tiles}
// CHECK: scf.if %[[TILES]]#5 {
// CHECK-NEXT: ttg.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_store %[[TILES]]#8, %[[CT]]
// CHECK-NEXT: ttg.async_tma_copy_local_to_global %arg12[%[[TILES]]#6, %[[TILES]]#7] %[[CT]]
// CHECK: }
// CHECK: ttg.async_tma_store_wait {pendings = 0 : i32}
// The barriers the membar pass places around the deferred store: in the K
// loop, the ring's barrier before its copies separates the wait for the
// previous store from the write, and one goes between the write (fenced by
// its local_store) and the store; the write of a tile whose K loop ran no
// iteration and the last tile's each get one before their store.  The next tile's head
// (barrier inits, in the branch where the ring does not continue) reaches
// the K loop's waits over the back edge with no barrier left between: one
// goes before the K loop.
// MEMBAR-LABEL: tt.func public @matmul_tma_persistent
// MEMBAR: scf.for
// MEMBAR: ttg.barrier{{$}}
// MEMBAR-NEXT: scf.for
// MEMBAR: scf.if
// MEMBAR-NEXT: ttg.async_tma_store_wait {pendings = 0 : i32}
// MEMBAR-NEXT: }
// MEMBAR: ttg.barrier{{$}}
// MEMBAR-NEXT: ttg.async_tma_copy_global_to_local %arg0
// MEMBAR-NOT: ttg.barrier{{$}}
// MEMBAR: ttg.async_tma_copy_global_to_local %arg6
// MEMBAR-NEXT: scf.if
// MEMBAR-NEXT: ttg.local_store
// MEMBAR-NEXT: ttg.barrier{{$}}
// MEMBAR-NEXT: ttg.async_tma_copy_local_to_global
// MEMBAR: arith.truncf
// MEMBAR: scf.if
// MEMBAR-NEXT: ttg.async_tma_store_wait {pendings = 0 : i32}
// MEMBAR-NEXT: ttg.barrier{{$}}
// MEMBAR-NEXT: ttg.local_store
// MEMBAR-NEXT: ttg.barrier{{$}}
// MEMBAR-NEXT: ttg.async_tma_copy_local_to_global
// MEMBAR: } {tt.flatten, ttg.prefetched_next_tile, ttg.ring_across_tiles}
// MEMBAR-NEXT: scf.if
// MEMBAR-NEXT: ttg.async_tma_store_wait {pendings = 0 : i32}
// MEMBAR-NEXT: ttg.barrier{{$}}
// MEMBAR-NEXT: ttg.local_store
// MEMBAR-NEXT: ttg.barrier{{$}}
// MEMBAR-NEXT: ttg.async_tma_copy_local_to_global
// MEMBAR: ttg.async_tma_store_wait {pendings = 0 : i32}
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

// A K loop whose extent changes from tile to tile (here min(k tiles, tile
// index + 1)) cannot hand its last iterations' copies to the next tile: the
// ring is not continued.  The next tile's head keeps its prologue after the
// drain, which invalidates the barriers for every tile.
// CHECK-LABEL: tt.func public @per_tile_k_range
// CHECK: scf.for
// CHECK:   scf.for
// CHECK-NOT: arith.ori
// CHECK:   }
// CHECK:   ttg.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
// CHECK-NOT: scf.if
// CHECK:   ttg.inval_barrier
// CHECK:   ttg.inval_barrier
// CHECK:   scf.if
// CHECK:     ttg.init_barrier
// CHECK: } {tt.flatten, ttg.prefetched_next_tile}
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#nvmma1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @per_tile_k_range(%arg0: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i64, %arg5: i64, %arg6: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg7: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg8: i32, %arg9: i32, %arg10: i64, %arg11: i64, %arg12: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg13: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg14: i32, %arg15: i32, %arg16: i64, %arg17: i64, %arg18: i32 {tt.divisibility = 16 : i32}, %arg19: i32 {tt.divisibility = 16 : i32}, %arg20: i32 {tt.divisibility = 16 : i32}) {
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
      %kt1 = arith.addi %arg21, %c1_i32 : i32
      %kt = arith.minsi %6, %kt1 : i32
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
      %25 = arith.cmpi slt, %c0_i32, %kt : i32
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
      %30:4 = scf.for %arg22 = %c0_i32 to %kt step %c1_i32 iter_args(%arg23 = %cst, %arg24 = %c1_i32_4, %arg25 = %c0_i32_5, %arg26 = %c0_i32_6) -> (tensor<64x64xf32, #mma>, i32, i32, i32)  : i32 {
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
        %45 = arith.cmpi slt, %44, %kt : i32
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

// A K loop from 1 in steps of 2, one step ahead (2 stages): its trip count
// is (ub - lb + step - 1) / step, computed before the tile loop; the ring
// continues when that is at least the lookahead (1), and the next tile's
// k position is the shifted index less trips * step (so that the shifted
// index past ub maps back onto lb, lb + step, ...).
// CHECK-LABEL: tt.func public @k_loop_from_one_step_two
// CHECK: %[[SPAN:.*]] = arith.subi %[[UB:[0-9]+]], %c1_i32 : i32
// CHECK: %[[ROUND:.*]] = arith.addi %[[SPAN]], %[[ONE:c1_i32[_0-9]*]] : i32
// CHECK: %[[TRIPS:.*]] = arith.divsi %[[ROUND]], %[[TWO:c2_i32[_0-9]*]] : i32
// CHECK: %[[CROSS:.*]] = arith.cmpi sge, %[[TRIPS]], %{{c1_i32[_0-9]*}} : i32
// CHECK: %[[TILESPAN:.*]] = arith.muli %[[TRIPS]], %{{c2_i32[_0-9]*}} : i32
// CHECK: scf.for
// CHECK:   scf.for %[[K:[^ ]*]] = %c1_i32 to %[[UB]] step %c2_i32
// CHECK:     %[[SHIFTED:.*]] = arith.addi %[[K]],
// CHECK-NEXT: %[[NEXTK:.*]] = arith.subi %[[SHIFTED]], %[[TILESPAN]] : i32
// CHECK-NEXT: %[[ISSUE:.*]] = arith.cmpi slt, %[[SHIFTED]], %[[UB]] : i32
// CHECK:     arith.muli %[[NEXTK]], %c64_i32
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#nvmma1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k_loop_from_one_step_two(%arg0: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i64, %arg5: i64, %arg6: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg7: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg8: i32, %arg9: i32, %arg10: i64, %arg11: i64, %arg12: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg13: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg14: i32, %arg15: i32, %arg16: i64, %arg17: i64, %arg18: i32 {tt.divisibility = 16 : i32}, %arg19: i32 {tt.divisibility = 16 : i32}, %arg20: i32 {tt.divisibility = 16 : i32}) {
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
      %kstep = arith.constant 2 : i32
      %30:4 = scf.for %arg22 = %c1_i32 to %6 step %kstep iter_args(%arg23 = %cst, %arg24 = %c1_i32_4, %arg25 = %c0_i32_5, %arg26 = %c0_i32_6) -> (tensor<64x64xf32, #mma>, i32, i32, i32)  : i32 {
        %37 = ttg.memdesc_index %21[%arg25] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
        ttg.wait_barrier %37, %arg26 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
        %38 = ttg.memdesc_index %19[%arg25] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        %39 = ttg.memdesc_index %20[%arg25] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        %40 = ttg.memdesc_trans %39 : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64> -> !ttg.memdesc<64x64xf16, #nvmma1, #smem, mutable, 2x64x64>
        %41 = ttg.warp_group_dot %38, %40, %arg23 {isAsync} : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64> * !ttg.memdesc<64x64xf16, #nvmma1, #smem, mutable, 2x64x64> -> tensor<64x64xf32, #mma>
        %42 = ttg.warp_group_dot_wait %41 {pendings = 1 : i32} : tensor<64x64xf32, #mma>
        %c1_i32_9 = arith.constant 1 : i32
        %43 = arith.muli %kstep, %c1_i32_9 : i32
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

// A store before the K loop (here at an address the head computes) is not
// part of the head: it stays in its tile's iteration, after the previous
// tile's epilogue as written, and reads the carried address, while the
// rings and the first tile's copies move before the loop and the next
// tile's copies after the drain, as in Triton's flattened loop.
// CHECK-LABEL: tt.func public @head_with_a_store
// CHECK: ttg.local_alloc : ()
// CHECK: %[[SEEN0:.*]] = tt.addptr %arg13
// CHECK: scf.if
// CHECK:   ttg.async_tma_copy_global_to_local
// CHECK: scf.for %{{.*}} iter_args({{.*}}%[[SEEN:[^ ]*]] = %[[SEEN0]],
// CHECK-NEXT: tt.store %[[SEEN]], %{{.*}} : !tt.ptr<f16>
// CHECK: tt.addptr %arg13
// CHECK: scf.for
// CHECK: } {tt.flatten, ttg.prefetched_next_tile, ttg.ring_across_tiles}
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#nvmma1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @head_with_a_store(%arg0: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i64, %arg5: i64, %arg6: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg7: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg8: i32, %arg9: i32, %arg10: i64, %arg11: i64, %arg12: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg13: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg14: i32, %arg15: i32, %arg16: i64, %arg17: i64, %arg18: i32 {tt.divisibility = 16 : i32}, %arg19: i32 {tt.divisibility = 16 : i32}, %arg20: i32 {tt.divisibility = 16 : i32}) {
    %c63_i32 = arith.constant 63 : i32
    %cst_h = arith.constant 0.0 : f16
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
      %seen = tt.addptr %arg13, %17 : !tt.ptr<f16>, i32
      tt.store %seen, %cst_h : !tt.ptr<f16>
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

// 128x256 tiles at 4 stages (tutorial 09's persistent matmul, 8 warps): the
// rings (192 KiB) and the whole 64 KiB output tile do not fit beside each
// other, so the epilogue stores the tile 64 columns at a time through two
// 16 KiB slots allocated before the loop: before each slab, a wait until
// the store that read its slot two slabs ago is done; the slab's registers
// (ttg.extract_tile) go to its slot and a TMA store writes its box.  No
// wait for all in the loop; one after it.  (The dead layout conversion the
// descriptor lowering leaves is not counted as scratch.)
// CHECK-LABEL: tt.func public @matmul_tma_persistent_slabs
// CHECK: %[[SLOTS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x128x64xf16, #nvmma, #smem, mutable>
// CHECK: scf.for
// CHECK-NOT: ttg.local_alloc %
// CHECK: ttg.async_tma_store_wait {pendings = 1 : i32}
// CHECK-NEXT: %[[S0:.*]] = ttg.extract_tile %{{.*}} [0, 0] : tensor<128x256xf16, #mma> -> tensor<128x64xf16, #mma1>
// CHECK: %[[V0:.*]] = ttg.memdesc_index %[[SLOTS]][%{{.*}}]
// CHECK-NEXT: ttg.local_store %[[S0]], %[[V0]]
// CHECK-NEXT: ttg.async_tma_copy_local_to_global %{{.*}}[%[[M:.*]], %[[N:.*]]] %[[V0]] : !tt.tensordesc<tensor<128x256xf16>>, !ttg.memdesc<128x64xf16
// CHECK: ttg.extract_tile %{{.*}} [0, 64]
// CHECK: ttg.memdesc_index %[[SLOTS]]
// CHECK: arith.addi %[[N]], %{{.*}}
// CHECK: ttg.extract_tile %{{.*}} [0, 128]
// CHECK: arith.addi %[[N]], %{{.*}}
// CHECK: ttg.extract_tile %{{.*}} [0, 192]
// CHECK: arith.addi %[[N]], %{{.*}}
// CHECK-NOT: ttg.async_tma_store_wait {pendings = 0
// CHECK: } {tt.flatten, ttg.prefetched_next_tile, ttg.ring_across_tiles}
// CHECK-NEXT: ttg.async_tma_store_wait {pendings = 0 : i32}
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

// -----

// The same tile in a warp-specialized tile loop at 4 stages: the producer's
// ring and barriers (192 KiB) are allocated before ttg.warp_specialize, and
// the whole output tile does not fit beside them, so the default region's
// epilogue is stored a slab at a time (slots before the tile loop, inside
// the default region; one wait for all after the loop).
// CHECK-LABEL: tt.func public @matmul_tma_persistent_ws_slabs
// CHECK: ttg.warp_specialize default
// CHECK: %[[SLOTS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x128x64xf16, #nvmma, #smem, mutable>
// CHECK-NEXT: scf.for
// CHECK-NOT: ttg.local_alloc %
// CHECK-COUNT-4: ttg.extract_tile
// CHECK-NOT: ttg.async_tma_store_wait {pendings = 0
// CHECK: } {tt.warp_specialize}
// CHECK-NEXT: ttg.async_tma_store_wait {pendings = 0 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 8], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 256, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#nvmma1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32, "ttg.total-num-warps" = 9 : i32} {
  tt.func public @matmul_tma_persistent_ws_slabs(%arg0: !tt.tensordesc<tensor<128x64xf16>> {tt.tma_box = array<i32: 128, 64>, tt.tma_swizzle = 128 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i64, %arg5: i64, %arg6: !tt.tensordesc<tensor<256x64xf16>> {tt.tma_box = array<i32: 256, 64>, tt.tma_swizzle = 128 : i32}, %arg7: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg8: i32, %arg9: i32, %arg10: i64, %arg11: i64, %arg12: !tt.tensordesc<tensor<128x256xf16>> {tt.tma_box = array<i32: 128, 64>, tt.tma_swizzle = 128 : i32}, %arg13: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg14: i32, %arg15: i32, %arg16: i64, %arg17: i64, %arg18: i32 {tt.divisibility = 16 : i32}, %arg19: i32 {tt.divisibility = 16 : i32}, %arg20: i32 {tt.divisibility = 16 : i32}) {
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
    %9 = ttg.local_alloc : () -> !ttg.memdesc<4x128x64xf16, #nvmma, #smem, mutable>
    %10 = ttg.local_alloc : () -> !ttg.memdesc<4x256x64xf16, #nvmma, #smem, mutable>
    %11 = ttg.local_alloc : () -> !ttg.memdesc<4x1xi64, #shared, #smem, mutable>
    %12 = ttg.local_alloc : () -> !ttg.memdesc<4x1xi64, #shared, #smem, mutable>
    %c0_i32_0 = arith.constant 0 : i32
    %13 = ttg.memdesc_index %11[%c0_i32_0] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
    ttg.init_barrier %13, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
    %c0_i32_1 = arith.constant 0 : i32
    %14 = ttg.memdesc_index %12[%c0_i32_1] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
    ttg.init_barrier %14, 8 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
    %c1_i32_2 = arith.constant 1 : i32
    %15 = ttg.memdesc_index %11[%c1_i32_2] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
    ttg.init_barrier %15, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
    %c1_i32_3 = arith.constant 1 : i32
    %16 = ttg.memdesc_index %12[%c1_i32_3] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
    ttg.init_barrier %16, 8 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
    %c2_i32 = arith.constant 2 : i32
    %17 = ttg.memdesc_index %11[%c2_i32] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
    ttg.init_barrier %17, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
    %c2_i32_4 = arith.constant 2 : i32
    %18 = ttg.memdesc_index %12[%c2_i32_4] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
    ttg.init_barrier %18, 8 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
    %c3_i32 = arith.constant 3 : i32
    %19 = ttg.memdesc_index %11[%c3_i32] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
    ttg.init_barrier %19, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
    %c3_i32_5 = arith.constant 3 : i32
    %20 = ttg.memdesc_index %12[%c3_i32_5] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
    ttg.init_barrier %20, 8 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
    ttg.warp_specialize default {
      %c0_i32_6 = arith.constant 0 : i32
      %21:2 = scf.for %arg21 = %0 to %7 step %c132_i32 iter_args(%arg22 = %c0_i32_6, %arg23 = %c0_i32_6) -> (i32, i32)  : i32 {
        %22 = arith.divsi %arg21, %8 : i32
        %23 = arith.muli %22, %c8_i32 : i32
        %24 = arith.subi %2, %23 : i32
        %25 = arith.minsi %24, %c8_i32 : i32
        %26 = arith.remsi %arg21, %25 : i32
        %27 = arith.addi %23, %26 : i32
        %28 = arith.remsi %arg21, %8 : i32
        %29 = arith.divsi %28, %25 : i32
        %30 = arith.muli %27, %c128_i32 : i32
        %31 = arith.muli %29, %c256_i32 : i32
        %32:3 = scf.for %arg24 = %c0_i32 to %6 step %c1_i32 iter_args(%arg25 = %cst, %arg26 = %arg22, %arg27 = %arg23) -> (tensor<128x256xf32, #mma>, i32, i32)  : i32 {
          %42 = ttg.memdesc_index %11[%arg26] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
          ttg.wait_barrier %42, %arg27 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
          %43 = ttg.memdesc_index %9[%arg26] : !ttg.memdesc<4x128x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 4x128x64>
          %44 = ttg.memdesc_index %10[%arg26] : !ttg.memdesc<4x256x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<256x64xf16, #nvmma, #smem, mutable, 4x256x64>
          %45 = ttg.memdesc_trans %44 : !ttg.memdesc<256x64xf16, #nvmma, #smem, mutable, 4x256x64> -> !ttg.memdesc<64x256xf16, #nvmma1, #smem, mutable, 4x256x64>
          %46 = arith.muli %arg24, %c64_i32 : i32
          %47 = ttg.warp_group_dot %43, %45, %arg25 {isAsync} : !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 4x128x64> * !ttg.memdesc<64x256xf16, #nvmma1, #smem, mutable, 4x256x64> -> tensor<128x256xf32, #mma>
          %48 = ttg.warp_group_dot_wait %47 {pendings = 1 : i32} : tensor<128x256xf32, #mma>
          %c0_i32_10 = arith.constant 0 : i32
          %49 = arith.cmpi eq, %arg26, %c0_i32_10 : i32
          %c1_i32_11 = arith.constant 1 : i32
          %50 = arith.subi %arg26, %c1_i32_11 : i32
          %c3_i32_12 = arith.constant 3 : i32
          %51 = arith.select %49, %c3_i32_12, %50 : i32
          %52 = arith.cmpi ne, %arg24, %c0_i32 : i32
          %53 = ttg.memdesc_index %12[%51] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
          ttg.arrive_barrier %53, %52 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
          %c1_i32_13 = arith.constant 1 : i32
          %54 = arith.addi %arg26, %c1_i32_13 : i32
          %c4_i32 = arith.constant 4 : i32
          %55 = arith.cmpi eq, %54, %c4_i32 : i32
          %c0_i32_14 = arith.constant 0 : i32
          %56 = arith.select %55, %c0_i32_14, %54 : i32
          %c1_i32_15 = arith.constant 1 : i32
          %57 = arith.xori %arg27, %c1_i32_15 : i32
          %58 = arith.select %55, %57, %arg27 : i32
          scf.yield %48, %56, %58 : tensor<128x256xf32, #mma>, i32, i32
        }
        %33 = ttg.warp_group_dot_wait %32#0 {pendings = 0 : i32} : tensor<128x256xf32, #mma>
        %c0_i32_7 = arith.constant 0 : i32
        %34 = arith.cmpi eq, %32#1, %c0_i32_7 : i32
        %c1_i32_8 = arith.constant 1 : i32
        %35 = arith.subi %32#1, %c1_i32_8 : i32
        %c3_i32_9 = arith.constant 3 : i32
        %36 = arith.select %34, %c3_i32_9, %35 : i32
        %37 = arith.cmpi slt, %c0_i32, %6 : i32
        %38 = ttg.memdesc_index %12[%36] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
        ttg.arrive_barrier %38, %37 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
        %39 = arith.truncf %33 : tensor<128x256xf32, #mma> to tensor<128x256xf16, #mma>
        %40 = ttg.convert_layout %39 : tensor<128x256xf16, #mma> -> tensor<128x256xf16, #blocked>
        %41 = ttg.local_alloc %39 : (tensor<128x256xf16, #mma>) -> !ttg.memdesc<128x256xf16, #nvmma, #smem>
        ttg.async_tma_copy_local_to_global %arg12[%30, %31] %41 : !tt.tensordesc<tensor<128x256xf16>>, !ttg.memdesc<128x256xf16, #nvmma, #smem>
        ttg.async_tma_store_wait {pendings = 0 : i32}
        scf.yield %32#1, %32#2 : i32, i32
      } {tt.warp_specialize}
      ttg.warp_yield
    } partition num_warps(1) {
      %c0_i32_6 = arith.constant 0 : i32
      %21:2 = scf.for %arg21 = %0 to %7 step %c132_i32 iter_args(%arg22 = %c0_i32_6, %arg23 = %c0_i32_6) -> (i32, i32)  : i32 {
        %22 = arith.divsi %arg21, %8 : i32
        %23 = arith.muli %22, %c8_i32 : i32
        %24 = arith.subi %2, %23 : i32
        %25 = arith.minsi %24, %c8_i32 : i32
        %26 = arith.remsi %arg21, %25 : i32
        %27 = arith.addi %23, %26 : i32
        %28 = arith.remsi %arg21, %8 : i32
        %29 = arith.divsi %28, %25 : i32
        %30 = arith.muli %27, %c128_i32 : i32
        %31 = arith.muli %29, %c256_i32 : i32
        %32:2 = scf.for %arg24 = %c0_i32 to %6 step %c1_i32 iter_args(%arg25 = %arg22, %arg26 = %arg23) -> (i32, i32)  : i32 {
          %33 = arith.muli %arg24, %c64_i32 : i32
          %c1_i32_7 = arith.constant 1 : i32
          %34 = arith.xori %arg26, %c1_i32_7 : i32
          %35 = ttg.memdesc_index %12[%arg25] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
          ttg.wait_barrier %35, %34 {poll} : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
          %36 = ttg.memdesc_index %11[%arg25] : !ttg.memdesc<4x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
          %true = arith.constant true
          ttg.barrier_expect %36, 49152, %true : !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1>
          %37 = ttg.memdesc_index %9[%arg25] : !ttg.memdesc<4x128x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 4x128x64>
          ttg.async_tma_copy_global_to_local %arg0[%30, %33] %37, %36, %true : !tt.tensordesc<tensor<128x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 4x128x64>
          %38 = ttg.memdesc_index %10[%arg25] : !ttg.memdesc<4x256x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<256x64xf16, #nvmma, #smem, mutable, 4x256x64>
          ttg.async_tma_copy_global_to_local %arg6[%31, %33] %38, %36, %true : !tt.tensordesc<tensor<256x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 4x1> -> !ttg.memdesc<256x64xf16, #nvmma, #smem, mutable, 4x256x64>
          %c1_i32_8 = arith.constant 1 : i32
          %39 = arith.addi %arg25, %c1_i32_8 : i32
          %c4_i32 = arith.constant 4 : i32
          %40 = arith.cmpi eq, %39, %c4_i32 : i32
          %c0_i32_9 = arith.constant 0 : i32
          %41 = arith.select %40, %c0_i32_9, %39 : i32
          %c1_i32_10 = arith.constant 1 : i32
          %42 = arith.xori %arg26, %c1_i32_10 : i32
          %43 = arith.select %40, %42, %arg26 : i32
          scf.yield %41, %43 : i32, i32
        }
        scf.yield %32#0, %32#1 : i32, i32
      }
      ttg.warp_yield
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

// A copy coordinate computed inside the K loop from the tile loop's index
// (not carried): its next-tile form uses `%t + step`, and the ring
// continues across tiles.
// CHECK-LABEL: tt.func public @coordinate_from_the_tile_index_in_the_k_loop
// CHECK: scf.for %[[T:[^ ]*]] = %{{.*}} step %[[S:[^ ]*]] iter_args
// CHECK:   %[[NT:.*]] = arith.addi %[[T]], %[[S]]
// CHECK:   scf.for
// CHECK:     %[[ISSUE:.*]] = arith.cmpi slt
// CHECK:     %[[PRED:.*]] = arith.ori %[[ISSUE]],
// CHECK:     %[[CUR:.*]] = arith.muli %[[T]], %c64_i32
// CHECK:     %[[NEXT:.*]] = arith.muli %[[NT]], %c64_i32
// CHECK:     %[[ROW:.*]] = arith.select %[[ISSUE]], %[[CUR]], %[[NEXT]]
// CHECK:     ttg.async_tma_copy_global_to_local %arg0[%[[ROW]], %{{.*}}] %{{.*}}, %{{.*}}, %[[PRED]]
// CHECK: } {tt.flatten, ttg.prefetched_next_tile, ttg.ring_across_tiles}
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#nvmma1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @coordinate_from_the_tile_index_in_the_k_loop(%arg0: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i64, %arg5: i64, %arg6: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg7: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg8: i32, %arg9: i32, %arg10: i64, %arg11: i64, %arg12: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg13: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg14: i32, %arg15: i32, %arg16: i64, %arg17: i64, %arg18: i32 {tt.divisibility = 16 : i32}, %arg19: i32 {tt.divisibility = 16 : i32}, %arg20: i32 {tt.divisibility = 16 : i32}) {
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
        %rowsk = arith.muli %arg21, %c64_i32 : i32
        ttg.async_tma_copy_global_to_local %arg0[%rowsk, %47] %48, %46, %45 : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
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

// A load of the head after a store of its own: hoisted a tile ahead, the
// load would run before the store and could read the old value, so the
// loop is left alone.
// CHECK-LABEL: tt.func public @load_after_a_store_in_the_head
// CHECK: scf.for
// CHECK:   tt.store
// CHECK:   tt.load
// CHECK:   ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16
// CHECK: } {tt.flatten}
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#nvmma1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @load_after_a_store_in_the_head(%arg0: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i64, %arg5: i64, %arg6: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg7: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg8: i32, %arg9: i32, %arg10: i64, %arg11: i64, %arg12: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg13: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg14: i32, %arg15: i32, %arg16: i64, %arg17: i64, %arg18: i32 {tt.divisibility = 16 : i32}, %arg19: i32 {tt.divisibility = 16 : i32}, %arg20: i32 {tt.divisibility = 16 : i32}) {
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
      %flag = tt.addptr %arg13, %17 : !tt.ptr<f16>, i32
      %one = arith.constant 1.000000e+00 : f16
      tt.store %flag, %one : !tt.ptr<f16>
      %seen = tt.load %flag : !tt.ptr<f16>
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

// The same loop with a tile stored without swizzling (a swizzled_shared
// layout, whose writes ttg.local_store does not fence for the copy engine;
// the descriptor lowering puts a ttg.fence_async_shared before the copy):
// each deferred write is followed by the fence, and the epilogue keeps
// none.
// CHECK-LABEL: tt.func public @unswizzled_tile
// CHECK: scf.for
// CHECK: scf.for
// CHECK: ttg.local_store %{{.*}}, %[[U:[^ ]*]] : tensor<64x64xf16, #mma> -> !ttg.memdesc<64x64xf16, #shared
// CHECK-NEXT: ttg.fence_async_shared
// CHECK: ttg.async_tma_copy_local_to_global %arg12[%{{.*}}] %[[U]]
// CHECK: scf.yield
// CHECK: arith.truncf
// CHECK: ttg.local_store
// CHECK-NEXT: ttg.fence_async_shared
// CHECK-NEXT: ttg.async_tma_copy_local_to_global
// CHECK-NOT: ttg.fence_async_shared
// CHECK: } {tt.flatten, ttg.prefetched_next_tile, ttg.ring_across_tiles}
// CHECK: ttg.local_store
// CHECK-NEXT: ttg.fence_async_shared
// CHECK-NEXT: ttg.async_tma_copy_local_to_global
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#nvmma1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
#tile = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @unswizzled_tile(%arg0: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i64, %arg5: i64, %arg6: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg7: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg8: i32, %arg9: i32, %arg10: i64, %arg11: i64, %arg12: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg13: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg14: i32, %arg15: i32, %arg16: i64, %arg17: i64, %arg18: i32 {tt.divisibility = 16 : i32}, %arg19: i32 {tt.divisibility = 16 : i32}, %arg20: i32 {tt.divisibility = 16 : i32}) {
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
      %36 = ttg.local_alloc %34 : (tensor<64x64xf16, #mma>) -> !ttg.memdesc<64x64xf16, #tile, #smem>
      ttg.fence_async_shared
      ttg.async_tma_copy_local_to_global %arg12[%17, %18] %36 : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<64x64xf16, #tile, #smem>
      ttg.async_tma_store_wait {pendings = 0 : i32}
    } {tt.flatten}
    tt.return
  }
}

// -----

// The same loop with a 64x128 tile: its TMA store moves two 64-column
// boxes (128-byte swizzle), so the deferred write and store go a slab at a
// time, slab j in the next K loop's iteration j (so the write shares
// shared memory with the MMA's reads in small pieces, and the stores leave
// the SM spread over the iterations), all under one test of the iteration
// (iv < lb + 2 * step).  The buffer is two slab slots; the wait for the
// previous tile's stores, and a barrier after it, open slab 0's branch (no
// test of its own in every iteration).  A K
// loop too short for a slab stores it where the epilogue's wait was; the
// last tile's slabs follow the loop.
// CHECK-LABEL: tt.func public @slabbed_tile
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
// CHECK: %[[SLOTS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>
// CHECK: %[[TILES:.*]]:9 = scf.for
// CHECK: %[[TWO:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK-NEXT: %[[ZERO:.*]] = arith.extsi %c0_i32 : i32 to i64
// CHECK: %[[ONE:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK: scf.for %[[K:[^ ]*]] =
// CHECK-NOT: ttg.async_tma_store_wait
// CHECK: ttg.async_tma_copy_global_to_local %arg6
// CHECK-NEXT: %[[WK:.*]] = arith.extsi %[[K]] : i32 to i64
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi slt, %[[WK]], %[[TWO]] : i64
// CHECK-NEXT: %[[GOS:.*]] = arith.andi %[[IN]], %[[PEND:[^ ]*]] : i1
// CHECK-NEXT: scf.if %[[GOS]] {
// CHECK-NEXT: %[[AT0:.*]] = arith.cmpi eq, %[[WK]], %[[ZERO]] : i64
// CHECK-NEXT: scf.if %[[AT0]] {
// CHECK-NEXT: ttg.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: %[[S0:.*]] = ttg.extract_tile %[[VT:[^ ]*]] [0, 0] : tensor<64x128xf16, #mma> -> tensor<64x64xf16, #mma1>
// CHECK: %[[SLOT0:.*]] = ttg.memdesc_index %[[SLOTS]][%c0_i32{{.*}}]
// CHECK-NEXT: ttg.local_store %[[S0]], %[[SLOT0]]
// CHECK-NEXT: ttg.async_tma_copy_local_to_global %arg12[%[[SI:[^ ]*]], %[[SJ:[^ ]*]]] %[[SLOT0]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[AT1:.*]] = arith.cmpi eq, %[[WK]], %[[ONE]] : i64
// CHECK-NEXT: scf.if %[[AT1]] {
// CHECK-NEXT: %[[S1:.*]] = ttg.extract_tile %[[VT]] [0, 64]
// CHECK: %[[SLOT1:.*]] = ttg.memdesc_index %[[SLOTS]][%c1_i32{{.*}}]
// CHECK-NEXT: ttg.local_store %[[S1]], %[[SLOT1]]
// CHECK-NEXT: %[[C64:.*]] = arith.constant 64 : i32
// CHECK-NEXT: %[[SJ1:.*]] = arith.addi %[[SJ]], %[[C64]] : i32
// CHECK-NEXT: ttg.async_tma_copy_local_to_global %arg12[%[[SI]], %[[SJ1]]] %[[SLOT1]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK: arith.truncf
// CHECK: %[[SHORT:.*]] = arith.cmpi sge, %{{.*}}, %{{.*}} : i64
// CHECK-NEXT: %[[GOSHORT:.*]] = arith.andi %[[SHORT]], %[[PEND]] : i1
// CHECK-NEXT: scf.if %[[GOSHORT]] {
// CHECK-NEXT: ttg.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.barrier
// CHECK: scf.if
// CHECK-NEXT: ttg.extract_tile %[[VT]] [0, 0]
// CHECK: ttg.async_tma_copy_local_to_global
// CHECK: scf.if
// CHECK-NEXT: ttg.extract_tile %[[VT]] [0, 64]
// CHECK: ttg.async_tma_copy_local_to_global
// CHECK: } {tt.flatten, ttg.prefetched_next_tile, ttg.ring_across_tiles}
// CHECK-NEXT: scf.if %[[TILES]]#5 {
// CHECK-NEXT: ttg.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.extract_tile %[[TILES]]#8 [0, 0]
// CHECK: ttg.async_tma_copy_local_to_global %arg12[%[[TILES]]#6, %[[TILES]]#7]
// CHECK-NEXT: ttg.extract_tile %[[TILES]]#8 [0, 64]
// CHECK: ttg.async_tma_copy_local_to_global
// CHECK-NEXT: }
// CHECK-NEXT: ttg.async_tma_store_wait {pendings = 0 : i32}
// Each slab's write is followed by a barrier before its store; slab 0's
// branch opens with the wait and its barrier.
// MEMBAR-LABEL: tt.func public @slabbed_tile
// MEMBAR: scf.for
// MEMBAR: scf.for
// MEMBAR: ttg.async_tma_copy_global_to_local %arg0
// MEMBAR: ttg.async_tma_store_wait {pendings = 0 : i32}
// MEMBAR-NEXT: ttg.barrier{{$}}
// MEMBAR-NEXT: ttg.extract_tile {{.*}} [0, 0]
// MEMBAR: ttg.local_store
// MEMBAR-NEXT: ttg.barrier{{$}}
// MEMBAR-NEXT: ttg.async_tma_copy_local_to_global
// MEMBAR: ttg.extract_tile {{.*}} [0, 64]
// MEMBAR: ttg.local_store
// MEMBAR: ttg.barrier{{$}}
// MEMBAR-NEXT: ttg.async_tma_copy_local_to_global
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#nvmma1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @slabbed_tile(%arg0: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i64, %arg5: i64, %arg6: !tt.tensordesc<tensor<128x64xf16>> {tt.tma_box = array<i32: 64, 128>, tt.tma_swizzle = 128 : i32}, %arg7: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg8: i32, %arg9: i32, %arg10: i64, %arg11: i64, %arg12: !tt.tensordesc<tensor<64x128xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}, %arg13: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg14: i32, %arg15: i32, %arg16: i64, %arg17: i64, %arg18: i32 {tt.divisibility = 16 : i32}, %arg19: i32 {tt.divisibility = 16 : i32}, %arg20: i32 {tt.divisibility = 16 : i32}) {
    %c63_i32 = arith.constant 63 : i32
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
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
      %20 = ttg.local_alloc : () -> !ttg.memdesc<2x128x64xf16, #nvmma, #smem, mutable>
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
      ttg.barrier_expect %26, 24576, %25 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      %27 = arith.muli %c0_i32, %c64_i32 : i32
      %28 = ttg.memdesc_index %19[%c0_i32_3] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
      ttg.async_tma_copy_global_to_local %arg0[%17, %27] %28, %26, %25 : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
      %29 = ttg.memdesc_index %20[%c0_i32_3] : !ttg.memdesc<2x128x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 2x128x64>
      ttg.async_tma_copy_global_to_local %arg6[%18, %27] %29, %26, %25 : !tt.tensordesc<tensor<128x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 2x128x64>
      %c1_i32_4 = arith.constant 1 : i32
      %c0_i32_5 = arith.constant 0 : i32
      %c0_i32_6 = arith.constant 0 : i32
      %30:4 = scf.for %arg22 = %c0_i32 to %6 step %c1_i32 iter_args(%arg23 = %cst, %arg24 = %c1_i32_4, %arg25 = %c0_i32_5, %arg26 = %c0_i32_6) -> (tensor<64x128xf32, #mma>, i32, i32, i32)  : i32 {
        %37 = ttg.memdesc_index %21[%arg25] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
        ttg.wait_barrier %37, %arg26 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
        %38 = ttg.memdesc_index %19[%arg25] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        %39 = ttg.memdesc_index %20[%arg25] : !ttg.memdesc<2x128x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 2x128x64>
        %40 = ttg.memdesc_trans %39 : !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 2x128x64> -> !ttg.memdesc<64x128xf16, #nvmma1, #smem, mutable, 2x128x64>
        %41 = ttg.warp_group_dot %38, %40, %arg23 {isAsync} : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64> * !ttg.memdesc<64x128xf16, #nvmma1, #smem, mutable, 2x128x64> -> tensor<64x128xf32, #mma>
        %42 = ttg.warp_group_dot_wait %41 {pendings = 1 : i32} : tensor<64x128xf32, #mma>
        %c1_i32_9 = arith.constant 1 : i32
        %43 = arith.muli %c1_i32, %c1_i32_9 : i32
        %44 = arith.addi %arg22, %43 : i32
        %45 = arith.cmpi slt, %44, %6 : i32
        %46 = ttg.memdesc_index %21[%arg24] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
        ttg.barrier_expect %46, 24576, %45 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
        %47 = arith.muli %44, %c64_i32 : i32
        %48 = ttg.memdesc_index %19[%arg24] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        ttg.async_tma_copy_global_to_local %arg0[%17, %47] %48, %46, %45 : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 2x64x64>
        %49 = ttg.memdesc_index %20[%arg24] : !ttg.memdesc<2x128x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 2x128x64>
        ttg.async_tma_copy_global_to_local %arg6[%18, %47] %49, %46, %45 : !tt.tensordesc<tensor<128x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 2x128x64>
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
        scf.yield %42, %52, %55, %58 : tensor<64x128xf32, #mma>, i32, i32, i32
      }
      %31 = ttg.warp_group_dot_wait %30#0 {pendings = 0 : i32} : tensor<64x128xf32, #mma>
      %c0_i32_7 = arith.constant 0 : i32
      %32 = ttg.memdesc_index %21[%c0_i32_7] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      ttg.inval_barrier %32 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      %c1_i32_8 = arith.constant 1 : i32
      %33 = ttg.memdesc_index %21[%c1_i32_8] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      ttg.inval_barrier %33 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
      %34 = arith.truncf %31 : tensor<64x128xf32, #mma> to tensor<64x128xf16, #mma>
      %36 = ttg.local_alloc %34 : (tensor<64x128xf16, #mma>) -> !ttg.memdesc<64x128xf16, #nvmma, #smem>
      ttg.async_tma_copy_local_to_global %arg12[%17, %18] %36 : !tt.tensordesc<tensor<64x128xf16>>, !ttg.memdesc<64x128xf16, #nvmma, #smem>
      ttg.async_tma_store_wait {pendings = 0 : i32}
    } {tt.flatten}
    tt.return
  }
}

// -----

// A K loop whose extent changes from tile to tile (here min(k tiles, tile
// index + 1)) cannot hand its last iterations' copies to the next tile: the
