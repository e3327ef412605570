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

// -----

// A mask defined before the loop (rows past M, and no K mask: the form of
// a matmul whose K is a multiple of the block) is the same for every
// iteration: each copy, in the prologue and in the loop, is masked by it
// and by whether its iteration exists.  (The pass once looked the mask up
// among the loop's cloned values and crashed.)
// CHECK-LABEL: tt.func @loop_invariant_mask
// CHECK: %[[M:.*]] = tt.broadcast %{{.*}} : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
// CHECK: %[[V0:.*]] = tt.splat %{{.*}} : i1 -> tensor<64x64xi1, #blocked>
// CHECK: %[[M0:.*]] = arith.andi %[[M]], %[[V0]]
// CHECK: ttg.async_copy_global_to_local %{{.*}}, %{{.*}} mask %[[M0]]
// CHECK: scf.for
// CHECK:   %[[VI:.*]] = tt.splat %{{.*}} : i1 -> tensor<64x64xi1, #blocked>
// CHECK:   %[[MI:.*]] = arith.andi %[[M]], %[[VI]]
// CHECK:   ttg.async_copy_global_to_local %{{.*}}, %{{.*}} mask %[[MI]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #ttg.slice<{dim = 0, parent = #blocked}>
#slice1 = #ttg.slice<{dim = 1, parent = #blocked}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @loop_invariant_mask(%base: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32, %rows: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %zf = arith.constant dense<0.0> : tensor<64x64xf16, #blocked>
    %step = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #slice>
    %re = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
    %rb = tt.broadcast %re : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %bs = tt.splat %base : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %p = tt.addptr %bs, %rb : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %rr = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #slice1>
    %rs = tt.splat %rows : i32 -> tensor<64xi32, #slice1>
    %rlt = arith.cmpi slt, %rr, %rs : tensor<64xi32, #slice1>
    %rle = tt.expand_dims %rlt {axis = 1 : i32} : tensor<64xi1, #slice1> -> tensor<64x1xi1, #blocked>
    %m = tt.broadcast %rle : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %p, %pb = %p) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>) : i32 {
      %a = tt.load %pa, %m, %zf : tensor<64x64x!tt.ptr<f16>, #blocked>
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

// A dot reading a tile stored inside the loop stays synchronous even
// though A streams through a ring: here B reaches its tile through a
// layout conversion in registers (as a block-pointer B read transposed
// does), and left in flight, the dot's MMAs would read B while the next
// iteration stores the next B into the same bytes.
// CHECK-LABEL: tt.func @dot_on_a_tile_stored_in_the_loop
// CHECK: scf.for
// CHECK:   ttg.memdesc_index
// CHECK:   ttg.convert_layout
// CHECK:   ttg.local_alloc %{{.*}} : (tensor<64x64xf16, #blocked1>)
// CHECK-NOT: isAsync
// CHECK:   ttg.warp_group_dot
// CHECK-NOT: ttg.warp_group_dot_wait
// CHECK:   ttg.async_copy_global_to_local
// CHECK:   scf.yield
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #ttg.slice<{dim = 0, parent = #blocked}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @dot_on_a_tile_stored_in_the_loop(%base: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
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
      %b2 = ttg.convert_layout %b : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked2>
      %as = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      %bs2 = ttg.local_alloc %b2 : (tensor<64x64xf16, #blocked2>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      %d = ttg.warp_group_dot %as, %bs2, %acc : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
      %pa2 = tt.addptr %pa, %step : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %pb2 = tt.addptr %pb, %step : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %d, %pa2, %pb2 : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>
    }
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// Descriptor loads whose tiles feed a warpgroup dot in the layout TMA
// writes stream through TMA rings: three barriers initialized before the
// loop, the prologue's stages each one expect of both tiles' bytes (16384
// + 8192) and two copies, the loop waiting on the extract slot's barrier
// with a carried phase that flips when the slot wraps, and the barriers
// invalidated after the loop.  No cp.async groups.
// CHECK-LABEL: tt.func public @tma_ring
// CHECK: %[[RA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16
// CHECK: %[[RB:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16
// CHECK: %[[BARS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64
// CHECK-COUNT-3: ttg.init_barrier
// CHECK: ttg.barrier_expect %{{.*}}, 24576, %{{.*}}
// CHECK-NEXT: ttg.memdesc_index %[[RA]]
// CHECK-NEXT: ttg.async_tma_copy_global_to_local %arg0
// CHECK: ttg.async_tma_copy_global_to_local %arg1
// CHECK: ttg.barrier_expect %{{.*}}, 24576, %{{.*}}
// CHECK: scf.for {{.*}} iter_args(%{{[^ ]*}} = %{{[^ ]*}}, %{{[^ ]*}} = %c2_i32{{[_0-9]*}}, %[[EXTRACT:[^ ]*]] = %c0_i32{{[_0-9]*}}, %[[PHASE:[^ ]*]] = %c0_i32{{[_0-9]*}})
// CHECK: %[[BAR:.*]] = ttg.memdesc_index %[[BARS]][%[[EXTRACT]]]
// CHECK-NEXT: ttg.wait_barrier %[[BAR]], %[[PHASE]]
// CHECK: ttg.warp_group_dot
// CHECK: ttg.barrier_expect
// CHECK: ttg.async_tma_copy_global_to_local %arg0
// CHECK: ttg.async_tma_copy_global_to_local %arg1
// CHECK: arith.xori %[[PHASE]]
// CHECK: scf.yield
// CHECK-NOT: ttg.async_commit_group
// CHECK-COUNT-3: ttg.inval_barrier
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @tma_ring(%a: !tt.tensordesc<tensor<128x64xf16>>, %b: !tt.tensordesc<tensor<64x64xf16>>, %k: i32, %m: i32) -> tensor<128x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %r = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
      %x = tt.descriptor_load %a[%m, %i] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16, #blocked>
      %sa = ttg.local_alloc %x : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #nvmma, #smem>
      %y = tt.descriptor_load %b[%i, %m] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
      %sb = ttg.local_alloc %y : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      %d = ttg.warp_group_dot %sa, %sb, %acc : !ttg.memdesc<128x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<128x64xf32, #mma>
      scf.yield %d : tensor<128x64xf32, #mma>
    }
    tt.return %r : tensor<128x64xf32, #mma>
  }
}

// -----

// Tensor maps made in the kernel: one made before the loop streams like a
// kernel argument's; one made in the body is rewritten in place every
// iteration (copies issued stages ahead would read the next one), so its
// load stays in the body, unpipelined.
// CHECK-LABEL: tt.func public @made_tensor_maps
// CHECK: %[[A:.*]] = tt.make_tensor_descriptor %arg0
// CHECK: ttg.async_tma_copy_global_to_local %[[A]]
// CHECK: scf.for
// CHECK: %[[B:.*]] = tt.make_tensor_descriptor %arg0
// CHECK-NEXT: tt.descriptor_load %[[B]]
// CHECK: ttg.warp_group_dot
// CHECK: ttg.async_tma_copy_global_to_local %[[A]]
// CHECK-NOT: ttg.async_tma_copy_global_to_local %[[B]]
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @made_tensor_maps(%p: !tt.ptr<f16>, %k: i32, %m: i32, %s: i64) -> tensor<128x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %c1 = arith.constant 1 : i64
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %a = tt.make_tensor_descriptor %p, [%m, %k], [%s, %c1] {padding = 1 : i32} : !tt.ptr<f16> -> !tt.tensordesc<tensor<128x64xf16>>
    %r = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
      %x = tt.descriptor_load %a[%m, %i] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16, #blocked>
      %sa = ttg.local_alloc %x : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #nvmma, #smem>
      %b = tt.make_tensor_descriptor %p, [%i, %m], [%s, %c1] {padding = 1 : i32} : !tt.ptr<f16> -> !tt.tensordesc<tensor<64x64xf16>>
      %y = tt.descriptor_load %b[%i, %m] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
      %sb = ttg.local_alloc %y : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      %d = ttg.warp_group_dot %sa, %sb, %acc : !ttg.memdesc<128x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<128x64xf32, #mma>
      scf.yield %d : tensor<128x64xf32, #mma>
    }
    tt.return %r : tensor<128x64xf32, #mma>
  }
}

// -----

// A streamed tile with other users: its transposed shared tile becomes a
// ttg.memdesc_trans view of the slot (no register round trip), and a small
// per-row load addressed from a carried counter, used in its own layout, is
// issued two iterations ahead once the counter is rewritten from the
// induction variable: its values ride in two more iter_args.
// CHECK-LABEL: tt.func public @slot_views_and_register_loads
// CHECK: %[[RING:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16
// CHECK-COUNT-2: tt.load %{{.*}}, %{{.*}} : tensor<64x!tt.ptr<f32>
// CHECK: scf.for %[[IV:[^ ]*]] = {{.*}} iter_args({{.*}}, %[[R0:[^ ]*]] = %{{[^ ]*}}, %[[R1:[^ ]*]] = %{{[^ ]*}})
// CHECK: %[[SLOT:.*]] = ttg.memdesc_index %[[RING]]
// CHECK: %[[T:.*]] = ttg.memdesc_trans %[[SLOT]]
// CHECK: ttg.warp_group_dot %{{.*}}, %[[SLOT]]
// CHECK: ttg.warp_group_dot %{{.*}}, %[[T]]
// CHECK-NOT: ttg.local_load
// CHECK: arith.addf %[[R0]], %[[R0]]
// CHECK: %[[NEXT:.*]] = tt.load %{{.*}}, %{{.*}} : tensor<64x!tt.ptr<f32>
// CHECK: scf.yield {{.*}}, %[[R1]], %[[NEXT]] :
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #ttg.slice<{dim = 0, parent = #blocked}>
#blockedT = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#row = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#nvmmaT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @slot_views_and_register_loads(%a: !ttg.memdesc<64x64xf16, #nvmma, #smem>,
      %tile: !tt.ptr<f16> {tt.divisibility = 16 : i32},
      %rows: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
    %step = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %cr = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #slice>
    %cre = tt.expand_dims %cr {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
    %crb = tt.broadcast %cre : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %tb = tt.splat %tile : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %ptrs = tt.addptr %tb, %crb : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #row>
    %base = tt.splat %rows : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #row>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %p = %ptrs, %row0 = %c0) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, i32) : i32 {
      %x = tt.load %p : tensor<64x64x!tt.ptr<f16>, #blocked>
      %s = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      %xt = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blockedT>
      %st = ttg.local_alloc %xt : (tensor<64x64xf16, #blockedT>) -> !ttg.memdesc<64x64xf16, #nvmmaT, #smem>
      %d0 = ttg.warp_group_dot %a, %s, %acc : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
      %d1 = ttg.warp_group_dot %a, %st, %d0 : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmmaT, #smem> -> tensor<64x64xf32, #mma>
      %splat = tt.splat %row0 : i32 -> tensor<64xi32, #row>
      %offs = arith.addi %splat, %range : tensor<64xi32, #row>
      %addrs = tt.addptr %base, %offs : tensor<64x!tt.ptr<f32>, #row>, tensor<64xi32, #row>
      %v = tt.load %addrs : tensor<64x!tt.ptr<f32>, #row>
      %twice = arith.addf %v, %v : tensor<64xf32, #row>
      tt.store %addrs, %twice : tensor<64x!tt.ptr<f32>, #row>
      %out = arith.addf %d1, %d1 : tensor<64x64xf32, #mma>
      %p2 = tt.addptr %p, %step : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %row1 = arith.addi %row0, %c64 : i32
      scf.yield %out, %p2, %row1 : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, i32
    }
    tt.return %r#0 : tensor<64x64xf32, #mma>
  }
}


// -----

// A small load read only through a conversion that goes through shared
// memory (a row statistic broadcast over an MMA tile, held by 2 of the 4
// warps each) streams through a ring of plain slots like the dot operands:
// its copies go ahead with theirs, and the conversion becomes a read of
// the slot in the slice layout.  No conversion and no register queue stay.
// CHECK-LABEL: tt.func public @converted_row_load
// CHECK: %[[RING:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64xf32, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local %{{.*}}, %{{.*}} mask %{{.*}} : tensor<64x!tt.ptr<f32>, #blocked1> -> !ttg.memdesc<64xf32, #shared, #smem, mutable, 3x64>
// CHECK: scf.for %{{[^ ]*}} = {{.*}} iter_args(%{{[^ ]*}} = %{{[^ ]*}}, %{{[^ ]*}} = %{{[^ ]*}}, %{{[^ ]*}} = %{{[^ ]*}}, %{{[^ ]*}} = %{{[^ ]*}}, %[[OUT:[^ ]*]] = %{{[^ ]*}}) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, i32, i32, i32)
// CHECK:   ttg.async_wait {num = 1 : i32}
// CHECK:   %[[SLOT:.*]] = ttg.memdesc_index %[[RING]][%[[OUT]]]
// CHECK-NOT: ttg.convert_layout
// CHECK:   ttg.local_load %[[SLOT]] : !ttg.memdesc<64xf32, #shared, #smem, mutable, 3x64> -> tensor<64xf32, #slice{{[0-9]*}}>
// CHECK-NOT: ttg.convert_layout
// CHECK:   scf.yield
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #ttg.slice<{dim = 0, parent = #blocked}>
#row = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @converted_row_load(%a: !ttg.memdesc<64x64xf16, #nvmma, #smem>,
      %tile: !tt.ptr<f16> {tt.divisibility = 16 : i32},
      %rows: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
    %step = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %cr = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #slice>
    %cre = tt.expand_dims %cr {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
    %crb = tt.broadcast %cre : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %tb = tt.splat %tile : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %ptrs = tt.addptr %tb, %crb : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #row>
    %base = tt.splat %rows : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #row>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %p = %ptrs, %row0 = %c0) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, i32) : i32 {
      %x = tt.load %p : tensor<64x64x!tt.ptr<f16>, #blocked>
      %s = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      %d = ttg.warp_group_dot %a, %s, %acc : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
      %splat = tt.splat %row0 : i32 -> tensor<64xi32, #row>
      %offs = arith.addi %splat, %range : tensor<64xi32, #row>
      %addrs = tt.addptr %base, %offs : tensor<64x!tt.ptr<f32>, #row>, tensor<64xi32, #row>
      %v = tt.load %addrs : tensor<64x!tt.ptr<f32>, #row>
      %vs = ttg.convert_layout %v : tensor<64xf32, #row> -> tensor<64xf32, #ttg.slice<{dim = 0, parent = #mma}>>
      %ve = tt.expand_dims %vs {axis = 0 : i32} : tensor<64xf32, #ttg.slice<{dim = 0, parent = #mma}>> -> tensor<1x64xf32, #mma>
      %vb = tt.broadcast %ve : tensor<1x64xf32, #mma> -> tensor<64x64xf32, #mma>
      %out = arith.addf %d, %vb : tensor<64x64xf32, #mma>
      %p2 = tt.addptr %p, %step : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %row1 = arith.addi %row0, %c64 : i32
      scf.yield %out, %p2, %row1 : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, i32
    }
    tt.return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// The same row load in a loop without a dot (a per-row recurrence on an
// accumulator in an MMA layout) that did not ask for its stages stays a
// load converted where it is used: Triton streams nothing in such a loop.
// CHECK-LABEL: tt.func public @converted_row_load_without_a_dot
// CHECK-NOT: ttg.local_alloc
// CHECK-NOT: ttg.async_copy_global_to_local
// CHECK: scf.for
// CHECK:   tt.load %{{.*}} : tensor<64x!tt.ptr<f32>, #blocked>
// CHECK:   ttg.convert_layout
// CHECK:   scf.yield
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#row = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @converted_row_load_without_a_dot(%rows: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #row>
    %base = tt.splat %rows : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #row>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %row0 = %c0) -> (tensor<64x64xf32, #mma>, i32) : i32 {
      %splat = tt.splat %row0 : i32 -> tensor<64xi32, #row>
      %offs = arith.addi %splat, %range : tensor<64xi32, #row>
      %addrs = tt.addptr %base, %offs : tensor<64x!tt.ptr<f32>, #row>, tensor<64xi32, #row>
      %v = tt.load %addrs : tensor<64x!tt.ptr<f32>, #row>
      %vs = ttg.convert_layout %v : tensor<64xf32, #row> -> tensor<64xf32, #ttg.slice<{dim = 0, parent = #mma}>>
      %ve = tt.expand_dims %vs {axis = 0 : i32} : tensor<64xf32, #ttg.slice<{dim = 0, parent = #mma}>> -> tensor<1x64xf32, #mma>
      %vb = tt.broadcast %ve : tensor<1x64xf32, #mma> -> tensor<64x64xf32, #mma>
      %out = arith.mulf %acc, %vb : tensor<64x64xf32, #mma>
      %row1 = arith.addi %row0, %c64 : i32
      scf.yield %out, %row1 : tensor<64x64xf32, #mma>, i32
    }
    tt.return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// The same row statistic loaded straight in the MMA's slice layout (each
// element held by the threads of 2 warps) is loaded again in the default
// layout (its address ops copied, those from outside the loop right after
// their originals) and streams through the same ring: one cp.async a
// thread, read back in the slice layout.  No register queue carries it.
// CHECK-LABEL: tt.func public @replicated_row_load
// CHECK: tt.make_range {{.*}} : tensor<64xi32, #[[COMPACT:blocked[0-9]*]]>
// CHECK: %[[RING:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64xf32, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local %{{.*}}, %{{.*}} mask %{{.*}} : tensor<64x!tt.ptr<f32>, #[[COMPACT]]> -> !ttg.memdesc<64xf32, #shared, #smem, mutable, 3x64>
// CHECK: scf.for %{{[^ ]*}} = {{.*}} iter_args(%{{[^ ]*}} = %{{[^ ]*}}, %{{[^ ]*}} = %{{[^ ]*}}, %{{[^ ]*}} = %{{[^ ]*}}, %{{[^ ]*}} = %{{[^ ]*}}, %[[OUT:[^ ]*]] = %{{[^ ]*}}) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, i32, i32, i32)
// CHECK:   ttg.async_wait {num = 1 : i32}
// CHECK:   %[[SLOT:.*]] = ttg.memdesc_index %[[RING]][%[[OUT]]]
// CHECK-NOT: ttg.convert_layout
// CHECK:   ttg.local_load %[[SLOT]] : !ttg.memdesc<64xf32, #shared, #smem, mutable, 3x64> -> tensor<64xf32, #slice{{[0-9]*}}>
// CHECK-NOT: ttg.convert_layout
// CHECK:   ttg.async_copy_global_to_local %{{.*}} : tensor<64x!tt.ptr<f32>, #[[COMPACT]]>
// CHECK:   scf.yield
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #ttg.slice<{dim = 0, parent = #blocked}>
#col = #ttg.slice<{dim = 0, parent = #mma}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @replicated_row_load(%a: !ttg.memdesc<64x64xf16, #nvmma, #smem>,
      %tile: !tt.ptr<f16> {tt.divisibility = 16 : i32},
      %rows: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
    %step = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %cr = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #slice>
    %cre = tt.expand_dims %cr {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
    %crb = tt.broadcast %cre : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %tb = tt.splat %tile : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %ptrs = tt.addptr %tb, %crb : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #col>
    %base = tt.splat %rows : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #col>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %p = %ptrs, %row0 = %c0) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, i32) : i32 {
      %x = tt.load %p : tensor<64x64x!tt.ptr<f16>, #blocked>
      %s = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      %d = ttg.warp_group_dot %a, %s, %acc : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
      %splat = tt.splat %row0 : i32 -> tensor<64xi32, #col>
      %offs = arith.addi %splat, %range : tensor<64xi32, #col>
      %addrs = tt.addptr %base, %offs : tensor<64x!tt.ptr<f32>, #col>, tensor<64xi32, #col>
      %v = tt.load %addrs : tensor<64x!tt.ptr<f32>, #col>
      %ve = tt.expand_dims %v {axis = 0 : i32} : tensor<64xf32, #col> -> tensor<1x64xf32, #mma>
      %vb = tt.broadcast %ve : tensor<1x64xf32, #mma> -> tensor<64x64xf32, #mma>
      %out = arith.addf %d, %vb : tensor<64x64xf32, #mma>
      %p2 = tt.addptr %p, %step : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %row1 = arith.addi %row0, %c64 : i32
      scf.yield %out, %p2, %row1 : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, i32
    }
    tt.return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// When its offsets are a tensor the loop carries, the row statistic stays
// in its slice layout: copied in it, one thread per element, and read back
// in it.
// CHECK-LABEL: tt.func public @replicated_row_load_carried_offsets
// CHECK: %[[RING:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64xf32, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local %{{.*}}, %{{.*}} mask %{{.*}} : tensor<64x!tt.ptr<f32>, #[[ROW:slice[0-9]*]]> -> !ttg.memdesc<64xf32, #shared, #smem, mutable, 3x64>
// CHECK: scf.for
// CHECK:   ttg.async_wait {num = 1 : i32}
// CHECK-NOT: tt.load %{{.*}} : tensor<64x!tt.ptr<f32>
// CHECK:   ttg.local_load %{{.*}} : !ttg.memdesc<64xf32, #shared, #smem, mutable, 3x64> -> tensor<64xf32, #[[ROW]]>
// CHECK:   ttg.async_copy_global_to_local %{{.*}} : tensor<64x!tt.ptr<f32>, #[[ROW]]>
// CHECK:   scf.yield
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #ttg.slice<{dim = 0, parent = #blocked}>
#col = #ttg.slice<{dim = 0, parent = #mma}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @replicated_row_load_carried_offsets(%a: !ttg.memdesc<64x64xf16, #nvmma, #smem>,
      %tile: !tt.ptr<f16> {tt.divisibility = 16 : i32},
      %rows: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
    %step = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %cr = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #slice>
    %cre = tt.expand_dims %cr {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
    %crb = tt.broadcast %cre : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %tb = tt.splat %tile : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %ptrs = tt.addptr %tb, %crb : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %rstep = arith.constant dense<64> : tensor<64xi32, #col>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #col>
    %base = tt.splat %rows : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #col>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %p = %ptrs, %offs = %range) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64xi32, #col>) : i32 {
      %x = tt.load %p : tensor<64x64x!tt.ptr<f16>, #blocked>
      %s = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      %d = ttg.warp_group_dot %a, %s, %acc : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
      %addrs = tt.addptr %base, %offs : tensor<64x!tt.ptr<f32>, #col>, tensor<64xi32, #col>
      %v = tt.load %addrs : tensor<64x!tt.ptr<f32>, #col>
      %ve = tt.expand_dims %v {axis = 0 : i32} : tensor<64xf32, #col> -> tensor<1x64xf32, #mma>
      %vb = tt.broadcast %ve : tensor<1x64xf32, #mma> -> tensor<64x64xf32, #mma>
      %out = arith.addf %d, %vb : tensor<64x64xf32, #mma>
      %p2 = tt.addptr %p, %step : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %offs2 = arith.addi %offs, %rstep : tensor<64xi32, #col>
      scf.yield %out, %p2, %offs2 : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64xi32, #col>
    }
    tt.return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// A CUDA-core dot's operands staged in #ttg.swizzled_shared tiles
// (ttg-cuda-core-dot-operands) stream through rings of that layout; the
// dot reads each slot with a ttg.local_load, as it read the tile.  Those
// reads are done when the iteration issues its copies, which then fill the
// slot just read: three stages take two slots, the copies of iteration
// i + 2 going where iteration i was read (insert and extract both start at
// slot 0 after the prologue's slots 0 and 1).
// CHECK-LABEL: tt.func public @cuda_core_dot_operands
// CHECK: %[[RA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x32x16xf32, #shared, #smem, mutable>
// CHECK: %[[RB:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x16x32xf32, #shared, #smem, mutable>
// CHECK: ttg.async_commit_group
// CHECK: ttg.async_commit_group
// CHECK-NEXT: %[[I0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[E0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: scf.for {{.*}} iter_args({{.*}}%[[INS:[^ ]*]] = %[[I0]], %[[EXT:[^ ]*]] = %[[E0]])
// CHECK:   ttg.async_wait {num = 1 : i32}
// CHECK:   %[[A:.*]] = ttg.memdesc_index %[[RA]][%[[EXT]]]
// CHECK:   %[[B:.*]] = ttg.memdesc_index %[[RB]][%[[EXT]]]
// CHECK:   ttg.local_load %[[B]]
// CHECK:   ttg.local_load %[[A]]
// CHECK:   tt.dot
// CHECK:   ttg.memdesc_index %[[RA]][%[[INS]]]
// CHECK:   ttg.async_copy_global_to_local
// CHECK:   ttg.async_copy_global_to_local
// CHECK:   ttg.async_commit_group
// CHECK:   %[[TWO:.*]] = arith.constant 2 : i32
// CHECK:   arith.cmpi eq, %{{.*}}, %[[TWO]]
#la = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#lb = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sa = #ttg.slice<{dim = 0, parent = #la}>
#sb = #ttg.slice<{dim = 0, parent = #lb}>
#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @cuda_core_dot_operands(%base: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #acc> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<32x32xf32, #acc>
    %ra = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32, #sa>
    %rae = tt.expand_dims %ra {axis = 0 : i32} : tensor<16xi32, #sa> -> tensor<1x16xi32, #la>
    %rab = tt.broadcast %rae : tensor<1x16xi32, #la> -> tensor<32x16xi32, #la>
    %pas = tt.splat %base : !tt.ptr<f32> -> tensor<32x16x!tt.ptr<f32>, #la>
    %pa0 = tt.addptr %pas, %rab : tensor<32x16x!tt.ptr<f32>, #la>, tensor<32x16xi32, #la>
    %rb = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #sb>
    %rbe = tt.expand_dims %rb {axis = 0 : i32} : tensor<32xi32, #sb> -> tensor<1x32xi32, #lb>
    %rbb = tt.broadcast %rbe : tensor<1x32xi32, #lb> -> tensor<16x32xi32, #lb>
    %pbs = tt.splat %base : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>, #lb>
    %pb0 = tt.addptr %pbs, %rbb : tensor<16x32x!tt.ptr<f32>, #lb>, tensor<16x32xi32, #lb>
    %sa16 = arith.constant dense<16> : tensor<32x16xi32, #la>
    %sb16 = arith.constant dense<16> : tensor<16x32xi32, #lb>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc0 = %zero, %pa = %pa0, %pb = %pb0) -> (tensor<32x32xf32, #acc>, tensor<32x16x!tt.ptr<f32>, #la>, tensor<16x32x!tt.ptr<f32>, #lb>) : i32 {
      %a = tt.load %pa : tensor<32x16x!tt.ptr<f32>, #la>
      %as = ttg.local_alloc %a : (tensor<32x16xf32, #la>) -> !ttg.memdesc<32x16xf32, #shared, #smem>
      %b = tt.load %pb : tensor<16x32x!tt.ptr<f32>, #lb>
      %bs = ttg.local_alloc %b : (tensor<16x32xf32, #lb>) -> !ttg.memdesc<16x32xf32, #shared, #smem>
      %bd = ttg.local_load %bs : !ttg.memdesc<16x32xf32, #shared, #smem> -> tensor<16x32xf32, #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>>
      %ad = ttg.local_load %as : !ttg.memdesc<32x16xf32, #shared, #smem> -> tensor<32x16xf32, #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>>
      %d = tt.dot %ad, %bd, %acc0 : tensor<32x16xf32, #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>> * tensor<16x32xf32, #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>> -> tensor<32x32xf32, #acc>
      %pa2 = tt.addptr %pa, %sa16 : tensor<32x16x!tt.ptr<f32>, #la>, tensor<32x16xi32, #la>
      %pb2 = tt.addptr %pb, %sb16 : tensor<16x32x!tt.ptr<f32>, #lb>, tensor<16x32xi32, #lb>
      scf.yield %d, %pa2, %pb2 : tensor<32x32xf32, #acc>, tensor<32x16x!tt.ptr<f32>, #la>, tensor<16x32x!tt.ptr<f32>, #lb>
    }
    tt.return %res#0 : tensor<32x32xf32, #acc>
  }
}

// -----

// A swizzle chunk of one fp16 element (2 bytes) would split every copy
// below cp.async's 4 bytes: the first loop is not pipelined.  Of the
// second's 128 KiB tiles one slot fits in a block, two do not: it streams
// through two stages, one slot.
// CHECK-LABEL: tt.func public @staged_operands_left_alone
// CHECK-NOT: ttg.async_copy_global_to_local
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<1x256x128xf32
// CHECK-NOT: ttg.local_alloc : () -> !ttg.memdesc<{{.*}}x64x64xf16
// CHECK: scf.for
// CHECK:   ttg.async_wait {num = 0 : i32}
// CHECK:   ttg.async_copy_global_to_local
// CHECK: tt.return
#lh = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#lf = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.slice<{dim = 0, parent = #lh}>
#sf = #ttg.slice<{dim = 0, parent = #lf}>
#narrow = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @staged_operands_left_alone(%h: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %f: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) -> (tensor<64x64xf16, #lh>, tensor<256x128xf32, #lf>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zh = arith.constant dense<0.0> : tensor<64x64xf16, #lh>
    %zf = arith.constant dense<0.0> : tensor<256x128xf32, #lf>
    %rh = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #sh>
    %rhe = tt.expand_dims %rh {axis = 0 : i32} : tensor<64xi32, #sh> -> tensor<1x64xi32, #lh>
    %rhb = tt.broadcast %rhe : tensor<1x64xi32, #lh> -> tensor<64x64xi32, #lh>
    %phs = tt.splat %h : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #lh>
    %ph = tt.addptr %phs, %rhb : tensor<64x64x!tt.ptr<f16>, #lh>, tensor<64x64xi32, #lh>
    %r1 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zh) -> (tensor<64x64xf16, #lh>) : i32 {
      %x = tt.load %ph : tensor<64x64x!tt.ptr<f16>, #lh>
      %xs = ttg.local_alloc %x : (tensor<64x64xf16, #lh>) -> !ttg.memdesc<64x64xf16, #narrow, #smem>
      %xl = ttg.local_load %xs : !ttg.memdesc<64x64xf16, #narrow, #smem> -> tensor<64x64xf16, #lh>
      %s2 = arith.addf %s, %xl : tensor<64x64xf16, #lh>
      scf.yield %s2 : tensor<64x64xf16, #lh>
    }
    %rf = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #sf>
    %rfe = tt.expand_dims %rf {axis = 0 : i32} : tensor<128xi32, #sf> -> tensor<1x128xi32, #lf>
    %rfb = tt.broadcast %rfe : tensor<1x128xi32, #lf> -> tensor<256x128xi32, #lf>
    %pfs = tt.splat %f : !tt.ptr<f32> -> tensor<256x128x!tt.ptr<f32>, #lf>
    %pf = tt.addptr %pfs, %rfb : tensor<256x128x!tt.ptr<f32>, #lf>, tensor<256x128xi32, #lf>
    %r2 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zf) -> (tensor<256x128xf32, #lf>) : i32 {
      %x = tt.load %pf : tensor<256x128x!tt.ptr<f32>, #lf>
      %xs = ttg.local_alloc %x : (tensor<256x128xf32, #lf>) -> !ttg.memdesc<256x128xf32, #plain, #smem>
      %xl = ttg.local_load %xs : !ttg.memdesc<256x128xf32, #plain, #smem> -> tensor<256x128xf32, #lf>
      %s2 = arith.addf %s, %xl : tensor<256x128xf32, #lf>
      scf.yield %s2 : tensor<256x128xf32, #lf>
    }
    tt.return %r1, %r2 : tensor<64x64xf16, #lh>, tensor<256x128xf32, #lf>
  }
}

// -----

// Two slots of a 64 KiB and a 32 KiB staged tile fit in a block, three
// would not: with synchronous readers two slots serve three stages.
// CHECK-LABEL: tt.func public @staged_operands_two_slots_three_stages
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x64x256xf32, #shared, #smem, mutable>
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x32x256xf32, #shared, #smem, mutable>
// CHECK: scf.for
// CHECK:   ttg.async_wait {num = 1 : i32}
#lf = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#sf = #ttg.slice<{dim = 0, parent = #lf}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @staged_operands_two_slots_three_stages(%f: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) -> (tensor<64x256xf32, #lf>, tensor<32x256xf32, #lf>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z64 = arith.constant dense<0.0> : tensor<64x256xf32, #lf>
    %z32 = arith.constant dense<0.0> : tensor<32x256xf32, #lf>
    %r = tt.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #sf>
    %re = tt.expand_dims %r {axis = 0 : i32} : tensor<256xi32, #sf> -> tensor<1x256xi32, #lf>
    %r64 = tt.broadcast %re : tensor<1x256xi32, #lf> -> tensor<64x256xi32, #lf>
    %r32 = tt.broadcast %re : tensor<1x256xi32, #lf> -> tensor<32x256xi32, #lf>
    %s64 = tt.splat %f : !tt.ptr<f32> -> tensor<64x256x!tt.ptr<f32>, #lf>
    %s32 = tt.splat %f : !tt.ptr<f32> -> tensor<32x256x!tt.ptr<f32>, #lf>
    %p64 = tt.addptr %s64, %r64 : tensor<64x256x!tt.ptr<f32>, #lf>, tensor<64x256xi32, #lf>
    %p32 = tt.addptr %s32, %r32 : tensor<32x256x!tt.ptr<f32>, #lf>, tensor<32x256xi32, #lf>
    %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z64, %b = %z32) -> (tensor<64x256xf32, #lf>, tensor<32x256xf32, #lf>) : i32 {
      %x = tt.load %p64 : tensor<64x256x!tt.ptr<f32>, #lf>
      %xs = ttg.local_alloc %x : (tensor<64x256xf32, #lf>) -> !ttg.memdesc<64x256xf32, #plain, #smem>
      %y = tt.load %p32 : tensor<32x256x!tt.ptr<f32>, #lf>
      %ys = ttg.local_alloc %y : (tensor<32x256xf32, #lf>) -> !ttg.memdesc<32x256xf32, #plain, #smem>
      %xl = ttg.local_load %xs : !ttg.memdesc<64x256xf32, #plain, #smem> -> tensor<64x256xf32, #lf>
      %yl = ttg.local_load %ys : !ttg.memdesc<32x256xf32, #plain, #smem> -> tensor<32x256xf32, #lf>
      %a2 = arith.addf %a, %xl : tensor<64x256xf32, #lf>
      %b2 = arith.addf %b, %yl : tensor<32x256xf32, #lf>
      scf.yield %a2, %b2 : tensor<64x256xf32, #lf>, tensor<32x256xf32, #lf>
    }
    tt.return %res#0, %res#1 : tensor<64x256xf32, #lf>, tensor<32x256xf32, #lf>
  }
}

// -----

// tf32 operands: wgmma reads B K-major (#nvmma_t, order [0, 1]) while B is
// loaded along N.  A B tile 128 wide along N streams through a ring, one
// 4-byte copy an element; a tile 64 wide stays loaded and stored in its
// iteration (only A streams).
// CHECK-LABEL: tt.func public @tf32_transposed_b
// CHECK-DAG: ttg.local_alloc : () -> !ttg.memdesc<3x128x32xf32, #nvmma, #smem, mutable>
// CHECK-DAG: ttg.local_alloc : () -> !ttg.memdesc<3x32x128xf32, #nvmma1, #smem, mutable>
// CHECK: scf.for
// CHECK-NOT: tt.load
// CHECK: ttg.warp_group_dot {{.*}} {isAsync}
// CHECK: scf.yield
// CHECK-LABEL: tt.func public @tf32_transposed_b_narrow
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x128x32xf32, #nvmma, #smem, mutable>
// CHECK-NOT: 3x32x64xf32
// CHECK: scf.for
// CHECK: %[[B:.*]] = tt.load
// CHECK: ttg.local_alloc %[[B]] : (tensor<32x64xf32, #blocked1>) -> !ttg.memdesc<32x64xf32, #nvmma1, #smem>
// CHECK: ttg.warp_group_dot
// CHECK: scf.yield
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 8]}>
#mma64 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 32, order = [1, 0]}>
#nvmma_t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 32, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @tf32_transposed_b(%pa0: tensor<128x32x!tt.ptr<f32>, #blocked>, %pb0: tensor<32x128x!tt.ptr<f32>, #blocked1>, %n: i32) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
    %sa = arith.constant dense<32> : tensor<128x32xi32, #blocked>
    %sb = arith.constant dense<4096> : tensor<32x128xi32, #blocked1>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %pa0, %pb = %pb0) -> (tensor<128x128xf32, #mma>, tensor<128x32x!tt.ptr<f32>, #blocked>, tensor<32x128x!tt.ptr<f32>, #blocked1>) : i32 {
      %a = tt.load %pa : tensor<128x32x!tt.ptr<f32>, #blocked>
      %b = tt.load %pb : tensor<32x128x!tt.ptr<f32>, #blocked1>
      %as = ttg.local_alloc %a : (tensor<128x32xf32, #blocked>) -> !ttg.memdesc<128x32xf32, #nvmma, #smem>
      %bs = ttg.local_alloc %b : (tensor<32x128xf32, #blocked1>) -> !ttg.memdesc<32x128xf32, #nvmma_t, #smem>
      %d = ttg.warp_group_dot %as, %bs, %acc, inputPrecision = tf32 : !ttg.memdesc<128x32xf32, #nvmma, #smem> * !ttg.memdesc<32x128xf32, #nvmma_t, #smem> -> tensor<128x128xf32, #mma>
      %pa2 = tt.addptr %pa, %sa : tensor<128x32x!tt.ptr<f32>, #blocked>, tensor<128x32xi32, #blocked>
      %pb2 = tt.addptr %pb, %sb : tensor<32x128x!tt.ptr<f32>, #blocked1>, tensor<32x128xi32, #blocked1>
      scf.yield %d, %pa2, %pb2 : tensor<128x128xf32, #mma>, tensor<128x32x!tt.ptr<f32>, #blocked>, tensor<32x128x!tt.ptr<f32>, #blocked1>
    }
    tt.return %res#0 : tensor<128x128xf32, #mma>
  }

  tt.func public @tf32_transposed_b_narrow(%pa0: tensor<128x32x!tt.ptr<f32>, #blocked>, %pb0: tensor<32x64x!tt.ptr<f32>, #blocked1>, %n: i32) -> tensor<128x64xf32, #mma64> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma64>
    %sa = arith.constant dense<32> : tensor<128x32xi32, #blocked>
    %sb = arith.constant dense<4096> : tensor<32x64xi32, #blocked1>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %pa0, %pb = %pb0) -> (tensor<128x64xf32, #mma64>, tensor<128x32x!tt.ptr<f32>, #blocked>, tensor<32x64x!tt.ptr<f32>, #blocked1>) : i32 {
      %a = tt.load %pa : tensor<128x32x!tt.ptr<f32>, #blocked>
      %b = tt.load %pb : tensor<32x64x!tt.ptr<f32>, #blocked1>
      %as = ttg.local_alloc %a : (tensor<128x32xf32, #blocked>) -> !ttg.memdesc<128x32xf32, #nvmma, #smem>
      %bs = ttg.local_alloc %b : (tensor<32x64xf32, #blocked1>) -> !ttg.memdesc<32x64xf32, #nvmma_t, #smem>
      %d = ttg.warp_group_dot %as, %bs, %acc, inputPrecision = tf32 : !ttg.memdesc<128x32xf32, #nvmma, #smem> * !ttg.memdesc<32x64xf32, #nvmma_t, #smem> -> tensor<128x64xf32, #mma64>
      %pa2 = tt.addptr %pa, %sa : tensor<128x32x!tt.ptr<f32>, #blocked>, tensor<128x32xi32, #blocked>
      %pb2 = tt.addptr %pb, %sb : tensor<32x64x!tt.ptr<f32>, #blocked1>, tensor<32x64xi32, #blocked1>
      scf.yield %d, %pa2, %pb2 : tensor<128x64xf32, #mma64>, tensor<128x32x!tt.ptr<f32>, #blocked>, tensor<32x64x!tt.ptr<f32>, #blocked1>
    }
    tt.return %res#0 : tensor<128x64xf32, #mma64>
  }
}

// -----

// A tile that reaches the dot through computation (q scaled by exp2(g) and
// cast back to f16, as chunked linear attention's state gradient does)
// streams through a ring of plain slots in its own order: each iteration
// reads the slot back in the load's layout (ttg.local_load) before the
// arithmetic.  Both q (f16) and g (f32) stream.  B, whose only way to the
// dot is a layout conversion into its shared tile, is an operand as loaded
// and keeps its synchronous load (it is not in a layout the tile's copies
// could take).
// CHECK-LABEL: tt.func public @read_back_loads
// CHECK-DAG: ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
// CHECK-DAG: ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf32, #shared, #smem, mutable>
// CHECK-NOT: ttg.local_alloc : () -> !ttg.memdesc<3x
// CHECK: scf.for
// CHECK:   ttg.async_wait {num = 1 : i32}
// CHECK:   %[[B:.*]] = tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>, #blocked1>
// CHECK:   %[[G:.*]] = ttg.local_load %{{.*}} : !ttg.memdesc<64x64xf32, #shared, #smem, mutable, 3x64x64> -> tensor<64x64xf32, #blocked1>
// CHECK:   math.exp2 %[[G]]
// CHECK:   %[[Q:.*]] = ttg.local_load %{{.*}} : !ttg.memdesc<64x64xf16, #shared, #smem, mutable, 3x64x64> -> tensor<64x64xf16, #blocked>
// CHECK:   arith.extf %[[Q]]
// CHECK:   ttg.convert_layout %[[B]]
// CHECK:   ttg.warp_group_dot
// CHECK:   ttg.async_copy_global_to_local %{{.*}} : tensor<64x64x!tt.ptr<f16>, #blocked> -> !ttg.memdesc<64x64xf16, #shared
// CHECK:   ttg.async_copy_global_to_local %{{.*}} : tensor<64x64x!tt.ptr<f32>, #blocked1> -> !ttg.memdesc<64x64xf32, #shared
// CHECK:   scf.yield
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #ttg.slice<{dim = 0, parent = #blocked}>
#slice1 = #ttg.slice<{dim = 0, parent = #blocked1}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @read_back_loads(%q0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %g0: !tt.ptr<f32> {tt.divisibility = 16 : i32},
                                  %b0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %step1 = arith.constant dense<64> : tensor<64x64xi32, #blocked1>
    %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #slice>
    %re = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
    %rb = tt.broadcast %re : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %r1 = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #slice1>
    %re1 = tt.expand_dims %r1 {axis = 0 : i32} : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blocked1>
    %rb1 = tt.broadcast %re1 : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
    %qs = tt.splat %q0 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %qp = tt.addptr %qs, %rb : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %gs = tt.splat %g0 : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked1>
    %gp = tt.addptr %gs, %rb1 : tensor<64x64x!tt.ptr<f32>, #blocked1>, tensor<64x64xi32, #blocked1>
    %bs = tt.splat %b0 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked1>
    %bp = tt.addptr %bs, %rb1 : tensor<64x64x!tt.ptr<f16>, #blocked1>, tensor<64x64xi32, #blocked1>
    %res:4 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %pq = %qp, %pg = %gp, %pb = %bp) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f32>, #blocked1>, tensor<64x64x!tt.ptr<f16>, #blocked1>) : i32 {
      %q = tt.load %pq : tensor<64x64x!tt.ptr<f16>, #blocked>
      %g = tt.load %pg : tensor<64x64x!tt.ptr<f32>, #blocked1>
      %b = tt.load %pb : tensor<64x64x!tt.ptr<f16>, #blocked1>
      %e = math.exp2 %g : tensor<64x64xf32, #blocked1>
      %ec = ttg.convert_layout %e : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked>
      %qf = arith.extf %q : tensor<64x64xf16, #blocked> to tensor<64x64xf32, #blocked>
      %qs2 = arith.mulf %qf, %ec : tensor<64x64xf32, #blocked>
      %qh = arith.truncf %qs2 : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
      %bc = ttg.convert_layout %b : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked>
      %as = ttg.local_alloc %qh : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      %bs2 = ttg.local_alloc %bc : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      %d = ttg.warp_group_dot %as, %bs2, %acc : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
      %pq2 = tt.addptr %pq, %step : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %pg2 = tt.addptr %pg, %step1 : tensor<64x64x!tt.ptr<f32>, #blocked1>, tensor<64x64xi32, #blocked1>
      %pb2 = tt.addptr %pb, %step1 : tensor<64x64x!tt.ptr<f16>, #blocked1>, tensor<64x64xi32, #blocked1>
      scf.yield %d, %pq2, %pg2, %pb2 : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f32>, #blocked1>, tensor<64x64x!tt.ptr<f16>, #blocked1>
    }
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// A packed weight tile (i32) dequantized in another layout (its scales',
// one element a thread) before a warpgroup dot: the load streams through a
// plain ring, and the conversion to the dequantizing layout becomes the
// slot's read in that layout (no conversion of the tile in the loop).
// CHECK-LABEL: tt.func public @read_back_in_the_converted_layout
// CHECK: scf.for
// CHECK:   ttg.async_wait {num = 1 : i32}
// CHECK-NOT: ttg.convert_layout
// CHECK:   %[[W:.*]] = ttg.local_load %{{.*}} : !ttg.memdesc<64x64xi32, #shared, #smem, mutable, 3x64x64> -> tensor<64x64xi32, #blocked1>
// CHECK-NOT: ttg.convert_layout
// CHECK:   arith.sitofp %[[W]]
// CHECK:   ttg.warp_group_dot
// CHECK:   ttg.async_copy_global_to_local %{{.*}} : tensor<64x64x!tt.ptr<i32>, #blocked> -> !ttg.memdesc<64x64xi32, #shared
// CHECK:   scf.yield
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#slice = #ttg.slice<{dim = 0, parent = #blocked}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @read_back_in_the_converted_layout(%w0: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %a: !ttg.memdesc<64x64xf16, #nvmma, #smem>,
                                                    %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #slice>
    %re = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
    %rb = tt.broadcast %re : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %ws = tt.splat %w0 : !tt.ptr<i32> -> tensor<64x64x!tt.ptr<i32>, #blocked>
    %wp = tt.addptr %ws, %rb : tensor<64x64x!tt.ptr<i32>, #blocked>, tensor<64x64xi32, #blocked>
    %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %pw = %wp) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<i32>, #blocked>) : i32 {
      %w = tt.load %pw : tensor<64x64x!tt.ptr<i32>, #blocked>
      %wc = ttg.convert_layout %w : tensor<64x64xi32, #blocked> -> tensor<64x64xi32, #blocked1>
      %wf = arith.sitofp %wc : tensor<64x64xi32, #blocked1> to tensor<64x64xf16, #blocked1>
      %bs = ttg.local_alloc %wf : (tensor<64x64xf16, #blocked1>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      %d = ttg.warp_group_dot %a, %bs, %acc : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
      %pw2 = tt.addptr %pw, %step : tensor<64x64x!tt.ptr<i32>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %d, %pw2 : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<i32>, #blocked>
    }
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// The same tile dequantized in a layout whose lanes run down the columns:
// read from the plain row-major slot, each warp access would meet one bank
// 32 times, more than the conversion's padded scratch costs, so the slot is
// read back in the load's layout and converted.
// CHECK-LABEL: tt.func public @read_back_then_converted
// CHECK: scf.for
// CHECK:   %[[W:.*]] = ttg.local_load %{{.*}} -> tensor<64x64xi32, #blocked>
// CHECK:   ttg.convert_layout %[[W]] : tensor<64x64xi32, #blocked> -> tensor<64x64xi32, #blocked1>
// CHECK:   ttg.warp_group_dot
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#slice = #ttg.slice<{dim = 0, parent = #blocked}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @read_back_then_converted(%w0: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %a: !ttg.memdesc<64x64xf16, #nvmma, #smem>,
                                           %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #slice>
    %re = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
    %rb = tt.broadcast %re : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %ws = tt.splat %w0 : !tt.ptr<i32> -> tensor<64x64x!tt.ptr<i32>, #blocked>
    %wp = tt.addptr %ws, %rb : tensor<64x64x!tt.ptr<i32>, #blocked>, tensor<64x64xi32, #blocked>
    %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %pw = %wp) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<i32>, #blocked>) : i32 {
      %w = tt.load %pw : tensor<64x64x!tt.ptr<i32>, #blocked>
      %wc = ttg.convert_layout %w : tensor<64x64xi32, #blocked> -> tensor<64x64xi32, #blocked1>
      %wf = arith.sitofp %wc : tensor<64x64xi32, #blocked1> to tensor<64x64xf16, #blocked1>
      %bs = ttg.local_alloc %wf : (tensor<64x64xf16, #blocked1>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      %d = ttg.warp_group_dot %a, %bs, %acc : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
      %pw2 = tt.addptr %pw, %step : tensor<64x64x!tt.ptr<i32>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %d, %pw2 : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<i32>, #blocked>
    }
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// A loop's own stage count (tl.range(..., num_stages=k): tt.num_stages)
// replaces the kernel's: a recurrence that asks for 3 stages streams its
// per-step rows, which feed no dot, through rings read back in their layout
// (2 slots: nothing reads a slot asynchronously); the same loop asking for 1
// stage keeps its loads.
// CHECK-LABEL: tt.func public @loop_with_its_own_stages
// CHECK-COUNT-2: ttg.local_alloc : () -> !ttg.memdesc<2x128xf32, #shared, #smem, mutable>
// CHECK: scf.for
// CHECK:   ttg.async_wait {num = 1 : i32}
// CHECK:   ttg.local_load %{{.*}} -> tensor<128xf32, #blocked>
// CHECK:   ttg.local_load %{{.*}} -> tensor<128xf32, #blocked>
// CHECK:   tt.store
// CHECK:   ttg.async_copy_global_to_local
// CHECK:   ttg.async_copy_global_to_local
// CHECK:   scf.yield
// CHECK-LABEL: tt.func public @loop_with_one_stage
// CHECK-NOT: ttg.async_copy_global_to_local
// CHECK: tt.load
// CHECK: tt.load
// CHECK: } {tt.num_stages = 1 : i32}
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @loop_with_its_own_stages(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %w: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %T: i32 {tt.divisibility = 16 : i32}) {
    %c128_i32 = arith.constant 128 : i32
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128xf32, #blocked>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %res:3 = scf.for %t = %c0_i32 to %T step %c1_i32 iter_args(%h = %cst, %px = %x, %pw = %w) -> (tensor<128xf32, #blocked>, !tt.ptr<f32>, !tt.ptr<f32>)  : i32 {
      %ws = tt.splat %pw : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
      %wp = tt.addptr %ws, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
      %xs = tt.splat %px : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
      %xp = tt.addptr %xs, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
      %xv = tt.load %xp : tensor<128x!tt.ptr<f32>, #blocked>
      %wv = tt.load %wp : tensor<128x!tt.ptr<f32>, #blocked>
      %hw = arith.mulf %h, %wv : tensor<128xf32, #blocked>
      %hn = arith.addf %hw, %xv : tensor<128xf32, #blocked>
      %o = arith.muli %t, %c128_i32 : i32
      %ob = tt.addptr %out, %o : !tt.ptr<f32>, i32
      %os = tt.splat %ob : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
      %op = tt.addptr %os, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
      tt.store %op, %hn : tensor<128x!tt.ptr<f32>, #blocked>
      %pxn = tt.addptr %px, %c128_i32 : !tt.ptr<f32>, i32
      %pwn = tt.addptr %pw, %c128_i32 : !tt.ptr<f32>, i32
      scf.yield %hn, %pxn, %pwn : tensor<128xf32, #blocked>, !tt.ptr<f32>, !tt.ptr<f32>
    } {tt.num_stages = 3 : i32}
    tt.return
  }

  tt.func public @loop_with_one_stage(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %w: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %T: i32 {tt.divisibility = 16 : i32}) {
    %c128_i32 = arith.constant 128 : i32
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128xf32, #blocked>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %res:3 = scf.for %t = %c0_i32 to %T step %c1_i32 iter_args(%h = %cst, %px = %x, %pw = %w) -> (tensor<128xf32, #blocked>, !tt.ptr<f32>, !tt.ptr<f32>)  : i32 {
      %ws = tt.splat %pw : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
      %wp = tt.addptr %ws, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
      %xs = tt.splat %px : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
      %xp = tt.addptr %xs, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
      %xv = tt.load %xp : tensor<128x!tt.ptr<f32>, #blocked>
      %wv = tt.load %wp : tensor<128x!tt.ptr<f32>, #blocked>
      %hw = arith.mulf %h, %wv : tensor<128xf32, #blocked>
      %hn = arith.addf %hw, %xv : tensor<128xf32, #blocked>
      %o = arith.muli %t, %c128_i32 : i32
      %ob = tt.addptr %out, %o : !tt.ptr<f32>, i32
      %os = tt.splat %ob : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
      %op = tt.addptr %os, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
      tt.store %op, %hn : tensor<128x!tt.ptr<f32>, #blocked>
      %pxn = tt.addptr %px, %c128_i32 : !tt.ptr<f32>, i32
      %pwn = tt.addptr %pw, %c128_i32 : !tt.ptr<f32>, i32
      scf.yield %hn, %pxn, %pwn : tensor<128xf32, #blocked>, !tt.ptr<f32>, !tt.ptr<f32>
    } {tt.num_stages = 1 : i32}
    tt.return
  }
}

// -----

// A dot operand loaded straight in its mma.sync layout (a 16x16 fp16 tile
// over 8 warps: every warp holds all of it) streams through a plain slot
// laid out along the registers' contiguous dimension, K, which is the
// tile's contiguous one: each thread copies its pairs of K, 4 bytes a
// cp.async.  (A slot along N would take 2-byte copies, which cp.async
// cannot make.)
// CHECK-DAG: #[[SLOT:shared[0-9]*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
// CHECK-LABEL: tt.func public @replicated_operand_load
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<{{[0-9]+}}x16x16xf16, #[[SLOT]], #smem, mutable>
// CHECK: ttg.async_copy_global_to_local
// CHECK: scf.for
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 8]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
#rowsB = #ttg.slice<{dim = 1, parent = #opB}>
#colsB = #ttg.slice<{dim = 0, parent = #opB}>
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @replicated_operand_load(%a: tensor<16x16xf16, #opA>, %v: !tt.ptr<f16> {tt.divisibility = 16 : i32},
                                          %n: i32) -> tensor<16x16xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c16 = arith.constant dense<16> : tensor<1x16xi32, #opB>
    %zero = arith.constant dense<0.0> : tensor<16x16xf32, #mma>
    %k = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #rowsB>
    %ke = tt.expand_dims %k {axis = 1 : i32} : tensor<16xi32, #rowsB> -> tensor<16x1xi32, #opB>
    %kb = tt.broadcast %ke : tensor<16x1xi32, #opB> -> tensor<16x16xi32, #opB>
    %nr = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #colsB>
    %base = tt.splat %v : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>, #opB>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32, #mma>) : i32 {
      %s = tt.splat %i : i32 -> tensor<16xi32, #colsB>
      %no = arith.addi %s, %nr : tensor<16xi32, #colsB>
      %ne = tt.expand_dims %no {axis = 0 : i32} : tensor<16xi32, #colsB> -> tensor<1x16xi32, #opB>
      %nm = arith.muli %ne, %c16 : tensor<1x16xi32, #opB>
      %nb = tt.broadcast %nm : tensor<1x16xi32, #opB> -> tensor<16x16xi32, #opB>
      %off = arith.addi %kb, %nb : tensor<16x16xi32, #opB>
      %p = tt.addptr %base, %off : tensor<16x16x!tt.ptr<f16>, #opB>, tensor<16x16xi32, #opB>
      %b = tt.load %p : tensor<16x16x!tt.ptr<f16>, #opB>
      %d = tt.dot %a, %b, %acc : tensor<16x16xf16, #opA> * tensor<16x16xf16, #opB> -> tensor<16x16xf32, #mma>
      scf.yield %d : tensor<16x16xf32, #mma>
    }
    tt.return %r : tensor<16x16xf32, #mma>
  }
}

// -----

// A read-back ring is kept when all rings, with the function's other shared
// tiles, fit in a block's shared memory; the tiles the operand rings replace
// are not counted again.  Here the rings take 4 x 3 x 16 KiB and q's shared
// tile 16 KiB more (208 KiB of the sm_90 block's 227); counting the three
// replaced operand tiles too (256 KiB) would leave q synchronous.
// CHECK-LABEL: tt.func public @read_back_ring_that_fits
// CHECK-COUNT-3: ttg.local_alloc : () -> !ttg.memdesc<3x{{128x64|64x128}}xf16, #nvmma
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
// CHECK: scf.for
// CHECK-NOT: tt.load
// CHECK: scf.yield
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @read_back_ring_that_fits(%a0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b0: !tt.ptr<f16> {tt.divisibility = 16 : i32},
                                           %q0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c0p: !tt.ptr<f16> {tt.divisibility = 16 : i32},
                                           %n: i32) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
    %two = arith.constant dense<2.0> : tensor<128x64xf32, #blocked>
    %step = arith.constant dense<64> : tensor<128x64xi32, #blocked>
    %step1 = arith.constant dense<64> : tensor<64x128xi32, #blocked1>
    %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %re = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %rb = tt.broadcast %re : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %r1 = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %re1 = tt.expand_dims %r1 {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x128xi32, #blocked1>
    %rb1 = tt.broadcast %re1 : tensor<1x128xi32, #blocked1> -> tensor<64x128xi32, #blocked1>
    %as0 = tt.splat %a0 : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>, #blocked>
    %as = tt.addptr %as0, %rb : tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
    %qs0 = tt.splat %q0 : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>, #blocked>
    %qs = tt.addptr %qs0, %rb : tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
    %bs0 = tt.splat %b0 : !tt.ptr<f16> -> tensor<64x128x!tt.ptr<f16>, #blocked1>
    %bs = tt.addptr %bs0, %rb1 : tensor<64x128x!tt.ptr<f16>, #blocked1>, tensor<64x128xi32, #blocked1>
    %cs0 = tt.splat %c0p : !tt.ptr<f16> -> tensor<64x128x!tt.ptr<f16>, #blocked1>
    %cs = tt.addptr %cs0, %rb1 : tensor<64x128x!tt.ptr<f16>, #blocked1>, tensor<64x128xi32, #blocked1>
    %res:5 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %as, %pq = %qs, %pb = %bs, %pc = %cs) -> (tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<64x128x!tt.ptr<f16>, #blocked1>, tensor<64x128x!tt.ptr<f16>, #blocked1>) : i32 {
      %a = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #blocked>
      %b = tt.load %pb : tensor<64x128x!tt.ptr<f16>, #blocked1>
      %c = tt.load %pc : tensor<64x128x!tt.ptr<f16>, #blocked1>
      %q = tt.load %pq : tensor<128x64x!tt.ptr<f16>, #blocked>
      %at = ttg.local_alloc %a : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #nvmma, #smem>
      %bt = ttg.local_alloc %b : (tensor<64x128xf16, #blocked1>) -> !ttg.memdesc<64x128xf16, #nvmma, #smem>
      %ct = ttg.local_alloc %c : (tensor<64x128xf16, #blocked1>) -> !ttg.memdesc<64x128xf16, #nvmma, #smem>
      %d1 = ttg.warp_group_dot %at, %bt, %acc : !ttg.memdesc<128x64xf16, #nvmma, #smem> * !ttg.memdesc<64x128xf16, #nvmma, #smem> -> tensor<128x128xf32, #mma>
      %qf = arith.extf %q : tensor<128x64xf16, #blocked> to tensor<128x64xf32, #blocked>
      %qm = arith.mulf %qf, %two : tensor<128x64xf32, #blocked>
      %qh = arith.truncf %qm : tensor<128x64xf32, #blocked> to tensor<128x64xf16, #blocked>
      %qt = ttg.local_alloc %qh : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #nvmma, #smem>
      %d2 = ttg.warp_group_dot %qt, %ct, %d1 : !ttg.memdesc<128x64xf16, #nvmma, #smem> * !ttg.memdesc<64x128xf16, #nvmma, #smem> -> tensor<128x128xf32, #mma>
      %pa2 = tt.addptr %pa, %step : tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
      %pq2 = tt.addptr %pq, %step : tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
      %pb2 = tt.addptr %pb, %step1 : tensor<64x128x!tt.ptr<f16>, #blocked1>, tensor<64x128xi32, #blocked1>
      %pc2 = tt.addptr %pc, %step1 : tensor<64x128x!tt.ptr<f16>, #blocked1>, tensor<64x128xi32, #blocked1>
      scf.yield %d2, %pa2, %pq2, %pb2, %pc2 : tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<64x128x!tt.ptr<f16>, #blocked1>, tensor<64x128x!tt.ptr<f16>, #blocked1>
    }
    tt.return %res#0 : tensor<128x128xf32, #mma>
  }
}
