//===- ShapeOpConversion.cpp - layouts of shape-changing ops ---------------===//
//
// Shape ops tie the layouts of their operand and result together, so that
// they can be lowered without moving data between threads:
//
//   tt.expand_dims  result: default; operand: the slice of the result's
//                   layout at the new axis;
//   tt.broadcast    result: default; operand: the result's layout (over the
//                   size-1 shape);
//   tt.trans        operand: default; result: the operand's layout with its
//                   dimensions permuted;
//   tt.join         operands: default; result: the operand's layout with a
//                   new in-thread dimension of size 2;
//   tt.split        results: default; operand: the join layout of the
//                   results';
//   tt.cat          operands: default; result: default when it holds, per
//                   thread, the registers of both operands, else the
//                   operands' layout with sizePerThread doubled in dimension 0
//                   (small operands, replicated over the threads).
//
// Operands are brought into the needed layout with ttg.convert_layout; users
// that need the default layout of a result get one from the driver.
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTToTTG/TTToTTG.h"

#include "RebuildOp.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/Transforms/BlockedLayoutRules.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

using namespace mlir;
using namespace tritium;
using tritium::detail::convertToType;
using tritium::detail::rebuildOp;

namespace {
/// The converted type of `type`, which must be a tensor.
RankedTensorType convertTensor(const TypeConverter &converter, Type type) {
  return dyn_cast_or_null<RankedTensorType>(converter.convertType(type));
}

/// The blocked layout of a converted tensor type, or null.
ttg::BlockedEncodingAttr getBlocked(Type type) {
  return dyn_cast_or_null<ttg::BlockedEncodingAttr>(
      cast<RankedTensorType>(type).getEncoding());
}

struct ExpandDimsConversion : public OpConversionPattern<tt::ExpandDimsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        convertTensor(*getTypeConverter(), op.getType());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result type not convertible");
    auto slice = ttg::SliceEncodingAttr::get(getContext(), op.getAxis(),
                                             resultType.getEncoding());
    Value src = convertToType(rewriter, op.getLoc(), adaptor.getSrc(),
                              ttg::withEncoding(op.getSrc().getType(), slice));
    rebuildOp(rewriter, op, src, resultType);
    return success();
  }
};

struct BroadcastConversion : public OpConversionPattern<tt::BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        convertTensor(*getTypeConverter(), op.getType());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result type not convertible");
    Value src = convertToType(
        rewriter, op.getLoc(), adaptor.getSrc(),
        ttg::withEncoding(op.getSrc().getType(), resultType.getEncoding()));
    rebuildOp(rewriter, op, src, resultType);
    return success();
  }
};

struct TransConversion : public OpConversionPattern<tt::TransOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::BlockedEncodingAttr source = getBlocked(adaptor.getSrc().getType());
    if (!source)
      return rewriter.notifyMatchFailure(op, "operand is not blocked");
    std::vector<int64_t> permutation(op.getOrder().begin(),
                                     op.getOrder().end());
    auto layout = ttg::getBlockedEncoding(
        getContext(), ttg::permuteBlockedLayout(source.toSpec(), permutation));
    rebuildOp(rewriter, op, adaptor.getSrc(),
              ttg::withEncoding(op.getType(), layout));
    return success();
  }
};

struct JoinConversion : public OpConversionPattern<tt::JoinOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::JoinOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::BlockedEncodingAttr source = getBlocked(adaptor.getLhs().getType());
    if (!source || adaptor.getRhs().getType() != adaptor.getLhs().getType())
      return rewriter.notifyMatchFailure(op, "operands are not one blocked type");
    auto layout = ttg::getBlockedEncoding(
        getContext(), ttg::joinBlockedLayout(source.toSpec()));
    rebuildOp(rewriter, op, adaptor.getOperands(),
              ttg::withEncoding(op.getType(), layout));
    return success();
  }
};

struct CatConversion : public OpConversionPattern<tt::CatOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::CatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::BlockedEncodingAttr source = getBlocked(adaptor.getLhs().getType());
    RankedTensorType resultType = convertTensor(*getTypeConverter(), op.getType());
    ttg::BlockedEncodingAttr result = resultType ? getBlocked(resultType) : nullptr;
    if (!source || !result ||
        adaptor.getRhs().getType() != adaptor.getLhs().getType())
      return rewriter.notifyMatchFailure(op, "operands are not one blocked type");
    auto registers = [](const layout::BlockedSpec &spec, ArrayRef<int64_t> shape) {
      int64_t count = 1;
      for (int64_t n : layout::elemsPerThreadPerDim(spec, shape.vec()))
        count *= n;
      return count;
    };
    auto operandShape = cast<RankedTensorType>(op.getLhs().getType()).getShape();
    if (registers(result.toSpec(), resultType.getShape()) !=
        2 * registers(source.toSpec(), operandShape))
      resultType = ttg::withEncoding(
          op.getType(), ttg::getBlockedEncoding(
                            getContext(), ttg::catBlockedLayout(source.toSpec())));
    rebuildOp(rewriter, op, adaptor.getOperands(), resultType);
    return success();
  }
};

struct SplitConversion : public OpConversionPattern<tt::SplitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        convertTensor(*getTypeConverter(), op.getOutLHS().getType());
    ttg::BlockedEncodingAttr result = resultType ? getBlocked(resultType) : nullptr;
    if (!result)
      return rewriter.notifyMatchFailure(op, "result type not convertible");
    auto joined = ttg::getBlockedEncoding(
        getContext(), ttg::joinBlockedLayout(result.toSpec()));
    Value src = convertToType(rewriter, op.getLoc(), adaptor.getSrc(),
                              ttg::withEncoding(op.getSrc().getType(), joined));
    rebuildOp(rewriter, op, src, {resultType, resultType});
    return success();
  }
};
} // namespace

void tritium::populateShapeOpTTToTTGPatterns(const TTGTypeConverter &converter,
                                             RewritePatternSet &patterns) {
  patterns.add<ExpandDimsConversion, BroadcastConversion, TransConversion,
               JoinConversion, SplitConversion, CatConversion>(converter,
                                                patterns.getContext(),
                                                /*benefit=*/2);
}
