//===- CudaCoreDotOperands.cpp - ttg-cuda-core-dot-operands --------------===//
//
// A CUDA-core dot (a tt.dot with a blocked accumulator) reads its operands
// in #ttg.dot_op layouts that give each thread whole rows of A and columns
// of B.  As ttg.convert_layout ops, the two operands pass through shared
// scratch (or warp shuffles) one after the other, each conversion a store,
// a barrier and a load: A's loaded values stay live across B's barrier,
// which no load may cross, and a thread holds both operands' whole K slice
// in registers before its first FMA.  Stored to two shared tiles first and
// loaded after one barrier, right before the dot, the loads of both
// operands are free to move next to the FMAs that read them (ptxas
// interleaves them), and only a few steps of k are live at a time.
//
// Algorithm: for every tt.dot with a blocked accumulator, each operand that
// is a ttg.convert_layout (used by that dot only, in its block) from a
// distributed layout other than dot_op that moves data between threads
// (through shared scratch or warp shuffles, which would also produce the
// whole operand before the first FMA) becomes a ttg.local_alloc of the
// source at the conversion and a ttg.local_load right before the dot.  The
// tile is #ttg.swizzled_shared, row-major over the dimension order of the
// conversion's scratch plan, with the XOR swizzle that plan found fewest
// bank conflicts with (layout/BankConflicts.h), unswizzled where that plan
// pads rows instead.  The tile stays contiguous along the source's
// contiguous dimension (a blocked source's order[0]): ttg-pipeline streams
// a staged operand through a ring of such tiles by cp.async only then, so a
// plan contiguous along another dimension (one that reads the operand in
// wider vectors) gives way to the best plan along the source's.
// Dots whose two tiles together would take more than half of a block's
// shared memory on the target keep their conversions, whose scratch is
// shared.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "tritium/Analysis/Allocation.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Layout/BankConflicts.h"

namespace tritium::ttg {
#define GEN_PASS_DEF_TTGCUDACOREDOTOPERANDSPASS
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"
} // namespace tritium::ttg

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

namespace {

/// The most shared memory a dot's two operand tiles may take together: half
/// of what a block may have on the target, leaving the rest to the kernel's
/// other buffers.
int64_t maxOperandTileBytes(int computeCapability) {
  return getSharedMemoryPerBlock(computeCapability) / 2;
}

/// The conversion feeding operand `operand` of `dot`, if it can become a
/// shared tile: a conversion from a distributed layout that is not a dot_op
/// and that moves data between threads, used only by `dot`, in its block.
ConvertLayoutOp stageableConversion(tt::DotOp dot, Value operand) {
  auto convert = operand.getDefiningOp<ConvertLayoutOp>();
  if (!convert || !convert->hasOneUse() ||
      convert->getBlock() != dot->getBlock())
    return {};
  auto srcType = cast<RankedTensorType>(convert.getSrc().getType());
  auto dstType = cast<RankedTensorType>(convert.getType());
  if (isa<DotOperandEncodingAttr>(srcType.getEncoding()) ||
      !isa<DotOperandEncodingAttr>(dstType.getEncoding()))
    return {};
  if (getConvertLayoutPath(srcType, dstType) == ConvertLayoutPath::Registers)
    return {};
  return convert;
}

/// The scratch plan of `convert` contiguous along its blocked source's
/// contiguous dimension (the plan getConvertScratchPlan chose when it is,
/// the best one along that dimension otherwise), or nullopt where the
/// conversion has no one-piece plan.
std::optional<layout::ConvertScratchPlan>
sourceContiguousPlan(ConvertLayoutOp convert) {
  auto srcType = cast<RankedTensorType>(convert.getSrc().getType());
  auto dstType = cast<RankedTensorType>(convert.getType());
  std::optional<layout::ConvertScratchPlan> plan =
      getConvertScratchPlan(srcType, dstType);
  if (!plan || plan->parts)
    return std::nullopt;
  auto blocked = dyn_cast<BlockedEncodingAttr>(srcType.getEncoding());
  if (!blocked)
    return plan;
  int64_t contiguous = blocked.getOrder()[0];
  int64_t planContiguous =
      plan->order.empty() ? srcType.getRank() - 1 : plan->order.back();
  if (planContiguous == contiguous)
    return plan;
  auto dstLayout = cast<DistributedEncodingAttr>(dstType.getEncoding());
  return layout::planConvertScratchContiguousAlong(
      blocked.toLinearLayout(srcType.getShape()),
      dstLayout.toLinearLayout(dstType.getShape()),
      getElementBytes(srcType.getElementType()), contiguous);
}

/// The #ttg.swizzled_shared tile for `convert`'s source (see the file
/// comment): row-major over its plan's dimension order, swizzled when that
/// plan swizzles.
SwizzledSharedEncodingAttr tileLayout(ConvertLayoutOp convert) {
  auto srcType = cast<RankedTensorType>(convert.getSrc().getType());
  SmallVector<unsigned> order;
  for (int64_t d = srcType.getRank() - 1; d >= 0; --d)
    order.push_back(static_cast<unsigned>(d));
  unsigned vec = 1, perPhase = 1, maxPhase = 1;
  if (std::optional<layout::ConvertScratchPlan> plan =
          sourceContiguousPlan(convert)) {
    if (!plan->order.empty()) // (fastest first: the tile's last dimension)
      order.assign(plan->order.rbegin(), plan->order.rend());
    if (plan->tile.isSwizzled()) {
      vec = plan->tile.swizzle.chunk;
      perPhase = plan->tile.swizzle.perPhase;
      maxPhase = plan->tile.swizzle.maxPhase;
    }
  }
  return SwizzledSharedEncodingAttr::get(srcType.getContext(), vec, perPhase,
                                         maxPhase, order);
}

int64_t tileBytes(ConvertLayoutOp convert) {
  auto type = cast<RankedTensorType>(convert.getSrc().getType());
  return type.getNumElements() * type.getElementTypeBitWidth() / 8;
}

} // namespace

void ttg::stageCudaCoreDotOperands(ModuleOp module) {
  int64_t budget = maxOperandTileBytes(getComputeCapability(module));
  SmallVector<tt::DotOp> dots = blockedAccumulatorDots(module);
  for (tt::DotOp dot : dots) {
    SmallVector<std::pair<unsigned, ConvertLayoutOp>> staged;
    int64_t bytes = 0;
    for (unsigned i : {0u, 1u})
      if (ConvertLayoutOp convert =
              stageableConversion(dot, dot->getOperand(i))) {
        staged.push_back({i, convert});
        bytes += tileBytes(convert);
      }
    if (staged.empty() || bytes > budget)
      continue;
    SmallVector<std::pair<unsigned, Value>> tiles;
    for (auto [i, convert] : staged) {
      auto srcType = cast<RankedTensorType>(convert.getSrc().getType());
      auto memType = MemDescType::get(
          srcType.getShape(), srcType.getElementType(), tileLayout(convert),
          SharedMemorySpaceAttr::get(dot.getContext()),
          /*mutableMemory=*/false);
      OpBuilder builder(convert);
      tiles.push_back({i, LocalAllocOp::create(builder, convert.getLoc(),
                                               memType, convert.getSrc())
                              .getResult()});
    }
    OpBuilder builder(dot);
    for (auto [index, tile] : llvm::enumerate(tiles)) {
      ConvertLayoutOp convert = staged[index].second;
      Value loaded = LocalLoadOp::create(builder, convert.getLoc(),
                                         convert.getType(), tile.second,
                                         Value());
      dot->setOperand(tile.first, loaded);
      convert.erase();
    }
  }
}

namespace {
struct TTGCudaCoreDotOperandsPass
    : public ttg::impl::TTGCudaCoreDotOperandsPassBase<
          TTGCudaCoreDotOperandsPass> {
  void runOnOperation() override {
    ttg::stageCudaCoreDotOperands(getOperation());
  }
};
} // namespace
