//===- TileWindow.h - A window of a tensor, from its own registers -*- C++ -*-===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// ttg.extract_tile takes a rectangular window (of the result's shape, at
// offsets that are multiples of it) out of a distributed tensor without
// moving data between threads: every thread must already hold the window's
// elements.  With both layouts as linear maps, that holds when
//   * the result's lane and warp bases are the source's (each thread sits at
//     the same coordinates in the window as in the source, the window's
//     origin aside), and
//   * each register of the result, shifted by the offsets, is a register of
//     the source.  The offsets are multiples of the window, so their bits
//     are disjoint from the window's coordinates: the shift is an XOR.
// The plan lists, per result register, the source register to take
// (sameThreadRegisters, which layout conversions and shape ops use too).
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_LAYOUT_TILEWINDOW_H
#define TRITIUM_LAYOUT_TILEWINDOW_H

#include "tritium/Layout/LinearLayout.h"

#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tritium {
namespace layout {

/// The register of `src` that each register of `dst` can copy in the same
/// thread, or nullopt when some element of `dst` is held by another thread.
/// Element c of `dst` is element dstToSrc(c) XOR `shift` of `src`, where
/// `dstToSrc` is linear (a projection: dropping or zeroing dimensions; the
/// identity when empty) and `shift`'s bits are disjoint from its image
/// (empty: no shift).  The lanes and warps of `dst`, mapped by `dstToSrc`,
/// must hold the coordinates those of `src` hold; the registers are then
/// matched by their images (the lowest source register wins).  Decides
/// whether a layout conversion stays in registers, and the registers a
/// shape op or a window picks.
std::optional<std::vector<int64_t>> sameThreadRegisters(
    const LinearLayout &src, const LinearLayout &dst,
    const std::function<std::vector<int64_t>(const std::vector<int64_t> &)>
        &dstToSrc,
    const std::vector<int64_t> &shift);

/// For each register of `window` (the result's layout, over the window's
/// shape), the register of `source` that holds the same element, the window
/// starting at `offsets` in the source; or why the window is not a choice
/// of registers.
std::variant<std::vector<int64_t>, std::string>
planTileWindow(const LinearLayout &source, const LinearLayout &window,
               const std::vector<int64_t> &offsets);

} // namespace layout
} // namespace tritium

#endif // TRITIUM_LAYOUT_TILEWINDOW_H
