//===- ConvertLayoutOpToLLVM.cpp - ttg.convert_layout to LLVM -------------===//
//
// Three paths, chosen by getConvertLayoutPath, the same function the
// shared-memory allocation uses (only the last one gets a buffer):
//   * Registers: every element of the result is already in the same
//     thread: pick registers, no code;
//   * WarpShuffle: no element changes warps and each destination register
//     can be read from one source register of another lane (the scheme of
//     layout/WarpShufflePlan.h): per destination register one
//     shfl.sync.idx of source register srcRegister[r] from lane
//     laneXor[r] ^ laneMap(lane), where laneMap(lane) is computed once from
//     the lane id with a few and/shift/xor ops; registers that stay in
//     their lane and duplicates of earlier registers cost nothing;
//   * SharedMemory: through the op's scratch buffer:
//       store the source registers at their tile offsets
//       barrier          (every element is written)
//       load the result registers from their tile offsets
//     The barrier before the store (earlier readers of the buffer are
//     done) is the membar pass's to insert, as between any two ops that
//     share bytes of shared memory.
//     A tile larger than shared memory goes in parts (layout/ConvertParts.h)
//     through a scratch of one part: store part p, barrier, load part p,
//     barrier before part p + 1's store.
//     The tile is row-major, over the tensor's dimensions in the plan's
//     order (both layouts' dimensions permuted the same way), with a pad
//     after every row or its chunks XOR swizzled per row (whichever models
//     faster), and each phase has its own vector width, as
//     getConvertScratchPlan chose them (the same plan sized the buffer) to
//     keep both phases free of bank conflicts as far as the model of
//     layout/BankConflicts.h can.
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tritium/Analysis/Allocation.h"
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"
#include "tritium/Conversion/TTGToLLVM/NVVMHelpers.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/SharedMemoryAccess.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Conversion/TTGToLLVM/WarpShuffle.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Layout/WarpShufflePlan.h"

#include <map>

using namespace mlir;
using namespace tritium;

namespace {
/// laneMap(lane) of `plan` as an i32: bit i of `lane` flips the source lane
/// bits plan.laneMap[i].  Contributions that move by the same distance are
/// one and + shift; groups are XORed (two lane bits may flip one bit).
Value emitLaneMap(OpBuilder &builder, Location loc,
                  const layout::WarpShufflePlan &plan, Value lane) {
  std::map<int, int64_t> maskByShift; // shift (target - source) -> bits
  for (int i = 0, e = plan.laneMap.size(); i < e; ++i)
    for (int j = 0; j < 32; ++j)
      if (plan.laneMap[i] & (int64_t(1) << j))
        maskByShift[j - i] |= int64_t(1) << i;
  auto constant = [&](int64_t value) {
    return LLVM::ConstantOp::create(builder, loc, builder.getI32Type(), value);
  };
  Value result;
  for (auto [shift, mask] : maskByShift) {
    Value term = LLVM::AndOp::create(builder, loc, lane, constant(mask));
    if (shift > 0)
      term = LLVM::ShlOp::create(builder, loc, term, constant(shift));
    else if (shift < 0)
      term = LLVM::LShrOp::create(builder, loc, term, constant(-shift));
    result = result
                 ? LLVM::XOrOp::create(builder, loc, result, term).getResult()
                 : term;
  }
  return result ? result : constant(0);
}

/// The WarpShuffle path: the destination registers of this thread.
SmallVector<Value> shuffleWithinWarps(OpBuilder &builder, Location loc,
                                      ModuleOp module,
                                      const layout::LinearLayout &src,
                                      const layout::LinearLayout &dst,
                                      ArrayRef<Value> srcElements) {
  std::optional<layout::WarpShufflePlan> plan =
      layout::planWarpShuffle(src, dst);
  assert(plan && "getConvertLayoutPath chose warp shuffles");
  SmallVector<int64_t> representative = getRepresentativeRegisters(dst);
  Value lane = emitThreadIndex(builder, loc, module).lane;
  Value laneMap =
      plan->isIdentityLaneMap() ? lane : emitLaneMap(builder, loc, *plan, lane);
  std::map<std::pair<int64_t, int64_t>, Value> moved; // (reg, laneXor)
  SmallVector<Value> elements;
  for (int64_t reg = 0; reg < dst.elemsPerThread(); ++reg) {
    if (representative[reg] != reg) {
      elements.push_back(elements[representative[reg]]);
      continue;
    }
    int64_t srcReg = plan->srcRegister[reg];
    if (plan->isLocal(reg)) {
      elements.push_back(srcElements[srcReg]);
      continue;
    }
    Value &value = moved[{srcReg, plan->laneXor[reg]}];
    if (!value) {
      Value srcLane = laneMap;
      if (plan->laneXor[reg] != 0)
        srcLane = LLVM::XOrOp::create(
            builder, loc, laneMap,
            LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                     plan->laneXor[reg]));
      value = shuffleValue(builder, loc, nvvm::ShuffleMode::Idx,
                           srcElements[srcReg], srcLane);
    }
    elements.push_back(value);
  }
  return elements;
}

struct ConvertLayoutLowering
    : public ConvertOpToLLVMPattern<ttg::ConvertLayoutOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ttg::ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    if (!ttg::getDistributedEncoding(srcType) ||
        !ttg::getDistributedEncoding(dstType))
      return op.emitError("only conversions between distributed layouts "
                          "can be lowered");
    Location loc = op.getLoc();
    auto &converter = TTGToLLVMTypeConverter::of(getTypeConverter());
    Type resultType = converter.convertType(dstType);
    layout::LinearLayout srcLayout = getLinearLayout(srcType);
    layout::LinearLayout dstLayout = getLinearLayout(dstType);
    SmallVector<Value> srcElements =
        unpackElements(rewriter, loc, adaptor.getSrc());

    ConvertLayoutPath path = getConvertLayoutPath(srcType, dstType);
    if (path == ConvertLayoutPath::Registers) {
      auto mapping = getRegisterPermutation(srcLayout, dstLayout);
      assert(mapping && "getConvertLayoutPath chose registers");
      SmallVector<Value> elements;
      for (int64_t reg : *mapping)
        elements.push_back(srcElements[reg]);
      rewriter.replaceOp(op, packElements(rewriter, loc, resultType, elements));
      return success();
    }
    if (path == ConvertLayoutPath::WarpShuffle) {
      SmallVector<Value> elements =
          shuffleWithinWarps(rewriter, loc, op->getParentOfType<ModuleOp>(),
                             srcLayout, dstLayout, srcElements);
      rewriter.replaceOp(op, packElements(rewriter, loc, resultType, elements));
      return success();
    }

    std::optional<layout::ConvertScratchPlan> plan =
        getConvertScratchPlan(srcType, dstType);
    assert(plan && "getConvertLayoutPath chose shared memory");
    Value buffer = getBufferPointer(rewriter, op);
    if (!buffer)
      return failure();
    Type elementType = dstType.getElementType();
    Type memoryType = converter.convertMemoryElementType(elementType);
    Type registerType = converter.convertElementType(elementType);
    ThreadIndex thread =
        emitThreadIndex(rewriter, loc, op->getParentOfType<ModuleOp>());
    TileAccess store{plan->tile.pad, plan->storeVec, plan->tile.swizzle};
    TileAccess load{plan->tile.pad, plan->loadVec, plan->tile.swizzle};
    // Both phases address the tile in its dimension order.
    auto inTileOrder = [&](const layout::LinearLayout &layout) {
      return plan->order.empty() ? layout : layout.permuteOutDims(plan->order);
    };
    if (!plan->parts) {
      srcLayout = inTileOrder(srcLayout);
      dstLayout = inTileOrder(dstLayout);
      storeTile(rewriter, loc, buffer, srcElements, srcLayout, thread,
                memoryType, /*predicate=*/{}, store);
      nvvm::barrier(rewriter, loc);
      SmallVector<Value> elements = loadTile(rewriter, loc, buffer, dstLayout,
                                             thread, memoryType, registerType,
                                             load);
      rewriter.replaceOp(op, packElements(rewriter, loc, resultType, elements));
      return success();
    }
    // In parts: each through the same scratch, a barrier before every part
    // but the first (the previous part's loads are done).
    const layout::ConvertParts &parts = *plan->parts;
    SmallVector<Value> elements(dstLayout.elemsPerThread());
    for (int64_t part = 0; part < parts.numParts(); ++part) {
      if (part > 0)
        nvvm::barrier(rewriter, loc);
      SmallVector<Value> partElements;
      for (int64_t reg : parts.srcRegisters(part))
        partElements.push_back(srcElements[reg]);
      storeTile(rewriter, loc, buffer, partElements, inTileOrder(parts.srcPart),
                thread, memoryType, /*predicate=*/{}, store);
      nvvm::barrier(rewriter, loc);
      SmallVector<Value> loaded =
          loadTile(rewriter, loc, buffer, inTileOrder(parts.dstPart), thread,
                   memoryType, registerType, load);
      for (auto [reg, value] : llvm::zip(parts.dstRegisters(part), loaded))
        elements[reg] = value;
    }
    rewriter.replaceOp(op, packElements(rewriter, loc, resultType, elements));
    return success();
  }
};
} // namespace

void tritium::populateConvertLayoutOpToLLVMPatterns(
    TTGToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ConvertLayoutLowering>(converter, kTritiumPatternBenefit);
}
