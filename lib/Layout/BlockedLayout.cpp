//===- BlockedLayout.cpp - Blocked and slice layouts ----------------------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// Verification of blocked-layout parameters and their conversion (and the
// conversion of slices of them) to LinearLayout.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/BlockedLayout.h"

#include <algorithm>
#include <cassert>

namespace tritium {
namespace layout {

namespace {

int64_t product(const std::vector<int64_t> &values) {
  int64_t result = 1;
  for (int64_t v : values)
    result *= v;
  return result;
}

/// Appends to `out` the bases of one hierarchy level: for each dimension d in
/// `order`, log2(count[d]) bases stepping by stride[d], 2*stride[d], ...
void appendLevel(BasisList &out, const std::vector<int64_t> &count,
                 const std::vector<int64_t> &stride,
                 const std::vector<int64_t> &order) {
  int64_t rank = static_cast<int64_t>(count.size());
  for (int64_t d : order)
    for (int64_t step = 1; step < count[d]; step *= 2)
      out.push_back(unitBasis(rank, static_cast<int>(d), stride[d] * step));
}

} // namespace

std::optional<std::string> verifyBlocked(const BlockedSpec &spec,
                                         int64_t expectedThreadsPerWarp,
                                         int64_t expectedNumWarps) {
  size_t rank = spec.sizePerThread.size();
  if (rank == 0)
    return std::string("blocked layout must have rank at least 1");
  if (spec.threadsPerWarp.size() != rank || spec.warpsPerCTA.size() != rank ||
      spec.order.size() != rank)
    return "sizePerThread, threadsPerWarp, warpsPerCTA and order must have "
           "the same rank (got " +
           std::to_string(rank) + ", " +
           std::to_string(spec.threadsPerWarp.size()) + ", " +
           std::to_string(spec.warpsPerCTA.size()) + ", " +
           std::to_string(spec.order.size()) + ")";
  if (auto err = checkPowersOfTwo("sizePerThread", spec.sizePerThread))
    return err;
  if (auto err = checkPowersOfTwo("threadsPerWarp", spec.threadsPerWarp))
    return err;
  if (auto err = checkPowersOfTwo("warpsPerCTA", spec.warpsPerCTA))
    return err;
  if (auto err = checkPermutation("order", spec.order))
    return err;
  int64_t threads = product(spec.threadsPerWarp);
  if (expectedThreadsPerWarp > 0 && threads != expectedThreadsPerWarp)
    return "product of threadsPerWarp is " + std::to_string(threads) +
           ", expected " + std::to_string(expectedThreadsPerWarp);
  int64_t warps = product(spec.warpsPerCTA);
  if (expectedNumWarps > 0 && warps != expectedNumWarps)
    return "product of warpsPerCTA is " + std::to_string(warps) +
           ", expected " + std::to_string(expectedNumWarps);
  return std::nullopt;
}

std::vector<int64_t> shapePerCTATile(const BlockedSpec &spec) {
  std::vector<int64_t> tile(spec.sizePerThread.size());
  for (size_t d = 0; d < tile.size(); ++d)
    tile[d] = spec.sizePerThread[d] * spec.threadsPerWarp[d] *
              spec.warpsPerCTA[d];
  return tile;
}

std::vector<int64_t> elemsPerThreadPerDim(const BlockedSpec &spec,
                                          const std::vector<int64_t> &shape) {
  assert(shape.size() == spec.sizePerThread.size() && "rank mismatch");
  std::vector<int64_t> tile = shapePerCTATile(spec);
  std::vector<int64_t> elems(shape.size());
  for (size_t d = 0; d < shape.size(); ++d)
    elems[d] = spec.sizePerThread[d] * std::max<int64_t>(1, shape[d] / tile[d]);
  return elems;
}

LinearLayout blockedToLinear(const BlockedSpec &spec,
                             const std::vector<int64_t> &shape) {
  assert(!verifyBlocked(spec, 0, 0) && "invalid blocked layout");
  assert(shape.size() == spec.sizePerThread.size() && "rank mismatch");
  const size_t rank = shape.size();
  std::vector<int64_t> ones(rank, 1);
  std::vector<int64_t> laneStride = spec.sizePerThread;
  std::vector<int64_t> warpStride(rank);
  for (size_t d = 0; d < rank; ++d)
    warpStride[d] = spec.sizePerThread[d] * spec.threadsPerWarp[d];

  LayoutBases bases;
  BasisList &regs = bases[static_cast<int>(HwDim::Register)];
  appendLevel(regs, spec.sizePerThread, ones, spec.order);
  appendLevel(bases[static_cast<int>(HwDim::Lane)], spec.threadsPerWarp,
              laneStride, spec.order);
  appendLevel(bases[static_cast<int>(HwDim::Warp)], spec.warpsPerCTA,
              warpStride, spec.order);
  appendTileRepetitions(regs, shapePerCTATile(spec), shape, spec.order);
  return LinearLayout::wrapped(std::move(bases), shape);
}

LinearLayout sliceToLinear(const LinearLayout &parentOnExpandedShape,
                           int dim) {
  assert(dim >= 0 && dim < parentOnExpandedShape.rank() &&
         "slice dimension out of range");
  assert(parentOnExpandedShape.shape()[dim] == 1 &&
         "the parent must be laid over a shape with 1 at the sliced dim");
  return parentOnExpandedShape.removeOutDim(dim,
                                            /*dropZeroRegisterBases=*/true);
}

LinearLayout slicedBlockedToLinear(const BlockedSpec &parent, int dim,
                                   const std::vector<int64_t> &sliceShape) {
  assert(sliceShape.size() + 1 == parent.sizePerThread.size() &&
         "slice shape must have the parent's rank minus one");
  assert(dim >= 0 && dim <= static_cast<int>(sliceShape.size()) &&
         "slice dimension out of range");
  std::vector<int64_t> expanded = sliceShape;
  expanded.insert(expanded.begin() + dim, 1);
  return sliceToLinear(blockedToLinear(parent, expanded), dim);
}

} // namespace layout
} // namespace tritium
