//===- ConvertLayoutOpToLLVM.cpp - ttg.convert_layout to LLVM -------------===//
//
// Two cases, decided by the same function the shared-memory allocation uses
// (getRegisterPermutation):
//   * every element of the result is already in the same thread: pick
//     registers, no code;
//   * otherwise through the op's scratch buffer in shared memory:
//       barrier          (earlier readers of the buffer are done; omitted
//                         when no shared-memory access can precede it)
//       store the source registers at their tile offsets
//       barrier          (every element is written)
//       load the result registers from their tile offsets
//     The tile is row-major with a pad after every row or its chunks XOR
//     swizzled per row (whichever models faster), and each phase has
//     its own vector width, as getConvertScratchPlan chose them (the same
//     plan sized the buffer) to keep both phases free of bank conflicts as
//     far as the model of layout/BankConflicts.h can.
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
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

using namespace mlir;
using namespace tritium;

namespace {
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

    if (auto mapping = getRegisterPermutation(srcLayout, dstLayout)) {
      SmallVector<Value> elements;
      for (int64_t reg : *mapping)
        elements.push_back(srcElements[reg]);
      rewriter.replaceOp(op, packElements(rewriter, loc, resultType, elements));
      return success();
    }

    std::optional<layout::ConvertScratchPlan> plan =
        getConvertScratchPlan(srcType, dstType);
    assert(plan && "elements move between threads");
    Value buffer = getBufferPointer(rewriter, op);
    if (!buffer)
      return failure();
    Type elementType = dstType.getElementType();
    Type memoryType = converter.convertMemoryElementType(elementType);
    Type registerType = converter.convertElementType(elementType);
    ThreadIndex thread =
        emitThreadIndex(rewriter, loc, op->getParentOfType<ModuleOp>());
    if (!isFirstSharedMemoryUse(op)) // earlier readers of the buffer are done
      nvvm::barrier(rewriter, loc);
    storeTile(rewriter, loc, buffer, srcElements, srcLayout, thread,
              memoryType, /*predicate=*/{},
              TileAccess{plan->tile.pad, plan->storeVec, plan->tile.swizzle});
    nvvm::barrier(rewriter, loc);
    SmallVector<Value> elements =
        loadTile(rewriter, loc, buffer, dstLayout, thread, memoryType,
                 registerType, TileAccess{plan->tile.pad, plan->loadVec,
                            plan->tile.swizzle});
    rewriter.replaceOp(op, packElements(rewriter, loc, resultType, elements));
    return success();
  }
};
} // namespace

void tritium::populateConvertLayoutOpToLLVMPatterns(
    TTGToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ConvertLayoutLowering>(converter, kTritiumPatternBenefit);
}
