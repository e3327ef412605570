// RUN: tritium-opt %s -split-input-file -ttg-lower-tensor-descriptors -allocate-shared-memory -ttg-membar -convert-ttg-to-llvm -canonicalize -cse | FileCheck %s

// A descriptor argument is its tensor map by value: byval, 64-byte
// aligned, a grid constant.  Thread 0 initializes the barrier (all threads
// fence it for the copy engine), a CTA barrier orders that before thread
// 0's expect and its two copies (a 64x128 fp16 tile is two 128-byte slabs,
// the second 64 columns on and 8192 bytes further), coordinates innermost
// first; every thread waits on phase 0.
// CHECK-LABEL: llvm.func @load_two_slabs
// CHECK-SAME: %arg0: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}
// CHECK: "@$0 mbarrier.init.shared::cta.b64 [ $1 + 0 ], 1;\0Afence.mbarrier_init.release.cluster;"
// CHECK: nvvm.barrier0
// CHECK: "@$0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [ $1 + 0 ], 16384;"
// CHECK: %[[J64:.*]] = llvm.add %arg2, %{{.*}} : i32
// CHECK: "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$3], [$1, {$4, $5}], [$2];\0A@$0 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$6], [$1, {$7, $8}], [$2];", "b,l,r,r,r,r,r,r,r" %{{.*}}, %arg0, %{{.*}}, %{{.*}}, %arg2, %arg1, %{{.*}}, %[[J64]], %arg1
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;
// CHECK: "@$0 mbarrier.inval.shared::cta.b64 [ $1 + 0 ];"
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @load_two_slabs(%in: !tt.tensordesc<tensor<64x128xf16>>, %i: i32, %j: i32) -> tensor<64x128xf16, #blocked> {
    %x = tt.descriptor_load %in[%i, %j] : !tt.tensordesc<tensor<64x128xf16>> -> tensor<64x128xf16, #blocked>
    tt.return %x : tensor<64x128xf16, #blocked>
  }
}

// -----

// A store: the tile written from registers and fenced, a CTA barrier,
// thread 0's copy out and commit, then the wait until the copy has read the
// tile.
// CHECK-LABEL: llvm.func @store_plain
// CHECK: fence.proxy.async.shared::cta
// CHECK: nvvm.barrier0
// CHECK: "@$0 cp.async.bulk.tensor.1d.global.shared::cta.bulk_group [$1, {$3}], [$2];\0A@$0 cp.async.bulk.commit_group;"
// CHECK: "cp.async.bulk.wait_group.read 0;"
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @store_plain(%out: !tt.tensordesc<tensor<256xf32>>, %i: i32, %x: tensor<256xf32, #blocked>) {
    tt.descriptor_store %out[%i], %x : !tt.tensordesc<tensor<256xf32>>, tensor<256xf32, #blocked>
    tt.return
  }
}
