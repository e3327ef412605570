//===- NVVMHelpers.cpp - the NVVM ops the lowering emits ------------------===//
//
// The only translation unit of the lowering that includes NVVMDialect.h
// (see NVVMHelpers.h).
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTGToLLVM/NVVMHelpers.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;

void tritium::nvvm::insertNVVMDialect(DialectRegistry &registry) {
  registry.insert<NVVM::NVVMDialect>();
}

Value tritium::nvvm::threadIdX(OpBuilder &builder, Location loc,
                               int64_t numThreads) {
  auto range =
      LLVM::ConstantRangeAttr::get(builder.getContext(), 32, 0, numThreads);
  return NVVM::ThreadIdXOp::create(builder, loc, builder.getI32Type(), range);
}

Value tritium::nvvm::blockId(OpBuilder &builder, Location loc, int axis) {
  Type i32 = builder.getI32Type();
  switch (axis) {
  case 0:
    return NVVM::BlockIdXOp::create(builder, loc, i32);
  case 1:
    return NVVM::BlockIdYOp::create(builder, loc, i32);
  default:
    return NVVM::BlockIdZOp::create(builder, loc, i32);
  }
}

Value tritium::nvvm::gridDim(OpBuilder &builder, Location loc, int axis) {
  Type i32 = builder.getI32Type();
  switch (axis) {
  case 0:
    return NVVM::GridDimXOp::create(builder, loc, i32);
  case 1:
    return NVVM::GridDimYOp::create(builder, loc, i32);
  default:
    return NVVM::GridDimZOp::create(builder, loc, i32);
  }
}

void tritium::nvvm::barrier(OpBuilder &builder, Location loc) {
  NVVM::Barrier0Op::create(builder, loc);
}

Value tritium::nvvm::shuffleIdx(OpBuilder &builder, Location loc, Value value,
                                Value srcLane) {
  Type i32 = builder.getI32Type();
  Value fullMask = LLVM::ConstantOp::create(builder, loc, i32,
                                            builder.getI32IntegerAttr(-1));
  Value clamp = LLVM::ConstantOp::create(builder, loc, i32,
                                         builder.getI32IntegerAttr(0x1f));
  return NVVM::ShflOp::create(builder, loc, i32, fullMask, value, srcLane,
                              clamp, NVVM::ShflKind::idx, UnitAttr());
}
