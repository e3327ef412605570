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

/// Which of NVPTX's strength reductions code generation runs
/// (PTXEmission.cpp says why the defaults are what they are).
struct StrengthReduction {
  /// Straight-line strength reduction (`slsr`): B + i*S rewritten as a bump
  /// of an earlier B + j*S.
  bool straightLine = false;
  /// Loop strength reduction (LSR): addresses a loop advances become
  /// induction variables of their own.
  bool loops = true;
};

/// Emits `module` (retargeted to `machine` already) as PTX, running the
/// strength reductions `reductions` asks for.
llvm::Expected<std::string> emitPTX(llvm::Module &module,
                                    llvm::TargetMachine &machine,
                                    StrengthReduction reductions = {});

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_PTXEMISSION_H
