//===- StMatrix.cpp - 16-bit tiles into shared memory with stmatrix -------===//
//
// The instructions of a layout::StMatrixPlan (layout/StMatrixPlan.h: which
// layouts fit, the registers of each instruction and each lane's row
// address): the row offset of this thread's lane and warp computed once
// (each set bit's term XORed in), then per instruction its offset XORed in
// where the row offset may have those bits and added where it cannot,
// and one stmatrix of the instruction's register pairs packed in i32s.
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTGToLLVM/StMatrix.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"
#include "tritium/Layout/StMatrixPlan.h"
#include "tritium/Target/NVIDIA/PTXBuilder.h"

using namespace mlir;
using namespace tritium;

namespace {

/// i32: `index`'s bit `bit` times `value` (0 or value).
Value bitTimes(OpBuilder &builder, Location loc, Value index, int bit,
               int64_t value) {
  Value set = LLVM::AndOp::create(
      builder, loc,
      LLVM::LShrOp::create(builder, loc, index, emitI32Constant(builder, loc, bit)),
      emitI32Constant(builder, loc, 1));
  return LLVM::MulOp::create(builder, loc, set, emitI32Constant(builder, loc, value));
}

} // namespace

bool tritium::storeXorLinearTileWithStMatrix(OpBuilder &builder, Location loc,
                                             Value base, ArrayRef<Value> values,
                                             const layout::LinearLayout &layout,
                                             ThreadIndex thread, Type memoryType,
                                             const XorLinearOffset &offset) {
  if (!memoryType.isIntOrFloat() || memoryType.getIntOrFloatBitWidth() != 16 ||
      values.empty() || values.front().getType() != memoryType)
    return false;
  std::optional<layout::StMatrixPlan> plan = layout::planStMatrix(layout, offset);
  if (!plan)
    return false;

  // This thread's row offset (elements), and the bits it may have.
  Value rowOffset = emitI32Constant(builder, loc, 0);
  int64_t rowBits = 0;
  auto mix = [&](Value index, const std::vector<int64_t> &terms) {
    for (int bit = 0, e = static_cast<int>(terms.size()); bit < e; ++bit) {
      if (terms[bit] == 0)
        continue;
      rowBits |= terms[bit];
      rowOffset = LLVM::XOrOp::create(builder, loc, rowOffset,
                                      bitTimes(builder, loc, index, bit, terms[bit]));
    }
  };
  mix(thread.lane, plan->laneRowOffsets);
  mix(thread.warp, plan->warpOffsets);

  Value baseAddress =
      LLVM::PtrToIntOp::create(builder, loc, builder.getI32Type(), base);
  std::string opcode = "stmatrix.sync.aligned.m8n8.x" +
                       std::to_string(plan->matrices) + ".shared.b16";
  for (size_t k = 0; k < plan->firstRegisters.size(); ++k) {
    // rowOffset ^ instruction: by XOR in the bits rowOffset may have, by
    // addition above them (disjoint bits: no carries).
    int64_t instruction = plan->instructionOffsets[k];
    int64_t overlap = instruction & rowBits;
    Value row = overlap == 0 ? rowOffset
                             : LLVM::XOrOp::create(builder, loc, rowOffset,
                                                   emitI32Constant(builder, loc, overlap))
                                   .getResult();
    Value bytes = LLVM::ShlOp::create(builder, loc, row, emitI32Constant(builder, loc, 1));
    if (int64_t rest = (instruction & ~rowBits) * 2)
      bytes = LLVM::AddOp::create(builder, loc, bytes, emitI32Constant(builder, loc, rest));
    Value address = LLVM::AddOp::create(builder, loc, baseAddress, bytes);

    nvidia::PTXBuilder ptx;
    auto *addressOperand = ptx.input(address, "r");
    SmallVector<nvidia::PTXBuilder::Operand *> fragments;
    for (int64_t j = 0; j < plan->matrices; ++j) {
      int64_t reg = plan->firstRegisters[k] + 2 * j;
      fragments.push_back(
          ptx.input(packToI32(builder, loc, {values[reg], values[reg + 1]}), "r"));
    }
    ptx.instr(opcode).args({nvidia::PTXBuilder::address(addressOperand),
                            nvidia::PTXBuilder::list(fragments)});
    ptx.launch(builder, loc, Type());
  }
  return true;
}
