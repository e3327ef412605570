//===- WarpShuffle.cpp - warp shuffles of any scalar ------------------------===//
//
// Widen to a 32-bit integer (or split a 64-bit one), shuffle, and undo.
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTGToLLVM/WarpShuffle.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace tritium;

Value tritium::shuffleValue(OpBuilder &builder, Location loc,
                            nvvm::ShuffleMode mode, Value value,
                            Value operand) {
  Type type = value.getType();
  Type i32 = builder.getI32Type();
  if (isa<LLVM::LLVMPointerType>(type)) {
    Type i64 = builder.getI64Type();
    Value asInt = LLVM::PtrToIntOp::create(builder, loc, i64, value);
    Value moved = shuffleValue(builder, loc, mode, asInt, operand);
    return LLVM::IntToPtrOp::create(builder, loc, type, moved);
  }
  unsigned bits = type.getIntOrFloatBitWidth();
  Type sameWidthInt = builder.getIntegerType(bits);
  Value asInt = type == sameWidthInt
                    ? value
                    : LLVM::BitcastOp::create(builder, loc, sameWidthInt, value)
                          .getResult();
  Value moved;
  if (bits == 64) {
    Type i64 = builder.getI64Type();
    Value low = LLVM::TruncOp::create(builder, loc, i32, asInt);
    Value shift = LLVM::ConstantOp::create(builder, loc, i64,
                                           builder.getI64IntegerAttr(32));
    Value high = LLVM::TruncOp::create(
        builder, loc, i32, LLVM::LShrOp::create(builder, loc, asInt, shift));
    low = nvvm::shuffle(builder, loc, mode, low, operand);
    high = nvvm::shuffle(builder, loc, mode, high, operand);
    Value wideLow = LLVM::ZExtOp::create(builder, loc, i64, low);
    Value wideHigh = LLVM::ShlOp::create(
        builder, loc, LLVM::ZExtOp::create(builder, loc, i64, high), shift);
    moved = LLVM::OrOp::create(builder, loc, wideLow, wideHigh);
  } else if (bits == 32) {
    moved = nvvm::shuffle(builder, loc, mode, asInt, operand);
  } else {
    assert(bits < 32 && "scalars are at most 64 bits");
    Value wide = LLVM::ZExtOp::create(builder, loc, i32, asInt);
    moved = LLVM::TruncOp::create(
        builder, loc, sameWidthInt,
        nvvm::shuffle(builder, loc, mode, wide, operand));
  }
  if (type == sameWidthInt)
    return moved;
  return LLVM::BitcastOp::create(builder, loc, type, moved);
}

Value tritium::shuffleValue(OpBuilder &builder, Location loc,
                            nvvm::ShuffleMode mode, Value value,
                            int32_t operand) {
  Value constant = LLVM::ConstantOp::create(
      builder, loc, builder.getI32Type(), builder.getI32IntegerAttr(operand));
  return shuffleValue(builder, loc, mode, value, constant);
}
