//===- LocalMemoryOpToLLVM.cpp - shared-memory buffers to LLVM ------------===//
//
// A !ttg.memdesc becomes the pointer to its first element in shared memory
// (address space 3): ttg-allocate-shared-memory placed every buffer, so
//   ttg.local_alloc     is the module's shared base plus the buffer's
//                       offset; with a source tensor, each thread stores
//                       its registers at their offsets in the buffer's
//                       layout (storeXorLinearTile: #ttg.nvmma_shared and
//                       #ttg.swizzled_shared are XOR-linear; on sm_90,
//                       16-bit tiles held as stmatrix's fragments, such as
//                       a tensor-core accumulator's, with stmatrix:
//                       StMatrix.h; the proxy fence that tiles read by
//                       wgmma or TMA need is ttg-fence-async-shared's);
//   ttg.local_store     stores a tensor into a mutable buffer the same way;
//   ttg.local_load      reads the tile into a distributed layout: the
//                       operands of mma.sync and wgmma's register A
//                       with ldmatrix (16-bit, and tf32 stored
//                       contiguous along K; LdMatrix.h),
//                       anything else element by element at the offsets
//                       of the buffer's layout;
//   ttg.memdesc_index   is the buffer's base plus the index times the bytes
//                       of one slot;
//   ttg.memdesc_subslice is the base of the tile it views; its readers
//                       (local_load: K slices of mma.sync operands with
//                       ldmatrix, others element by element) apply the
//                       offsets inside the tile's swizzle;
//   ttg.memdesc_trans   is its source (the view's type swaps the order);
//   ttg.local_dealloc   is nothing (the allocation is static).
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"
#include "tritium/Conversion/TTGToLLVM/LayoutIndices.h"
#include "tritium/Conversion/TTGToLLVM/LdMatrix.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/SharedMemoryAccess.h"
#include "tritium/Conversion/TTGToLLVM/StMatrix.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

using namespace mlir;
using namespace tritium;

namespace {

/// Each thread stores its registers of `src` (a distributed tensor of
/// `srcType`) at their offsets in the buffer at `base` of `type`; see the
/// file comment.
LogicalResult storeTile(ConversionPatternRewriter &rewriter, Operation *op,
                        const LLVMTypeConverter *converter, Value src,
                        RankedTensorType srcType, ttg::MemDescType type,
                        Value base) {
  Location loc = op->getLoc();
  XorLinearOffset offset = getSharedTileOffset(type.getEncoding(), type.getShape());
  if (!offset || !ttg::getDistributedEncoding(srcType))
    return op->emitError("cannot store a tensor of this layout into a "
                         "buffer of this layout");
  auto module = op->getParentOfType<ModuleOp>();
  Type memoryType = static_cast<const TTGToLLVMTypeConverter *>(converter)
                        ->convertMemoryElementType(srcType.getElementType());
  SmallVector<Value> values = unpackElements(rewriter, loc, src);
  layout::LinearLayout layout = getLinearLayout(srcType);
  ThreadIndex thread = emitThreadIndex(rewriter, loc, module);
  bool sm90 = ttg::getComputeCapability(module) >= 90;
  if (!sm90 || !storeXorLinearTileWithStMatrix(rewriter, loc, base, values, layout,
                                               thread, memoryType, offset))
    storeXorLinearTile(rewriter, loc, base, values, layout, thread,
                       memoryType, offset);
  return success();
}

struct LocalAllocLowering : public ConvertOpToLLVMPattern<ttg::LocalAllocOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ttg::LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value base = getBufferPointer(rewriter, op);
    if (!base)
      return failure();
    if (Value src = adaptor.getSrc())
      if (failed(storeTile(rewriter, op, getTypeConverter(), src,
                           cast<RankedTensorType>(op.getSrc().getType()),
                           op.getType(), base)))
        return failure();
    rewriter.replaceOp(op, base);
    return success();
  }
};

/// A tensor stored into a mutable buffer (or a slot of one), as
/// ttg.local_alloc stores its source.
struct LocalStoreLowering : public ConvertOpToLLVMPattern<ttg::LocalStoreOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ttg::LocalStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(storeTile(rewriter, op, getTypeConverter(), adaptor.getSrc(),
                         cast<RankedTensorType>(op.getSrc().getType()),
                         op.getDst().getType(), adaptor.getDst())))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// A tile read into registers: with ldmatrix for the tensor-core register
/// operands it covers (LdMatrix.h), element by element (vectorized where
/// the layouts allow) otherwise.
struct LocalLoadLowering : public ConvertOpToLLVMPattern<ttg::LocalLoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ttg::LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto dstType = cast<RankedTensorType>(op.getType());
    ttg::MemDescType srcType = op.getSrc().getType();
    auto *converter =
        static_cast<const TTGToLLVMTypeConverter *>(getTypeConverter());
    Type registerType = converter->convertElementType(dstType.getElementType());
    Type memoryType = converter->convertMemoryElementType(dstType.getElementType());
    auto module = op->getParentOfType<ModuleOp>();
    ThreadIndex thread = emitThreadIndex(rewriter, loc, module);
    Type resultType = converter->convertType(dstType);
    // A sub-tile view is its whole tile's base (MemDescSubsliceLowering):
    // the offsets come from the view's op.
    if (auto subslice = op.getSrc().getDefiningOp<ttg::MemDescSubsliceOp>()) {
      SmallVector<int64_t> offsets(subslice.getOffsets().begin(),
                                   subslice.getOffsets().end());
      ttg::MemDescType tileType = subslice.getSrc().getType();
      if (auto values = loadDotOperandWithLdMatrix(
              rewriter, loc, adaptor.getSrc(), tileType, dstType, thread,
              registerType, offsets)) {
        rewriter.replaceOp(op, packElements(rewriter, loc, resultType, *values));
        return success();
      }
      XorLinearOffset offset =
          getSharedTileOffset(tileType.getEncoding(), tileType.getShape());
      if (!offset || !ttg::getDistributedEncoding(dstType) ||
          !subTileOriginIsAligned(dstType.getShape(), offsets))
        return op.emitError("a sub-tile is read as a K slice of an mma.sync "
                            "operand (ldmatrix), or from a swizzled or NVMMA "
                            "tile at an origin aligned to its extent");
      SmallVector<Value> values =
          loadXorLinearTile(rewriter, loc, adaptor.getSrc(),
                            getLinearLayout(dstType), thread, memoryType,
                            registerType, offset, offsets);
      rewriter.replaceOp(op, packElements(rewriter, loc, resultType, values));
      return success();
    }
    if (auto values = loadDotOperandWithLdMatrix(rewriter, loc, adaptor.getSrc(),
                                                 srcType, dstType, thread,
                                                 registerType)) {
      rewriter.replaceOp(op, packElements(rewriter, loc, resultType, *values));
      return success();
    }
    XorLinearOffset offset = getSharedTileOffset(srcType.getEncoding(),
                                           srcType.getShape());
    if (!offset || !ttg::getDistributedEncoding(dstType))
      return op.emitError("cannot load a buffer of this layout into a tensor "
                          "of this layout");
    SmallVector<Value> values =
        loadXorLinearTile(rewriter, loc, adaptor.getSrc(),
                          getLinearLayout(dstType), thread, memoryType,
                          registerType, offset);
    rewriter.replaceOp(op, packElements(rewriter, loc, resultType, values));
    return success();
  }
};

/// A view of slot `index` of a buffer: its base plus index times the bytes
/// of one slot (the buffer's shape without the leading dimension).
struct MemDescIndexLowering
    : public ConvertOpToLLVMPattern<ttg::MemDescIndexOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ttg::MemDescIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ttg::MemDescType srcType = op.getSrc().getType();
    int64_t slotBytes = srcType.getElementTypeBitWidth() / 8;
    for (int64_t size : srcType.getShape().drop_front())
      slotBytes *= size;
    Value offset = LLVM::MulOp::create(
        rewriter, loc, adaptor.getIndex(),
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                 slotBytes));
    rewriter.replaceOp(op, LLVM::GEPOp::create(
                               rewriter, loc, adaptor.getSrc().getType(),
                               rewriter.getI8Type(), adaptor.getSrc(),
                               ValueRange{offset}));
    return success();
  }
};

/// A static sub-tile view: the base of the tile it views.  Its only readers,
/// ttg.local_load (LocalLoadLowering), address the sub-tile inside the
/// tile's swizzle from the view's offsets; other users are refused.
struct MemDescSubsliceLowering
    : public ConvertOpToLLVMPattern<ttg::MemDescSubsliceOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ttg::MemDescSubsliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    for (Operation *user : op->getUsers())
      if (!isa<ttg::LocalLoadOp>(user))
        return op.emitError("a sub-tile view is only read by ttg.local_load");
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

/// A transposed view: the same bytes, so the same pointer (its readers
/// take the layout from the view's type).
struct MemDescTransLowering : public ConvertOpToLLVMPattern<ttg::MemDescTransOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ttg::MemDescTransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct LocalDeallocLowering
    : public ConvertOpToLLVMPattern<ttg::LocalDeallocOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ttg::LocalDeallocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void tritium::populateLocalMemoryOpToLLVMPatterns(
    TTGToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<LocalAllocLowering, LocalStoreLowering, LocalDeallocLowering,
               LocalLoadLowering,
               MemDescIndexLowering, MemDescSubsliceLowering, MemDescTransLowering>(
      converter,
                                                        kTritiumPatternBenefit);
}
