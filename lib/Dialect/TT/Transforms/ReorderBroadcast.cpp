//===- ReorderBroadcast.cpp - tt-reorder-broadcast ------------------------===//
//
// Moves tt.splat and tt.broadcast below the element-wise ops that consume
// them, so that arithmetic runs once per distinct value instead of once per
// element of the widened tensor, and so that later layout passes see fewer
// wide temporaries.
//
// Algorithm: three kinds of patterns, applied greedily until none matches.
//
//   1. Splat: an element-wise op whose operands are all splats (tt.splat or
//      splat constants, at least one tt.splat) is rebuilt on the scalars,
//      and each of its results is splatted:
//        op(splat(x), splat(y)) -> splat(op(x, y))
//   2. Broadcast: an element-wise op whose operands are broadcasts from one
//      source shape S (at least one tt.broadcast), or splats, is rebuilt on
//      tensors of shape S (splats are re-splatted to S), and each result is
//      broadcast back:
//        op(broadcast(a), broadcast(b), splat(c))
//          -> broadcast(op(a, b, splat_S(c)))
//      Broadcasts from different source shapes do not match.
//   3. Shape ops of splats: broadcast(splat(x)) and expand_dims(splat(x))
//      become splat(x) of the final shape.
//
// "Element-wise" means the Elementwise trait, no memory effects and no
// regions; elementwise_inline_asm never moves, because how it packs
// elements depends on the shape.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TT/Transforms/Passes.h"
#include "tritium/Dialect/TT/Transforms/Transforms.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tritium::tt {
#define GEN_PASS_DEF_TTREORDERBROADCASTPASS
#include "tritium/Dialect/TT/Transforms/Passes.h.inc"
} // namespace tritium::tt

using namespace mlir;
using namespace tritium::tt;

namespace {
/// True for the ops whose splats and broadcasts may move below them.
bool isMovableElementwise(Operation *op) {
  if (!op->hasTrait<OpTrait::Elementwise>() || op->getNumRegions() != 0 ||
      op->getNumOperands() == 0 || op->getNumResults() == 0 ||
      isa<ElementwiseInlineAsmOp>(op) || !isMemoryEffectFree(op))
    return false;
  return llvm::all_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>);
}

/// The element value of a constant that is the same everywhere, or null.
TypedAttr getSplatConstant(Value value) {
  SplatElementsAttr splat;
  if (!matchPattern(value, m_Constant(&splat)))
    return {};
  return dyn_cast<TypedAttr>(splat.getSplatValue<Attribute>());
}

/// Replaces `op` by a copy that takes `operands` and has results of
/// `resultTypes`, with each result widened back to its old type by
/// `widen(rewriter, loc, oldType, narrowValue)`.
template <typename WidenFn>
void rebuildNarrow(Operation *op, ValueRange operands, TypeRange resultTypes,
                   PatternRewriter &rewriter, WidenFn widen) {
  Operation *narrow = rewriter.clone(*op);
  rewriter.modifyOpInPlace(narrow, [&] {
    narrow->setOperands(operands);
    for (auto [result, type] : llvm::zip(narrow->getResults(), resultTypes))
      result.setType(type);
  });
  SmallVector<Value> widened;
  for (auto [oldResult, newResult] :
       llvm::zip(op->getResults(), narrow->getResults()))
    widened.push_back(
        widen(rewriter, op->getLoc(), oldResult.getType(), newResult));
  rewriter.replaceOp(op, widened);
}

/// op(splat(x), splat(y)) -> splat(op(x, y)).
struct MoveSplatAfterElementwise : public RewritePattern {
  MoveSplatAfterElementwise(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isMovableElementwise(op))
      return failure();
    bool sawSplatOp = false;
    for (Value operand : op->getOperands()) {
      if (operand.getDefiningOp<SplatOp>())
        sawSplatOp = true;
      else if (!getSplatConstant(operand))
        return failure();
    }
    if (!sawSplatOp)
      return failure(); // all constants: that is the folder's job

    SmallVector<Value> scalars;
    for (Value operand : op->getOperands()) {
      if (auto splat = operand.getDefiningOp<SplatOp>())
        scalars.push_back(splat.getSrc());
      else
        scalars.push_back(arith::ConstantOp::create(rewriter, op->getLoc(),
                                                    getSplatConstant(operand)));
    }
    SmallVector<Type> scalarTypes;
    for (Type type : op->getResultTypes())
      scalarTypes.push_back(getElementTypeOrSelf(type));
    rebuildNarrow(op, scalars, scalarTypes, rewriter,
                  [](PatternRewriter &b, Location loc, Type type, Value v) {
                    return SplatOp::create(b, loc, type, v).getResult();
                  });
    return success();
  }
};

/// op(broadcast(a), broadcast(b)) -> broadcast(op(a, b)), for a and b of one
/// shape.
struct MoveBroadcastAfterElementwise : public RewritePattern {
  MoveBroadcastAfterElementwise(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isMovableElementwise(op))
      return failure();
    RankedTensorType sourceType;
    for (Value operand : op->getOperands()) {
      if (auto broadcast = operand.getDefiningOp<BroadcastOp>()) {
        auto type = cast<RankedTensorType>(broadcast.getSrc().getType());
        if (!sourceType)
          sourceType = type;
        else if (type.getShape() != sourceType.getShape() ||
                 type.getEncoding() != sourceType.getEncoding())
          return failure();
      } else if (!operand.getDefiningOp<SplatOp>() &&
                 !getSplatConstant(operand)) {
        return failure();
      }
    }
    if (!sourceType)
      return failure();

    auto narrowType = [&](Type wide) {
      return sourceType.clone(getElementTypeOrSelf(wide));
    };
    SmallVector<Value> narrowOperands;
    for (Value operand : op->getOperands()) {
      if (auto broadcast = operand.getDefiningOp<BroadcastOp>())
        narrowOperands.push_back(broadcast.getSrc());
      else if (auto splat = operand.getDefiningOp<SplatOp>())
        narrowOperands.push_back(SplatOp::create(rewriter, op->getLoc(),
                                                 narrowType(operand.getType()),
                                                 splat.getSrc()));
      else
        narrowOperands.push_back(arith::ConstantOp::create(
            rewriter, op->getLoc(),
            SplatElementsAttr::get(
                cast<ShapedType>(narrowType(operand.getType())),
                getSplatConstant(operand))));
    }
    SmallVector<Type> narrowTypes;
    for (Type type : op->getResultTypes())
      narrowTypes.push_back(narrowType(type));
    rebuildNarrow(op, narrowOperands, narrowTypes, rewriter,
                  [](PatternRewriter &b, Location loc, Type type, Value v) {
                    return BroadcastOp::create(b, loc, type, v).getResult();
                  });
    return success();
  }
};

/// broadcast(splat(x)) and expand_dims(splat(x)) -> splat(x).
template <typename ShapeOp>
struct SplatThroughShapeOp : public OpRewritePattern<ShapeOp> {
  using OpRewritePattern<ShapeOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ShapeOp op,
                                PatternRewriter &rewriter) const override {
    auto splat = op.getSrc().template getDefiningOp<SplatOp>();
    if (!splat)
      return failure();
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
};

struct TTReorderBroadcastPass
    : public tritium::tt::impl::TTReorderBroadcastPassBase<
          TTReorderBroadcastPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateReorderBroadcastPatterns(patterns);
    // Each rewrite keeps the IR valid; the iteration limit is not an error.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }
};
} // namespace

void tritium::tt::populateSplatThroughShapeOpPatterns(
    RewritePatternSet &patterns) {
  patterns
      .add<SplatThroughShapeOp<BroadcastOp>, SplatThroughShapeOp<ExpandDimsOp>>(
          patterns.getContext());
}

void tritium::tt::populateReorderBroadcastPatterns(
    RewritePatternSet &patterns) {
  patterns.add<MoveSplatAfterElementwise, MoveBroadcastAfterElementwise>(
      patterns.getContext());
  populateSplatThroughShapeOpPatterns(patterns);
}
