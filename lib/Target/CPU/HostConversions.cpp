//===- HostConversions.cpp - float conversions LLVM calls on the host -----===//
//
// Rounding a double to a narrow float (roundToNarrowFloat): the double's
// 53-bit significand is shifted to the narrow format's precision at the
// value's exponent (fewer bits for a subnormal result), and the bits shifted
// out decide the rounding: above half up, below half down, exactly half to
// the even neighbour.  A carry out of the significand moves to the next
// binade (or to infinity past the largest finite value).  A float input is
// first widened to double, which is exact, so every conversion rounds once.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/CPU/HostConversions.h"

#include <cstring>

using namespace tritium::cpu;

uint16_t tritium::cpu::roundToNarrowFloat(double x, int exponentBits, int mantissaBits) {
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  auto sign = static_cast<uint16_t>((bits >> 63) << (exponentBits + mantissaBits));
  int exponent = static_cast<int>((bits >> 52) & 0x7ff);
  uint64_t fraction = bits & ((uint64_t(1) << 52) - 1);
  const uint16_t infinity = static_cast<uint16_t>(((1u << exponentBits) - 1) << mantissaBits);
  if (exponent == 0x7ff) {
    if (fraction == 0)
      return sign | infinity;
    // NaN: quiet, with the payload's top bits.
    auto payload = static_cast<uint16_t>(fraction >> (52 - mantissaBits));
    return sign | infinity | static_cast<uint16_t>(1u << (mantissaBits - 1)) | payload;
  }
  if (exponent == 0 && fraction == 0)
    return sign;
  const int bias = (1 << (exponentBits - 1)) - 1;
  // The value is significand * 2^(e - 52) with a 53-bit significand
  // (doubles' subnormals have a smaller one and e = -1022).
  uint64_t significand = exponent == 0 ? fraction : fraction | (uint64_t(1) << 52);
  int e = exponent == 0 ? -1022 : exponent - 1023;
  if (exponent == 0) { // normalize: the narrow formats' range is far above
    while (!(significand & (uint64_t(1) << 52))) {
      significand <<= 1;
      --e;
    }
  }
  // The narrow result's unit in the last place: 2^(e - mantissaBits) for a
  // normal result, 2^(1 - bias - mantissaBits) at most for a subnormal one.
  int narrowExponent = e + bias;
  int shift = 52 - mantissaBits; // bits of the significand below the result's
  if (narrowExponent <= 0)
    shift += 1 - narrowExponent;
  if (shift > 60) // below half the smallest subnormal: rounds to zero
    return sign;
  uint64_t kept = significand >> shift;
  uint64_t rest = significand & ((uint64_t(1) << shift) - 1);
  uint64_t half = uint64_t(1) << (shift - 1);
  if (rest > half || (rest == half && (kept & 1)))
    ++kept;
  // kept holds the significand with its leading bit for a normal result
  // (which a carry may move one binade up), or the subnormal's fraction
  // (which a carry may make the smallest normal).
  uint64_t narrow;
  if (narrowExponent <= 0) {
    narrow = kept; // a carry into bit mantissaBits is exponent field 1
  } else {
    if (kept >> (mantissaBits + 1)) { // carried out: 1.0 x 2^(e+1)
      kept >>= 1;
      ++narrowExponent;
    }
    narrow = (static_cast<uint64_t>(narrowExponent) << mantissaBits) | (kept & ((uint64_t(1) << mantissaBits) - 1));
  }
  if (narrow >= infinity)
    return sign | infinity;
  return sign | static_cast<uint16_t>(narrow);
}

double tritium::cpu::halfToDouble(uint16_t bits) {
  int exponent = (bits >> 10) & 0x1f;
  int fraction = bits & 0x3ff;
  double magnitude;
  if (exponent == 0x1f) {
    magnitude = fraction ? __builtin_nan("") : __builtin_inf();
    if (fraction) { // keep the payload: the double's top fraction bits
      uint64_t out = (uint64_t(0x7ff) << 52) | (uint64_t(fraction | 0x200) << 42);
      std::memcpy(&magnitude, &out, sizeof out);
    }
  } else if (exponent == 0) {
    magnitude = __builtin_ldexp(fraction, -24);
  } else {
    magnitude = __builtin_ldexp(fraction | 0x400, exponent - 25);
  }
  return (bits & 0x8000) ? -magnitude : magnitude;
}

namespace {
// compiler-rt's signatures: half and bfloat16 values travel in float
// registers as _Float16 and __bf16.
_Float16 fromBits(uint16_t bits) {
  _Float16 value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}
__bf16 bfloatFromBits(uint16_t bits) {
  __bf16 value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

_Float16 truncdfhf2(double x) { return fromBits(roundToNarrowFloat(x, 5, 10)); }
_Float16 truncsfhf2(float x) { return fromBits(roundToNarrowFloat(x, 5, 10)); }
float extendhfsf2(_Float16 x) {
  uint16_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return static_cast<float>(halfToDouble(bits)); // exact: binary16 fits in binary32
}
double extendhfdf2(_Float16 x) {
  uint16_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return halfToDouble(bits);
}
__bf16 truncdfbf2(double x) { return bfloatFromBits(roundToNarrowFloat(x, 8, 7)); }
__bf16 truncsfbf2(float x) { return bfloatFromBits(roundToNarrowFloat(x, 8, 7)); }
} // namespace

llvm::ArrayRef<HostConversion> tritium::cpu::hostConversions() {
  static const HostConversion table[] = {
      {"__truncdfhf2", reinterpret_cast<void *>(&truncdfhf2)},
      {"__truncsfhf2", reinterpret_cast<void *>(&truncsfhf2)},
      {"__extendhfsf2", reinterpret_cast<void *>(&extendhfsf2)},
      {"__extendhfdf2", reinterpret_cast<void *>(&extendhfdf2)},
      {"__truncdfbf2", reinterpret_cast<void *>(&truncdfbf2)},
      {"__truncsfbf2", reinterpret_cast<void *>(&truncsfbf2)},
  };
  return table;
}
