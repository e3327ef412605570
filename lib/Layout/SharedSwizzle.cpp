//===- SharedSwizzle.cpp - XOR swizzling of shared-memory tiles -----------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// Offset computation and parameter checks for swizzled shared-memory tiles.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/SharedSwizzle.h"

#include "tritium/Layout/LinearLayout.h"

#include <algorithm>
#include <cassert>

namespace tritium {
namespace layout {

std::optional<std::string> verifySwizzle(const SwizzleSpec &spec) {
  if (!isPowerOf2(spec.vec))
    return "vec is " + std::to_string(spec.vec) +
           ", expected a positive power of two";
  if (!isPowerOf2(spec.perPhase))
    return "perPhase is " + std::to_string(spec.perPhase) +
           ", expected a positive power of two";
  if (!isPowerOf2(spec.maxPhase))
    return "maxPhase is " + std::to_string(spec.maxPhase) +
           ", expected a positive power of two";
  if (spec.order.empty())
    return std::string("order must have rank at least 1");
  return checkPermutation("order", spec.order);
}

namespace {
int log2Of(int64_t powerOfTwo) {
  return __builtin_ctzll(static_cast<unsigned long long>(powerOfTwo));
}
} // namespace

SwizzledTile::SwizzledTile(const SwizzleSpec &spec,
                           const std::vector<int64_t> &shape)
    : colDim(spec.order[0]), rowLength(shape[spec.order[0]]),
      vecShift(log2Of(spec.vec)), phaseShift(log2Of(spec.perPhase)) {
  assert(!verifySwizzle(spec) && "invalid swizzle spec");
  assert(shape.size() == spec.order.size() && "rank mismatch");
  assert(isPowerOf2(rowLength) && "row length must be a power of two");
  // (row / perPhase) % maxPhase % groupsPerRow, the divisions by powers of
  // two: a shift and one mask.
  int64_t groupsPerRow = rowLength >> vecShift;
  phaseMask = groupsPerRow <= 1 ? -1 : std::min(spec.maxPhase, groupsPerRow) - 1;
  if (shape.size() < 2)
    return;
  rowDim = spec.order[1];
  // Outer dimensions: whole tiles laid out one after another.
  int64_t stride = shape[rowDim] * rowLength;
  for (size_t i = 2; i < shape.size(); ++i) {
    outer.push_back({spec.order[i], stride});
    stride *= shape[spec.order[i]];
  }
}

int64_t SwizzledTile::column(int64_t row, int64_t col) const {
  assert(row >= 0 && col >= 0 && col < rowLength && "coordinate out of range");
  if (phaseMask < 0)
    return col; // A single vec-group per row: nothing to permute.
  int64_t phase = (row >> phaseShift) & phaseMask;
  int64_t vecMask = (int64_t(1) << vecShift) - 1;
  return (((col >> vecShift) ^ phase) << vecShift) | (col & vecMask);
}

int64_t SwizzledTile::offset(const std::vector<int64_t> &coord) const {
  if (rowDim < 0)
    return column(/*row=*/0, coord[colDim]);
  int64_t row = coord[rowDim];
  int64_t result = row * rowLength + column(row, coord[colDim]);
  for (auto [dim, stride] : outer)
    result += coord[dim] * stride;
  return result;
}

int64_t swizzledColumn(const SwizzleSpec &spec, int64_t row, int64_t col,
                       int64_t rowLength) {
  SwizzleSpec rowSpec = spec;
  rowSpec.order = {0};
  return SwizzledTile(rowSpec, {rowLength}).column(row, col);
}

int64_t swizzledOffset(const SwizzleSpec &spec,
                       const std::vector<int64_t> &shape,
                       const std::vector<int64_t> &coord) {
  assert(coord.size() == shape.size() && "rank mismatch");
  return SwizzledTile(spec, shape).offset(coord);
}

std::vector<std::vector<int64_t>> swizzleTable(const SwizzleSpec &spec,
                                               int64_t rows, int64_t cols) {
  std::vector<std::vector<int64_t>> table(
      static_cast<size_t>(rows),
      std::vector<int64_t>(static_cast<size_t>(cols)));
  for (int64_t row = 0; row < rows; ++row)
    for (int64_t col = 0; col < cols; ++col)
      table[row][col] = swizzledColumn(spec, row, col, cols);
  return table;
}

} // namespace layout
} // namespace tritium
