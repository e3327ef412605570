//===- TTGOps.cpp - ttg op semantics ---------------------------------------===//
//
// Verifiers and folders of the `ttg` ops: layout conversions keep values and
// shape; shared-memory ops keep shape and element type between tensors and
// buffers; views stay inside the buffer they view; only mutable buffers are
// written.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Layout/TileWindow.h"
#include "tritium/Layout/TmaTile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace tritium::ttg;

#define GET_OP_CLASSES
#include "tritium/Dialect/TTG/IR/TTGOps.cpp.inc"

namespace {
/// Registers and shared memory exchange whole tiles: a ring whose shared
/// layout describes its tiles (fewer dimensions than the ring) is read and
/// written one slot at a time, through ttg.memdesc_index.
LogicalResult verifyWholeTiles(Operation *op, MemDescType buffer) {
  auto shared = dyn_cast<SharedEncodingAttr>(buffer.getEncoding());
  if (shared && shared.getOrder().size() < buffer.getShape().size())
    return op->emitOpError()
           << "accesses a ring of " << shared.getOrder().size()
           << "-D tiles as a whole: index one slot (ttg.memdesc_index) first";
  return success();
}

/// A tensor and a buffer agree on shape and element type.
LogicalResult verifyTensorMatchesBuffer(Operation *op, RankedTensorType tensor,
                                        MemDescType buffer) {
  if (tensor.getShape() != buffer.getShape())
    return op->emitOpError("tensor and shared buffer shapes differ");
  if (failed(verifyWholeTiles(op, buffer)))
    return failure();
  if (tensor.getElementType() != buffer.getElementType())
    return op->emitOpError() << "tensor element type " << tensor.getElementType()
                             << " differs from the buffer's "
                             << buffer.getElementType();
  return success();
}

/// A view keeps the element type, memory space, mutability and allocation
/// of its source.
LogicalResult verifyViewOf(Operation *op, MemDescType src, MemDescType view) {
  if (src.getElementType() != view.getElementType() ||
      src.getMemorySpace() != view.getMemorySpace() ||
      src.getMutableMemory() != view.getMutableMemory())
    return op->emitOpError("a view must keep the element type, memory space "
                           "and mutability of its source");
  if (src.getAllocShape() != view.getAllocShape())
    return op->emitOpError("a view must keep its source's allocation shape");
  return success();
}
} // namespace

LogicalResult ConvertLayoutOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getType());
  if (!src.getEncoding() || !dst.getEncoding())
    return emitOpError("both types need a layout encoding");
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  // convert(convert(x)) -> convert(x)
  if (auto inner = getSrc().getDefiningOp<ConvertLayoutOp>()) {
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return splat.reshape(cast<ShapedType>(getType()));
  return {};
}

LogicalResult ExtractTileOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getType());
  auto srcLayout = dyn_cast_or_null<DistributedEncodingAttr>(src.getEncoding());
  auto dstLayout = dyn_cast_or_null<DistributedEncodingAttr>(dst.getEncoding());
  if (!srcLayout || !dstLayout)
    return emitOpError("both types need a distributed layout");
  ArrayRef<int64_t> offsets = getOffsets();
  if (offsets.size() != size_t(src.getRank()) || dst.getRank() != src.getRank())
    return emitOpError("needs one offset per dimension of a source of the "
                       "result's rank");
  auto plan = layout::planTileWindow(
      srcLayout.toLinearLayout(src.getShape()),
      dstLayout.toLinearLayout(dst.getShape()),
      std::vector<int64_t>(offsets.begin(), offsets.end()));
  if (auto *why = std::get_if<std::string>(&plan))
    return emitOpError("takes no window of registers: ") << *why;
  return success();
}

LogicalResult LocalAllocOp::verify() {
  MemDescType type = getType();
  if (type.getAllocShape() != type.getShape())
    return emitOpError("allocates a whole buffer: its type cannot be a view "
                       "(allocation shape differs from shape)");
  if (!getSrc()) {
    if (!type.getMutableMemory())
      return emitOpError("an uninitialized buffer must be mutable");
    return success();
  }
  return verifyTensorMatchesBuffer(*this, cast<RankedTensorType>(getSrc().getType()),
                                   type);
}

LogicalResult WarpGroupDotOp::verify() {
  auto c = cast<RankedTensorType>(getC().getType());
  auto mma = dyn_cast_or_null<NvidiaMmaEncodingAttr>(c.getEncoding());
  if (!mma || !mma.isHopper())
    return emitOpError("accumulator must have a #ttg.nvidia_mma layout of "
                       "version 3");
  if (mma.getWarpsPerCTA()[0] % 4 != 0)
    return emitOpError() << "the accumulator's warpsPerCTA[0] is "
                         << mma.getWarpsPerCTA()[0]
                         << ", expected a multiple of 4 (a warpgroup spans M)";
  auto aShaped = cast<ShapedType>(getA().getType());
  MemDescType b = getB().getType();
  if (aShaped.getRank() != 2 || b.getRank() != 2 || c.getRank() != 2)
    return emitOpError("operands must be 2-D");
  if (aShaped.getDimSize(1) != b.getDimSize(0) ||
      aShaped.getDimSize(0) != c.getDimSize(0) ||
      b.getDimSize(1) != c.getDimSize(1))
    return emitOpError() << "shapes do not multiply: " << aShaped.getDimSize(0)
                         << "x" << aShaped.getDimSize(1) << " * "
                         << b.getDimSize(0) << "x" << b.getDimSize(1) << " -> "
                         << c.getDimSize(0) << "x" << c.getDimSize(1);
  SmallVector<MemDescType> tiles{b};
  if (auto a = dyn_cast<MemDescType>(getA().getType())) {
    tiles.push_back(a);
  } else {
    auto tensor = cast<RankedTensorType>(getA().getType());
    auto dot = dyn_cast_or_null<DotOperandEncodingAttr>(tensor.getEncoding());
    unsigned bits = tensor.getElementTypeBitWidth();
    if (!dot || dot.getOpIdx() != 0 || dot.getParent() != mma ||
        (bits != 16 && bits != 8) || dot.getKWidth() != 32 / bits)
      return emitOpError("a register operand must be 16-bit or 8-bit, in "
                         "the #ttg.dot_op layout (opIdx 0, kWidth 32 / "
                         "element bits) of the accumulator");
  }
  for (MemDescType operand : tiles) {
    auto layout = dyn_cast<NvmmaSharedEncodingAttr>(operand.getEncoding());
    if (!layout)
      return emitOpError("operands must have #ttg.nvmma_shared layouts");
    std::vector<int64_t> shape(operand.getShape().begin(),
                               operand.getShape().end());
    if (auto message = layout::verifyNvmmaTile(layout.toSpec(), shape))
      return emitOpError() << *message;
  }
  return success();
}

LogicalResult WarpSpecializeOp::verify() {
  for (Region *region : {&getDefaultRegion(), &getPartitionRegion()})
    if (region->empty())
      return emitOpError("needs a body in each region");
  Operation *next = getOperation()->getNextNode();
  if (next && !next->hasTrait<OpTrait::ReturnLike>())
    return emitOpError("must be the last op of its block before the return");
  // The launch's warps count the partition's (the lowering branches on it).
  if (auto module = getOperation()->getParentOfType<ModuleOp>())
    if (getTotalNumWarps(module) != getNumWarps(module) + int(getPartitionNumWarps()))
      return emitOpError("needs the module's ttg.total-num-warps to be num-warps + ")
             << getPartitionNumWarps() << ", got " << getTotalNumWarps(module);
  return success();
}

LogicalResult LocalLoadOp::verify() {
  return verifyTensorMatchesBuffer(*this, cast<RankedTensorType>(getType()),
                                   getSrc().getType());
}

LogicalResult LocalStoreOp::verify() {
  if (!getDst().getType().getMutableMemory())
    return emitOpError("cannot store into an immutable buffer");
  return verifyTensorMatchesBuffer(*this, cast<RankedTensorType>(getSrc().getType()),
                                   getDst().getType());
}

LogicalResult MemDescIndexOp::verify() {
  MemDescType src = getSrc().getType(), dst = getType();
  if (src.getRank() < 2)
    return emitOpError("needs a source of rank >= 2 to index its leading "
                       "dimension");
  if (dst.getShape() != src.getShape().drop_front())
    return emitOpError("result shape must be the source shape without its "
                       "leading dimension");
  return verifyViewOf(*this, src, dst);
}

LogicalResult MemDescSubsliceOp::verify() {
  MemDescType src = getSrc().getType(), dst = getType();
  ArrayRef<int32_t> offsets = getOffsets();
  if (offsets.size() != src.getShape().size() || dst.getRank() != src.getRank())
    return emitOpError("needs one offset per dimension and a result of the "
                       "source's rank");
  for (size_t d = 0; d < offsets.size(); ++d)
    if (offsets[d] < 0 || offsets[d] + dst.getShape()[d] > src.getShape()[d])
      return emitOpError() << "sub-tile [" << offsets[d] << ", "
                           << offsets[d] + dst.getShape()[d]
                           << ") of dimension " << d
                           << " does not fit in the source's "
                           << src.getShape()[d];
  return verifyViewOf(*this, src, dst);
}

LogicalResult MemDescTransOp::verify() {
  MemDescType src = getSrc().getType(), dst = getType();
  auto srcLayout = dyn_cast<NvmmaSharedEncodingAttr>(src.getEncoding());
  auto dstLayout = dyn_cast<NvmmaSharedEncodingAttr>(dst.getEncoding());
  if (!srcLayout || !dstLayout || src.getRank() != 2 || dst.getRank() != 2)
    return emitOpError("transposes 2-D #ttg.nvmma_shared tiles");
  if (dst.getShape()[0] != src.getShape()[1] ||
      dst.getShape()[1] != src.getShape()[0])
    return emitOpError("the result's shape must be the source's transposed");
  ArrayRef<unsigned> order = srcLayout.getOrder();
  if (dstLayout.getSwizzlingByteWidth() != srcLayout.getSwizzlingByteWidth() ||
      dstLayout.getElementBitWidth() != srcLayout.getElementBitWidth() ||
      dstLayout.getOrder() != ArrayRef<unsigned>{order[1], order[0]})
    return emitOpError("the result's layout must be the source's with its "
                       "order swapped");
  return verifyViewOf(*this, src, dst);
}

/// The transposed view type of a 2-D NVMMA tile.
MemDescType tritium::ttg::getTransposedTileType(MemDescType type) {
  auto layout = cast<NvmmaSharedEncodingAttr>(type.getEncoding());
  auto transposed = NvmmaSharedEncodingAttr::get(
      type.getContext(), layout.getSwizzlingByteWidth(),
      layout.getElementBitWidth(), {layout.getOrder()[1], layout.getOrder()[0]});
  return MemDescType::get(type.getContext(),
                          {type.getShape()[1], type.getShape()[0]},
                          type.getElementType(), transposed,
                          type.getMemorySpace(), type.getMutableMemory(),
                          type.getAllocShape());
}

LogicalResult AsyncCopyGlobalToLocalOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  MemDescType dst = getDst().getType();
  if (!dst.getMutableMemory())
    return emitOpError("cannot copy into an immutable buffer");
  if (src.getShape() != dst.getShape())
    return emitOpError("pointer tensor and buffer shapes differ");
  if (failed(verifyWholeTiles(*this, dst)))
    return failure();
  Type pointee = tritium::tt::getPointeeType(src);
  if (cast<RankedTensorType>(pointee).getElementType() != dst.getElementType())
    return emitOpError("pointers must point to the buffer's element type");
  if (getOther() && !getMask())
    return emitOpError("'other' needs a mask");
  return success();
}

//===----------------------------------------------------------------------===//
// TMA copies
//===----------------------------------------------------------------------===//

/// A TMA copy moves the descriptor's whole block: one index per dimension,
/// a shared tile of the block's shape and element type.
static LogicalResult verifyTmaCopy(Operation *op, tritium::tt::TensorDescType desc,
                                   size_t numIndices, MemDescType tile) {
  RankedTensorType block = desc.getBlockType();
  if (static_cast<int64_t>(numIndices) != block.getRank())
    return op->emitOpError() << "needs " << block.getRank()
                             << " indices (one per block dimension), got "
                             << numIndices;
  if (tile.getShape() != block.getShape() ||
      tile.getElementType() != block.getElementType())
    return op->emitOpError() << "copies blocks of " << block
                             << " but the shared tile is " << tile;
  return success();
}

/// A TMA store may also write part of the block: a tile of whole boxes of
/// the block's plan (an epilogue storing its tile a slab at a time).
static bool isPartOfBlock(tritium::tt::TensorDescType desc, MemDescType tile) {
  RankedTensorType block = desc.getBlockType();
  if (tile.getElementType() != block.getElementType() ||
      tile.getRank() != block.getRank())
    return false;
  std::vector<int64_t> blockShape(block.getShape().begin(),
                                  block.getShape().end());
  std::vector<int64_t> tileShape(tile.getShape().begin(),
                                 tile.getShape().end());
  int64_t bits = block.getElementTypeBitWidth();
  if (tritium::layout::whyNotTmaTile(blockShape, bits))
    return false;
  int64_t swizzle = tritium::layout::chooseTmaSwizzle(blockShape, bits);
  tritium::layout::TmaTilePlan whole =
      tritium::layout::planTmaTile(blockShape, bits, swizzle);
  for (size_t d = 0; d < tileShape.size(); ++d)
    if (tileShape[d] > blockShape[d] || blockShape[d] % tileShape[d] != 0 ||
        tileShape[d] % whole.box[d] != 0)
      return false;
  return true;
}

LogicalResult AsyncTMACopyGlobalToLocalOp::verify() {
  if (!getResult().getType().getMutableMemory())
    return emitOpError("writes into an immutable buffer");
  return verifyTmaCopy(*this, getDesc().getType(), getIndices().size(),
                       getResult().getType());
}

LogicalResult AsyncTMACopyLocalToGlobalOp::verify() {
  tritium::tt::TensorDescType desc = getDesc().getType();
  if (getIndices().size() == size_t(desc.getBlockType().getRank()) &&
      isPartOfBlock(desc, getSrc().getType()))
    return success();
  return verifyTmaCopy(*this, desc, getIndices().size(), getSrc().getType());
}
