//===- BlockedLayoutTest.cpp - Tests for blocked and slice layouts --------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// Worked examples of blocked layouts (including a layout larger than its
// tensor, which wraps around and broadcasts), slices of them, and the
// blocked-layout verifier.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/BlockedLayout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

using namespace tritium::layout;
using HwIndex = LinearLayout::HwIndex;

namespace {

std::vector<std::string> splitLines(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream is(text);
  for (std::string line; std::getline(is, line);)
    lines.push_back(line);
  return lines;
}

/// Every hardware index maps to an element that lists it among its holders,
/// and every holder of every element maps back to it.
void expectRoundTrip(const LinearLayout &layout) {
  for (int64_t w = 0; w < layout.inDimSize(HwDim::Warp); ++w)
    for (int64_t l = 0; l < layout.inDimSize(HwDim::Lane); ++l)
      for (int64_t r = 0; r < layout.inDimSize(HwDim::Register); ++r) {
        std::vector<HwIndex> holders = layout.holders(layout.apply(r, l, w));
        HwIndex self{r, l, w};
        EXPECT_NE(std::find(holders.begin(), holders.end(), self),
                  holders.end());
      }
}

// Test 1: 16x16, sizePerThread [2,2], threadsPerWarp [8,4], warpsPerCTA
// [1,2], order [1,0].
const BlockedSpec kSpec16x16{{2, 2}, {8, 4}, {1, 2}, {1, 0}};

TEST(BlockedLayoutTest, ThreadTable16x16) {
  LinearLayout layout = blockedToLinear(kSpec16x16, {16, 16});
  std::vector<std::string> rows = splitLines(layout.threadTable());
  ASSERT_EQ(rows.size(), 16u);
  EXPECT_EQ(rows[0], "0 0 1 1 2 2 3 3 32 32 33 33 34 34 35 35");
  EXPECT_EQ(rows[1], rows[0]);
  EXPECT_EQ(rows[2], "4 4 5 5 6 6 7 7 36 36 37 37 38 38 39 39");
  EXPECT_EQ(rows[15], "28 28 29 29 30 30 31 31 60 60 61 61 62 62 63 63");
  EXPECT_EQ(layout.elemsPerThread(), 4);
  EXPECT_TRUE(layout.isSurjective());
  for (int64_t r = 0; r < 16; ++r)
    for (int64_t c = 0; c < 16; ++c) {
      std::vector<HwIndex> holders = layout.holders({r, c});
      ASSERT_EQ(holders.size(), 1u);
      const HwIndex &h = holders[0];
      EXPECT_EQ(layout.apply(h.reg, h.lane, h.warp),
                (std::vector<int64_t>{r, c}));
    }
  expectRoundTrip(layout);
  EXPECT_EQ(shapePerCTATile(kSpec16x16), (std::vector<int64_t>{16, 16}));
  EXPECT_EQ(elemsPerThreadPerDim(kSpec16x16, {16, 16}),
            (std::vector<int64_t>{2, 2}));
}

TEST(BlockedLayoutTest, BasesFollowOrder) {
  LinearLayout layout = blockedToLinear(kSpec16x16, {16, 16});
  EXPECT_EQ(layout.bases(HwDim::Register), (BasisList{{0, 1}, {1, 0}}));
  EXPECT_EQ(layout.bases(HwDim::Lane),
            (BasisList{{0, 2}, {0, 4}, {2, 0}, {4, 0}, {8, 0}}));
  EXPECT_EQ(layout.bases(HwDim::Warp), (BasisList{{0, 8}}));
}

TEST(BlockedLayoutTest, TensorLargerThanTileRepeatsInRegisters) {
  LinearLayout layout = blockedToLinear(kSpec16x16, {32, 64});
  // Repetitions: dim 1 (fastest in order) first, then dim 0.
  EXPECT_EQ(layout.bases(HwDim::Register),
            (BasisList{{0, 1}, {1, 0}, {0, 16}, {0, 32}, {16, 0}}));
  EXPECT_EQ(layout.elemsPerThread(), 32);
  EXPECT_EQ(elemsPerThreadPerDim(kSpec16x16, {32, 64}),
            (std::vector<int64_t>{4, 8}));
  EXPECT_TRUE(layout.isSurjective());
  EXPECT_EQ(layout.holders({17, 50}).size(), 1u);
}

TEST(BlockedLayoutTest, LayoutLargerThanTensorBroadcasts) {
  // Test 2: a 2x8 tensor over a 4x4 layout of 16 lanes.
  BlockedSpec spec{{1, 1}, {4, 4}, {1, 1}, {1, 0}};
  LinearLayout layout = blockedToLinear(spec, {2, 8});
  EXPECT_EQ(layout.elemsPerThread(), 2);
  EXPECT_EQ(layout.holders({1, 3}),
            (std::vector<HwIndex>{{0, 7, 0}, {0, 15, 0}}));
  EXPECT_EQ(layout.holders({1, 7}),
            (std::vector<HwIndex>{{1, 7, 0}, {1, 15, 0}}));
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t c = 0; c < 8; ++c)
      EXPECT_EQ(layout.holders({r, c}).size(), 2u);
  std::vector<std::string> rows = splitLines(layout.threadTable());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1], "4/12 5/13 6/14 7/15 4/12 5/13 6/14 7/15");
  expectRoundTrip(layout);
}

TEST(BlockedLayoutTest, SliceAlongDim0) {
  // Test 7: slicing away dim 0 leaves the columns; threads that differed
  // only in their row now hold the same elements.
  LinearLayout slice = slicedBlockedToLinear(kSpec16x16, 0, {16});
  EXPECT_EQ(slice.shape(), (std::vector<int64_t>{16}));
  EXPECT_EQ(slice.elemsPerThread(), 2);
  EXPECT_TRUE(slice.isSurjective());
  // Element 5: column 5 -> register 1 of lane-column 2, any lane row.
  std::vector<HwIndex> holders = slice.holders({5});
  ASSERT_EQ(holders.size(), 8u);
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_EQ(holders[i], (HwIndex{1, 2 + 4 * i, 0}));
  // Element 9 lives in warp 1.
  for (const HwIndex &h : slice.holders({9}))
    EXPECT_EQ(h.warp, 1);
  // Same result through the generic entry point.
  EXPECT_EQ(sliceToLinear(blockedToLinear(kSpec16x16, {1, 16}), 0), slice);
  expectRoundTrip(slice);
}

TEST(BlockedLayoutTest, SliceAlongDim1) {
  LinearLayout slice = slicedBlockedToLinear(kSpec16x16, 1, {16});
  EXPECT_EQ(slice.elemsPerThread(), 2);
  EXPECT_TRUE(slice.isSurjective());
  // Row 5: register 1 of lane row 2 (lanes 8..11), in both warps.
  std::vector<HwIndex> holders = slice.holders({5});
  ASSERT_EQ(holders.size(), 8u);
  size_t i = 0;
  for (int64_t w = 0; w < 2; ++w)
    for (int64_t l = 8; l < 12; ++l)
      EXPECT_EQ(holders[i++], (HwIndex{1, l, w}));
  expectRoundTrip(slice);
}

TEST(BlockedLayoutTest, SliceOfLargerTensorKeepsRepetitions) {
  LinearLayout slice = slicedBlockedToLinear(kSpec16x16, 0, {64});
  // sizePerThread[1] * (64 / 16) repetitions.
  EXPECT_EQ(slice.elemsPerThread(), 8);
  EXPECT_EQ(slice.holders({37}).size(), 8u);
}

TEST(BlockedLayoutTest, Verifier) {
  EXPECT_FALSE(verifyBlocked(kSpec16x16, 32, 2));
  EXPECT_FALSE(verifyBlocked(kSpec16x16, 0, 0));
  EXPECT_EQ(verifyBlocked({{2, 2}, {4, 4}, {1, 2}, {1, 0}}, 32, 2),
            std::string("product of threadsPerWarp is 16, expected 32"));
  EXPECT_EQ(verifyBlocked(kSpec16x16, 32, 4),
            std::string("product of warpsPerCTA is 2, expected 4"));
  EXPECT_EQ(verifyBlocked({{3, 2}, {8, 4}, {1, 2}, {1, 0}}, 32, 2),
            std::string("sizePerThread[0] is 3, expected a positive power "
                        "of two"));
  EXPECT_EQ(verifyBlocked({{2, 2}, {8, 4}, {1, 0}, {1, 0}}, 32, 2),
            std::string("warpsPerCTA[1] is 0, expected a positive power "
                        "of two"));
  EXPECT_EQ(verifyBlocked({{2, 2}, {8, 4}, {1, 2}, {1, 1}}, 32, 2),
            std::string("order [1,1] is not a permutation of 0..1"));
  EXPECT_EQ(verifyBlocked({{2, 2}, {8, 4}, {2}, {1, 0}}, 32, 2),
            std::string("sizePerThread, threadsPerWarp, warpsPerCTA and "
                        "order must have the same rank (got 2, 2, 1, 2)"));
  EXPECT_TRUE(verifyBlocked({{}, {}, {}, {}}, 32, 1).has_value());
}

// The transpose kernel's load layout on 64x64: registers 0..4 step
// (0,1), (0,2), (8,0), (16,0), (32,0).  A mask constant on 16x16 blocks
// (rows < M and columns < N with M, N multiples of 16) is equal in the
// registers that differ in bits 0-2: 4 distinct values per thread, not 32.
TEST(BlockedLayoutTest, RegisterBitsInsideBlocks) {
  LinearLayout layout =
      blockedToLinear({{1, 4}, {2, 16}, {4, 1}, {1, 0}}, {64, 64});
  EXPECT_EQ(registerBitsInsideBlocks(layout, {16, 16}), 0b00111u);
  EXPECT_EQ(registerBitsInsideBlocks(layout, {1, 4}), 0b00011u);
  EXPECT_EQ(registerBitsInsideBlocks(layout, {64, 1}), 0b11100u);
  EXPECT_EQ(registerBitsInsideBlocks(layout, {64, 64}), 0b11111u);
  EXPECT_EQ(registerBitsInsideBlocks(layout, {1, 1}), 0u);
  // Every register the mask merges really lies in its representative's
  // block, in every thread.
  std::vector<int64_t> block{16, 16};
  uint64_t mask = registerBitsInsideBlocks(layout, block);
  for (int64_t w = 0; w < 4; ++w)
    for (int64_t l = 0; l < 32; ++l)
      for (int64_t r = 0; r < 32; ++r) {
        std::vector<int64_t> a = layout.apply(r, l, w);
        std::vector<int64_t> b = layout.apply(r & ~int64_t(mask), l, w);
        EXPECT_EQ(a[0] / 16, b[0] / 16);
        EXPECT_EQ(a[1] / 16, b[1] / 16);
      }
  // A register that repeats an element (zero basis: 4 registers per row
  // over 2 columns) is inside any block.
  LinearLayout wrapped =
      blockedToLinear({{1, 4}, {2, 16}, {4, 1}, {1, 0}}, {64, 2});
  EXPECT_EQ(registerBitsInsideBlocks(wrapped, {1, 1}), 0b10u);
}

} // namespace
