//===- OccupancyTest.cpp - blocks per SM and the step to one more ---------===//
#include "tritium/Target/NVIDIA/Occupancy.h"

#include <gtest/gtest.h>

using namespace tritium::nvidia;

namespace {
SMLimits hopper() { return *smLimits(90); }
} // namespace

TEST(Occupancy, RegistersLimitBlocksOfEightWarps) {
  // 130 registers: 136 a thread allocated, 4352 a warp, 15 warps -> 1 block
  // of 8 warps; 128: 16 warps -> 2 (the attention backward's 8-warp tiles).
  EXPECT_EQ(blocksPerSM(hopper(), 130, 256, 58144), 1);
  EXPECT_EQ(blocksPerSM(hopper(), 128, 256, 58144), 2);
  EXPECT_EQ(blocksPerSM(hopper(), 64, 256, 0), 4);
}

TEST(Occupancy, SharedMemoryAndSlotsLimitToo) {
  // 3 blocks of 58 KB (plus 1 KB each) fit in 228 KB; 4 do not.
  EXPECT_EQ(blocksPerSM(hopper(), 32, 256, 58144), 3);
  // 32 warps of 1 thread each would be 32 blocks: the block slots.
  EXPECT_EQ(blocksPerSM(hopper(), 16, 32, 0), 32);
  // 64 warps at most: blocks of 1024 threads, 2.
  EXPECT_EQ(blocksPerSM(hopper(), 32, 1024, 0), 2);
  EXPECT_EQ(blocksPerSM(hopper(), 32, 256, 240 * 1024), 0);
}

TEST(Occupancy, OneMoreBlockWhenRegistersAreJustAboveAStep) {
  EXPECT_EQ(oneMoreBlockPerSM(hopper(), 130, 256, 58144), 2);
  EXPECT_EQ(oneMoreBlockPerSM(hopper(), 134, 256, 58144), 2);
  // 4 warps of 170 registers: 2 blocks; 3 need 168.
  EXPECT_EQ(oneMoreBlockPerSM(hopper(), 170, 128, 0), 3);
}

TEST(Occupancy, ThreeEighthsWindowBelowSixteenWarps) {
  // 8 warps of 182 registers: one block; two need 128, 0.70 of 182 (the
  // causal attention forward at head dim 64, (128, 128, 3 stages)).
  EXPECT_EQ(oneMoreBlockPerSM(hopper(), 182, 256, 0), 2);
  EXPECT_EQ(oneMoreBlockPerSM(hopper(), 204, 256, 0), 2);
  EXPECT_EQ(oneMoreBlockPerSM(hopper(), 208, 256, 0), std::nullopt);
  // From two blocks too: 4 warps of 212 registers run 2 blocks, 3 need
  // 168 (0.79 of 212).
  EXPECT_EQ(blocksPerSM(hopper(), 212, 128, 0), 2);
  EXPECT_EQ(oneMoreBlockPerSM(hopper(), 212, 128, 0), 3);
  EXPECT_EQ(oneMoreBlockPerSM(hopper(), 192, 128, 0), 3);
  // And from three: 4 warps of 168 registers run 3 blocks, 12 warps; 4
  // need 128, 0.76 of 168 (Mamba-2's chunk-state backward at 32x64).
  EXPECT_EQ(blocksPerSM(hopper(), 168, 128, 0), 3);
  EXPECT_EQ(oneMoreBlockPerSM(hopper(), 168, 128, 0), 4);
  // 2 warps of 248 registers: 4 blocks, 8 warps; 5 need 200 (0.81).
  EXPECT_EQ(oneMoreBlockPerSM(hopper(), 248, 64, 0), 5);
}

TEST(Occupancy, NoRetryFarFromAStepOrLimitedElsewhere) {
  // At a step already: 3 blocks would need 80 registers.
  EXPECT_EQ(oneMoreBlockPerSM(hopper(), 128, 256, 58144), std::nullopt);
  // Two blocks of 8 warps need 128: far below 210 (under 5/8 of it).
  EXPECT_EQ(oneMoreBlockPerSM(hopper(), 210, 256, 0), std::nullopt);
  // Shared memory holds one block of 120 KB whatever the registers (two of
  // 112 KB fit in 228 KB with their reserves).
  EXPECT_EQ(oneMoreBlockPerSM(hopper(), 130, 256, 120 * 1024), std::nullopt);
  EXPECT_EQ(oneMoreBlockPerSM(hopper(), 130, 256, 112 * 1024), 2);
  // 4 warps of 82 registers: 5 blocks, 20 warps, enough to hide latency;
  // 6 blocks would need 80 registers, but the step is not asked for.
  EXPECT_EQ(blocksPerSM(hopper(), 82, 128, 32768), 5);
  EXPECT_EQ(blocksPerSM(hopper(), 80, 128, 32768), 6);
  EXPECT_EQ(oneMoreBlockPerSM(hopper(), 82, 128, 32768), std::nullopt);
  // 4 warps of 140 registers: 3 blocks, 12 warps; 4 need 128.
  EXPECT_EQ(oneMoreBlockPerSM(hopper(), 140, 128, 32768), 4);
  // Warp slots: 2 blocks of 1024 threads at most.
  EXPECT_EQ(oneMoreBlockPerSM(hopper(), 32, 1024, 0), std::nullopt);
}

TEST(Occupancy, KnownTargetsOnly) {
  EXPECT_TRUE(smLimits(80).has_value());
  EXPECT_EQ(smLimits(86)->warps, 48);
  EXPECT_FALSE(smLimits(75).has_value());
}

TEST(Occupancy, RegistersForABlockCount) {
  EXPECT_EQ(registersForBlocks(hopper(), 256, 2), 128);
  EXPECT_EQ(registersForBlocks(hopper(), 128, 4), 128);
  EXPECT_EQ(registersForBlocks(hopper(), 128, 3), 168);
  EXPECT_EQ(registersForBlocks(hopper(), 256, 1), 255);
  EXPECT_EQ(registersForBlocks(hopper(), 384, 1), 168);
  // Each is the most with which that many blocks fit.
  for (int threads : {128, 256, 384})
    for (int blocks : {1, 2, 3}) {
      int most = registersForBlocks(hopper(), threads, blocks);
      EXPECT_GE(blocksPerSM(hopper(), most, threads, 0), blocks);
      if (most < 255)
        EXPECT_LT(blocksPerSM(hopper(), most + 8, threads, 0), blocks);
    }
}

TEST(Occupancy, AStepIsForeseenFromTheLiveWords) {
  // 8 warps: two blocks allow 128 registers, foreseen from 180 to 249 words
  // (the one-loop attention forward at head dim 64 holds 237) where shared
  // memory holds two blocks (113 KB each at most).
  EXPECT_EQ(foreseenStep(hopper(), 237, 256, 58144), 2);
  EXPECT_EQ(foreseenStep(hopper(), 180, 256, 112 * 1024), 2);
  EXPECT_EQ(foreseenStep(hopper(), 249, 256, 0), 2);
  EXPECT_EQ(foreseenStep(hopper(), 179, 256, 0), std::nullopt);
  EXPECT_EQ(foreseenStep(hopper(), 250, 256, 0), std::nullopt);
  EXPECT_EQ(foreseenStep(hopper(), 237, 256, 120 * 1024), std::nullopt);
  // 4 warps: two blocks always fit (255 registers); three allow 168,
  // foreseen from 236 to 327 words (the descriptor forward at head dim 64,
  // (128, 64), holds 247-255); below, four blocks (128 registers).
  EXPECT_EQ(foreseenStep(hopper(), 250, 128, 0), 3);
  EXPECT_EQ(foreseenStep(hopper(), 236, 128, 0), 3);
  EXPECT_EQ(foreseenStep(hopper(), 327, 128, 0), 3);
  EXPECT_EQ(foreseenStep(hopper(), 200, 128, 0), 4);
  EXPECT_EQ(foreseenStep(hopper(), 328, 128, 0), std::nullopt);
  // Unless shared memory holds fewer blocks.
  EXPECT_EQ(foreseenStep(hopper(), 250, 128, 96 * 1024), std::nullopt);
  // 16 warps hide latency alone: no step is asked for.
  EXPECT_EQ(foreseenStep(hopper(), 200, 512, 0), std::nullopt);
  // Each step foreseen is one oneMoreBlockPerSM asks for at some register
  // count above the step's registers.
  for (int threads : {64, 128, 256, 384, 512})
    for (int shared : {0, 58144, 112 * 1024, 120 * 1024})
      for (unsigned words = 100; words < 600; words += 7)
        if (std::optional<int> blocks = foreseenStep(hopper(), words, threads, shared)) {
          bool some = false;
          for (int registers = 1; registers <= 255; ++registers)
            some |= oneMoreBlockPerSM(hopper(), registers, threads, shared) == *blocks;
          EXPECT_TRUE(some) << threads << " threads, " << shared << " bytes, " << words;
          int most = registersForBlocks(hopper(), threads, *blocks);
          EXPECT_TRUE(10 * words >= 14u * most && 20 * words < 39u * most);
        }
}

TEST(Occupancy, AStepAllowingAboutHalfTheLiveWordsIsOutOfReach) {
  // Three blocks of 4 warps allow 168 registers: a 128x128 matmul tile
  // holding 520 words at once does not fit them, nor an attention backward
  // holding 333 (328 and more: 1.95 times), an attention forward holding
  // 255 does.
  EXPECT_EQ(registersForBlocks(hopper(), 128, 3), 168);
  EXPECT_TRUE(stepOutOfReach(hopper(), 520, 128, 3));
  EXPECT_TRUE(stepOutOfReach(hopper(), 333, 128, 3));
  EXPECT_TRUE(stepOutOfReach(hopper(), 328, 128, 3));
  EXPECT_FALSE(stepOutOfReach(hopper(), 327, 128, 3));
  EXPECT_FALSE(stepOutOfReach(hopper(), 255, 128, 3));
  // Two blocks of 8 warps: 128 registers, out of reach from 250 words.
  EXPECT_FALSE(stepOutOfReach(hopper(), 249, 256, 2));
  EXPECT_TRUE(stepOutOfReach(hopper(), 250, 256, 2));
  // Without a register count for the blocks, nothing is out of reach.
  EXPECT_FALSE(stepOutOfReach(hopper(), 1000, 128, 0));
}

TEST(Occupancy, AStepMaySpillAFewWordsWhereTheSMRanFewWarps) {
  // Without spills every step is taken.
  EXPECT_TRUE(stepSpillsAcceptable(0, 4, 128, true));
  // One block of 8 warps to two: 32 bytes with the MMAs serialized (the
  // block-pointer attention forward at head dim 64, (128, 128, 2, 8)).
  EXPECT_TRUE(stepSpillsAcceptable(32, 2, 256, true));
  EXPECT_TRUE(stepSpillsAcceptable(160, 2, 256, true));
  EXPECT_FALSE(stepSpillsAcceptable(161, 2, 256, false));
  // Two blocks of 4 warps to three: with asynchronous MMAs only.
  EXPECT_TRUE(stepSpillsAcceptable(140, 3, 128, false));
  EXPECT_FALSE(stepSpillsAcceptable(16, 3, 128, true));
  // Three blocks of 4 warps (12 warps) to four: too many warps already;
  // four blocks of 2 warps (8 warps) to five: too many blocks.
  EXPECT_FALSE(stepSpillsAcceptable(56, 4, 128, false));
  EXPECT_FALSE(stepSpillsAcceptable(8, 5, 64, false));
  // Two blocks of 2 warps to three.
  EXPECT_TRUE(stepSpillsAcceptable(8, 3, 64, false));
}
