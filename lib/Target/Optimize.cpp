//===- Optimize.cpp - LLVM's O3 pipeline for a target machine --------------===//
//
// The one TU that includes PassBuilder.h (a heavy header).  Analysis managers
// are built per call: they cache results for one module only.  Where the
// vectorizers start, the struct phis (loop-carried tensors) of loops of
// constant trip count are split into one phi per element and instcombine
// forwards the elements (ScalarizeStructPhis.h), so that the loop unroller
// after the vectorizers weighs such a loop by its arithmetic rather than by
// its struct packing.  The
// SLP vectorizer runs only where it can pack something: where some value is
// at most half as wide as the target's vector registers (on NVPTX, whose
// vectors are one 32-bit register, 8- and 16-bit values: f16x2 and bf16x2
// pairs); on a kernel of 32- and 64-bit values it finds nothing to pack and
// costs a large straight-line kernel about a sixth of its O3 time.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/Optimize.h"
#include "tritium/Target/ScalarizeStructPhis.h"

#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"

/// The width in bits of the narrowest integer, floating-point or pointer
/// value an instruction of `module` makes (vector elements counted one by
/// one; i1 predicates left out), or 0 when there is none.
static unsigned narrowestValueBits(const llvm::Module &module) {
  const llvm::DataLayout &layout = module.getDataLayout();
  unsigned narrowest = 0;
  for (const llvm::Function &function : module)
    for (const llvm::BasicBlock &block : function)
      for (const llvm::Instruction &instruction : block) {
        llvm::Type *type = instruction.getType()->getScalarType();
        if (!type->isIntegerTy() && !type->isFloatingPointTy() &&
            !type->isPointerTy())
          continue;
        unsigned bits = layout.getTypeSizeInBits(type).getFixedValue();
        if (bits > 1 && (narrowest == 0 || bits < narrowest))
          narrowest = bits;
      }
  return narrowest;
}

/// Whether the SLP vectorizer can pack two values of `module` into one of
/// `machine`'s vector registers.
static bool slpCanPack(const llvm::Module &module,
                       llvm::TargetMachine &machine) {
  auto defined = llvm::find_if(
      module, [](const llvm::Function &f) { return !f.isDeclaration(); });
  unsigned narrowest = narrowestValueBits(module);
  if (defined == module.end() || narrowest == 0)
    return false;
  // (the register width is the target's, the same for every function)
  llvm::TypeSize width =
      machine.getTargetTransformInfo(*defined).getRegisterBitWidth(
          llvm::TargetTransformInfo::RGK_FixedWidthVector);
  return 2 * narrowest <= width.getFixedValue();
}

void tritium::optimizeModule(llvm::Module &module,
                                     llvm::TargetMachine &machine,
                                     unsigned optLevel) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;

  llvm::PipelineTuningOptions tuning;
  // On NVPTX, SLP packs neighbouring f16/bf16 operations into their paired
  // forms (f16x2), and its cost model keeps the loop vectorizer from doing
  // harm; on the host, the vectorizers use its vector widths.
  tuning.LoopUnrolling = true;
  tuning.LoopInterleaving = true;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = slpCanPack(module, machine);

  // On NVPTX, VectorCombine is left out.  What it does to our kernels is
  // split vector loads whose uses are all extracts into scalar loads (a
  // CUDA-core dot operand's shared loads, 608 -> 2,304 on a 128x128x64 fp32
  // tile), which codegen's load-store vectorizer then searches its way back
  // to (0.23 s of its 0.38 s on that kernel).  See
  // test/Target/NVIDIA/no-vector-combine.mlir.
  llvm::PassInstrumentationCallbacks instrumentation;
  if (machine.getTargetTriple().isNVPTX())
    instrumentation.registerShouldRunOptionalPassCallback(
        [](llvm::StringRef pass, llvm::Any) { return pass != "VectorCombinePass"; });
  llvm::PassBuilder builder(&machine, tuning, std::nullopt, &instrumentation);
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
