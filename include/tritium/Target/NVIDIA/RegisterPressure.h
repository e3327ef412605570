//===- RegisterPressure.h - live 32-bit words of an LLVM function -*- C++ -*-===//
//
// An estimate, before ptxas, of how many 32-bit registers a kernel's values
// hold at once: the most 32-bit words of SSA values live at any point of
// the optimized LLVM IR (Backend.cpp asks it whether a kernel will spill).
// Each value counts the registers NVPTX gives it: 64-bit values two, a
// vector or struct (an inline asm's outputs) the sum of its elements, 16-bit
// pairs (<2 x half>) one, predicates (i1) none; constants and globals none;
// an address a constant offset from another none (ptxas folds the offset
// into the access).  It knows nothing of ptxas's scheduling and rematerialization, so it is
// a bound to compare with a margin, not a register count.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_NVIDIA_REGISTERPRESSURE_H
#define TRITIUM_TARGET_NVIDIA_REGISTERPRESSURE_H

namespace llvm {
class Function;
}

namespace tritium::nvidia {

/// The most 32-bit words of values of `function` live at one point.
unsigned maxLiveWords(const llvm::Function &function);

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_REGISTERPRESSURE_H
