//===- LLVMIRTranslation.cpp - LLVM dialect to LLVM IR ---------------------===//
//
// Registers only the builtin, llvm and nvvm translations on the module's
// context (a Tritium context loads more dialects, but nothing else may be
// left by the time we translate), translates, and sets the NVPTX triple and
// data layout.  Discardable attributes of other dialects (`ttg.shared`,
// `tt.divisibility`, ...) are ignored by the translation.  Line information
// comes from the upstream ensure-debug-info-scope-on-llvm-func pass: it gives
// each function a DISubprogram in a compile unit, after which the translation
// turns FileLineColLocs into debug locations.  That pass expects every
// location to reach a file position; ops inlined from a @jit helper carry
// call-site locations (and some ops fused or unknown ones), so each location
// is first reduced to the position in the kernel a user would look for: the
// outermost caller's line.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/NVIDIA/LLVMIRTranslation.h"

#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
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

/// The file position `loc` stands for in the kernel's own source: the
/// caller of a call site (recursively), the first file position in a fused
/// or named location; null when there is none.
static mlir::FileLineColLoc kernelPosition(mlir::Location loc) {
  if (auto file = mlir::dyn_cast<mlir::FileLineColLoc>(loc))
    return file;
  if (auto callSite = mlir::dyn_cast<mlir::CallSiteLoc>(loc)) {
    if (mlir::FileLineColLoc caller = kernelPosition(callSite.getCaller()))
      return caller;
    return kernelPosition(callSite.getCallee());
  }
  if (auto name = mlir::dyn_cast<mlir::NameLoc>(loc))
    return kernelPosition(name.getChildLoc());
  if (auto fused = mlir::dyn_cast<mlir::FusedLoc>(loc))
    for (mlir::Location part : fused.getLocations())
      if (mlir::FileLineColLoc file = kernelPosition(part))
        return file;
  return {};
}

bool tritium::nvidia::addLineInfo(mlir::ModuleOp module) {
  // Every op gets a plain file position: its own, or its function's.
  module->walk([](mlir::Operation *op) {
    mlir::FileLineColLoc position = kernelPosition(op->getLoc());
    if (!position)
      if (auto function = op->getParentOfType<mlir::LLVM::LLVMFuncOp>())
        position = kernelPosition(function.getLoc());
    if (!position)
      position = mlir::FileLineColLoc::get(op->getContext(), "<unknown>", 0, 0);
    if (position != op->getLoc())
      op->setLoc(position);
  });
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
