//===- PrintFormat.cpp - printf formats of tt.print and tt.assert --------===//
//
// See PrintFormat.h.
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTGToLLVM/PrintFormat.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

std::string tritium::escapePercent(StringRef text) {
  std::string result;
  for (char c : text) {
    result.push_back(c);
    if (c == '%')
      result.push_back('%');
  }
  return result;
}

std::pair<std::string, Value> tritium::formatPrintedValue(OpBuilder &b, Location loc,
                                                          Value value, Type type, bool hex,
                                                          bool isSigned) {
  if (isa<FloatType>(type)) {
    Value wide =
        value.getType().isF64()
            ? value
            : LLVM::FPExtOp::create(b, loc, b.getF64Type(), value).getResult();
    return {"%f", wide};
  }
  if (isa<LLVM::LLVMPointerType>(value.getType()))
    return {"%p", value};
  unsigned bits = value.getType().getIntOrFloatBitWidth();
  if (bits < 32) {
    Type i32 = b.getI32Type();
    value = isSigned && bits > 1
                ? LLVM::SExtOp::create(b, loc, i32, value).getResult()
                : LLVM::ZExtOp::create(b, loc, i32, value).getResult();
    bits = 32;
  }
  std::string length = bits == 64 ? "ll" : "";
  if (hex)
    return {"0x%" + length + "x", value};
  return {"%" + length + (isSigned ? "i" : "u"), value};
}

std::pair<std::string, int> tritium::fileAndLine(Location loc) {
  std::pair<std::string, int> result = {"unknown", 0};
  loc->walk([&](Location inner) {
    if (auto fileLoc = dyn_cast<FileLineColLoc>(inner)) {
      result = {fileLoc.getFilename().str(),
                static_cast<int>(fileLoc.getLine())};
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result;
}
