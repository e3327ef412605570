//===- TmaTile.h - How the copy engine moves one descriptor tile -*- C++ -*-===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// A tensor descriptor's block lands in shared memory in one of two layouts,
// and the tensor memory accelerator (TMA) moves it as one or more boxes:
//
//   * swizzled (rank 2, 8/16/32-bit elements, rows a multiple of 8, rows of
//     at least 32 bytes): the #ttg.nvmma_shared layout with order [1, 0]
//     and swizzle min(128, row bytes), which is the tensor map's
//     CU_TENSOR_MAP_SWIZZLE_{32,64,128}B.  A box is one slab wide
//     (swizzle bytes) and at most 256 rows tall; the copies walk the slabs,
//     and the rows in chunks of 256, each landing at its slab's and row
//     chunk's offset, which the layout keeps contiguous;
//   * plain (everything else TMA can move): row-major with no swizzle.  The
//     box is the block, except that a leading dimension over 256 is cut into
//     chunks of 256, each contiguous in the row-major tile.
//
// TMA's rules that decide "can move": each box dimension at most 256
// elements, the innermost box dimension a multiple of 16 bytes, elements
// of 8, 16, 32 or 64 bits, rank 1 to 5.  The host encodes the tensor map
// from the same plan (swizzle and box, reported in the kernel metadata).
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_LAYOUT_TMATILE_H
#define TRITIUM_LAYOUT_TMATILE_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tritium {
namespace layout {

struct TmaTilePlan {
  /// 0 (the plain layout) or 32, 64, 128 (the NVMMA layout's swizzle).
  int64_t swizzleBytes = 0;
  /// The box, in block order (outermost dimension first).
  std::vector<int64_t> box;
  struct Copy {
    std::vector<int64_t> blockOffset; ///< element offsets inside the block
    int64_t sharedByteOffset = 0;     ///< where the box lands in the tile
  };
  std::vector<Copy> copies;
  /// Bytes of the whole tile (what one load's copies land).
  int64_t tileBytes = 0;
};

/// Why TMA cannot move blocks of `shape` with `elementBits`-bit elements
/// (std::nullopt: it can).
std::optional<std::string> whyNotTmaTile(const std::vector<int64_t> &shape,
                                         int64_t elementBits);

/// The swizzle of the shared tile for a block (0: plain layout).
int64_t chooseTmaSwizzle(const std::vector<int64_t> &shape,
                         int64_t elementBits);

/// The boxes that move a block of `shape` into (or out of) its shared tile
/// of swizzle `swizzleBytes` (chooseTmaSwizzle's).  The block must pass
/// whyNotTmaTile.
TmaTilePlan planTmaTile(const std::vector<int64_t> &shape, int64_t elementBits,
                        int64_t swizzleBytes);

} // namespace layout
} // namespace tritium

#endif // TRITIUM_LAYOUT_TMATILE_H
