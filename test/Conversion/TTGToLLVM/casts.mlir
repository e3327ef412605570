// RUN: tritium-opt %s -split-input-file -convert-ttg-to-llvm -canonicalize -cse | FileCheck %s

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// arith casts on tensors become the llvm casts per element.
// CHECK-LABEL: llvm.func @arith_casts
// CHECK: llvm.fpext %{{.*}} : f16 to f32
// CHECK: llvm.fptrunc %{{.*}} : f32 to bf16
// CHECK: llvm.sitofp %{{.*}} : i32 to f32
// CHECK: llvm.fptosi %{{.*}} : f32 to i64
// CHECK: llvm.sext %{{.*}} : i32 to i64
// CHECK: llvm.trunc %{{.*}} : i64 to i8
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @arith_casts(%h: tensor<32xf16, #b>, %i: tensor<32xi32, #b>) -> (tensor<32xbf16, #b>, tensor<32xi64, #b>, tensor<32xi8, #b>) {
    %0 = arith.extf %h : tensor<32xf16, #b> to tensor<32xf32, #b>
    %1 = arith.truncf %0 : tensor<32xf32, #b> to tensor<32xbf16, #b>
    %2 = arith.sitofp %i : tensor<32xi32, #b> to tensor<32xf32, #b>
    %3 = arith.fptosi %2 : tensor<32xf32, #b> to tensor<32xi64, #b>
    %4 = arith.extsi %i : tensor<32xi32, #b> to tensor<32xi64, #b>
    %5 = arith.addi %3, %4 : tensor<32xi64, #b>
    %6 = arith.trunci %5 : tensor<32xi64, #b> to tensor<32xi8, #b>
    tt.return %1, %5, %6 : tensor<32xbf16, #b>, tensor<32xi64, #b>, tensor<32xi8, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// fp_to_fp between 16/32-bit floats: round-to-nearest-even narrowing is
// fptrunc, round-toward-zero is cvt.rz; f16 to bf16 goes through f32.
// CHECK-LABEL: llvm.func @fp_to_fp_wide
// CHECK: llvm.fptrunc %{{.*}} : f32 to f16
// CHECK: %[[RZ:.*]] = llvm.inline_asm asm_dialect = att "cvt.rz.f16.f32 $0, $1;", "=h,f" %{{.*}} : (f32) -> i16
// CHECK: llvm.bitcast %[[RZ]] : i16 to f16
// CHECK: llvm.inline_asm asm_dialect = att "cvt.rz.bf16.f32 $0, $1;", "=h,f"
// CHECK: %[[W:.*]] = llvm.fpext %{{.*}} : f16 to f32
// CHECK: llvm.fptrunc %[[W]] : f32 to bf16
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @fp_to_fp_wide(%f: tensor<32xf32, #b>, %h: tensor<32xf16, #b>) -> (tensor<32xf16, #b>, tensor<32xf16, #b>, tensor<32xbf16, #b>, tensor<32xbf16, #b>) {
    %0 = tt.fp_to_fp %f, rounding = rtne : tensor<32xf32, #b> -> tensor<32xf16, #b>
    %1 = tt.fp_to_fp %f, rounding = rtz : tensor<32xf32, #b> -> tensor<32xf16, #b>
    %2 = tt.fp_to_fp %f, rounding = rtz : tensor<32xf32, #b> -> tensor<32xbf16, #b>
    %3 = tt.fp_to_fp %h, rounding = rtne : tensor<32xf16, #b> -> tensor<32xbf16, #b>
    tt.return %0, %1, %2, %3 : tensor<32xf16, #b>, tensor<32xf16, #b>, tensor<32xbf16, #b>, tensor<32xbf16, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// 8-bit floats live in i8 registers.  e5m2 widens by a shift into the high
// byte of an f16, e4m3 with cvt.rn.f16x2.e4m3x2; narrowing uses the
// saturating cvt.rn.satfinite forms from f32 or f16 (bf16 goes through f32).
// CHECK-LABEL: llvm.func @fp8
// CHECK-SAME: (%{{.*}}: !llvm.struct<(i8)>, %{{.*}}: !llvm.struct<(i8)>, %{{.*}}: !llvm.struct<(f32)>, %{{.*}}: !llvm.struct<(f16)>, %{{.*}}: !llvm.struct<(bf16)>)
// CHECK: %[[Z:.*]] = llvm.zext %{{.*}} : i8 to i16
// CHECK: %[[S:.*]] = llvm.shl %[[Z]], %{{.*}} : i16
// CHECK: %[[H:.*]] = llvm.bitcast %[[S]] : i16 to f16
// CHECK: llvm.fpext %[[H]] : f16 to f32
// CHECK: llvm.inline_asm asm_dialect = att "{ .reg .b32 t; .reg .b16 lo, hi; cvt.rn.f16x2.e4m3x2 t, $1; mov.b32 {lo, hi}, t; mov.b16 $0, lo; }", "=h,h"
// CHECK: %[[P:.*]] = llvm.inline_asm asm_dialect = att "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $1;", "=h,f" %{{.*}} : (f32) -> i16
// CHECK: llvm.trunc %[[P]] : i16 to i8
// CHECK: llvm.inline_asm asm_dialect = att "{ .reg .b32 t; mov.b32 t, {$1, $1}; cvt.rn.satfinite.e5m2x2.f16x2 $0, t; }", "=h,h"
// CHECK: %[[BF:.*]] = llvm.fpext %{{.*}} : bf16 to f32
// CHECK: llvm.inline_asm asm_dialect = att "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $1;", "=h,f" %[[BF]]
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @fp8(%e5: tensor<32xf8E5M2, #b>, %e4: tensor<32xf8E4M3FN, #b>, %f: tensor<32xf32, #b>, %h: tensor<32xf16, #b>, %bf: tensor<32xbf16, #b>) -> (tensor<32xf32, #b>, tensor<32xf16, #b>, tensor<32xf8E4M3FN, #b>, tensor<32xf8E5M2, #b>, tensor<32xf8E4M3FN, #b>) {
    %0 = tt.fp_to_fp %e5 : tensor<32xf8E5M2, #b> -> tensor<32xf32, #b>
    %1 = tt.fp_to_fp %e4 : tensor<32xf8E4M3FN, #b> -> tensor<32xf16, #b>
    %2 = tt.fp_to_fp %f, rounding = rtne : tensor<32xf32, #b> -> tensor<32xf8E4M3FN, #b>
    %3 = tt.fp_to_fp %h, rounding = rtne : tensor<32xf16, #b> -> tensor<32xf8E5M2, #b>
    %4 = tt.fp_to_fp %bf, rounding = rtne : tensor<32xbf16, #b> -> tensor<32xf8E4M3FN, #b>
    tt.return %0, %1, %2, %3, %4 : tensor<32xf32, #b>, tensor<32xf16, #b>, tensor<32xf8E4M3FN, #b>, tensor<32xf8E5M2, #b>, tensor<32xf8E4M3FN, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// Rounding toward zero to e5m2: the f16 rounded toward zero (cvt.rz from
// f32; an f16 source as it is), then its high byte.
// CHECK-LABEL: llvm.func @fp8_toward_zero
// CHECK: %[[RZ:.*]] = llvm.inline_asm asm_dialect = att "cvt.rz.f16.f32 $0, $1;", "=h,f" %{{.*}} : (f32) -> i16
// CHECK: %[[HI:.*]] = llvm.lshr %[[RZ]], %{{.*}} : i16
// CHECK: llvm.trunc %[[HI]] : i16 to i8
// CHECK: %[[H:.*]] = llvm.bitcast %{{.*}} : f16 to i16
// CHECK: %[[HI2:.*]] = llvm.lshr %[[H]], %{{.*}} : i16
// CHECK: llvm.trunc %[[HI2]] : i16 to i8
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @fp8_toward_zero(%f: tensor<32xf32, #b>, %h: tensor<32xf16, #b>) -> (tensor<32xf8E5M2, #b>, tensor<32xf8E5M2, #b>) {
    %0 = tt.fp_to_fp %f, rounding = rtz : tensor<32xf32, #b> -> tensor<32xf8E5M2, #b>
    %1 = tt.fp_to_fp %h, rounding = rtz : tensor<32xf16, #b> -> tensor<32xf8E5M2, #b>
    tt.return %0, %1 : tensor<32xf8E5M2, #b>, tensor<32xf8E5M2, #b>
  }
}
