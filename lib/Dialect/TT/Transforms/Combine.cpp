//===- Combine.cpp - tt-combine: peephole rewrites of Triton IR -----------===//
//
// Local rewrites that turn the frontend's literal translation of a kernel
// into the IR later passes expect: a dot accumulates its addend itself, a
// chain of pointer increments is one increment, a select around a masked
// load is the load's `other` value, and a hand-written broadcast-multiply-
// reduce is a `tt.dot`.
//
// Algorithm: each rewrite is one pattern, matched bottom-up from the op that
// ends it (the add, the outer addptr, the select, the broadcast, the
// reduce); the greedy driver applies them until none matches.
//
//   add(dot(a, b, 0), d)          -> dot(a, b, d)       dot used once; float
//                                                        dots only with
//                                                        maxNumImpreciseAcc 0
//   addptr(addptr(p, x), y)       -> addptr(p, x + y)   x, y of one type
//   select(m, load(p, m), o)      -> load(p, m, o)      load used once, no
//                                                        other; m may be the
//                                                        scalar the mask splats
//   broadcast(splat(x))           -> splat(x)
//   reduce<+, axis 1>(bcast(expand_dims(a, 2)) * bcast(expand_dims(b, 0)))
//                                 -> dot(a, b, 0) with ieee precision
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TT/Transforms/Passes.h"
#include "tritium/Dialect/TT/Transforms/Transforms.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <utility>

namespace tritium::tt {
#define GEN_PASS_DEF_TTCOMBINEPASS
#include "tritium/Dialect/TT/Transforms/Passes.h.inc"
} // namespace tritium::tt

using namespace mlir;
using namespace tritium::tt;

namespace {
/// True if `value` is a constant zero (scalar or splat, +0.0 or -0.0).
bool isZeroConstant(Value value) {
  return matchPattern(value, m_Zero()) || matchPattern(value, m_AnyZeroFloat());
}

//===----------------------------------------------------------------------===//
// add(dot(a, b, 0), d) -> dot(a, b, d)
//===----------------------------------------------------------------------===//

template <typename AddOp>
struct FoldAddIntoDotAccumulator : public OpRewritePattern<AddOp> {
  using OpRewritePattern<AddOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(AddOp add,
                                PatternRewriter &rewriter) const override {
    constexpr bool isFloat = std::is_same_v<AddOp, arith::AddFOp>;
    for (unsigned i = 0; i < 2; ++i) {
      auto dot = add->getOperand(i).template getDefiningOp<DotOp>();
      Value addend = add->getOperand(1 - i);
      if (!dot || !dot->hasOneUse() || !isZeroConstant(dot.getC()) ||
          addend.getType() != dot.getType())
        continue;
      // With a bounded number of imprecise fp8 accumulations, the addend
      // would be accumulated at reduced precision too.
      if (isFloat && dot.getMaxNumImpreciseAcc() != 0)
        continue;
      rewriter.replaceOpWithNewOp<DotOp>(add, dot.getA(), dot.getB(), addend,
                                         dot.getInputPrecision(),
                                         dot.getMaxNumImpreciseAcc());
      rewriter.eraseOp(dot);
      return success();
    }
    return failure();
  }
};

//===----------------------------------------------------------------------===//
// addptr(addptr(p, x), y) -> addptr(p, x + y)
//===----------------------------------------------------------------------===//

struct MergeAddPtrChain : public OpRewritePattern<AddPtrOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AddPtrOp outer,
                                PatternRewriter &rewriter) const override {
    auto inner = outer.getPtr().getDefiningOp<AddPtrOp>();
    if (!inner || inner.getOffset().getType() != outer.getOffset().getType())
      return failure();
    Value sum = arith::AddIOp::create(rewriter, outer.getLoc(),
                                      inner.getOffset(), outer.getOffset());
    rewriter.replaceOpWithNewOp<AddPtrOp>(outer, outer.getType(),
                                          inner.getPtr(), sum);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// select(m, load(p, m), o) -> load(p, m, o)
//===----------------------------------------------------------------------===//

struct FoldSelectIntoMaskedLoad : public OpRewritePattern<arith::SelectOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::SelectOp select,
                                PatternRewriter &rewriter) const override {
    auto load = select.getTrueValue().getDefiningOp<LoadOp>();
    if (!load || !load->hasOneUse() || !load.getMask() || load.getOther())
      return failure();
    Value mask = load.getMask();
    Value cond = select.getCondition();
    if (mask != cond) {
      auto splat = mask.getDefiningOp<SplatOp>();
      if (!splat || splat.getSrc() != cond)
        return failure();
    }
    Value other = select.getFalseValue();
    if (other.getType() != load.getType())
      return failure();

    // The new load stays where the old one was: a store between the load
    // and the select must not change what it reads.  So `other` must be
    // available there; a constant is simply rematerialized.
    rewriter.setInsertionPoint(load);
    Attribute constant;
    if (matchPattern(other, m_Constant(&constant))) {
      Operation *def = other.getDefiningOp();
      if (!DominanceInfo().properlyDominates(def, load))
        other = rewriter.clone(*def)->getResult(0);
    } else if (!DominanceInfo().properlyDominates(other, load)) {
      return failure();
    }

    auto merged =
        LoadOp::create(rewriter, load.getLoc(), load.getPtr(), mask, other,
                       load.getBoundaryCheck(), load.getPaddingAttr(),
                       load.getCache(), load.getEvict(), load.getIsVolatile());
    rewriter.replaceOp(select, merged.getResult());
    rewriter.eraseOp(load);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// reduce<+, axis 1>(bcast(expand_dims(a, 2)) * bcast(expand_dims(b, 0)))
//   -> dot(a, b, 0)
//===----------------------------------------------------------------------===//

/// `x` if `value` is `tt.broadcast(tt.expand_dims(x, axis))`, else null.
Value getBroadcastExpandSource(Value value, int32_t axis) {
  auto broadcast = value.getDefiningOp<BroadcastOp>();
  if (!broadcast)
    return {};
  auto expand = broadcast.getSrc().getDefiningOp<ExpandDimsOp>();
  if (!expand || expand.getAxis() != axis)
    return {};
  return expand.getSrc();
}

/// True if the combine region of `reduce` is exactly `return a + b` for
/// its two block arguments, in either order, with an add of kind AddOp.
template <typename AddOp> bool isPlainSum(ReduceOp reduce) {
  Block &body = reduce.getCombineOp().front();
  if (body.getNumArguments() != 2 ||
      !llvm::hasSingleElement(body.without_terminator()))
    return false;
  auto add = dyn_cast<AddOp>(body.front());
  Operation *terminator = body.getTerminator();
  if (!add || terminator->getNumOperands() != 1 ||
      terminator->getOperand(0) != add.getResult())
    return false;
  Value lhs = add.getLhs(), rhs = add.getRhs();
  Value x = body.getArgument(0), y = body.getArgument(1);
  return (lhs == x && rhs == y) || (lhs == y && rhs == x);
}

struct ReduceOfBroadcastProductToDot : public OpRewritePattern<ReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    if (reduce.getSrcs().size() != 1 || reduce.getAxis() != 1 ||
        !isPlainSum<arith::AddFOp>(reduce))
      return failure();
    auto product = reduce.getSrcs()[0].getDefiningOp<arith::MulFOp>();
    if (!product)
      return failure();
    auto productType = cast<RankedTensorType>(product.getType());
    auto resultType =
        dyn_cast<RankedTensorType>(reduce.getResult()[0].getType());
    if (productType.getRank() != 3 || productType.getEncoding() || !resultType)
      return failure();

    for (auto [lhs, rhs] : {std::pair(product.getLhs(), product.getRhs()),
                            std::pair(product.getRhs(), product.getLhs())}) {
      Value a = getBroadcastExpandSource(lhs, /*axis=*/2);
      Value b = getBroadcastExpandSource(rhs, /*axis=*/0);
      if (!a || !b)
        continue;
      // a: [M, K] expanded to [M, K, 1]; b: [K, N] expanded to [1, K, N].
      ArrayRef<int64_t> mkn = productType.getShape();
      auto aType = cast<RankedTensorType>(a.getType());
      auto bType = cast<RankedTensorType>(b.getType());
      if (aType.getShape() != mkn.take_front(2) ||
          bType.getShape() != mkn.take_back(2))
        continue;
      Value zero = arith::ConstantOp::create(rewriter, reduce.getLoc(),
                                             rewriter.getZeroAttr(resultType));
      rewriter.replaceOpWithNewOp<DotOp>(reduce, a, b, zero,
                                         InputPrecision::IEEE, 0);
      return success();
    }
    return failure();
  }
};

struct TTCombinePass
    : public tritium::tt::impl::TTCombinePassBase<TTCombinePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateCombinePatterns(patterns);
    // Every rewrite keeps the IR valid, so stopping at the driver's
    // iteration limit is not an error.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }
};
} // namespace

void tritium::tt::populateCombinePatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<FoldAddIntoDotAccumulator<arith::AddFOp>,
               FoldAddIntoDotAccumulator<arith::AddIOp>, MergeAddPtrChain,
               FoldSelectIntoMaskedLoad, ReduceOfBroadcastProductToDot>(
      context);
  populateSplatThroughShapeOpPatterns(patterns);
}
