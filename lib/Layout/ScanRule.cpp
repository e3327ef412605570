//===- ScanRule.cpp - Layouts tt.scan scans directly ----------------------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// makeScanPlan finds, for each bit of the axis position, the register,
// lane or warp bit whose basis sets it, and checks that they come in the
// order of include/tritium/Layout/ScanRule.h.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/ScanRule.h"

#include <algorithm>
#include <utility>

namespace tritium {
namespace layout {

int64_t ScanPlan::registerOf(int64_t line, int64_t chunk, int64_t pos) const {
  int64_t reg = line;
  for (size_t k = 0; k < lowRegisterBits.size(); ++k)
    if ((pos >> k) & 1)
      reg |= int64_t(1) << lowRegisterBits[k];
  for (size_t k = 0; k < chunkRegisterBits.size(); ++k)
    if ((chunk >> k) & 1)
      reg |= int64_t(1) << chunkRegisterBits[k];
  return reg;
}

std::optional<ScanPlan> makeScanPlan(const LinearLayout &layout, int axis,
                                     std::string &why) {
  ScanPlan plan;
  int64_t axisLength = layout.shape()[axis];
  int axisBits = log2Exact(axisLength);
  plan.numRegisters = layout.elemsPerThread();
  plan.numLines = 1;
  for (size_t dim = 0; dim < layout.shape().size(); ++dim)
    if (static_cast<int>(dim) != axis)
      plan.numLines *= layout.shape()[dim];

  // owner[p]: the (hardware dimension, bit) whose basis sets position bit p.
  std::vector<std::pair<int, int>> owner(axisBits, {-1, -1});
  for (int hw = 0; hw < kNumHwDims; ++hw) {
    const BasisList &bases = layout.bases(static_cast<HwDim>(hw));
    for (size_t bit = 0; bit < bases.size(); ++bit) {
      const std::vector<int64_t> &basis = bases[bit];
      int64_t along = basis[axis];
      bool zero = std::all_of(basis.begin(), basis.end(),
                              [](int64_t c) { return c == 0; });
      if (zero && hw == static_cast<int>(HwDim::Register))
        plan.zeroRegisterMask |= int64_t(1) << bit;
      if (along == 0)
        continue;
      bool onlyAlong = true;
      for (size_t d = 0; d < basis.size(); ++d)
        if (static_cast<int>(d) != axis && basis[d] != 0)
          onlyAlong = false;
      if (!isPowerOf2(along) || !onlyAlong) {
        why = "a basis moves along the scan axis and across it";
        return std::nullopt;
      }
      int pos = log2Exact(along);
      if (owner[pos].first != -1) {
        why = "two bases move to the same position along the scan axis";
        return std::nullopt;
      }
      owner[pos] = {hw, static_cast<int>(bit)};
      if (hw == static_cast<int>(HwDim::Register))
        plan.axisRegisterMask |= int64_t(1) << bit;
    }
  }
  int pos = 0;
  auto ownedBy = [&](HwDim hw) {
    return pos < axisBits && owner[pos].first == static_cast<int>(hw);
  };
  for (; ownedBy(HwDim::Register); ++pos)
    plan.lowRegisterBits.push_back(owner[pos].second);
  int firstLanePos = pos;
  for (; ownedBy(HwDim::Lane); ++pos) {
    if (pos == firstLanePos)
      plan.firstLaneBit = owner[pos].second;
    else if (owner[pos].second != plan.firstLaneBit + (pos - firstLanePos)) {
      why = "the lanes along the scan axis are not consecutive lane ids";
      return std::nullopt;
    }
    ++plan.laneBits;
  }
  for (; ownedBy(HwDim::Warp); ++pos)
    ++plan.warpBits;
  for (; ownedBy(HwDim::Register); ++pos)
    plan.chunkRegisterBits.push_back(owner[pos].second);
  if (pos != axisBits) {
    why = owner[pos].first == -1
              ? "some position along the scan axis is held by no thread"
              : "registers, lanes and warps do not follow one another "
                "along the scan axis";
    return std::nullopt;
  }
  return plan;
}

std::string scanLayoutProblem(const LinearLayout &layout, int axis) {
  std::string why;
  if (!makeScanPlan(layout, axis, why))
    return why;
  return "";
}

} // namespace layout
} // namespace tritium
