//===- Rematerialization.cpp - step 2 of remove-layout-conversions --------===//
//
// A conversion of a cheaply computed value is replaced by computing the
// value again, directly in the target layout.  Step 1 gives each value one
// layout; this step removes the conversions that remain where one value is
// needed in two layouts, such as index ranges and masks shared by a load and
// a store that coalesced differently.
//
// Algorithm, for each ttg.convert_layout (source x, target layout T):
//   1. Plan, depth first from x, which layout each value must be recomputed
//      in (T for x; the slice at the axis for the operand of an
//      expand_dims).  A value stops the walk when it already has the layout
//      it is needed in (it is used as it is); a conversion is looked
//      through (its source is needed in the same layout); splat, make_range
//      and dense constants, element-wise ops, broadcasts and expand_dims are
//      recomputed.  Anything else (loads, block arguments, reductions, a
//      value needed in two layouts, more than kMaxRematerializedOps ops)
//      abandons the plan.
//   2. Clone the planned ops, operands first, each right after its original
//      (so it sees the same operands and stays at the same loop depth), with
//      result types in the planned layouts.
//   3. Replace the conversion by the copy of x.  The originals stay for
//      their other users; step 3 erases those left unused.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "LayoutRoles.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;
using namespace tritium::ttg::detail;

namespace {
/// Plans larger than this are abandoned: duplicating them would cost more
/// than the conversion saves.
constexpr size_t kMaxRematerializedOps = 64;

class RematerializationPlan {
public:
  /// Plans recomputing `root` in `layout`; false if it cannot be done.
  bool build(Value root, Attribute layout) { return need(root, layout); }

  /// Clones the planned ops and returns the copy of `root`.
  Value apply(Value root) {
    IRMapping mapping;
    for (Operation *op : order) {
      if (auto convert = dyn_cast<ConvertLayoutOp>(op)) {
        mapping.map(convert.getResult(),
                    mapping.lookupOrDefault(convert.getSrc()));
        continue;
      }
      OpBuilder builder(op->getContext());
      builder.setInsertionPointAfter(op);
      Operation *copy = builder.clone(*op, mapping);
      Value result = copy->getResult(0);
      auto type = withEncoding(result.getType(), needed.lookup(op->getResult(0)));
      result.setType(type);
      if (auto constant = dyn_cast<arith::ConstantOp>(copy))
        constant.setValueAttr(
            cast<DenseElementsAttr>(constant.getValue()).reshape(type));
      mapping.map(op->getResult(0), result);
    }
    return mapping.lookupOrDefault(root);
  }

private:
  /// Records that `value` is needed in `layout` and plans how.
  bool need(Value value, Attribute layout) {
    auto [it, inserted] = needed.insert({value, layout});
    if (!inserted)
      return it->second == layout;
    DistributedEncodingAttr current = getLayoutOf(value);
    if (!current || !layout)
      return false;
    if (current == layout)
      return true;
    Operation *def = value.getDefiningOp();
    if (!def || def->getNumResults() != 1 || def->getNumRegions() != 0)
      return false;
    switch (getLayoutRole(def)) {
    case LayoutRole::Convert:
      if (!need(def->getOperand(0), layout))
        return false;
      break;
    case LayoutRole::Producer:
      break;
    case LayoutRole::SameLayout:
      for (Value operand : def->getOperands())
        if (getLayoutOf(operand) && !need(operand, layout))
          return false;
      break;
    case LayoutRole::ExpandDims: {
      auto expand = cast<tt::ExpandDimsOp>(def);
      if (!need(expand.getSrc(), getSlice(layout, expand.getAxis())))
        return false;
      break;
    }
    default:
      return false;
    }
    order.push_back(def);
    return order.size() <= kMaxRematerializedOps;
  }

  /// The layout each visited value is needed in.
  llvm::MapVector<Value, Attribute> needed;
  /// Ops to recompute (and conversions to look through), operands first.
  SmallVector<Operation *> order;
};
} // namespace

bool ttg::rematerializeConversions(Operation *funcOp) {
  SmallVector<ConvertLayoutOp> conversions;
  funcOp->walk([&](ConvertLayoutOp op) { conversions.push_back(op); });
  bool changed = false;
  for (ConvertLayoutOp conversion : conversions) {
    RematerializationPlan plan;
    if (!plan.build(conversion.getSrc(),
                    cast<RankedTensorType>(conversion.getType()).getEncoding()))
      continue;
    Value copy = plan.apply(conversion.getSrc());
    conversion.getResult().replaceAllUsesWith(copy);
    conversion->erase();
    changed = true;
  }
  return changed;
}
