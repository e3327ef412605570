//===- BlockedLayout.h - Blocked and slice layouts --------------*- C++ -*-===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// The blocked layout is the default distributed layout: each thread owns a
// small contiguous block (sizePerThread), threads of a warp tile a larger
// block (threadsPerWarp), warps tile the CTA tile (warpsPerCTA), and the CTA
// tile repeats over the tensor.  `order` lists dimensions from fastest- to
// slowest-varying and decides how each of these levels is linearised.
//
// A slice layout is a parent layout with one dimension removed: it is the
// layout of the result of reducing the parent along that dimension.
//
// Both are converted to LinearLayout, which answers every question about
// who holds which element.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_LAYOUT_BLOCKEDLAYOUT_H
#define TRITIUM_LAYOUT_BLOCKEDLAYOUT_H

#include "tritium/Layout/LinearLayout.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tritium {
namespace layout {

/// Parameters of a blocked layout; all four vectors have one entry per
/// tensor dimension.  order[0] is the fastest-varying dimension.
struct BlockedSpec {
  std::vector<int64_t> sizePerThread;
  std::vector<int64_t> threadsPerWarp;
  std::vector<int64_t> warpsPerCTA;
  std::vector<int64_t> order;
};

/// Checks a blocked spec: equal non-zero ranks, positive power-of-two
/// entries, `order` a permutation, and (when the expected value is > 0)
/// product(threadsPerWarp) == expectedThreadsPerWarp and
/// product(warpsPerCTA) == expectedNumWarps.  Returns an error message, or
/// std::nullopt if the spec is valid.
std::optional<std::string> verifyBlocked(const BlockedSpec &spec,
                                         int64_t expectedThreadsPerWarp,
                                         int64_t expectedNumWarps);

/// The extent of one CTA tile: sizePerThread * threadsPerWarp * warpsPerCTA
/// per dimension.
std::vector<int64_t> shapePerCTATile(const BlockedSpec &spec);

/// Number of elements each thread holds along each dimension:
/// sizePerThread[d] * max(1, shape[d] / shapePerCTATile[d]).
std::vector<int64_t> elemsPerThreadPerDim(const BlockedSpec &spec,
                                          const std::vector<int64_t> &shape);

/// The blocked layout over a tensor of `shape` as a LinearLayout.  Register
/// bases first cover sizePerThread, then lane bases threadsPerWarp, then warp
/// bases warpsPerCTA, then further register bases repeat the CTA tile over
/// the tensor; within each level dimensions are taken in `order`.  Bases
/// that fall outside the tensor wrap around (become zero: broadcast).
LinearLayout blockedToLinear(const BlockedSpec &spec,
                             const std::vector<int64_t> &shape);

/// The slice of a parent layout along `dim`.  `parentOnExpandedShape` is the
/// parent laid over the slice's shape with a 1 inserted at `dim`; the result
/// drops output dimension `dim` and the register bases that became zero.
/// Zero lane/warp bases are kept: those threads hold the same elements.
LinearLayout sliceToLinear(const LinearLayout &parentOnExpandedShape, int dim);

/// Convenience: the slice along `dim` of the blocked layout `parent`, for a
/// sliced tensor of shape `sliceShape` (rank of parent minus one).
LinearLayout slicedBlockedToLinear(const BlockedSpec &parent, int dim,
                                   const std::vector<int64_t> &sliceShape);

} // namespace layout
} // namespace tritium

#endif // TRITIUM_LAYOUT_BLOCKEDLAYOUT_H
