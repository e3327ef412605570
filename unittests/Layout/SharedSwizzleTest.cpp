//===- SharedSwizzleTest.cpp - Tests for shared-memory swizzling ----------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// Worked swizzle tables, bijectivity of swizzled offsets (2-D and batched),
// and the swizzle verifier.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/SharedSwizzle.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace tritium::layout;

namespace {

using Table = std::vector<std::vector<int64_t>>;

TEST(SharedSwizzleTest, PerPhaseOne) {
  EXPECT_EQ(swizzleTable({1, 1, 4, {1, 0}}, 4, 4),
            (Table{{0, 1, 2, 3}, {1, 0, 3, 2}, {2, 3, 0, 1}, {3, 2, 1, 0}}));
}

TEST(SharedSwizzleTest, PerPhaseTwo) {
  EXPECT_EQ(swizzleTable({1, 2, 4, {1, 0}}, 4, 4),
            (Table{{0, 1, 2, 3}, {0, 1, 2, 3}, {1, 0, 3, 2}, {1, 0, 3, 2}}));
}

TEST(SharedSwizzleTest, VectorOfTwo) {
  EXPECT_EQ(swizzleTable({2, 1, 4, {1, 0}}, 4, 8),
            (Table{{0, 1, 2, 3, 4, 5, 6, 7},
                   {2, 3, 0, 1, 6, 7, 4, 5},
                   {4, 5, 6, 7, 0, 1, 2, 3},
                   {6, 7, 4, 5, 2, 3, 0, 1}}));
}

TEST(SharedSwizzleTest, NoSwizzleWithMaxPhaseOne) {
  EXPECT_EQ(swizzleTable({4, 1, 1, {1, 0}}, 2, 4),
            (Table{{0, 1, 2, 3}, {0, 1, 2, 3}}));
}

TEST(SharedSwizzleTest, NarrowRowsStayPermutations) {
  // vec * maxPhase (16) exceeds the row length (4): phases wrap.
  Table table = swizzleTable({2, 1, 8, {1, 0}}, 8, 4);
  for (const std::vector<int64_t> &row : table)
    EXPECT_EQ(std::set<int64_t>(row.begin(), row.end()),
              (std::set<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(table[1], (std::vector<int64_t>{2, 3, 0, 1}));
  EXPECT_EQ(table[2], (std::vector<int64_t>{0, 1, 2, 3}));
}

TEST(SharedSwizzleTest, OffsetIsBijection2D) {
  const std::vector<SwizzleSpec> specs = {{1, 1, 4, {1, 0}},
                                          {1, 2, 4, {1, 0}},
                                          {2, 1, 4, {1, 0}},
                                          {8, 1, 8, {1, 0}},
                                          {4, 2, 4, {0, 1}}};
  for (const SwizzleSpec &spec : specs) {
    const std::vector<int64_t> shape = {16, 64};
    std::set<int64_t> offsets;
    for (int64_t i = 0; i < shape[0]; ++i)
      for (int64_t j = 0; j < shape[1]; ++j) {
        int64_t offset = swizzledOffset(spec, shape, {i, j});
        EXPECT_GE(offset, 0);
        EXPECT_LT(offset, shape[0] * shape[1]);
        offsets.insert(offset);
      }
    EXPECT_EQ(offsets.size(), static_cast<size_t>(shape[0] * shape[1]));
  }
}

TEST(SharedSwizzleTest, OffsetMatchesTable) {
  SwizzleSpec spec{2, 1, 4, {1, 0}};
  Table table = swizzleTable(spec, 4, 8);
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t c = 0; c < 8; ++c)
      EXPECT_EQ(swizzledOffset(spec, {4, 8}, {r, c}), r * 8 + table[r][c]);
  // Column-major order: dim 0 is contiguous, dim 1 indexes rows.
  SwizzleSpec colMajor{2, 1, 4, {0, 1}};
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t c = 0; c < 8; ++c)
      EXPECT_EQ(swizzledOffset(colMajor, {8, 4}, {c, r}), r * 8 + table[r][c]);
}

TEST(SharedSwizzleTest, BatchedOffsets) {
  SwizzleSpec spec{1, 1, 4, {2, 1, 0}};
  const std::vector<int64_t> shape = {3, 4, 4};
  // Batch b starts at b * 16 and holds the 2-D swizzle of its tile.
  EXPECT_EQ(swizzledOffset(spec, shape, {2, 1, 0}), 2 * 16 + 4 + 1);
  std::set<int64_t> offsets;
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t r = 0; r < 4; ++r)
      for (int64_t c = 0; c < 4; ++c)
        offsets.insert(swizzledOffset(spec, {2, 4, 4}, {b, r, c}));
  EXPECT_EQ(offsets.size(), 32u);
  EXPECT_EQ(*offsets.rbegin(), 31);
}

TEST(SharedSwizzleTest, SwizzledTileFollowsTheFormula) {
  // Every spec of vec, perPhase, maxPhase up to 8 and rows of 1 to 32
  // elements (narrow rows reduce the phase), in 3-D tiles whose order puts
  // dimension 1 innermost: SwizzledTile's shifts and masks give the
  // header's formula, written with divisions.
  for (int64_t vec : {1, 2, 4, 8})
    for (int64_t perPhase : {1, 2, 4})
      for (int64_t maxPhase : {1, 2, 4, 8})
        for (int64_t rowLength : {1, 2, 8, 32}) {
          SwizzleSpec spec{vec, perPhase, maxPhase, {1, 2, 0}};
          const std::vector<int64_t> shape = {3, rowLength, 6};
          SwizzledTile tile(spec, shape);
          int64_t groups = std::max<int64_t>(1, rowLength / vec);
          for (int64_t b = 0; b < 3; ++b)
            for (int64_t row = 0; row < 6; ++row)
              for (int64_t col = 0; col < rowLength; ++col) {
                int64_t phase = groups <= 1 ? 0 : (row / perPhase) % maxPhase % groups;
                int64_t column = groups <= 1 ? col : ((col / vec) ^ phase) * vec + col % vec;
                int64_t want = b * 6 * rowLength + row * rowLength + column;
                ASSERT_EQ(tile.offset({b, col, row}), want)
                    << "vec " << vec << " perPhase " << perPhase << " maxPhase " << maxPhase
                    << " row length " << rowLength << " at " << b << ", " << row << ", " << col;
              }
        }
}

TEST(SharedSwizzleTest, Verifier) {
  EXPECT_FALSE(verifySwizzle({8, 1, 8, {1, 0}}));
  EXPECT_EQ(verifySwizzle({3, 1, 8, {1, 0}}),
            std::string("vec is 3, expected a positive power of two"));
  EXPECT_EQ(verifySwizzle({2, 0, 8, {1, 0}}),
            std::string("perPhase is 0, expected a positive power of two"));
  EXPECT_EQ(verifySwizzle({2, 1, 6, {1, 0}}),
            std::string("maxPhase is 6, expected a positive power of two"));
  EXPECT_EQ(verifySwizzle({2, 1, 8, {1, 2}}),
            std::string("order [1,2] is not a permutation of 0..1"));
  EXPECT_EQ(verifySwizzle({2, 1, 8, {}}),
            std::string("order must have rank at least 1"));
}

} // namespace
