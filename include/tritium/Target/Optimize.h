//===- Optimize.h - LLVM's O3 pipeline for a target machine -----*- C++ -*-===//
//
// The LLVM IR optimization both targets run between translation and code
// generation: the new pass manager's default module pipeline, built by a
// PassBuilder that knows the target machine, so that the target's own
// passes and cost model take part (for NVPTX: NVVMReflect, which resolves
// libdevice's `__nvvm_reflect` tests, address-space inference...; for the
// host: its vector widths).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_OPTIMIZE_H
#define TRITIUM_TARGET_OPTIMIZE_H

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace tritium {

/// Runs the default pipeline of `optLevel` (0-3; 3 is what kernels get) on
/// `module` for `machine`.  Optimization does not fail; its warnings go to the
/// module's LLVMContext diagnostic handler.
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine,
                    unsigned optLevel = 3);

} // namespace tritium

#endif // TRITIUM_TARGET_OPTIMIZE_H
