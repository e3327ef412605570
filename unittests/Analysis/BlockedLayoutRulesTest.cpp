//===- BlockedLayoutRulesTest.cpp - default and coalesced layouts ----------===//
//
// The rules that choose blocked layouts (BlockedLayoutRules.h): how lanes
// and warps are fitted over a shape for the default layout of
// convert-tt-to-ttg and the coalesced layouts of ttg-coalesce (including
// the column-major case), the 128-bit vectorization rule, and the layouts
// of tt.trans and tt.join.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/BlockedLayoutRules.h"

#include <gtest/gtest.h>

using namespace tritium;
using namespace tritium::ttg;
using V = std::vector<int64_t>;

namespace {

void expectSpec(const layout::BlockedSpec &spec, V sizePerThread,
                V threadsPerWarp, V warpsPerCTA, V order) {
  EXPECT_EQ(spec.sizePerThread, sizePerThread);
  EXPECT_EQ(spec.threadsPerWarp, threadsPerWarp);
  EXPECT_EQ(spec.warpsPerCTA, warpsPerCTA);
  EXPECT_EQ(spec.order, order);
}

TEST(BlockedLayoutRulesTest, Default1D) {
  expectSpec(defaultBlockedLayout({1024}, 4, 32), {1}, {32}, {4}, {0});
  // Smaller than the CTA: every thread still gets a place (wrapping).
  expectSpec(defaultBlockedLayout({64}, 4, 32), {1}, {32}, {4}, {0});
}

TEST(BlockedLayoutRulesTest, Default2D) {
  // Lanes along the 64 columns first, the two extra column blocks to warps,
  // the remaining warps down the rows.
  expectSpec(defaultBlockedLayout({32, 64}, 4, 32), {1, 1}, {1, 32}, {2, 2},
             {1, 0});
  // 16 columns take 16 lanes; the other 2 lanes and all warps go to rows.
  expectSpec(defaultBlockedLayout({16, 16}, 4, 32), {1, 1}, {2, 16}, {4, 1},
             {1, 0});
  // A column vector: the single column takes one thread.
  expectSpec(defaultBlockedLayout({32, 1}, 4, 32), {1, 1}, {32, 1}, {4, 1},
             {1, 0});
  expectSpec(defaultBlockedLayout({1, 64}, 4, 32), {1, 1}, {1, 32}, {2, 2},
             {1, 0});
}

TEST(BlockedLayoutRulesTest, Default3D) {
  expectSpec(defaultBlockedLayout({2, 4, 8}, 2, 32), {1, 1, 1}, {1, 4, 8},
             {2, 1, 1}, {2, 1, 0});
}

TEST(BlockedLayoutRulesTest, DotAccumulatorHoldsSquareBlocks) {
  // 128x128 over 8 warps: 64 elements a thread, so 4x4 blocks; the 32
  // column blocks take the lanes, the warps go down the rows.
  expectSpec(dotBlockedLayout({128, 128}, 8, 32), {4, 4}, {1, 32}, {8, 1},
             {1, 0});
  // 64x64 over 4 warps: 32 a thread, still 4x4.
  expectSpec(dotBlockedLayout({64, 64}, 4, 32), {4, 4}, {2, 16}, {4, 1},
             {1, 0});
  // 32x32 over 4 warps: 8 a thread, 2x2 blocks.
  expectSpec(dotBlockedLayout({32, 32}, 4, 32), {2, 2}, {2, 16}, {4, 1},
             {1, 0});
  // 16x16 over 4 warps: 2 a thread, one element each (the default layout).
  expectSpec(dotBlockedLayout({16, 16}, 4, 32), {1, 1}, {2, 16}, {4, 1},
             {1, 0});
  // 2x512 over 4 warps: 8 a thread, 2x2 blocks, all threads along the row.
  expectSpec(dotBlockedLayout({2, 512}, 4, 32), {2, 2}, {1, 32}, {1, 4},
             {1, 0});
  // A block never exceeds its dimension: one row of 2048 (16 a thread).
  expectSpec(dotBlockedLayout({1, 2048}, 4, 32), {1, 4}, {1, 32}, {1, 4},
             {1, 0});
  // Batched: the batch dimension keeps one element per thread.
  expectSpec(dotBlockedLayout({2, 64, 64}, 4, 32), {1, 4, 4}, {1, 2, 16},
             {1, 4, 1}, {2, 1, 0});
}

TEST(BlockedLayoutRulesTest, ProductsAlwaysMatchTheLaunchShape) {
  for (V shape : {V{1}, V{2}, V{4096}, V{1, 1}, V{2, 2}, V{128, 8}, V{8, 128},
                  V{4, 4, 4}, V{1, 2, 1024}}) {
    for (int64_t warps : {1, 2, 4, 8}) {
      layout::BlockedSpec spec = defaultBlockedLayout(shape, warps, 32);
      EXPECT_FALSE(layout::verifyBlocked(spec, 32, warps).has_value())
          << "shape rank " << shape.size() << ", " << warps << " warps";
    }
  }
}

TEST(BlockedLayoutRulesTest, Coalesced1D) {
  // f32 from a 16-byte aligned base: 4 elements (128 bits) per thread.
  expectSpec(fitBlockedLayout({1024}, {4}, {0}, 4, 32), {4}, {32}, {4}, {0});
}

TEST(BlockedLayoutRulesTest, CoalescedColumnAndRowMajorTiles) {
  // Contiguous along dimension 0 (column-major): order [0, 1], the lanes run
  // down the columns.
  expectSpec(fitBlockedLayout({64, 64}, {4, 1}, {0, 1}, 4, 32), {4, 1},
             {16, 2}, {1, 4}, {0, 1});
  // Contiguous along dimension 1 (row-major): order [1, 0].
  expectSpec(fitBlockedLayout({64, 64}, {1, 4}, {1, 0}, 4, 32), {1, 4},
             {2, 16}, {4, 1}, {1, 0});
}

TEST(BlockedLayoutRulesTest, CoalescedSizePerThread) {
  // f32, 16-byte alignment = 4 elements: one 128-bit vector.
  EXPECT_EQ(coalescedSizePerThread(4, 1024, 32, 1024, 128), 4);
  // f16 with 16-byte alignment (8 elements): 8 x 16 bits = 128 bits.
  EXPECT_EQ(coalescedSizePerThread(8, 1024, 16, 1024, 128), 8);
  // Alignment beyond 128 bits is capped.
  EXPECT_EQ(coalescedSizePerThread(16, 1024, 32, 1024, 128), 4);
  // Unknown alignment: one element.
  EXPECT_EQ(coalescedSizePerThread(1, 1024, 32, 1024, 128), 1);
  // Short runs limit the vector.
  EXPECT_EQ(coalescedSizePerThread(4, 2, 32, 1024, 128), 2);
  // Small tensors keep every thread busy.
  EXPECT_EQ(coalescedSizePerThread(4, 128, 32, 128, 128), 1);
  EXPECT_EQ(coalescedSizePerThread(4, 256, 32, 256, 128), 2);
  // Hints may state any contiguity; the layout needs a power of two.
  EXPECT_EQ(coalescedSizePerThread(8, 3, 16, 1024, 128), 2);
}

TEST(BlockedLayoutRulesTest, PermutedLayoutKeepsEveryElementOnItsThread) {
  layout::BlockedSpec rowMajor{{1, 4}, {2, 16}, {4, 1}, {1, 0}};
  layout::BlockedSpec transposed = permuteBlockedLayout(rowMajor, {1, 0});
  expectSpec(transposed, {4, 1}, {16, 2}, {1, 4}, {0, 1});
  layout::LinearLayout source = layout::blockedToLinear(rowMajor, {32, 64});
  layout::LinearLayout result = layout::blockedToLinear(transposed, {64, 32});
  for (int64_t w = 0; w < 4; ++w)
    for (int64_t l = 0; l < 32; ++l)
      for (int64_t r = 0; r < source.elemsPerThread(); ++r) {
        std::vector<int64_t> a = source.apply(r, l, w);
        std::vector<int64_t> b = result.apply(r, l, w);
        EXPECT_EQ(a[0], b[1]);
        EXPECT_EQ(a[1], b[0]);
      }
}

TEST(BlockedLayoutRulesTest, CatHoldsTheRegistersOfBothOperands) {
  // 128 elements over 8 warps: each element on two threads (replicated);
  // the default layout of the 256-element result has one register per
  // thread, the cat layout two.
  layout::BlockedSpec source{{1}, {32}, {8}, {0}};
  layout::BlockedSpec cat = catBlockedLayout(source);
  expectSpec(cat, {2}, {32}, {8}, {0});
  EXPECT_FALSE(layout::verifyBlocked(cat, 32, 8).has_value());
  EXPECT_EQ(layout::blockedToLinear(source, {128}).elemsPerThread(), 1);
  EXPECT_EQ(layout::blockedToLinear(cat, {256}).elemsPerThread(), 2);
  // large operands: twice the registers as well
  EXPECT_EQ(layout::blockedToLinear(source, {1024}).elemsPerThread(), 4);
  EXPECT_EQ(layout::blockedToLinear(cat, {2048}).elemsPerThread(), 8);
}

TEST(BlockedLayoutRulesTest, JoinAddsAnInThreadDimension) {
  layout::BlockedSpec joined =
      joinBlockedLayout(layout::BlockedSpec{{1}, {32}, {4}, {0}});
  expectSpec(joined, {1, 2}, {32, 1}, {4, 1}, {1, 0});
  EXPECT_FALSE(layout::verifyBlocked(joined, 32, 4).has_value());
}
} // namespace
