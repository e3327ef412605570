// RUN: tritium-opt %s -split-input-file -ttg-lower-tensor-descriptors -ttg-allocate-shared-memory -ttg-membar -convert-ttg-to-llvm -canonicalize -cse | FileCheck %s

// A descriptor argument is its tensor map by value: byval, 64-byte
// aligned, a grid constant.  The issuing thread (warp 0's lane that
// elect.sync picks, once, at the function's entry) initializes the barrier (all threads fence it for the
// copy engine), a CTA barrier orders that before its expect and its two
// copies (a 64x128 fp16 tile is two 128-byte slabs,
// the second 64 columns on and 8192 bytes further), coordinates innermost
// first; every thread waits on phase 0.
// CHECK-LABEL: llvm.func @load_two_slabs
// CHECK-SAME: %arg0: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}
// CHECK: %[[ELECTED:.*]] = nvvm.elect.sync -> i1
// CHECK-NOT: nvvm.elect.sync
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[WARP0:.*]] = llvm.icmp "ult" %[[TID]], %{{.*}} : i32
// CHECK: %[[ISSUING:.*]] = llvm.and %[[WARP0]], %[[ELECTED]] : i1
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
// the issuing thread's copy out and commit, then the wait until the copy has read the
// tile (by every thread: the one that issued it is among them).
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

// -----

// A tensor map made in the kernel: its slot is the scratch argument plus
// (x + nx * (y + ny * z)) * 256 + its offset bytes (two maps a program);
// every thread waits for its bulk stores' reads; the issuing thread
// encodes the map in the op's shared scratch (zeroes, then every field:
// rank - 1; dimensions innermost first: box 32 then 16, the shape, the
// outer stride in bytes; element type 7 = f32; 128-byte rows: swizzle mode
// 3; fill 0 = zeros); its warp copies it to the slot and releases it
// for the tensor-map proxy in one collective instruction; the thread
// acquires it, and the copy reads the map at the slot's generic address.
// The two maps are made one after the other: the first is acquired after
// the second (ttg.tensormap_fences_deferred).
// CHECK-LABEL: llvm.func @made_in_kernel
// CHECK-SAME: %arg3: !llvm.ptr<1>)
// CHECK-DAG: %[[PROGRAM_BYTES:.*]] = llvm.mlir.constant(256 : i64) : i64
// CHECK-DAG: %[[FOUR:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: nvvm.read.ptx.sreg.ctaid.z
// CHECK: nvvm.read.ptx.sreg.nctaid.y
// CHECK: nvvm.read.ptx.sreg.nctaid.x
// CHECK: %[[PROGRAM:.*]] = llvm.zext
// CHECK: llvm.mul %[[PROGRAM]], %[[PROGRAM_BYTES]] : i64
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %arg3[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK: %[[STRIDE_BYTES:.*]] = llvm.mul %arg2, %[[FOUR]] : i64
// The first map is made right before the second: it is not acquired here.
// CHECK: "cp.async.bulk.wait_group.read 0;\0A@$0 st.shared.v4.b32 [$2+0], {$3, $3, $3, $3};
// CHECK-SAME: @$0 tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [$2], 0;
// CHECK-SAME: @$8 bar.warp.sync -1;
// CHECK-SAME: @$8 tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [$1], [$2], 128;", "b,l,r,r,l,r,r,l,b" %{{.*}}, %[[SLOT]], %[[DRAFT:[0-9]+]],
// CHECK: %[[OTHER:.*]] = llvm.addrspacecast %[[SLOT]] : !llvm.ptr<1> to !llvm.ptr
// CHECK: %[[SLOT2:.*]] = llvm.getelementptr %arg3[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK: "cp.async.bulk.wait_group.read 0;\0A@$0 st.shared.v4.b32 [$2+0], {$3, $3, $3, $3};
// CHECK-SAME: @$0 st.shared.v4.b32 [$2+112], {$3, $3, $3, $3};
// CHECK-SAME: @$0 tensormap.replace.tile.global_address.shared::cta.b1024.b64 [$2], $4;
// CHECK-SAME: @$0 tensormap.replace.tile.rank.shared::cta.b1024.b32 [$2], 1;
// CHECK-SAME: @$0 tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [$2], 0, 32;
// CHECK-SAME: @$0 tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [$2], 0, $5;
// CHECK-SAME: @$0 tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [$2], 0, 1;
// CHECK-SAME: @$0 tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [$2], 1, 16;
// CHECK-SAME: @$0 tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [$2], 1, $6;
// CHECK-SAME: @$0 tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [$2], 0, $7;
// CHECK-SAME: @$0 tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [$2], 7;
// CHECK-SAME: @$0 tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [$2], 3;
// CHECK-SAME: @$0 tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [$2], 0;
// CHECK-SAME: @$8 bar.warp.sync -1;
// CHECK-SAME: @$8 tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [$1], [$2], 128;
// CHECK-SAME: @$0 fence.proxy.tensormap::generic.acquire.gpu [$1], 128;
// CHECK-SAME: @$0 cp.async.bulk.commit_group;
// CHECK-SAME: @$0 cp.async.bulk.wait_group.read 0;
// CHECK-SAME: "b,l,r,r,l,r,r,l,b" %{{.*}}, %[[SLOT2]], %[[DRAFT]], %{{.*}}, %{{.*}}, %arg1, %arg1, %[[STRIDE_BYTES]]
// CHECK: %[[MAP:.*]] = llvm.addrspacecast %[[SLOT2]] : !llvm.ptr<1> to !llvm.ptr
// The first, released by its own copy, is acquired after the second.
// CHECK: "@$0 fence.proxy.tensormap::generic.acquire.gpu [$1], 128;\0A@$0 cp.async.bulk.commit_group;\0A@$0 cp.async.bulk.wait_group.read 0;", "b,l" %{{.*}}, %[[OTHER]]
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes {{.*}} %[[MAP]]
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @made_in_kernel(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32, %s: i64 {tt.divisibility = 16 : i32}) -> tensor<16x32xf32, #blocked> {
    %c1 = arith.constant 1 : i64
    %other = tt.make_tensor_descriptor %p, [%n, %n], [%s, %c1] {padding = 1 : i32} : !tt.ptr<f32> -> !tt.tensordesc<tensor<16x32xf32>>
    %a = tt.make_tensor_descriptor %p, [%n, %n], [%s, %c1] {padding = 1 : i32} : !tt.ptr<f32> -> !tt.tensordesc<tensor<16x32xf32>>
    %x = tt.descriptor_load %a[%n, %n] : !tt.tensordesc<tensor<16x32xf32>> -> tensor<16x32xf32, #blocked>
    %y = tt.descriptor_load %other[%n, %n] : !tt.tensordesc<tensor<16x32xf32>> -> tensor<16x32xf32, #blocked>
    %z = arith.addf %x, %y : tensor<16x32xf32, #blocked>
    tt.return %z : tensor<16x32xf32, #blocked>
  }
}
