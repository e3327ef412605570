// RUN: tritium-opt %s -split-input-file -ttg-allocate-shared-memory -convert-ttg-to-llvm -canonicalize -cse | FileCheck %s
// RUN: tritium-opt %s -split-input-file -ttg-allocate-shared-memory -convert-ttg-to-llvm="compute-capability=80" -canonicalize -cse | FileCheck %s --check-prefix=SM80

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// One element per thread and no duplicates: each thread runs its atom under
// its mask, with the op's ordering and scope, and keeps the old value; a
// masked-off element's result is 0.
// CHECK-LABEL: llvm.func @tensor_fadd
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK: %[[M:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(i1)>
// CHECK: %[[V:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f32)>
// CHECK: %[[OLD:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "@$1 atom.global.gpu.acq_rel.add.f32 $0, [ $2 + 0 ], $3;", "=f,b,l,f" %[[M]], %{{.*}}, %[[V]] : (i1, !llvm.ptr<1>, f32) -> f32
// CHECK: %[[SEL:.*]] = llvm.select %[[M]], %[[OLD]], %[[ZERO]] : i1, f32
// CHECK: llvm.insertvalue %[[SEL]], %{{.*}}[0]
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
// thread through shared memory (store under scf.if, barrier, load).  No
// barrier precedes the store: the membar pass places those.  An atomic
// whose result is unused needs no broadcast.
// CHECK: llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @scalar_cas
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[ANY:.*]] = llvm.or
// CHECK: %[[T0:.*]] = llvm.icmp "eq" %[[ANY]]
// CHECK: %[[OLD:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "@$1 atom.global.cta.acquire.cas.b32 $0, [ $2 + 0 ], $3, $4;", "=r,b,l,r,r" %[[T0]]
// CHECK-NOT: nvvm.barrier0
// CHECK: scf.if %[[T0]] {
// CHECK:   llvm.store %[[OLD]], %[[SMEM]] : i32, !llvm.ptr<3>
// CHECK: }
// CHECK: nvvm.barrier0
// CHECK: %[[ALL:.*]] = llvm.load %[[SMEM]] : !llvm.ptr<3> -> i32
// CHECK: "@$1 atom.global.gpu.relaxed.max.s32 $0, [ $2 + 0 ], $3;", "=r,b,l,r" %[[T0]]
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
// scratch buffer: store, barrier, load, with no barrier before the store.
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 128 : i32}
// CHECK-LABEL: llvm.func @duplicated_f16
// CHECK: %[[WARP:.*]] = llvm.lshr
// CHECK: %[[ONE:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
// CHECK: %[[OLD:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "@$1 atom.global.sys.relaxed.add.noftz.f16 $0, [ $2 + 0 ], $3;", "=h,b,l,h" %[[ONE]], %{{.*}}, %{{.*}} : (i1, !llvm.ptr<1>, i16) -> i16
// CHECK: %[[H:.*]] = llvm.bitcast %[[OLD]] : i16 to f16
// CHECK-NOT: nvvm.barrier0
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

// -----

#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Two consecutive f16 elements per thread, 16-byte aligned base, contiguous
// offsets: one add.noftz.f16x2 per pair on a b32 register that packs both
// halves, unpacked again for the old values.
// CHECK-LABEL: llvm.func @packed_f16x2
// CHECK: %[[A:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f16, f16)>
// CHECK: %[[B:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(f16, f16)>
// CHECK: %[[V0:.*]] = llvm.insertelement %[[A]]
// CHECK: %[[V1:.*]] = llvm.insertelement %[[B]], %[[V0]]
// CHECK: %[[W:.*]] = llvm.bitcast %[[V1]] : vector<2xf16> to i32
// CHECK: %[[OLD:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "atom.global.gpu.relaxed.add.noftz.f16x2 $0, [ $1 + 0 ], $2;", "=r,l,r" %{{.*}}, %[[W]] : (!llvm.ptr<1>, i32) -> i32
// CHECK: %[[OV:.*]] = llvm.bitcast %[[OLD]] : i32 to vector<2xf16>
// CHECK: llvm.extractelement %[[OV]]
// CHECK: llvm.extractelement %[[OV]]
// SM80-LABEL: llvm.func @packed_f16x2
// SM80: "atom.global.gpu.relaxed.add.noftz.f16x2 $0, [ $1 + 0 ], $2;"
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @packed_f16x2(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %v: tensor<256xf16, #b2>) -> tensor<256xf16, #b2> {
    %r = tt.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #b2>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>, #b2>
    %pp = tt.addptr %ps, %r : tensor<256x!tt.ptr<f16>, #b2>, tensor<256xi32, #b2>
    %old = tt.atomic_rmw fadd, relaxed, gpu, %pp, %v : (tensor<256x!tt.ptr<f16>, #b2>, tensor<256xf16, #b2>) -> tensor<256xf16, #b2>
    tt.return %old : tensor<256xf16, #b2>
  }
}

// -----

#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Negative case: without a known alignment of the base pointer, a pair may
// straddle a 4-byte boundary, so each f16 gets its own atom.
// CHECK-LABEL: llvm.func @unaligned_f16
// CHECK-NOT: f16x2
// CHECK-COUNT-2: atom.global.gpu.relaxed.add.noftz.f16 $0
// CHECK-NOT: f16x2
// CHECK: llvm.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @unaligned_f16(%p: !tt.ptr<f16>, %v: tensor<256xf16, #b2>) {
    %r = tt.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #b2>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>, #b2>
    %pp = tt.addptr %ps, %r : tensor<256x!tt.ptr<f16>, #b2>, tensor<256xi32, #b2>
    %old = tt.atomic_rmw fadd, relaxed, gpu, %pp, %v : (tensor<256x!tt.ptr<f16>, #b2>, tensor<256xf16, #b2>) -> tensor<256xf16, #b2>
    tt.return
  }
}

// -----

#b8 = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Eight consecutive, 16-byte aligned f16 elements per thread: on sm_90 one
// vector atom of four f16x2 words; on sm_80, which has no vector atoms,
// four packed f16x2 atoms.
// CHECK-LABEL: llvm.func @packed_f16_v4
// CHECK: "atom.global.gpu.acq_rel.add.noftz.v4.f16x2 { $0, $1, $2, $3 }, [ $4 + 0 ], { $5, $6, $7, $8 };", "=r,=r,=r,=r,l,r,r,r,r"
// CHECK-SAME: -> !llvm.struct<(i32, i32, i32, i32)>
// SM80-LABEL: llvm.func @packed_f16_v4
// SM80-COUNT-4: "atom.global.gpu.acq_rel.add.noftz.f16x2 $0, [ $1 + 0 ], $2;", "=r,l,r"
// SM80-NOT: atom.
// SM80: llvm.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @packed_f16_v4(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %v: tensor<1024xf16, #b8>) {
    %r = tt.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #b8>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #b8>
    %pp = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f16>, #b8>, tensor<1024xi32, #b8>
    %old = tt.atomic_rmw fadd, acq_rel, gpu, %pp, %v : (tensor<1024x!tt.ptr<f16>, #b8>, tensor<1024xf16, #b8>) -> tensor<1024xf16, #b8>
    tt.return
  }
}

// -----

#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Four consecutive f32 per thread, aligned, with a mask that is constant
// over each group of four (n divisible by 16): on sm_90 one add.v4.f32
// under the group's mask, each old value selected against 0; on sm_80,
// four scalar atoms.
// CHECK-LABEL: llvm.func @v4_f32
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK: %[[M:.*]] = llvm.icmp "slt"
// CHECK: %[[OLD:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "@$4 atom.global.sys.release.add.v4.f32 { $0, $1, $2, $3 }, [ $5 + 0 ], { $6, $7, $8, $9 };", "=f,=f,=f,=f,b,l,f,f,f,f" %[[M]]
// CHECK-SAME: -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: %[[O0:.*]] = llvm.extractvalue %[[OLD]][0]
// CHECK: llvm.select %[[M]], %[[O0]], %[[ZERO]] : i1, f32
// CHECK-NOT: atom.
// CHECK: llvm.return
// SM80-LABEL: llvm.func @v4_f32
// SM80-COUNT-4: atom.global.sys.release.add.f32 $0
// SM80-NOT: atom.
// SM80: llvm.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @v4_f32(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}, %v: tensor<512xf32, #b4>) -> tensor<512xf32, #b4> {
    %r = tt.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #b4>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #b4>
    %m = arith.cmpi slt, %r, %ns : tensor<512xi32, #b4>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b4>
    %pp = tt.addptr %ps, %r : tensor<512x!tt.ptr<f32>, #b4>, tensor<512xi32, #b4>
    %old = tt.atomic_rmw fadd, release, sys, %pp, %v, %m : (tensor<512x!tt.ptr<f32>, #b4>, tensor<512xf32, #b4>, tensor<512xi1, #b4>) -> tensor<512xf32, #b4>
    tt.return %old : tensor<512xf32, #b4>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// The integer operations and exchange: bitwise ops and exch on .b32/.b64
// (floats moved as their bits), signed and unsigned max/min, add on .u64,
// compare-and-swap on .b64 and on 16-bit values (.b16 with "h" registers),
// each with its own ordering and scope.
// CHECK-LABEL: llvm.func @integer_ops
// CHECK: "atom.global.cta.relaxed.and.b32 $0, [ $1 + 0 ], $2;", "=r,l,r"
// CHECK: "atom.global.gpu.acquire.or.b64 $0, [ $1 + 0 ], $2;", "=l,l,l"
// CHECK: "atom.global.sys.release.xor.b32 $0, [ $1 + 0 ], $2;", "=r,l,r"
// CHECK: %[[XB:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK: %[[X:.*]] = llvm.inline_asm {{.*}}"atom.global.gpu.acq_rel.exch.b32 $0, [ $1 + 0 ], $2;", "=r,l,r" %{{.*}}, %[[XB]]
// CHECK: "atom.global.gpu.acq_rel.max.u32 $0, [ $1 + 0 ], $2;"
// CHECK: "atom.global.gpu.acq_rel.min.u32 $0, [ $1 + 0 ], $2;"
// CHECK: "atom.global.gpu.acq_rel.min.s64 $0, [ $1 + 0 ], $2;", "=l,l,l"
// CHECK: "atom.global.gpu.acq_rel.add.u64 $0, [ $1 + 0 ], $2;", "=l,l,l"
// CHECK: "atom.global.acq_rel.cas.b64 $0, [ $1 + 0 ], $2, $3;", "=l,l,l,l"
// CHECK: "@$1 atom.global.sys.relaxed.cas.b16 $0, [ $2 + 0 ], $3, $4;", "=h,b,l,h,h"
// CHECK-SAME: (i1, !llvm.ptr<1>, i16, i16) -> i16
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @integer_ops(%p: !tt.ptr<i32>, %q: !tt.ptr<i64>, %f: !tt.ptr<f32>, %h: !tt.ptr<f16>, %v: tensor<128xi32, #b>, %w: tensor<128xi64, #b>, %x: tensor<128xf32, #b>) {
    %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #b>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #b>
    %pp = tt.addptr %ps, %r : tensor<128x!tt.ptr<i32>, #b>, tensor<128xi32, #b>
    %qs = tt.splat %q : !tt.ptr<i64> -> tensor<128x!tt.ptr<i64>, #b>
    %qp = tt.addptr %qs, %r : tensor<128x!tt.ptr<i64>, #b>, tensor<128xi32, #b>
    %fs = tt.splat %f : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %fp = tt.addptr %fs, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    %0 = tt.atomic_rmw and, relaxed, cta, %pp, %v : (tensor<128x!tt.ptr<i32>, #b>, tensor<128xi32, #b>) -> tensor<128xi32, #b>
    %1 = tt.atomic_rmw or, acquire, gpu, %qp, %w : (tensor<128x!tt.ptr<i64>, #b>, tensor<128xi64, #b>) -> tensor<128xi64, #b>
    %2 = tt.atomic_rmw xor, release, sys, %pp, %v : (tensor<128x!tt.ptr<i32>, #b>, tensor<128xi32, #b>) -> tensor<128xi32, #b>
    %3 = tt.atomic_rmw exch, acq_rel, gpu, %fp, %x : (tensor<128x!tt.ptr<f32>, #b>, tensor<128xf32, #b>) -> tensor<128xf32, #b>
    %4 = tt.atomic_rmw umax, acq_rel, gpu, %pp, %v : (tensor<128x!tt.ptr<i32>, #b>, tensor<128xi32, #b>) -> tensor<128xi32, #b>
    %5 = tt.atomic_rmw umin, acq_rel, gpu, %pp, %v : (tensor<128x!tt.ptr<i32>, #b>, tensor<128xi32, #b>) -> tensor<128xi32, #b>
    %6 = tt.atomic_rmw min, acq_rel, gpu, %qp, %w : (tensor<128x!tt.ptr<i64>, #b>, tensor<128xi64, #b>) -> tensor<128xi64, #b>
    %7 = tt.atomic_rmw add, acq_rel, gpu, %qp, %w : (tensor<128x!tt.ptr<i64>, #b>, tensor<128xi64, #b>) -> tensor<128xi64, #b>
    %8 = tt.atomic_cas acq_rel, gpu, %qp, %w, %w : (tensor<128x!tt.ptr<i64>, #b>, tensor<128xi64, #b>, tensor<128xi64, #b>) -> tensor<128xi64, #b>
    %c0 = arith.constant 0.0 : f16
    %c1 = arith.constant 1.0 : f16
    %9 = tt.atomic_cas relaxed, sys, %h, %c0, %c1 : (!tt.ptr<f16>, f16, f16) -> f16
    tt.return
  }
}
