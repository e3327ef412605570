//===- WarpShufflePlanTest.cpp - Tests for conversions inside warps -------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// planWarpShuffle on blocked layouts: lane permutations (one shuffle per
// register, the source register unchanged), a broadcast to every lane (a
// constant source lane per register), and the cases that must go through
// shared memory (an element changes warps; a destination lane basis is a
// source register basis, so the source register would differ per lane).
// Every plan is checked element by element against both layouts.
// planWarpTransfer (register bits traded for lane bits, with selects before
// and after each shuffle) is checked the same way on those cases and on
// every pair of small blocked layouts of one warp.  planWordConversion
// (elements that share a thread in both layouts moved as one word) is
// checked by composing the word plan with the word packing, element by
// element, on wgmma's fp8 accumulator becoming its register A operand.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/WarpShufflePlan.h"
#include "tritium/Layout/BlockedLayout.h"
#include "tritium/Layout/MmaLayout.h"

#include <gtest/gtest.h>

using namespace tritium::layout;

namespace {

/// Destination register r of lane l in warp w holds what the plan reads:
/// source register srcRegister[r] of lane srcLane(r, l) in the same warp.
void expectPlanMovesEveryElement(const LinearLayout &src,
                                 const LinearLayout &dst,
                                 const WarpShufflePlan &plan) {
  ASSERT_EQ(static_cast<int64_t>(plan.srcRegister.size()),
            dst.elemsPerThread());
  for (int64_t w = 0; w < dst.inDimSize(HwDim::Warp); ++w)
    for (int64_t l = 0; l < dst.inDimSize(HwDim::Lane); ++l)
      for (int64_t r = 0; r < dst.elemsPerThread(); ++r) {
        int64_t lane = plan.srcLane(r, l);
        ASSERT_GE(lane, 0);
        ASSERT_LT(lane, src.inDimSize(HwDim::Lane));
        EXPECT_EQ(dst.apply(r, l, w), src.apply(plan.srcRegister[r], lane, w))
            << "register " << r << " lane " << l << " warp " << w;
      }
}

TEST(WarpShufflePlan, LaneTransposeIsOneShufflePerRegister) {
  // 16x8, one element per thread: lanes run along dim 1 first in `src`,
  // along dim 0 first in `dst`; the warps own the same four-row bands.
  BlockedSpec rowMajor{{1, 1}, {4, 8}, {4, 1}, {1, 0}};
  BlockedSpec colMajor{{1, 1}, {4, 8}, {4, 1}, {0, 1}};
  LinearLayout src = blockedToLinear(rowMajor, {16, 8});
  LinearLayout dst = blockedToLinear(colMajor, {16, 8});
  std::optional<WarpShufflePlan> plan = planWarpShuffle(src, dst);
  ASSERT_TRUE(plan);
  expectPlanMovesEveryElement(src, dst, *plan);
  EXPECT_FALSE(plan->isIdentityLaneMap());
  EXPECT_EQ(plan->srcRegister, (std::vector<int64_t>{0}));
  EXPECT_EQ(plan->laneXor, (std::vector<int64_t>{0}));
  // dst lane bits (row 1, row 2, col 1, col 2, col 4) are src lane bits
  // 3, 4, 0, 1, 2.
  EXPECT_EQ(plan->laneMap, (std::vector<int64_t>{8, 16, 1, 2, 4}));
  EXPECT_EQ(plan->numShuffles(dst), 1);
}

TEST(WarpShufflePlan, RepeatedTilesKeepTheirRegisters) {
  // 64x8: the 16x8 tile repeats four times down the rows, so each thread
  // has four registers, each shuffled from the same register of the source.
  BlockedSpec rowMajor{{1, 1}, {4, 8}, {4, 1}, {1, 0}};
  BlockedSpec colMajor{{1, 1}, {4, 8}, {4, 1}, {0, 1}};
  LinearLayout src = blockedToLinear(rowMajor, {64, 8});
  LinearLayout dst = blockedToLinear(colMajor, {64, 8});
  std::optional<WarpShufflePlan> plan = planWarpShuffle(src, dst);
  ASSERT_TRUE(plan);
  expectPlanMovesEveryElement(src, dst, *plan);
  EXPECT_EQ(plan->srcRegister, (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(plan->numShuffles(dst), 4);
}

TEST(WarpShufflePlan, BroadcastToEveryLaneUsesConstantLanes) {
  // 32 elements, one per lane in `src`; every lane holds all 32 in `dst`:
  // register r of every lane comes from lane r.  The four warps hold the
  // same elements in both layouts.
  LinearLayout src = blockedToLinear({{1}, {32}, {4}, {0}}, {32});
  LinearLayout dst = blockedToLinear({{32}, {32}, {4}, {0}}, {32});
  std::optional<WarpShufflePlan> plan = planWarpShuffle(src, dst);
  ASSERT_TRUE(plan);
  expectPlanMovesEveryElement(src, dst, *plan);
  for (int64_t r = 0; r < 32; ++r) {
    EXPECT_EQ(plan->srcRegister[r], 0);
    EXPECT_EQ(plan->laneXor[r], r);
  }
  EXPECT_EQ(plan->laneMap, (std::vector<int64_t>{0, 0, 0, 0, 0}));
  EXPECT_EQ(plan->numShuffles(dst), 32);
}

TEST(WarpShufflePlan, IdenticalLayoutsNeedNoShuffle) {
  LinearLayout layout =
      blockedToLinear({{2, 2}, {4, 8}, {2, 2}, {1, 0}}, {32, 32});
  std::optional<WarpShufflePlan> plan = planWarpShuffle(layout, layout);
  ASSERT_TRUE(plan);
  expectPlanMovesEveryElement(layout, layout, *plan);
  EXPECT_TRUE(plan->isIdentityLaneMap());
  EXPECT_EQ(plan->numShuffles(layout), 0);
}

TEST(WarpShufflePlan, ElementsChangingWarpsHaveNoPlan) {
  // Rows of four to columns of four: the warps own row bands in `src` and
  // column bands in `dst`.
  LinearLayout src =
      blockedToLinear({{1, 4}, {8, 4}, {4, 1}, {1, 0}}, {32, 16});
  LinearLayout dst =
      blockedToLinear({{4, 1}, {4, 8}, {1, 4}, {0, 1}}, {32, 16});
  EXPECT_FALSE(planWarpShuffle(src, dst));
}

TEST(WarpShufflePlan, LaneBasisFromASourceRegisterHasNoPlan) {
  // Same warp bands, but column 1 is a register bit of `src` and a lane bit
  // of `dst`: even lanes would read register 0 and odd lanes register 1
  // for one destination register.
  LinearLayout src = blockedToLinear({{1, 2}, {8, 4}, {4, 1}, {1, 0}}, {32, 8});
  LinearLayout dst = blockedToLinear({{2, 1}, {4, 8}, {4, 1}, {0, 1}}, {32, 8});
  ASSERT_EQ(src.bases(HwDim::Warp), dst.bases(HwDim::Warp));
  EXPECT_FALSE(planWarpShuffle(src, dst));
}

} // namespace

namespace {

/// Every shuffle of `plan` delivers, to every lane of every warp, the
/// element the destination register it is kept in should hold, and each
/// lane keeps exactly one value per register.
void expectTransferMovesEveryElement(const LinearLayout &src,
                                     const LinearLayout &dst,
                                     const WarpTransferPlan &plan) {
  ASSERT_EQ(plan.numShuffles(), dst.elemsPerThread());
  for (int64_t w = 0; w < dst.inDimSize(HwDim::Warp); ++w)
    for (int64_t l = 0; l < dst.inDimSize(HwDim::Lane); ++l) {
      std::vector<bool> kept(dst.elemsPerThread(), false);
      for (int64_t k = 0; k < plan.numShuffles(); ++k) {
        int64_t from = plan.srcLane(k, l);
        int64_t reg = plan.dstRegister(k, l);
        ASSERT_GE(from, 0);
        ASSERT_LT(from, src.inDimSize(HwDim::Lane));
        ASSERT_LT(reg, dst.elemsPerThread());
        EXPECT_FALSE(kept[reg]) << "lane " << l << " keeps register " << reg << " twice";
        EXPECT_EQ(plan.keptShuffle(reg, l), k);
        kept[reg] = true;
        EXPECT_EQ(dst.apply(reg, l, w), src.apply(plan.sentRegister(k, from), from, w))
            << "shuffle " << k << " lane " << l << " warp " << w;
      }
    }
}

} // namespace

TEST(WarpTransferPlan, EightElementsAThreadBecomeFourInOneWarp) {
  // 4096 fp32 on one warp, 8 consecutive a thread -> 4 (a row of a
  // normalization's backward stored 16 bytes a thread): register bit 2
  // (element 4) becomes lane bit 0, lane bit 4 (element 128) a register
  // bit.  One select before each shuffle and one after.
  LinearLayout src = blockedToLinear({{8}, {32}, {1}, {0}}, {4096});
  LinearLayout dst = blockedToLinear({{4}, {32}, {1}, {0}}, {4096});
  EXPECT_FALSE(planWarpShuffle(src, dst));
  std::optional<WarpTransferPlan> plan = planWarpTransfer(src, dst);
  ASSERT_TRUE(plan);
  expectTransferMovesEveryElement(src, dst, *plan);
  EXPECT_EQ(plan->sendChoices(), 2);
  EXPECT_EQ(plan->keepChoices(), 2);
  EXPECT_EQ(plan->numTradedBits, 1);
  // and back
  std::optional<WarpTransferPlan> back = planWarpTransfer(dst, src);
  ASSERT_TRUE(back);
  expectTransferMovesEveryElement(dst, src, *back);
}

TEST(WarpTransferPlan, EachWarpConvertsItsOwnRows) {
  // Four warps, each converting its own rows: 2 -> 8 elements a thread of
  // a 64x64 tile whose warps split the rows the same way in both layouts.
  LinearLayout src = blockedToLinear({{1, 2}, {4, 8}, {4, 1}, {1, 0}}, {64, 64});
  LinearLayout dst = blockedToLinear({{1, 8}, {4, 8}, {4, 1}, {1, 0}}, {64, 64});
  std::optional<WarpTransferPlan> plan = planWarpTransfer(src, dst);
  ASSERT_TRUE(plan);
  expectTransferMovesEveryElement(src, dst, *plan);
  // The same 8 -> 4 over 4096 elements on two warps moves elements
  // between the warps: no plan.
  EXPECT_FALSE(planWarpTransfer(blockedToLinear({{8}, {32}, {2}, {0}}, {4096}),
                                blockedToLinear({{4}, {32}, {2}, {0}}, {4096})));
}

TEST(WarpTransferPlan, APureLanePermutationNeedsNoSelects) {
  BlockedSpec rowMajor{{1, 1}, {4, 8}, {4, 1}, {1, 0}};
  BlockedSpec colMajor{{1, 1}, {4, 8}, {4, 1}, {0, 1}};
  LinearLayout src = blockedToLinear(rowMajor, {64, 8});
  LinearLayout dst = blockedToLinear(colMajor, {64, 8});
  std::optional<WarpTransferPlan> plan = planWarpTransfer(src, dst);
  ASSERT_TRUE(plan);
  expectTransferMovesEveryElement(src, dst, *plan);
  EXPECT_EQ(plan->sendChoices(), 1);
  EXPECT_EQ(plan->keepChoices(), 1);
  EXPECT_EQ(plan->numTradedBits, 0);
}

TEST(WarpTransferPlan, CountsTheRegisterBitsTradedForLaneBits) {
  // 256 elements on one warp, 1 -> 8 consecutive a thread: the three
  // register bits of the destination (elements 1, 2, 4) are lane bits of
  // the source.
  LinearLayout src = blockedToLinear({{1}, {32}, {1}, {0}}, {256});
  LinearLayout dst = blockedToLinear({{8}, {32}, {1}, {0}}, {256});
  std::optional<WarpTransferPlan> plan = planWarpTransfer(src, dst);
  ASSERT_TRUE(plan);
  expectTransferMovesEveryElement(src, dst, *plan);
  EXPECT_EQ(plan->numTradedBits, 3);
}

TEST(WarpTransferPlan, EveryPairOfSmallBlockedLayoutsInOneWarp) {
  // All 1-D blocked layouts of 256 elements on one warp (1-8 a thread,
  // 4-32 lanes) and all 2-D 16x16 ones with 32 lanes: each pair either has
  // a plan that moves every element or is refused (different bit counts).
  std::vector<LinearLayout> layouts;
  for (int64_t spt : {1, 2, 4, 8})
    layouts.push_back(blockedToLinear({{spt}, {32}, {1}, {0}}, {256}));
  for (int64_t s0 : {1, 2, 4})
    for (int64_t s1 : {1, 2, 4})
      for (int64_t t0 : {1, 2, 4, 8, 16, 32})
        for (auto order : {std::vector<int64_t>{1, 0}, std::vector<int64_t>{0, 1}}) {
          int64_t t1 = 32 / t0;
          layouts.push_back(blockedToLinear(BlockedSpec{{s0, s1}, {t0, t1}, {1, 1}, order}, {16, 16}));
        }
  int planned = 0;
  for (const LinearLayout &a : layouts)
    for (const LinearLayout &b : layouts) {
      if (a.shape() != b.shape())
        continue;
      std::optional<WarpTransferPlan> plan = planWarpTransfer(a, b);
      if (!plan)
        continue;
      ++planned;
      expectTransferMovesEveryElement(a, b, *plan);
    }
  EXPECT_GT(planned, 100);
}

namespace {

/// Every element of `dst` is reached through the word plan: destination
/// register r of lane l holds, as element e of word w (r =
/// originalRegister(w, e, dstBits)), element e of the source word the word
/// layouts' conversion reads, that is source register originalRegister(w',
/// e, srcBits) of the lane it reads from.
void expectWordsMoveEveryElement(const LinearLayout &src,
                                 const LinearLayout &dst,
                                 const WordConversion &words) {
  std::optional<WarpTransferPlan> plan =
      planWarpTransfer(words.src, words.dst);
  ASSERT_TRUE(plan);
  expectTransferMovesEveryElement(words.src, words.dst, *plan);
  for (int64_t w = 0; w < dst.inDimSize(HwDim::Warp); ++w)
    for (int64_t l = 0; l < dst.inDimSize(HwDim::Lane); ++l)
      for (int64_t k = 0; k < plan->numShuffles(); ++k) {
        int64_t from = plan->srcLane(k, l);
        int64_t sent = plan->sentRegister(k, from);
        int64_t kept = plan->dstRegister(k, l);
        for (int64_t e = 0; e < words.elementsPerWord(); ++e)
          EXPECT_EQ(dst.apply(WordConversion::originalRegister(kept, e, words.dstBits), l, w),
                    src.apply(WordConversion::originalRegister(sent, e, words.srcBits), from, w))
              << "shuffle " << k << " lane " << l << " element " << e;
      }
}

} // namespace

TEST(WordConversion, OriginalRegisterInsertsTheChosenBits) {
  // Chosen bits 0 and 2: word 0b11 element 0b10 is register 0b1110 ->
  // word bits go to register bits 1 and 3, element bit 1 to bit 2.
  EXPECT_EQ(WordConversion::originalRegister(0b11, 0b10, {0, 2}), 0b1110);
  EXPECT_EQ(WordConversion::originalRegister(0b11, 0b01, {0, 2}), 0b1011);
  EXPECT_EQ(WordConversion::originalRegister(0b01, 0b01, {2, 0}), 0b0110);
}

TEST(WordConversion, Fp8AccumulatorToRegisterOperandMovesFourElementsAWord) {
  // wgmma's accumulator (8 warps along M, 16 x 128 per instruction) of
  // 128 x 128 fp8 probabilities, to the register A operand of the next
  // wgmma (kWidth 4): columns 2t, 2t + 1 of each 8 become 4t .. 4t + 3 of
  // each 16.  Column bit 0 and row bit 3 stay register bits in both: four
  // elements a word, 16 words a thread where there were 64 elements.
  MmaSpec mma{3, 0, {8, 1}, {16, 128, 32}};
  LinearLayout src = mmaToLinear(mma, {128, 128});
  LinearLayout dst = dotOperandToLinear(mma, 0, 4, {128, 128});
  ASSERT_EQ(src.elemsPerThread(), 64);
  ASSERT_EQ(dst.elemsPerThread(), 64);
  std::optional<WordConversion> words = planWordConversion(src, dst, 2);
  ASSERT_TRUE(words);
  EXPECT_EQ(words->elementsPerWord(), 4);
  EXPECT_EQ(words->src.elemsPerThread(), 16);
  EXPECT_EQ(words->dst.elemsPerThread(), 16);
  expectWordsMoveEveryElement(src, dst, *words);
  // At most one bit for 16-bit elements: two a word.
  std::optional<WordConversion> halves = planWordConversion(src, dst, 1);
  ASSERT_TRUE(halves);
  EXPECT_EQ(halves->elementsPerWord(), 2);
  expectWordsMoveEveryElement(src, dst, *halves);
}

TEST(WordConversion, NoRegisterBitSharedMeansNoWords) {
  // A lane permutation with one element a thread has no register bit.
  BlockedSpec rowMajor{{1, 1}, {4, 8}, {4, 1}, {1, 0}};
  BlockedSpec colMajor{{1, 1}, {4, 8}, {4, 1}, {0, 1}};
  EXPECT_FALSE(planWordConversion(blockedToLinear(rowMajor, {16, 8}),
                                  blockedToLinear(colMajor, {16, 8}), 2));
}
