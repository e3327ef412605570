//===- TTDialect.cpp - the Triton IR dialect -----------------------------===//
//
// Registers the `tt` dialect's types, attributes and ops, lets the inliner
// inline tt.call, materializes folded constants, and implements the type
// helpers shared by the ops' constraints.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TT/IR/TTDialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tritium::tt;

#include "tritium/Dialect/TT/IR/TTDialect.cpp.inc"
#include "tritium/Dialect/TT/IR/TTEnums.cpp.inc"

namespace {
/// Every tt op may be inlined; tt.return becomes a branch or a replacement.
struct TTInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *call, Operation *callable,
                       bool wouldBeCloned) const final {
    return true;
  }
  bool isLegalToInline(Region *dest, Region *src, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return true;
  }
  bool isLegalToInline(Operation *op, Region *dest, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return true;
  }

  void handleTerminator(Operation *op, Block *newDest) const final {
    auto ret = dyn_cast<ReturnOp>(op);
    if (!ret)
      return;
    OpBuilder builder(op);
    cf::BranchOp::create(builder, op->getLoc(), newDest, ret.getOperands());
    op->erase();
  }

  void handleTerminator(Operation *op, ValueRange valuesToRepl) const final {
    auto ret = cast<ReturnOp>(op);
    for (auto [value, replacement] : llvm::zip(valuesToRepl, ret.getOperands()))
      value.replaceAllUsesWith(replacement);
  }
};
} // namespace

void TTDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "tritium/Dialect/TT/IR/TTOps.cpp.inc"
      >();
  addInterfaces<TTInlinerInterface>();
}

Operation *TTDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                          Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

//===----------------------------------------------------------------------===//
// Type helpers
//===----------------------------------------------------------------------===//

bool tritium::tt::isTensorPointerType(Type type) {
  auto ptr = dyn_cast<PointerType>(type);
  return ptr && isa<RankedTensorType>(ptr.getPointeeType());
}

Type tritium::tt::getPointeeType(Type ptrLike) {
  if (auto tensor = dyn_cast<RankedTensorType>(ptrLike)) {
    auto ptr = dyn_cast<PointerType>(tensor.getElementType());
    if (!ptr)
      return ptrLike;
    return RankedTensorType::get(tensor.getShape(), ptr.getPointeeType(),
                                 tensor.getEncoding());
  }
  if (auto ptr = dyn_cast<PointerType>(ptrLike))
    return ptr.getPointeeType();
  return ptrLike;
}

Type tritium::tt::getBlockPointerBaseType(Type blockPtr) {
  auto ptr = dyn_cast<PointerType>(blockPtr);
  auto tile = ptr ? dyn_cast<RankedTensorType>(ptr.getPointeeType()) : nullptr;
  if (!tile)
    return blockPtr;
  return PointerType::get(tile.getElementType(), ptr.getAddressSpace());
}

Type tritium::tt::getI1SameShape(Type type) {
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), i1, tensor.getEncoding());
  return i1;
}
