//===- ElementPacking.cpp - a thread's tensor elements as a struct --------===//
//
// llvm.extractvalue / llvm.insertvalue over the literal structs of
// TypeConverter.h; canonicalization later folds the pairs away.
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

SmallVector<Value> tritium::unpackElements(OpBuilder &builder, Location loc,
                                           Value value) {
  auto structType = dyn_cast<LLVM::LLVMStructType>(value.getType());
  if (!structType)
    return {value};
  SmallVector<Value> elements;
  for (int64_t i = 0, e = structType.getBody().size(); i < e; ++i)
    elements.push_back(LLVM::ExtractValueOp::create(builder, loc, value, i));
  return elements;
}

Value tritium::packElements(OpBuilder &builder, Location loc, Type type,
                            ValueRange elements) {
  if (!isa<LLVM::LLVMStructType>(type)) {
    assert(elements.size() == 1 && "a scalar has one element");
    return elements.front();
  }
  Value result = LLVM::UndefOp::create(builder, loc, type);
  for (auto [i, element] : llvm::enumerate(elements))
    result = LLVM::InsertValueOp::create(builder, loc, result, element, i);
  return result;
}

SmallVector<SmallVector<Value>>
tritium::unpackOperands(OpBuilder &builder, Location loc, ValueRange values,
                        ArrayRef<bool> isTensor, int64_t count) {
  SmallVector<SmallVector<Value>> result;
  for (auto [value, tensor] : llvm::zip_equal(values, isTensor)) {
    if (tensor)
      result.push_back(unpackElements(builder, loc, value));
    else
      result.push_back(SmallVector<Value>(count, value));
  }
  return result;
}

Value tritium::packToI32(OpBuilder &builder, Location loc,
                         ArrayRef<Value> elements) {
  Type i32 = builder.getI32Type();
  if (elements.size() == 1)
    return LLVM::BitcastOp::create(builder, loc, i32, elements[0]);
  unsigned bits = 32 / elements.size();
  auto vectorType = VectorType::get({int64_t(elements.size())},
                                    builder.getIntegerType(bits));
  Value vector = LLVM::UndefOp::create(builder, loc, vectorType);
  for (auto [i, element] : llvm::enumerate(elements)) {
    Value asInt = element;
    if (!element.getType().isInteger(bits))
      asInt = LLVM::BitcastOp::create(builder, loc,
                                      builder.getIntegerType(bits), element);
    vector = LLVM::InsertElementOp::create(
        builder, loc, vector, asInt,
        LLVM::ConstantOp::create(builder, loc, i32, int64_t(i)));
  }
  return LLVM::BitcastOp::create(builder, loc, i32, vector);
}

SmallVector<Value> tritium::unpackFromI32(OpBuilder &builder, Location loc,
                                          Value reg, Type elementType,
                                          int64_t count) {
  Type i32 = builder.getI32Type();
  auto vectorType = VectorType::get({count}, elementType);
  Value vector = LLVM::BitcastOp::create(builder, loc, vectorType, reg);
  SmallVector<Value> elements;
  for (int64_t i = 0; i < count; ++i)
    elements.push_back(LLVM::ExtractElementOp::create(
        builder, loc, vector, LLVM::ConstantOp::create(builder, loc, i32, i)));
  return elements;
}
