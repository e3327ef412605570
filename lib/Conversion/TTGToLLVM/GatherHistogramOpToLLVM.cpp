//===- GatherHistogramOpToLLVM.cpp - tt.gather, tt.histogram to LLVM ------===//
//
// Both ops read elements that other threads hold, so both go through their
// scratch buffer in shared memory (sized here, next to the addressing, by
// getGatherScratchBytes / getHistogramScratchBytes).  The barrier before
// the first write (earlier users of the bytes are done) is the membar
// pass's; the barriers inside an op are emitted here.
//
// tt.gather %src[%idx] along `axis`:
//   store src as a row-major tile of its shape   (storeTile)
//   barrier
//   each result register: coordinates of the result element with the one
//   along `axis` replaced by the index register, loaded from the tile.
// An index is reduced modulo the source's extent along `axis` (a power of
// two: one `and`), so an out-of-range index reads some element of the tile
// (Triton leaves it undefined) but never memory outside it.
//
// tt.histogram %x -> num_bins:
//   zero the bins (each thread stores zeros at its result elements)
//   barrier
//   each input element, once (the thread emitUniqueThreadPredicate picks,
//   one register of a thread's duplicates), with 0 <= x < num_bins:
//       @p red.shared.add.u32 [bins + 4 * x], 1
//   barrier
//   each result register loads its bin.
// Inputs narrower than 32 bits are sign-extended (the front end widens
// unsigned ones with a zero extension first), and a value counts when it is
// below num_bins as an unsigned number: negative values never count.
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tritium/Analysis/Allocation.h"
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"
#include "tritium/Conversion/TTGToLLVM/LayoutIndices.h"
#include "tritium/Conversion/TTGToLLVM/NVVMHelpers.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/SharedMemoryAccess.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Target/NVIDIA/PTXBuilder.h"

using namespace mlir;
using namespace tritium;
using nvidia::PTXBuilder;

namespace {

/// `value` (an integer) as an i32: sign-extended or truncated.
Value toI32(OpBuilder &builder, Location loc, Value value) {
  unsigned bits = value.getType().getIntOrFloatBitWidth();
  Type i32 = builder.getI32Type();
  if (bits < 32)
    return LLVM::SExtOp::create(builder, loc, i32, value);
  if (bits > 32)
    return LLVM::TruncOp::create(builder, loc, i32, value);
  return value;
}

/// True when `type` has a distributed layout (the TTGIR these lowerings
/// expect).
bool isDistributed(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && ttg::getDistributedEncoding(tensor);
}

struct GatherLowering : public ConvertOpToLLVMPattern<tt::GatherOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isDistributed(op.getSrc().getType()) ||
        !isDistributed(op.getIndices().getType()) ||
        !isDistributed(op.getType()))
      return op.emitError("tt.gather needs tensors with distributed layouts");
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto idxType = cast<RankedTensorType>(op.getIndices().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    layout::LinearLayout srcLayout = getLinearLayout(srcType);
    layout::LinearLayout idxLayout = getLinearLayout(idxType);
    layout::LinearLayout dstLayout = getLinearLayout(dstType);
    // Each result register needs its index in the same thread.
    std::optional<SmallVector<int64_t>> idxRegister =
        getRegisterPermutation(idxLayout, dstLayout);
    if (!idxRegister)
      return op.emitError("tt.gather: the indices' layout must hold every "
                          "index in the thread of its result element");

    Location loc = op.getLoc();
    auto &converter = TTGToLLVMTypeConverter::of(getTypeConverter());
    Type elementType = srcType.getElementType();
    Type memoryType = converter.convertMemoryElementType(elementType);
    Type registerType = converter.convertElementType(elementType);
    Value buffer = getBufferPointer(rewriter, op);
    if (!buffer)
      return failure();
    ThreadIndex thread =
        emitThreadIndex(rewriter, loc, op->getParentOfType<ModuleOp>());

    SmallVector<Value> srcElements =
        unpackElements(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> indices =
        unpackElements(rewriter, loc, adaptor.getIndices());
    storeTile(rewriter, loc, buffer, srcElements, srcLayout, thread,
              memoryType);
    nvvm::barrier(rewriter, loc);

    int axis = op.getAxis();
    Value axisMask = emitI32Constant(rewriter, loc, srcType.getDimSize(axis) - 1);
    auto coords = emitIndices(rewriter, loc, dstLayout, thread);
    SmallVector<int64_t> representative = getRepresentativeRegisters(dstLayout);
    SmallVector<Value> elements;
    for (int64_t reg = 0; reg < dstLayout.elemsPerThread(); ++reg) {
      if (representative[reg] != reg) {
        elements.push_back(elements[representative[reg]]);
        continue;
      }
      SmallVector<Value> at(coords[reg].begin(), coords[reg].end());
      Value index = toI32(rewriter, loc, indices[(*idxRegister)[reg]]);
      at[axis] = LLVM::AndOp::create(rewriter, loc, index, axisMask);
      Value offset = emitRowMajorOffset(rewriter, loc, at, srcType.getShape());
      Value ptr = LLVM::GEPOp::create(rewriter, loc, buffer.getType(),
                                      memoryType, buffer, ValueRange{offset});
      Value loaded = LLVM::LoadOp::create(
          rewriter, loc, memoryType, ptr,
          TTGToLLVMTypeConverter::getMemoryBits(memoryType) / 8);
      if (loaded.getType() != registerType) // i1 lives as i8
        loaded = LLVM::TruncOp::create(rewriter, loc, registerType, loaded);
      elements.push_back(loaded);
    }
    rewriter.replaceOp(
        op,
        packElements(rewriter, loc, converter.convertType(dstType), elements));
    return success();
  }
};

struct HistogramLowering : public ConvertOpToLLVMPattern<tt::HistogramOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::HistogramOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isDistributed(op.getSrc().getType()) || !isDistributed(op.getType()))
      return op.emitError(
          "tt.histogram needs tensors with distributed layouts");
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    layout::LinearLayout srcLayout = getLinearLayout(srcType);
    layout::LinearLayout dstLayout = getLinearLayout(dstType);
    int64_t numBins = dstType.getDimSize(0);

    Location loc = op.getLoc();
    auto &converter = TTGToLLVMTypeConverter::of(getTypeConverter());
    Type i32 = rewriter.getI32Type();
    Value buffer = getBufferPointer(rewriter, op);
    if (!buffer)
      return failure();
    ThreadIndex thread =
        emitThreadIndex(rewriter, loc, op->getParentOfType<ModuleOp>());

    // Zero the bins: every bin is some thread's result element.
    SmallVector<Value> zeros(dstLayout.elemsPerThread(),
                             emitI32Constant(rewriter, loc, 0));
    storeTile(rewriter, loc, buffer, zeros, dstLayout, thread, i32);
    nvvm::barrier(rewriter, loc);

    // Count each input element once.
    SmallVector<Value> values = unpackElements(rewriter, loc, adaptor.getSrc());
    Value unique = emitUniqueThreadPredicate(rewriter, loc, srcLayout, thread);
    SmallVector<int64_t> representative = getRepresentativeRegisters(srcLayout);
    for (int64_t reg = 0; reg < srcLayout.elemsPerThread(); ++reg) {
      if (representative[reg] != reg)
        continue;
      Value value = values[reg];
      unsigned bits = value.getType().getIntOrFloatBitWidth();
      if (bits < 32) {
        value = LLVM::SExtOp::create(rewriter, loc, i32, value);
        bits = 32;
      }
      Type valueType = value.getType();
      Value inRange = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::ult, value,
          LLVM::ConstantOp::create(rewriter, loc, valueType, numBins));
      Value predicate =
          unique
              ? LLVM::AndOp::create(rewriter, loc, inRange, unique).getResult()
              : inRange;
      // The address stays inside the bins even where the guard is false.
      Value bin =
          LLVM::AndOp::create(rewriter, loc, toI32(rewriter, loc, value),
                              emitI32Constant(rewriter, loc, numBins - 1));
      Value ptr = LLVM::GEPOp::create(rewriter, loc, buffer.getType(), i32,
                                      buffer, ValueRange{bin});
      PTXBuilder ptx;
      auto *guard = ptx.input(predicate, "b");
      auto *address = ptx.input(ptr, "l");
      ptx.instr("red").q("shared").q("add").q("u32").guard(guard).args(
          {PTXBuilder::address(address), ptx.literal("1")});
      ptx.launch(rewriter, loc, /*resultType=*/nullptr);
    }
    nvvm::barrier(rewriter, loc);

    // Each result register reads its bin.
    SmallVector<Value> counts =
        loadTile(rewriter, loc, buffer, dstLayout, thread, i32, i32);
    Type resultElement = converter.convertElementType(dstType.getElementType());
    unsigned resultBits = resultElement.getIntOrFloatBitWidth();
    for (Value &count : counts) {
      if (resultBits > 32)
        count = LLVM::ZExtOp::create(rewriter, loc, resultElement, count);
      else if (resultBits < 32)
        count = LLVM::TruncOp::create(rewriter, loc, resultElement, count);
    }
    rewriter.replaceOp(
        op,
        packElements(rewriter, loc, converter.convertType(dstType), counts));
    return success();
  }
};

} // namespace

void tritium::populateGatherHistogramOpToLLVMPatterns(
    TTGToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<GatherLowering, HistogramLowering>(converter,
                                                  kTritiumPatternBenefit);
}

int64_t tritium::getGatherScratchBytes(Operation *op) {
  auto srcType =
      cast<RankedTensorType>(cast<tt::GatherOp>(op).getSrc().getType());
  return srcType.getNumElements() * getElementBytes(srcType.getElementType());
}

int64_t tritium::getHistogramScratchBytes(Operation *op) {
  auto dstType = cast<RankedTensorType>(op->getResult(0).getType());
  return dstType.getNumElements() * 4; // one u32 counter per bin
}
