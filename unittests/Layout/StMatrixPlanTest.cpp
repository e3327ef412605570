//===- StMatrixPlanTest.cpp - Tests for stmatrix stores ------------------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// planStMatrix on the layouts that hold stmatrix's fragments (wgmma and
// mma.sync accumulators, a blocked layout of pairs over 8x4 lanes) into
// 128- and 64-byte-swizzled NVMMA tiles, and on layouts that do not.  Each
// plan is checked by simulating the instruction: every register of every
// lane and warp must land at its element's offset, from 16-byte-aligned
// row addresses, each register stored once.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/StMatrixPlan.h"
#include "tritium/Layout/BlockedLayout.h"
#include "tritium/Layout/MmaLayout.h"
#include "tritium/Layout/NvmmaShared.h"

#include <gtest/gtest.h>

#include <set>

using namespace tritium::layout;

namespace {

using Offset = std::function<int64_t(const std::vector<int64_t> &)>;

Offset nvmma(int64_t swizzleBytes, std::vector<int64_t> shape) {
  NvmmaSharedSpec spec{swizzleBytes, 16, {1, 0}};
  return [spec, shape](const std::vector<int64_t> &coord) {
    return nvmmaOffset(spec, shape, coord);
  };
}

/// Instruction k, matrix j: lane t writes registers first + 2j + {0, 1} at
/// (row address of lane 8j + t / 4) + 2 (t % 4) + {0, 1}.
void expectStoresEveryElement(const LinearLayout &layout, const Offset &offset,
                              const StMatrixPlan &plan) {
  int64_t perInstruction = 2 * plan.matrices;
  ASSERT_EQ(static_cast<int64_t>(plan.firstRegisters.size()) * perInstruction,
            layout.elemsPerThread());
  std::set<int64_t> stored;
  for (int64_t w = 0; w < layout.inDimSize(HwDim::Warp); ++w)
    for (size_t k = 0; k < plan.firstRegisters.size(); ++k)
      for (int64_t j = 0; j < plan.matrices; ++j)
        for (int64_t t = 0; t < 32; ++t) {
          int64_t row = plan.rowOffset(8 * j + t / 4, w) ^ plan.instructionOffsets[k];
          ASSERT_EQ(row % 8, 0) << "row address not 16-byte aligned";
          for (int64_t e = 0; e < 2; ++e) {
            int64_t reg = plan.firstRegisters[k] + 2 * j + e;
            EXPECT_EQ(row + 2 * (t % 4) + e, offset(layout.apply(reg, t, w)))
                << "register " << reg << " lane " << t << " warp " << w;
            if (w == 0 && t == 0)
              EXPECT_TRUE(stored.insert(reg).second) << "register " << reg << " twice";
          }
        }
}

TEST(StMatrixPlanTest, WgmmaAccumulatorInto128ByteSwizzle) {
  // A 64x64 wgmma tile over 4 warps: 32 registers, four .x4 instructions.
  LinearLayout acc = mmaToLinear({3, 0, {4, 1}, {16, 64, 16}}, {64, 64});
  Offset offset = nvmma(128, {64, 64});
  std::optional<StMatrixPlan> plan = planStMatrix(acc, offset);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->matrices, 4);
  EXPECT_EQ(plan->firstRegisters, (std::vector<int64_t>{0, 8, 16, 24}));
  // rows + 1, 2, 4 (64 elements each, the 16-byte chunk XORed by the row);
  // then rows + 8 and columns + 8 (the matrix bits)
  EXPECT_EQ(plan->laneRowOffsets, (std::vector<int64_t>{72, 144, 288, 512, 8}));
  EXPECT_EQ(plan->instructionOffsets, (std::vector<int64_t>{0, 16, 32, 48}));
  expectStoresEveryElement(acc, offset, *plan);
}

TEST(StMatrixPlanTest, PersistentMatmulEpilogueTile) {
  // 128x256 over 8 warps (two warpgroups): columns in four 64-wide slabs.
  LinearLayout acc = mmaToLinear({3, 0, {8, 1}, {16, 256, 16}}, {128, 256});
  Offset offset = nvmma(128, {128, 256});
  std::optional<StMatrixPlan> plan = planStMatrix(acc, offset);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->matrices, 4);
  EXPECT_EQ(plan->firstRegisters.size(), 16u);
  expectStoresEveryElement(acc, offset, *plan);
}

TEST(StMatrixPlanTest, MmaSyncAccumulatorAndBlockedPairs) {
  LinearLayout v2 = mmaToLinear({2, 0, {2, 2}, {16, 8}}, {64, 64});
  Offset swizzle64 = nvmma(64, {64, 64});
  std::optional<StMatrixPlan> plan = planStMatrix(v2, swizzle64);
  ASSERT_TRUE(plan);
  expectStoresEveryElement(v2, swizzle64, *plan);

  LinearLayout pairs = blockedToLinear({{1, 2}, {8, 4}, {4, 1}, {1, 0}}, {64, 64});
  Offset swizzle128 = nvmma(128, {64, 64});
  plan = planStMatrix(pairs, swizzle128);
  ASSERT_TRUE(plan);
  expectStoresEveryElement(pairs, swizzle128, *plan);
}

TEST(StMatrixPlanTest, FewRegistersUseNarrowerInstructions) {
  // 64x8 over 4 warps: 4 registers a thread, one .x2.
  LinearLayout acc = mmaToLinear({3, 0, {4, 1}, {16, 8, 16}}, {64, 8});
  Offset offset = [](const std::vector<int64_t> &c) { return c[0] * 8 + c[1]; };
  std::optional<StMatrixPlan> plan = planStMatrix(acc, offset);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->matrices, 2);
  EXPECT_EQ(plan->firstRegisters, (std::vector<int64_t>{0}));
  expectStoresEveryElement(acc, offset, *plan);
}

TEST(StMatrixPlanTest, OtherLayoutsAreRefused) {
  Offset offset = nvmma(128, {64, 64});
  // 8 consecutive elements a thread: lane bit 0 moves by 8, not 2.
  EXPECT_FALSE(planStMatrix(blockedToLinear({{1, 8}, {4, 8}, {4, 1}, {1, 0}}, {64, 64}), offset));
  // pairs along the rows (order [0, 1]): register bit 0 moves a row.
  EXPECT_FALSE(planStMatrix(blockedToLinear({{2, 1}, {4, 8}, {1, 4}, {0, 1}}, {64, 64}), offset));
  // a broadcast register (a 16-column tensor under an 8x4-lane layout of
  // 4-wide rows wraps): a register basis of offset 0.
  EXPECT_FALSE(planStMatrix(blockedToLinear({{1, 2}, {8, 4}, {4, 1}, {1, 0}}, {32, 4}),
                            [](const std::vector<int64_t> &c) { return c[0] * 8 + c[1]; }));
}

} // namespace
