//===- LayoutPropagation.cpp - step 1 of remove-layout-conversions --------===//
//
// Chooses one layout per tensor value of a function so that conversions are
// needed only where two anchored layouts meet, then rewrites the types in
// place.
//
// Algorithm (a prioritised flood fill over the values of a function):
//   1. Anchors.  Results of Fixed ops and block arguments other than the
//      values scf.for and scf.while carry keep their layout; so do the
//      operands of Fixed ops (their current type is what the op was built
//      for, e.g. the coalesced layout of a load's pointers).  Remember the
//      operand requirements.
//   2. Flood.  Anchored results and block arguments are claimed with their
//      own layouts up front.  Then they spread their claims breadth first
//      along the links between values (LayoutRoles.h), loop depth by loop
//      depth, the anchors inside the most loops first and those of one depth
//      together, so that each value goes to the nearest anchor of the
//      innermost loop that reaches it (ties to the earlier one): where
//      floods from inside and outside a loop meet, the conversion lands on
//      the loop's boundary rather than in its body (these floods stop at
//      tensors of pointers, but for those of a load or store of fewer
//      elements than threads, which follows its value and takes its
//      pointers with it; a claim through its mask does not move it) -
//      then the pointer operands of Fixed ops (loads, stores, atomics)
//      flood: a tensor of pointers belongs to its access, not to a dot
//      whose index arithmetic it shares; then, the same way, the other
//      anchored operands over the values still unclaimed:
//        SameLayout   every tensor operand and result, same layout (a
//                     #ttg.linear layout, made for one shape, stops at a
//                     tt.broadcast);
//        Convert      operand <-> result, same layout;
//        ExpandDims   result L -> operand slice(L, axis); operand
//                     slice(P, axis) -> result P;
//        Trans        operand L <-> result L permuted (getTransposed, the
//                     inverse permutation backwards);
//        Reshape      operand L <-> result L relabelled by row-major index
//                     (getReshaped, from either side);
//        Reduce       operands share L; results get slice(L, axis), and a
//                     result slice(P, axis) gives operands P;
//        For / If     init, iteration argument, yield and result of one
//                     carried value (each branch's yield and the result);
//        While        init, `before` argument and `after` yield of one
//                     value; scf.condition operand, `after` argument and
//                     result of another.
//      A claim that crosses a tt.broadcast from its operand to its result
//      waits until the floods of full-size values of its round have
//      stopped: a broadcast tensor holds its operand's few elements, so
//      where it meets a full-size value (a dot's result scaled by a row
//      vector, `tl.dot(a, b) * s[:, None]`) the small side is converted
//      (Triton resolves the same meeting in favour of the dot's layout).
//      A value keeps the first claim; a flood stops at values already
//      claimed.  Values no flood reaches keep their layout.  Spreading from
//      all anchors at once keeps a flood from running through shared index
//      arithmetic into the values (loop-carried pointers, say) of another
//      anchor's computation.
//   3. Rewrite.  Every claimed value takes its layout in place (constants
//      re-type their payload).  Then each op is checked against its role and
//      a ttg.convert_layout is inserted where an operand (or a result, for
//      ops whose results follow their operands) disagrees: this is where two
//      floods met.  A tt.reshape with allow_reorder (a whole-tensor
//      reduction's `tl.max(x)`, `tl.reshape(x, s, can_reorder=True)`) may
//      place the elements in any order, so its operand is taken in the
//      layout its flood gave it when that layout and the result's hold every
//      element once and as many per thread: each thread's registers are
//      relabelled (Triton's rule: such a reshape is free unless it is an
//      expensive view).  One marked efficient_layout keeps its operand's
//      layout: its pass chose which elements share a thread.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "LayoutRoles.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Layout/LinearLayout.h"

#include <deque>
#include <map>
#include <optional>
#include <utility>

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;
using namespace tritium::ttg::detail;

namespace {
/// The permutation that undoes `order` (inverse[order[i]] = i).
SmallVector<int32_t> inversePermutation(ArrayRef<int32_t> order) {
  SmallVector<int32_t> inverse(order.size());
  for (auto [i, d] : llvm::enumerate(order))
    inverse[d] = static_cast<int32_t>(i);
  return inverse;
}

ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

class LayoutFlood {
public:
  explicit LayoutFlood(Operation *funcOp) : funcOp(funcOp) {}

  void run() {
    collectAnchors();
    // Anchored values are claimed up front, so that no flood re-types them,
    // and flood together by loop depth, the deepest first: each value goes
    // to the nearest anchor of the innermost loop that reaches it.  Where
    // floods from inside and outside a loop meet, the conversion then lands
    // on the loop's boundary (a loop-invariant operand, an initial value, a
    // result), once, rather than inside it, every iteration.
    std::map<int, SmallVector<Value>, std::greater<int>> byDepth;
    for (Value value : anchoredValues) {
      claims.insert({value, getLayoutOf(value)});
      byDepth[loopDepth(value)].push_back(value);
    }
    for (auto &[depth, values] : byDepth) {
      for (Value value : values)
        queue.push_back(value);
      drainAll();
    }
    // Tensors of pointers flood with them: they belong to the access they
    // address, not to a dot or a reduction whose index arithmetic they
    // share (a loop-carried pointer tensor in an mma layout would be
    // converted back, 8 bytes an element, every iteration; a store's
    // pointers in a slice of an mma layout would pull the stored value's
    // computation into a layout that repeats each element in many
    // threads).  The floods above stop at them.
    pointersOpen = true;
    for (auto [operand, type] : requirements)
      if (isa<tt::PointerType>(cast<RankedTensorType>(type).getElementType()))
        claim(operand->get(), cast<RankedTensorType>(type).getEncoding());
    drainAll();
    // Then the operand requirements, together, over what is left.
    for (auto [operand, type] : requirements)
      claim(operand->get(), cast<RankedTensorType>(type).getEncoding());
    drainAll();
    applyClaims();
    insertConversions();
  }

private:
  //===--------------------------------------------------------------------===//
  // Anchors and flood
  //===--------------------------------------------------------------------===//

  void collectAnchors() {
    funcOp->walk<WalkOrder::PreOrder>([&](Operation *op) {
      LayoutRole role = getLayoutRole(op);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            if (!(role == LayoutRole::For && arg.getArgNumber() > 0) &&
                role != LayoutRole::While && getLayoutOf(arg))
              anchoredValues.push_back(arg);
      if (role != LayoutRole::Fixed)
        return;
      for (Value result : op->getResults())
        if (getLayoutOf(result))
          anchoredValues.push_back(result);
      for (OpOperand &operand : op->getOpOperands())
        if (getLayoutOf(operand.get()))
          requirements.emplace_back(&operand, operand.get().getType());
    });
  }

  /// How many loops (scf.for, scf.while) enclose the op that defines
  /// `value` (the block of a block argument).
  static int loopDepth(Value value) {
    Operation *op = value.getDefiningOp();
    if (!op)
      op = cast<BlockArgument>(value).getOwner()->getParentOp();
    int depth = 0;
    for (; op; op = op->getParentOp())
      if (isa<scf::ForOp, scf::WhileOp>(op))
        ++depth;
    return depth;
  }

  /// `byItsAccess`: the claim comes through the load or store that `value`
  /// addresses (one that follows its value's layout), which may claim its
  /// pointers before the accesses' floods.
  void claim(Value value, Attribute layout, bool byItsAccess = false) {
    auto current = getLayoutOf(value);
    auto distributed = dyn_cast_or_null<DistributedEncodingAttr>(layout);
    if (!current || !distributed ||
        distributed.getRank() != current.getRank())
      return;
    if (!pointersOpen && !byItsAccess &&
        isa<tt::PointerType>(cast<RankedTensorType>(value.getType()).getElementType()))
      return;
    if (!claims.insert({value, layout}).second)
      return;
    queue.push_back(value);
  }

  /// Whether `use` is the mask (or a load's `other`) of a load or store.
  static bool isMaskOperand(Operation *op, OpOperand *use) {
    auto isIn = [&](MutableOperandRange range) {
      return !range.empty() && &range[0] == use;
    };
    if (!use)
      return false;
    if (auto store = dyn_cast<tt::StoreOp>(op))
      return isIn(store.getMaskMutable());
    if (auto load = dyn_cast<tt::LoadOp>(op))
      return isIn(load.getMaskMutable()) || isIn(load.getOtherMutable());
    return false;
  }

  /// Drains the queue, then the claims that crossed a broadcast, as a
  /// flood of their own, until neither is left.
  void drainAll() {
    do {
      drain();
      for (auto [value, layout] : std::exchange(acrossBroadcasts, {}))
        claim(value, layout);
    } while (!queue.empty());
  }

  void drain() {
    while (!queue.empty()) {
      Value value = queue.front();
      queue.pop_front();
      Attribute layout = claims.lookup(value);
      if (auto result = dyn_cast<OpResult>(value))
        spreadThrough(result.getOwner(), value, layout, /*use=*/nullptr);
      else
        spreadThroughRegionArgument(cast<BlockArgument>(value), layout);
      for (OpOperand &use : value.getUses())
        spreadThrough(use.getOwner(), value, layout, &use);
    }
  }

  /// Claims the values `op` links to `value` (an operand when `use` is set,
  /// else a result of `op`).
  void spreadThrough(Operation *op, Value value, Attribute layout,
                     OpOperand *use) {
    switch (getLayoutRole(op)) {
    case LayoutRole::Fixed:
    case LayoutRole::Producer:
      return;
    case LayoutRole::SameLayout:
    case LayoutRole::Convert:
      // A #ttg.linear layout (what a reshape gives) was built for one shape:
      // across a broadcast it would repeat the small operand's duplicated
      // threads over the large result (every thread holding whole
      // columns), so it stops there and the small side is converted.
      if (isa<tt::BroadcastOp>(op) && isa<LinearEncodingAttr>(layout))
        return;
      if (isa<tt::BroadcastOp>(op) && use) {
        acrossBroadcasts.emplace_back(op->getResult(0), layout);
        return;
      }
      // A load or store of fewer elements than threads follows its value
      // and takes its pointers with it; a claim through its mask (a range
      // it shares with a loop's mask, say) does not move it.
      if (isMaskOperand(op, use))
        return;
      for (Value operand : op->getOperands())
        claim(operand, layout, /*byItsAccess=*/isa<tt::LoadOp, tt::StoreOp>(op));
      for (Value result : op->getResults())
        claim(result, layout);
      return;
    case LayoutRole::ExpandDims: {
      auto expand = cast<tt::ExpandDimsOp>(op);
      if (use)
        claim(expand.getResult(), getSliceParent(layout, expand.getAxis()));
      else
        claim(expand.getSrc(), getSlice(layout, expand.getAxis()));
      return;
    }
    case LayoutRole::Trans: {
      auto trans = cast<tt::TransOp>(op);
      if (use)
        claim(trans.getResult(),
              getTransposed(layout, shapeOf(trans.getSrc()), trans.getOrder()));
      else
        claim(trans.getSrc(), getTransposed(layout, shapeOf(trans.getResult()),
                                            inversePermutation(trans.getOrder())));
      return;
    }
    case LayoutRole::Reshape: {
      auto reshape = cast<tt::ReshapeOp>(op);
      ArrayRef<int64_t> srcShape = shapeOf(reshape.getSrc());
      ArrayRef<int64_t> dstShape = shapeOf(reshape.getResult());
      if (use)
        claim(reshape.getResult(), getReshaped(layout, srcShape, dstShape));
      else
        claim(reshape.getSrc(), getReshaped(layout, dstShape, srcShape));
      return;
    }
    case LayoutRole::Reduce: {
      auto reduce = cast<tt::ReduceOp>(op);
      Attribute operandLayout =
          use ? layout : getSliceParent(layout, reduce.getAxis());
      Attribute resultLayout =
          use ? Attribute(getSlice(layout, reduce.getAxis())) : layout;
      if (operandLayout)
        for (Value src : reduce.getSrcs())
          claim(src, operandLayout);
      for (Value result : reduce.getResults())
        claim(result, resultLayout);
      return;
    }
    case LayoutRole::For: {
      auto forOp = cast<scf::ForOp>(op);
      if (!use)
        spreadThroughLoop(forOp, cast<OpResult>(value).getResultNumber(),
                          layout);
      else if (use->getOperandNumber() >= forOp.getNumControlOperands())
        spreadThroughLoop(forOp,
                          use->getOperandNumber() -
                              forOp.getNumControlOperands(),
                          layout);
      return;
    }
    case LayoutRole::If:
      if (!use)
        spreadThroughIf(cast<scf::IfOp>(op),
                        cast<OpResult>(value).getResultNumber(), layout);
      return;
    case LayoutRole::While: {
      auto whileOp = cast<scf::WhileOp>(op);
      if (!use)
        spreadThroughWhileAfter(whileOp,
                                cast<OpResult>(value).getResultNumber(), layout);
      else
        spreadThroughWhileBefore(whileOp, use->getOperandNumber(), layout);
      return;
    }
    case LayoutRole::Condition:
      // Operand 0 is the i1 condition; the others feed the `after` region.
      if (use->getOperandNumber() > 0)
        spreadThroughWhileAfter(cast<scf::WhileOp>(op->getParentOp()),
                                use->getOperandNumber() - 1, layout);
      return;
    case LayoutRole::Yield: {
      unsigned index = use->getOperandNumber();
      Operation *parent = op->getParentOp();
      if (auto forOp = dyn_cast<scf::ForOp>(parent))
        spreadThroughLoop(forOp, index, layout);
      else if (auto whileOp = dyn_cast<scf::WhileOp>(parent))
        spreadThroughWhileBefore(whileOp, index, layout);
      else
        spreadThroughIf(cast<scf::IfOp>(parent), index, layout);
      return;
    }
    }
  }

  /// Iteration arguments of scf.for and the arguments of scf.while's regions
  /// are linked like the values their op carries; other block arguments are
  /// anchors.
  void spreadThroughRegionArgument(BlockArgument arg, Attribute layout) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
      if (arg.getArgNumber() > 0)
        spreadThroughLoop(forOp, arg.getArgNumber() - 1, layout);
    } else if (auto whileOp = dyn_cast<scf::WhileOp>(parent)) {
      if (arg.getParentRegion() == &whileOp.getBefore())
        spreadThroughWhileBefore(whileOp, arg.getArgNumber(), layout);
      else
        spreadThroughWhileAfter(whileOp, arg.getArgNumber(), layout);
    }
  }

  /// Value `index` entering the `before` region of `whileOp`: its init, the
  /// region's argument and what the `after` region yields for it.
  void spreadThroughWhileBefore(scf::WhileOp whileOp, unsigned index,
                                Attribute layout) {
    claim(whileOp.getInits()[index], layout);
    claim(whileOp.getBeforeArguments()[index], layout);
    claim(whileOp.getYieldOp().getOperand(index), layout);
  }

  /// Value `index` that scf.condition forwards: the operand, the `after`
  /// region's argument and the result.
  void spreadThroughWhileAfter(scf::WhileOp whileOp, unsigned index,
                               Attribute layout) {
    claim(whileOp.getConditionOp().getArgs()[index], layout);
    claim(whileOp.getAfterArguments()[index], layout);
    claim(whileOp.getResult(index), layout);
  }

  /// The four faces of carried value `index` of `forOp`.
  void spreadThroughLoop(scf::ForOp forOp, unsigned index, Attribute layout) {
    claim(forOp.getInitArgs()[index], layout);
    claim(forOp.getRegionIterArgs()[index], layout);
    claim(forOp.getResult(index), layout);
    claim(forOp.getBody()->getTerminator()->getOperand(index), layout);
  }

  /// Result `index` of `ifOp` and what each branch yields for it.
  void spreadThroughIf(scf::IfOp ifOp, unsigned index, Attribute layout) {
    claim(ifOp.getResult(index), layout);
    claim(ifOp.thenYield().getOperand(index), layout);
    if (!ifOp.getElseRegion().empty())
      claim(ifOp.elseYield().getOperand(index), layout);
  }

  //===--------------------------------------------------------------------===//
  // Rewrite
  //===--------------------------------------------------------------------===//

  void applyClaims() {
    for (auto [value, layout] : claims) {
      if (getLayoutOf(value) == layout)
        continue;
      auto type = withEncoding(value.getType(), layout);
      value.setType(type);
      if (auto constant = value.getDefiningOp<arith::ConstantOp>())
        constant.setValueAttr(
            cast<DenseElementsAttr>(constant.getValue()).reshape(type));
    }
  }

  /// Makes `operand` have `type`, converting it just before its user.
  void requireOperandType(OpOperand &operand, Type type) {
    if (operand.get().getType() == type)
      return;
    OpBuilder builder(operand.getOwner());
    operand.set(ConvertLayoutOp::create(builder, operand.getOwner()->getLoc(),
                                        type, operand.get()));
  }

  /// Makes `operand` hold its elements where `layout` does: unchanged when
  /// its layout already places them so (a blocked layout and the
  /// #ttg.linear form a transpose or reshape computed from it, say), else
  /// converted to `layout`.
  void requireEquivalentOperand(OpOperand &operand, DistributedEncodingAttr layout) {
    auto current = getLayoutOf(operand.get());
    if (!layout || !current)
      return;
    std::vector<int64_t> shape(shapeOf(operand.get()).begin(), shapeOf(operand.get()).end());
    if (current == layout || current.toLinearLayout(shape) == layout.toLinearLayout(shape))
      return;
    requireOperandType(operand, withEncoding(operand.get().getType(), layout));
  }

  /// Gives `result` of `op` the `type` its op produces and converts it back
  /// to the type its users were given.
  void requireResultType(Operation *op, Value result, Type type) {
    Type claimed = result.getType();
    if (claimed == type)
      return;
    result.setType(type);
    OpBuilder builder(op->getContext());
    builder.setInsertionPointAfter(op);
    auto back = ConvertLayoutOp::create(builder, op->getLoc(), claimed, result);
    result.replaceAllUsesExcept(back, back.getOperation());
  }

  /// The elements each thread holds of `shape` in `layout` when every
  /// element is held by exactly one register of one thread.
  static std::optional<int64_t> elementsHeldOnce(DistributedEncodingAttr layout,
                                                 ArrayRef<int64_t> shape) {
    if (!layout)
      return std::nullopt;
    layout::LinearLayout linear =
        layout.toLinearLayout(std::vector<int64_t>(shape.begin(), shape.end()));
    int64_t holders = linear.elemsPerThread() *
                      linear.inDimSize(layout::HwDim::Lane) *
                      linear.inDimSize(layout::HwDim::Warp);
    if (holders != ShapedType::getNumElements(shape) || !linear.isSurjective())
      return std::nullopt;
    return linear.elemsPerThread();
  }

  /// Whether `operand`, the source of a tt.reshape that may reorder, can
  /// stay in its layout: the reshape then relabels each thread's registers.
  static bool reorderedInPlace(OpOperand &operand) {
    auto reshape = dyn_cast<tt::ReshapeOp>(operand.getOwner());
    if (!reshape || !reshape.getAllowReorder() || reshape.getEfficientLayout())
      return false;
    std::optional<int64_t> from =
        elementsHeldOnce(getLayoutOf(reshape.getSrc()), shapeOf(reshape.getSrc()));
    std::optional<int64_t> to = elementsHeldOnce(getLayoutOf(reshape.getResult()),
                                                 shapeOf(reshape.getResult()));
    return from && to && *from == *to;
  }

  void insertConversions() {
    for (auto [operand, type] : requirements)
      if (!reorderedInPlace(*operand))
        requireOperandType(*operand, type);
    SmallVector<Operation *> ops;
    funcOp->walk([&](Operation *op) { ops.push_back(op); });
    for (Operation *op : ops) {
      switch (getLayoutRole(op)) {
      case LayoutRole::SameLayout: {
        // the results' layout; for an op without tensor results (a store),
        // its first tensor operand's (a store's pointers)
        Attribute layout;
        for (Value result : op->getResults())
          if (!layout)
            layout = getLayoutOf(result);
        for (Value operand : op->getOperands())
          if (!layout)
            layout = getLayoutOf(operand);
        if (!layout)
          break;
        for (Value result : op->getResults())
          if (getLayoutOf(result))
            requireResultType(op, result, withEncoding(result.getType(), layout));
        for (OpOperand &operand : op->getOpOperands())
          if (getLayoutOf(operand.get()))
            requireOperandType(operand,
                               withEncoding(operand.get().getType(), layout));
        break;
      }
      case LayoutRole::ExpandDims: {
        auto expand = cast<tt::ExpandDimsOp>(op);
        if (Attribute layout = getLayoutOf(expand.getResult()))
          requireOperandType(expand.getSrcMutable(),
                             withEncoding(expand.getSrc().getType(),
                                          getSlice(layout, expand.getAxis())));
        break;
      }
      case LayoutRole::Trans: {
        // (the result keeps its claim; the operand follows it)
        auto trans = cast<tt::TransOp>(op);
        if (Attribute layout = getLayoutOf(trans.getResult()))
          requireEquivalentOperand(
              trans.getSrcMutable(),
              getTransposed(layout, shapeOf(trans.getResult()),
                            inversePermutation(trans.getOrder())));
        break;
      }
      case LayoutRole::Reshape: {
        auto reshape = cast<tt::ReshapeOp>(op);
        if (Attribute layout = getLayoutOf(reshape.getResult()))
          requireEquivalentOperand(reshape.getSrcMutable(),
                                   getReshaped(layout, shapeOf(reshape.getResult()),
                                               shapeOf(reshape.getSrc())));
        break;
      }
      case LayoutRole::Reduce: {
        auto reduce = cast<tt::ReduceOp>(op);
        Attribute layout = getLayoutOf(reduce.getSrcs().front());
        if (!layout)
          break;
        for (OpOperand &src : reduce.getSrcsMutable())
          requireOperandType(src, withEncoding(src.get().getType(), layout));
        for (Value result : reduce.getResults())
          if (getLayoutOf(result))
            requireResultType(op, result,
                              withEncoding(result.getType(),
                                           getSlice(layout, reduce.getAxis())));
        break;
      }
      case LayoutRole::For: {
        auto forOp = cast<scf::ForOp>(op);
        Operation *yield = forOp.getBody()->getTerminator();
        for (auto [index, arg] : llvm::enumerate(forOp.getRegionIterArgs())) {
          if (!getLayoutOf(arg))
            continue;
          requireOperandType(forOp.getInitArgsMutable()[index], arg.getType());
          requireResultType(op, forOp.getResult(index), arg.getType());
          requireOperandType(yield->getOpOperand(index), arg.getType());
        }
        break;
      }
      case LayoutRole::If: {
        auto ifOp = cast<scf::IfOp>(op);
        for (OpResult result : ifOp.getResults()) {
          if (!getLayoutOf(result))
            continue;
          unsigned index = result.getResultNumber();
          requireOperandType(ifOp.thenYield()->getOpOperand(index),
                             result.getType());
          if (!ifOp.getElseRegion().empty())
            requireOperandType(ifOp.elseYield()->getOpOperand(index),
                               result.getType());
        }
        break;
      }
      case LayoutRole::While: {
        auto whileOp = cast<scf::WhileOp>(op);
        scf::ConditionOp condition = whileOp.getConditionOp();
        Operation *yield = whileOp.getYieldOp();
        for (auto [index, arg] : llvm::enumerate(whileOp.getBeforeArguments())) {
          if (!getLayoutOf(arg))
            continue;
          requireOperandType(whileOp->getOpOperand(index), arg.getType());
          requireOperandType(yield->getOpOperand(index), arg.getType());
        }
        for (auto [index, arg] : llvm::enumerate(whileOp.getAfterArguments())) {
          if (!getLayoutOf(arg))
            continue;
          requireOperandType(condition->getOpOperand(index + 1), arg.getType());
          requireResultType(op, whileOp.getResult(index), arg.getType());
        }
        break;
      }
      case LayoutRole::Fixed:
      case LayoutRole::Convert:
      case LayoutRole::Producer:
      case LayoutRole::Condition:
      case LayoutRole::Yield:
        break;
      }
    }
  }

  Operation *funcOp;
  SmallVector<Value> anchoredValues;
  SmallVector<std::pair<OpOperand *, Type>> requirements;
  llvm::MapVector<Value, Attribute> claims;
  std::deque<Value> queue;
  /// Whether tensors of pointers may be claimed: only once the accesses'
  /// own floods start.
  bool pointersOpen = false;
  /// Claims of broadcast results from their operands, held back (drainAll).
  SmallVector<std::pair<Value, Attribute>> acrossBroadcasts;
};
} // namespace

void ttg::propagateLayouts(Operation *funcOp) { LayoutFlood(funcOp).run(); }
