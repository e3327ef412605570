//===- DotOpConversion.cpp - layouts of tt.dot ------------------------------===//
//
// A dot's accumulator and result take the dot's blocked layout
// (ttg::dotBlockedLayout: a square block of elements per thread); its
// operands take the #ttg.dot_op layouts of that accumulator (opIdx 0 for A,
// 1 for B, kWidth 1): each thread holds the rows of A and the columns of B
// its accumulator elements need, all of K in registers.  That is the layout
// a CUDA-core (FMA) dot computes in; ttg-accelerate-matmul later moves the
// dots that fit a tensor-core instruction to mma layouts.
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
struct DotConversion : public OpConversionPattern<tt::DotOp> {
  DotConversion(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(tt::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result type not convertible");
    const auto *converter = getTypeConverter<TTGTypeConverter>();
    Attribute acc = ttg::getBlockedEncoding(
        getContext(),
        ttg::dotBlockedLayout(
            std::vector<int64_t>(resultType.getShape().begin(),
                                 resultType.getShape().end()),
            converter->getNumWarps(), converter->getThreadsPerWarp()));
    resultType = ttg::withEncoding(resultType, acc);
    auto operandType = [&](Value value, unsigned opIdx) {
      auto layout = ttg::DotOperandEncodingAttr::get(getContext(), opIdx, acc,
                                                     /*kWidth=*/1);
      return ttg::withEncoding(value.getType(), layout);
    };
    Location loc = op.getLoc();
    Value a = convertToType(rewriter, loc, adaptor.getA(),
                            operandType(op.getA(), 0));
    Value b = convertToType(rewriter, loc, adaptor.getB(),
                            operandType(op.getB(), 1));
    Value c = convertToType(rewriter, loc, adaptor.getC(), resultType);
    rebuildOp(rewriter, op, {a, b, c}, resultType);
    return success();
  }
};
} // namespace

void tritium::populateDotTTToTTGPatterns(const TTGTypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<DotConversion>(converter, patterns.getContext());
}
