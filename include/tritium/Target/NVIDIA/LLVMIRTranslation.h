//===- LLVMIRTranslation.h - LLVM dialect to LLVM IR ------------*- C++ -*-===//
//
// The step from MLIR to LLVM proper: a module of the builtin, llvm and nvvm
// dialects (what tritium-make-llir leaves) becomes an llvm::Module for
// nvptx64-nvidia-cuda with NVPTX's data layout, verified.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_NVIDIA_LLVMIRTRANSLATION_H
#define TRITIUM_TARGET_NVIDIA_LLVMIRTRANSLATION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
} // namespace llvm

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tritium::nvidia {

/// Gives every llvm.func of `module` a debug-info scope (debug directives
/// only),
/// so that the translated functions carry the IR's file:line:col locations
/// (the Python source lines) as debug locations, and PTX gets `.loc`
/// directives.  False if the pass fails.
bool addLineInfo(mlir::ModuleOp module);

/// Translates `module` into `llvmContext` and retargets the result to
/// `machine` (triple and data layout).  MLIR diagnostics of the translation go
/// to the context's handler as usual; the returned error then says that the
/// translation failed.  The LLVM IR verifier runs on the result.
llvm::Expected<std::unique_ptr<llvm::Module>>
translateToLLVMIR(mlir::ModuleOp module, llvm::LLVMContext &llvmContext,
                  const llvm::TargetMachine &machine);

/// The kernels of `module`: its functions with the ptx_kernel calling
/// convention, in module order.
std::vector<std::string> kernelNames(const llvm::Module &module);

/// The textual form of `module`.
std::string printLLVMIR(const llvm::Module &module);

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_LLVMIRTRANSLATION_H
