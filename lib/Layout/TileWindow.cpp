//===- TileWindow.cpp - A window of a tensor, from its own registers ------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/TileWindow.h"

#include <map>

namespace tritium {
namespace layout {

std::optional<std::vector<int64_t>> sameThreadRegisters(
    const LinearLayout &src, const LinearLayout &dst,
    const std::function<std::vector<int64_t>(const std::vector<int64_t> &)>
        &dstToSrc,
    const std::vector<int64_t> &shift) {
  auto project = [&](const std::vector<int64_t> &coord) {
    return dstToSrc ? dstToSrc(coord) : coord;
  };
  // Same lane and warp images: a thread's elements then differ only by the
  // register part of the map, so matching register images is enough.
  for (HwDim dim : {HwDim::Lane, HwDim::Warp}) {
    const BasisList &srcBases = src.bases(dim);
    const BasisList &dstBases = dst.bases(dim);
    if (srcBases.size() != dstBases.size())
      return std::nullopt;
    for (size_t i = 0; i < srcBases.size(); ++i)
      if (project(dstBases[i]) != srcBases[i])
        return std::nullopt;
  }
  std::map<std::vector<int64_t>, int64_t> srcRegisterOf;
  for (int64_t reg = src.elemsPerThread() - 1; reg >= 0; --reg)
    srcRegisterOf[src.apply(reg, 0, 0)] = reg; // lowest register wins
  std::vector<int64_t> mapping;
  mapping.reserve(dst.elemsPerThread());
  for (int64_t reg = 0; reg < dst.elemsPerThread(); ++reg) {
    std::vector<int64_t> coord = project(dst.apply(reg, 0, 0));
    for (size_t d = 0; d < shift.size() && d < coord.size(); ++d)
      coord[d] ^= shift[d];
    auto it = srcRegisterOf.find(coord);
    if (it == srcRegisterOf.end())
      return std::nullopt;
    mapping.push_back(it->second);
  }
  return mapping;
}

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
  if (std::optional<std::vector<int64_t>> plan =
          sameThreadRegisters(source, window, nullptr, offsets))
    return *plan;
  return std::string("the window's layout puts elements in other threads "
                     "than the source's");
}

} // namespace layout
} // namespace tritium
