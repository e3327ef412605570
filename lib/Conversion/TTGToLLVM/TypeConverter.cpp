//===- TypeConverter.cpp - TTGIR types as LLVM types ----------------------===//
//
// Registers the conversions of Tritium's types on top of the upstream LLVM
// type converter (later registrations are tried first).  A tensor whose
// layout is not distributed has no per-thread form and does not convert,
// which makes the conversion of any op producing it fail.
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

using namespace mlir;
using namespace tritium;

TTGToLLVMTypeConverter::TTGToLLVMTypeConverter(MLIRContext *context)
    : LLVMTypeConverter(context) {
  addConversion([context](tt::PointerType type) -> Type {
    return LLVM::LLVMPointerType::get(context, type.getAddressSpace());
  });
  // Async tokens only order ops in the IR; they lower to a dummy i32.
  // A tensor descriptor is the generic address of its tensor map (a
  // kernel parameter in .param space, see FuncOpToLLVM.cpp).
  addConversion([context](tt::TensorDescType) -> Type {
    return LLVM::LLVMPointerType::get(context);
  });
  addConversion([context](ttg::AsyncTokenType) -> Type {
    return IntegerType::get(context, 32);
  });
  addConversion([context](ttg::MemDescType) -> Type {
    return LLVM::LLVMPointerType::get(context, kSharedAddressSpace);
  });
  addConversion([this](RankedTensorType type) -> std::optional<Type> {
    auto layout = ttg::getDistributedEncoding(type);
    if (!layout)
      return std::nullopt; // not ours: leave it to other conversions
    Type element = convertElementType(type.getElementType());
    if (!element)
      return Type();
    int64_t count = layout.getElemsPerThread(type.getShape());
    SmallVector<Type> fields(count, element);
    return LLVM::LLVMStructType::getLiteral(type.getContext(), fields);
  });
}

Type TTGToLLVMTypeConverter::convertElementType(Type elementType) const {
  return convertType(elementType);
}

Type TTGToLLVMTypeConverter::convertMemoryElementType(Type elementType) const {
  if (elementType.isInteger(1))
    return IntegerType::get(elementType.getContext(), 8);
  return convertType(elementType);
}

int64_t TTGToLLVMTypeConverter::getMemoryBits(Type memoryType) {
  if (isa<LLVM::LLVMPointerType>(memoryType))
    return 64;
  return memoryType.getIntOrFloatBitWidth();
}
