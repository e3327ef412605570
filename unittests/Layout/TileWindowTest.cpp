//===- TileWindowTest.cpp - Tests for windows taken from registers --------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// A matmul epilogue's column slabs of a wgmma accumulator are register
// choices; windows that would need data from other threads are refused.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/MmaLayout.h"
#include "tritium/Layout/TileWindow.h"

#include <gtest/gtest.h>

using namespace tritium::layout;

namespace {

/// Every thread's register plan[r] of `source` holds what register r of
/// `window` holds, shifted by `offsets`.
void expectPlanHolds(const LinearLayout &source, const LinearLayout &window,
                     const std::vector<int64_t> &offsets) {
  auto plan = planTileWindow(source, window, offsets);
  ASSERT_TRUE(std::holds_alternative<std::vector<int64_t>>(plan))
      << std::get<std::string>(plan);
  const auto &regs = std::get<std::vector<int64_t>>(plan);
  ASSERT_EQ(int64_t(regs.size()), window.elemsPerThread());
  for (int64_t w = 0; w < window.inDimSize(HwDim::Warp); ++w)
    for (int64_t l = 0; l < window.inDimSize(HwDim::Lane); ++l)
      for (int64_t r = 0; r < window.elemsPerThread(); ++r) {
        std::vector<int64_t> want = window.apply(r, l, w);
        for (size_t d = 0; d < want.size(); ++d)
          want[d] += offsets[d];
        ASSERT_EQ(source.apply(regs[r], l, w), want)
            << "register " << r << " lane " << l << " warp " << w;
      }
}

TEST(TileWindow, WgmmaAccumulatorColumnSlabs) {
  // The 128x256 accumulator of 8 warps stacked along M, stored 64 columns
  // at a time: each slab is the same layout with a 64-wide instruction.
  LinearLayout acc = mmaToLinear({3, 0, {8, 1}, {16, 256, 16}}, {128, 256});
  LinearLayout slab = mmaToLinear({3, 0, {8, 1}, {16, 64, 16}}, {128, 64});
  EXPECT_EQ(slab.elemsPerThread() * 4, acc.elemsPerThread());
  for (int64_t c = 0; c < 256; c += 64)
    expectPlanHolds(acc, slab, {0, c});
}

TEST(TileWindow, WgmmaAccumulatorWithRowRepetitions) {
  // 4 warps over 128 rows: two repetitions along M; slabs of 32 columns.
  LinearLayout acc = mmaToLinear({3, 0, {4, 1}, {16, 128, 16}}, {128, 128});
  LinearLayout slab = mmaToLinear({3, 0, {4, 1}, {16, 32, 16}}, {128, 32});
  for (int64_t c = 0; c < 128; c += 32)
    expectPlanHolds(acc, slab, {0, c});
}

TEST(TileWindow, RefusesWindowsThatMoveData) {
  LinearLayout acc = mmaToLinear({3, 0, {4, 2}, {16, 128, 16}}, {64, 256});
  // Warps split N: the window's warp 1 would sit at columns 32-63, the
  // source's at 128-255.
  LinearLayout slab = mmaToLinear({3, 0, {4, 2}, {16, 32, 16}}, {64, 64});
  auto plan = planTileWindow(acc, slab, {0, 64});
  ASSERT_TRUE(std::holds_alternative<std::string>(plan));
  EXPECT_NE(std::get<std::string>(plan).find("other threads"), std::string::npos);
  // Offsets that are not a multiple of the window.
  LinearLayout acc8 = mmaToLinear({3, 0, {8, 1}, {16, 256, 16}}, {128, 256});
  LinearLayout slab8 = mmaToLinear({3, 0, {8, 1}, {16, 64, 16}}, {128, 64});
  plan = planTileWindow(acc8, slab8, {0, 32});
  ASSERT_TRUE(std::holds_alternative<std::string>(plan));
  EXPECT_NE(std::get<std::string>(plan).find("aligned tile"), std::string::npos);
}

} // namespace
