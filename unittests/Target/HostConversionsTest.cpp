// Tests of the narrow-float conversions the CPU target's JIT links
// (HostConversions.cpp): every binary16 and bfloat16 value converts back to
// itself; the midpoint between two neighbours rounds to the even one and
// anything off the midpoint to the nearer one; subnormals, overflow to
// infinity, signed zeros and NaNs.
#include "tritium/Target/CPU/HostConversions.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace tritium::cpu;

namespace {
double bfloatToDouble(uint16_t bits) {
  uint32_t wide = uint32_t(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof value);
  return value;
}

struct Format {
  const char *name;
  int exponentBits, mantissaBits;
  double (*toDouble)(uint16_t);
};

const Format kFormats[] = {{"binary16", 5, 10, &halfToDouble}, {"bfloat16", 8, 7, &bfloatToDouble}};

bool isNaN(uint16_t bits, const Format &format) {
  uint16_t infinity = uint16_t(((1u << format.exponentBits) - 1) << format.mantissaBits);
  return (bits & infinity) == infinity && (bits & ((1u << format.mantissaBits) - 1));
}
} // namespace

TEST(HostConversions, EveryValueConvertsBackToItself) {
  for (const Format &format : kFormats)
    for (uint32_t bits = 0; bits < 0x10000; ++bits) {
      if (isNaN(uint16_t(bits), format))
        continue;
      double value = format.toDouble(uint16_t(bits));
      EXPECT_EQ(roundToNarrowFloat(value, format.exponentBits, format.mantissaBits), bits)
          << format.name << " " << std::hex << bits;
    }
}

TEST(HostConversions, MidpointsRoundToEvenAndTheRestToTheNearer) {
  for (const Format &format : kFormats) {
    uint16_t infinity = uint16_t(((1u << format.exponentBits) - 1) << format.mantissaBits);
    for (uint32_t low = 0; low + 1 <= infinity; ++low) {
      uint16_t high = uint16_t(low + 1); // the next larger magnitude (infinity after the largest)
      double a = format.toDouble(uint16_t(low));
      double b = high == infinity ? 2 * a - format.toDouble(uint16_t(low - 1)) : format.toDouble(high);
      double middle = (a + b) / 2; // exact: both have far fewer bits than a double
      uint16_t even = (low & 1) ? high : uint16_t(low);
      EXPECT_EQ(roundToNarrowFloat(middle, format.exponentBits, format.mantissaBits), even)
          << format.name << " between " << std::hex << low << " and " << high;
      EXPECT_EQ(roundToNarrowFloat(std::nextafter(middle, 0.0), format.exponentBits, format.mantissaBits), low)
          << format.name << " just below the middle of " << std::hex << low;
      EXPECT_EQ(roundToNarrowFloat(std::nextafter(middle, INFINITY), format.exponentBits, format.mantissaBits),
                high)
          << format.name << " just above the middle of " << std::hex << low;
      uint16_t negative = uint16_t(1u << (format.exponentBits + format.mantissaBits));
      EXPECT_EQ(roundToNarrowFloat(-middle, format.exponentBits, format.mantissaBits), negative | even)
          << format.name << " negative middle of " << std::hex << low;
    }
  }
}

TEST(HostConversions, ZerosInfinitiesAndNaNs) {
  EXPECT_EQ(roundToNarrowFloat(0.0, 5, 10), 0x0000);
  EXPECT_EQ(roundToNarrowFloat(-0.0, 5, 10), 0x8000);
  EXPECT_EQ(roundToNarrowFloat(1e-30, 5, 10), 0x0000);   // far below the smallest subnormal
  EXPECT_EQ(roundToNarrowFloat(-1e-310, 8, 7), 0x8000);  // a subnormal double
  EXPECT_EQ(roundToNarrowFloat(5e-324, 5, 10), 0x0000);  // the smallest double
  EXPECT_EQ(roundToNarrowFloat(1e300, 5, 10), 0x7c00);
  EXPECT_EQ(roundToNarrowFloat(-INFINITY, 8, 7), 0xff80);
  EXPECT_EQ(roundToNarrowFloat(65504.0, 5, 10), 0x7bff);  // the largest binary16
  EXPECT_EQ(roundToNarrowFloat(65520.0, 5, 10), 0x7c00);  // its midpoint to 2^16 rounds up, to infinity
  EXPECT_EQ(roundToNarrowFloat(std::ldexp(1.0, -24), 5, 10), 0x0001); // the smallest subnormal
  EXPECT_EQ(roundToNarrowFloat(std::ldexp(1.0, -25), 5, 10), 0x0000); // half of it: to even (zero)
  EXPECT_EQ(roundToNarrowFloat(NAN, 5, 10), 0x7e00);
  EXPECT_EQ(roundToNarrowFloat(NAN, 8, 7), 0x7fc0);
  EXPECT_EQ(roundToNarrowFloat(-NAN, 8, 7), 0xffc0);
  double signaling;
  uint64_t bits = 0x7ff0000000000001; // a signaling NaN with a low payload: quiet
  std::memcpy(&signaling, &bits, sizeof bits);
  EXPECT_EQ(roundToNarrowFloat(signaling, 5, 10), 0x7e00);
  EXPECT_TRUE(std::isnan(halfToDouble(0x7e00)));
  EXPECT_EQ(halfToDouble(0xfc00), -INFINITY);
  EXPECT_EQ(halfToDouble(0x0001), std::ldexp(1.0, -24));
}
