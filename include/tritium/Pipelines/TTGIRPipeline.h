//===- TTGIRPipeline.h - the make-ttgir pipeline ----------------*- C++ -*-===//
//
// The second stage of compilation: from clean Triton IR (the `.ttir`
// artifact) to TritonGPU IR with layouts chosen for the launch shape (the
// `.ttgir` artifact).  Python selects it by name with its options,
// `builtin.module(tritium-make-ttgir{num-warps=4 threads-per-warp=32
// num-ctas=1 target=cuda:90})`, and tritium-opt replays it the same way.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_PIPELINES_TTGIRPIPELINE_H
#define TRITIUM_PIPELINES_TTGIRPIPELINE_H

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace tritium {

/// The launch shape the pipeline targets (the options of convert-tt-to-ttg).
struct TTGIRPipelineOptions
    : public mlir::PassPipelineOptions<TTGIRPipelineOptions> {
  Option<int> numWarps{*this, "num-warps",
                       llvm::cl::desc("warps per CTA (a power of two)"),
                       llvm::cl::init(4)};
  Option<int> threadsPerWarp{*this, "threads-per-warp",
                             llvm::cl::desc("lanes per warp (a power of two)"),
                             llvm::cl::init(32)};
  Option<int> numCTAs{*this, "num-ctas",
                      llvm::cl::desc("CTAs per cluster (a power of two)"),
                      llvm::cl::init(1)};
  Option<int> numStages{*this, "num-stages",
                        llvm::cl::desc("stages of software pipelining of "
                                       "loops (1: none)"),
                        llvm::cl::init(3)};
  Option<std::string> target{
      *this, "target",
      llvm::cl::desc("the target, \"cuda:<compute capability>\""),
      llvm::cl::init("cuda:90")};
};

/// Adds the make-ttgir passes to `pm`, which must run on builtin.module:
/// convert-tt-to-ttg, ttg-coalesce, ttg-remove-layout-conversions,
/// ttg-accelerate-matmul, ttg-remove-layout-conversions,
/// loop-invariant-code-motion, ttg-warp-specialize, ttg-pipeline,
/// canonicalize, cse, sccp,
/// canonicalize (TTGIRPipeline.cpp says why in this order).
void buildTTGIRPipeline(mlir::OpPassManager &pm,
                        const TTGIRPipelineOptions &options);

/// Registers the pipeline as `tritium-make-ttgir`.
void registerTTGIRPipeline();

} // namespace tritium

#endif // TRITIUM_PIPELINES_TTGIRPIPELINE_H
