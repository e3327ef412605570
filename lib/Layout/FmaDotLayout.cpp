//===- FmaDotLayout.cpp - Operand layouts of a dot done with FMAs ---------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// Derives the register layouts of the operands of a CUDA-core dot from its
// accumulator's layout (see FmaDotLayout.h).
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/FmaDotLayout.h"

#include <cassert>

namespace tritium {
namespace layout {

namespace {

/// The accumulator dimension operand `opIdx` lacks: N (last) for A, M for B.
int droppedDim(int64_t rank, int opIdx) {
  return opIdx == 0 ? static_cast<int>(rank - 1) : static_cast<int>(rank - 2);
}

/// The operand dimension that is K: last for A, second to last for B.
int kDim(int64_t rank, int opIdx) { return droppedDim(rank, opIdx); }

/// `basis` (an accumulator coordinate) with the dropped dimension zeroed:
/// since K sits where the dropped dimension was, this is an operand
/// coordinate with k = 0.
std::vector<int64_t> project(std::vector<int64_t> basis, int dropped) {
  basis[dropped] = 0;
  return basis;
}

bool isZero(const std::vector<int64_t> &basis) {
  for (int64_t v : basis)
    if (v != 0)
      return false;
  return true;
}

} // namespace

LinearLayout fmaOperandToLinear(const LinearLayout &acc, int opIdx,
                                const std::vector<int64_t> &shape) {
  int64_t rank = acc.rank();
  assert((rank == 2 || rank == 3) && shape.size() == size_t(rank) &&
         "dot layouts are rank 2 or 3");
  assert((opIdx == 0 || opIdx == 1) && "opIdx is 0 or 1");
  int dropped = droppedDim(rank, opIdx);
  int k = kDim(rank, opIdx);
  LayoutBases bases;
  BasisList &regs = bases[static_cast<int>(HwDim::Register)];
  for (int64_t step = 1; step < shape[k]; step *= 2)
    regs.push_back(unitBasis(rank, k, step));
  for (const auto &basis : acc.bases(HwDim::Register)) {
    auto projected = project(basis, dropped);
    if (!isZero(projected))
      regs.push_back(projected);
  }
  for (HwDim dim : {HwDim::Lane, HwDim::Warp})
    for (const auto &basis : acc.bases(dim))
      bases[static_cast<int>(dim)].push_back(project(basis, dropped));
  return LinearLayout::wrapped(std::move(bases), shape);
}

int64_t fmaOperandRegister(const LinearLayout &acc, int opIdx, int64_t kSize,
                           int64_t accReg, int64_t k) {
  int dropped = droppedDim(acc.rank(), opIdx);
  int64_t selected = 0;
  int kept = 0;
  const BasisList &regs = acc.bases(HwDim::Register);
  for (int bit = 0, e = static_cast<int>(regs.size()); bit < e; ++bit) {
    if (isZero(project(regs[bit], dropped)))
      continue;
    if (accReg & (int64_t(1) << bit))
      selected |= int64_t(1) << kept;
    ++kept;
  }
  return k + kSize * selected;
}

} // namespace layout
} // namespace tritium
