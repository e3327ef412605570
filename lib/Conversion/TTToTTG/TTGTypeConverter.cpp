//===- TTGTypeConverter.cpp - tensors get their default layout -------------===//
//
// The type side of convert-tt-to-ttg: which types change (ranked tensors
// without a layout get the default blocked layout of their shape, and so do
// the tiles block pointers point to), how a
// value moves between two layouts of one tensor (ttg.convert_layout), and
// which ops count as converted (all their types, and for functions their
// signatures and block arguments, have layouts).
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTToTTG/TTToTTG.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/MathExtras.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

using namespace mlir;
using namespace tritium;

namespace {
/// A convert_layout between two layouts of the same tensor, or null when
/// `inputs` is not one tensor with a layout.
Value materializeLayoutChange(OpBuilder &builder, RankedTensorType type,
                              ValueRange inputs, Location loc) {
  if (inputs.size() != 1)
    return {};
  auto source = dyn_cast<RankedTensorType>(inputs.front().getType());
  if (!source || !source.getEncoding() || !type.getEncoding() ||
      source.getShape() != type.getShape() ||
      source.getElementType() != type.getElementType())
    return {};
  return ttg::ConvertLayoutOp::create(builder, loc, type, inputs.front());
}
} // namespace

TTGTypeConverter::TTGTypeConverter(MLIRContext *context, int numWarps,
                                   int threadsPerWarp)
    : numWarps(numWarps), threadsPerWarp(threadsPerWarp) {
  // Conversions are tried last-registered first: tensors, then the rest.
  addConversion([](Type type) { return type; });
  addConversion([=](RankedTensorType type) -> Type {
    if (type.getEncoding() || type.getRank() == 0)
      return type;
    // A distributed layout needs a static power-of-two shape; anything else
    // fails to convert and is reported at its op.
    for (int64_t size : type.getShape())
      if (ShapedType::isDynamic(size) || !llvm::isPowerOf2_64(size))
        return Type();
    return RankedTensorType::get(
        type.getShape(), type.getElementType(),
        ttg::getDefaultBlockedEncoding(context, type.getShape(), numWarps,
                                       threadsPerWarp));
  });
  // A block pointer points to a tile, which gets a layout like any tensor;
  // tt-rewrite-tensor-pointer normally removed them already.
  addConversion([this](tt::PointerType type) -> Type {
    auto tile = dyn_cast<RankedTensorType>(type.getPointeeType());
    if (!tile || tile.getEncoding())
      return type;
    Type converted = convertType(tile);
    if (!converted)
      return Type();
    return tt::PointerType::get(converted, type.getAddressSpace());
  });
  addTargetMaterialization(materializeLayoutChange);
  addSourceMaterialization(materializeLayoutChange);
}

void tritium::configureTTToTTGTarget(ConversionTarget &target,
                                     const TTGTypeConverter &converter) {
  target.addLegalDialect<ttg::TTGDialect>();
  target.addLegalOp<ModuleOp>();
  target.markUnknownOpDynamicallyLegal([&converter](Operation *op) {
    if (auto function = dyn_cast<FunctionOpInterface>(op)) {
      auto type = dyn_cast<FunctionType>(function.getFunctionType());
      return type && converter.isSignatureLegal(type) &&
             converter.isLegal(&function.getFunctionBody());
    }
    return converter.isLegal(op);
  });
}
