//===- ScanRuleTest.cpp - Tests for the scan lowering's layout rule -------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// makeScanPlan on blocked layouts (which the scan lowering must take) and on
// linear layouts it must refuse.  For an accepted layout, every element a
// thread holds must sit at the axis position the plan gives it: the low
// register bits, then the lane rank, then (above the warp bits) the chunk.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/ScanRule.h"
#include "tritium/Layout/BlockedLayout.h"

#include "TestBases.h"

#include <gtest/gtest.h>

using namespace tritium::layout;

namespace {

int64_t gatherBits(int64_t value, const std::vector<int> &bits) {
  int64_t result = 0;
  for (size_t k = 0; k < bits.size(); ++k)
    result |= ((value >> bits[k]) & 1) << k;
  return result;
}

/// Every element's axis position agrees with the plan's split of it.
void expectPlanPlacesElements(const LinearLayout &layout, int axis,
                              const ScanPlan &plan) {
  int a = plan.regLowBits(), b = plan.laneBits, c = plan.warpBits;
  for (int64_t reg = 0; reg < layout.elemsPerThread(); ++reg)
    for (int64_t lane = 0; lane < layout.inDimSize(HwDim::Lane); ++lane)
      for (int64_t warp = 0; warp < layout.inDimSize(HwDim::Warp); ++warp) {
        int64_t pos = layout.apply(reg, lane, warp)[axis];
        EXPECT_EQ(pos & ((int64_t(1) << a) - 1),
                  gatherBits(reg, plan.lowRegisterBits));
        EXPECT_EQ((pos >> a) & ((int64_t(1) << b) - 1),
                  (lane >> plan.firstLaneBit) & ((int64_t(1) << b) - 1));
        EXPECT_EQ(pos >> (a + b + c), gatherBits(reg, plan.chunkRegisterBits));
      }
}

TEST(ScanRuleTest, BlockedLayoutsScanDirectly) {
  BlockedSpec spec{{2, 2}, {8, 4}, {1, 2}, {1, 0}};
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{16, 16}, {4, 8}, {64, 2}, {1, 32}, {8, 128}})
    for (int axis : {0, 1}) {
      LinearLayout layout = blockedToLinear(spec, shape);
      std::string why;
      std::optional<ScanPlan> plan = makeScanPlan(layout, axis, why);
      ASSERT_TRUE(plan) << layout.toString() << " axis " << axis << ": " << why;
      EXPECT_EQ(scanLayoutProblem(layout, axis), "");
      expectPlanPlacesElements(layout, axis, *plan);
    }
}

TEST(ScanRuleTest, ChunksAndWarpsAlongTheAxis) {
  // 2 registers, 8 lanes and 2 warps along 64 columns: 2 chunks of 2.
  BlockedSpec spec{{1, 2}, {4, 8}, {1, 2}, {1, 0}};
  LinearLayout layout = blockedToLinear(spec, {4, 64});
  std::string why;
  std::optional<ScanPlan> plan = makeScanPlan(layout, 1, why);
  ASSERT_TRUE(plan) << why;
  EXPECT_EQ(plan->chunkSize(), 2);
  EXPECT_EQ(plan->numLaneRanks(), 8);
  EXPECT_EQ(plan->numWarpRanks(), 2);
  EXPECT_EQ(plan->numChunks(), 2);
  EXPECT_EQ(plan->numLines, 4);
  EXPECT_TRUE(plan->needsScratch());
  EXPECT_EQ(plan->scratchElements(), 4 * 2 * 2);
  expectPlanPlacesElements(layout, 1, *plan);
}

TEST(ScanRuleTest, LinearLayoutsOutOfOrderAreRefused) {
  // A lane basis moves along the axis and across it.
  LinearLayout mixed(
      makeBases({{0, 1}}, {{2, 0}, {0, 2}, {4, 0}, {8, 0}, {1, 1}}, {}),
      {16, 4});
  EXPECT_NE(scanLayoutProblem(mixed, 1).find("along the scan axis and across"),
            std::string::npos);
  // Two bases for one position.
  LinearLayout twice(makeBases({{1, 0}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 0}}, {}),
                     {16, 1});
  EXPECT_NE(scanLayoutProblem(twice, 0).find("same position"), std::string::npos);
  // Lanes along the axis that are not consecutive lane ids.
  LinearLayout gapped(makeBases({}, {{1, 0}, {0, 1}, {2, 0}, {4, 0}, {8, 0}}, {}),
                      {16, 2});
  EXPECT_NE(scanLayoutProblem(gapped, 0).find("consecutive"), std::string::npos);
  // A warp below a lane along the axis.
  LinearLayout swapped(makeBases({}, {{2, 0}, {4, 0}, {8, 0}, {16, 0}, {32, 0}},
                                 {{1, 0}}),
                       {64, 1});
  EXPECT_NE(scanLayoutProblem(swapped, 0).find("follow one another"),
            std::string::npos);
}

} // namespace
