//===- ConvertPartsTest.cpp - Tests for conversions in parts --------------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// splitConversion on blocked layouts whose tile repeats over the tensor:
// every register of the full layouts belongs to exactly one part, and holds
// there the element the part layout gives it, shifted to the part's rows.
// A layout whose top bits are set by lanes cannot be split there, and the
// fewest parts that fit are taken.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/ConvertParts.h"
#include "tritium/Layout/BlockedLayout.h"

#include <gtest/gtest.h>

#include <set>

using namespace tritium::layout;

namespace {

/// Every register of `full` is in one part, at the part layout's
/// coordinates with the part index as the top bits of `dim`.
void expectPartsCover(const LinearLayout &full, const LinearLayout &part,
                      const ConvertParts &parts,
                      std::vector<int64_t> (ConvertParts::*registers)(int64_t)
                          const) {
  std::set<int64_t> seen;
  int64_t partRows = part.shape()[parts.dim];
  for (int64_t p = 0; p < parts.numParts(); ++p) {
    std::vector<int64_t> regs = (parts.*registers)(p);
    ASSERT_EQ(static_cast<int64_t>(regs.size()), part.elemsPerThread());
    for (int64_t r = 0; r < part.elemsPerThread(); ++r) {
      EXPECT_TRUE(seen.insert(regs[r]).second) << "register " << regs[r];
      for (int64_t w = 0; w < full.inDimSize(HwDim::Warp); ++w)
        for (int64_t l = 0; l < full.inDimSize(HwDim::Lane); ++l) {
          std::vector<int64_t> want = part.apply(r, l, w);
          want[parts.dim] += p * partRows;
          EXPECT_EQ(full.apply(regs[r], l, w), want)
              << "part " << p << " register " << r;
        }
    }
  }
  EXPECT_EQ(static_cast<int64_t>(seen.size()), full.elemsPerThread());
}

TEST(ConvertPartsTest, RepeatedTilesSplitIntoTheFewestPartsThatFit) {
  // 256 x 256 over 4 warps: rows repeat in registers in both layouts.
  LinearLayout src =
      blockedToLinear({{1, 4}, {8, 4}, {4, 1}, {1, 0}}, {256, 256});
  LinearLayout dst =
      blockedToLinear({{4, 1}, {4, 8}, {1, 4}, {0, 1}}, {256, 256});
  auto parts = splitConversion(src, dst, [](const LinearLayout &s,
                                            const LinearLayout &) {
    return s.shape()[0] * s.shape()[1] * 4 <= 64 * 1024;
  });
  ASSERT_TRUE(parts.has_value());
  EXPECT_EQ(parts->dim, 0);
  EXPECT_EQ(parts->numBits, 2); // 4 parts of 64 x 256 int32
  EXPECT_EQ(parts->srcPart.shape(), (std::vector<int64_t>{64, 256}));
  expectPartsCover(src, parts->srcPart, *parts, &ConvertParts::srcRegisters);
  expectPartsCover(dst, parts->dstPart, *parts, &ConvertParts::dstRegisters);
}

TEST(ConvertPartsTest, TopBitsSetByLanesOrWarpsCannotBeSplit) {
  // Dimension 0 is spread over 32 lanes and 4 warps: no register repeats it.
  LinearLayout src =
      blockedToLinear({{1, 1}, {32, 1}, {4, 1}, {0, 1}}, {128, 4});
  LinearLayout dst =
      blockedToLinear({{1, 1}, {32, 1}, {4, 1}, {0, 1}}, {128, 4});
  auto parts = splitConversion(
      src, dst, [](const LinearLayout &, const LinearLayout &) { return true; });
  // Dimension 1 repeats in registers: split there instead.
  ASSERT_TRUE(parts.has_value());
  EXPECT_EQ(parts->dim, 1);
  expectPartsCover(src, parts->srcPart, *parts, &ConvertParts::srcRegisters);
  auto none = splitConversion(
      blockedToLinear({{1, 1}, {32, 1}, {4, 1}, {0, 1}}, {128, 1}),
      blockedToLinear({{1, 1}, {32, 1}, {4, 1}, {0, 1}}, {128, 1}),
      [](const LinearLayout &, const LinearLayout &) { return true; });
  EXPECT_FALSE(none.has_value());
}

} // namespace
