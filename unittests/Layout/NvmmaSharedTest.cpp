//===- NvmmaSharedTest.cpp - Tests for the NVMMA shared layout ------------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// Checks the NVMMA shared layout against the hardware's address swizzle
// (bits [4, 7) XOR bits [7, 10) for 128 bytes), that every tile is a
// permutation, the slab order for rows wider than the swizzle, and that
// ldmatrix reads its rows without bank conflicts.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/BankConflicts.h"
#include "tritium/Layout/NvmmaShared.h"

#include <gtest/gtest.h>

#include <set>

using namespace tritium::layout;

namespace {

/// The hardware's swizzle of a byte address inside an aligned pattern.
int64_t hardwareSwizzle(int64_t address, int64_t swizzleBytes) {
  int64_t bits = swizzleBytes == 128 ? 3 : swizzleBytes == 64 ? 2 : 1;
  int64_t mask = ((int64_t(1) << bits) - 1) << 4;
  return address ^ ((address >> 3) & mask);
}

TEST(NvmmaSharedTest, MatchesTheHardwareSwizzleOfEachWidth) {
  for (int64_t swizzle : {32, 64, 128}) {
    NvmmaSharedSpec spec{swizzle, 16, {1, 0}};
    int64_t perRow = swizzle / 2;
    std::vector<int64_t> shape = {64, perRow};
    for (int64_t r = 0; r < 64; ++r)
      for (int64_t c = 0; c < perRow; ++c) {
        int64_t plain = 2 * (r * perRow + c);
        ASSERT_EQ(2 * nvmmaOffset(spec, shape, {r, c}),
                  hardwareSwizzle(plain, swizzle))
            << "swizzle " << swizzle << " at " << r << "," << c;
      }
  }
}

TEST(NvmmaSharedTest, WideRowsSplitIntoSlabs) {
  // 64 x 128 fp16, 128-byte swizzle: two slabs of 64 x 64.
  NvmmaSharedSpec spec{128, 16, {1, 0}};
  std::vector<int64_t> shape = {64, 128};
  EXPECT_EQ(nvmmaUnswizzledOffset(spec, shape, {0, 64}), 64 * 64);
  EXPECT_EQ(nvmmaUnswizzledOffset(spec, shape, {8, 64}), 64 * 64 + 8 * 64);
  EXPECT_EQ(nvmmaOffset(spec, shape, {1, 0}), 64 + 8);
  std::set<int64_t> seen;
  for (int64_t r = 0; r < 64; ++r)
    for (int64_t c = 0; c < 128; ++c)
      seen.insert(nvmmaOffset(spec, shape, {r, c}));
  EXPECT_EQ(seen.size(), 64u * 128u);
  EXPECT_EQ(*seen.rbegin(), 64 * 128 - 1);
}

TEST(NvmmaSharedTest, ColumnMajorOrderSwapsTheRoles) {
  // B stored N-contiguous (order [0, 1] over a 32 x 64 N x K view is K
  // contiguous; here [1, 0] over K x N keeps N contiguous).
  NvmmaSharedSpec kMajor{64, 16, {0, 1}}; // dim 0 contiguous
  std::vector<int64_t> shape = {32, 16};  // 32 contiguous, 16 rows
  EXPECT_EQ(nvmmaOffset(kMajor, shape, {5, 0}), 5);
  EXPECT_EQ(nvmmaOffset(kMajor, shape, {0, 1}), 32);
  EXPECT_EQ(nvmmaOffset(kMajor, shape, {0, 2}), 64 + 8); // row 2: phase 1
}

TEST(NvmmaSharedTest, VerifiersAndSwizzleChoice) {
  EXPECT_TRUE(verifyNvmmaShared({128, 16, {1, 0}}) == std::nullopt);
  EXPECT_TRUE(verifyNvmmaShared({48, 16, {1, 0}}).has_value());
  EXPECT_TRUE(verifyNvmmaTile({128, 16, {1, 0}}, {64, 32}).has_value());
  EXPECT_TRUE(verifyNvmmaTile({128, 16, {1, 0}}, {12, 64}).has_value());
  EXPECT_EQ(chooseNvmmaSwizzle(64, 16), 128);
  EXPECT_EQ(chooseNvmmaSwizzle(32, 16), 64);
  EXPECT_EQ(chooseNvmmaSwizzle(16, 16), 32);
  EXPECT_EQ(chooseNvmmaSwizzle(8, 16), 0);
  EXPECT_EQ(chooseNvmmaSwizzle(128, 8), 128);
}

} // namespace

namespace {

/// ldmatrix reads eight 16-byte rows per 8x8 matrix (one per lane of a
/// quarter warp).  In an NVMMA tile the eight rows of one 16-byte column
/// chunk, for any eight consecutive rows starting at a multiple of 8, land
/// in eight different 16-byte bank groups: one wavefront, no conflict.
TEST(NvmmaSharedTest, LdmatrixRowsAreConflictFree) {
  for (int64_t swizzle : {32, 64, 128}) {
    NvmmaSharedSpec spec{swizzle, 16, {1, 0}};
    int64_t perRow = swizzle / 2;
    std::vector<int64_t> shape = {64, 2 * perRow}; // two slabs
    for (int64_t row0 = 0; row0 < 64; row0 += 8)
      for (int64_t col = 0; col < 2 * perRow; col += 8) {
        std::vector<int64_t> laneBytes;
        for (int64_t lane = 0; lane < 8; ++lane)
          laneBytes.push_back(2 * nvmmaOffset(spec, shape, {row0 + lane, col}));
        // Narrower swizzles pack 128 / swizzle rows per 128-byte line; the
        // phase, which changes every 128 / swizzle rows, moves them apart.
        EXPECT_EQ(countWavefronts(laneBytes, 16), 1)
            << "swizzle " << swizzle << " rows " << row0 << " col " << col;
      }
  }
}

} // namespace
