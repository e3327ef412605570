//===- StMatrix.cpp - 16-bit tiles into shared memory with stmatrix -------===//
//
// stmatrix.sync.aligned.m8n8.x{1,2,4}.shared.b16 [addr], {r0, ...}: lane t
// names the address of row t % 8 of matrix t / 8, and register j of lane t
// holds elements (t / 4, 2 (t % 4) + {0, 1}) of matrix j.  A layout fits
// when, in the tile's XOR-linear offsets (elements),
//   register bit 0 moves by 1, lane bits 0 and 1 by 2 and 4
//     (a lane's pair and its row of 8 consecutive elements, 16 bytes);
//   every other register, lane and warp bit moves by a multiple of 8
//     (rows start 16-byte aligned, and XOR is addition inside a row).
// Then lane bits 2-4 pick the row of a matrix, register bits 1 and 2 (as
// many as there are, up to two) pick the matrix of an instruction, and the
// remaining register bits number the instructions.  Lane t's address is
//   offset(lane bits 2-4 = t % 8, register bits 1-2 = t / 8, warp)
//     ^ offset(the instruction's register bits),
// the first part computed once per thread; the matrix bits of t / 8 beyond
// the instruction's matrices are ignored by the hardware.
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTGToLLVM/StMatrix.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"
#include "tritium/Target/NVIDIA/PTXBuilder.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tritium;
using layout::HwDim;

namespace {

/// The tile offsets (elements) of each basis of `dim`.
std::vector<int64_t> basisOffsets(const layout::LinearLayout &layout, HwDim dim,
                                  const XorLinearOffset &offset) {
  std::vector<int64_t> offsets;
  for (const std::vector<int64_t> &basis : layout.bases(dim))
    offsets.push_back(offset(basis));
  return offsets;
}

/// XOR of `offsets[i]` over the set bits i of `index`.
int64_t xorOfBits(const std::vector<int64_t> &offsets, int64_t index, int first = 0) {
  int64_t result = 0;
  for (int bit = 0; first + bit < static_cast<int>(offsets.size()); ++bit)
    if (index >> bit & 1)
      result ^= offsets[first + bit];
  return result;
}

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
  std::vector<int64_t> regs = basisOffsets(layout, HwDim::Register, offset);
  std::vector<int64_t> lanes = basisOffsets(layout, HwDim::Lane, offset);
  std::vector<int64_t> warps = basisOffsets(layout, HwDim::Warp, offset);
  if (regs.empty() || lanes.size() != 5 || regs[0] != 1 || lanes[0] != 2 ||
      lanes[1] != 4)
    return false;
  auto rowAligned = [](int64_t o) { return o % 8 == 0; };
  for (size_t i = 1; i < regs.size(); ++i)
    if (regs[i] == 0 || !rowAligned(regs[i])) // a zero: a duplicated register
      return false;
  if (!std::all_of(lanes.begin() + 2, lanes.end(), rowAligned) ||
      !std::all_of(warps.begin(), warps.end(), rowAligned))
    return false;

  int matrixBits = std::min<int>(2, regs.size() - 1);
  int64_t matrices = int64_t(1) << matrixBits;
  int64_t perInstruction = 2 * matrices; // registers
  // The per-thread part of every lane address: lane bits 0-2 name the row
  // (the tile's lane bits 2-4), lane bits 3-4 the matrix (register bits
  // 1..matrixBits), and the warp.
  Value rowOffset = emitI32Constant(builder, loc, 0);
  int64_t rowBits = 0;
  auto mix = [&](Value index, int bit, int64_t value) {
    if (value == 0)
      return;
    rowBits |= value;
    rowOffset = LLVM::XOrOp::create(builder, loc, rowOffset,
                                    bitTimes(builder, loc, index, bit, value));
  };
  for (int bit = 0; bit < 3; ++bit)
    mix(thread.lane, bit, lanes[2 + bit]);
  for (int bit = 0; bit < matrixBits; ++bit)
    mix(thread.lane, 3 + bit, regs[1 + bit]);
  for (int bit = 0; bit < static_cast<int>(warps.size()); ++bit)
    mix(thread.warp, bit, warps[bit]);

  Value baseAddress =
      LLVM::PtrToIntOp::create(builder, loc, builder.getI32Type(), base);
  int64_t count = layout.elemsPerThread();
  std::string opcode =
      "stmatrix.sync.aligned.m8n8.x" + std::to_string(matrices) + ".shared.b16";
  for (int64_t first = 0; first < count; first += perInstruction) {
    // offset(first) ^ rowOffset: the bits rowOffset may have by XOR, the
    // rest (whole rows, higher) by addition.
    int64_t instruction = xorOfBits(regs, first);
    int64_t overlap = instruction & rowBits;
    Value row = overlap == 0 ? rowOffset
                             : LLVM::XOrOp::create(builder, loc, rowOffset,
                                                   emitI32Constant(builder, loc, overlap))
                                   .getResult();
    int64_t rest = (instruction & ~rowBits) * 2;
    Value bytes = LLVM::ShlOp::create(builder, loc, row, emitI32Constant(builder, loc, 1));
    if (rest != 0)
      bytes = LLVM::AddOp::create(builder, loc, bytes, emitI32Constant(builder, loc, rest));
    Value address = LLVM::AddOp::create(builder, loc, baseAddress, bytes);

    nvidia::PTXBuilder ptx;
    auto *addressOperand = ptx.input(address, "r");
    SmallVector<nvidia::PTXBuilder::Operand *> fragments;
    for (int64_t j = 0; j < matrices; ++j) {
      int64_t reg = first + 2 * j;
      fragments.push_back(
          ptx.input(packToI32(builder, loc, {values[reg], values[reg + 1]}), "r"));
    }
    ptx.instr(opcode).args({nvidia::PTXBuilder::address(addressOperand),
                            nvidia::PTXBuilder::list(fragments)});
    ptx.launch(builder, loc, Type());
  }
  return true;
}
