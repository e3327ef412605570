//===- BankConflicts.h - Shared-memory bank conflicts -----------*- C++ -*-===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// A small model of shared-memory bank conflicts, and the scratch tile a
// ttg.convert_layout uses, chosen with it.
//
// The model (NVIDIA, sm_70 and later): shared memory has 32 banks of 4
// bytes; the 4-byte word at byte address a lives in bank (a / 4) % 32.  A
// warp-wide access of `accessBytes` per lane is served in lane groups of
// 128 / max(4, accessBytes) consecutive lanes: all 32 lanes for 1-, 2- and
// 4-byte accesses, two half-warps for 8-byte and four quarter-warps for
// 16-byte accesses.  Within a
// group, a bank serves one distinct word per cycle (lanes reading the same
// word share it), so the group takes as many wavefronts as the largest
// number of distinct words any bank is asked for.  The access takes the sum
// over its groups.  A conflict-free access takes one wavefront per group.
//
// The scratch tile of a conversion is row-major over the tensor's shape,
// the last dimension contiguous, with `pad` unused elements after every row
// (a run of the last dimension): the row stride is shape[rank-1] + pad, so
// consecutive rows start in different banks.  The pad is a multiple of both
// phases' vector widths, so every vector access stays contiguous and
// aligned.  planConvertScratch evaluates, with the model, every pad from 0
// to one full bank cycle (128 bytes) and every vector width each phase
// allows, and keeps the fewest wavefronts (stores plus loads), then the
// fewest instructions, then the smallest pad.
//
// A scratch tile may instead be swizzled (no padding): element (row, col)
// of a row of rowLength elements lives at row * rowLength + the column
// SharedSwizzle.h's swizzledColumn gives with vec = `chunk`, that is the
// chunk index col / chunk XORed with the row's phase
// (row / perPhase) % maxPhase.  A chunk is never split, so a vector access
// of at most `chunk` elements stays contiguous and aligned.  The planner
// also tries every chunk from one element to the widest vector either
// phase allows and every power-of-two perPhase and maxPhase (maxPhase at
// most the chunks in a row), and a swizzle plan replaces the best padding
// plan when it takes fewer wavefronts, or as many with fewer
// instructions, or as many of both in less memory.
//
// The tile's contiguous dimension need not be the tensor's last: when a
// phase's registers run longer along another dimension (a transpose that
// one phase can only read element by element in the tensor's order), the
// planner also plans the tile with that dimension moved last (the layouts'
// dimensions permuted the same way) and keeps whichever order models
// fewer wavefronts, then fewer instructions, then less memory; the
// tensor's own order wins ties.
//
// This file only depends on the C++ standard library and LinearLayout.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_LAYOUT_BANKCONFLICTS_H
#define TRITIUM_LAYOUT_BANKCONFLICTS_H

#include "tritium/Layout/ConvertParts.h"
#include "tritium/Layout/LinearLayout.h"
#include "tritium/Layout/SharedSwizzle.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tritium {
namespace layout {

/// Banks of shared memory and the bytes of each.
constexpr int64_t kNumBanks = 32;
constexpr int64_t kBankBytes = 4;

/// Wavefronts one warp-wide shared-memory access takes.  Lane i accesses
/// `accessBytes` (a power of two, at most 16) starting at byte
/// laneByteOffsets[i], aligned to accessBytes; a negative offset marks an
/// inactive lane.  Lanes are grouped by their position in the vector, so
/// laneByteOffsets should hold one entry per lane of the warp, in order.
int64_t countWavefronts(const std::vector<int64_t> &laneByteOffsets,
                        int64_t accessBytes);

/// Wavefronts the same access takes without any conflict: one per lane
/// group that has an active lane.
int64_t idealWavefronts(const std::vector<int64_t> &laneByteOffsets,
                        int64_t accessBytes);

/// A row-major tile with `pad` elements after every row of the last
/// dimension.
struct PaddedTile {
  std::vector<int64_t> shape;
  int64_t pad = 0;

  /// Element strides per dimension: 1 for the last, shape[rank-1] + pad for
  /// the one before, then products of the shape.
  std::vector<int64_t> strides() const;
  /// Element offset of `coord`.
  int64_t offset(const std::vector<int64_t> &coord) const;
  /// Elements the tile occupies, padding included.
  int64_t numElements() const;
};

/// The XOR swizzle of a scratch tile; `chunk` == 0 means none.  All three
/// are powers of two when chunk > 0.
struct TileSwizzle {
  int64_t chunk = 0;
  int64_t perPhase = 1;
  int64_t maxPhase = 1;
};

/// A conversion's scratch tile: row-major over `shape`, either padded
/// (`pad` elements after every row of the last dimension) or swizzled
/// (see the file comment; pad is then 0 and rank at least 2).
struct ScratchTile {
  std::vector<int64_t> shape;
  int64_t pad = 0;
  TileSwizzle swizzle;

  bool isSwizzled() const { return swizzle.chunk > 0; }
  /// The SharedSwizzle.h spec of a swizzled tile (descending order, so
  /// row-major).
  SwizzleSpec swizzleSpec() const;
  /// Element offset of `coord`.
  int64_t offset(const std::vector<int64_t> &coord) const;
  /// Elements the tile occupies, padding included.
  int64_t numElements() const;
  /// Whether a vector of `vec` elements along the last dimension, aligned
  /// to vec, stays contiguous and aligned in the tile.
  bool keepsVectorsWhole(int64_t vec) const;
  /// When offset() is XOR-linear in the coordinate bits (a power-of-two
  /// shape without pad, swizzled or not): the offset of each single-bit
  /// coordinate, dimension by dimension from bit 0 up, so that offset(c) is
  /// the XOR of the entries of c's set bits.  Checked on every element;
  /// nullopt otherwise (a padded tile).
  std::optional<std::vector<int64_t>> xorLinearBitOffsets() const;
};

/// The modelled cost of one thread block's accesses of a tile through a
/// layout, counted for warp 0 (every warp sees the same pattern, shifted).
struct AccessCost {
  int64_t instructions = 0; // vector accesses per thread
  int64_t wavefronts = 0;   // of warp 0, summed over its instructions
  int64_t ideal = 0;        // the same accesses without conflicts

  /// Average conflict degree: wavefronts per conflict-free wavefront.
  double conflictFactor() const {
    return ideal ? static_cast<double>(wavefronts) / ideal : 1.0;
  }
};

/// The cost of every thread moving its registers of `layout` to or from
/// `tile` (elements of `elementBytes`), `vec` consecutive registers per
/// access: one access per group of `vec` registers whose first register is
/// the first holder of its element, as the lowering does.  `vec` must
/// divide contiguousRegisters(layout, rank - 1).
AccessCost modelTileAccess(const LinearLayout &layout, const PaddedTile &tile,
                           int64_t elementBytes, int64_t vec);
AccessCost modelTileAccess(const LinearLayout &layout, const ScratchTile &tile,
                           int64_t elementBytes, int64_t vec);

/// The scratch tile of a conversion from `src` to `dst` through shared
/// memory and the vector width (in elements) of each phase.
struct ConvertScratchPlan {
  ScratchTile tile;
  int64_t storeVec = 1;
  int64_t loadVec = 1;
  AccessCost store;
  AccessCost load;
  /// Set when the conversion runs in parts (ConvertParts.h): the tile and
  /// vector widths are then those of one part's conversion.
  std::optional<ConvertParts> parts;
  /// The tensor dimension each dimension of the tile holds (a permutation;
  /// empty: the tensor's own order).  The tile is row-major over the
  /// tensor's dimensions in this order, so order.back() is the contiguous
  /// one; `tile.shape` is the tensor's shape in this order, and both
  /// phases address it through the layouts' dimensions permuted the same
  /// way (LinearLayout::permuteOutDims).
  std::vector<int64_t> order;
};

/// The widest vector access (in elements, at most 16 bytes) of `layout`
/// along its last dimension.
int64_t maxVectorWidth(const LinearLayout &layout, int64_t elementBytes);

/// The best tile for the conversion among those contiguous along tensor
/// dimension `dim` (row-major over the tensor's dimensions with `dim` moved
/// last): its pad and vector widths, as planConvertScratch chooses them for
/// one order.
ConvertScratchPlan planConvertScratchContiguousAlong(const LinearLayout &src,
                                                     const LinearLayout &dst,
                                                     int64_t elementBytes,
                                                     int64_t dim);

/// Chooses the dimension order, pad and vector widths of a conversion's
/// scratch tile (see the file comment).  `src` and `dst` cover the same
/// shape.
ConvertScratchPlan planConvertScratch(const LinearLayout &src,
                                      const LinearLayout &dst,
                                      int64_t elementBytes);

} // namespace layout
} // namespace tritium

#endif // TRITIUM_LAYOUT_BANKCONFLICTS_H
