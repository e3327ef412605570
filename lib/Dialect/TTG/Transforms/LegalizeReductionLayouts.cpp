//===- LegalizeReductionLayouts.cpp - ttg-legalize-reduction-layouts ------===//
//
// Algorithm, for every tt.reduce and tt.scan whose operands have a
// distributed layout:
//   1. Ask the lowering's rule whether it handles the operand layout along
//      the op's axis (layout::reductionLayoutProblem for reductions,
//      layout::scanLayoutProblem for scans).  If it does, leave the op.
//   2. Otherwise take the default blocked layout of the operand shape over
//      the layout's own lanes and warps (the layout convert-tt-to-ttg gives
//      a fresh tensor), which both lowerings handle; if even that is
//      refused, leave the op for the lowering to report.
//   3. Convert every operand to it, build the same op (attributes and
//      combine region cloned) with result types in that layout (the slice
//      of it at the axis for reductions; scalars stay scalars), and convert
//      each tensor result back to its old type.
// The conversions go through shared memory like any other, so this costs a
// round trip only on layouts the lowerings could not run at all.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"
#include "tritium/Layout/ReductionRule.h"
#include "tritium/Layout/ScanRule.h"

namespace tritium::ttg {
#define GEN_PASS_DEF_TTGLEGALIZEREDUCTIONLAYOUTSPASS
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"
} // namespace tritium::ttg

using namespace mlir;
using namespace tritium;

namespace {

/// Why the lowering of `op` (a tt.reduce or tt.scan along `axis`) cannot
/// handle operands of `type`; empty when it can.
std::string loweringProblem(Operation *op, RankedTensorType type, int axis) {
  layout::LinearLayout layout = ttg::getDistributedEncoding(type).toLinearLayout(type.getShape());
  if (isa<tt::ReduceOp>(op))
    return layout::reductionLayoutProblem(layout, axis);
  return layout::scanLayoutProblem(layout, axis);
}

/// The type of result `result` of `op` rebuilt over operands in `encoding`.
Type resultTypeIn(Operation *op, Value result, Attribute encoding, int axis) {
  auto type = dyn_cast<RankedTensorType>(result.getType());
  if (!type)
    return result.getType(); // a scalar (rank-1 reduction)
  if (isa<tt::ScanOp>(op))
    return ttg::withEncoding(type, encoding);
  return ttg::withEncoding(
      type, ttg::SliceEncodingAttr::get(op->getContext(), axis, encoding));
}

void legalize(Operation *op, int axis) {
  auto srcType = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!srcType || !ttg::getDistributedEncoding(srcType) ||
      loweringProblem(op, srcType, axis).empty())
    return;
  // The warps the op runs on are its layout's (a warp-specialized
  // partition has fewer than the module).
  layout::LinearLayout layout = ttg::getDistributedEncoding(srcType).toLinearLayout(srcType.getShape());
  Attribute blocked = ttg::getDefaultBlockedEncoding(
      op->getContext(), srcType.getShape(),
      static_cast<int>(layout.inDimSize(layout::HwDim::Warp)),
      static_cast<int>(layout.inDimSize(layout::HwDim::Lane)));
  if (!loweringProblem(op, ttg::withEncoding(srcType, blocked), axis).empty())
    return; // the lowering reports it

  OpBuilder builder(op);
  Location loc = op->getLoc();
  OperationState state(loc, op->getName());
  for (Value operand : op->getOperands())
    state.addOperands(
        ttg::ConvertLayoutOp::create(
            builder, loc, ttg::withEncoding(operand.getType(), blocked), operand)
            .getResult());
  for (Value result : op->getResults())
    state.addTypes(resultTypeIn(op, result, blocked, axis));
  state.addAttributes(op->getAttrs());
  IRMapping mapping;
  op->getRegion(0).cloneInto(state.addRegion(), mapping);
  Operation *rebuilt = builder.create(state);
  for (auto [old, fresh] : llvm::zip(op->getResults(), rebuilt->getResults())) {
    Value replacement = fresh;
    if (old.getType() != fresh.getType())
      replacement =
          ttg::ConvertLayoutOp::create(builder, loc, old.getType(), fresh)
              .getResult();
    old.replaceAllUsesWith(replacement);
  }
  op->erase();
}

struct TTGLegalizeReductionLayoutsPass
    : public ttg::impl::TTGLegalizeReductionLayoutsPassBase<
          TTGLegalizeReductionLayoutsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<Operation *, int>> ops;
    getOperation().walk([&](Operation *op) {
      if (auto reduce = dyn_cast<tt::ReduceOp>(op))
        ops.push_back({op, static_cast<int>(reduce.getAxis())});
      else if (auto scan = dyn_cast<tt::ScanOp>(op))
        ops.push_back({op, static_cast<int>(scan.getAxis())});
    });
    for (auto [op, axis] : ops)
      legalize(op, axis);
  }
};

} // namespace
