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

/// A conversion inside warps that also trades register bits for lane bits
/// (a thread's 8 consecutive elements becoming 4, the other 4 going to a
/// neighbouring lane), which WarpShufflePlan cannot do: there a destination
/// register's source register is the same in every lane.
///
/// Within a warp both layouts are bijections between (register, lane) bit
/// vectors and the warp's elements; T = [A B; C D] maps a destination
/// (register r', lane l') to the source (register A r' + B l', lane C r' +
/// D l') holding the same element (GF(2), + is XOR).  The conversion runs
/// one shuffle per register index k: sender lane t sends its register
/// k + M t, receiver lane l reads lane P l + Q k and keeps the value as its
/// register R k + N l.  For any M (lane bits to register bits) with A + M C
/// invertible, R = (A + M C)^-1, N = R (B + M D), P = C N + D and Q = C R
/// make every receiver get the element its register should hold (expand
/// the sender's register and lane with these and they equal T (R k + N l,
/// l)); R is invertible, so each lane keeps one value per register.  M
/// selects, before each shuffle, among 2^rank(M) registers by the sender's
/// lane bits, and N, after it, among 2^rank(N) received values by the
/// receiver's: the plan takes the M of smallest rank (0 when A is
/// invertible: then it is WarpShufflePlan's case).
struct WarpTransferPlan {
  int numRegisterBits = 0;
  int numLaneBits = 0;
  /// How many register bits trade places with lane bits: the destination
  /// register bits the source registers alone do not give (nR - rank A;
  /// for permutations of bits, Triton's count of mixed transpositions).
  int numTradedBits = 0;
  /// M, per lane bit of the sender: the register bits it flips.
  std::vector<int64_t> sendRegisterOfLane;
  /// P, per lane bit of the receiver: the source lane bits it flips.
  std::vector<int64_t> srcLaneOfLane;
  /// Q, per bit of the shuffle index: the source lane bits it flips.
  std::vector<int64_t> srcLaneOfShuffle;
  /// R, per bit of the shuffle index: the destination register bits.
  std::vector<int64_t> dstRegisterOfShuffle;
  /// N, per lane bit of the receiver: the destination register bits it
  /// flips.
  std::vector<int64_t> dstRegisterOfLane;
  /// R^-1, per destination register bit: the shuffle index bits, and
  /// R^-1 N, per lane bit of the receiver: the shuffle index bits it flips
  /// (destination register j of lane l keeps shuffle R^-1 j + R^-1 N l).
  std::vector<int64_t> shuffleOfDstRegister;
  std::vector<int64_t> shuffleOfLane;

  int64_t numShuffles() const { return int64_t(1) << numRegisterBits; }
  /// The register lane `lane` sends in shuffle `k`.
  int64_t sentRegister(int64_t k, int64_t lane) const;
  /// The lane that lane `lane` reads in shuffle `k`.
  int64_t srcLane(int64_t k, int64_t lane) const;
  /// The destination register lane `lane` keeps shuffle `k`'s value in.
  int64_t dstRegister(int64_t k, int64_t lane) const;
  /// The shuffle whose value lane `lane` keeps in register `reg`.
  int64_t keptShuffle(int64_t reg, int64_t lane) const;
  /// Registers a sender chooses among (2^rank M) and values a receiver
  /// chooses among (2^rank N).
  int64_t sendChoices() const;
  int64_t keepChoices() const;
};

/// The transfer plan of a conversion from `src` to `dst` inside warps, or
/// nullopt when elements change warps, a layout holds an element in two
/// registers or lanes of a warp (a zero basis), the two have different
/// numbers of register or lane bits, or no M of rank at most 3 makes
/// A + M C invertible.
std::optional<WarpTransferPlan> planWarpTransfer(const LinearLayout &src,
                                                 const LinearLayout &dst);

/// A conversion inside warps done on words of several elements.  A register
/// bit whose basis is the same single coordinate bit in both layouts, a bit
/// no other basis of either layout touches, selects elements that share a
/// thread before and after the conversion, in the same order: the elements
/// it selects can travel in one word.  Choosing such bits and removing
/// them, with their coordinate bit, gives the conversion of the words: the
/// layouts `src` and `dst` below, over the tensor of words.  Word w of the
/// source holds register insert(w, srcBits) + sum over b of c_b <<
/// srcBits[b] of the original as its element c (c_b the bits of c), and the
/// destination word the same with dstBits.
struct WordConversion {
  LinearLayout src;
  LinearLayout dst;
  /// Per element-index bit b of a word: the register bit it is in the
  /// original source and destination layouts.
  std::vector<int> srcBits;
  std::vector<int> dstBits;

  /// Elements a word holds (1 << number of chosen bits).
  int64_t elementsPerWord() const { return int64_t(1) << srcBits.size(); }
  /// The original register of element `element` of word `word`, over the
  /// chosen bits `bits` (srcBits or dstBits).
  static int64_t originalRegister(int64_t word, int64_t element,
                                  const std::vector<int> &bits);
};

/// The word conversion of `src` to `dst` with at most `maxBits` chosen
/// bits (lowest destination register bits first), or nullopt when no
/// register bit qualifies.
std::optional<WordConversion> planWordConversion(const LinearLayout &src,
                                                 const LinearLayout &dst,
                                                 int maxBits);

} // namespace layout
} // namespace tritium

#endif // TRITIUM_LAYOUT_WARPSHUFFLEPLAN_H
