//===- StMatrixPlan.cpp - 16-bit tiles stored with stmatrix ---------------===//
//
// Part of the Tritium project.  See StMatrixPlan.h for the scheme.
//
//===----------------------------------------------------------------------===//
#include "tritium/Layout/StMatrixPlan.h"

#include <algorithm>

using namespace tritium::layout;

namespace {

/// XOR of `offsets[i]` over the set bits i of `index`.
int64_t xorOfBits(const std::vector<int64_t> &offsets, int64_t index) {
  int64_t result = 0;
  for (size_t bit = 0; bit < offsets.size(); ++bit)
    if (index >> bit & 1)
      result ^= offsets[bit];
  return result;
}

} // namespace

int64_t StMatrixPlan::rowOffset(int64_t lane, int64_t warp) const {
  return xorOfBits(laneRowOffsets, lane) ^ xorOfBits(warpOffsets, warp);
}

std::optional<StMatrixPlan> tritium::layout::planStMatrix(
    const LinearLayout &layout,
    const std::function<int64_t(const std::vector<int64_t> &)> &offset) {
  auto offsetsOf = [&](HwDim dim) {
    std::vector<int64_t> offsets;
    for (const std::vector<int64_t> &basis : layout.bases(dim))
      offsets.push_back(offset(basis));
    return offsets;
  };
  std::vector<int64_t> regs = offsetsOf(HwDim::Register);
  std::vector<int64_t> lanes = offsetsOf(HwDim::Lane);
  std::vector<int64_t> warps = offsetsOf(HwDim::Warp);
  if (regs.empty() || lanes.size() != 5 || regs[0] != 1 || lanes[0] != 2 ||
      lanes[1] != 4)
    return std::nullopt;
  auto rowAligned = [](int64_t o) { return o % 8 == 0; };
  for (size_t i = 1; i < regs.size(); ++i)
    if (regs[i] == 0 || !rowAligned(regs[i])) // zero: a duplicated register
      return std::nullopt;
  if (!std::all_of(lanes.begin() + 2, lanes.end(), rowAligned) ||
      !std::all_of(warps.begin(), warps.end(), rowAligned))
    return std::nullopt;

  StMatrixPlan plan;
  int matrixBits = std::min<int>(2, static_cast<int>(regs.size()) - 1);
  plan.matrices = int64_t(1) << matrixBits;
  // Lane bits 0-2 of the addressing lane: the row (the layout's lane bits
  // 2-4); lane bits 3-4: the matrix (register bits 1..matrixBits).
  plan.laneRowOffsets = {lanes[2], lanes[3], lanes[4], 0, 0};
  for (int bit = 0; bit < matrixBits; ++bit)
    plan.laneRowOffsets[3 + bit] = regs[1 + bit];
  plan.warpOffsets = warps;
  int64_t perInstruction = 2 * plan.matrices;
  for (int64_t first = 0; first < layout.elemsPerThread(); first += perInstruction) {
    plan.firstRegisters.push_back(first);
    plan.instructionOffsets.push_back(xorOfBits(regs, first));
  }
  return plan;
}
