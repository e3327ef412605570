// RUN: tritium-opt %s -split-input-file -convert-ttg-to-llvm -canonicalize -cse | FileCheck %s

#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// Arithmetic on tensors runs once per register, for f32, f16 and bf16 alike.
// CHECK-LABEL: llvm.func @arith_per_element
// CHECK-SAME: (%[[A:.*]]: !llvm.struct<(f32, f32)>, %[[B:.*]]: !llvm.struct<(f32, f32)>, %[[H:.*]]: !llvm.struct<(f16, f16)>, %[[BF:.*]]: !llvm.struct<(bf16, bf16)>)
// CHECK-DAG: %[[A0:.*]] = llvm.extractvalue %[[A]][0]
// CHECK-DAG: %[[A1:.*]] = llvm.extractvalue %[[A]][1]
// CHECK-DAG: %[[B0:.*]] = llvm.extractvalue %[[B]][0]
// CHECK-DAG: %[[B1:.*]] = llvm.extractvalue %[[B]][1]
// CHECK: %[[S0:.*]] = llvm.fadd %[[A0]], %[[B0]] : f32
// CHECK: %[[S1:.*]] = llvm.fadd %[[A1]], %[[B1]] : f32
// CHECK: llvm.fmul %[[S0]], %[[A0]] : f32
// CHECK: llvm.fmul %[[S1]], %[[A1]] : f32
// CHECK: llvm.fsub %{{.*}}, %{{.*}} : f16
// CHECK: llvm.fsub %{{.*}}, %{{.*}} : f16
// CHECK: llvm.fadd %{{.*}}, %{{.*}} : bf16
// CHECK: llvm.fadd %{{.*}}, %{{.*}} : bf16
// CHECK-NOT: arith.
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @arith_per_element(%a: tensor<64xf32, #b>, %b: tensor<64xf32, #b>, %h: tensor<64xf16, #b>, %bf: tensor<64xbf16, #b>) -> (tensor<64xf32, #b>, tensor<64xf16, #b>, tensor<64xbf16, #b>) {
    %0 = arith.addf %a, %b : tensor<64xf32, #b>
    %1 = arith.mulf %0, %a : tensor<64xf32, #b>
    %2 = arith.subf %h, %h : tensor<64xf16, #b>
    %3 = arith.addf %bf, %bf : tensor<64xbf16, #b>
    tt.return %1, %2, %3 : tensor<64xf32, #b>, tensor<64xf16, #b>, tensor<64xbf16, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// math.sin has no NVPTX instruction: it calls libdevice's __nv_sinf,
// declared external; f16 computes in f32, f64 calls __nv_sin.  f64 sqrt is
// an LLVM intrinsic NVPTX selects itself.
// CHECK-DAG: llvm.func @__nv_sinf(f32) -> f32
// CHECK-DAG: llvm.func @__nv_sin(f64) -> f64
// CHECK-LABEL: llvm.func @libdevice
// CHECK: llvm.call @__nv_sinf(%{{.*}}) : (f32) -> f32
// CHECK: llvm.call @__nv_sinf(%{{.*}}) : (f32) -> f32
// CHECK: %[[W:.*]] = llvm.fpext %{{.*}} : f16 to f32
// CHECK: %[[EH:.*]] = llvm.call @__nv_sinf(%[[W]]) : (f32) -> f32
// CHECK: llvm.fptrunc %[[EH]] : f32 to f16
// CHECK: llvm.call @__nv_sin(%{{.*}}) : (f64) -> f64
// CHECK: llvm.intr.sqrt(%{{.*}}) : (f64) -> f64
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @libdevice(%a: tensor<64xf32, #b>, %h: tensor<64xf16, #b>, %d: f64) -> (tensor<64xf32, #b>, tensor<64xf16, #b>, f64) {
    %0 = math.sin %a : tensor<64xf32, #b>
    %1 = math.sin %h : tensor<64xf16, #b>
    %2 = math.sin %d : f64
    %3 = math.sqrt %2 : f64
    tt.return %0, %1, %3 : tensor<64xf32, #b>, tensor<64xf16, #b>, f64
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// f32 exp, exp2, sqrt and division compile to PTX's approximate
// instructions, as Triton compiles them: exp(x) = ex2.approx(x * log2 e),
// sqrt(x) = sqrt.approx.ftz, x / y = div.full.f32; f16 exp computes in f32
// (f16 sqrt stays LLVM's); log stays with libdevice (accurate), f64 exp too,
// and f64 division with LLVM.
// CHECK-LABEL: llvm.func @approx_math
// CHECK-DAG: %[[LOG2E:.*]] = llvm.mlir.constant(1.44269502 : f32) : f32
// CHECK: %[[T:.*]] = llvm.fmul %{{.*}}, %[[LOG2E]] : f32
// CHECK: llvm.inline_asm asm_dialect = att "ex2.approx.f32 $0, $1;", "=f,f" %[[T]] : (f32) -> f32
// CHECK: llvm.fpext %{{.*}} : f16 to f32
// CHECK: llvm.inline_asm asm_dialect = att "ex2.approx.f32 $0, $1;", "=f,f" %{{.*}} : (f32) -> f32
// CHECK: llvm.fptrunc %{{.*}} : f32 to f16
// CHECK: llvm.call @__nv_logf(%{{.*}}) : (f32) -> f32
// CHECK: llvm.inline_asm asm_dialect = att "div.full.f32 $0, $1, $2;", "=f,f,f" %{{.*}}, %{{.*}} : (f32, f32) -> f32
// CHECK: llvm.inline_asm asm_dialect = att "sqrt.approx.ftz.f32 $0, $1;", "=f,f" %{{.*}} : (f32) -> f32
// CHECK: llvm.intr.sqrt(%{{.*}}) : (f16) -> f16
// CHECK: llvm.call @__nv_exp(%{{.*}}) : (f64) -> f64
// CHECK: llvm.fdiv %{{.*}}, %{{.*}} : f64
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @approx_math(%a: tensor<32xf32, #b>, %h: tensor<32xf16, #b>, %d: f64) -> (tensor<32xf32, #b>, tensor<32xf16, #b>, f64) {
    %0 = math.exp %a : tensor<32xf32, #b>
    %1 = math.exp %h : tensor<32xf16, #b>
    %2 = math.log %0 : tensor<32xf32, #b>
    %3 = arith.divf %2, %a : tensor<32xf32, #b>
    %r = math.sqrt %3 : tensor<32xf32, #b>
    %s = math.sqrt %1 : tensor<32xf16, #b>
    %4 = math.exp %d : f64
    %5 = arith.divf %4, %d : f64
    tt.return %r, %s, %5 : tensor<32xf32, #b>, tensor<32xf16, #b>, f64
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// A scalar condition of arith.select serves every element; comparisons give
// i1 registers.
// CHECK-LABEL: llvm.func @select_compare
// CHECK-SAME: %[[C:[^:]*]]: i1)
// CHECK: llvm.select %[[C]], %{{.*}}, %{{.*}} : i1, f32
// CHECK: llvm.select %[[C]], %{{.*}}, %{{.*}} : i1, f32
// CHECK: llvm.fcmp "olt" %{{.*}}, %{{.*}} : f32
// CHECK: llvm.icmp "sge" %{{.*}}, %{{.*}} : i32
// CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[1] : !llvm.struct<(i1, i1)>
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @select_compare(%a: tensor<64xf32, #b>, %b: tensor<64xf32, #b>, %i: tensor<64xi32, #b>, %j: tensor<64xi32, #b>, %c: i1) -> (tensor<64xi1, #b>, tensor<64xi1, #b>) {
    %0 = arith.select %c, %a, %b : tensor<64xf32, #b>
    %1 = arith.cmpf olt, %0, %a : tensor<64xf32, #b>
    %2 = arith.cmpi sge, %i, %j : tensor<64xi32, #b>
    tt.return %1, %2 : tensor<64xi1, #b>, tensor<64xi1, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// arith.select between tensors of pointers selects LLVM pointers per element
// (tl.where on pointers made with .to(tl.pi32_t)).
// CHECK-LABEL: llvm.func @select_pointers
// CHECK-COUNT-2: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, !llvm.ptr<1>
// CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[1] : !llvm.struct<(ptr<1>, ptr<1>)>
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @select_pointers(%c: tensor<64xi1, #b>, %a: tensor<64x!tt.ptr<i32>, #b>, %b: tensor<64x!tt.ptr<i32>, #b>) -> tensor<64x!tt.ptr<i32>, #b> {
    %0 = arith.select %c, %a, %b : tensor<64xi1, #b>, tensor<64x!tt.ptr<i32>, #b>
    tt.return %0 : tensor<64x!tt.ptr<i32>, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// tt's special arithmetic: clamp is maximum-then-minimum (NaN-propagating
// with propagateNan = all, maxnum/minnum otherwise); precise sqrt and
// division are the exact PTX instructions; mulhiui is the high half of the
// double-width product; extern_elementwise calls its symbol, declared
// external.
// CHECK-DAG: llvm.func @__nv_powf(f32, f32) -> f32
// CHECK-LABEL: llvm.func @special
// CHECK-DAG: %[[S64:.*]] = llvm.mlir.constant(64 : i128) : i128
// CHECK-DAG: %[[S32:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK: llvm.intr.maximum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.intr.minimum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.intr.maxnum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.intr.minnum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.inline_asm asm_dialect = att "sqrt.rn.f32 $0, $1;", "=f,f"
// CHECK: llvm.inline_asm asm_dialect = att "div.rn.f32 $0, $1, $2;", "=f,f,f"
// CHECK: %[[A32:.*]] = llvm.zext %{{.*}} : i32 to i64
// CHECK: %[[P32:.*]] = llvm.mul %[[A32]], %[[A32]] : i64
// CHECK: %[[H32:.*]] = llvm.lshr %[[P32]], %[[S32]] : i64
// CHECK: llvm.trunc %[[H32]] : i64 to i32
// CHECK: %[[A64:.*]] = llvm.zext %{{.*}} : i64 to i128
// CHECK: %[[P64:.*]] = llvm.mul %[[A64]], %[[A64]] : i128
// CHECK: %[[H64:.*]] = llvm.lshr %[[P64]], %[[S64]] : i128
// CHECK: llvm.trunc %[[H64]] : i128 to i64
// CHECK: llvm.call @__nv_powf(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @special(%a: tensor<32xf32, #b>, %lo: tensor<32xf32, #b>, %hi: tensor<32xf32, #b>, %i: tensor<32xi32, #b>, %l: tensor<32xi64, #b>) -> (tensor<32xf32, #b>, tensor<32xi32, #b>, tensor<32xi64, #b>, tensor<32xf32, #b>) {
    %0 = tt.clamp %a, %lo, %hi, propagateNan = all : tensor<32xf32, #b>
    %1 = tt.clamp %0, %lo, %hi, propagateNan = none : tensor<32xf32, #b>
    %2 = tt.precise_sqrt %1 : tensor<32xf32, #b>
    %3 = tt.precise_divf %2, %a : tensor<32xf32, #b>
    %4 = tt.mulhiui %i, %i : tensor<32xi32, #b>
    %5 = tt.mulhiui %l, %l : tensor<32xi64, #b>
    %6 = tt.extern_elementwise %3, %a {libname = "libdevice", libpath = "", symbol = "__nv_powf", pure = true} : (tensor<32xf32, #b>, tensor<32xf32, #b>) -> tensor<32xf32, #b>
    tt.return %3, %4, %5, %6 : tensor<32xf32, #b>, tensor<32xi32, #b>, tensor<32xi64, #b>, tensor<32xf32, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// Pointer arithmetic is a GEP over the pointee per element (bytes for i1,
// which memory holds as i8); casts between pointers, integers and floats are
// the matching llvm casts.
// CHECK-LABEL: llvm.func @pointers
// CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f16
// CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
// CHECK: llvm.ptrtoint %{{.*}} : !llvm.ptr<1> to i64
// CHECK: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
// CHECK: llvm.bitcast %{{.*}} : f32 to i32
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @pointers(%p: tensor<32x!tt.ptr<f16>, #b>, %q: !tt.ptr<i1>, %o: tensor<32xi32, #b>, %s: i32, %f: tensor<32xf32, #b>) -> (tensor<32x!tt.ptr<f16>, #b>, !tt.ptr<i1>, tensor<32x!tt.ptr<f16>, #b>, tensor<32xi32, #b>) {
    %0 = tt.addptr %p, %o : tensor<32x!tt.ptr<f16>, #b>, tensor<32xi32, #b>
    %1 = tt.addptr %q, %s : !tt.ptr<i1>, i32
    %2 = tt.ptr_to_int %0 : tensor<32x!tt.ptr<f16>, #b> -> tensor<32xi64, #b>
    %3 = tt.int_to_ptr %2 : tensor<32xi64, #b> -> tensor<32x!tt.ptr<f16>, #b>
    %4 = tt.bitcast %f : tensor<32xf32, #b> -> tensor<32xi32, #b>
    tt.return %0, %1, %3, %4 : tensor<32x!tt.ptr<f16>, #b>, !tt.ptr<i1>, tensor<32x!tt.ptr<f16>, #b>, tensor<32xi32, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// Inline asm runs once per packed group: with packed_element = 4, four i8
// elements share one 32-bit register (a vector<4xi8>), in and out.
// CHECK-LABEL: llvm.func @inline_asm
// CHECK: llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i32] : vector<4xi8>
// CHECK: llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i32] : vector<4xi8>
// CHECK: llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i32] : vector<4xi8>
// CHECK: %[[V:.*]] = llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i32] : vector<4xi8>
// CHECK: %[[R:.*]] = llvm.inline_asm asm_dialect = att "prmt.b32 $0, $1, 0, 0x0123;", "=r,r" %[[V]] : (vector<4xi8>) -> vector<4xi8>
// CHECK: llvm.extractelement %[[R]][%{{.*}} : i32] : vector<4xi8>
// CHECK-NOT: llvm.inline_asm
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @inline_asm(%x: tensor<128xi8, #b>) -> tensor<128xi8, #b> {
    %0 = tt.elementwise_inline_asm "prmt.b32 $0, $1, 0, 0x0123;" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %x : tensor<128xi8, #b> -> tensor<128xi8, #b>
    tt.return %0 : tensor<128xi8, #b>
  }
}

// -----

#b8 = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// `offs < n` with n a multiple of 16 is constant over runs of 16 elements
// (axis info), and a thread's 8 registers are consecutive: one compare per
// thread serves all 8 registers, and the adds of the other 7 offsets are
// left unused (and folded away).
// CHECK-LABEL: llvm.func @mask_computed_once_per_run
// CHECK: llvm.add
// CHECK-NOT: llvm.add
// CHECK: llvm.icmp "slt"
// CHECK-NOT: llvm.icmp
// CHECK: llvm.return
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @mask_computed_once_per_run(%base: i32 {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) -> tensor<256xi1, #b8> {
    %r = tt.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #b8>
    %b = tt.splat %base : i32 -> tensor<256xi32, #b8>
    %offs = arith.addi %b, %r : tensor<256xi32, #b8>
    %ns = tt.splat %n : i32 -> tensor<256xi32, #b8>
    %mask = arith.cmpi slt, %offs, %ns : tensor<256xi32, #b8>
    tt.return %mask : tensor<256xi1, #b8>
  }
}

// -----

#bl = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>

// The transpose kernel's mask `(rows < M) & (cols < N)` on 64x64 with M and
// N multiples of 16 is constant on 16x16 blocks.  A thread's 32 registers
// step (0,1), (0,2), (8,0), (16,0), (32,0): registers differing only in the
// first three bits share a block, so 4 row compares, 1 column compare and
// 4 ands serve all 32 registers (not 8, 1 and 32).
// CHECK-LABEL: llvm.func @mask_computed_once_per_block
// CHECK-COUNT-5: llvm.icmp "slt"
// CHECK-NOT: llvm.icmp
// CHECK-COUNT-4: llvm.and %{{.*}}, %{{.*}} : i1
// CHECK-NOT: llvm.and %{{.*}}, %{{.*}} : i1
// CHECK: llvm.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @mask_computed_once_per_block(%row0: i32 {tt.divisibility = 64 : i32}, %col0: i32 {tt.divisibility = 64 : i32}, %m: i32 {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) -> tensor<64x64xi1, #bl> {
    %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %rb = tt.splat %row0 : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %cb = tt.splat %col0 : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %rows = arith.addi %rb, %r : tensor<64xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %cols = arith.addi %cb, %c : tensor<64xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<64x1xi32, #bl>
    %cols2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x64xi32, #bl>
    %ms = tt.splat %m : i32 -> tensor<64x1xi32, #bl>
    %ns = tt.splat %n : i32 -> tensor<1x64xi32, #bl>
    %mr = arith.cmpi slt, %rows2, %ms : tensor<64x1xi32, #bl>
    %mc = arith.cmpi slt, %cols2, %ns : tensor<1x64xi32, #bl>
    %mrb = tt.broadcast %mr : tensor<64x1xi1, #bl> -> tensor<64x64xi1, #bl>
    %mcb = tt.broadcast %mc : tensor<1x64xi1, #bl> -> tensor<64x64xi1, #bl>
    %mask = arith.andi %mrb, %mcb : tensor<64x64xi1, #bl>
    tt.return %mask : tensor<64x64xi1, #bl>
  }
}
