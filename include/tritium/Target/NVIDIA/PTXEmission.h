//===- PTXEmission.h - LLVM IR to PTX text ----------------------*- C++ -*-===//
//
// NVPTX code generation: an optimized llvm::Module becomes PTX assembly whose
// `.version` and `.target` come from the target machine (CPU sm_90a, feature
// +ptx84, ...).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_NVIDIA_PTXEMISSION_H
#define TRITIUM_TARGET_NVIDIA_PTXEMISSION_H

#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace tritium::nvidia {

/// Emits `module` (retargeted to `machine` already) as PTX; with
/// `strengthReduce`, NVPTX's straight-line strength reduction runs too
/// (PTXEmission.cpp says why it does not by default).
llvm::Expected<std::string> emitPTX(llvm::Module &module,
                                    llvm::TargetMachine &machine,
                                    bool strengthReduce = false);

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_PTXEMISSION_H
