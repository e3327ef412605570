//===- Optimize.cpp - LLVM's O3 pipeline for a target machine --------------===//
//
// The one TU that includes PassBuilder.h (a heavy header).  Analysis managers
// are built per call: they cache results for one module only.  Where the
// vectorizers start, struct phis (loop-carried tensors) are split into one
// phi per element and instcombine forwards the elements
// (ScalarizeStructPhis.h), so that the loop unroller after the vectorizers
// weighs a loop by its arithmetic rather than by its struct packing.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/Optimize.h"
#include "tritium/Target/ScalarizeStructPhis.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"

void tritium::optimizeModule(llvm::Module &module,
                                     llvm::TargetMachine &machine,
                                     unsigned optLevel) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;

  llvm::PipelineTuningOptions tuning;
  // Everything on: on NVPTX, SLP packs neighbouring f16/bf16 operations into
  // their paired forms (f16x2) and adjacent scalar accesses into vector ones,
  // and its cost model keeps the loop vectorizer from doing harm; on the
  // host, the vectorizers use its vector widths.
  tuning.LoopUnrolling = true;
  tuning.LoopInterleaving = true;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;

  llvm::PassBuilder builder(&machine, tuning);
  builder.registerVectorizerStartEPCallback(
      [](llvm::FunctionPassManager &functions, llvm::OptimizationLevel) {
        functions.addPass(ScalarizeStructPhisPass());
        functions.addPass(llvm::InstCombinePass());
      });
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);

  llvm::OptimizationLevel level = llvm::OptimizationLevel::O3;
  switch (optLevel) {
  case 0:
    level = llvm::OptimizationLevel::O0;
    break;
  case 1:
    level = llvm::OptimizationLevel::O1;
    break;
  case 2:
    level = llvm::OptimizationLevel::O2;
    break;
  default:
    break;
  }
  llvm::ModulePassManager pipeline =
      level == llvm::OptimizationLevel::O0
          ? builder.buildO0DefaultPipeline(level)
          : builder.buildPerModuleDefaultPipeline(level);
  pipeline.run(module, modules);
}
