//===- LLIRPipeline.h - the make-llir pipeline ------------------*- C++ -*-===//
//
// The stage after TTGIR: from TritonGPU IR to a module of only the LLVM and
// NVVM dialects (the `.llir` artifact before translation to LLVM IR).
// Python selects it by name,
// `builtin.module(tritium-make-llir{compute-capability=90})`, and
// tritium-opt replays it with `-tritium-make-llir`.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_PIPELINES_LLIRPIPELINE_H
#define TRITIUM_PIPELINES_LLIRPIPELINE_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace tritium {

struct LLIRPipelineOptions
    : public mlir::PassPipelineOptions<LLIRPipelineOptions> {
  Option<int32_t> computeCapability{
      *this, "compute-capability",
      llvm::cl::desc("the GPU's compute capability times ten"),
      llvm::cl::init(90)};
  Option<int32_t> ptxVersion{
      *this, "ptx-version",
      llvm::cl::desc("the PTX ISA version inline assembly may use (84 = 8.4)"),
      llvm::cl::init(84)};
};

/// Adds the make-llir passes to `pm`, which must run on builtin.module:
/// ttg-allocate-shared-memory, convert-ttg-to-llvm, convert-scf-to-cf,
/// convert-cf-to-llvm, convert-arith-to-llvm, reconcile-unrealized-casts,
/// canonicalize, cse.
void buildLLIRPipeline(mlir::OpPassManager &pm,
                       const LLIRPipelineOptions &options);

/// Registers the pipeline as `tritium-make-llir`.
void registerLLIRPipeline();

} // namespace tritium

#endif // TRITIUM_PIPELINES_LLIRPIPELINE_H
