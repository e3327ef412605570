//===- FmaDotLayoutTest.cpp - Tests for CUDA-core dot operand layouts -----===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// Checks that the operand layouts of an FMA dot give every thread exactly
// the rows of A and columns of B its accumulator elements need, and that
// fmaOperandRegister finds them, for blocked accumulators of rank 2 and 3
// (including ones that wrap and broadcast over a small tensor).
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/BlockedLayout.h"
#include "tritium/Layout/FmaDotLayout.h"

#include <gtest/gtest.h>

using namespace tritium::layout;

namespace {

/// For every thread and accumulator register, each K index reads, through
/// fmaOperandRegister, the operand element the product needs.
void expectOperandsMatch(const LinearLayout &acc, int64_t k) {
  int64_t rank = acc.rank();
  std::vector<int64_t> aShape = acc.shape(), bShape = acc.shape();
  aShape[rank - 1] = k;
  bShape[rank - 2] = k;
  LinearLayout a = fmaOperandToLinear(acc, 0, aShape);
  LinearLayout b = fmaOperandToLinear(acc, 1, bShape);
  EXPECT_EQ(a.inDimSize(HwDim::Lane), acc.inDimSize(HwDim::Lane));
  EXPECT_EQ(b.inDimSize(HwDim::Warp), acc.inDimSize(HwDim::Warp));
  for (int64_t warp = 0; warp < acc.inDimSize(HwDim::Warp); ++warp)
    for (int64_t lane = 0; lane < acc.inDimSize(HwDim::Lane); ++lane)
      for (int64_t r = 0; r < acc.elemsPerThread(); ++r) {
        auto c = acc.apply(r, lane, warp);
        for (int64_t kk = 0; kk < k; ++kk) {
          int64_t ra = fmaOperandRegister(acc, 0, k, r, kk);
          int64_t rb = fmaOperandRegister(acc, 1, k, r, kk);
          ASSERT_LT(ra, a.elemsPerThread());
          ASSERT_LT(rb, b.elemsPerThread());
          auto ea = a.apply(ra, lane, warp);
          auto eb = b.apply(rb, lane, warp);
          std::vector<int64_t> wantA = c, wantB = c;
          wantA[rank - 1] = kk;
          wantB[rank - 2] = kk;
          ASSERT_EQ(ea, wantA) << "A, warp " << warp << " lane " << lane
                               << " reg " << r << " k " << kk;
          ASSERT_EQ(eb, wantB) << "B, warp " << warp << " lane " << lane
                               << " reg " << r << " k " << kk;
        }
      }
}

TEST(FmaDotLayoutTest, OperandsOfTheSeedsBlockedExample) {
  // The seeds' 16x16 layout over 2 warps: sizePerThread [2,2],
  // threadsPerWarp [8,4], warpsPerCTA [1,2].
  BlockedSpec spec{{2, 2}, {8, 4}, {1, 2}, {1, 0}};
  LinearLayout acc = blockedToLinear(spec, {16, 16});
  LinearLayout a = fmaOperandToLinear(acc, 0, {16, 8});
  // All of K first, then the accumulator's row register; its column
  // register drops out.
  EXPECT_EQ(a.bases(HwDim::Register),
            (BasisList{{0, 1}, {0, 2}, {0, 4}, {1, 0}}));
  // Lanes along N and the warp along N hold the same rows.
  EXPECT_EQ(a.bases(HwDim::Warp), (BasisList{{0, 0}}));
  EXPECT_EQ(a.bases(HwDim::Lane),
            (BasisList{{0, 0}, {0, 0}, {2, 0}, {4, 0}, {8, 0}}));
  expectOperandsMatch(acc, 8);
}

TEST(FmaDotLayoutTest, RowMajorAndColumnMajorAccumulators) {
  expectOperandsMatch(blockedToLinear({{1, 4}, {4, 8}, {4, 1}, {1, 0}}, {64, 32}), 16);
  expectOperandsMatch(blockedToLinear({{4, 1}, {8, 4}, {1, 4}, {0, 1}}, {32, 64}), 4);
}

TEST(FmaDotLayoutTest, AccumulatorSmallerThanItsLayoutBroadcasts) {
  // 4 warps of 32 lanes over an 8x8 tile: lanes and warps wrap.
  expectOperandsMatch(blockedToLinear({{1, 1}, {4, 8}, {2, 2}, {1, 0}}, {8, 8}), 2);
}

TEST(FmaDotLayoutTest, BatchedAccumulator) {
  expectOperandsMatch(
      blockedToLinear({{1, 1, 2}, {2, 4, 4}, {2, 2, 1}, {2, 1, 0}}, {4, 16, 16}), 8);
}

} // namespace
