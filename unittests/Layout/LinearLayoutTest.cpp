//===- LinearLayoutTest.cpp - Tests for LinearLayout ----------------------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// Unit tests of the GF(2) layout core: apply, holders (including zero bases
// and non-trivial kernels), surjectivity, removing output dimensions,
// printing, and the shared verifier helpers.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/LinearLayout.h"

#include "TestBases.h"

#include <gtest/gtest.h>

using namespace tritium::layout;
using HwIndex = LinearLayout::HwIndex;

namespace {

TEST(LinearLayoutTest, Log2AndPowerOfTwo) {
  EXPECT_TRUE(isPowerOf2(1));
  EXPECT_TRUE(isPowerOf2(64));
  EXPECT_FALSE(isPowerOf2(0));
  EXPECT_FALSE(isPowerOf2(-4));
  EXPECT_FALSE(isPowerOf2(12));
  EXPECT_EQ(log2Exact(1), 0);
  EXPECT_EQ(log2Exact(32), 5);
}

TEST(LinearLayoutTest, ApplyXorsBases) {
  LinearLayout layout(makeBases({{0, 1}, {1, 0}}, {{0, 2}, {2, 0}}, {{3, 3}}),
                      {4, 4});
  EXPECT_EQ(layout.rank(), 2);
  EXPECT_EQ(layout.numBases(HwDim::Lane), 2);
  EXPECT_EQ(layout.inDimSize(HwDim::Warp), 2);
  EXPECT_EQ(layout.elemsPerThread(), 4);
  EXPECT_EQ(layout.apply(0, 0, 0), (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(layout.apply(3, 0, 0), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(layout.apply(1, 3, 0), (std::vector<int64_t>{2, 3}));
  // The warp basis [3,3] XORs onto the other bits.
  EXPECT_EQ(layout.apply(1, 3, 1), (std::vector<int64_t>{1, 0}));
}

TEST(LinearLayoutTest, HoldersWithZeroBases) {
  // Shape [4]: register bit -> 1, lane bits -> 2 and broadcast, warp bit ->
  // broadcast.  Element 3 is held by register 1 of lanes {1,3} of warps
  // {0,1}.
  LinearLayout layout(makeBases({{1}}, {{2}, {0}}, {{0}}), {4});
  std::vector<HwIndex> expected = {
      {1, 1, 0}, {1, 3, 0}, {1, 1, 1}, {1, 3, 1}};
  EXPECT_EQ(layout.holders({3}), expected);
  EXPECT_TRUE(layout.isSurjective());
  for (const HwIndex &index : layout.holders({2}))
    EXPECT_EQ(layout.apply(index.reg, index.lane, index.warp),
              (std::vector<int64_t>{2}));
}

TEST(LinearLayoutTest, HoldersWithDependentNonZeroBases) {
  // 1 ^ 2 ^ 3 == 0: the kernel is {reg 3, lane 1}.
  LinearLayout layout(makeBases({{1}, {2}}, {{3}}, {}), {4});
  std::vector<HwIndex> zeroHolders = {{0, 0, 0}, {3, 1, 0}};
  EXPECT_EQ(layout.holders({0}), zeroHolders);
  std::vector<HwIndex> oneHolders = {{1, 0, 0}, {2, 1, 0}};
  EXPECT_EQ(layout.holders({1}), oneHolders);
}

TEST(LinearLayoutTest, HoldersRoundTripExhaustive) {
  LinearLayout layout(
      makeBases({{0, 1}, {4, 0}}, {{0, 2}, {1, 0}, {2, 0}, {0, 0}}, {{0, 4}}),
      {8, 8});
  EXPECT_TRUE(layout.isSurjective());
  for (int64_t r = 0; r < 8; ++r)
    for (int64_t c = 0; c < 8; ++c) {
      std::vector<HwIndex> holders = layout.holders({r, c});
      EXPECT_EQ(holders.size(), 2u);
      for (const HwIndex &index : holders)
        EXPECT_EQ(layout.apply(index.reg, index.lane, index.warp),
                  (std::vector<int64_t>{r, c}));
    }
}

TEST(LinearLayoutTest, NotSurjective) {
  LinearLayout layout(makeBases({{1}}, {{2}}, {}), {8});
  EXPECT_FALSE(layout.isSurjective());
  EXPECT_TRUE(layout.holders({4}).empty());
  EXPECT_EQ(layout.holders({3}), (std::vector<HwIndex>{{1, 1, 0}}));
}

TEST(LinearLayoutTest, WrappedReducesModuloShape) {
  LinearLayout layout =
      LinearLayout::wrapped(makeBases({{0, 4}}, {{2, 0}, {1, 3}}, {}), {2, 4});
  EXPECT_EQ(layout.bases(HwDim::Register), (BasisList{{0, 0}}));
  EXPECT_EQ(layout.bases(HwDim::Lane), (BasisList{{0, 0}, {1, 3}}));
}

TEST(LinearLayoutTest, RemoveOutDim) {
  LinearLayout layout(
      makeBases({{0, 1}, {1, 0}}, {{0, 2}, {1, 1}}, {{1, 0}}), {2, 4});
  LinearLayout dropped = layout.removeOutDim(0, /*dropZeroRegisterBases=*/true);
  EXPECT_EQ(dropped.shape(), (std::vector<int64_t>{4}));
  EXPECT_EQ(dropped.bases(HwDim::Register), (BasisList{{1}}));
  EXPECT_EQ(dropped.bases(HwDim::Lane), (BasisList{{2}, {1}}));
  EXPECT_EQ(dropped.bases(HwDim::Warp), (BasisList{{0}}));
  LinearLayout kept = layout.removeOutDim(0, /*dropZeroRegisterBases=*/false);
  EXPECT_EQ(kept.bases(HwDim::Register), (BasisList{{1}, {0}}));
}

TEST(LinearLayoutTest, Printing) {
  LinearLayout layout(makeBases({{0, 1}}, {{1, 0}, {0, 0}}, {}), {2, 2});
  EXPECT_EQ(layout.toString(), "register: [[0,1]]\n"
                               "lane: [[1,0], [0,0]]\n"
                               "warp: []\n"
                               "shape: [2,2]\n");
  // Thread t = lane + 4 * warp; lanes 0/2 and 1/3 hold the same elements.
  EXPECT_EQ(layout.threadTable(), "0/2 0/2\n1/3 1/3\n");
  LinearLayout partial(makeBases({}, {{0, 1}}, {}), {2, 2});
  EXPECT_EQ(partial.threadTable(), "0 1\n- -\n");
}

TEST(LinearLayoutTest, VerifierHelpers) {
  EXPECT_FALSE(checkPowersOfTwo("sizes", {1, 2, 8}));
  EXPECT_EQ(checkPowersOfTwo("sizes", {1, 3}),
            std::string("sizes[1] is 3, expected a positive power of two"));
  EXPECT_EQ(checkPowersOfTwo("sizes", {0}),
            std::string("sizes[0] is 0, expected a positive power of two"));
  EXPECT_FALSE(checkPermutation("order", {1, 2, 0}));
  EXPECT_EQ(checkPermutation("order", {0, 0}),
            std::string("order [0,0] is not a permutation of 0..1"));
  EXPECT_EQ(checkPermutation("order", {0, 2}),
            std::string("order [0,2] is not a permutation of 0..1"));
  EXPECT_EQ(formatVector({}), "[]");
}

} // namespace

// A row-major reshape keeps the flat index: every coordinate of a 4x8 tensor
// lands where numpy's reshape to 2x4x4 puts it, and back.
TEST(LinearLayoutTest, ReshapeCoordinateKeepsTheRowMajorIndex) {
  std::vector<int64_t> from = {4, 8}, to = {2, 4, 4};
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t c = 0; c < 8; ++c) {
      int64_t flat = r * 8 + c;
      std::vector<int64_t> expected = {flat / 16, (flat / 4) % 4, flat % 4};
      EXPECT_EQ(reshapeCoordinate({r, c}, from, to), expected);
      EXPECT_EQ(reshapeCoordinate(expected, to, from), (std::vector<int64_t>{r, c}));
    }
  // GF(2)-linear on power-of-two shapes: the image of an XOR is the XOR of the images
  std::vector<int64_t> a = reshapeCoordinate({1, 2}, from, to), b = reshapeCoordinate({2, 5}, from, to);
  std::vector<int64_t> both = reshapeCoordinate({1 ^ 2, 2 ^ 5}, from, to);
  for (size_t d = 0; d < both.size(); ++d)
    EXPECT_EQ(both[d], a[d] ^ b[d]);
}
