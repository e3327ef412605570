//===- TmaTile.cpp - How the copy engine moves one descriptor tile --------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// The layout and boxes of a descriptor tile (see TmaTile.h).
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/TmaTile.h"

#include <algorithm>
#include <cassert>

namespace tritium {
namespace layout {

namespace {
constexpr int64_t kMaxBoxDim = 256;

bool isPowerOf2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }
} // namespace

std::optional<std::string> whyNotTmaTile(const std::vector<int64_t> &shape,
                                         int64_t elementBits) {
  if (shape.empty() || shape.size() > 5)
    return "a tensor map has rank 1 to 5, the block has rank " +
           std::to_string(shape.size());
  if (elementBits != 8 && elementBits != 16 && elementBits != 32 &&
      elementBits != 64)
    return "the copy engine moves 8, 16, 32 or 64-bit elements, not " +
           std::to_string(elementBits) + "-bit ones";
  for (int64_t size : shape)
    if (!isPowerOf2(size))
      return "block sizes must be powers of two, got " + std::to_string(size);
  int64_t innerBytes = shape.back() * elementBits / 8;
  if (innerBytes % 16 != 0)
    return "the innermost block dimension is " + std::to_string(innerBytes) +
           " bytes; the copy engine needs a multiple of 16";
  if (chooseTmaSwizzle(shape, elementBits) != 0)
    return std::nullopt; // slabs and row chunks: any power-of-two size
  if (shape.size() > 1 && shape.back() > kMaxBoxDim)
    return "the innermost block dimension is " + std::to_string(shape.back()) +
           " elements; an unswizzled box holds at most 256";
  for (size_t d = 1; d + 1 < shape.size(); ++d)
    if (shape[d] > kMaxBoxDim)
      return "block dimension " + std::to_string(d) + " is " +
             std::to_string(shape[d]) +
             " elements; a box dimension holds at most 256 (only the "
             "outermost may be larger)";
  return std::nullopt;
}

int64_t chooseTmaSwizzle(const std::vector<int64_t> &shape,
                         int64_t elementBits) {
  if (shape.size() != 2 || elementBits > 32 || shape[0] % 8 != 0)
    return 0;
  int64_t rowBytes = shape[1] * elementBits / 8;
  if (rowBytes < 32)
    return 0;
  return std::min<int64_t>(128, rowBytes);
}

TmaTilePlan planTmaTile(const std::vector<int64_t> &shape, int64_t elementBits,
                        int64_t swizzleBytes) {
  assert(!whyNotTmaTile(shape, elementBits) && "not a TMA tile");
  TmaTilePlan plan;
  plan.swizzleBytes = swizzleBytes;
  int64_t elementBytes = elementBits / 8;
  plan.tileBytes = elementBytes;
  for (int64_t size : shape)
    plan.tileBytes *= size;
  if (swizzleBytes != 0) {
    int64_t rows = shape[0], perSlab = swizzleBytes / elementBytes;
    int64_t boxRows = std::min(rows, kMaxBoxDim);
    plan.box = {boxRows, perSlab};
    for (int64_t slab = 0; slab < shape[1] / perSlab; ++slab)
      for (int64_t row = 0; row < rows; row += boxRows)
        plan.copies.push_back({{row, slab * perSlab},
                               (slab * rows + row) * swizzleBytes});
    return plan;
  }
  plan.box = shape;
  plan.box[0] = std::min(shape[0], kMaxBoxDim);
  int64_t innerBytes = plan.tileBytes / shape[0];
  for (int64_t start = 0; start < shape[0]; start += plan.box[0]) {
    std::vector<int64_t> offset(shape.size(), 0);
    offset[0] = start;
    plan.copies.push_back({offset, start * innerBytes});
  }
  return plan;
}

} // namespace layout
} // namespace tritium
