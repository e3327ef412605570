//===- ConvertParts.cpp - A layout conversion in parts --------------------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/ConvertParts.h"

#include <algorithm>

namespace tritium {
namespace layout {
namespace {

/// The register bits of `layout` whose bases are exactly the top `numBits`
/// coordinate bits of `dim` (entry j for bit log2(shape[dim]) - numBits + j),
/// or nullopt when some such bit has no such register basis, or another
/// basis touches those bits.
std::optional<std::vector<int>> partRegisterBits(const LinearLayout &layout,
                                                 int dim, int numBits) {
  int64_t size = layout.shape()[dim];
  int dimBits = log2Exact(size);
  if (numBits > dimBits)
    return std::nullopt;
  int64_t partRows = size >> numBits;
  std::vector<int> bits(numBits, -1);
  for (int hw = 0; hw < kNumHwDims; ++hw) {
    const BasisList &bases = layout.bases(static_cast<HwDim>(hw));
    for (size_t b = 0; b < bases.size(); ++b) {
      int64_t high = bases[b][dim] / partRows; // the part bits it sets
      if (high == 0)
        continue;
      bool pure = isPowerOf2(high) && bases[b][dim] % partRows == 0;
      for (size_t d = 0; d < bases[b].size(); ++d)
        pure = pure && (static_cast<int>(d) == dim || bases[b][d] == 0);
      int j = pure ? log2Exact(high) : -1;
      if (hw != static_cast<int>(HwDim::Register) || !pure || bits[j] != -1)
        return std::nullopt;
      bits[j] = static_cast<int>(b);
    }
  }
  for (int bit : bits)
    if (bit == -1)
      return std::nullopt;
  return bits;
}

/// `layout` over one part: the part register bases removed, shape[dim]
/// divided by 2^numBits.
LinearLayout partLayout(const LinearLayout &layout, int dim, int numBits,
                        const std::vector<int> &removed) {
  LayoutBases bases;
  for (int hw = 0; hw < kNumHwDims; ++hw) {
    const BasisList &all = layout.bases(static_cast<HwDim>(hw));
    for (size_t b = 0; b < all.size(); ++b) {
      bool drop = hw == static_cast<int>(HwDim::Register) &&
                  std::find(removed.begin(), removed.end(),
                            static_cast<int>(b)) != removed.end();
      if (!drop)
        bases[hw].push_back(all[b]);
    }
  }
  std::vector<int64_t> shape = layout.shape();
  shape[dim] >>= numBits;
  return LinearLayout(std::move(bases), std::move(shape));
}

/// The full layout's registers of part `part`: each part register with the
/// part's bits inserted at `partBits`.
std::vector<int64_t> registersOfPart(const LinearLayout &partLayout,
                                     const std::vector<int> &partBits,
                                     int64_t part) {
  std::vector<int> sorted = partBits;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int64_t> registers;
  for (int64_t reg = 0; reg < partLayout.elemsPerThread(); ++reg) {
    // Spread reg's bits over the register bits that are not part bits.
    int64_t full = 0;
    int source = 0;
    int total = partLayout.numBases(HwDim::Register) +
                static_cast<int>(partBits.size());
    for (int bit = 0; bit < total; ++bit) {
      if (std::binary_search(sorted.begin(), sorted.end(), bit))
        continue;
      if ((reg >> source) & 1)
        full |= int64_t(1) << bit;
      ++source;
    }
    for (size_t j = 0; j < partBits.size(); ++j)
      if ((part >> j) & 1)
        full |= int64_t(1) << partBits[j];
    registers.push_back(full);
  }
  return registers;
}

} // namespace

std::vector<int64_t> ConvertParts::srcRegisters(int64_t part) const {
  return registersOfPart(srcPart, srcPartRegisterBits, part);
}

std::vector<int64_t> ConvertParts::dstRegisters(int64_t part) const {
  return registersOfPart(dstPart, dstPartRegisterBits, part);
}

std::optional<ConvertParts> splitConversion(
    const LinearLayout &src, const LinearLayout &dst,
    const std::function<bool(const LinearLayout &, const LinearLayout &)>
        &fits) {
  int maxBits = 0;
  for (int64_t size : src.shape())
    maxBits = std::max(maxBits, log2Exact(size));
  for (int numBits = 1; numBits <= maxBits; ++numBits)
    for (int dim = 0; dim < static_cast<int>(src.rank()); ++dim) {
      auto srcBits = partRegisterBits(src, dim, numBits);
      auto dstBits = partRegisterBits(dst, dim, numBits);
      if (!srcBits || !dstBits)
        continue;
      ConvertParts parts{dim,
                         numBits,
                         partLayout(src, dim, numBits, *srcBits),
                         partLayout(dst, dim, numBits, *dstBits),
                         *srcBits,
                         *dstBits};
      if (fits(parts.srcPart, parts.dstPart))
        return parts;
    }
  return std::nullopt;
}

} // namespace layout
} // namespace tritium
