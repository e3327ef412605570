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

#include <algorithm>
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

namespace {

/// A GF(2) matrix by columns: column j is the image of input bit j.
using BitMatrix = std::vector<uint64_t>;

uint64_t applyBits(const BitMatrix &m, uint64_t x) {
  uint64_t y = 0;
  for (size_t j = 0; j < m.size(); ++j)
    if (x & (uint64_t(1) << j))
      y ^= m[j];
  return y;
}

BitMatrix multiply(const BitMatrix &x, const BitMatrix &y) {
  BitMatrix product;
  for (uint64_t column : y)
    product.push_back(applyBits(x, column));
  return product;
}

BitMatrix add(BitMatrix x, const BitMatrix &y) {
  for (size_t j = 0; j < x.size(); ++j)
    x[j] ^= y[j];
  return x;
}

/// The inverse of square `m` (n columns of n bits), or nullopt.
std::optional<BitMatrix> inverse(const BitMatrix &m) {
  Span span(m);
  BitMatrix inv;
  for (size_t j = 0; j < m.size(); ++j) {
    std::optional<uint64_t> column = span.solve(uint64_t(1) << j);
    if (!column)
      return std::nullopt;
    inv.push_back(*column);
  }
  return inv;
}

int rankOf(const std::vector<uint64_t> &vectors) {
  std::vector<uint64_t> rows;
  for (uint64_t v : vectors) {
    for (uint64_t r : rows)
      if ((v ^ r) < v)
        v ^= r;
    if (v) {
      rows.push_back(v);
      std::sort(rows.rbegin(), rows.rend());
    }
  }
  return static_cast<int>(rows.size());
}

std::vector<int64_t> toInt64(const BitMatrix &m) {
  return std::vector<int64_t>(m.begin(), m.end());
}

/// The most candidate maps M the plan tries.
constexpr int64_t kMaxTransferCandidates = int64_t(1) << 20;

} // namespace

int64_t WarpTransferPlan::sentRegister(int64_t k, int64_t lane) const {
  return k ^ static_cast<int64_t>(applyBits(
                 BitMatrix(sendRegisterOfLane.begin(), sendRegisterOfLane.end()), lane));
}

int64_t WarpTransferPlan::srcLane(int64_t k, int64_t lane) const {
  return static_cast<int64_t>(
      applyBits(BitMatrix(srcLaneOfLane.begin(), srcLaneOfLane.end()), lane) ^
      applyBits(BitMatrix(srcLaneOfShuffle.begin(), srcLaneOfShuffle.end()), k));
}

int64_t WarpTransferPlan::dstRegister(int64_t k, int64_t lane) const {
  return static_cast<int64_t>(
      applyBits(BitMatrix(dstRegisterOfShuffle.begin(), dstRegisterOfShuffle.end()), k) ^
      applyBits(BitMatrix(dstRegisterOfLane.begin(), dstRegisterOfLane.end()), lane));
}

int64_t WarpTransferPlan::keptShuffle(int64_t reg, int64_t lane) const {
  return static_cast<int64_t>(
      applyBits(BitMatrix(shuffleOfDstRegister.begin(), shuffleOfDstRegister.end()), reg) ^
      applyBits(BitMatrix(shuffleOfLane.begin(), shuffleOfLane.end()), lane));
}

int64_t WarpTransferPlan::sendChoices() const {
  return int64_t(1) << rankOf({sendRegisterOfLane.begin(), sendRegisterOfLane.end()});
}

int64_t WarpTransferPlan::keepChoices() const {
  return int64_t(1) << rankOf({dstRegisterOfLane.begin(), dstRegisterOfLane.end()});
}

std::optional<WarpTransferPlan> planWarpTransfer(const LinearLayout &src,
                                                 const LinearLayout &dst) {
  if (src.shape() != dst.shape() ||
      src.bases(HwDim::Warp) != dst.bases(HwDim::Warp) ||
      src.numBases(HwDim::Register) != dst.numBases(HwDim::Register) ||
      src.numBases(HwDim::Lane) != dst.numBases(HwDim::Lane))
    return std::nullopt;
  CoordPacker packer(src.shape());
  std::vector<uint64_t> srcRegs = packAll(packer, src.bases(HwDim::Register));
  std::vector<uint64_t> srcLanes = packAll(packer, src.bases(HwDim::Lane));
  std::vector<uint64_t> dstRegs = packAll(packer, dst.bases(HwDim::Register));
  std::vector<uint64_t> dstLanes = packAll(packer, dst.bases(HwDim::Lane));
  int nR = static_cast<int>(srcRegs.size());
  int nL = static_cast<int>(srcLanes.size());
  if (nR + nL > 24)
    return std::nullopt;
  std::vector<uint64_t> srcBoth = srcRegs, dstBoth = dstRegs;
  srcBoth.insert(srcBoth.end(), srcLanes.begin(), srcLanes.end());
  dstBoth.insert(dstBoth.end(), dstLanes.begin(), dstLanes.end());
  // Both bijections within a warp: no zero or repeated bases.
  if (rankOf(srcBoth) != nR + nL || rankOf(dstBoth) != nR + nL)
    return std::nullopt;

  // T's blocks: a destination basis as source register and lane bits.
  Span span(srcBoth);
  uint64_t regMask = (uint64_t(1) << nR) - 1;
  BitMatrix A, B, C, D;
  for (uint64_t basis : dstRegs) {
    std::optional<uint64_t> combo = span.solve(basis);
    if (!combo)
      return std::nullopt; // the warps hold different elements
    A.push_back(*combo & regMask);
    C.push_back(*combo >> nR);
  }
  for (uint64_t basis : dstLanes) {
    std::optional<uint64_t> combo = span.solve(basis);
    if (!combo)
      return std::nullopt;
    B.push_back(*combo & regMask);
    D.push_back(*combo >> nR);
  }

  // M: of rank d = nR - rank(A), the least that can make A + M C
  // invertible, built as d rank-one maps v * phi with phi a functional on
  // span(C) (written on a basis of it, extended to the lane space).
  int deficiency = nR - rankOf(A);
  std::vector<uint64_t> cBasis;
  for (uint64_t c : C) {
    std::vector<uint64_t> extended = cBasis;
    extended.push_back(c);
    if (rankOf(extended) > static_cast<int>(cBasis.size()))
      cBasis = extended;
  }
  int q = static_cast<int>(cBasis.size());
  if (deficiency > q)
    return std::nullopt;
  // Coordinates of each lane unit vector over cBasis + completing units.
  std::vector<uint64_t> laneBasis = cBasis;
  for (int i = 0; i < nL && static_cast<int>(laneBasis.size()) < nL; ++i) {
    auto extended = laneBasis;
    extended.push_back(uint64_t(1) << i);
    if (rankOf(extended) > static_cast<int>(laneBasis.size()))
      laneBasis = extended;
  }
  Span laneSpan(laneBasis);
  std::vector<uint64_t> unitCoords; // bits < q: the cBasis components
  for (int i = 0; i < nL; ++i)
    unitCoords.push_back(*laneSpan.solve(uint64_t(1) << i) & ((uint64_t(1) << q) - 1));

  int64_t candidates = 1;
  for (int t = 0; t < deficiency; ++t) {
    candidates *= (int64_t(1) << q) * (int64_t(1) << nR);
    if (candidates > kMaxTransferCandidates)
      return std::nullopt;
  }
  std::optional<BitMatrix> found;
  for (int64_t choice = 0; choice < candidates && !found; ++choice) {
    // Term t: functional phi_t (q bits) and vector v_t (nR bits).
    BitMatrix M(nL, 0);
    int64_t rest = choice;
    for (int t = 0; t < deficiency; ++t) {
      uint64_t phi = rest & ((int64_t(1) << q) - 1);
      rest >>= q;
      uint64_t v = rest & ((int64_t(1) << nR) - 1);
      rest >>= nR;
      for (int i = 0; i < nL; ++i)
        if (__builtin_parityll(unitCoords[i] & phi))
          M[i] ^= v;
    }
    if (inverse(add(A, multiply(M, C))))
      found = M;
  }
  if (!found)
    return std::nullopt;
  const BitMatrix &M = *found;
  BitMatrix R = *inverse(add(A, multiply(M, C)));
  BitMatrix N = multiply(R, add(B, multiply(M, D)));
  BitMatrix P = add(multiply(C, N), D);
  BitMatrix Q = multiply(C, R);

  WarpTransferPlan plan;
  plan.numRegisterBits = nR;
  plan.numLaneBits = nL;
  plan.numTradedBits = deficiency;
  plan.sendRegisterOfLane = toInt64(M);
  plan.srcLaneOfLane = toInt64(P);
  plan.srcLaneOfShuffle = toInt64(Q);
  plan.dstRegisterOfShuffle = toInt64(R);
  plan.dstRegisterOfLane = toInt64(N);
  BitMatrix inverseR = *inverse(R);
  plan.shuffleOfDstRegister = toInt64(inverseR);
  plan.shuffleOfLane = toInt64(multiply(inverseR, N));
  return plan;
}

int64_t WordConversion::originalRegister(int64_t word, int64_t element,
                                         const std::vector<int> &bits) {
  // Insert a zero at each chosen position, lowest first, then set the
  // element's bits there.
  std::vector<int> sorted = bits;
  std::sort(sorted.begin(), sorted.end());
  int64_t reg = word;
  for (int bit : sorted) {
    int64_t low = reg & ((int64_t(1) << bit) - 1);
    reg = ((reg >> bit) << (bit + 1)) | low;
  }
  for (size_t b = 0; b < bits.size(); ++b)
    if (element & (int64_t(1) << b))
      reg |= int64_t(1) << bits[b];
  return reg;
}

std::optional<WordConversion> planWordConversion(const LinearLayout &src,
                                                 const LinearLayout &dst,
                                                 int maxBits) {
  if (src.shape() != dst.shape() || maxBits <= 0)
    return std::nullopt;
  const BasisList &srcRegs = src.bases(HwDim::Register);
  const BasisList &dstRegs = dst.bases(HwDim::Register);
  // The single coordinate bit of a basis: (dimension, value), or nullopt.
  auto singleBit =
      [](const std::vector<int64_t> &basis) -> std::optional<std::pair<int, int64_t>> {
    std::optional<std::pair<int, int64_t>> found;
    for (size_t d = 0; d < basis.size(); ++d) {
      if (basis[d] == 0)
        continue;
      if (found || !isPowerOf2(basis[d]))
        return std::nullopt;
      found = std::make_pair(static_cast<int>(d), basis[d]);
    }
    return found;
  };
  // How many bases of either layout touch coordinate bit (d, value).
  auto touching = [&](int d, int64_t value) {
    int count = 0;
    for (const LinearLayout *layout : {&src, &dst})
      for (int hw = 0; hw < kNumHwDims; ++hw)
        for (const std::vector<int64_t> &basis : layout->bases(HwDim(hw)))
          count += (basis[d] & value) != 0;
    return count;
  };
  WordConversion plan{src, dst, {}, {}};
  std::vector<std::pair<int, int64_t>> removed;
  for (int j = 0; j < static_cast<int>(dstRegs.size()) &&
                  static_cast<int>(plan.dstBits.size()) < maxBits;
       ++j) {
    std::optional<std::pair<int, int64_t>> bit = singleBit(dstRegs[j]);
    if (!bit || touching(bit->first, bit->second) != 2)
      continue;
    auto same = std::find(srcRegs.begin(), srcRegs.end(), dstRegs[j]);
    if (same == srcRegs.end())
      continue;
    plan.srcBits.push_back(static_cast<int>(same - srcRegs.begin()));
    plan.dstBits.push_back(j);
    removed.push_back(*bit);
  }
  if (plan.dstBits.empty())
    return std::nullopt;
  // The layouts of words: the chosen register bases go, and each chosen
  // coordinate bit leaves its dimension (higher bits move down).
  auto quotient = [&](const LinearLayout &layout,
                      const std::vector<int> &chosen) {
    std::vector<int64_t> shape = layout.shape();
    LayoutBases bases;
    for (int hw = 0; hw < kNumHwDims; ++hw) {
      const BasisList &list = layout.bases(HwDim(hw));
      for (int i = 0; i < static_cast<int>(list.size()); ++i) {
        if (hw == static_cast<int>(HwDim::Register) &&
            std::find(chosen.begin(), chosen.end(), i) != chosen.end())
          continue;
        bases[hw].push_back(list[i]);
      }
    }
    // Remove the chosen coordinate bits, highest first per dimension.
    std::vector<std::pair<int, int64_t>> order = removed;
    std::sort(order.begin(), order.end(),
              [](auto a, auto b) { return a.second > b.second; });
    for (auto [d, value] : order) {
      for (BasisList &list : bases)
        for (std::vector<int64_t> &basis : list) {
          int64_t low = basis[d] & (value - 1);
          basis[d] = ((basis[d] >> 1) & ~(value - 1)) | low;
        }
      shape[d] /= 2;
    }
    return LinearLayout(std::move(bases), std::move(shape));
  };
  plan.src = quotient(src, plan.srcBits);
  plan.dst = quotient(dst, plan.dstBits);
  return plan;
}

} // namespace layout
} // namespace tritium
