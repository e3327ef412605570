//===- PTXEmission.cpp - LLVM IR to PTX text -------------------------------===//
//
// Code generation still runs on the legacy pass manager.  The module must
// carry the machine's data layout (translateToLLVMIR sets it), otherwise
// codegen would see pointer sizes it was not built for.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/NVIDIA/PTXEmission.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

llvm::Expected<std::string>
tritium::nvidia::emitPTX(llvm::Module &module, llvm::TargetMachine &machine) {
  if (module.getDataLayout() != machine.createDataLayout())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the module's data layout is not NVPTX's (a compiler bug)");
  llvm::SmallString<0> ptx;
  {
    llvm::raw_svector_ostream stream(ptx);
    llvm::legacy::PassManager codegen;
    if (machine.addPassesToEmitFile(codegen, stream, nullptr,
                                    llvm::CodeGenFileType::AssemblyFile))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "NVPTX cannot emit PTX assembly");
    codegen.run(module);
  }
  return std::string(ptx.str());
}
