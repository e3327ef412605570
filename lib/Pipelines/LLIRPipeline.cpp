//===- LLIRPipeline.cpp - the make-llir pipeline --------------------------===//
//
// The pass order and why:
//   ttg-legalize-reduction-layouts
//                               reductions and scans on layouts their
//                               lowerings cannot run get converted operands
//                               (after every TTGIR pass, before the
//                               conversions' scratch is allocated);
//   ttg-allocate-shared-memory  offsets of the buffers the lowering uses;
//   ttg-membar                  barriers between shared-memory accesses
//                               that would race (it reads the offsets; the
//                               lowerings emit only the barriers inside
//                               an op);
//   ttg-fence-async-shared      stores into tiles that wgmma or TMA read
//                               get a proxy fence (on the final IR);
//   convert-ttg-to-llvm         everything but control flow to llvm + nvvm
//                               (scf keeps its structure, with LLVM types);
//   lower-loops-to-llvm         loops and ifs to llvm.br / llvm.cond_br,
//                               the arithmetic they need, and the casts
//                               left between converted types (upstream
//                               scf-to-cf, cf-to-llvm, arith-to-llvm and
//                               reconcile-unrealized-casts, applied to
//                               those ops only: the module is otherwise in
//                               the LLVM dialect already);
//   canonicalize, cse           fold the struct packing/unpacking of the
//                               per-thread elements and share the thread-id
//                               arithmetic;
//   llvm-hoist-before-barrier-waits
//                               the wgmma descriptors of a pipelined
//                               iteration computed before the wait for its
//                               stage (on the final, folded IR).
//
//===----------------------------------------------------------------------===//
#include "tritium/Pipelines/LLIRPipeline.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "tritium/Conversion/TTGToLLVM/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Passes.h"

void tritium::buildLLIRPipeline(mlir::OpPassManager &pm,
                                const LLIRPipelineOptions &options) {
  pm.addPass(ttg::createTTGLegalizeReductionLayoutsPass());
  pm.addPass(createTTGAllocateSharedMemoryPass());
  pm.addPass(createTTGMembarPass());
  pm.addPass(ttg::createTTGFenceAsyncSharedPass());
  ConvertTTGToLLVMPassOptions lowering;
  lowering.computeCapability = options.computeCapability;
  lowering.ptxVersion = options.ptxVersion;
  pm.addPass(createConvertTTGToLLVMPass(lowering));
  pm.addPass(createLowerLoopsToLLVMPass());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  pm.addNestedPass<mlir::LLVM::LLVMFuncOp>(createHoistBeforeBarrierWaitsPass());
}

void tritium::registerLLIRPipeline() {
  mlir::PassPipelineRegistration<LLIRPipelineOptions>(
      "tritium-make-llir",
      "TritonGPU IR to the LLVM and NVVM dialects: allocate shared memory, "
      "insert barriers, fence stores the async proxy reads, lower, loops to "
      "llvm branches, canonicalize, "
      "cse",
      buildLLIRPipeline);
}
