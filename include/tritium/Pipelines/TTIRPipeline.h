//===- TTIRPipeline.h - the make-ttir pipeline ------------------*- C++ -*-===//
//
// The first stage of compilation after the frontend: from the IR the Python
// frontend emits to clean, block-pointer-free Triton IR (the `.ttir`
// artifact), ready to be given layouts.  Python selects it by name,
// `builtin.module(tritium-make-ttir{compute-capability=90})`, and tritium-opt
// replays it with `-tritium-make-ttir`.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_PIPELINES_TTIRPIPELINE_H
#define TRITIUM_PIPELINES_TTIRPIPELINE_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace tritium {

struct TTIRPipelineOptions
    : public mlir::PassPipelineOptions<TTIRPipelineOptions> {
  Option<int32_t> computeCapability{
      *this, "compute-capability",
      llvm::cl::desc("the target's compute capability times ten (0: none); "
                     "from 90 on, block-pointer tiles that fit go through "
                     "tensor descriptors (TMA)"),
      llvm::cl::init(0)};
};

/// Adds the make-ttir passes to `pm`, which must run on builtin.module:
/// inline, tt-rewrite-tensor-pointer, canonicalize, tt-combine,
/// tt-reorder-broadcast, cse, symbol-dce, tt-loop-unroll, canonicalize.
void buildTTIRPipeline(mlir::OpPassManager &pm,
                       const TTIRPipelineOptions &options = {});

/// Registers the pipeline as `tritium-make-ttir`.
void registerTTIRPipeline();

} // namespace tritium

#endif // TRITIUM_PIPELINES_TTIRPIPELINE_H
