//===- LoopUnroll.cpp - tt-loop-unroll: unroll annotated scf.for loops ----===//
//
// A kernel asks for unrolling with `tl.range(..., loop_unroll_factor=N)`,
// which the frontend records as the discardable attribute
// `tt.loop_unroll_factor = N : i32` on the scf.for.  This pass honours it.
//
// Algorithm: collect the annotated loops innermost first (a post-order
// walk), so that an outer loop is unrolled after, and therefore copies, its
// already unrolled inner loops.  For each loop, remove the attribute first
// (the epilogue loop that unrolling may create is a copy of the loop and must
// not carry it), then call MLIR's scf unroller, which replicates the body N
// times with the induction variable offset by i * step and adds an epilogue
// loop for the remaining iterations when the trip count is not known to be a
// multiple of N.  Factors 0 and 1 only drop the attribute.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TT/Transforms/Passes.h"
#include "tritium/Dialect/TT/Transforms/Transforms.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"

namespace tritium::tt {
#define GEN_PASS_DEF_TTLOOPUNROLLPASS
#include "tritium/Dialect/TT/Transforms/Passes.h.inc"
} // namespace tritium::tt

using namespace mlir;
using namespace tritium::tt;

LogicalResult tritium::tt::unrollAnnotatedLoops(Operation *root) {
  SmallVector<scf::ForOp> loops;
  root->walk<WalkOrder::PostOrder>([&](scf::ForOp loop) {
    if (loop->hasAttr(kLoopUnrollFactorAttrName))
      loops.push_back(loop);
  });

  bool ok = true;
  for (scf::ForOp loop : loops) {
    Attribute attr = loop->removeAttr(kLoopUnrollFactorAttrName);
    auto factor = dyn_cast<IntegerAttr>(attr);
    if (!factor || !isa<IntegerType>(factor.getType())) {
      loop.emitError() << kLoopUnrollFactorAttrName
                       << " must be an integer, got " << attr;
      ok = false;
      continue;
    }
    int64_t n = factor.getInt();
    if (n <= 1)
      continue;
    if (failed(loopUnrollByFactor(loop, static_cast<uint64_t>(n))))
      loop.emitWarning() << "loop could not be unrolled by " << n
                         << "; it runs as written";
  }
  return success(ok);
}

namespace {
struct TTLoopUnrollPass
    : public tritium::tt::impl::TTLoopUnrollPassBase<TTLoopUnrollPass> {
  void runOnOperation() override {
    if (failed(unrollAnnotatedLoops(getOperation())))
      signalPassFailure();
  }
};
} // namespace
