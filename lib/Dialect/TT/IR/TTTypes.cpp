//===- TTTypes.cpp - the !tt.ptr and !tt.tensordesc types ----------------===//
//
// Parsing, printing and verification of `!tt.ptr<pointee[, addrspace]>`,
// and verification of `!tt.tensordesc<tensor<...>>`.
// The address space is printed only when it is not 1 (global memory).
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TT/IR/TTDialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tritium::tt;

#define GET_TYPEDEF_CLASSES
#include "tritium/Dialect/TT/IR/TTTypes.cpp.inc"

void TTDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tritium/Dialect/TT/IR/TTTypes.cpp.inc"
      >();
}

Type PointerType::parse(AsmParser &parser) {
  Type pointee;
  int addressSpace = 1;
  if (parser.parseLess() || parser.parseType(pointee))
    return {};
  if (succeeded(parser.parseOptionalComma()) &&
      parser.parseInteger(addressSpace))
    return {};
  if (parser.parseGreater())
    return {};
  return parser.getChecked<PointerType>(parser.getContext(), pointee,
                                        addressSpace);
}

void PointerType::print(AsmPrinter &printer) const {
  printer << "<" << getPointeeType();
  if (getAddressSpace() != 1)
    printer << ", " << getAddressSpace();
  printer << ">";
}

LogicalResult
PointerType::verify(function_ref<InFlightDiagnostic()> emitError, Type pointee,
                    int addressSpace) {
  if (addressSpace < 0)
    return emitError() << "address space must be non-negative, got "
                       << addressSpace;
  if (auto tensor = dyn_cast<RankedTensorType>(pointee)) {
    if (isa<PointerType>(tensor.getElementType()))
      return emitError() << "a block pointer's tile cannot hold pointers";
    return success();
  }
  if (isa<TensorType>(pointee))
    return emitError() << "pointee tensor must be ranked";
  return success();
}

LogicalResult
TensorDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                       RankedTensorType blockType) {
  if (blockType.getRank() < 1 || blockType.getRank() > 5)
    return emitError() << "a tensor descriptor's block has rank 1 to 5, got "
                       << blockType.getRank();
  if (blockType.getEncoding())
    return emitError() << "a tensor descriptor's block has no layout";
  Type element = blockType.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() < 8)
    return emitError() << "a tensor descriptor's elements are 8 to 64-bit "
                          "numbers, got "
                       << element;
  return success();
}
