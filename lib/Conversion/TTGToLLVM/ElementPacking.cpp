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
