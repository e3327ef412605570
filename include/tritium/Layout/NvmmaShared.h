//===- NvmmaShared.h - Shared tiles that tensor cores read -----*- C++ -*-===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// The shared-memory layout that Hopper's wgmma reads through matrix
// descriptors (and that ldmatrix reads without bank conflicts): a 2-D tile
// whose contiguous dimension (order[0]) is cut into slabs of `swizzleBytes`
// (32, 64 or 128 bytes); each slab stores the rows of the other dimension
// one after another, swizzleBytes apart, and XOR-swizzles the 16-byte
// chunks of each row with the row's phase:
//
//   perSlab = swizzleBytes / elementBytes     elements of one slab row
//   chunk   = 16 / elementBytes               elements of one 16-byte chunk
//   slab = c / perSlab,  cc = c % perSlab,  rows = shape[order[1]]
//   phase = (r / (128 / swizzleBytes)) % (swizzleBytes / 16)
//   offset(r, c) = slab * rows * perSlab + r * perSlab
//                  + ((cc / chunk) ^ phase) * chunk + cc % chunk
//
// with c the coordinate along order[0] and r along order[1].  This is the
// address-bit swizzle the hardware applies (bits [4, 4 + log2(swizzleBytes
// / 16)) of the byte address XORed with the bits from 7 up), so the tile
// must start at a multiple of 8 * swizzleBytes bytes.  A descriptor then
// names the unswizzled address of a sub-tile's first element (offset with
// phase 0) and the strides: 8 rows (8 * swizzleBytes bytes) between groups
// of core matrices along the rows, one slab (rows * swizzleBytes bytes)
// between slabs.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_LAYOUT_NVMMASHARED_H
#define TRITIUM_LAYOUT_NVMMASHARED_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tritium {
namespace layout {

struct NvmmaSharedSpec {
  int64_t swizzleBytes = 128;
  int64_t elementBits = 16;
  /// order[0]: the contiguous dimension; order[1]: the row dimension.
  std::vector<int64_t> order = {1, 0};
};

/// Checks the spec: swizzleBytes 32, 64 or 128, elementBits 8, 16 or 32,
/// order a permutation of {0, 1}.
std::optional<std::string> verifyNvmmaShared(const NvmmaSharedSpec &spec);

/// Checks that a tile of `shape` fits the spec: rank 2, rows a multiple of
/// 8, the contiguous dimension a multiple of one slab row.
std::optional<std::string> verifyNvmmaTile(const NvmmaSharedSpec &spec,
                                           const std::vector<int64_t> &shape);

/// The element offset of `coord` in a tile of `shape` (file comment).
int64_t nvmmaOffset(const NvmmaSharedSpec &spec,
                    const std::vector<int64_t> &shape,
                    const std::vector<int64_t> &coord);

/// The same without the XOR (phase 0): the address a descriptor names for a
/// sub-tile starting at `coord` (rows a multiple of 8, the contiguous
/// coordinate a multiple of one chunk).
int64_t nvmmaUnswizzledOffset(const NvmmaSharedSpec &spec,
                              const std::vector<int64_t> &shape,
                              const std::vector<int64_t> &coord);

/// The widest swizzle (128, 64 or 32 bytes) whose slab row fits in
/// `contiguousElements` elements of `elementBits`, or 0 when even 32 bytes
/// do not fit.
int64_t chooseNvmmaSwizzle(int64_t contiguousElements, int64_t elementBits);

} // namespace layout
} // namespace tritium

#endif // TRITIUM_LAYOUT_NVMMASHARED_H
