//===- GenericOpConversion.cpp - any op, rebuilt with converted types ------===//
//
// Most ops do not care which layout their tensors have, only that operands
// and results agree: element-wise arith and math ops, tt pointer and memory
// ops, splat, make_range (tt.dot has its own pattern: DotOpConversion.cpp),
// reshape, cat, calls and returns.  Since the default layout depends only on
// a tensor's shape, rebuilding such an op with the converted operands (which
// the conversion driver has already brought to the converted type of each
// original operand, inserting ttg.convert_layout where a producer chose
// another layout) and converted result types keeps them consistent.
//
// Constants need their own pattern: the dense value carries the tensor type,
// layout included.
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTToTTG/TTToTTG.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace tritium;

namespace {
/// Rebuilds a region-free op with the remapped operands and converted
/// result types; attributes are kept as they are.
struct GenericOpConversion : public ConversionPattern {
  GenericOpConversion(const TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1,
                          context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    // Region ops (functions, scf, reduce, scan) and scf terminators have
    // patterns of their own.
    if (op->getNumRegions() != 0 || op->getNumSuccessors() != 0 ||
        isa<scf::SCFDialect>(op->getDialect()))
      return rewriter.notifyMatchFailure(op, "not a plain op");
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(),
                                                resultTypes)))
      return rewriter.notifyMatchFailure(op, "result type not convertible");
    OperationState state(op->getLoc(), op->getName(), operands, resultTypes,
                         op->getAttrs());
    Operation *rebuilt = rewriter.create(state);
    rewriter.replaceOp(op, rebuilt->getResults());
    return success();
  }
};

/// arith.constant with a dense tensor value: the value is re-typed with the
/// layout.
struct ConstantConversion : public OpConversionPattern<arith::ConstantOp> {
  ConstantConversion(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!type || !dense)
      return rewriter.notifyMatchFailure(op, "not a dense tensor constant");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type,
                                                   dense.reshape(type));
    return success();
  }
};
} // namespace

void tritium::populateGenericTTToTTGPatterns(const TTGTypeConverter &converter,
                                             RewritePatternSet &patterns) {
  patterns.add<GenericOpConversion, ConstantConversion>(converter,
                                                        patterns.getContext());
}
