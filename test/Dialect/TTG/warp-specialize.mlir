// RUN: tritium-opt %s -split-input-file -verify-diagnostics -ttg-warp-specialize=num-stages=3 | FileCheck %s

// A persistent tile loop marked warp_specialize around a TMA matmul K loop:
// the rings and the full (1 arrival) and empty (one per consumer warp)
// barriers come first; the tile loop moves into the default region with
// the ring's slot and phase carried through both loops, each load replaced
// by the wait on full[slot] and a view of the slot (B through a transposed
// view), the dot asynchronous and followed by the release of the previous
// slot; after the K loop, a wait for all MMAs and the release of the last.
// The partition (one warp) runs the loop nest's index arithmetic: wait on
// empty[slot] with the phase flipped, expect the stage's bytes, copy.
// CHECK: module attributes {{.*}}"ttg.total-num-warps" = 5 : i32
// CHECK-LABEL: tt.func public @persistent
// CHECK: %[[RA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #nvmma, #smem, mutable>
// CHECK: %[[RB:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #nvmma, #smem, mutable>
// CHECK: %[[FULL:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64
// CHECK: %[[EMPTY:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64
// CHECK: ttg.init_barrier %{{.*}}, 1 :
// CHECK: ttg.init_barrier %{{.*}}, 4 :
// CHECK: ttg.init_barrier %{{.*}}, 1 :
// CHECK: ttg.init_barrier %{{.*}}, 4 :
// CHECK: ttg.init_barrier %{{.*}}, 1 :
// CHECK: ttg.init_barrier %{{.*}}, 4 :
// CHECK: ttg.warp_specialize default {
// CHECK:   scf.for {{.*}} iter_args(%[[TS:[^ ]*]] = %c0_i32{{[_0-9]*}}, %[[TP:[^ ]*]] = %c0_i32{{[_0-9]*}}) -> (i32, i32)
// CHECK:     %[[K:[^ ]*]]:3 = scf.for %[[KI:[^ ]*]] = {{.*}} iter_args(%[[ACC:[^ ]*]] = %{{[^ ]*}}, %[[S:[^ ]*]] = %[[TS]], %[[P:[^ ]*]] = %[[TP]])
// CHECK:       %[[FB:.*]] = ttg.memdesc_index %[[FULL]][%[[S]]]
// CHECK:       ttg.wait_barrier %[[FB]], %[[P]]
// CHECK:       %[[A:.*]] = ttg.memdesc_index %[[RA]][%[[S]]]
// CHECK:       %[[B:.*]] = ttg.memdesc_index %[[RB]][%[[S]]]
// CHECK:       %[[BT:.*]] = ttg.memdesc_trans %[[B]]
// CHECK:       %[[D:.*]] = ttg.warp_group_dot %[[A]], %[[BT]], %[[ACC]] {isAsync}
// CHECK:       %[[W:.*]] = ttg.warp_group_dot_wait %[[D]] {pendings = 1 : i32}
// CHECK:       %[[NOTFIRST:.*]] = arith.cmpi ne, %[[KI]]
// CHECK:       %[[EB:.*]] = ttg.memdesc_index %[[EMPTY]]
// CHECK:       ttg.arrive_barrier %[[EB]], %[[NOTFIRST]]
// CHECK:       scf.yield %[[W]],
// CHECK:     %[[DONE:.*]] = ttg.warp_group_dot_wait %[[K]]#0 {pendings = 0 : i32}
// CHECK:     ttg.arrive_barrier
// CHECK:     arith.truncf %[[DONE]]
// CHECK:     tt.descriptor_store
// CHECK:     scf.yield %[[K]]#1, %[[K]]#2
// CHECK:   } {tt.warp_specialize}
// CHECK:   ttg.warp_yield
// CHECK: } partition num_warps(1) {
// CHECK:   scf.for {{.*}} iter_args(%[[PS0:[^ ]*]] = %c0_i32{{[_0-9]*}}, %[[PP0:[^ ]*]] = %c0_i32{{[_0-9]*}}) -> (i32, i32)
// CHECK:     arith.muli
// CHECK:     scf.for {{.*}} iter_args(%[[PS:[^ ]*]] = %[[PS0]], %[[PP:[^ ]*]] = %[[PP0]]) -> (i32, i32)
// CHECK:       %[[FREED:.*]] = arith.xori %[[PP]], %c1_i32
// CHECK:       %[[E:.*]] = ttg.memdesc_index %[[EMPTY]][%[[PS]]]
// CHECK:       ttg.wait_barrier %[[E]], %[[FREED]] {poll}
// CHECK:       %[[F:.*]] = ttg.memdesc_index %[[FULL]][%[[PS]]]
// CHECK:       ttg.barrier_expect %[[F]], 24576, %true
// CHECK:       ttg.async_tma_copy_global_to_local %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}}, %[[F]], %true
// CHECK:       ttg.async_tma_copy_global_to_local %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}}, %[[F]], %true
// CHECK:       arith.select
// CHECK:   ttg.warp_yield
// CHECK: }
// CHECK-NEXT: tt.return
// CHECK: "ttg.total-num-warps" = 5 : i32
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#nvmma1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @persistent(%a: !tt.tensordesc<tensor<128x64xf16>>, %b: !tt.tensordesc<tensor<64x64xf16>>,
                             %c: !tt.tensordesc<tensor<128x64xf16>>, %tiles: i32, %k: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %pid = tt.get_program_id {axis = 0 : i32} : i32
    %n = tt.get_num_programs {axis = 0 : i32} : i32
    scf.for %t = %pid to %tiles step %n : i32 {
      %m = arith.muli %t, %c128 : i32
      %acc = scf.for %i = %c0 to %k step %c1 iter_args(%a0 = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
        %kk = arith.muli %i, %c64 : i32
        %x = tt.descriptor_load %a[%m, %kk] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16, #blocked>
        %sa = ttg.local_alloc %x : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #nvmma, #smem>
        %y = tt.descriptor_load %b[%c0, %kk] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
        %yt = tt.trans %y {order = array<i32: 1, 0>} : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
        %sb = ttg.local_alloc %yt : (tensor<64x64xf16, #blocked1>) -> !ttg.memdesc<64x64xf16, #nvmma1, #smem>
        %d = ttg.warp_group_dot %sa, %sb, %a0 : !ttg.memdesc<128x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma1, #smem> -> tensor<128x64xf32, #mma>
        scf.yield %d : tensor<128x64xf32, #mma>
      }
      %h = arith.truncf %acc : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
      tt.descriptor_store %c[%m, %c0], %h : !tt.tensordesc<tensor<128x64xf16>>, tensor<128x64xf16, #mma>
    } {tt.warp_specialize}
    tt.return
  }
}

// -----

// The K loop itself marked, with a pointer-store epilogue after it: the
// epilogue moves into the default region; the partition is the K loop alone.
// CHECK-LABEL: tt.func public @k_loop
// CHECK: ttg.warp_specialize default {
// CHECK:   scf.for {{.*}} iter_args(%{{[^ ]*}} = %{{[^ ]*}}, %{{[^ ]*}} = %c0_i32{{[_0-9]*}}, %{{[^ ]*}} = %c0_i32{{[_0-9]*}})
// CHECK:   ttg.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
// CHECK:   tt.store
// CHECK:   ttg.warp_yield
// CHECK: } partition num_warps(1) {
// CHECK:      %{{.*}} = scf.for {{.*}} iter_args(%{{[^ ]*}} = %c0_i32{{[_0-9]*}}, %{{[^ ]*}} = %c0_i32{{[_0-9]*}}) -> (i32, i32)
// CHECK-NOT: scf.for
// CHECK:   ttg.warp_yield
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @k_loop(%a: !tt.tensordesc<tensor<128x64xf16>>, %b: !tt.tensordesc<tensor<64x64xf16>>,
                         %out: tensor<128x64x!tt.ptr<f32>, #mma>, %k: i32, %m: i32) {
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
    } {tt.warp_specialize}
    tt.store %out, %r : tensor<128x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// A tensor load before the loop would run on the producer's warp too, whose
// index the layouts do not cover: the hint is ignored.
// CHECK-LABEL: tt.func public @tensor_load_before
// CHECK-NOT: ttg.warp_specialize
// CHECK: tt.descriptor_load
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @tensor_load_before(%a: !tt.tensordesc<tensor<128x64xf16>>, %b: !tt.tensordesc<tensor<64x64xf16>>,
                                     %bias: tensor<128x64x!tt.ptr<f32>, #mma>, %out: tensor<128x64x!tt.ptr<f32>, #mma>,
                                     %k: i32, %m: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %init = tt.load %bias : tensor<128x64x!tt.ptr<f32>, #mma>
    %r = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %init) -> (tensor<128x64xf32, #mma>) : i32 {
      %x = tt.descriptor_load %a[%m, %i] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16, #blocked>
      %sa = ttg.local_alloc %x : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #nvmma, #smem>
      %y = tt.descriptor_load %b[%i, %m] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
      %sb = ttg.local_alloc %y : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      %d = ttg.warp_group_dot %sa, %sb, %acc : !ttg.memdesc<128x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<128x64xf32, #mma>
      scf.yield %d : tensor<128x64xf32, #mma>
    } {tt.warp_specialize}
    tt.store %out, %r : tensor<128x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// In a device function the partition's warps would return into the caller's
// code: left alone.
// CHECK-LABEL: tt.func private @device_function
// CHECK-NOT: ttg.warp_specialize
// CHECK: tt.descriptor_load
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func private @device_function(%a: !tt.tensordesc<tensor<128x64xf16>>, %b: !tt.tensordesc<tensor<64x64xf16>>,
                                   %out: tensor<128x64x!tt.ptr<f32>, #mma>, %k: i32, %m: i32) {
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
    } {tt.warp_specialize}
    tt.store %out, %r : tensor<128x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// A call: its callee would be lowered without knowing which warps run it
// (its CTA barriers would wait for the producer too): left alone.
// CHECK-LABEL: tt.func public @with_call
// CHECK-NOT: ttg.warp_specialize
// CHECK: tt.call @helper
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func private @helper(%x: tensor<128x64xf32, #mma>) -> tensor<128x64xf32, #mma> {
    tt.return %x : tensor<128x64xf32, #mma>
  }
  tt.func public @with_call(%a: !tt.tensordesc<tensor<128x64xf16>>, %b: !tt.tensordesc<tensor<64x64xf16>>,
                            %out: tensor<128x64x!tt.ptr<f32>, #mma>, %k: i32, %m: i32) {
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
    } {tt.warp_specialize}
    %s = tt.call @helper(%r) : (tensor<128x64xf32, #mma>) -> tensor<128x64xf32, #mma>
    tt.store %out, %s : tensor<128x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// Before Hopper there is no warp specialization to give: an error at the loop.
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:80"} {
  tt.func public @ampere(%k: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-error @+1 {{warp_specialize=True needs a Hopper GPU (sm_90) or later; the target is sm_80}}
    scf.for %i = %c0 to %k step %c1 : i32 {
    } {tt.warp_specialize}
    tt.return
  }
}
