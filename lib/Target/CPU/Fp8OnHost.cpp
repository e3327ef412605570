//===- Fp8OnHost.cpp - fp8 values on the host, as their bits --------------===//
//
// LLVM has no fp8 types, so on the CPU target an fp8 value is its 8 bits
// (the type conversion makes every fp8 type i8), and conversions decode and
// encode them with integer and f32 arithmetic on whole vectors.  A format is
// described by its mantissa bits M, exponent bits E = 7 - M and bias B (from
// the type's APFloat semantics) and how it marks what is not finite:
//   * IEEE-like (f8E5M2, f8E4M3, f8E3M4): the all-ones exponent holds the
//     infinities (mantissa 0) and NaNs;
//   * f8E4M3FN: no infinities; only S.1111.111 is NaN;
//   * the FNUZ formats (f8E5M2FNUZ, f8E4M3FNUZ, f8E4M3B11FNUZ): no
//     infinities and no negative zero; 0x80 is the one NaN.
// Decoding: a normal code (exponent e > 0) becomes the f32 with exponent
// e - B + 127 and the mantissa shifted up; a subnormal one is m * 2^(1-B-M).
// Encoding (round to nearest even, as sm_90's cvt.rn.satfinite does, or
// toward zero): NaN
// stays NaN; other magnitudes are clamped to the largest finite value; below
// the smallest normal the code is the magnitude in units of 2^(1-B-M),
// rounded; above it the f32 bits are rounded to M mantissa bits by integer
// arithmetic and rebiased; then the sign (not for a zero in FNUZ formats).
//
//===----------------------------------------------------------------------===//
#include "HostLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace tritium::cpu;

namespace {

enum class NonFinite { IEEE, AllOnesNaN, NegativeZeroNaN };

struct Fp8Format {
  int mantissa = 0, exponent = 0, bias = 0;
  NonFinite nonFinite = NonFinite::IEEE;
  float largest = 0; // the largest finite magnitude
};

Fp8Format describe(FloatType type) {
  const llvm::fltSemantics &sem = type.getFloatSemantics();
  Fp8Format f;
  f.mantissa = static_cast<int>(llvm::APFloat::semanticsPrecision(sem)) - 1;
  f.exponent = 7 - f.mantissa;
  f.bias = 1 - llvm::APFloat::semanticsMinExponent(sem);
  if (isa<Float8E4M3FNType>(type))
    f.nonFinite = NonFinite::AllOnesNaN;
  else if (isa<Float8E5M2FNUZType, Float8E4M3FNUZType, Float8E4M3B11FNUZType>(type))
    f.nonFinite = NonFinite::NegativeZeroNaN;
  llvm::APFloat largest = llvm::APFloat::getLargest(sem);
  bool lost = false;
  largest.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven, &lost);
  f.largest = largest.convertToFloat();
  return f;
}

/// Builds constants of the shape of `like` (a scalar or a vector).
struct Constants {
  OpBuilder &b;
  Location loc;
  Type like;
  Type of(Type element) const {
    if (auto v = dyn_cast<VectorType>(like))
      return VectorType::get(v.getShape(), element);
    return element;
  }
  Value i32(int64_t v) const {
    Type t = of(b.getI32Type());
    TypedAttr attr = b.getI32IntegerAttr(static_cast<int32_t>(v));
    if (auto shaped = dyn_cast<ShapedType>(t))
      attr = DenseElementsAttr::get(shaped, attr);
    return arith::ConstantOp::create(b, loc, attr);
  }
  Value f32(float v) const {
    Type t = of(b.getF32Type());
    TypedAttr attr = b.getF32FloatAttr(v);
    if (auto shaped = dyn_cast<ShapedType>(t))
      attr = DenseElementsAttr::get(shaped, attr);
    return arith::ConstantOp::create(b, loc, attr);
  }
};

} // namespace

bool tritium::cpu::isFp8OnHost(FloatType type) {
  return type.getWidth() == 8 && !isa<Float8E8M0FNUType>(type);
}

Value tritium::cpu::decodeFp8(OpBuilder &b, Location loc, Value bits, FloatType format) {
  assert(isFp8OnHost(format) && "an 8-bit float format with a sign");
  Fp8Format f = describe(format);
  Constants c{b, loc, bits.getType()};
  Type i32 = c.of(b.getI32Type()), f32 = c.of(b.getF32Type());
  Value code = arith::ExtUIOp::create(b, loc, i32, bits);
  Value sign = arith::ShRUIOp::create(b, loc, code, c.i32(7));
  Value e = arith::AndIOp::create(b, loc, arith::ShRUIOp::create(b, loc, code, c.i32(f.mantissa)),
                                  c.i32((1 << f.exponent) - 1));
  Value m = arith::AndIOp::create(b, loc, code, c.i32((1 << f.mantissa) - 1));
  // normal: (sign << 31) | ((e - B + 127) << 23) | (m << (23 - M))
  Value normalBits = arith::OrIOp::create(
      b, loc,
      arith::ShLIOp::create(b, loc, arith::AddIOp::create(b, loc, e, c.i32(127 - f.bias)), c.i32(23)),
      arith::ShLIOp::create(b, loc, m, c.i32(23 - f.mantissa)));
  Value normal = arith::BitcastOp::create(b, loc, f32, normalBits);
  // subnormal: m * 2^(1 - B - M)
  Value subnormal = arith::MulFOp::create(b, loc, arith::UIToFPOp::create(b, loc, f32, m),
                                          c.f32(std::ldexp(1.0f, 1 - f.bias - f.mantissa)));
  Value isZeroExponent = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, e, c.i32(0));
  Value magnitude = arith::SelectOp::create(b, loc, isZeroExponent, subnormal, normal);
  Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, sign, c.i32(0));
  Value value = arith::SelectOp::create(b, loc, negative, arith::NegFOp::create(b, loc, magnitude), magnitude);
  Value nan = c.f32(std::numeric_limits<float>::quiet_NaN());
  int allOnes = (1 << f.exponent) - 1;
  switch (f.nonFinite) {
  case NonFinite::IEEE: {
    Value top = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, e, c.i32(allOnes));
    Value zeroMantissa = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, m, c.i32(0));
    Value inf = arith::SelectOp::create(b, loc, negative, c.f32(-std::numeric_limits<float>::infinity()),
                                        c.f32(std::numeric_limits<float>::infinity()));
    Value special = arith::SelectOp::create(b, loc, zeroMantissa, inf, nan);
    return arith::SelectOp::create(b, loc, top, special, value);
  }
  case NonFinite::AllOnesNaN: {
    Value isNaN = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        arith::AndIOp::create(b, loc, code, c.i32(0x7F)), c.i32(0x7F));
    return arith::SelectOp::create(b, loc, isNaN, nan, value);
  }
  case NonFinite::NegativeZeroNaN: {
    Value isNaN = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, code, c.i32(0x80));
    return arith::SelectOp::create(b, loc, isNaN, nan, value);
  }
  }
  return value;
}

Value tritium::cpu::encodeFp8(OpBuilder &b, Location loc, Value value, FloatType format, bool towardZero) {
  assert(isFp8OnHost(format) && "an 8-bit float format with a sign");
  Fp8Format f = describe(format);
  Constants c{b, loc, value.getType()};
  Type i32 = c.of(b.getI32Type()), i8 = c.of(b.getI8Type());
  Value bits = arith::BitcastOp::create(b, loc, i32, value);
  Value sign = arith::ShRUIOp::create(b, loc, bits, c.i32(31));
  Value magnitude = math::AbsFOp::create(b, loc, value);
  // satfinite: beyond the largest finite value (infinities too) -> it
  Value clamped = arith::MinimumFOp::create(b, loc, magnitude, c.f32(f.largest));
  // below the smallest normal: the magnitude in units of 2^(1-B-M), rounded
  // to nearest even by adding and subtracting 2^23 in f32 (or truncated)
  Value units = arith::MulFOp::create(b, loc, clamped, c.f32(std::ldexp(1.0f, f.bias - 1 + f.mantissa)));
  Value rounded = towardZero ? units
                             : Value(arith::SubFOp::create(b, loc, arith::AddFOp::create(b, loc, units,
                                                                                        c.f32(8388608.0f)),
                                                           c.f32(8388608.0f)));
  Value subnormalCode = arith::FPToUIOp::create(b, loc, i32, rounded);
  // above it: the f32 bits rounded to M mantissa bits, rebiased
  int shift = 23 - f.mantissa;
  Value clampedBits = arith::BitcastOp::create(b, loc, i32, clamped);
  Value odd = arith::AndIOp::create(b, loc, arith::ShRUIOp::create(b, loc, clampedBits, c.i32(shift)), c.i32(1));
  Value roundedBits =
      towardZero ? clampedBits
                 : Value(arith::AddIOp::create(
                       b, loc, clampedBits,
                       arith::AddIOp::create(b, loc, odd, c.i32((int64_t(1) << (shift - 1)) - 1))));
  Value normalCode = arith::SubIOp::create(b, loc, arith::ShRUIOp::create(b, loc, roundedBits, c.i32(shift)),
                                           c.i32(int64_t(127 - f.bias) << f.mantissa));
  Value isSubnormal = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, clamped,
                                            c.f32(std::ldexp(1.0f, 1 - f.bias)));
  Value code = arith::SelectOp::create(b, loc, isSubnormal, subnormalCode, normalCode);
  Value signed_ = arith::OrIOp::create(b, loc, code, arith::ShLIOp::create(b, loc, sign, c.i32(7)));
  if (f.nonFinite == NonFinite::NegativeZeroNaN) {
    Value zero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, code, c.i32(0));
    signed_ = arith::SelectOp::create(b, loc, zero, c.i32(0), signed_);
  }
  int nanCode = f.nonFinite == NonFinite::NegativeZeroNaN ? 0x80 : 0x7F;
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, value, value);
  Value result = arith::SelectOp::create(b, loc, isNaN, c.i32(nanCode), signed_);
  return arith::TruncIOp::create(b, loc, i8, result);
}
