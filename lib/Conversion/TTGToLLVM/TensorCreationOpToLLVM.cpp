//===- TensorCreationOpToLLVM.cpp - tensors from scalars and constants ----===//
//
// tt.make_range: register r holds start + coordinate(r), the coordinate
//   from LayoutIndices.
// tt.splat and splat arith.constant: every register holds the value.
// Other dense arith.constant tensors: a constant table in global memory,
//   from which each register loads the element at its row-major position.
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"
#include "tritium/Conversion/TTGToLLVM/LayoutIndices.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

using namespace mlir;
using namespace tritium;

namespace {

struct MakeRangeLowering : public ConvertOpToLLVMPattern<tt::MakeRangeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::MakeRangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    if (!ttg::getDistributedEncoding(type))
      return rewriter.notifyMatchFailure(op, "no distributed layout");
    ThreadIndex thread =
        emitThreadIndex(rewriter, loc, op->getParentOfType<ModuleOp>());
    auto indices = emitIndices(rewriter, loc, getLinearLayout(type), thread);
    Value start;
    if (op.getStart() != 0)
      start = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                       op.getStartAttr());
    SmallVector<Value> elements;
    for (auto &coords : indices)
      elements.push_back(
          start
              ? LLVM::AddOp::create(rewriter, loc, coords[0], start).getResult()
              : coords[0]);
    rewriter.replaceOp(op, packElements(rewriter, loc,
                                        getTypeConverter()->convertType(type),
                                        elements));
    return success();
  }
};

struct SplatLowering : public ConvertOpToLLVMPattern<tt::SplatOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto structType = dyn_cast_or_null<LLVM::LLVMStructType>(
        getTypeConverter()->convertType(op.getType()));
    if (!structType || isa<RankedTensorType>(op.getSrc().getType()))
      return rewriter.notifyMatchFailure(op, "not a scalar splat");
    SmallVector<Value> elements(structType.getBody().size(), adaptor.getSrc());
    rewriter.replaceOp(
        op, packElements(rewriter, op.getLoc(), structType, elements));
    return success();
  }
};

/// The attribute of a constant element of type `type` as an LLVM constant
/// of the converted type (8-bit floats become their i8 bit pattern).
Attribute convertElementAttr(Attribute value, Type llvmType) {
  auto floatAttr = dyn_cast<FloatAttr>(value);
  if (floatAttr && isa<IntegerType>(llvmType))
    return IntegerAttr::get(llvmType, floatAttr.getValue().bitcastToAPInt());
  return value;
}

/// A non-splat constant as the contents of an LLVM global: a flat array of
/// the memory element type, in row-major order.
LLVM::GlobalOp getOrInsertConstantTable(OpBuilder &builder, ModuleOp module,
                                        DenseElementsAttr dense,
                                        Type memoryType) {
  auto flatType = RankedTensorType::get({dense.getNumElements()}, memoryType);
  DenseElementsAttr flat;
  if (dense.getElementType().isInteger(1))
    flat = dense.mapValues(memoryType,
                           [](const APInt &bit) { return bit.zext(8); });
  else if (dense.getElementType() != memoryType) // 8-bit floats as i8
    flat = dense.bitcast(memoryType);
  else
    flat = dense;
  flat = flat.reshape(flatType);
  for (auto global : module.getOps<LLVM::GlobalOp>())
    if (global.getSymName().starts_with("tensorConstant_") &&
        global.getValueOrNull() == flat)
      return global;
  std::string name;
  for (int n = 0;; ++n) {
    name = "tensorConstant_" + std::to_string(n);
    if (!SymbolTable::lookupSymbolIn(module, name))
      break;
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  auto arrayType = LLVM::LLVMArrayType::get(memoryType, dense.getNumElements());
  return LLVM::GlobalOp::create(builder, module.getLoc(), arrayType,
                                /*isConstant=*/true, LLVM::Linkage::Internal,
                                name, flat);
}

struct TensorConstantLowering
    : public ConvertOpToLLVMPattern<arith::ConstantOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !ttg::getDistributedEncoding(type))
      return rewriter.notifyMatchFailure(op, "not a tensor constant");
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense)
      return op.emitError("only dense tensor constants can be lowered");
    Location loc = op.getLoc();
    const auto &converter = TTGToLLVMTypeConverter::of(getTypeConverter());
    auto structType = cast<LLVM::LLVMStructType>(converter.convertType(type));
    Type elementType = structType.getBody().front();
    if (dense.isSplat()) {
      Value element = LLVM::ConstantOp::create(
          rewriter, loc, elementType,
          convertElementAttr(dense.getSplatValue<Attribute>(), elementType));
      SmallVector<Value> elements(structType.getBody().size(), element);
      rewriter.replaceOp(op, packElements(rewriter, loc, structType, elements));
      return success();
    }
    // Each thread reads its elements from a constant table, at the
    // row-major position of their coordinates.
    auto module = op->getParentOfType<ModuleOp>();
    Type memoryType = converter.convertMemoryElementType(type.getElementType());
    LLVM::GlobalOp table =
        getOrInsertConstantTable(rewriter, module, dense, memoryType);
    Value base = LLVM::AddressOfOp::create(rewriter, loc, table);
    ThreadIndex thread = emitThreadIndex(rewriter, loc, module);
    SmallVector<Value> elements;
    for (auto &coords :
         emitIndices(rewriter, loc, getLinearLayout(type), thread)) {
      Value offset = emitRowMajorOffset(rewriter, loc, coords, type.getShape());
      Value ptr = LLVM::GEPOp::create(rewriter, loc, base.getType(), memoryType,
                                      base, ValueRange{offset});
      Value element = LLVM::LoadOp::create(rewriter, loc, memoryType, ptr);
      if (memoryType != elementType) // i8 -> i1
        element = LLVM::TruncOp::create(rewriter, loc, elementType, element);
      elements.push_back(element);
    }
    rewriter.replaceOp(op, packElements(rewriter, loc, structType, elements));
    return success();
  }
};

} // namespace

void tritium::populateTensorCreationOpToLLVMPatterns(
    TTGToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MakeRangeLowering, SplatLowering, TensorConstantLowering>(
      converter, kTritiumPatternBenefit);
}
