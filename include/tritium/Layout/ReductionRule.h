//===- ReductionRule.h - Layouts tt.reduce folds directly -------*- C++ -*-===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// tt.reduce's lowering (ReduceOpToLLVM.cpp) folds a thread's registers by
// their coordinates off the axis, then combines lanes (butterflies) and
// warps (through shared memory) over the lane and warp bits whose bases
// move along the axis.  That counts every element exactly once only for
// some layouts.  Over GF(2), with coordinates packed into bit vectors, L the
// layout's map and P the projection that zeroes the axis bits:
//   * every lane and warp basis moves along the axis only or across it only
//     (a butterfly partner must hold the same result elements);
//   * with U = image(L_registers) ∩ ker(P) (what a thread's fold covers) and
//     B the nonzero lane and warp bases along the axis, U and B are
//     independent (nothing is counted twice) and together span
//     image(L) ∩ ker(P) (nothing is missed): dim U + |B| equals
//     rank(L) - rank(P L) and rank(U ∪ B).
// Layouts built from blocked, mma and slice layouts meet both; linear
// layouts with XOR-mixed or repeated bases may not, and are then converted
// to a blocked layout before the reduction (ttg-legalize-reduction-layouts).
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_LAYOUT_REDUCTIONRULE_H
#define TRITIUM_LAYOUT_REDUCTIONRULE_H

#include "tritium/Layout/LinearLayout.h"

#include <string>

namespace tritium {
namespace layout {

/// Why the reduce lowering cannot fold `layout` along `axis`, in words, or
/// an empty string when it can.
std::string reductionLayoutProblem(const LinearLayout &layout, int axis);

} // namespace layout
} // namespace tritium

#endif // TRITIUM_LAYOUT_REDUCTIONRULE_H
