//===- BankConflictsTest.cpp - Tests for the bank-conflict model ----------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// The wavefront count of single warp accesses (strided, broadcast, vector),
// padded tile offsets, and the scratch plan of layout conversions: the
// 64x64 f32 transpose (rows of four to columns of four), which a plain
// row-major tile serves with 16-way conflicted loads (2-way after a
// one-word pad, but with scalar stores; the plan instead XOR-swizzles
// 16-byte chunks and keeps 16-byte stores), and a conversion
// within one layout family that needs no padding; a transpose whose only
// vectors run along dim 0 gets a column-major tile.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/BankConflicts.h"
#include "tritium/Layout/BlockedLayout.h"

#include <gtest/gtest.h>

#include <utility>

using namespace tritium::layout;

namespace {

std::vector<int64_t> laneOffsets(int64_t strideBytes) {
  std::vector<int64_t> offsets;
  for (int64_t lane = 0; lane < 32; ++lane)
    offsets.push_back(lane * strideBytes);
  return offsets;
}

TEST(BankConflictsTest, ConsecutiveWordsTakeOneWavefront) {
  EXPECT_EQ(countWavefronts(laneOffsets(4), 4), 1);
  EXPECT_EQ(idealWavefronts(laneOffsets(4), 4), 1);
}

TEST(BankConflictsTest, StridedWordsConflict) {
  // A stride of 2 words: two lanes per bank; 32 words: all lanes in bank 0.
  EXPECT_EQ(countWavefronts(laneOffsets(8), 4), 2);
  EXPECT_EQ(countWavefronts(laneOffsets(128), 4), 32);
  // A stride of 33 words (a row of 32 plus one of padding): no conflict.
  EXPECT_EQ(countWavefronts(laneOffsets(132), 4), 1);
}

TEST(BankConflictsTest, SameWordIsBroadcast) {
  EXPECT_EQ(countWavefronts(std::vector<int64_t>(32, 64), 4), 1);
  // Bytes and halves of one word are one access.
  EXPECT_EQ(countWavefronts(laneOffsets(1), 1), 1);
  EXPECT_EQ(countWavefronts(laneOffsets(2), 2), 1);
}

TEST(BankConflictsTest, VectorsAreServedPerLaneGroup) {
  // 16 bytes per lane: four quarter-warps of 128 bytes each.
  EXPECT_EQ(countWavefronts(laneOffsets(16), 16), 4);
  EXPECT_EQ(idealWavefronts(laneOffsets(16), 16), 4);
  // 8 bytes per lane, two half-warps.
  EXPECT_EQ(countWavefronts(laneOffsets(8), 8), 2);
  // Quarter-warps whose 16-byte chunks are 256 bytes apart: lanes 0 and 4 of
  // a group share banks, two wavefronts per group.
  EXPECT_EQ(countWavefronts(laneOffsets(32), 16), 8);
}

TEST(BankConflictsTest, InactiveLanesAreSkipped) {
  std::vector<int64_t> offsets = laneOffsets(128);
  for (int64_t lane = 1; lane < 32; ++lane)
    offsets[lane] = -1;
  EXPECT_EQ(countWavefronts(offsets, 4), 1);
  EXPECT_EQ(idealWavefronts(std::vector<int64_t>(32, -1), 4), 0);
}

TEST(BankConflictsTest, PaddedTileOffsets) {
  PaddedTile tile{{4, 2, 8}, 3};
  EXPECT_EQ(tile.strides(), (std::vector<int64_t>{22, 11, 1}));
  EXPECT_EQ(tile.offset({1, 1, 5}), 22 + 11 + 5);
  EXPECT_EQ(tile.numElements(), 88);
  EXPECT_EQ((PaddedTile{{64, 64}, 0}).numElements(), 4096);
}

// The transpose: a 64x64 f32 tile loaded in rows of four (coalesced along
// dim 1) and stored in columns of four (coalesced along dim 0), 4 warps.
const BlockedSpec kRows{{1, 4}, {2, 16}, {4, 1}, {1, 0}};
const BlockedSpec kCols{{4, 1}, {16, 2}, {1, 4}, {0, 1}};

TEST(BankConflictsTest, TransposeRowMajorTileConflicts) {
  LinearLayout rows = blockedToLinear(kRows, {64, 64});
  LinearLayout cols = blockedToLinear(kCols, {64, 64});
  PaddedTile plain{{64, 64}, 0};
  // Stores: 16-byte vectors, eight per thread, conflict-free.
  AccessCost store = modelTileAccess(rows, plain, 4, 4);
  EXPECT_EQ(store.instructions, 8);
  EXPECT_EQ(store.wavefronts, 32);
  EXPECT_EQ(store.ideal, 32);
  // Loads: 16 lanes read down one column of 64-word rows, all in one bank.
  AccessCost load = modelTileAccess(cols, plain, 4, 1);
  EXPECT_EQ(load.instructions, 32);
  EXPECT_EQ(load.wavefronts, 16 * 32);
  EXPECT_EQ(load.ideal, 32);
  // The classic pad of the wider vector (4 words) keeps 16-byte stores but
  // still leaves the loads 8-way conflicted: rows 4 apart shift by 16 banks.
  AccessCost padded = modelTileAccess(cols, PaddedTile{{64, 64}, 4}, 4, 1);
  EXPECT_EQ(padded.wavefronts, 8 * 32);
}

TEST(BankConflictsTest, TransposeBestPaddingIsOneWord) {
  LinearLayout rows = blockedToLinear(kRows, {64, 64});
  LinearLayout cols = blockedToLinear(kCols, {64, 64});
  // The best padded tile: a one-word pad with scalar accesses in both
  // phases, 64 + 64 wavefronts against 32 + 512 for the plain tile (and
  // 32 + 256 for a 4-word pad with 16-byte stores).  Both phases are
  // 2-way: a scalar store of a row of four-element runs touches every
  // fourth word of 64, and a load reads 16 rows 4 apart, whose starts fall
  // in only 8 bank groups for any row stride.  No pad does better.
  ScratchTile padded{{64, 64}, 1, {}};
  EXPECT_EQ(modelTileAccess(rows, padded, 4, 1).wavefronts, 2 * 32);
  EXPECT_EQ(modelTileAccess(cols, padded, 4, 1).wavefronts, 2 * 32);
  EXPECT_EQ(padded.numElements(), 64 * 65);
  for (int64_t pad = 0; pad <= 32; ++pad)
    EXPECT_GE(modelTileAccess(cols, PaddedTile{{64, 64}, pad}, 4, 1).wavefronts,
              2 * 32);
}

TEST(BankConflictsTest, TransposePlanSwizzles) {
  LinearLayout rows = blockedToLinear(kRows, {64, 64});
  LinearLayout cols = blockedToLinear(kCols, {64, 64});
  ConvertScratchPlan plan = planConvertScratch(rows, cols, 4);
  // 16-byte chunks XORed with (row / 4) % 8: a load's 16 rows, 4 apart,
  // take 8 distinct phases (the most a 32-bank row has chunk slots for), so
  // loads stay 2-way, but stores keep their conflict-free 16-byte vectors:
  // 32 + 64 = 96 wavefronts against the best padding's 128, and 8 + 32
  // instructions against 32 + 32, in the unpadded 64 x 64 tile.
  ASSERT_TRUE(plan.tile.isSwizzled());
  EXPECT_EQ(plan.tile.pad, 0);
  EXPECT_EQ(plan.tile.swizzle.chunk, 4);
  EXPECT_EQ(plan.tile.swizzle.perPhase, 4);
  EXPECT_EQ(plan.tile.swizzle.maxPhase, 8);
  EXPECT_EQ(plan.storeVec, 4);
  EXPECT_EQ(plan.loadVec, 1);
  EXPECT_EQ(plan.store.instructions, 8);
  EXPECT_EQ(plan.store.wavefronts, 32);
  EXPECT_EQ(plan.store.wavefronts, plan.store.ideal);
  EXPECT_EQ(plan.load.instructions, 32);
  EXPECT_EQ(plan.load.wavefronts, 2 * 32);
  EXPECT_LT(plan.store.wavefronts + plan.load.wavefronts, 128);
  EXPECT_EQ(plan.tile.numElements(), 64 * 64);
}

TEST(BankConflictsTest, SwizzledTileOffsets) {
  // chunk 4, perPhase 4, maxPhase 8 on 64-element rows: rows 0-3 are
  // plain, rows 4-7 swap neighbouring chunks, and a chunk stays whole.
  ScratchTile tile{{64, 64}, 0, {4, 4, 8}};
  EXPECT_EQ(tile.offset({0, 5}), 5);
  EXPECT_EQ(tile.offset({3, 5}), 3 * 64 + 5);
  EXPECT_EQ(tile.offset({4, 5}), 4 * 64 + 1);
  EXPECT_EQ(tile.offset({4, 2}), 4 * 64 + 6);
  EXPECT_EQ(tile.offset({31, 0}), 31 * 64 + 7 * 4);
  EXPECT_EQ(tile.offset({32, 9}), 32 * 64 + 9);
  EXPECT_TRUE(tile.keepsVectorsWhole(4));
  EXPECT_FALSE(tile.keepsVectorsWhole(8));
  EXPECT_EQ(tile.numElements(), 4096);
}

TEST(BankConflictsTest, XorLinearBitOffsets) {
  // Swizzled (chunk 4, perPhase 4, maxPhase 8): column bits are 1..32, row
  // bits 64..2048 plus the chunk XOR their phase adds (rows 4, 8, 16 ->
  // chunks 1, 2, 4, i.e. columns 4, 8, 16; rows 1, 2, 32 -> none).
  ScratchTile swizzled{{64, 64}, 0, {4, 4, 8}};
  auto bits = swizzled.xorLinearBitOffsets();
  ASSERT_TRUE(bits.has_value());
  EXPECT_EQ(*bits, (std::vector<int64_t>{64, 128, 256 ^ 4, 512 ^ 8, 1024 ^ 16,
                                         2048, 1, 2, 4, 8, 16, 32}));
  // Row-major without pad: plain strides.
  ScratchTile plain{{4, 8, 16}, 0, {}};
  EXPECT_EQ(*plain.xorLinearBitOffsets(),
            (std::vector<int64_t>{128, 256, 16, 32, 64, 1, 2, 4, 8}));
  // A pad breaks linearity (row * 65 is not a XOR of bits); so does a
  // shape that is not a power of two.
  EXPECT_FALSE((ScratchTile{{64, 64}, 1, {}}.xorLinearBitOffsets()));
  EXPECT_FALSE((ScratchTile{{6, 64}, 0, {}}.xorLinearBitOffsets()));
}

TEST(BankConflictsTest, ReverseTransposePlan) {
  LinearLayout rows = blockedToLinear(kRows, {64, 64});
  LinearLayout cols = blockedToLinear(kCols, {64, 64});
  ConvertScratchPlan plan = planConvertScratch(cols, rows, 4);
  EXPECT_TRUE(plan.tile.isSwizzled());
  EXPECT_EQ(plan.loadVec, 4);
  EXPECT_EQ(plan.store.wavefronts + plan.load.wavefronts, 3 * 32);
}

TEST(BankConflictsTest, SameFamilyNeedsNoPadding) {
  // Rows of four, warps stacked along dim 0 vs. spread over both dims:
  // elements move between threads, but a row-major tile already serves
  // both phases with 16-byte vectors and no conflict.
  const BlockedSpec other{{1, 4}, {2, 16}, {2, 2}, {1, 0}};
  LinearLayout src = blockedToLinear(kRows, {64, 64});
  LinearLayout dst = blockedToLinear(other, {64, 64});
  ConvertScratchPlan plan = planConvertScratch(src, dst, 4);
  EXPECT_FALSE(plan.tile.isSwizzled());
  EXPECT_EQ(plan.tile.pad, 0);
  EXPECT_EQ(plan.tile.numElements(), 64 * 64);
  EXPECT_EQ(plan.storeVec, 4);
  EXPECT_EQ(plan.loadVec, 4);
  EXPECT_EQ(plan.store.wavefronts, plan.store.ideal);
  EXPECT_EQ(plan.load.wavefronts, plan.load.ideal);
}

TEST(BankConflictsTest, VectorWidthsFollowTheLayout) {
  EXPECT_EQ(maxVectorWidth(blockedToLinear(kRows, {64, 64}), 4), 4);
  EXPECT_EQ(maxVectorWidth(blockedToLinear(kRows, {64, 64}), 8), 2);
  EXPECT_EQ(maxVectorWidth(blockedToLinear(kCols, {64, 64}), 4), 1);
}

/// Inductor's 2-D pointwise transpose of a [64, 16] f32 tile (4 warps):
/// loaded one element a thread along dim 1 (first), stored four consecutive
/// elements a thread along dim 0 (second).
std::pair<LinearLayout, LinearLayout> pointwiseTranspose64x16() {
  const BlockedSpec loaded{{1, 1}, {2, 16}, {4, 1}, {1, 0}};
  const BlockedSpec stored{{4, 1}, {16, 2}, {1, 4}, {0, 1}};
  return {blockedToLinear(loaded, {64, 16}), blockedToLinear(stored, {64, 16})};
}

TEST(BankConflictsTest, ColumnMajorTileForVectorsAlongDimZero) {
  // The pointwise transpose: a row-major tile leaves both phases scalar
  // (16 accesses a thread); with dim 0 contiguous the loads read 16-byte
  // vectors (8 + 2).
  auto [src, dst] = pointwiseTranspose64x16();
  ConvertScratchPlan plan = planConvertScratch(src, dst, 4);
  EXPECT_EQ(plan.order, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(plan.tile.shape, (std::vector<int64_t>{16, 64}));
  EXPECT_EQ(plan.storeVec, 1);
  EXPECT_EQ(plan.loadVec, 4);
  EXPECT_EQ(plan.store.instructions + plan.load.instructions, 8 + 2);
  // scalar stores 2-way in a swizzled tile, loads conflict-free: 24
  // wavefronts, no more than the best row-major tile takes with 16 accesses
  EXPECT_EQ(plan.store.wavefronts, 16);
  EXPECT_EQ(plan.load.wavefronts, 8);
  EXPECT_EQ(plan.load.wavefronts, plan.load.ideal);
  // The layouts address that tile through their dimensions permuted.
  LinearLayout permuted = dst.permuteOutDims(plan.order);
  EXPECT_EQ(permuted.shape(), (std::vector<int64_t>{16, 64}));
  for (int64_t reg = 0; reg < dst.elemsPerThread(); ++reg)
    for (int64_t lane = 0; lane < 32; lane += 5) {
      std::vector<int64_t> coord = dst.apply(reg, lane, 3);
      EXPECT_EQ(permuted.apply(reg, lane, 3), (std::vector<int64_t>{coord[1], coord[0]}));
    }
}

TEST(BankConflictsTest, PlanContiguousAlongAGivenDimension) {
  // The same transpose with the tile held contiguous along each dimension:
  // along dim 0 it is the plan above (the best overall); along dim 1, the
  // tensor's own order, it is the best row-major tile, whose loads stay
  // scalar.
  auto [src, dst] = pointwiseTranspose64x16();
  ConvertScratchPlan best = planConvertScratch(src, dst, 4);
  ConvertScratchPlan alongRows = planConvertScratchContiguousAlong(src, dst, 4, 0);
  EXPECT_EQ(alongRows.order, best.order);
  EXPECT_EQ(alongRows.tile.shape, best.tile.shape);
  EXPECT_EQ(alongRows.loadVec, best.loadVec);
  ConvertScratchPlan alongColumns = planConvertScratchContiguousAlong(src, dst, 4, 1);
  EXPECT_TRUE(alongColumns.order.empty());
  EXPECT_EQ(alongColumns.tile.shape, (std::vector<int64_t>{64, 16}));
  EXPECT_EQ(alongColumns.loadVec, 1);
  EXPECT_GT(alongColumns.store.instructions + alongColumns.load.instructions,
            best.store.instructions + best.load.instructions);
}

} // namespace
