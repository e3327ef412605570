//===- TTCanonicalize.cpp - canonicalization patterns of tt ops -----------===//
//
// Masks that are constant everywhere disappear: an all-true mask is dropped
// from loads and stores, a store under an all-false mask is erased, and a
// load under an all-false mask becomes its `other` value.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TT/IR/TTDialect.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace tritium::tt;

namespace {
/// The value of a mask that is the same constant everywhere, if it is one.
std::optional<bool> getConstantMask(Value mask) {
  if (!mask)
    return std::nullopt;
  Attribute attr;
  if (!matchPattern(mask, m_Constant(&attr)))
    return std::nullopt;
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    return splat.getSplatValue<bool>();
  if (auto boolAttr = dyn_cast<IntegerAttr>(attr))
    return !boolAttr.getValue().isZero();
  return std::nullopt;
}

struct SimplifyConstantMaskLoad : public OpRewritePattern<LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LoadOp load,
                                PatternRewriter &rewriter) const override {
    std::optional<bool> mask = getConstantMask(load.getMask());
    if (!mask)
      return failure();
    if (!*mask) {
      if (!load.getOther() || load.getIsVolatile())
        return failure();
      rewriter.replaceOp(load, load.getOther());
      return success();
    }
    rewriter.modifyOpInPlace(load, [&] {
      load.getMaskMutable().clear();
      load.getOtherMutable().clear();
    });
    return success();
  }
};

struct SimplifyConstantMaskStore : public OpRewritePattern<StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StoreOp store,
                                PatternRewriter &rewriter) const override {
    std::optional<bool> mask = getConstantMask(store.getMask());
    if (!mask)
      return failure();
    if (!*mask) {
      rewriter.eraseOp(store);
      return success();
    }
    rewriter.modifyOpInPlace(store, [&] { store.getMaskMutable().clear(); });
    return success();
  }
};
} // namespace

void LoadOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                         MLIRContext *context) {
  patterns.add<SimplifyConstantMaskLoad>(context);
}

void StoreOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                          MLIRContext *context) {
  patterns.add<SimplifyConstantMaskStore>(context);
}
