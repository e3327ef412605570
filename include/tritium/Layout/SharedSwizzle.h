//===- SharedSwizzle.h - XOR swizzling of shared-memory tiles ---*- C++ -*-===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// Shared-memory tiles are stored with their contiguous dimension (order[0])
// permuted per row to avoid bank conflicts.  Groups of `vec` contiguous
// elements stay together; the group index is XORed with a per-row phase:
//
//   phase         = (row / perPhase) % maxPhase
//   swizzled col  = ((col / vec) ^ phase) * vec + col % vec
//   offset        = row * rowLength + swizzled col
//
// where col is the coordinate along order[0] and row along order[1].  When
// a row is narrower than vec * maxPhase, the phase is reduced modulo the
// number of vec-groups in the row so that each row stays a permutation.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_LAYOUT_SHAREDSWIZZLE_H
#define TRITIUM_LAYOUT_SHAREDSWIZZLE_H

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tritium {
namespace layout {

/// Parameters of a swizzled shared-memory layout.  order[0] is the
/// contiguous dimension, order[1] the row dimension, further entries are
/// outer (batch) dimensions from fastest to slowest.
struct SwizzleSpec {
  int64_t vec = 1;
  int64_t perPhase = 1;
  int64_t maxPhase = 1;
  std::vector<int64_t> order;
};

/// Checks a swizzle spec: vec, perPhase and maxPhase positive powers of two,
/// `order` a permutation of 0..r-1 (r >= 1).
std::optional<std::string> verifySwizzle(const SwizzleSpec &spec);

/// The swizzled position of column `col` in row `row` of a row holding
/// `rowLength` elements (a power of two).
int64_t swizzledColumn(const SwizzleSpec &spec, int64_t row, int64_t col,
                       int64_t rowLength);

/// The element offset of `coord` in a tile of `shape` (rank >= 1).  The
/// two innermost dimensions (order[0], order[1]) are swizzled; outer
/// dimensions are plain batches of whole tiles, order[2] the fastest (for
/// the default descending order this is row-major).
int64_t swizzledOffset(const SwizzleSpec &spec,
                       const std::vector<int64_t> &shape,
                       const std::vector<int64_t> &coord);

/// swizzledOffset for many coordinates of one tile: the spec's divisions
/// and remainders (all by powers of two) turned into shifts and masks once.
/// The bank-conflict search (BankConflicts.h) takes every access of every
/// candidate tile through it.
class SwizzledTile {
public:
  SwizzledTile(const SwizzleSpec &spec, const std::vector<int64_t> &shape);
  /// The element offset of `coord`, as swizzledOffset gives it.
  int64_t offset(const std::vector<int64_t> &coord) const;
  /// The swizzled position of column `col` in row `row`.
  int64_t column(int64_t row, int64_t col) const;

private:
  int64_t colDim, rowDim = -1, rowLength;
  int vecShift, phaseShift;
  int64_t phaseMask; // -1: a single vec-group a row, nothing permuted
  std::vector<std::pair<int64_t, int64_t>> outer; // (dimension, stride)
};

/// For each (row, col) of a rows x cols tile, the swizzled column.
std::vector<std::vector<int64_t>> swizzleTable(const SwizzleSpec &spec,
                                               int64_t rows, int64_t cols);

} // namespace layout
} // namespace tritium

#endif // TRITIUM_LAYOUT_SHAREDSWIZZLE_H
