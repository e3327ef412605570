//===- BlockedLayoutRules.cpp - choosing blocked layouts -------------------===//
//
// The default and the coalesced blocked layouts as functions of a tensor's
// shape and the launch shape (warps, lanes per warp).  See the header for
// the rules; this file is plain C++ and has no MLIR dependency.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/BlockedLayoutRules.h"

#include <algorithm>
#include <cassert>

using namespace tritium;

layout::BlockedSpec
ttg::fitBlockedLayout(const std::vector<int64_t> &shape,
                      const std::vector<int64_t> &sizePerThread,
                      const std::vector<int64_t> &order, int64_t numWarps,
                      int64_t threadsPerWarp) {
  const size_t rank = shape.size();
  assert(rank > 0 && sizePerThread.size() == rank && order.size() == rank &&
         "one entry per dimension");
  layout::BlockedSpec spec;
  spec.sizePerThread = sizePerThread;
  spec.order = order;
  spec.threadsPerWarp.assign(rank, 1);
  spec.warpsPerCTA.assign(rank, 1);

  int64_t lanesLeft = threadsPerWarp;
  int64_t warpsLeft = numWarps;
  int64_t threadsLeft = numWarps * threadsPerWarp;
  for (size_t i = 0; i + 1 < rank; ++i) {
    int64_t d = order[i];
    // Threads that find a distinct block of this dimension to work on.
    int64_t blocks = std::max<int64_t>(1, shape[d] / sizePerThread[d]);
    int64_t threads = std::clamp<int64_t>(threadsLeft, 1, blocks);
    int64_t lanes = std::min(threads, lanesLeft);
    int64_t warps = std::clamp<int64_t>(threads / lanes, 1, warpsLeft);
    spec.threadsPerWarp[d] = lanes;
    spec.warpsPerCTA[d] = warps;
    lanesLeft /= lanes;
    warpsLeft /= warps;
    threadsLeft /= threads;
  }
  // The slowest dimension absorbs whatever is left, even if that means
  // wrapping around a small tensor.
  int64_t slowest = order[rank - 1];
  spec.threadsPerWarp[slowest] = lanesLeft;
  spec.warpsPerCTA[slowest] = warpsLeft;
  return spec;
}

layout::BlockedSpec ttg::defaultBlockedLayout(const std::vector<int64_t> &shape,
                                              int64_t numWarps,
                                              int64_t threadsPerWarp) {
  std::vector<int64_t> order(shape.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = static_cast<int64_t>(order.size() - 1 - i);
  return fitBlockedLayout(shape, std::vector<int64_t>(shape.size(), 1), order,
                          numWarps, threadsPerWarp);
}

layout::BlockedSpec ttg::dotBlockedLayout(const std::vector<int64_t> &shape,
                                          int64_t numWarps,
                                          int64_t threadsPerWarp) {
  const size_t rank = shape.size();
  assert(rank >= 2 && "a dot's accumulator has rank 2 or 3");
  int64_t numElements = 1;
  for (int64_t size : shape)
    numElements *= size;
  int64_t perThread = numElements / (numWarps * threadsPerWarp);
  int64_t block = perThread >= 16 ? 4 : perThread >= 4 ? 2 : 1;
  std::vector<int64_t> sizePerThread(rank, 1);
  for (size_t d = rank - 2; d < rank; ++d)
    sizePerThread[d] = std::min(block, shape[d]);
  std::vector<int64_t> order(rank);
  for (size_t i = 0; i < rank; ++i)
    order[i] = static_cast<int64_t>(rank - 1 - i);
  return fitBlockedLayout(shape, sizePerThread, order, numWarps,
                          threadsPerWarp);
}

int64_t ttg::coalescedSizePerThread(int64_t alignment, int64_t contiguity,
                                    int64_t elementBits, int64_t numElements,
                                    int64_t numThreads) {
  int64_t vectorElements = std::max<int64_t>(1, 128 / std::max<int64_t>(1, elementBits));
  int64_t perThread = std::min({alignment, contiguity, vectorElements});
  perThread = std::min(perThread,
                       std::max<int64_t>(1, numElements / std::max<int64_t>(1, numThreads)));
  // Layout fields are powers of two; a hint may state any contiguity.
  int64_t powerOfTwo = 1;
  while (powerOfTwo * 2 <= perThread)
    powerOfTwo *= 2;
  return powerOfTwo;
}

layout::BlockedSpec
ttg::permuteBlockedLayout(const layout::BlockedSpec &source,
                          const std::vector<int64_t> &permutation) {
  const size_t rank = permutation.size();
  assert(source.order.size() == rank && "one entry per dimension");
  layout::BlockedSpec result;
  std::vector<int64_t> resultDimOf(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t from = permutation[i];
    result.sizePerThread.push_back(source.sizePerThread[from]);
    result.threadsPerWarp.push_back(source.threadsPerWarp[from]);
    result.warpsPerCTA.push_back(source.warpsPerCTA[from]);
    resultDimOf[from] = static_cast<int64_t>(i);
  }
  for (int64_t d : source.order)
    result.order.push_back(resultDimOf[d]);
  return result;
}

layout::BlockedSpec ttg::joinBlockedLayout(const layout::BlockedSpec &source) {
  layout::BlockedSpec result = source;
  int64_t newDim = static_cast<int64_t>(source.order.size());
  result.sizePerThread.push_back(2);
  result.threadsPerWarp.push_back(1);
  result.warpsPerCTA.push_back(1);
  result.order.insert(result.order.begin(), newDim);
  return result;
}

layout::BlockedSpec ttg::catBlockedLayout(const layout::BlockedSpec &source) {
  layout::BlockedSpec result = source;
  result.sizePerThread[0] *= 2;
  return result;
}
