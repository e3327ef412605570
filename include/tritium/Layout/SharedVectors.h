//===- SharedVectors.h - Registers one shared-memory vector access moves -*- C++ -*-===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// A thread's registers of a tile in shared memory whose element offsets
// are XOR-linear: offset(reg, lane, warp) = R[reg] ^ T(lane, warp), with
// `threadBits` the bits T may set.  A vector access of w elements (w a power
// of two) reads offsets o, o+1, ..., o+w-1 with o a multiple of w; it can
// serve registers whose R are those offsets when no thread bit falls below
// w (T then moves the whole vector, never splits it).
//   * vectorWidth: the widest w for which every run of w consecutive
//     registers is such a vector (the common case: a thread's consecutive
//     registers along the tile's contiguous dimension).
//   * groupsByOffset: for layouts whose consecutive elements are not
//     consecutive registers (a CUDA-core dot's B operand, registers along K
//     first), the registers grouped by the vector they can share, each
//     group in memory order.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_LAYOUT_SHAREDVECTORS_H
#define TRITIUM_LAYOUT_SHAREDVECTORS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace tritium::layout {

/// The most registers (a power of two, at most `maxElements`) such that
/// registers reg..reg+w-1 lie at consecutive offsets from a multiple of w,
/// for every reg that is a multiple of w; 1 when none.
int64_t vectorWidth(llvm::ArrayRef<int64_t> registerOffsets, int64_t threadBits,
                    int64_t maxElements);

/// `registers` (indices into `registerOffsets`) grouped by the memory they
/// read: each group is the registers at offsets o, o+1, ..., o+w-1 (in that
/// order) with o a multiple of w and w a power of two at most
/// `maxElements`, the widest such group that no thread bit disturbs and
/// whose members are all still ungrouped, else the register alone.  Each
/// register is in one group (a register whose offset another listed
/// register has already stands alone); groups are ordered by their first
/// member's place in `registers`.
llvm::SmallVector<llvm::SmallVector<int64_t, 4>>
groupsByOffset(llvm::ArrayRef<int64_t> registerOffsets, int64_t threadBits,
               llvm::ArrayRef<int64_t> registers, int64_t maxElements);

} // namespace tritium::layout

#endif // TRITIUM_LAYOUT_SHAREDVECTORS_H
