//===- RemoveLayoutConversions.cpp - ttg-remove-layout-conversions --------===//
//
// Removes the ttg.convert_layout ops that convert-tt-to-ttg and ttg-coalesce
// leave between ops that could as well agree on one layout.
//
// Algorithm, per function (tt.func), in three steps:
//   1. propagateLayouts (LayoutPropagation.cpp): the layouts of anchored
//      ops (loads, stores, dots, ...) flood through the layout-agnostic ops
//      around them; each value takes the first layout that reaches it and
//      conversions are placed only where two floods meet.
//   2. rematerializeConversions (Rematerialization.cpp): a conversion of a
//      value computed cheaply from constants, splats and ranges is replaced
//      by recomputing the value in the target layout; repeated while it
//      removes conversions (each round may expose more).
//   3. cleanupConversions (ConversionCleanup.cpp): chains and no-op
//      conversions fold, dead ops and dead loop-carried values go.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace tritium::ttg {
#define GEN_PASS_DEF_TTGREMOVELAYOUTCONVERSIONSPASS
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"
} // namespace tritium::ttg

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

namespace {
/// Rounds of rematerialization; each round only handles conversions that
/// existed when it started.
constexpr int kMaxRematerializationRounds = 4;
} // namespace

void ttg::removeLayoutConversions(ModuleOp module) {
  SmallVector<FunctionOpInterface> functions;
  module.walk([&](FunctionOpInterface fn) {
    if (!fn.isExternal())
      functions.push_back(fn);
  });
  for (FunctionOpInterface fn : functions) {
    propagateLayouts(fn);
    cleanupConversions(fn);
    for (int round = 0; round < kMaxRematerializationRounds; ++round) {
      if (!rematerializeConversions(fn))
        break;
      cleanupConversions(fn);
    }
  }
}

namespace {
struct TTGRemoveLayoutConversionsPass
    : public tritium::ttg::impl::TTGRemoveLayoutConversionsPassBase<
          TTGRemoveLayoutConversionsPass> {
  void runOnOperation() override { removeLayoutConversions(getOperation()); }
};
} // namespace
