//===- TTGIRPipeline.cpp - the make-ttgir pipeline -------------------------===//
//
// The pass order and why:
//   convert-tt-to-ttg              every tensor gets the default blocked
//                                  layout; the module records the launch
//                                  shape;
//   ttg-coalesce                   loads, stores and atomics get layouts that
//                                  vectorize and coalesce their accesses
//                                  (converting in and out);
//   ttg-remove-layout-conversions  those layouts spread to the computation
//                                  around the accesses, and the conversions
//                                  that no longer move data disappear;
//   ttg-optimize-thread-locality   a reduction a loop folds into a carried
//                                  value every iteration is kept per thread
//                                  and combined across threads once, after
//                                  the loop (it needs the coalesced layout
//                                  of the loaded tile);
//   ttg-accelerate-matmul          dots that fit a tensor-core instruction
//                                  move to mma layouts, the others get
//                                  their operands cast for FMAs;
//   ttg-remove-layout-conversions  again: the mma layout spreads through
//                                  the accumulating loop;
//   ttg-reduce-data-duplication    mma.sync operands that would be
//                                  converted through shared memory are read
//                                  from swizzled shared tiles (ldmatrix)
//                                  instead; it runs before pipelining (the
//                                  seeds place it later) because ttg-pipeline
//                                  streams loads into those tiles rather
//                                  than making its own;
//   ttg-cuda-core-dot-operands     both operands of a CUDA-core dot are
//                                  stored to shared tiles before either is
//                                  loaded, the loads right before the dot,
//                                  so ptxas can move them next to the FMAs;
//   ttg-optimize-dot-operands      wgmma takes an A computed in registers
//                                  (attention's probabilities) from there
//                                  instead of a shared tile, and an A
//                                  computed element-wise from tiles loaded
//                                  in its loop is computed in the operand
//                                  layout (before ttg-pipeline, which
//                                  streams those tiles);
//   ttg-reorder-instructions       shared-memory stores move up to their
//                                  tiles' loads, conversions down to their
//                                  users, so fewer registers stay live;
//   loop-invariant-code-motion     what the loops recompute every iteration
//                                  (pointer offsets, splats, masks of
//                                  invariant values) moves out before the
//                                  loops are pipelined;
//   ttg-warp-specialize            a matmul loop marked warp_specialize
//                                  gets a producer warp issuing its TMA
//                                  copies on mbarriers (its loads are gone
//                                  before ttg-pipeline looks);
//   ttg-pipeline                   loads that feed dots move num-stages - 1
//                                  iterations ahead through a ring of
//                                  shared buffers (cp.async, or TMA copies
//                                  completing on a ring of mbarriers for
//                                  tensor-descriptor loads);
//   ttg-prefetch                   mma.sync dots of pipelined loops read
//                                  their operands one 16-wide K slice
//                                  ahead, the next iteration's first slice
//                                  carried in registers;
//   ttg-slice-cuda-core-dots       CUDA-core dots with large operands (512
//                                  registers a thread or more) read them
//                                  from shared tiles four steps of K at a
//                                  time, each slice right before its FMAs;
//   ttg-lower-tensor-descriptors   the descriptor loads and stores left
//                                  become TMA copies through shared tiles
//                                  (Hopper);
//   ttg-subtile-tma-store          an epilogue's TMA-stored tile that does
//                                  not fit beside a tile loop's rings is
//                                  stored a slab at a time (after the
//                                  descriptor stores became shared tiles,
//                                  which the tile-loop passes budget);
//   ttg-prefetch-next-tile         a persistent kernel's tile loop marked
//                                  flatten issues the next tile's ring
//                                  prologue before this tile's epilogue;
//   ttg-defer-tma-store-wait       the epilogue waits for its TMA store
//                                  only before the next tile writes it;
//   ttg-continue-ring-across-tiles consecutive tiles' K loops share one
//                                  TMA ring;
//   ttg-defer-tile-store           a tile's TMA store is issued in the next
//                                  tile's K loop, after its first copies;
//   canonicalize                   folds what the rewrites exposed;
//   ttg-loop-aware-cse             values a loop carries side by side that
//                                  are equal by induction become one;
//   cse                            shares the index arithmetic that
//                                  rematerialization duplicated;
//   sccp, canonicalize             constants the pipeliner's predicates and
//                                  slot counters expose fold.
//
//===----------------------------------------------------------------------===//
#include "tritium/Pipelines/TTGIRPipeline.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "tritium/Conversion/TTToTTG/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Passes.h"

void tritium::buildTTGIRPipeline(mlir::OpPassManager &pm,
                                 const TTGIRPipelineOptions &options) {
  ConvertTTToTTGPassOptions convertOptions;
  convertOptions.numWarps = options.numWarps;
  convertOptions.threadsPerWarp = options.threadsPerWarp;
  convertOptions.numCTAs = options.numCTAs;
  convertOptions.target = options.target;
  pm.addPass(createConvertTTToTTGPass(convertOptions));
  pm.addPass(ttg::createTTGCoalescePass());
  pm.addPass(ttg::createTTGRemoveLayoutConversionsPass());
  pm.addPass(ttg::createTTGOptimizeThreadLocalityPass());
  pm.addPass(ttg::createTTGAccelerateMatmulPass());
  pm.addPass(ttg::createTTGRemoveLayoutConversionsPass());
  pm.addPass(ttg::createTTGReduceDataDuplicationPass());
  pm.addPass(ttg::createTTGCudaCoreDotOperandsPass());
  pm.addPass(ttg::createTTGOptimizeDotOperandsPass());
  pm.addPass(ttg::createTTGReorderInstructionsPass());
  pm.addPass(mlir::createLoopInvariantCodeMotionPass());
  ttg::TTGWarpSpecializePassOptions specializeOptions;
  specializeOptions.numStages = options.numStages;
  pm.addPass(ttg::createTTGWarpSpecializePass(specializeOptions));
  ttg::TTGPipelinePassOptions pipelineOptions;
  pipelineOptions.numStages = options.numStages;
  pm.addPass(ttg::createTTGPipelinePass(pipelineOptions));
  pm.addPass(ttg::createTTGPrefetchPass());
  pm.addPass(ttg::createTTGSliceCudaCoreDotsPass());
  pm.addPass(ttg::createTTGLowerTensorDescriptorsPass());
  pm.addPass(ttg::createTTGSubtileTMAStorePass());
  pm.addPass(ttg::createTTGPrefetchNextTilePass());
  pm.addPass(ttg::createTTGDeferTMAStoreWaitPass());
  pm.addPass(ttg::createTTGContinueRingAcrossTilesPass());
  pm.addPass(ttg::createTTGDeferTileStorePass());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(ttg::createTTGLoopAwareCSEPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(mlir::createSCCPPass());
  pm.addPass(mlir::createCanonicalizerPass());
}

void tritium::registerTTGIRPipeline() {
  mlir::PassPipelineRegistration<TTGIRPipelineOptions>(
      "tritium-make-ttgir",
      "Triton IR to TritonGPU IR for a launch shape: convert-tt-to-ttg, "
      "ttg-coalesce, ttg-remove-layout-conversions, ttg-optimize-thread-locality, "
      "ttg-accelerate-matmul, "
      "ttg-remove-layout-conversions, ttg-reduce-data-duplication, "
      "ttg-cuda-core-dot-operands, ttg-optimize-dot-operands, ttg-reorder-instructions, "
      "loop-invariant-code-motion, ttg-warp-specialize, ttg-pipeline, ttg-prefetch, "
      "ttg-slice-cuda-core-dots, "
      "ttg-lower-tensor-descriptors, ttg-subtile-tma-store, "
      "ttg-prefetch-next-tile, ttg-defer-tma-store-wait, "
      "ttg-continue-ring-across-tiles, ttg-defer-tile-store, "
      "canonicalize, ttg-loop-aware-cse, cse, sccp, canonicalize",
      buildTTGIRPipeline);
}
