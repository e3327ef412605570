//===- FmaDotLayout.h - Operand layouts of a dot done with FMAs -*- C++ -*-===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// A dot that runs on the CUDA cores (no tensor-core instruction fits its
// shapes or precision) computes each accumulator element in the thread that
// holds it: for element (m, n) the thread needs row m of A and column n of B
// in full.  The operand layouts follow from the accumulator's layout: keep
// the coordinates the operand shares with the accumulator (batch and M for
// A, batch and N for B), drop the other one, and give every thread all of K
// in consecutive registers.
//
//   A (.. x M x K): lane and warp bases are the accumulator's with N dropped
//                   (threads along N share their rows of A); register bases
//                   are K's (1, 2, .., K/2) followed by each accumulator
//                   register basis with N dropped, skipping those that
//                   become zero.
//   B (.. x K x N): the same with M dropped.
//
// So accumulator register r, whose bits select kept register bases, reads
// operand register k + K * compressed(r) (fmaOperandRegister).
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_LAYOUT_FMADOTLAYOUT_H
#define TRITIUM_LAYOUT_FMADOTLAYOUT_H

#include "tritium/Layout/LinearLayout.h"

namespace tritium {
namespace layout {

/// The layout of operand `opIdx` (0: A, 1: B) of a dot over `shape`
/// ([batch x] M x K for A, [batch x] K x N for B) whose accumulator has
/// layout `acc` (rank 2 or 3, shape [batch x] M x N).
LinearLayout fmaOperandToLinear(const LinearLayout &acc, int opIdx,
                                const std::vector<int64_t> &shape);

/// The register of operand `opIdx` (laid out by fmaOperandToLinear) that
/// holds K index `k` for the accumulator element in register `accReg`.
int64_t fmaOperandRegister(const LinearLayout &acc, int opIdx, int64_t kSize,
                           int64_t accReg, int64_t k);

} // namespace layout
} // namespace tritium

#endif // TRITIUM_LAYOUT_FMADOTLAYOUT_H
