//===- WarpShufflePlan.h - layout conversions inside a warp -----*- C++ -*-===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// A conversion between two distributed layouts whose warp bases are equal
// never moves an element to another warp, so it can be done with warp
// shuffles (shfl.sync.idx) instead of a round trip through shared memory.
//
// The scheme: destination register r of lane l is read, with one shuffle,
// from source register srcRegister[r] of lane
//     srcLane(r, l) = laneXor[r] ^ laneMap(l),
// laneMap(l) = XOR of laneMap[i] over the set bits i of l.  Every lane
// executes the shuffle of register r on the same source register (shfl.sync
// sends the value the *source* lane names in its own instruction), so the
// source register must not depend on the lane.
//
// Why this is exactly the applicable case (all over GF(2), coordinates
// packed into bit vectors): write S = SR + SL + SW and D = DR + DL + DW for
// the register, lane and warp parts of the source and destination maps.
// With SW = DW, element D(r, l, w) is found in warp w of the source iff
// DR(r) + DL(l) lies in the span of the source's register and lane bases.
// Asking for one source register for all lanes of r, the difference of
// lanes l and 0 gives DL(l) = SL(srcLane(r, l)) + SL(srcLane(r, 0)): every
// destination lane basis must lie in the span of the source lane bases
// (laneMap[i] solves SL(laneMap[i]) = DL(basis i)), and each destination
// register basis combination in the span of the source register and lane
// bases (srcRegister[r], laneXor[r] solve SR(.) + SL(.) = DR(r)).  When a
// basis lies outside these spans the conversion goes through shared memory.
//
// This file only depends on the C++ standard library.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_LAYOUT_WARPSHUFFLEPLAN_H
#define TRITIUM_LAYOUT_WARPSHUFFLEPLAN_H

#include "tritium/Layout/LinearLayout.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tritium {
namespace layout {

/// How each destination register of a conversion inside warps is read.
struct WarpShufflePlan {
  /// Per destination register: the source register the shuffle sends.
  std::vector<int64_t> srcRegister;
  /// Per destination register: the constant part of the source lane.
  std::vector<int64_t> laneXor;
  /// Per lane bit i: the source lane bits lane bit i of the destination
  /// contributes (XORed together over the set bits of the lane).
  std::vector<int64_t> laneMap;

  /// True when laneMap is the identity (lane bit i maps to itself).
  bool isIdentityLaneMap() const;
  /// True when destination register `reg` is source register
  /// srcRegister[reg] of the same lane (no shuffle needed).
  bool isLocal(int64_t reg) const {
    return laneXor[reg] == 0 && isIdentityLaneMap();
  }
  /// The source lane of destination register `reg` in lane `lane`.
  int64_t srcLane(int64_t reg, int64_t lane) const;
  /// Shuffles per thread: one per destination register that is neither
  /// local nor a duplicate (in `dst`) of an earlier register.
  int64_t numShuffles(const LinearLayout &dst) const;
};

/// The warp-shuffle plan of a conversion from `src` to `dst` (same shape),
/// or nullopt when the warp bases differ (elements change warps) or some
/// destination register would need different source registers in
/// different lanes (see the file comment).
std::optional<WarpShufflePlan> planWarpShuffle(const LinearLayout &src,
                                               const LinearLayout &dst);

} // namespace layout
} // namespace tritium

#endif // TRITIUM_LAYOUT_WARPSHUFFLEPLAN_H
