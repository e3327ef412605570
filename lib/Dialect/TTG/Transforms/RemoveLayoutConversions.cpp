//===- RemoveLayoutConversions.cpp - ttg-remove-layout-conversions --------===//
//
// Removes the ttg.convert_layout ops that convert-tt-to-ttg and ttg-coalesce
// leave between ops that could as well agree on one layout.
//
// Algorithm, per function (tt.func), in three steps, each followed by
// cleanupConversions (ConversionCleanup.cpp: chains and no-op conversions
// fold, conversions of one value to one type merge, dead ops and dead
// loop-carried values go):
//   1. propagateLayouts (LayoutPropagation.cpp): forward and backward from
//      the anchors (loads, stores, dots, function arguments, ...), layouts
//      flood through the layout-agnostic ops around them: element-wise ops,
//      broadcast, expand_dims and reductions (through slice layouts), scans,
//      and the values scf.for / scf.if / scf.while carry.  Each value takes
//      the layout of the nearest anchor; conversions are placed only where
//      two floods meet.
//   2. rematerializeConversions (Rematerialization.cpp): a conversion of a
//      value computed cheaply from constants, splats and ranges is replaced
//      by recomputing the value in the target layout; repeated while it
//      removes conversions (each round may expose more).
//   3. hoistConversions (Rematerialization.cpp): a conversion that remains
//      moves up the element-wise chain that computes its operand, to right
//      after the load (or other value) the chain starts from, unless that
//      converts more values or more bytes (a conversion to an mma.sync
//      operand in a loop moves up to its loads whatever their bytes: the
//      pipeliner reads them from shared memory in that layout).  What
//      cannot move, such as the
//      one conversion of a transpose between a load and a store with
//      different coalesced layouts, stays.
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
/// Rounds of rematerialization (and of hoisting); each round only handles
/// conversions that existed when it started.
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
    for (int round = 0; round < kMaxRematerializationRounds; ++round) {
      if (!hoistConversions(fn))
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
