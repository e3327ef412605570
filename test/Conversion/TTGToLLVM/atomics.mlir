// RUN: tritium-opt %s -split-input-file -allocate-shared-memory -convert-ttg-to-llvm -canonicalize -cse | FileCheck %s

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// One element per thread and no duplicates: each thread runs its atom under
// its mask, with the op's ordering and scope, and keeps the old value.
// CHECK-LABEL: llvm.func @tensor_fadd
// CHECK: %[[M:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(i1)>
// CHECK: %[[V:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f32)>
// CHECK: %[[OLD:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "@$1 atom.acq_rel.gpu.global.add.f32 $0, [ $2 + 0 ], $3;", "=f,b,l,f" %[[M]], %{{.*}}, %[[V]] : (i1, !llvm.ptr<1>, f32) -> f32
// CHECK: llvm.insertvalue %[[OLD]], %{{.*}}[0]
// CHECK-NOT: nvvm.barrier0
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @tensor_fadd(%p: !tt.ptr<f32>, %v: tensor<128xf32, #b>, %m: tensor<128xi1, #b>) -> tensor<128xf32, #b> {
    %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #b>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %pp = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    %old = tt.atomic_rmw fadd, acq_rel, gpu, %pp, %v, %m : (tensor<128x!tt.ptr<f32>, #b>, tensor<128xf32, #b>, tensor<128xi1, #b>) -> tensor<128xf32, #b>
    tt.return %old : tensor<128xf32, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A scalar compare-and-swap runs in thread 0 only; its result reaches every
// thread through shared memory (barrier, store under scf.if, barrier, load).
// An atomic whose result is unused needs no broadcast.
// CHECK: llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @scalar_cas
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[ANY:.*]] = llvm.or
// CHECK: %[[T0:.*]] = llvm.icmp "eq" %[[ANY]]
// CHECK: %[[OLD:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "@$1 atom.acquire.cta.global.cas.b32 $0, [ $2 + 0 ], $3, $4;", "=r,b,l,r,r" %[[T0]]
// CHECK: nvvm.barrier0
// CHECK: scf.if %[[T0]] {
// CHECK:   llvm.store %[[OLD]], %[[SMEM]] : i32, !llvm.ptr<3>
// CHECK: }
// CHECK: nvvm.barrier0
// CHECK: %[[ALL:.*]] = llvm.load %[[SMEM]] : !llvm.ptr<3> -> i32
// CHECK: "@$1 atom.relaxed.gpu.global.max.s32 $0, [ $2 + 0 ], $3;", "=r,b,l,r" %[[T0]]
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return %[[ALL]]
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @scalar_cas(%q: !tt.ptr<i32>) -> i32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %prev = tt.atomic_cas acquire, cta, %q, %c0, %c1 : (!tt.ptr<i32>, i32, i32) -> i32
    %unused = tt.atomic_rmw max, relaxed, gpu, %q, %c1 : (!tt.ptr<i32>, i32) -> i32
    tt.return %prev : i32
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// 64 f16 elements over 128 threads: warps 0-1 and 2-3 hold the same
// elements, so only warps with warp bit 1 clear run the atom (add.noftz.f16
// on 16-bit registers), and the results are shared through the op's
// scratch buffer.
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 128 : i32}
// CHECK-LABEL: llvm.func @duplicated_f16
// CHECK: %[[WARP:.*]] = llvm.lshr
// CHECK: %[[ONE:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
// CHECK: %[[OLD:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "@$1 atom.relaxed.sys.global.add.noftz.f16 $0, [ $2 + 0 ], $3;", "=h,b,l,h" %[[ONE]], %{{.*}}, %{{.*}} : (i1, !llvm.ptr<1>, i16) -> i16
// CHECK: %[[H:.*]] = llvm.bitcast %[[OLD]] : i16 to f16
// CHECK: nvvm.barrier0
// CHECK: scf.if %[[ONE]] {
// CHECK:   llvm.store %[[H]], %{{.*}} {alignment = 2 : i64} : f16, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<3> -> f16
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @duplicated_f16(%h: !tt.ptr<f16>, %hv: tensor<64xf16, #b>) -> tensor<64xf16, #b> {
    %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #b>
    %hs = tt.splat %h : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #b>
    %hp = tt.addptr %hs, %r : tensor<64x!tt.ptr<f16>, #b>, tensor<64xi32, #b>
    %old = tt.atomic_rmw fadd, relaxed, sys, %hp, %hv : (tensor<64x!tt.ptr<f16>, #b>, tensor<64xf16, #b>) -> tensor<64xf16, #b>
    tt.return %old : tensor<64xf16, #b>
  }
}
