//===- ModuleSymbols.cpp - declarations and globals the lowering adds -----===//
//
// Symbols are inserted at the start of the module body with a guarded
// insertion point, so that a pattern can ask for them in the middle of
// rewriting a function.
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTGToLLVM/ModuleSymbols.h"

#include "mlir/IR/SymbolTable.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"

using namespace mlir;
using namespace tritium;

LLVM::LLVMFuncOp tritium::getOrInsertFunction(OpBuilder &builder,
                                              ModuleOp module, StringRef name,
                                              LLVM::LLVMFunctionType type) {
  if (Operation *existing = SymbolTable::lookupSymbolIn(module, name)) {
    auto function = dyn_cast<LLVM::LLVMFuncOp>(existing);
    if (!function || function.getFunctionType() != type)
      return {};
    return function;
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(builder, module.getLoc(), name, type);
}

Value tritium::getOrInsertStringConstant(OpBuilder &builder, Location loc,
                                         ModuleOp module, StringRef prefix,
                                         StringRef text) {
  std::string contents = text.str();
  contents.push_back('\0');
  LLVM::GlobalOp global;
  for (int n = 0;; ++n) {
    std::string name = (prefix + "_" + Twine(n)).str();
    Operation *existing = SymbolTable::lookupSymbolIn(module, name);
    if (!existing) {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(module.getBody());
      auto type =
          LLVM::LLVMArrayType::get(builder.getI8Type(), contents.size());
      global =
          LLVM::GlobalOp::create(builder, module.getLoc(), type,
                                 /*isConstant=*/true, LLVM::Linkage::Internal,
                                 name, builder.getStringAttr(contents));
      break;
    }
    auto candidate = dyn_cast<LLVM::GlobalOp>(existing);
    auto value = candidate
                     ? dyn_cast_or_null<StringAttr>(candidate.getValueOrNull())
                     : StringAttr();
    if (value && value.getValue() == contents) {
      global = candidate;
      break;
    }
  }
  return LLVM::AddressOfOp::create(builder, loc, global);
}

Value tritium::getSharedMemoryBase(OpBuilder &builder, Location loc,
                                   ModuleOp module) {
  auto global = dyn_cast_or_null<LLVM::GlobalOp>(
      SymbolTable::lookupSymbolIn(module, kSharedMemorySymbol));
  if (!global) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), 0);
    global = LLVM::GlobalOp::create(
        builder, module.getLoc(), type, /*isConstant=*/false,
        LLVM::Linkage::External, kSharedMemorySymbol, Attribute(),
        /*alignment=*/1024, kSharedAddressSpace);
  }
  return LLVM::AddressOfOp::create(builder, loc, global);
}
