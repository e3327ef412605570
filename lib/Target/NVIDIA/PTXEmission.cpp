//===- PTXEmission.cpp - LLVM IR to PTX text -------------------------------===//
//
// Code generation still runs on the legacy pass manager.  The module must
// carry the machine's data layout (translateToLLVMIR sets it), otherwise
// codegen would see pointer sizes it was not built for.
//
// One of NVPTX's IR passes is left out by default: straight-line strength
// reduction (`slsr`).  Its time grows faster than the kernel's address
// arithmetic: on tutorial 03's matmul at 128x256x64, 8 warps, with strides
// not known to be multiples of 16 (3,100 LLVM instructions), PTX emission
// takes 273 ms with it and 58 ms without (2-core host), most of the
// difference in ScalarEvolution::canReuseInstruction under the pass.  What
// it rewrites (B + i*S as a bump of an earlier B + j*S) ptxas
// strength-reduces itself: about half of the performance corpus's kernels
// come out byte for byte the same, the others within ptxas's scheduling
// spread either way (docs/performance.md).  A kernel that spills without it
// may be emitted again with it (Backend.cpp): its rewrites keep fewer
// address values live.
//
// Loop strength reduction (LSR) runs by default.  NVPTX's cost model gives
// it one register to weigh (getNumberOfRegisters), so it makes the address
// of each element of a tile that a loop advances an induction variable of
// its own, a 64-bit value live across the loop, wherever that saves an
// addition; a kernel that spills with that may be emitted again without it
// (Backend.cpp).
//
// Passes are left out through the context's pass gate, which legacy passes
// consult before they run (FunctionPass::skipFunction, LoopPass::skipLoop;
// the name a gate sees is the pass's argument for function passes and its
// display name for loop passes).
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/NVIDIA/PTXEmission.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/OptBisect.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

namespace {
/// Lets every codegen pass run but the strength reductions left out, and
/// defers to the gate it replaces (-opt-bisect-limit, -opt-disable) for the
/// others.
class SkipStrengthReduction : public llvm::OptPassGate {
public:
  SkipStrengthReduction(const llvm::OptPassGate &previous,
                        tritium::nvidia::StrengthReduction reductions)
      : previous(previous), reductions(reductions) {}
  bool shouldRunPass(llvm::StringRef passName,
                     llvm::StringRef ir) const override {
    if (!reductions.straightLine && passName == "slsr")
      return false;
    if (!reductions.loops && passName == "Loop Strength Reduction")
      return false;
    return !previous.isEnabled() || previous.shouldRunPass(passName, ir);
  }
  bool isEnabled() const override { return true; }

private:
  const llvm::OptPassGate &previous;
  tritium::nvidia::StrengthReduction reductions;
};
} // namespace

llvm::Expected<std::string>
tritium::nvidia::emitPTX(llvm::Module &module, llvm::TargetMachine &machine,
                         StrengthReduction reductions) {
  if (module.getDataLayout() != machine.createDataLayout())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the module's data layout is not NVPTX's (a compiler bug)");
  llvm::SmallString<0> ptx;
  llvm::LLVMContext &context = module.getContext();
  llvm::OptPassGate &previous = context.getOptPassGate();
  SkipStrengthReduction gate(previous, reductions);
  if (!reductions.straightLine || !reductions.loops)
    context.setOptPassGate(gate);
  llvm::scope_exit restore([&] { context.setOptPassGate(previous); });
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
