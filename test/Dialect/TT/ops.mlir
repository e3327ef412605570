// RUN: tritium-opt %s -split-input-file | tritium-opt -split-input-file | FileCheck %s

// Pointer types: the default global address space prints bare, others show it;
// a block pointer points to a tile.
// CHECK-LABEL: tt.func @pointer_types
// CHECK-SAME: (%{{.*}}: !tt.ptr<f32>, %{{.*}}: !tt.ptr<i8, 3>, %{{.*}}: !tt.ptr<tensor<64x32xf16>>)
tt.func @pointer_types(%a: !tt.ptr<f32, 1>, %b: !tt.ptr<i8, 3>, %c: !tt.ptr<tensor<64x32xf16>>) {
  tt.return
}

// -----

// Calls, returns and argument attributes of device functions.
// CHECK-LABEL: tt.func private @combine
// CHECK: tt.return %{{.*}} : f32
// CHECK-LABEL: tt.func public @caller
// CHECK-SAME: {tt.divisibility = 16 : i32}
// CHECK: %[[R:.*]] = tt.call @combine(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: tt.return %[[R]] : f32
tt.func private @combine(%a: f32, %b: f32) -> f32 {
  %s = arith.addf %a, %b : f32
  tt.return %s : f32
}
tt.func public @caller(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %x: f32) -> f32 {
  %r = tt.call @combine(%x, %x) : (f32, f32) -> f32
  tt.return %r : f32
}

// -----

// Program ids, ranges and shape manipulation.
// CHECK-LABEL: tt.func @shapes
// CHECK: tt.get_program_id {axis = 0 : i32} : i32
// CHECK: tt.get_num_programs {axis = 2 : i32} : i32
// CHECK: %[[R:.*]] = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
// CHECK: %[[E:.*]] = tt.expand_dims %[[R]] {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
// CHECK: %[[B:.*]] = tt.broadcast %[[E]] : tensor<64x1xi32> -> tensor<64x32xi32>
// CHECK: tt.splat %{{.*}} : i32 -> tensor<64x32xi32>
// CHECK: %[[T:.*]] = tt.trans %[[B]] {order = array<i32: 1, 0>} : tensor<64x32xi32> -> tensor<32x64xi32>
// CHECK: tt.reshape %[[T]] allow_reorder : tensor<32x64xi32> -> tensor<2048xi32>
// CHECK: tt.reshape %[[T]] efficient_layout : tensor<32x64xi32> -> tensor<64x32xi32>
// CHECK: %[[J:.*]] = tt.join %[[R]], %[[R]] : tensor<64xi32> -> tensor<64x2xi32>
// CHECK: %{{.*}}, %{{.*}} = tt.split %[[J]] : tensor<64x2xi32> -> tensor<64xi32>
// CHECK: tt.cat %[[R]], %[[R]] : tensor<64xi32> -> tensor<128xi32>
tt.func @shapes(%n: i32) {
  %pid = tt.get_program_id {axis = 0 : i32} : i32
  %np = tt.get_num_programs {axis = 2 : i32} : i32
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %e = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %b = tt.broadcast %e : tensor<64x1xi32> -> tensor<64x32xi32>
  %s = tt.splat %n : i32 -> tensor<64x32xi32>
  %t = tt.trans %b {order = array<i32: 1, 0>} : tensor<64x32xi32> -> tensor<32x64xi32>
  %f = tt.reshape %t allow_reorder : tensor<32x64xi32> -> tensor<2048xi32>
  %g = tt.reshape %t efficient_layout : tensor<32x64xi32> -> tensor<64x32xi32>
  %j = tt.join %r, %r : tensor<64xi32> -> tensor<64x2xi32>
  %lo, %hi = tt.split %j : tensor<64x2xi32> -> tensor<64xi32>
  %c = tt.cat %r, %r : tensor<64xi32> -> tensor<128xi32>
  tt.return
}

// -----

// Loads and stores with masks, other values, cache and eviction hints,
// volatility; loads and stores through block pointers with boundary checks.
// CHECK-LABEL: tt.func @memory
// CHECK: %[[P:.*]] = tt.addptr %{{.*}}, %{{.*}} : tensor<128x!tt.ptr<f16>>, tensor<128xi32>
// CHECK: tt.load %[[P]] : tensor<128x!tt.ptr<f16>>
// CHECK: tt.load %[[P]], %[[M:.*]], %[[O:.*]] cacheModifier = cg evictionPolicy = evict_last {isVolatile = true} : tensor<128x!tt.ptr<f16>>
// CHECK: tt.store %[[P]], %{{.*}}, %[[M]] cacheModifier = cs : tensor<128x!tt.ptr<f16>>
// CHECK: tt.load %{{.*}} : !tt.ptr<f16>
// CHECK: %[[BP:.*]] = tt.make_tensor_ptr %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x32xf16>>
// CHECK: %[[ADV:.*]] = tt.advance %[[BP]], [%{{.*}}, %{{.*}}] : !tt.ptr<tensor<64x32xf16>>
// CHECK: tt.load %[[ADV]] {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x32xf16>>
// CHECK: tt.store %[[ADV]], %{{.*}} {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<64x32xf16>>
tt.func @memory(%base: !tt.ptr<f16>, %n: i32, %m64: i64, %k64: i64) {
  %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %bp = tt.splat %base : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>>
  %p = tt.addptr %bp, %r : tensor<128x!tt.ptr<f16>>, tensor<128xi32>
  %ns = tt.splat %n : i32 -> tensor<128xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<128xi32>
  %o = arith.constant dense<0.0> : tensor<128xf16>
  %a = tt.load %p : tensor<128x!tt.ptr<f16>>
  %b = tt.load %p, %m, %o cacheModifier = cg evictionPolicy = evict_last {isVolatile = true} : tensor<128x!tt.ptr<f16>>
  tt.store %p, %b, %m cacheModifier = cs : tensor<128x!tt.ptr<f16>>
  %s = tt.load %base : !tt.ptr<f16>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %c32 = arith.constant 32 : i32
  %tp = tt.make_tensor_ptr %base, [%m64, %k64], [%k64, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x32xf16>>
  %adv = tt.advance %tp, [%c0, %c32] : !tt.ptr<tensor<64x32xf16>>
  %tile = tt.load %adv {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x32xf16>>
  tt.store %adv, %tile {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<64x32xf16>>
  tt.return
}

// -----

// Atomic read-modify-write of every kind, and compare-and-swap, scalar and
// tensor, with orderings and scopes.
// CHECK-LABEL: tt.func @atomics
// CHECK: tt.atomic_rmw fadd, acq_rel, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<64x!tt.ptr<f32>>, tensor<64xf32>, tensor<64xi1>) -> tensor<64xf32>
// CHECK: tt.atomic_rmw max, relaxed, cta, %{{.*}}, %{{.*}} : (tensor<64x!tt.ptr<f32>>, tensor<64xf32>) -> tensor<64xf32>
// CHECK: tt.atomic_rmw add, acquire, sys
// CHECK: tt.atomic_rmw umax, release, gpu
// CHECK: tt.atomic_rmw umin, relaxed, gpu
// CHECK: tt.atomic_rmw min, relaxed, gpu
// CHECK: tt.atomic_rmw and, relaxed, gpu
// CHECK: tt.atomic_rmw or, relaxed, gpu
// CHECK: tt.atomic_rmw xor, relaxed, gpu
// CHECK: tt.atomic_rmw exch, relaxed, gpu
// CHECK: tt.atomic_cas acq_rel, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (!tt.ptr<i32>, i32, i32) -> i32
tt.func @atomics(%fp: tensor<64x!tt.ptr<f32>>, %fv: tensor<64xf32>, %mask: tensor<64xi1>, %ip: !tt.ptr<i32>, %iv: i32) {
  %0 = tt.atomic_rmw fadd, acq_rel, gpu, %fp, %fv, %mask : (tensor<64x!tt.ptr<f32>>, tensor<64xf32>, tensor<64xi1>) -> tensor<64xf32>
  %1 = tt.atomic_rmw max, relaxed, cta, %fp, %fv : (tensor<64x!tt.ptr<f32>>, tensor<64xf32>) -> tensor<64xf32>
  %2 = tt.atomic_rmw add, acquire, sys, %ip, %iv : (!tt.ptr<i32>, i32) -> i32
  %3 = tt.atomic_rmw umax, release, gpu, %ip, %iv : (!tt.ptr<i32>, i32) -> i32
  %4 = tt.atomic_rmw umin, relaxed, gpu, %ip, %iv : (!tt.ptr<i32>, i32) -> i32
  %5 = tt.atomic_rmw min, relaxed, gpu, %ip, %iv : (!tt.ptr<i32>, i32) -> i32
  %6 = tt.atomic_rmw and, relaxed, gpu, %ip, %iv : (!tt.ptr<i32>, i32) -> i32
  %7 = tt.atomic_rmw or, relaxed, gpu, %ip, %iv : (!tt.ptr<i32>, i32) -> i32
  %8 = tt.atomic_rmw xor, relaxed, gpu, %ip, %iv : (!tt.ptr<i32>, i32) -> i32
  %9 = tt.atomic_rmw exch, relaxed, gpu, %ip, %iv : (!tt.ptr<i32>, i32) -> i32
  %10 = tt.atomic_cas acq_rel, gpu, %ip, %iv, %iv : (!tt.ptr<i32>, i32, i32) -> i32
  tt.return
}

// -----

// Dot with input precision and imprecise-accumulation limit; fp8 operands of
// different formats; batched dot.
// CHECK-LABEL: tt.func @dots
// CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = tf32 : tensor<128x32xf32> * tensor<32x64xf32> -> tensor<128x64xf32>
// CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}} {maxNumImpreciseAcc = 32 : i32} : tensor<64x32xf8E4M3FN> * tensor<32x64xf8E5M2> -> tensor<64x64xf32>
// CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x16x16xf16> * tensor<2x16x16xf16> -> tensor<2x16x16xf32>
tt.func @dots(%a: tensor<128x32xf32>, %b: tensor<32x64xf32>, %c: tensor<128x64xf32>,
              %a8: tensor<64x32xf8E4M3FN>, %b8: tensor<32x64xf8E5M2>, %c8: tensor<64x64xf32>,
              %ba: tensor<2x16x16xf16>, %bc: tensor<2x16x16xf32>) {
  %0 = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<128x32xf32> * tensor<32x64xf32> -> tensor<128x64xf32>
  %1 = tt.dot %a8, %b8, %c8 {maxNumImpreciseAcc = 32 : i32} : tensor<64x32xf8E4M3FN> * tensor<32x64xf8E5M2> -> tensor<64x64xf32>
  %2 = tt.dot %ba, %ba, %bc : tensor<2x16x16xf16> * tensor<2x16x16xf16> -> tensor<2x16x16xf32>
  tt.return
}

// -----

// Reductions with one and two operands (argmax), to a tensor and to a
// scalar; scans forward and reverse.
// CHECK-LABEL: tt.func @reduce_scan
// CHECK: "tt.reduce"(%{{.*}}) <{axis = 1 : i32}> ({
// CHECK: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK: tt.reduce.return %{{.*}} : f32
// CHECK: }) : (tensor<32x64xf32>) -> tensor<32xf32>
// CHECK: "tt.reduce"(%{{.*}}, %{{.*}}) <{axis = 0 : i32}> ({
// CHECK: tt.reduce.return %{{.*}}, %{{.*}} : f32, i32
// CHECK: }) : (tensor<64xf32>, tensor<64xi32>) -> (f32, i32)
// CHECK: "tt.scan"(%{{.*}}) <{axis = 0 : i32, reverse = true}> ({
// CHECK: tt.scan.return %{{.*}} : i32
// CHECK: }) : (tensor<128xi32>) -> tensor<128xi32>
tt.func @reduce_scan(%x: tensor<32x64xf32>, %v: tensor<64xf32>, %i: tensor<64xi32>, %s: tensor<128xi32>) {
  %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %m = arith.maxnumf %a, %b : f32
    tt.reduce.return %m : f32
  }) : (tensor<32x64xf32>) -> tensor<32xf32>
  %1:2 = "tt.reduce"(%v, %i) <{axis = 0 : i32}> ({
  ^bb0(%av: f32, %ai: i32, %bv: f32, %bi: i32):
    %gt = arith.cmpf ogt, %av, %bv : f32
    %mv = arith.select %gt, %av, %bv : f32
    %mi = arith.select %gt, %ai, %bi : i32
    tt.reduce.return %mv, %mi : f32, i32
  }) : (tensor<64xf32>, tensor<64xi32>) -> (f32, i32)
  %2 = "tt.scan"(%s) <{axis = 0 : i32, reverse = true}> ({
  ^bb0(%a: i32, %b: i32):
    %t = arith.addi %a, %b : i32
    tt.scan.return %t : i32
  }) : (tensor<128xi32>) -> tensor<128xi32>
  tt.return
}

// -----

// Histogram and gather.
// CHECK-LABEL: tt.func @histogram_gather
// CHECK: tt.histogram %{{.*}} : tensor<1024xi32> -> tensor<16xi32>
// CHECK: tt.gather %{{.*}}[%{{.*}}] {axis = 1 : i32} : (tensor<32x64xf32>, tensor<32x8xi32>) -> tensor<32x8xf32>
tt.func @histogram_gather(%x: tensor<1024xi32>, %src: tensor<32x64xf32>, %idx: tensor<32x8xi32>) {
  %h = tt.histogram %x : tensor<1024xi32> -> tensor<16xi32>
  %g = tt.gather %src[%idx] {axis = 1 : i32} : (tensor<32x64xf32>, tensor<32x8xi32>) -> tensor<32x8xf32>
  tt.return
}

// -----

// Casts and special arithmetic.
// CHECK-LABEL: tt.func @casts
// CHECK: tt.fp_to_fp %{{.*}}, rounding = rtne : tensor<64xf32> -> tensor<64xf8E4M3FN>
// CHECK: tt.fp_to_fp %{{.*}} : tensor<64xf8E5M2> -> tensor<64xf16>
// CHECK: tt.bitcast %{{.*}} : tensor<64xf32> -> tensor<64xi32>
// CHECK: tt.bitcast %{{.*}} : !tt.ptr<f32> -> i64
// CHECK: tt.int_to_ptr %{{.*}} : i64 -> !tt.ptr<f32>
// CHECK: tt.ptr_to_int %{{.*}} : !tt.ptr<f32> -> i64
// CHECK: tt.clamp %{{.*}}, %{{.*}}, %{{.*}}, propagateNan = all : tensor<64xf32>
// CHECK: tt.precise_sqrt %{{.*}} : tensor<64xf32>
// CHECK: tt.precise_divf %{{.*}}, %{{.*}} : tensor<64xf32>
// CHECK: tt.mulhiui %{{.*}}, %{{.*}} : tensor<64xi32>
tt.func @casts(%f: tensor<64xf32>, %f8: tensor<64xf8E5M2>, %p: !tt.ptr<f32>, %a: i64, %i: tensor<64xi32>) {
  %0 = tt.fp_to_fp %f, rounding = rtne : tensor<64xf32> -> tensor<64xf8E4M3FN>
  %1 = tt.fp_to_fp %f8 : tensor<64xf8E5M2> -> tensor<64xf16>
  %2 = tt.bitcast %f : tensor<64xf32> -> tensor<64xi32>
  %3 = tt.bitcast %p : !tt.ptr<f32> -> i64
  %4 = tt.int_to_ptr %a : i64 -> !tt.ptr<f32>
  %5 = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
  %6 = tt.clamp %f, %f, %f, propagateNan = all : tensor<64xf32>
  %7 = tt.precise_sqrt %f : tensor<64xf32>
  %8 = tt.precise_divf %f, %f : tensor<64xf32>
  %9 = tt.mulhiui %i, %i : tensor<64xi32>
  tt.return
}

// -----

// External library calls and inline PTX, element-wise.
// CHECK-LABEL: tt.func @extern_and_asm
// CHECK: tt.extern_elementwise %{{.*}} {libname = "libdevice", libpath = "", pure = true, symbol = "__nv_expf"} : (tensor<64xf32>) -> tensor<64xf32>
// CHECK: tt.elementwise_inline_asm "shl.b32 $0, $1, 3;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %{{.*}} : tensor<64xi32> -> tensor<64xi32>
tt.func @extern_and_asm(%f: tensor<64xf32>, %i: tensor<64xi32>) {
  %0 = tt.extern_elementwise %f {libname = "libdevice", libpath = "", symbol = "__nv_expf", pure = true} : (tensor<64xf32>) -> tensor<64xf32>
  %1 = tt.elementwise_inline_asm "shl.b32 $0, $1, 3;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %i : tensor<64xi32> -> tensor<64xi32>
  tt.return
}

// -----

// Inline PTX without operands reads a special register (tl.extra.cuda.smid()).
// CHECK-LABEL: tt.func @asm_without_operands
// CHECK: tt.elementwise_inline_asm "mov.u32 $0, %smid;" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
tt.func @asm_without_operands() {
  %0 = tt.elementwise_inline_asm "mov.u32 $0, %smid;" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  tt.return
}

// -----

// Device-side printing and assertions.
// CHECK-LABEL: tt.func @debug
// CHECK: tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %{{.*}} : tensor<64xi32>
// CHECK: tt.assert %{{.*}}, "index out of range" : tensor<64xi1>
tt.func @debug(%x: tensor<64xi32>, %ok: tensor<64xi1>) {
  tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %x : tensor<64xi32>
  tt.assert %ok, "index out of range" : tensor<64xi1>
  tt.return
}

// -----

// Control flow of a kernel: an scf.for with loop-carried tensors and an scf.if.
// CHECK-LABEL: tt.func @loop
// CHECK: scf.for
// CHECK: scf.if
// CHECK: scf.yield
tt.func @loop(%n: i32, %x: tensor<64xf32>) -> tensor<64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<64xf32>) : i32 {
    %odd = arith.andi %i, %c1 : i32
    %isodd = arith.cmpi ne, %odd, %c0 : i32
    %next = scf.if %isodd -> tensor<64xf32> {
      %d = arith.addf %acc, %x : tensor<64xf32>
      scf.yield %d : tensor<64xf32>
    } else {
      scf.yield %acc : tensor<64xf32>
    }
    scf.yield %next : tensor<64xf32>
  }
  tt.return %r : tensor<64xf32>
}

// -----

// tl.debug_barrier is emitted as gpu.barrier; the gpu dialect is known.
// CHECK-LABEL: tt.func @debug_barrier
// CHECK: tt.store
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: tt.load
tt.func @debug_barrier(%p: !tt.ptr<f32>, %v: f32) -> f32 {
  tt.store %p, %v : !tt.ptr<f32>
  gpu.barrier
  %r = tt.load %p : !tt.ptr<f32>
  tt.return %r : f32
}

// -----

// A tensor descriptor made in the kernel, before and after it has a slot of
// the kernel's global scratch.
// CHECK-LABEL: tt.func @make_tensor_descriptor
// CHECK: tt.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %arg2] {padding = 1 : i32} : !tt.ptr<bf16> -> !tt.tensordesc<tensor<16x64xbf16>>
// CHECK: tt.make_tensor_descriptor %arg0, [%arg1], [%arg2] scratch %arg3 : !tt.ptr<i8> {padding = 2 : i32, scratch_offset = 128 : i32} : !tt.ptr<bf16> -> !tt.tensordesc<tensor<64xbf16>>
tt.func @make_tensor_descriptor(%p: !tt.ptr<bf16>, %n: i32, %s: i64, %scratch: !tt.ptr<i8>) {
  %a = tt.make_tensor_descriptor %p, [%n, %n], [%s, %s] {padding = 1 : i32} : !tt.ptr<bf16> -> !tt.tensordesc<tensor<16x64xbf16>>
  %b = tt.make_tensor_descriptor %p, [%n], [%s] scratch %scratch : !tt.ptr<i8> {padding = 2 : i32, scratch_offset = 128 : i32} : !tt.ptr<bf16> -> !tt.tensordesc<tensor<64xbf16>>
  tt.return
}
