//===- AsyncCopyOpToLLVM.cpp - cp.async to LLVM ---------------------------===//
//
//   ttg.async_copy_global_to_local   per vector of a thread's registers
//       (consecutive in global memory and in the shared tile, under one
//       mask value: 4, 8 or 16 bytes):
//         cp.async.{ca|cg}.shared.global [dst], [src], bytes, srcBytes
//       with srcBytes = mask ? bytes : 0, so masked-out elements are
//       zero-filled (cg, which bypasses L1, for 16-byte copies; ca, the
//       only form for 4 and 8 bytes, otherwise); among threads holding the
//       same elements only one copies (@p, emitUniqueThreadPredicate);
//   ttg.async_commit_group           cp.async.commit_group;
//   ttg.async_wait {num}             cp.async.wait_group num.  No proxy
//       fence follows: as in Triton, whose fence insertion only guards
//       operands stored from registers, bytes that cp.async has landed are
//       read by wgmma after the wait and the CTA barrier the membar pass
//       places before the dot (a fence.proxy.async here costs a
//       MEMBAR.ALL.CTA per iteration in SASS).
// The destination offsets come from the buffer's XOR-linear layout
// (#ttg.nvmma_shared or #ttg.swizzled_shared; SharedMemoryAccess.h); the
// vector width from the axis facts of the
// source pointers and mask (LoweringAxisInfo) and from the tile.
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"
#include "tritium/Conversion/TTGToLLVM/LayoutIndices.h"
#include "tritium/Conversion/TTGToLLVM/LoweringAxisInfo.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/SharedMemoryAccess.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Target/NVIDIA/PTXBuilder.h"
#include "llvm/ADT/bit.h"

using namespace mlir;
using namespace tritium;

namespace {

struct AsyncCopyLowering
    : public ConvertOpToLLVMPattern<ttg::AsyncCopyGlobalToLocalOp> {
  AsyncCopyLowering(TTGToLLVMTypeConverter &converter,
                    const LoweringAxisInfo &access)
      : ConvertOpToLLVMPattern(converter, kTritiumPatternBenefit),
        access(access) {}

  LogicalResult
  matchAndRewrite(ttg::AsyncCopyGlobalToLocalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    ttg::MemDescType dstType = op.getDst().getType();
    if (op.getOther())
      return op.emitError("cp.async zero-fills masked-out elements; other "
                          "values are not supported");
    XorLinearOffset offset =
        getSharedTileOffset(dstType.getEncoding(), dstType.getShape());
    if (!offset)
      return op.emitError("async copies go into #ttg.nvmma_shared or "
                          "#ttg.swizzled_shared buffers");
    layout::LinearLayout layout = getLinearLayout(srcType);
    auto module = op->getParentOfType<ModuleOp>();
    Type memoryType = static_cast<const TTGToLLVMTypeConverter *>(
                          getTypeConverter())
                          ->convertMemoryElementType(dstType.getElementType());
    int64_t bytes = TTGToLLVMTypeConverter::getMemoryBits(memoryType) / 8;
    ThreadIndex thread = emitThreadIndex(rewriter, loc, module);
    XorLinearTilePointers pointers(rewriter, loc, adaptor.getDst(), layout,
                                   thread, memoryType, offset);
    // Of the threads holding the same elements (a small tile replicated
    // over warps), one copies: the others' copies would write the same
    // bytes again, or zeros where masked.
    Value unique = emitUniqueThreadPredicate(rewriter, loc, layout, thread);
    int dim = getRegisterFastestDim(layout);
    int64_t limit = dim < 0 ? 1
                            : std::min(getContiguousRegisters(layout, dim),
                                       access.getVectorLimit(op));
    limit = std::min<int64_t>(limit, 16 / bytes);
    int64_t vec = pointers.vectorWidth(
        std::max<int64_t>(1, llvm::bit_floor(static_cast<uint64_t>(limit))));
    if (vec * bytes < 4)
      return op.emitError() << "cp.async copies at least 4 bytes; this copy "
                               "moves "
                            << vec * bytes << " per vector";
    SmallVector<Value> srcs = unpackElements(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackElements(rewriter, loc, adaptor.getMask());
    SmallVector<int64_t> representative = getRepresentativeRegisters(layout);
    Type i32 = rewriter.getI32Type();
    int64_t size = vec * bytes;
    for (int64_t reg = 0; reg < layout.elemsPerThread(); reg += vec) {
      if (representative[reg] != reg)
        continue;
      Value dst = LLVM::PtrToIntOp::create(rewriter, loc, i32,
                                           pointers.pointer(reg));
      nvidia::PTXBuilder ptx;
      auto *dstOperand = ptx.input(dst, "r");
      auto *srcOperand = ptx.input(srcs[reg], "l");
      Value srcBytes = emitI32Constant(rewriter, loc, size);
      if (!masks.empty())
        srcBytes = LLVM::SelectOp::create(rewriter, loc, masks[reg], srcBytes,
                                          emitI32Constant(rewriter, loc, 0));
      std::string copy = std::string("cp.async.") + (size == 16 ? "cg" : "ca") +
                         ".shared.global [%0], [%1], " + std::to_string(size) +
                         ", %2;";
      SmallVector<nvidia::PTXBuilder::Operand *> operands = {
          dstOperand, srcOperand, ptx.input(srcBytes, "r")};
      if (unique) {
        operands.push_back(ptx.input(unique, "b"));
        copy = "@%3 " + copy;
      }
      ptx.verbatim(copy, operands);
      ptx.launch(rewriter, loc, Type());
    }
    // The token is only an ordering device of the IR.
    rewriter.replaceOp(op, emitI32Constant(rewriter, loc, 0));
    return success();
  }

  const LoweringAxisInfo &access;
};

struct AsyncCommitGroupLowering
    : public ConvertOpToLLVMPattern<ttg::AsyncCommitGroupOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ttg::AsyncCommitGroupOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    nvidia::PTXBuilder ptx;
    ptx.instr("cp.async.commit_group");
    ptx.launch(rewriter, op.getLoc(), Type());
    rewriter.replaceOp(op, emitI32Constant(rewriter, op.getLoc(), 0));
    return success();
  }
};

struct AsyncWaitLowering : public ConvertOpToLLVMPattern<ttg::AsyncWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ttg::AsyncWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    nvidia::PTXBuilder ptx;
    ptx.verbatim("cp.async.wait_group " + std::to_string(op.getNum()) + ";",
                 {});
    ptx.launch(rewriter, op.getLoc(), Type());
    rewriter.replaceOp(op, emitI32Constant(rewriter, op.getLoc(), 0));
    return success();
  }
};
} // namespace

void tritium::populateAsyncCopyOpToLLVMPatterns(
    TTGToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringAxisInfo &access) {
  patterns.add<AsyncCopyLowering>(converter, access);
  patterns.add<AsyncCommitGroupLowering, AsyncWaitLowering>(
      converter, kTritiumPatternBenefit);
}
