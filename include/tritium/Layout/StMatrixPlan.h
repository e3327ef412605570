//===- StMatrixPlan.h - 16-bit tiles stored with stmatrix --------*- C++ -*-===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// stmatrix.sync.aligned.m8n8.x{1,2,4}.shared.b16 [addr], {r0, ...}: lane t
// names the address of row t % 8 of matrix t / 8, and register j of lane t
// holds elements (t / 4, 2 (t % 4) + {0, 1}) of matrix j (two 16-bit
// elements in 32 bits).  A distributed layout of 16-bit elements can be
// stored into a tile whose element offsets are XOR-linear in the tensor
// coordinates when, in those offsets,
//   register bit 0 moves by 1, lane bits 0 and 1 by 2 and 4 (a lane's pair
//     and its row of 8 consecutive elements, 16 bytes);
//   every other register, lane and warp bit moves by a multiple of 8 (rows
//     start 16-byte aligned, and XOR is addition inside a row).
// Then lane bits 2-4 pick the row of a matrix, register bits 1 and 2 (as
// many as there are, up to two) the matrix of an instruction, and the other
// register bits the instruction.  Lane t's address in instruction k is
//   rowOffset(t, w) ^ instructionOffsets[k],
//   rowOffset(t, w) = XOR of laneRowOffsets[i] over the set bits i of t
//                     ^ XOR of warpOffsets[i] over the set bits i of w;
// lane bits beyond the instruction's matrices are ignored by the hardware.
//
// This file only depends on the C++ standard library.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_LAYOUT_STMATRIXPLAN_H
#define TRITIUM_LAYOUT_STMATRIXPLAN_H

#include "tritium/Layout/LinearLayout.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace tritium {
namespace layout {

/// The stmatrix instructions that store one thread's registers.
struct StMatrixPlan {
  /// Matrices per instruction: 1, 2 or 4 (.x1, .x2, .x4).
  int64_t matrices = 0;
  /// Per instruction: its first register; matrix j holds registers
  /// first + 2j and first + 2j + 1.
  std::vector<int64_t> firstRegisters;
  /// Per instruction: the offset (elements) XORed into the lane's row offset.
  std::vector<int64_t> instructionOffsets;
  /// The row offset's term of each lane bit (5) and each warp bit.
  std::vector<int64_t> laneRowOffsets;
  std::vector<int64_t> warpOffsets;

  /// Lane `lane`'s row offset (elements) in warp `warp`.
  int64_t rowOffset(int64_t lane, int64_t warp) const;
};

/// The plan that stores `layout` (32 lanes; 16-bit elements) into a tile
/// laid out by `offset` (element offsets, XOR-linear in the coordinates),
/// or nullopt when the layout does not hold stmatrix's fragments (or
/// duplicates a register).
std::optional<StMatrixPlan>
planStMatrix(const LinearLayout &layout,
             const std::function<int64_t(const std::vector<int64_t> &)> &offset);

} // namespace layout
} // namespace tritium

#endif // TRITIUM_LAYOUT_STMATRIXPLAN_H
