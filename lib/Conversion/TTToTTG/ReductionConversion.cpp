//===- ReductionConversion.cpp - layouts of tt.reduce and tt.scan ----------===//
//
// A reduction along `axis` leaves each result element with the threads that
// held its row of the operand, so its results take the slice of the
// operands' layout at `axis` (rank-1 reductions produce scalars).  A scan
// keeps the operands' layout.  All operands share one shape and hence one
// default layout.  The combine region works on scalars and moves over
// unchanged.
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTToTTG/TTToTTG.h"

#include "RebuildOp.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

using namespace mlir;
using namespace tritium;
using tritium::detail::rebuildOp;

namespace {
struct ReduceConversion : public OpConversionPattern<tt::ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(adaptor.getSrcs().front().getType());
    if (!srcType.getEncoding())
      return rewriter.notifyMatchFailure(op, "operand has no layout");
    auto slice = ttg::SliceEncodingAttr::get(getContext(), op.getAxis(),
                                             srcType.getEncoding());
    SmallVector<Type> resultTypes;
    for (Type type : op.getResultTypes()) {
      if (isa<RankedTensorType>(type))
        resultTypes.push_back(ttg::withEncoding(type, slice));
      else
        resultTypes.push_back(type);
    }
    rebuildOp(rewriter, op, adaptor.getSrcs(), resultTypes);
    return success();
  }
};

struct ScanConversion : public OpConversionPattern<tt::ScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> resultTypes;
    for (Value src : adaptor.getSrcs())
      resultTypes.push_back(src.getType());
    rebuildOp(rewriter, op, adaptor.getSrcs(), resultTypes);
    return success();
  }
};
} // namespace

void tritium::populateReductionTTToTTGPatterns(
    const TTGTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ReduceConversion, ScanConversion>(converter,
                                                 patterns.getContext(),
                                                 /*benefit=*/2);
}
