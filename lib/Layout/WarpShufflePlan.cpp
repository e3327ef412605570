//===- WarpShufflePlan.cpp - layout conversions inside a warp -------------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// Coordinates are packed into bit vectors (dimension d takes log2(shape[d])
// bits), and each membership question of WarpShufflePlan.h ("is this vector
// in the span of these bases, and as which combination?") is answered by a
// small GF(2) elimination that tracks, for every reduced row, which input
// bases it combines.
//
//===----------------------------------------------------------------------===//
#include "tritium/Layout/WarpShufflePlan.h"

#include <map>

namespace tritium {
namespace layout {

namespace {

/// Packs coordinates of a tensor of `shape` into one bit vector.
class CoordPacker {
public:
  explicit CoordPacker(const std::vector<int64_t> &shape) {
    int offset = 0;
    for (int64_t size : shape) {
      offsets_.push_back(offset);
      offset += log2Exact(size);
    }
  }
  uint64_t pack(const std::vector<int64_t> &coord) const {
    uint64_t bits = 0;
    for (size_t d = 0; d < coord.size(); ++d)
      bits |= static_cast<uint64_t>(coord[d]) << offsets_[d];
    return bits;
  }

private:
  std::vector<int> offsets_;
};

/// The span of a list of GF(2) vectors; solve() writes a target as a
/// combination of them (bit k of the result selects vector k).
class Span {
public:
  explicit Span(const std::vector<uint64_t> &vectors) {
    for (size_t k = 0; k < vectors.size(); ++k) {
      uint64_t vector = vectors[k];
      uint64_t combo = uint64_t(1) << k;
      reduce(vector, combo);
      if (vector != 0)
        rows_[highestBit(vector)] = {vector, combo};
    }
  }

  std::optional<uint64_t> solve(uint64_t target) const {
    uint64_t combo = 0;
    reduce(target, combo);
    if (target != 0)
      return std::nullopt;
    return combo;
  }

private:
  static int highestBit(uint64_t v) { return 63 - __builtin_clzll(v); }

  void reduce(uint64_t &vector, uint64_t &combo) const {
    // Rows are keyed by their highest bit and have no higher bits, so one
    // pass from the top clears every pivot bit.
    for (auto it = rows_.rbegin(); it != rows_.rend(); ++it) {
      if (vector & (uint64_t(1) << it->first)) {
        vector ^= it->second.first;
        combo ^= it->second.second;
      }
    }
  }

  std::map<int, std::pair<uint64_t, uint64_t>> rows_;
};

std::vector<uint64_t> packAll(const CoordPacker &packer,
                              const BasisList &bases) {
  std::vector<uint64_t> packed;
  for (const std::vector<int64_t> &basis : bases)
    packed.push_back(packer.pack(basis));
  return packed;
}

} // namespace

bool WarpShufflePlan::isIdentityLaneMap() const {
  for (size_t i = 0; i < laneMap.size(); ++i)
    if (laneMap[i] != (int64_t(1) << i))
      return false;
  return true;
}

int64_t WarpShufflePlan::srcLane(int64_t reg, int64_t lane) const {
  int64_t result = laneXor[reg];
  for (size_t i = 0; i < laneMap.size(); ++i)
    if (lane & (int64_t(1) << i))
      result ^= laneMap[i];
  return result;
}

int64_t WarpShufflePlan::numShuffles(const LinearLayout &dst) const {
  std::map<std::vector<int64_t>, int64_t> seen;
  int64_t count = 0;
  for (int64_t reg = 0; reg < static_cast<int64_t>(srcRegister.size()); ++reg) {
    if (!seen.emplace(dst.apply(reg, 0, 0), reg).second)
      continue; // a duplicate of an earlier register: copied, not shuffled
    if (!isLocal(reg))
      ++count;
  }
  return count;
}

std::optional<WarpShufflePlan> planWarpShuffle(const LinearLayout &src,
                                               const LinearLayout &dst) {
  if (src.shape() != dst.shape())
    return std::nullopt;
  if (src.bases(HwDim::Warp) != dst.bases(HwDim::Warp))
    return std::nullopt; // some element changes warps
  if (src.numBases(HwDim::Lane) != dst.numBases(HwDim::Lane))
    return std::nullopt;
  CoordPacker packer(src.shape());
  std::vector<uint64_t> srcRegs = packAll(packer, src.bases(HwDim::Register));
  std::vector<uint64_t> srcLanes = packAll(packer, src.bases(HwDim::Lane));
  int numRegBits = static_cast<int>(srcRegs.size());
  if (numRegBits + srcLanes.size() > 64)
    return std::nullopt;

  WarpShufflePlan plan;
  // Destination lane bases, from source lane bases alone.
  Span laneSpan(srcLanes);
  for (const std::vector<int64_t> &basis : dst.bases(HwDim::Lane)) {
    std::optional<uint64_t> lanes = laneSpan.solve(packer.pack(basis));
    if (!lanes)
      return std::nullopt;
    plan.laneMap.push_back(static_cast<int64_t>(*lanes));
  }

  // Destination registers: from a source register of the same lane when
  // possible, else from a register and a constant lane offset.
  Span regSpan(srcRegs);
  std::vector<uint64_t> both = srcRegs;
  both.insert(both.end(), srcLanes.begin(), srcLanes.end());
  Span regLaneSpan(both);
  uint64_t regMask = (uint64_t(1) << numRegBits) - 1;
  for (int64_t reg = 0; reg < dst.elemsPerThread(); ++reg) {
    uint64_t target = packer.pack(dst.apply(reg, 0, 0));
    std::optional<uint64_t> combo = regSpan.solve(target);
    if (!combo)
      combo = regLaneSpan.solve(target);
    if (!combo)
      return std::nullopt;
    plan.srcRegister.push_back(static_cast<int64_t>(*combo & regMask));
    plan.laneXor.push_back(static_cast<int64_t>(*combo >> numRegBits));
  }
  return plan;
}

} // namespace layout
} // namespace tritium
