//===- FpToFpOpToLLVM.cpp - tt.fp_to_fp to LLVM ---------------------------===//
//
// Float conversions per element, through f16 or f32 where no direct
// instruction exists:
//   * among f16, bf16, f32, f64: widening is fpext (exact); narrowing
//     rounds to nearest even with fptrunc, or toward zero with
//     `cvt.rz.{f16,bf16}.f32` (rtz from f64 first truncates to f32 toward
//     zero, which composes exactly); f16 <-> bf16 goes through f32;
//   * from 8-bit floats (i8 in registers): f8E5M2 is the high byte of an f16
//     (a shift), f8E4M3FN uses `cvt.rn.f16x2.e4m3x2` (sm_89+); the f16 is
//     then widened or converted as above;
//   * to 8-bit floats, rounding to nearest even (saturating to the largest
//     finite value like Triton): `cvt.rn.satfinite.{e4m3,e5m2}x2.f32` or
//     `.f16x2` (sm_89+), from f32 or f16 (other sources convert to f32
//     first); toward zero (f8E5M2 only, as in Triton): the high byte of the
//     value rounded toward zero to f16.
// The x2 instructions convert two values at once: a thread's elements go
// through them in pairs (element i in the low half or byte, i + 1 in the
// high one, as Triton pairs them), one left over alone.
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Target/NVIDIA/PTXBuilder.h"

using namespace mlir;
using namespace tritium;

namespace {

bool isFp8(Type type) { return isa<Float8E4M3FNType, Float8E5M2Type>(type); }

/// PTX with one input and one output: `opcode $0, $1;` or, when `isBlock`,
/// the verbatim text with %0 = output and %1 = input.
Value emitCvt(OpBuilder &builder, Location loc, StringRef text, Value input,
              StringRef inConstraint, StringRef outConstraint, Type resultType,
              bool isBlock = false) {
  nvidia::PTXBuilder ptx;
  auto *out = ptx.output(outConstraint);
  auto *in = ptx.input(input, inConstraint);
  if (isBlock)
    ptx.verbatim(text, {out, in});
  else
    ptx.instr(text).args({out, in});
  return ptx.launch(builder, loc, resultType, /*hasSideEffects=*/false);
}

class FpConverter {
public:
  FpConverter(OpBuilder &builder, Location loc)
      : b(builder), loc(loc), i16(builder.getI16Type()),
        f16(builder.getF16Type()), f32(builder.getF32Type()) {}

  /// Converts `value` (register form of `from`) to the register form of
  /// `to`; null after reporting through `error` when unsupported.
  Value convert(Value value, Type from, Type to,
                std::optional<tt::RoundingMode> rounding) {
    if (from == to)
      return value;
    if (isFp8(from)) {
      Value half = fp8ToF16(value, from);
      return half ? convert(half, f16, to, rounding) : Value();
    }
    if (isFp8(to)) {
      if (rounding && *rounding == tt::RoundingMode::RTZ) {
        // f8E5M2 is the high byte of an f16: truncating an f16 rounded
        // toward zero rounds toward zero (no instruction does it directly).
        if (!isa<Float8E5M2Type>(to))
          return fail("rounding toward zero to 8-bit floats exists for float8e5 (f8E5M2) only");
        Value half = from.isF16() ? value : convert(value, from, f16, rounding);
        if (!half)
          return {};
        Value bits = LLVM::BitcastOp::create(b, loc, i16, half);
        Value shift = LLVM::ConstantOp::create(b, loc, i16, b.getI16IntegerAttr(8));
        return LLVM::TruncOp::create(b, loc, b.getI8Type(),
                                     LLVM::LShrOp::create(b, loc, bits, shift));
      }
      if (!from.isF16() && !from.isF32())
        return convert(convert(value, from, f32, rounding), f32, to, rounding);
      return toFp8(value, from, to);
    }
    unsigned fromBits = from.getIntOrFloatBitWidth();
    unsigned toBits = to.getIntOrFloatBitWidth();
    if (fromBits < toBits)
      return LLVM::FPExtOp::create(b, loc, to, value);
    if (fromBits == toBits) // f16 <-> bf16
      return convert(LLVM::FPExtOp::create(b, loc, f32, value), f32, to,
                     rounding);
    if (!rounding || *rounding == tt::RoundingMode::RTNE)
      return LLVM::FPTruncOp::create(b, loc, to, value);
    // Round toward zero.
    if (from.isF64()) {
      Value single = emitCvt(b, loc, "cvt.rz.f32.f64", value, "d", "=f", f32);
      return to.isF32() ? single : convert(single, f32, to, rounding);
    }
    StringRef opcode = to.isF16() ? "cvt.rz.f16.f32" : "cvt.rz.bf16.f32";
    Value bits = emitCvt(b, loc, opcode, value, "f", "=h", i16);
    return LLVM::BitcastOp::create(b, loc, to, bits);
  }

  /// Converts two values of `from` to `to` with one x2 instruction where
  /// one exists for the pair: to 8-bit floats rounding to nearest even (from
  /// f32 or f16), and from f8E4M3FN to f16 or wider.  Null values when the
  /// pair goes element by element (convert).
  std::pair<Value, Value> convertPair(Value first, Value second, Type from,
                                      Type to,
                                      std::optional<tt::RoundingMode> rounding) {
    bool nearestEven = !rounding || *rounding == tt::RoundingMode::RTNE;
    if (isFp8(to) && !isFp8(from) && nearestEven &&
        (from.isF16() || from.isF32()))
      return toFp8Pair(first, second, from, to);
    if (isa<Float8E4M3FNType>(from) && !isFp8(to)) {
      auto [lo, hi] = e4m3PairToF16(first, second);
      return {convert(lo, f16, to, rounding), convert(hi, f16, to, rounding)};
    }
    return {};
  }

  std::string error;

private:
  Value fail(StringRef message) {
    error = message.str();
    return {};
  }

  Value fp8ToF16(Value value, Type from) {
    Value wide = LLVM::ZExtOp::create(b, loc, i16, value);
    if (isa<Float8E5M2Type>(from)) {
      Value shift =
          LLVM::ConstantOp::create(b, loc, i16, b.getI16IntegerAttr(8));
      Value bits = LLVM::ShlOp::create(b, loc, wide, shift);
      return LLVM::BitcastOp::create(b, loc, f16, bits);
    }
    Value bits = emitCvt(b, loc,
                         "{ .reg .b32 t; .reg .b16 lo, hi; "
                         "cvt.rn.f16x2.e4m3x2 t, %1; mov.b32 {lo, hi}, t; "
                         "mov.b16 %0, lo; }",
                         wide, "h", "=h", i16, /*isBlock=*/true);
    return LLVM::BitcastOp::create(b, loc, f16, bits);
  }

  Value toFp8(Value value, Type from, Type to) {
    std::string format = isa<Float8E4M3FNType>(to) ? "e4m3x2" : "e5m2x2";
    Value pair;
    if (from.isF32()) {
      nvidia::PTXBuilder ptx;
      auto *out = ptx.output("=h");
      auto *in = ptx.input(value, "f");
      ptx.instr("cvt.rn.satfinite." + format + ".f32").args({out, in, in});
      pair = ptx.launch(b, loc, i16, /*hasSideEffects=*/false);
    } else {
      Value bits = LLVM::BitcastOp::create(b, loc, i16, value);
      pair = emitCvt(b, loc,
                     "{ .reg .b32 t; mov.b32 t, {%1, %1}; cvt.rn.satfinite." +
                         format + ".f16x2 %0, t; }",
                     bits, "h", "=h", i16, /*isBlock=*/true);
    }
    return LLVM::TruncOp::create(b, loc, b.getI8Type(), pair);
  }

  /// The two i8 bytes of a 16-bit pair: low, then high.
  std::pair<Value, Value> splitBytes(Value pair) {
    Type i8 = b.getI8Type();
    Value shift = LLVM::ConstantOp::create(b, loc, i16, b.getI16IntegerAttr(8));
    return {LLVM::TruncOp::create(b, loc, i8, pair),
            LLVM::TruncOp::create(b, loc, i8,
                                  LLVM::LShrOp::create(b, loc, pair, shift))};
  }

  /// `first` and `second` (f32 or f16) to 8-bit floats with one cvt; the
  /// instruction puts its first f32 operand (the high half of an f16x2) in
  /// the high byte.
  std::pair<Value, Value> toFp8Pair(Value first, Value second, Type from,
                                    Type to) {
    std::string format = isa<Float8E4M3FNType>(to) ? "e4m3x2" : "e5m2x2";
    nvidia::PTXBuilder ptx;
    auto *out = ptx.output("=h");
    Value pair;
    if (from.isF32()) {
      auto *hi = ptx.input(second, "f");
      auto *lo = ptx.input(first, "f");
      ptx.instr("cvt.rn.satfinite." + format + ".f32").args({out, hi, lo});
    } else {
      auto *lo = ptx.input(LLVM::BitcastOp::create(b, loc, i16, first), "h");
      auto *hi = ptx.input(LLVM::BitcastOp::create(b, loc, i16, second), "h");
      ptx.verbatim("{ .reg .b32 t; mov.b32 t, {%1, %2}; cvt.rn.satfinite." +
                       format + ".f16x2 %0, t; }",
                   {out, lo, hi});
    }
    pair = ptx.launch(b, loc, i16, /*hasSideEffects=*/false);
    return splitBytes(pair);
  }

  /// Two f8E4M3FN bytes to f16 with one `cvt.rn.f16x2.e4m3x2`: the low byte
  /// to the low half.
  std::pair<Value, Value> e4m3PairToF16(Value first, Value second) {
    Value shift = LLVM::ConstantOp::create(b, loc, i16, b.getI16IntegerAttr(8));
    Value bytes = LLVM::OrOp::create(
        b, loc, LLVM::ZExtOp::create(b, loc, i16, first),
        LLVM::ShlOp::create(b, loc, LLVM::ZExtOp::create(b, loc, i16, second),
                            shift));
    Type i32 = b.getI32Type();
    Value halves = emitCvt(b, loc, "cvt.rn.f16x2.e4m3x2", bytes, "h", "=r", i32);
    Value sixteen = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(16));
    Value lo = LLVM::TruncOp::create(b, loc, i16, halves);
    Value hi = LLVM::TruncOp::create(b, loc, i16,
                                     LLVM::LShrOp::create(b, loc, halves, sixteen));
    return {LLVM::BitcastOp::create(b, loc, f16, lo),
            LLVM::BitcastOp::create(b, loc, f16, hi)};
  }

  OpBuilder &b;
  Location loc;
  Type i16, f16, f32;
};

struct FpToFpLowering : public ConvertOpToLLVMPattern<tt::FpToFpOp> {
  FpToFpLowering(TTGToLLVMTypeConverter &converter, const TargetConfig &target)
      : ConvertOpToLLVMPattern(converter, kTritiumPatternBenefit),
        target(target) {}

  LogicalResult
  matchAndRewrite(tt::FpToFpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type from = getElementTypeOrSelf(op.getSrc().getType());
    Type to = getElementTypeOrSelf(op.getType());
    for (Type type : {from, to})
      if (isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(type))
        return op.emitError("no conversion for ") << type << " on NVIDIA GPUs";
    bool needsFp8Cvt = isa<Float8E4M3FNType>(from) || isFp8(to);
    if (needsFp8Cvt && target.computeCapability < 89)
      return op.emitError("conversions of 8-bit floats need compute "
                          "capability 89 or newer, the target has ")
             << target.computeCapability;
    if (needsFp8Cvt && target.ptxVersion < 78)
      return op.emitError("conversions of 8-bit floats need PTX ISA 7.8 or "
                          "newer, the target has ")
             << target.ptxVersion / 10 << "." << target.ptxVersion % 10;

    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    FpConverter converter(rewriter, loc);
    SmallVector<Value> elements = unpackElements(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> results;
    for (size_t i = 0; i < elements.size(); ++i) {
      if (i + 1 < elements.size()) {
        auto [first, second] = converter.convertPair(
            elements[i], elements[i + 1], from, to, op.getRounding());
        if (first && second) {
          results.append({first, second});
          ++i;
          continue;
        }
        if (!converter.error.empty())
          return op.emitError(converter.error);
      }
      Value result = converter.convert(elements[i], from, to, op.getRounding());
      if (!result)
        return op.emitError(converter.error);
      results.push_back(result);
    }
    rewriter.replaceOp(op, packElements(rewriter, loc, resultType, results));
    return success();
  }

  TargetConfig target;
};

} // namespace

void tritium::populateFpToFpOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                             RewritePatternSet &patterns,
                                             const TargetConfig &target) {
  patterns.add<FpToFpLowering>(converter, target);
}
