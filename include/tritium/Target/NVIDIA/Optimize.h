//===- Optimize.h - LLVM's O3 pipeline for NVPTX ----------------*- C++ -*-===//
//
// The LLVM IR optimization Tritium runs between translation and PTX: the new
// pass manager's default module pipeline, built by a PassBuilder that knows
// the NVPTX target machine, so that NVPTX's own passes (NVVMReflect, which
// resolves libdevice's `__nvvm_reflect` tests, address-space inference,
// ...) and its cost model take part.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_NVIDIA_OPTIMIZE_H
#define TRITIUM_TARGET_NVIDIA_OPTIMIZE_H

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace tritium::nvidia {

/// Runs the default pipeline of `optLevel` (0-3; 3 is what kernels get) on
/// `module` for `machine`.  Optimization does not fail; its warnings go to the
/// module's LLVMContext diagnostic handler.
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine,
                    unsigned optLevel = 3);

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_OPTIMIZE_H
