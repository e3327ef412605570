//===- ScanRule.h - Layouts tt.scan scans directly --------------*- C++ -*-===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// tt.scan's lowering (ScanOpToLLVM.cpp) scans a thread's registers, then
// lanes (Kogge-Stone over shuffles), then warps (through shared memory),
// each in the order of the axis positions its bits hold.  That needs every
// basis that moves along the axis to move along it only, by a distinct
// power of two, and the axis position bits, from low to high, to come from
//
//   [a register bits][b consecutive lane-id bits][c warp bits][d register bits]
//
// as in a blocked layout.  The high register bits number "chunks" a thread
// holds one after another.  A ScanPlan records that split; a layout without
// one is converted to a blocked layout before the scan
// (ttg-legalize-reduction-layouts).
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_LAYOUT_SCANRULE_H
#define TRITIUM_LAYOUT_SCANRULE_H

#include "tritium/Layout/LinearLayout.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tritium {
namespace layout {

/// How the axis positions of a layout split into register, lane and warp
/// bits, and the registers of one line (the elements off the axis).
struct ScanPlan {
  /// Register bit of axis position bit k, for the low bits (k < a) and the
  /// high (chunk) bits (position a + b + c + k).
  std::vector<int> lowRegisterBits, chunkRegisterBits;
  int laneBits = 0;             // b
  int firstLaneBit = 0;         // the lane-id bit of axis position bit a
  int warpBits = 0;             // c
  int64_t axisRegisterMask = 0; // register bits that move along the axis
  int64_t zeroRegisterMask = 0; // register bits with a zero basis
  int64_t numRegisters = 0;
  int64_t numLines = 0; // elements / axis length

  int regLowBits() const { return static_cast<int>(lowRegisterBits.size()); }
  int64_t chunkSize() const { return int64_t(1) << regLowBits(); }
  int64_t numChunks() const { return int64_t(1) << chunkRegisterBits.size(); }
  int64_t numLaneRanks() const { return int64_t(1) << laneBits; }
  int64_t numWarpRanks() const { return int64_t(1) << warpBits; }
  bool needsScratch() const { return warpBits > 0; }
  /// Scratch elements per operand.
  int64_t scratchElements() const {
    return numLines * numChunks() * numWarpRanks();
  }

  /// The register of line `line` (register bits off the axis), chunk
  /// `chunk`, position `pos` in the chunk.
  int64_t registerOf(int64_t line, int64_t chunk, int64_t pos) const;
};

/// The plan of a scan along `axis` of tensors with `layout`, or none with
/// the reason in `why`.
std::optional<ScanPlan> makeScanPlan(const LinearLayout &layout, int axis,
                                     std::string &why);

/// Why the scan lowering cannot scan tensors of `layout` along `axis`, in
/// words, or an empty string when it can (reductionLayoutProblem is the
/// reduction's counterpart).
std::string scanLayoutProblem(const LinearLayout &layout, int axis);

} // namespace layout
} // namespace tritium

#endif // TRITIUM_LAYOUT_SCANRULE_H
