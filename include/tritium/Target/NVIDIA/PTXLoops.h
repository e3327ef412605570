//===- PTXLoops.h - what the loops of PTX text advance -----------*- C++ -*-===//
//
// LLVM's loop strength reduction turns an address a loop computes from its
// induction variable into an induction variable of its own: a 64-bit
// register the loop advances by adding to it (`add.s64 %rdN, %rdN, step`).
// For a tile read through a tensor of pointers that is one register per
// element a thread reads, all live across the loop.  Backend.cpp counts
// them to tell whether a spilling kernel emitted without loop strength
// reduction is worth assembling.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_NVIDIA_PTXLOOPS_H
#define TRITIUM_TARGET_NVIDIA_PTXLOOPS_H

#include <string_view>

namespace tritium::nvidia {

/// Over the loops of `ptx` (a label and a later branch back to it), the sum
/// of the 64-bit registers each loop advances by adding to themselves
/// (`add.s64 %rdN, %rdN, x;`), each register counted once per loop.
unsigned addressesLoopsAdvance(std::string_view ptx);

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_PTXLOOPS_H
