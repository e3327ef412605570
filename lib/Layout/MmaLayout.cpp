//===- MmaLayout.cpp - Tensor-core accumulator and operand layouts --------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// Builds the LinearLayouts of MMA accumulators and dot operands from the
// PTX fragment descriptions, and verifies their parameters.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/MmaLayout.h"

#include <algorithm>
#include <cassert>

namespace tritium {
namespace layout {

namespace {

constexpr int kRowDim = 0; // M (accumulator, A) or K (B)
constexpr int kColDim = 1; // N (accumulator, B) or K (A)

std::vector<int64_t> basis2(int64_t row, int64_t col) { return {row, col}; }

/// The order in which warp-index bits walk the warp grid: version 2 puts N
/// (dim 1) fastest, version 3 puts M (dim 0) fastest so that the four warps
/// of a warpgroup stack along M.
std::vector<int64_t> warpOrder(const MmaSpec &spec) {
  return spec.versionMajor == 3 ? std::vector<int64_t>{0, 1}
                                : std::vector<int64_t>{1, 0};
}

/// Warp bases for a grid of spec.warpsPerCTA warps, each covering
/// `perWarp`.  Warps along `broadcastDim` (if >= 0) get zero bases: they
/// hold the same data.
BasisList warpBases(const MmaSpec &spec, const std::vector<int64_t> &perWarp,
                    int broadcastDim) {
  BasisList bases;
  for (int64_t d : warpOrder(spec)) {
    for (int64_t step = 1; step < spec.warpsPerCTA[d]; step *= 2) {
      if (d == broadcastDim)
        bases.push_back(basis2(0, 0));
      else
        bases.push_back(unitBasis(2, static_cast<int>(d), perWarp[d] * step));
    }
  }
  return bases;
}

/// Lane bases shared by the accumulator and operand fragments: the two low
/// lane bits ("thread in group") step along `inGroupDim` by `inGroupStride`,
/// the three high bits ("group id") step along the other dimension by 1.
BasisList fragmentLaneBases(int inGroupDim, int64_t inGroupStride) {
  int groupDim = inGroupDim == kRowDim ? kColDim : kRowDim;
  BasisList lanes;
  lanes.push_back(unitBasis(2, inGroupDim, inGroupStride));
  lanes.push_back(unitBasis(2, inGroupDim, 2 * inGroupStride));
  for (int64_t step = 1; step < 8; step *= 2)
    lanes.push_back(unitBasis(2, groupDim, step));
  return lanes;
}

/// A batched (rank-3, version-2) spec's per-batch view: the warp grid over
/// M x N without the batch warps.  Rank-2 specs are returned unchanged.
MmaSpec planarSpec(const MmaSpec &spec) {
  if (spec.warpsPerCTA.size() != 3)
    return spec;
  MmaSpec planar = spec;
  planar.warpsPerCTA = {spec.warpsPerCTA[1], spec.warpsPerCTA[2]};
  return planar;
}

/// The bases of a batched layout from those of one batch's M x N (or
/// operand) tile: every basis gets a zero batch coordinate, the batch
/// warps follow the planar ones (batch is the slowest warp dimension), and
/// what the batch warps do not cover repeats in registers after all planar
/// repetitions.
LayoutBases liftToBatched(LayoutBases planar, int64_t batchWarps,
                          int64_t batch) {
  for (BasisList &list : planar)
    for (std::vector<int64_t> &basis : list)
      basis.insert(basis.begin(), 0);
  for (int64_t step = 1; step < batchWarps; step *= 2)
    planar[static_cast<int>(HwDim::Warp)].push_back({step, 0, 0});
  for (int64_t step = batchWarps; step < batch; step *= 2)
    planar[static_cast<int>(HwDim::Register)].push_back({step, 0, 0});
  return planar;
}

int64_t product(const std::vector<int64_t> &values) {
  int64_t result = 1;
  for (int64_t v : values)
    result *= v;
  return result;
}

} // namespace

std::optional<std::string> verifyMma(const MmaSpec &spec,
                                     int64_t expectedNumWarps) {
  if (spec.versionMajor != 2 && spec.versionMajor != 3)
    return "unsupported mma versionMajor " +
           std::to_string(spec.versionMajor) + ", expected 2 or 3";
  if (spec.warpsPerCTA.size() != 2 && spec.warpsPerCTA.size() != 3)
    return "warpsPerCTA must have rank 2 (or 3, batch first), got " +
           std::to_string(spec.warpsPerCTA.size());
  if (auto err = checkPowersOfTwo("warpsPerCTA", spec.warpsPerCTA))
    return err;
  if (spec.versionMajor == 2) {
    if (spec.instrShape != std::vector<int64_t>{16, 8})
      return "instrShape " + formatVector(spec.instrShape) +
             " is invalid for mma v2, expected [16,8]";
  } else {
    if (spec.instrShape.size() != 3 || spec.instrShape[0] != 16)
      return "instrShape " + formatVector(spec.instrShape) +
             " is invalid for mma v3, expected [16,N,K]";
    int64_t n = spec.instrShape[1];
    if (n < 8 || n > 256 || n % 8 != 0)
      return "instrShape N is " + std::to_string(n) +
             ", expected a multiple of 8 in 8..256";
    if (!isPowerOf2(n))
      return "instrShape N is " + std::to_string(n) +
             ", expected a power of two (layouts need power-of-two tiles)";
    if (!isPowerOf2(spec.instrShape[2]))
      return "instrShape K is " + std::to_string(spec.instrShape[2]) +
             ", expected a positive power of two";
  }
  int64_t warps = product(spec.warpsPerCTA);
  if (expectedNumWarps > 0 && warps != expectedNumWarps)
    return "product of warpsPerCTA is " + std::to_string(warps) +
           ", expected " + std::to_string(expectedNumWarps);
  return std::nullopt;
}

std::vector<int64_t> shapePerCTATile(const MmaSpec &spec) {
  if (spec.warpsPerCTA.size() == 3) {
    std::vector<int64_t> planar = shapePerCTATile(planarSpec(spec));
    return {spec.warpsPerCTA[0], planar[0], planar[1]};
  }
  int64_t perWarpN = spec.versionMajor == 3 ? spec.instrShape[1] : 8;
  return {16 * spec.warpsPerCTA[0], perWarpN * spec.warpsPerCTA[1]};
}

namespace {
/// The unwrapped bases of a rank-2 accumulator layout (mmaToLinear).
LayoutBases mmaBases(const MmaSpec &spec, const std::vector<int64_t> &shape) {
  int64_t perWarpN = spec.versionMajor == 3 ? spec.instrShape[1] : 8;
  LayoutBases bases;
  BasisList &regs = bases[static_cast<int>(HwDim::Register)];
  // c0/c1: adjacent columns; c2/c3: eight rows down.
  regs.push_back(basis2(0, 1));
  regs.push_back(basis2(8, 0));
  // wgmma: the 16x8 pattern repeats along N within the warp.
  for (int64_t step = 8; step < perWarpN; step *= 2)
    regs.push_back(basis2(0, step));
  bases[static_cast<int>(HwDim::Lane)] =
      fragmentLaneBases(kColDim, /*inGroupStride=*/2);
  bases[static_cast<int>(HwDim::Warp)] =
      warpBases(spec, {16, perWarpN}, /*broadcastDim=*/-1);
  appendTileRepetitions(regs, shapePerCTATile(spec), shape,
                        /*dimOrder=*/{kColDim, kRowDim});
  return bases;
}
} // namespace

LinearLayout mmaToLinear(const MmaSpec &spec,
                         const std::vector<int64_t> &shape) {
  assert(!verifyMma(spec, 0) && "invalid mma layout");
  assert(shape.size() == spec.warpsPerCTA.size() &&
         "an mma layout has the rank of its warp grid");
  if (shape.size() == 3)
    return LinearLayout::wrapped(
        liftToBatched(mmaBases(planarSpec(spec), {shape[1], shape[2]}),
                      spec.warpsPerCTA[0], shape[0]),
        shape);
  return LinearLayout::wrapped(mmaBases(spec, shape), shape);
}

std::optional<std::string> verifyDotOperand(const MmaSpec &parent, int opIdx,
                                            int64_t kWidth) {
  if (opIdx != 0 && opIdx != 1)
    return "opIdx is " + std::to_string(opIdx) + ", expected 0 or 1";
  if (!isPowerOf2(kWidth) || kWidth > 16)
    return "kWidth is " + std::to_string(kWidth) +
           ", expected a power of two in 1..16";
  if (auto err = verifyMma(parent, /*expectedNumWarps=*/0))
    return "invalid parent: " + *err;
  if (parent.versionMajor == 3 && opIdx != 0)
    return std::string("with an mma v3 parent only operand A (opIdx 0) may "
                       "be held in registers");
  return std::nullopt;
}

namespace {
/// The unwrapped bases of a rank-2 operand layout (dotOperandToLinear).
LayoutBases dotOperandBases(const MmaSpec &parent, int opIdx, int64_t kWidth,
                            const std::vector<int64_t> &shape) {
  // The K dimension of the operand, and the other (M for A, N for B).
  const int kDim = opIdx == 0 ? kColDim : kRowDim;
  const int otherDim = opIdx == 0 ? kRowDim : kColDim;
  // Per-warp fragment: A is 16 x 8*kWidth, B is 8*kWidth x 8.
  const int64_t otherPerWarp = opIdx == 0 ? 16 : 8;
  const int64_t kPerWarp = 8 * kWidth;

  LayoutBases bases;
  BasisList &regs = bases[static_cast<int>(HwDim::Register)];
  // kWidth consecutive K elements per register group.
  for (int64_t step = 1; step < kWidth; step *= 2)
    regs.push_back(unitBasis(2, kDim, step));
  bases[static_cast<int>(HwDim::Lane)] =
      fragmentLaneBases(kDim, /*inGroupStride=*/kWidth);
  // A: a second register group eight rows down; both: the upper half of K.
  if (opIdx == 0)
    regs.push_back(unitBasis(2, otherDim, 8));
  regs.push_back(unitBasis(2, kDim, 4 * kWidth));

  std::vector<int64_t> perWarp(2);
  perWarp[kDim] = kPerWarp;
  perWarp[otherDim] = otherPerWarp;
  // Warps spread along the dimension the operand lacks (N for A, M for B)
  // hold the same data.
  const int broadcastDim = opIdx == 0 ? kColDim : kRowDim;
  bases[static_cast<int>(HwDim::Warp)] =
      warpBases(parent, perWarp, broadcastDim);

  std::vector<int64_t> tile(2);
  tile[kDim] = kPerWarp;
  tile[otherDim] = otherPerWarp * parent.warpsPerCTA[otherDim];
  appendTileRepetitions(regs, tile, shape, /*dimOrder=*/{kDim, otherDim});
  return bases;
}
} // namespace

LinearLayout dotOperandToLinear(const MmaSpec &parent, int opIdx,
                                int64_t kWidth,
                                const std::vector<int64_t> &shape) {
  assert(!verifyDotOperand(parent, opIdx, kWidth) && "invalid dot operand");
  assert(shape.size() == parent.warpsPerCTA.size() &&
         "a dot operand has the rank of its parent's warp grid");
  // Batched: both operands have the batch dimension, so the batch warps
  // hold different data for each.
  if (shape.size() == 3)
    return LinearLayout::wrapped(
        liftToBatched(dotOperandBases(planarSpec(parent), opIdx, kWidth,
                                      {shape[1], shape[2]}),
                      parent.warpsPerCTA[0], shape[0]),
        shape);
  return LinearLayout::wrapped(
      dotOperandBases(parent, opIdx, kWidth, shape), shape);
}

MmaV2Repetitions mmaV2Repetitions(const MmaSpec &spec,
                                  const std::vector<int64_t> &shape,
                                  int64_t k, int64_t kWidth) {
  std::vector<int64_t> tile = shapePerCTATile(spec);
  MmaV2Repetitions reps;
  size_t first = 0;
  if (shape.size() == 3) {
    reps.b = std::max<int64_t>(1, shape[0] / tile[0]);
    first = 1;
  }
  reps.m = std::max<int64_t>(1, shape[first] / tile[first]);
  reps.n = std::max<int64_t>(1, shape[first + 1] / tile[first + 1]);
  reps.k = std::max<int64_t>(1, k / (8 * kWidth));
  return reps;
}

int64_t mmaV2AccumulatorRegister(const MmaV2Repetitions &reps, int64_t mRep,
                                 int64_t nRep, int64_t i, int64_t bRep) {
  // Repetitions: N first, then M (mmaToLinear), then the batch.
  return i + 4 * (nRep + reps.n * (mRep + reps.m * bRep));
}

int64_t mmaV2OperandRegister(const MmaV2Repetitions &reps, int opIdx,
                             int64_t kWidth, int64_t rep, int64_t kRep,
                             int64_t i, int64_t bRep) {
  // Per instruction A holds 4 * kWidth elements, B 2 * kWidth; repetitions
  // go K first (dotOperandToLinear), then M (A) or N (B), then the batch.
  int64_t perInstr = (opIdx == 0 ? 4 : 2) * kWidth;
  int64_t reps2 = opIdx == 0 ? reps.m : reps.n;
  return i + perInstr * (kRep + reps.k * (rep + reps2 * bRep));
}

} // namespace layout
} // namespace tritium
