//===- TileWindow.cpp - A window of a tensor, from its own registers ------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/TileWindow.h"

#include <map>

namespace tritium {
namespace layout {

std::variant<std::vector<int64_t>, std::string>
planTileWindow(const LinearLayout &source, const LinearLayout &window,
               const std::vector<int64_t> &offsets) {
  const std::vector<int64_t> &big = source.shape();
  const std::vector<int64_t> &small = window.shape();
  if (big.size() != small.size() || offsets.size() != small.size())
    return std::string(
        "the window, its offsets and the source differ in rank");
  for (size_t d = 0; d < small.size(); ++d) {
    if (!isPowerOf2(small[d]) || small[d] > big[d] || offsets[d] < 0 ||
        offsets[d] % small[d] != 0 || offsets[d] + small[d] > big[d])
      return "the window " + formatVector(small) + " at " +
             formatVector(offsets) +
             " is not an aligned tile of the source " + formatVector(big);
  }
  for (HwDim dim : {HwDim::Lane, HwDim::Warp})
    if (source.bases(dim) != window.bases(dim))
      return std::string(dim == HwDim::Lane ? "lanes" : "warps") +
             " of the window's layout hold other coordinates than the "
             "source's";
  // Each source register's coordinates (lane 0, warp 0): the first register
  // that holds them.
  std::map<std::vector<int64_t>, int64_t> registerAt;
  for (int64_t r = source.elemsPerThread() - 1; r >= 0; --r)
    registerAt[source.apply(r, 0, 0)] = r;
  std::vector<int64_t> plan;
  plan.reserve(window.elemsPerThread());
  for (int64_t r = 0; r < window.elemsPerThread(); ++r) {
    std::vector<int64_t> coord = window.apply(r, 0, 0);
    for (size_t d = 0; d < coord.size(); ++d)
      coord[d] ^= offsets[d];
    auto it = registerAt.find(coord);
    if (it == registerAt.end())
      return "register " + std::to_string(r) + " of the window holds " +
             formatVector(coord) + ", which no register of the source holds";
    plan.push_back(it->second);
  }
  return plan;
}

} // namespace layout
} // namespace tritium
