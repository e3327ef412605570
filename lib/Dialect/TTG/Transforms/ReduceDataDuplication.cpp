//===- ReduceDataDuplication.cpp - ttg-reduce-data-duplication -------------===//
//
// A version-2 mma reads its operands in #ttg.dot_op layouts in which every
// element is held by several threads (an A element by every warp along N,
// a B element by every warp along M).  A generic ttg.convert_layout into
// such a layout goes through a scratch tile and a planned exchange; this
// pass instead stores the operand once to a swizzled #ttg.nvmma_shared
// tile (ttg.local_alloc) and reads it back into the dot_op layout
// (ttg.local_load), which the lowering does with ldmatrix for 16-bit
// types, every thread reading only what it holds, bank-conflict free.  The
// tile is also what ttg-pipeline fills ahead with cp.async.
//
// Algorithm: for every ttg.convert_layout from a distributed layout other
// than dot_op to a #ttg.dot_op of a version-2 #ttg.nvidia_mma that would
// go through shared memory anyway (not one that stays in registers or warp
// shuffles, such as an mma result reused as an A operand), pick the tile
// for the operand and, when one fits, replace the conversion by
// local_alloc + local_load.  The tile keeps the source's contiguous
// dimension.  An operand of 32-bit elements contiguous along M or N, which
// ldmatrix cannot read (it reads 32-bit operands contiguous along K, as
// pairs of b16), is read element by element from a #ttg.swizzled_shared
// tile (elementwiseOperandTile; the tile Triton gives such an operand 32
// elements wide); every other operand from the NVMMA tile with the widest
// swizzle its contiguous dimension allows (chooseDotOperandSharedLayout).
// Conversions into other layouts, operands of CUDA-core dots (dot_op of a
// blocked parent) and tiles no swizzle fits stay conversions.
//
// Also here: the shared-tile choice for dot operands that ttg-accelerate-
// matmul uses for wgmma operands.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "tritium/Analysis/Allocation.h"
#include "tritium/Layout/NvmmaShared.h"

namespace tritium::ttg {
#define GEN_PASS_DEF_TTGREDUCEDATADUPLICATIONPASS
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"
} // namespace tritium::ttg

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

NvmmaSharedEncodingAttr ttg::chooseDotOperandSharedLayout(Value source,
                                                          int opIdx,
                                                          bool anyMajor) {
  auto type = cast<RankedTensorType>(source.getType());
  if (type.getRank() != 2)
    return {};
  unsigned kDim = opIdx == 0 ? 1 : 0;
  unsigned bits = type.getElementTypeBitWidth();
  unsigned contiguous = kDim;
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(type.getEncoding()))
    if (anyMajor || bits == 16)
      contiguous = blocked.getOrder()[0];
  SmallVector<unsigned> order = {contiguous, 1 - contiguous};
  int64_t swizzle =
      layout::chooseNvmmaSwizzle(type.getDimSize(contiguous), bits);
  if (swizzle == 0 || type.getDimSize(1 - contiguous) % 8 != 0 ||
      type.getDimSize(contiguous) % (swizzle * 8 / bits) != 0)
    return {};
  return NvmmaSharedEncodingAttr::get(type.getContext(), swizzle, bits, order);
}

namespace {
/// The tile of a version-2 mma operand read element by element: 32-bit
/// elements stored contiguous along M or N (`source`'s contiguous
/// dimension is not K).  One read of a fragment by a warp takes 4
/// consecutive k (rows of the tile) at 8 consecutive m or n (the
/// instruction's thread groups); groups of 8 elements XOR-swizzled by the
/// row index mod 4 place those 4 rows' 32-byte runs in 4 different quarters
/// of the banks, where a 128-byte NVMMA swizzle (16-byte chunks) puts rows
/// 0 and 1, and 2 and 3, on the same banks.  Null unless a row holds 4
/// such groups (128 bytes) or more.
SwizzledSharedEncodingAttr elementwiseOperandTile(Value source,
                                                  RankedTensorType dotType,
                                                  int opIdx) {
  auto type = cast<RankedTensorType>(source.getType());
  auto blocked = dyn_cast<BlockedEncodingAttr>(type.getEncoding());
  if (type.getRank() != 2 || !blocked || type.getElementTypeBitWidth() != 32 ||
      dotType.getElementTypeBitWidth() != 32)
    return {};
  unsigned kDim = opIdx == 0 ? 1 : 0;
  unsigned contiguous = blocked.getOrder()[0];
  constexpr int64_t kGroup = 8, kPhases = 4;
  if (contiguous == kDim || type.getDimSize(contiguous) < kGroup * kPhases)
    return {};
  return SwizzledSharedEncodingAttr::get(type.getContext(), kGroup, 1, kPhases,
                                         {contiguous, 1 - contiguous});
}
} // namespace

Value ttg::storeToSharedTile(OpBuilder &builder, Location loc, Value source,
                             Attribute layout) {
  auto type = cast<RankedTensorType>(source.getType());
  auto memType = MemDescType::get(type.getShape(), type.getElementType(),
                                  layout,
                                  SharedMemorySpaceAttr::get(type.getContext()),
                                  /*mutableMemory=*/false);
  return LocalAllocOp::create(builder, loc, memType, source).getResult();
}

bool ttg::readOperandFromSharedTile(ConvertLayoutOp convert) {
  auto dotType = cast<RankedTensorType>(convert.getType());
  auto dot = cast<DotOperandEncodingAttr>(dotType.getEncoding());
  Attribute shared =
      elementwiseOperandTile(convert.getSrc(), dotType, dot.getOpIdx());
  if (!shared)
    shared = chooseDotOperandSharedLayout(convert.getSrc(), dot.getOpIdx(),
                                          /*anyMajor=*/true);
  if (!shared)
    return false;
  OpBuilder builder(convert);
  Value tile =
      storeToSharedTile(builder, convert.getLoc(), convert.getSrc(), shared);
  Value loaded = LocalLoadOp::create(builder, convert.getLoc(),
                                     convert.getType(), tile, Value());
  convert.replaceAllUsesWith(loaded);
  convert.erase();
  return true;
}

void ttg::reduceDataDuplication(ModuleOp module) {
  SmallVector<ConvertLayoutOp> conversions;
  module.walk([&](ConvertLayoutOp convert) {
    auto srcType = cast<RankedTensorType>(convert.getSrc().getType());
    auto dstType = cast<RankedTensorType>(convert.getType());
    auto dot = dyn_cast<DotOperandEncodingAttr>(dstType.getEncoding());
    if (!dot || isa<DotOperandEncodingAttr>(srcType.getEncoding()))
      return;
    auto mma = dyn_cast<NvidiaMmaEncodingAttr>(dot.getParent());
    // A conversion that stays in registers or warp shuffles (an mma.sync
    // result reused as an A operand) is cheaper than any shared tile.
    if (mma && mma.getVersionMajor() == 2 &&
        getConvertLayoutPath(srcType, dstType) == ConvertLayoutPath::SharedMemory)
      conversions.push_back(convert);
  });
  for (ConvertLayoutOp convert : conversions)
    readOperandFromSharedTile(convert);
}

namespace {
struct TTGReduceDataDuplicationPass
    : public ttg::impl::TTGReduceDataDuplicationPassBase<
          TTGReduceDataDuplicationPass> {
  void runOnOperation() override { ttg::reduceDataDuplication(getOperation()); }
};
} // namespace
