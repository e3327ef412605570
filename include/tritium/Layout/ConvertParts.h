//===- ConvertParts.h - A layout conversion in parts ------------*- C++ -*-===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// A conversion through shared memory normally stages the whole tile.  When
// that is more than shared memory holds, it can run in 2^k parts: part p
// moves the elements whose coordinate along one dimension d has p as its
// top k bits, through a scratch tile of shape[d] / 2^k rows along d.  For
// every thread to know statically which of its registers belong to part p,
// each of those top k coordinate bits must be set by exactly one register
// basis, in the source and in the destination, and by no other basis: the
// "repetitions" of a layout whose tile is smaller than the tensor.  Each
// part is then the conversion between the two layouts with those register
// bases removed and shape[d] divided by 2^k; register r of the part is the
// full layout's register r with p's bits inserted at the removed bases'
// register bits.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_LAYOUT_CONVERTPARTS_H
#define TRITIUM_LAYOUT_CONVERTPARTS_H

#include "tritium/Layout/LinearLayout.h"

#include <functional>
#include <optional>
#include <vector>

namespace tritium {
namespace layout {

/// A conversion split along the top `numBits` coordinate bits of `dim`.
struct ConvertParts {
  int dim = 0;
  int numBits = 0;
  /// The source and destination layouts over one part.
  LinearLayout srcPart;
  LinearLayout dstPart;
  /// partRegisterBits[j]: the register bit whose basis sets coordinate bit
  /// (log2(shape[dim]) - numBits + j) of `dim`, in the source / destination.
  std::vector<int> srcPartRegisterBits;
  std::vector<int> dstPartRegisterBits;

  int64_t numParts() const { return int64_t(1) << numBits; }
  /// The registers of the full source (destination) layout in part `part`,
  /// in the order of the part layout's registers.
  std::vector<int64_t> srcRegisters(int64_t part) const;
  std::vector<int64_t> dstRegisters(int64_t part) const;
};

/// The split into the fewest parts for which `fits(srcPart, dstPart)`
/// holds, trying every dimension for each number of parts, dimension 0
/// first (a part is then a slab of whole rows of the row-major scratch);
/// nullopt when no split can be made.  `src` and `dst` cover the same
/// shape.
std::optional<ConvertParts> splitConversion(
    const LinearLayout &src, const LinearLayout &dst,
    const std::function<bool(const LinearLayout &, const LinearLayout &)>
        &fits);

} // namespace layout
} // namespace tritium

#endif // TRITIUM_LAYOUT_CONVERTPARTS_H
