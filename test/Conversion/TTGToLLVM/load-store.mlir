// RUN: tritium-opt %s -split-input-file -convert-ttg-to-llvm -canonicalize -cse | FileCheck %s

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// With 16-byte aligned pointers (tt.divisibility), contiguous offsets and a
// mask that is constant over groups of 16 (a bound divisible by 16), each
// thread's four f32 registers move with one predicated ld.global.v4.b32.
// Masked-off lanes get `other`, moved into the outputs under the negated
// predicate first: from registers, or as an immediate when `other` is a
// constant.  (Without `other`, an unconditional zero: see @f16_v8.)  The store is one predicated st.global.v4.b32; cache modifiers
// and eviction hints become qualifiers.
// CHECK-LABEL: llvm.func @masked_v4
// CHECK: %[[M:.*]] = llvm.icmp "slt"
// CHECK: %[[P:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK: %[[O0:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK: %[[L:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "@!$4 mov.u32 $0, $6;\0A@!$4 mov.u32 $1, $7;\0A@!$4 mov.u32 $2, $8;\0A@!$4 mov.u32 $3, $9;\0A@$4 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $5 + 0 ];", "=r,=r,=r,=r,b,l,r,r,r,r" %[[M]], %[[P]], %[[O0]], %{{.*}}, %{{.*}}, %{{.*}} : (i1, !llvm.ptr<1>, i32, i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: llvm.extractvalue %[[L]][0] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@!$4 mov.u32 $0, 0x0;\0A@!$4 mov.u32 $1, 0x0;\0A@!$4 mov.u32 $2, 0x0;\0A@!$4 mov.u32 $3, 0x0;\0A@$4 ld.global.cg.v4.b32 { $0, $1, $2, $3 }, [ $5 + 0 ];", "=r,=r,=r,=r,b,l" %[[M]], %[[P]]
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$0 st.global.L1::evict_first.v4.b32 [ $1 + 0 ], { $2, $3, $4, $5 };", "b,l,r,r,r,r" %[[M]], %[[P]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (i1, !llvm.ptr<1>, i32, i32, i32, i32) -> ()
// CHECK-NOT: ld.global
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @masked_v4(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}, %other: tensor<512xf32, #b>) {
    %r = tt.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #b>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #b>
    %m = arith.cmpi slt, %r, %ns : tensor<512xi32, #b>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
    %pp = tt.addptr %ps, %r : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    %x = tt.load %pp, %m, %other : tensor<512x!tt.ptr<f32>, #b>
    %zero = arith.constant dense<0.0> : tensor<512xf32, #b>
    %y = tt.load %pp, %m, %zero cacheModifier = cg : tensor<512x!tt.ptr<f32>, #b>
    %s = arith.addf %x, %y : tensor<512xf32, #b>
    tt.store %pp, %s, %m evictionPolicy = evict_first : tensor<512x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A load's eviction policy is also its priority in L2 (sm_80 on): a cache
// policy made once before the load, `createpolicy.fractional.L2::evict_*`
// with fraction 1.0, passed to ld.global with .L2::cache_hint.  A load
// with a cache modifier takes neither hint.
// CHECK-LABEL: llvm.func @eviction_priority_in_l2
// CHECK: %[[LAST:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "createpolicy.fractional.L2::evict_last.b64 $0, 1.0;", "=l" : () -> i64
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "mov.u32 $0, 0x0;\0Amov.u32 $1, 0x0;\0Amov.u32 $2, 0x0;\0Amov.u32 $3, 0x0;\0A@$4 ld.global.L1::evict_last.L2::cache_hint.v4.b32 { $0, $1, $2, $3 }, [ $5 + 0 ], $6;", "=r,=r,=r,=r,b,l,l" %{{.*}}, %{{.*}}, %[[LAST]]
// CHECK: %[[FIRST:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "createpolicy.fractional.L2::evict_first.b64 $0, 1.0;", "=l" : () -> i64
// CHECK: ld.global.L1::evict_first.L2::cache_hint.v4.b32 { $0, $1, $2, $3 }, [ $5 + 0 ], $6;", "=r,=r,=r,=r,b,l,l" %{{.*}}, %{{.*}}, %[[FIRST]]
// CHECK-NOT: createpolicy
// CHECK: ld.global.cg.v4.b32
module attributes {"ttg.num-warps" = 4 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @eviction_priority_in_l2(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #b>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #b>
    %m = arith.cmpi slt, %r, %ns : tensor<512xi32, #b>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
    %pp = tt.addptr %ps, %r : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    %x = tt.load %pp, %m evictionPolicy = evict_last : tensor<512x!tt.ptr<f32>, #b>
    %y = tt.load %pp, %m evictionPolicy = evict_first : tensor<512x!tt.ptr<f32>, #b>
    %z = tt.load %pp, %m cacheModifier = cg evictionPolicy = evict_last : tensor<512x!tt.ptr<f32>, #b>
    %s = arith.addf %x, %y : tensor<512xf32, #b>
    %t = arith.addf %s, %z : tensor<512xf32, #b>
    tt.store %pp, %t, %m : tensor<512x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// Eight f16 registers are 128 bits: four 32-bit words, each the two lanes
// of a vector<2xf16> (so that LLVM packs two fptruncs into one
// cvt.rn.f16x2.f32 and reads a word as two halves without shifts).  A
// masked load without `other` first zeroes its words unconditionally, so
// that ptxas sees each output defined on every path.
// CHECK-LABEL: llvm.func @f16_v8
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "mov.u32 $0, 0x0;\0Amov.u32 $1, 0x0;\0Amov.u32 $2, 0x0;\0Amov.u32 $3, 0x0;\0A@$4 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $5 + 0 ];"
// CHECK: %[[LANES:.*]] = llvm.bitcast %{{.*}} : i32 to vector<2xf16>
// CHECK: llvm.extractelement %[[LANES]][%{{.*}} : i32] : vector<2xf16>
// CHECK-NOT: llvm.lshr
// CHECK: %[[LOW:.*]] = llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK: %[[BOTH:.*]] = llvm.insertelement %{{.*}}, %[[LOW]][%{{.*}} : i32] : vector<2xf16>
// CHECK: llvm.bitcast %[[BOTH]] : vector<2xf16> to i32
// CHECK-NOT: llvm.shl
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$0 st.global.v4.b32 [ $1 + 0 ], { $2, $3, $4, $5 };"
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func public @f16_v8(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #b>
    %ns = tt.splat %n : i32 -> tensor<256xi32, #b>
    %m = arith.cmpi slt, %r, %ns : tensor<256xi32, #b>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>, #b>
    %pp = tt.addptr %ps, %r : tensor<256x!tt.ptr<f16>, #b>, tensor<256xi32, #b>
    %x = tt.load %pp, %m : tensor<256x!tt.ptr<f16>, #b>
    tt.store %pp, %x, %m : tensor<256x!tt.ptr<f16>, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// Without tt.divisibility the base pointer may be misaligned: one element
// per access, four scalar loads and stores per thread.
// CHECK-LABEL: llvm.func @unaligned
// CHECK-COUNT-4: ld.global.b32 $0, [ $2 + 0 ];
// CHECK-NOT: ld.global.v
// CHECK-COUNT-4: st.global.b32 [ $1 + 0 ], $2;
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func public @unaligned(%p: !tt.ptr<f32>, %n: i32 {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #b>
    %ns = tt.splat %n : i32 -> tensor<128xi32, #b>
    %m = arith.cmpi slt, %r, %ns : tensor<128xi32, #b>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %pp = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    %x = tt.load %pp, %m : tensor<128x!tt.ptr<f32>, #b>
    tt.store %pp, %x, %m : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// A bound without known divisibility may split a group: the mask limits the
// access to one element.
// CHECK-LABEL: llvm.func @mask_unaligned
// CHECK: ld.global.b32
// CHECK-NOT: ld.global.v
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func public @mask_unaligned(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<128xf32, #b> {
    %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #b>
    %ns = tt.splat %n : i32 -> tensor<128xi32, #b>
    %m = arith.cmpi slt, %r, %ns : tensor<128xi32, #b>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %pp = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    %x = tt.load %pp, %m : tensor<128x!tt.ptr<f32>, #b>
    tt.return %x : tensor<128xf32, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// Unmasked accesses with default caching are plain vector loads and stores
// with the group's alignment.
// CHECK-LABEL: llvm.func @unmasked
// CHECK: %[[V:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: llvm.extractelement %[[V]]
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK-NOT: llvm.inline_asm
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func public @unmasked(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #b>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %pp = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    %x = tt.load %pp : tensor<128x!tt.ptr<f32>, #b>
    tt.store %pp, %x : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// 32 elements over 128 threads: every element is held by four warps, and
// only warp 0 (warp & 3 == 0) stores.  A scalar store runs in thread 0
// alone; a scalar load is a plain load in every thread.
// CHECK-LABEL: llvm.func @duplicates
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[WARP:.*]] = llvm.lshr %[[TID]]
// CHECK: %[[WBITS:.*]] = llvm.and %[[WARP]], %{{.*}} : i32
// CHECK: %[[W0:.*]] = llvm.icmp "eq" %[[WBITS]], %{{.*}} : i32
// CHECK: "@$0 st.global.b32 [ $1 + 0 ], $2;", "b,l,r" %[[W0]]
// CHECK: %[[S:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK: %[[EITHER:.*]] = llvm.or %{{.*}}, %[[WARP]] : i32
// CHECK: %[[T0:.*]] = llvm.icmp "eq" %[[EITHER]], %{{.*}} : i32
// CHECK: "@$0 st.global.b32 [ $1 + 0 ], $2;", "b,l,r" %[[T0]]
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @duplicates(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %v: tensor<32xf32, #b>) {
    %r = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #b>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #b>
    %pp = tt.addptr %ps, %r : tensor<32x!tt.ptr<f32>, #b>, tensor<32xi32, #b>
    tt.store %pp, %v : tensor<32x!tt.ptr<f32>, #b>
    %s = tt.load %p : !tt.ptr<f32>
    tt.store %p, %s : !tt.ptr<f32>
    tt.return
  }
}
