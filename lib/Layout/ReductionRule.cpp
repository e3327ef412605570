//===- ReductionRule.cpp - Layouts tt.reduce folds directly ---------------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/ReductionRule.h"

#include <vector>

namespace tritium {
namespace layout {
namespace {

/// Coordinates packed into bit vectors: dimension d takes log2(shape[d])
/// bits, the axis's bits marked in `axisMask`.
struct PackedSpace {
  PackedSpace(const std::vector<int64_t> &shape, int axis) {
    int offset = 0;
    for (size_t d = 0; d < shape.size(); ++d) {
      offsets.push_back(offset);
      int bits = log2Exact(shape[d]);
      if (static_cast<int>(d) == axis)
        axisMask = ((uint64_t(1) << bits) - 1) << offset;
      offset += bits;
    }
  }
  uint64_t pack(const std::vector<int64_t> &coord) const {
    uint64_t bits = 0;
    for (size_t d = 0; d < coord.size(); ++d)
      bits |= uint64_t(coord[d]) << offsets[d];
    return bits;
  }
  std::vector<int> offsets;
  uint64_t axisMask = 0;
};

/// A GF(2) row echelon basis, built incrementally.  Each row's pivot is its
/// highest bit among `priority`, or its highest bit when it has none there,
/// so the rows without `priority` bits span exactly the vectors of the span
/// that have none.
class EchelonBasis {
public:
  explicit EchelonBasis(uint64_t priority = ~uint64_t(0)) : priority(priority) {}

  /// Reduces `v`; returns true (and keeps it) when it was independent.
  bool add(uint64_t v) {
    v = reduce(v);
    if (v == 0)
      return false;
    rows.push_back(v);
    return true;
  }
  uint64_t reduce(uint64_t v) const {
    for (uint64_t row : rows)
      if (v & pivotOf(row))
        v ^= row;
    return v;
  }
  int rank() const { return static_cast<int>(rows.size()); }
  /// The rows with no bits of `priority`: a basis of the span's
  /// intersection with the vectors that have none of those bits.
  std::vector<uint64_t> rowsOutsidePriority() const {
    std::vector<uint64_t> out;
    for (uint64_t row : rows)
      if ((row & priority) == 0)
        out.push_back(row);
    return out;
  }

private:
  uint64_t pivotOf(uint64_t row) const {
    uint64_t high = row & priority ? row & priority : row;
    return uint64_t(1) << (63 - __builtin_clzll(high));
  }
  uint64_t priority;
  std::vector<uint64_t> rows;
};

} // namespace

std::string reductionLayoutProblem(const LinearLayout &layout, int axis) {
  PackedSpace space(layout.shape(), axis);
  uint64_t offAxis = ~space.axisMask;
  // Lane and warp bases: along the axis only, or across it only.
  std::vector<uint64_t> along;
  for (HwDim dim : {HwDim::Lane, HwDim::Warp})
    for (const std::vector<int64_t> &basis : layout.bases(dim)) {
      uint64_t v = space.pack(basis);
      if ((v & space.axisMask) && (v & offAxis))
        return std::string("a ") + (dim == HwDim::Lane ? "lane" : "warp") +
               " basis " + formatVector(basis) +
               " moves along the reduction axis and across it";
      if (v & space.axisMask)
        along.push_back(v);
    }
  // U: the register images with no bits off the axis.  Eliminating on the
  // off-axis bits first leaves those as the rows without such bits.
  EchelonBasis registers(offAxis);
  for (const std::vector<int64_t> &basis : layout.bases(HwDim::Register))
    registers.add(space.pack(basis));
  std::vector<uint64_t> inThread = registers.rowsOutsidePriority();
  // dim(image(L) ∩ ker(P)) = rank(L) - rank(P L).
  EchelonBasis all, projected;
  for (int hw = 0; hw < kNumHwDims; ++hw)
    for (const std::vector<int64_t> &basis :
         layout.bases(static_cast<HwDim>(hw))) {
      uint64_t v = space.pack(basis);
      all.add(v);
      projected.add(v & offAxis);
    }
  int alongDimension = all.rank() - projected.rank();
  EchelonBasis combined;
  for (uint64_t v : inThread)
    combined.add(v);
  for (uint64_t v : along)
    if (!combined.add(v))
      return "two lane or warp bases along the reduction axis, or one and "
             "a thread's registers, reach the same elements";
  if (combined.rank() != alongDimension)
    return "elements of one result are held by threads the reduction does "
           "not combine (bases that move along the axis only in "
           "combination)";
  return "";
}

} // namespace layout
} // namespace tritium
