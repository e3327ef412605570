// RUN: tritium-opt %s -ttg-allocate-shared-memory -ttg-membar -convert-ttg-to-llvm -canonicalize -cse | FileCheck %s

// ttg.warp_specialize after the conversion: the CTA barrier the membar pass
// placed before it (all warps, after the mbarrier inits), then a branch on
// the warp index: warps 0-3 run the default region, where a CTA barrier is
// the named barrier of those warps (the layout conversion's) and each warp
// arrives on the empty barrier from lane 0; warp 4 runs the partition, whose
// issuing thread is warp 4's elected lane (tid in [128, 160); the lane of
// the elect.sync at the function's entry, which every warp runs) and which
// polls the empty barrier.  Both regions branch to the return.  The kernel
// is launched with 160 threads.
// CHECK-LABEL: llvm.func @specialized
// CHECK-SAME: nvvm.reqntid = array<i32: 160, 1, 1>
// CHECK: %[[ELECTED:.*]] = nvvm.elect.sync -> i1
// CHECK-NOT: nvvm.elect.sync
// CHECK: mbarrier.init.shared::cta.b64 [ $1 + 0 ], 4;
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: %[[WARP:.*]] = llvm.udiv %[[TID:.*]], %{{.*}} : i32
// CHECK-NEXT: %[[DEFAULT:.*]] = llvm.icmp "ult" %[[WARP]], %{{.*}} : i32
// CHECK-NEXT: llvm.cond_br %[[DEFAULT]], ^[[D:bb[0-9]+]], ^[[P:bb[0-9]+]]
// CHECK: ^[[D]]:
// CHECK: mbarrier.try_wait.parity
// CHECK: wgmma.mma_async
// CHECK: llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
// CHECK: mbarrier.arrive.shared::cta.b64 _, [ $1 + 0 ];
// CHECK-NOT: nvvm.barrier0
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.br ^[[AFTER:bb[0-9]+]]
// CHECK: ^[[P]]:
// CHECK: mbarrier.test_wait.parity
// CHECK: llvm.icmp "ult" %[[TID]], %{{.*}} : i32
// CHECK: llvm.icmp "uge" %[[TID]], %{{.*}} : i32
// CHECK: llvm.and %{{.*}}, %[[ELECTED]] : i1
// CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _, [ $1 + 0 ], 8192;
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
// CHECK-NOT: nvvm.barrier
// CHECK: llvm.br ^[[AFTER]]
// CHECK: ^[[AFTER]]:
// CHECK-NEXT: llvm.return
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90", "ttg.total-num-warps" = 5 : i32} {
  tt.func public @specialized(%a: !tt.tensordesc<tensor<64x64xf16>>, %out: tensor<64x64x!tt.ptr<f32>, #blocked>, %k: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %ring = ttg.local_alloc : () -> !ttg.memdesc<1x64x64xf16, #nvmma, #smem, mutable>
    %fulls = ttg.local_alloc : () -> !ttg.memdesc<1x1xi64, #shared, #smem, mutable>
    %empties = ttg.local_alloc : () -> !ttg.memdesc<1x1xi64, #shared, #smem, mutable>
    %full = ttg.memdesc_index %fulls[%c0] : !ttg.memdesc<1x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 1x1>
    %empty = ttg.memdesc_index %empties[%c0] : !ttg.memdesc<1x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 1x1>
    %slot = ttg.memdesc_index %ring[%c0] : !ttg.memdesc<1x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 1x64x64>
    ttg.init_barrier %full, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 1x1>
    ttg.init_barrier %empty, 4 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 1x1>
    ttg.warp_specialize default {
      %r = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
        ttg.wait_barrier %full, %c0 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 1x1>
        %d = ttg.warp_group_dot %slot, %slot, %acc : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 1x64x64> * !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 1x64x64> -> tensor<64x64xf32, #mma>
        ttg.arrive_barrier %empty, %true : !ttg.memdesc<1xi64, #shared, #smem, mutable, 1x1>
        scf.yield %d : tensor<64x64xf32, #mma>
      }
      %c = ttg.convert_layout %r : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
      tt.store %out, %c : tensor<64x64x!tt.ptr<f32>, #blocked>
      ttg.warp_yield
    } partition num_warps(1) {
      scf.for %i = %c0 to %k step %c1 : i32 {
        ttg.wait_barrier %empty, %c1 {poll} : !ttg.memdesc<1xi64, #shared, #smem, mutable, 1x1>
        ttg.barrier_expect %full, 8192, %true : !ttg.memdesc<1xi64, #shared, #smem, mutable, 1x1>
        ttg.async_tma_copy_global_to_local %a[%i, %c0] %slot, %full, %true : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 1x1> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 1x64x64>
      }
      ttg.warp_yield
    }
    tt.return
  }
}
