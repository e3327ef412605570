//===- TTIRPipeline.cpp - the make-ttir pipeline --------------------------===//
//
// The pass order and why:
//   inline                      device functions into kernels, so that every
//                               later pass sees whole kernels (and block
//                               pointers never cross a call);
//   tt-rewrite-tensor-pointer   block pointers become pointer tensors + masks
//                               (on Hopper, tiles feeding dots: descriptors);
//   canonicalize                folds what inlining and the rewrite exposed,
//                               and drops loop arguments left invariant;
//   tt-combine                  dot accumulation, addptr chains, masked loads;
//   tt-reorder-broadcast        arithmetic before splat/broadcast;
//   cse                         shares the index arithmetic of the rewrites;
//   tt-split-loop-pointers      a loop's tensors of pointers advanced by one
//                               step become scalar bases (after cse, so that
//                               tiles at equal offsets share them);
//   symbol-dce                  removes the inlined private functions (public
//                               kernels are always kept);
//   tt-loop-unroll              last, so that it copies cleaned-up bodies;
//   canonicalize                folds the unrolled copies.
//
//===----------------------------------------------------------------------===//
#include "tritium/Pipelines/TTIRPipeline.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "tritium/Dialect/TT/Transforms/Passes.h"

void tritium::buildTTIRPipeline(mlir::OpPassManager &pm,
                                const TTIRPipelineOptions &options) {
  pm.addPass(mlir::createInlinerPass());
  tt::TTRewriteTensorPointerPassOptions rewriteOptions;
  rewriteOptions.computeCapability = options.computeCapability;
  pm.addPass(tt::createTTRewriteTensorPointerPass(rewriteOptions));
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(tt::createTTCombinePass());
  pm.addPass(tt::createTTReorderBroadcastPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(tt::createTTSplitLoopPointersPass());
  pm.addPass(mlir::createSymbolDCEPass());
  pm.addPass(tt::createTTLoopUnrollPass());
  pm.addPass(mlir::createCanonicalizerPass());
}

void tritium::registerTTIRPipeline() {
  mlir::PassPipelineRegistration<TTIRPipelineOptions>(
      "tritium-make-ttir",
      "Frontend IR to clean Triton IR: inline, rewrite block pointers, "
      "canonicalize, combine, reorder broadcasts, cse, split loop pointers, "
      "symbol-dce, unroll "
      "annotated loops, canonicalize",
      buildTTIRPipeline);
}
