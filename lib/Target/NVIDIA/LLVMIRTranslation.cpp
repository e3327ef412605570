//===- LLVMIRTranslation.cpp - LLVM dialect to LLVM IR ---------------------===//
//
// Registers only the builtin, llvm and nvvm translations on the module's
// context (a Tritium context loads more dialects, but nothing else may be
// left by the time we translate), translates, and sets the NVPTX triple and
// data layout.  Discardable attributes of other dialects (`ttg.shared`,
// `tt.divisibility`, ...) are ignored by the translation.  Line information
// comes from the upstream ensure-debug-info-scope-on-llvm-func pass: it gives
// each function a DISubprogram in a compile unit, after which the translation
// turns FileLineColLocs into debug locations.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/NVIDIA/LLVMIRTranslation.h"

#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

using namespace tritium::nvidia;

bool tritium::nvidia::addLineInfo(mlir::ModuleOp module) {
  mlir::PassManager pm(module->getContext());
  // Debug directives only: `.loc`/`.file` without DWARF sections.  Line
  // tables proper make NVPTX mark the target `, debug`, which ptxas refuses
  // to optimize ("Optimized debugging not supported").
  mlir::LLVM::DIScopeForLLVMFuncOpPassOptions scopeOptions;
  scopeOptions.emissionKind = mlir::LLVM::DIEmissionKind::DebugDirectivesOnly;
  pm.addPass(mlir::LLVM::createDIScopeForLLVMFuncOpPass(scopeOptions));
  return mlir::succeeded(pm.run(module));
}

llvm::Expected<std::unique_ptr<llvm::Module>>
tritium::nvidia::translateToLLVMIR(mlir::ModuleOp module,
                                   llvm::LLVMContext &llvmContext,
                                   const llvm::TargetMachine &machine) {
  mlir::MLIRContext *context = module->getContext();
  mlir::registerBuiltinDialectTranslation(*context);
  mlir::registerLLVMDialectTranslation(*context);
  mlir::registerNVVMDialectTranslation(*context);

  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, llvmContext, "tritium");
  if (!llvmModule)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the LLVM dialect module could not be translated to LLVM IR");

  llvmModule->setTargetTriple(machine.getTargetTriple());
  llvmModule->setDataLayout(machine.createDataLayout());

  std::string problems;
  llvm::raw_string_ostream stream(problems);
  if (llvm::verifyModule(*llvmModule, &stream))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the translated LLVM IR is invalid (a compiler bug):\n" +
            problems);
  return std::move(llvmModule);
}

std::vector<std::string>
tritium::nvidia::kernelNames(const llvm::Module &module) {
  std::vector<std::string> names;
  for (const llvm::Function &f : module)
    if (!f.isDeclaration() &&
        f.getCallingConv() == llvm::CallingConv::PTX_Kernel)
      names.push_back(f.getName().str());
  return names;
}

std::string tritium::nvidia::printLLVMIR(const llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  module.print(stream, nullptr);
  return text;
}
