//===- AxisInfoLatticeTest.cpp - the axis-info lattice ---------------------===//
//
// The join of AxisInfo values (gcd per dimension, with divisibility
// regrouped to the joined contiguity), its lattice laws, and the small
// helpers the transfer functions and coalescing rely on: the largest
// power-of-two divisor and the dimension order by contiguity.
//
//===----------------------------------------------------------------------===//
#include "tritium/Analysis/AxisInfo.h"

#include <gtest/gtest.h>

using tritium::AxisInfo;
using tritium::highestPowerOf2Divisor;
using tritium::orderByContiguity;

namespace {
constexpr int64_t kAny = AxisInfo::kMaxDivisibility;

std::vector<int64_t> vec(llvm::ArrayRef<int64_t> values) {
  return std::vector<int64_t>(values.begin(), values.end());
}

TEST(AxisInfoLatticeTest, UninitializedIsTheIdentity) {
  AxisInfo range({128}, {kAny}, {1});
  EXPECT_FALSE(AxisInfo().isInitialized());
  EXPECT_EQ(AxisInfo::join(AxisInfo(), range), range);
  EXPECT_EQ(AxisInfo::join(range, AxisInfo()), range);
  EXPECT_EQ(AxisInfo::join(AxisInfo(), AxisInfo()), AxisInfo());
}

TEST(AxisInfoLatticeTest, ContiguityAndConstancyJoinByGcd) {
  AxisInfo a({128, 1}, {16, 16}, {1, 8});
  AxisInfo b({64, 1}, {16, 16}, {1, 4});
  AxisInfo joined = AxisInfo::join(a, b);
  EXPECT_EQ(vec(joined.getContiguity()), (std::vector<int64_t>{64, 1}));
  EXPECT_EQ(vec(joined.getConstancy()), (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(vec(joined.getDivisibility()), (std::vector<int64_t>{16, 16}));
}

// [0, 1, ..., 127] joined with runs of 64 starting at multiples of 64: the
// joined runs of 64 start at 0 and 64 in the first value, so they are only
// known to be multiples of 64, not of "anything" as 0 alone is.
TEST(AxisInfoLatticeTest, DivisibilityIsRegroupedToShorterRuns) {
  AxisInfo range({128}, {kAny}, {1});
  AxisInfo halves({64}, {64}, {1});
  AxisInfo joined = AxisInfo::join(range, halves);
  EXPECT_EQ(joined.getContiguity(0), 64);
  EXPECT_EQ(joined.getDivisibility(0), 64);

  // Runs of 4 from multiples of 16 seen as runs of 2 start at 16k and
  // 16k + 2: only even.
  AxisInfo fours({4}, {16}, {1});
  AxisInfo twos({2}, {16}, {1});
  EXPECT_EQ(AxisInfo::join(fours, twos).getDivisibility(0), 2);
}

TEST(AxisInfoLatticeTest, DivisibilityOfGroups) {
  AxisInfo runs({8}, {32}, {1});
  EXPECT_EQ(runs.getDivisibilityOfGroups(0, 8), 32);  // the runs themselves
  EXPECT_EQ(runs.getDivisibilityOfGroups(0, 16), 32); // whole runs
  EXPECT_EQ(runs.getDivisibilityOfGroups(0, 4), 4);   // v + 4k
  EXPECT_EQ(runs.getElementDivisibility(0), 1);       // v + 1 is odd
  AxisInfo constant({1}, {32}, {8});
  EXPECT_EQ(constant.getElementDivisibility(0), 32);
}

TEST(AxisInfoLatticeTest, DivisibilityOfAllElements) {
  // Along dim 1 each element starts a group of one: all are multiples of 16.
  AxisInfo tile({64, 1}, {kAny, 16}, {1, 1});
  EXPECT_EQ(tile.getDivisibilityOfAllElements(), 16);
  AxisInfo range({64}, {kAny}, {1});
  EXPECT_EQ(range.getDivisibilityOfAllElements(), 1);
  EXPECT_EQ(AxisInfo::splatConstant(48, {4}).getDivisibilityOfAllElements(), 16);
}

TEST(AxisInfoLatticeTest, ConstantValueSurvivesOnlyWhenEqual) {
  AxisInfo four = AxisInfo::splatConstant(4, {16});
  AxisInfo eight = AxisInfo::splatConstant(8, {16});
  EXPECT_EQ(AxisInfo::join(four, four).getConstantValue(), 4);
  AxisInfo joined = AxisInfo::join(four, eight);
  EXPECT_FALSE(joined.getConstantValue().has_value());
  EXPECT_EQ(joined.getDivisibility(0), 4);
  EXPECT_EQ(joined.getConstancy(0), 16);
}

TEST(AxisInfoLatticeTest, JoinIsALatticeJoin) {
  std::vector<AxisInfo> values = {
      AxisInfo({128}, {kAny}, {1}),  AxisInfo({64}, {64}, {1}),
      AxisInfo({4}, {16}, {1}),      AxisInfo({1}, {8}, {32}, 8),
      AxisInfo({2}, {kAny}, {1}, 0), AxisInfo::unknown(1)};
  for (const AxisInfo &a : values) {
    EXPECT_EQ(AxisInfo::join(a, a), a);
    for (const AxisInfo &b : values) {
      AxisInfo ab = AxisInfo::join(a, b);
      EXPECT_EQ(ab, AxisInfo::join(b, a));
      // Monotone: joining again with either side changes nothing.
      EXPECT_EQ(AxisInfo::join(ab, a), ab);
      EXPECT_EQ(AxisInfo::join(ab, b), ab);
      for (const AxisInfo &c : values)
        EXPECT_EQ(AxisInfo::join(ab, c), AxisInfo::join(a, AxisInfo::join(b, c)));
    }
  }
}

TEST(AxisInfoLatticeTest, UnknownIsTheTop) {
  AxisInfo top = AxisInfo::unknown(2);
  EXPECT_EQ(AxisInfo::join(top, AxisInfo({64, 1}, {16, 16}, {1, 4})), top);
}

TEST(AxisInfoLatticeTest, HighestPowerOf2Divisor) {
  EXPECT_EQ(highestPowerOf2Divisor(0), kAny);
  EXPECT_EQ(highestPowerOf2Divisor(1), 1);
  EXPECT_EQ(highestPowerOf2Divisor(12), 4);
  EXPECT_EQ(highestPowerOf2Divisor(-8), 8);
  EXPECT_EQ(highestPowerOf2Divisor(int64_t(1) << 40), kAny);
  EXPECT_EQ(highestPowerOf2Divisor(INT64_MIN), kAny);
  EXPECT_EQ(tritium::multiplyDivisibility(kAny, 4), kAny);
  EXPECT_EQ(tritium::multiplyDivisibility(16, 4), 64);
}

TEST(AxisInfoLatticeTest, OrderByContiguity) {
  // Row-major tile: contiguous along dimension 1.
  EXPECT_EQ(orderByContiguity({1, 64}), (std::vector<unsigned>{1, 0}));
  // Column-major tile: contiguous along dimension 0.
  EXPECT_EQ(orderByContiguity({64, 1}), (std::vector<unsigned>{0, 1}));
  // Ties keep the row-major order.
  EXPECT_EQ(orderByContiguity({1, 1}), (std::vector<unsigned>{1, 0}));
  EXPECT_EQ(orderByContiguity({4, 1, 4}), (std::vector<unsigned>{2, 0, 1}));
}
} // namespace
