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

int64_t swizzledColumn(const SwizzleSpec &spec, int64_t row, int64_t col,
                       int64_t rowLength) {
  assert(!verifySwizzle(spec) && "invalid swizzle spec");
  assert(isPowerOf2(rowLength) && "row length must be a power of two");
  assert(row >= 0 && col >= 0 && col < rowLength && "coordinate out of range");
  int64_t groupsPerRow = rowLength / spec.vec;
  if (groupsPerRow <= 1)
    return col; // A single vec-group per row: nothing to permute.
  int64_t phase = (row / spec.perPhase) % spec.maxPhase % groupsPerRow;
  return ((col / spec.vec) ^ phase) * spec.vec + col % spec.vec;
}

int64_t swizzledOffset(const SwizzleSpec &spec,
                       const std::vector<int64_t> &shape,
                       const std::vector<int64_t> &coord) {
  assert(!verifySwizzle(spec) && "invalid swizzle spec");
  assert(shape.size() == spec.order.size() && coord.size() == shape.size() &&
         "rank mismatch");
  const size_t rank = shape.size();
  const int64_t colDim = spec.order[0];
  const int64_t rowLength = shape[colDim];
  if (rank == 1)
    return swizzledColumn(spec, /*row=*/0, coord[colDim], rowLength);

  const int64_t rowDim = spec.order[1];
  const int64_t row = coord[rowDim];
  int64_t offset = row * rowLength +
                   swizzledColumn(spec, row, coord[colDim], rowLength);
  // Outer dimensions: whole tiles laid out one after another.
  int64_t stride = shape[rowDim] * rowLength;
  for (size_t i = 2; i < rank; ++i) {
    int64_t d = spec.order[i];
    offset += coord[d] * stride;
    stride *= shape[d];
  }
  return offset;
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
