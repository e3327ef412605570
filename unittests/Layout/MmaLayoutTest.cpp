//===- MmaLayoutTest.cpp - Tests for MMA and dot-operand layouts ----------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// Checks the accumulator and operand layouts against the fragment mappings
// of the PTX ISA (mma.sync m16n8k16 / m16n8k32, wgmma), their warp tiling
// and repetition, and the verifiers.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/MmaLayout.h"

#include <gtest/gtest.h>

using namespace tritium::layout;
using HwIndex = LinearLayout::HwIndex;

namespace {

MmaSpec mmaV2(int64_t wm, int64_t wn) { return {2, 0, {wm, wn}, {16, 8}}; }

/// Every element of `layout` has exactly `count` holders.
void expectHolderCount(const LinearLayout &layout, size_t count) {
  for (int64_t r = 0; r < layout.shape()[0]; ++r)
    for (int64_t c = 0; c < layout.shape()[1]; ++c)
      ASSERT_EQ(layout.holders({r, c}).size(), count) << r << "," << c;
}

TEST(MmaLayoutTest, V2AccumulatorFragment) {
  LinearLayout layout = mmaToLinear(mmaV2(1, 1), {16, 8});
  EXPECT_EQ(layout.bases(HwDim::Register), (BasisList{{0, 1}, {8, 0}}));
  EXPECT_EQ(layout.bases(HwDim::Lane),
            (BasisList{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}));
  EXPECT_EQ(layout.elemsPerThread(), 4);
  for (int64_t l = 0; l < 32; ++l)
    for (int64_t i = 0; i < 4; ++i)
      EXPECT_EQ(layout.apply(i, l, 0),
                (std::vector<int64_t>{l / 4 + 8 * (i / 2),
                                      2 * (l % 4) + i % 2}))
          << "lane " << l << " reg " << i;
  expectHolderCount(layout, 1);
}

TEST(MmaLayoutTest, V2AccumulatorWarpsAndRepetitions) {
  MmaSpec spec = mmaV2(2, 2);
  EXPECT_EQ(shapePerCTATile(spec), (std::vector<int64_t>{32, 16}));
  LinearLayout layout = mmaToLinear(spec, {64, 32});
  EXPECT_EQ(layout.elemsPerThread(), 4 * (64 / 32) * (32 / 16));
  EXPECT_EQ(layout.bases(HwDim::Warp), (BasisList{{0, 8}, {16, 0}}));
  // Repetitions: N first, then M.
  EXPECT_EQ(layout.bases(HwDim::Register),
            (BasisList{{0, 1}, {8, 0}, {0, 16}, {32, 0}}));
  EXPECT_EQ(layout.apply(0, 0, 1), (std::vector<int64_t>{0, 8}));
  EXPECT_EQ(layout.apply(0, 0, 2), (std::vector<int64_t>{16, 0}));
  EXPECT_EQ(layout.apply(0, 0, 3), (std::vector<int64_t>{16, 8}));
  EXPECT_TRUE(layout.isSurjective());
  expectHolderCount(layout, 1);
}

TEST(MmaLayoutTest, V2AccumulatorSmallerTensorBroadcasts) {
  // A 16x8 tensor over a 2x2-warp tile: warps broadcast.
  LinearLayout layout = mmaToLinear(mmaV2(2, 2), {16, 8});
  EXPECT_EQ(layout.elemsPerThread(), 4);
  expectHolderCount(layout, 4);
}

TEST(MmaLayoutTest, V3Accumulator) {
  MmaSpec spec{3, 0, {4, 1}, {16, 64, 16}};
  EXPECT_EQ(shapePerCTATile(spec), (std::vector<int64_t>{64, 64}));
  LinearLayout layout = mmaToLinear(spec, {64, 64});
  EXPECT_EQ(layout.elemsPerThread(), 32);
  EXPECT_EQ(layout.bases(HwDim::Register),
            (BasisList{{0, 1}, {8, 0}, {0, 8}, {0, 16}, {0, 32}}));
  EXPECT_EQ(layout.bases(HwDim::Warp), (BasisList{{16, 0}, {32, 0}}));
  for (int64_t w = 0; w < 4; ++w)
    for (int64_t l = 0; l < 32; ++l)
      EXPECT_EQ(layout.apply(0, l, w),
                (std::vector<int64_t>{16 * w + l / 4, 2 * (l % 4)}));
  EXPECT_TRUE(layout.isSurjective());
  expectHolderCount(layout, 1);
}

TEST(MmaLayoutTest, V3AccumulatorWarpsAlongMThenN) {
  MmaSpec spec{3, 0, {4, 2}, {16, 32, 16}};
  LinearLayout layout = mmaToLinear(spec, {128, 64});
  EXPECT_EQ(layout.bases(HwDim::Warp), (BasisList{{16, 0}, {32, 0}, {0, 32}}));
  EXPECT_EQ(layout.bases(HwDim::Register),
            (BasisList{{0, 1}, {8, 0}, {0, 8}, {0, 16}, {64, 0}}));
  expectHolderCount(layout, 1);
}

TEST(MmaLayoutTest, DotOperandAFp16) {
  LinearLayout layout = dotOperandToLinear(mmaV2(1, 1), 0, 2, {16, 16});
  EXPECT_EQ(layout.elemsPerThread(), 8);
  for (int64_t l = 0; l < 32; ++l) {
    int64_t r = l / 4, c = 2 * (l % 4);
    for (int64_t i = 0; i < 8; ++i)
      EXPECT_EQ(layout.apply(i, l, 0),
                (std::vector<int64_t>{r + 8 * ((i / 2) % 2),
                                      c + i % 2 + 8 * (i / 4)}))
          << "lane " << l << " reg " << i;
  }
  expectHolderCount(layout, 1);
}

TEST(MmaLayoutTest, DotOperandBFp16) {
  LinearLayout layout = dotOperandToLinear(mmaV2(1, 1), 1, 2, {16, 8});
  EXPECT_EQ(layout.elemsPerThread(), 4);
  for (int64_t l = 0; l < 32; ++l)
    for (int64_t i = 0; i < 4; ++i)
      EXPECT_EQ(layout.apply(i, l, 0),
                (std::vector<int64_t>{2 * (l % 4) + i % 2 + 8 * (i / 2),
                                      l / 4}))
          << "lane " << l << " reg " << i;
  expectHolderCount(layout, 1);
}

TEST(MmaLayoutTest, DotOperandAInt8) {
  // m16n8k32: four consecutive K elements per register group.
  LinearLayout layout = dotOperandToLinear(mmaV2(1, 1), 0, 4, {16, 32});
  EXPECT_EQ(layout.elemsPerThread(), 16);
  for (int64_t l = 0; l < 32; ++l)
    for (int64_t i = 0; i < 16; ++i)
      EXPECT_EQ(layout.apply(i, l, 0),
                (std::vector<int64_t>{l / 4 + 8 * ((i / 4) % 2),
                                      4 * (l % 4) + i % 4 + 16 * (i / 8)}));
  expectHolderCount(layout, 1);
}

TEST(MmaLayoutTest, DotOperandWarpBroadcast) {
  // A: warps along N (warp bit 0 for v2) hold the same data.
  LinearLayout a = dotOperandToLinear(mmaV2(2, 2), 0, 2, {32, 16});
  EXPECT_EQ(a.bases(HwDim::Warp), (BasisList{{0, 0}, {16, 0}}));
  for (int64_t l = 0; l < 32; ++l)
    for (int64_t i = 0; i < 8; ++i) {
      EXPECT_EQ(a.apply(i, l, 0), a.apply(i, l, 1));
      std::vector<int64_t> shifted = a.apply(i, l, 0);
      shifted[0] += 16;
      EXPECT_EQ(a.apply(i, l, 2), shifted);
    }
  expectHolderCount(a, 2);

  // B: warps along M hold the same data.
  LinearLayout b = dotOperandToLinear(mmaV2(2, 2), 1, 2, {16, 16});
  EXPECT_EQ(b.bases(HwDim::Warp), (BasisList{{0, 8}, {0, 0}}));
  expectHolderCount(b, 2);
}

TEST(MmaLayoutTest, DotOperandRepetitions) {
  // K repetitions first, then M (A) / N (B).
  LinearLayout a = dotOperandToLinear(mmaV2(1, 1), 0, 2, {32, 32});
  EXPECT_EQ(a.bases(HwDim::Register),
            (BasisList{{0, 1}, {8, 0}, {0, 8}, {0, 16}, {16, 0}}));
  LinearLayout b = dotOperandToLinear(mmaV2(1, 1), 1, 2, {32, 16});
  EXPECT_EQ(b.bases(HwDim::Register),
            (BasisList{{1, 0}, {8, 0}, {16, 0}, {0, 8}}));
  expectHolderCount(a, 1);
  expectHolderCount(b, 1);
}

TEST(MmaLayoutTest, DotOperandAOnV3Parent) {
  MmaSpec parent{3, 0, {4, 1}, {16, 64, 16}};
  LinearLayout a = dotOperandToLinear(parent, 0, 2, {64, 16});
  EXPECT_EQ(a.bases(HwDim::Warp), (BasisList{{16, 0}, {32, 0}}));
  EXPECT_EQ(a.elemsPerThread(), 8);
  for (int64_t w = 0; w < 4; ++w)
    EXPECT_EQ(a.apply(0, 5, w), (std::vector<int64_t>{16 * w + 1, 2}));
  expectHolderCount(a, 1);
}

TEST(MmaLayoutTest, Verifiers) {
  EXPECT_FALSE(verifyMma(mmaV2(2, 2), 4));
  EXPECT_FALSE(verifyMma({3, 0, {4, 2}, {16, 128, 16}}, 8));
  EXPECT_EQ(verifyMma(mmaV2(2, 2), 8),
            std::string("product of warpsPerCTA is 4, expected 8"));
  EXPECT_EQ(verifyMma({1, 0, {1, 1}, {16, 8}}, 1),
            std::string("unsupported mma versionMajor 1, expected 2 or 3"));
  EXPECT_EQ(verifyMma({2, 0, {1, 1}, {16, 16}}, 1),
            std::string("instrShape [16,16] is invalid for mma v2, expected "
                        "[16,8]"));
  EXPECT_EQ(verifyMma({2, 0, {1, 3}, {16, 8}}, 3),
            std::string("warpsPerCTA[1] is 3, expected a positive power of "
                        "two"));
  EXPECT_EQ(verifyMma({2, 0, {4}, {16, 8}}, 4),
            std::string("warpsPerCTA must have rank 2 (or 3, batch first), "
                        "got 1"));
  EXPECT_FALSE(verifyMma({2, 0, {2, 2, 1}, {16, 8}}, 4));
  // Batched wgmma tiles (Triton's layout tests slice their operands).
  EXPECT_FALSE(verifyMma({3, 0, {1, 4, 1}, {16, 64, 16}}, 4));
  EXPECT_EQ(verifyMma({3, 0, {4, 1}, {16, 12, 16}}, 4),
            std::string("instrShape N is 12, expected a multiple of 8 in "
                        "8..256"));
  EXPECT_EQ(verifyMma({3, 0, {4, 1}, {16, 512, 16}}, 4),
            std::string("instrShape N is 512, expected a multiple of 8 in "
                        "8..256"));
  // Fewer than 4 warps along M: a valid layout (no wgmma computes it).
  EXPECT_FALSE(verifyMma({3, 0, {2, 2}, {16, 64, 16}}, 4));
  EXPECT_FALSE(verifyMma({3, 0, {1, 4}, {16, 32, 32}}, 4));
  EXPECT_TRUE(verifyMma({3, 0, {4, 1}, {16, 24, 16}}, 4).has_value());

  EXPECT_FALSE(verifyDotOperand(mmaV2(2, 2), 1, 2));
  EXPECT_EQ(verifyDotOperand(mmaV2(2, 2), 2, 2),
            std::string("opIdx is 2, expected 0 or 1"));
  EXPECT_EQ(verifyDotOperand(mmaV2(2, 2), 0, 3),
            std::string("kWidth is 3, expected a power of two in 1..16"));
  EXPECT_EQ(verifyDotOperand(mmaV2(2, 2), 0, 32),
            std::string("kWidth is 32, expected a power of two in 1..16"));
  EXPECT_EQ(verifyDotOperand({3, 0, {4, 1}, {16, 64, 16}}, 1, 2),
            std::string("with an mma v3 parent only operand A (opIdx 0) may "
                        "be held in registers"));
  EXPECT_EQ(verifyDotOperand({5, 0, {1, 1}, {16, 8}}, 0, 2),
            std::string("invalid parent: unsupported mma versionMajor 5, "
                        "expected 2 or 3"));
}

} // namespace

namespace {

/// The PTX ISA's fragment of mma.sync m16n8k(8*kWidth): the (row, col) of
/// element i of lane l, for A (M x K), B (K x N) and the accumulator.
std::vector<int64_t> ptxFragment(int which, int64_t kWidth, int64_t lane,
                                 int64_t i) {
  int64_t group = lane / 4, inGroup = lane % 4;
  if (which == 2) // accumulator: c0..c3
    return {group + 8 * (i / 2), 2 * inGroup + i % 2};
  int64_t kLow = inGroup * kWidth + i % kWidth; // within the first 4*kWidth
  if (which == 0) {
    // A: kWidth elements per register; registers walk rows +8 then K half.
    int64_t reg = i / kWidth;
    return {group + 8 * (reg % 2), kLow + 4 * kWidth * (reg / 2)};
  }
  int64_t reg = i / kWidth; // B: registers walk the K halves
  return {kLow + 4 * kWidth * reg, group};
}

TEST(MmaLayoutTest, V2RegistersFollowThePtxFragments) {
  for (int64_t kWidth : {1, 2, 4}) {
    MmaSpec spec = mmaV2(2, 2);
    std::vector<int64_t> shape = {64, 32};
    int64_t k = 2 * 8 * kWidth; // two K repetitions
    MmaV2Repetitions reps = mmaV2Repetitions(spec, shape, k, kWidth);
    EXPECT_EQ(reps.m, 2);
    EXPECT_EQ(reps.n, 2);
    EXPECT_EQ(reps.k, 2);
    LinearLayout acc = mmaToLinear(spec, shape);
    LinearLayout a = dotOperandToLinear(spec, 0, kWidth, {64, k});
    LinearLayout b = dotOperandToLinear(spec, 1, kWidth, {k, 32});
    for (int64_t warp = 0; warp < 4; ++warp) {
      int64_t wm = warp / 2, wn = warp % 2; // version 2: N fastest
      for (int64_t lane = 0; lane < 32; ++lane)
        for (int64_t mr = 0; mr < reps.m; ++mr)
          for (int64_t nr = 0; nr < reps.n; ++nr) {
            int64_t row0 = 16 * wm + 32 * mr, col0 = 8 * wn + 16 * nr;
            for (int64_t i = 0; i < 4; ++i) {
              auto f = ptxFragment(2, kWidth, lane, i);
              ASSERT_EQ(acc.apply(mmaV2AccumulatorRegister(reps, mr, nr, i),
                                  lane, warp),
                        (std::vector<int64_t>{row0 + f[0], col0 + f[1]}));
            }
            for (int64_t kr = 0; kr < reps.k; ++kr) {
              int64_t k0 = 8 * kWidth * kr;
              for (int64_t i = 0; i < 4 * kWidth; ++i) {
                auto f = ptxFragment(0, kWidth, lane, i);
                ASSERT_EQ(a.apply(mmaV2OperandRegister(reps, 0, kWidth, mr, kr, i),
                                  lane, warp),
                          (std::vector<int64_t>{row0 + f[0], k0 + f[1]}))
                    << "A kWidth " << kWidth << " lane " << lane << " i " << i;
              }
              for (int64_t i = 0; i < 2 * kWidth; ++i) {
                auto f = ptxFragment(1, kWidth, lane, i);
                ASSERT_EQ(b.apply(mmaV2OperandRegister(reps, 1, kWidth, nr, kr, i),
                                  lane, warp),
                          (std::vector<int64_t>{k0 + f[0], col0 + f[1]}))
                    << "B kWidth " << kWidth << " lane " << lane << " i " << i;
              }
            }
          }
    }
  }
}

// Batched (rank-3) dots: each batch index holds the 2-D fragments; the
// batch warps are the slowest warp bits and the batch repetitions follow
// every other register repetition (mmaV2*Register's bRep).
TEST(MmaLayoutTest, V2BatchedRegistersFollowThePtxFragments) {
  for (int64_t kWidth : {1, 2, 4}) {
    MmaSpec spec = {2, 0, {2, 2, 2}, {16, 8}};
    EXPECT_EQ(shapePerCTATile(spec), (std::vector<int64_t>{2, 32, 16}));
    std::vector<int64_t> shape = {4, 64, 32};
    int64_t k = 2 * 8 * kWidth;
    MmaV2Repetitions reps = mmaV2Repetitions(spec, shape, k, kWidth);
    EXPECT_EQ(reps.b, 2);
    EXPECT_EQ(reps.m, 2);
    EXPECT_EQ(reps.n, 2);
    EXPECT_EQ(reps.k, 2);
    LinearLayout acc = mmaToLinear(spec, shape);
    LinearLayout a = dotOperandToLinear(spec, 0, kWidth, {4, 64, k});
    LinearLayout b = dotOperandToLinear(spec, 1, kWidth, {4, k, 32});
    EXPECT_TRUE(acc.isSurjective());
    for (int64_t warp = 0; warp < 8; ++warp) {
      int64_t wb = warp / 4, wm = (warp % 4) / 2, wn = warp % 2;
      for (int64_t lane = 0; lane < 32; ++lane)
        for (int64_t br = 0; br < reps.b; ++br)
          for (int64_t mr = 0; mr < reps.m; ++mr)
            for (int64_t nr = 0; nr < reps.n; ++nr) {
              int64_t batch = wb + 2 * br;
              int64_t row0 = 16 * wm + 32 * mr, col0 = 8 * wn + 16 * nr;
              for (int64_t i = 0; i < 4; ++i) {
                auto f = ptxFragment(2, kWidth, lane, i);
                ASSERT_EQ(acc.apply(mmaV2AccumulatorRegister(reps, mr, nr, i, br), lane, warp),
                          (std::vector<int64_t>{batch, row0 + f[0], col0 + f[1]}));
              }
              for (int64_t kr = 0; kr < reps.k; ++kr) {
                int64_t k0 = 8 * kWidth * kr;
                for (int64_t i = 0; i < 4 * kWidth; ++i) {
                  auto f = ptxFragment(0, kWidth, lane, i);
                  ASSERT_EQ(a.apply(mmaV2OperandRegister(reps, 0, kWidth, mr, kr, i, br), lane, warp),
                            (std::vector<int64_t>{batch, row0 + f[0], k0 + f[1]}))
                      << "A kWidth " << kWidth << " lane " << lane << " i " << i;
                }
                for (int64_t i = 0; i < 2 * kWidth; ++i) {
                  auto f = ptxFragment(1, kWidth, lane, i);
                  ASSERT_EQ(b.apply(mmaV2OperandRegister(reps, 1, kWidth, nr, kr, i, br), lane, warp),
                            (std::vector<int64_t>{batch, k0 + f[0], col0 + f[1]}))
                      << "B kWidth " << kWidth << " lane " << lane << " i " << i;
                }
              }
            }
    }
  }
}

// Batched wgmma tiles (rank 3, only converted): every batch index holds the
// rank-2 v3 layout, and the batch warps come after the planar ones.
TEST(MmaLayoutTest, V3BatchedHoldsThePlanarLayoutPerBatch) {
  MmaSpec batched = {3, 0, {2, 4, 1}, {16, 32, 16}};
  MmaSpec planar = {3, 0, {4, 1}, {16, 32, 16}};
  EXPECT_EQ(shapePerCTATile(batched), (std::vector<int64_t>{2, 64, 32}));
  LinearLayout acc = mmaToLinear(batched, {4, 64, 64});
  LinearLayout one = mmaToLinear(planar, {64, 64});
  EXPECT_TRUE(acc.isSurjective());
  int64_t planarRegs = one.inDimSize(HwDim::Register);
  for (int64_t reg = 0; reg < 2 * planarRegs; ++reg)
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t warp = 0; warp < 8; ++warp) {
        // batch = the warp's batch bit (the slowest) + 2 * the register's
        // batch repetition (after every planar repetition)
        int64_t batch = warp / 4 + 2 * (reg / planarRegs);
        std::vector<int64_t> at = one.apply(reg % planarRegs, lane, warp % 4);
        ASSERT_EQ(acc.apply(reg, lane, warp),
                  (std::vector<int64_t>{batch, at[0], at[1]}))
            << "reg " << reg << " lane " << lane << " warp " << warp;
      }
}

} // namespace
