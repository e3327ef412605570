//===- SubtiledTMAStore.cpp - ttg-subtile-tma-store -----------------------===//
//
// A persistent matmul stores each output tile from the accumulator's
// registers: the tile goes to shared memory whole (128x256 fp16: 64 KiB)
// and one TMA store writes it out.  When the tile loop's rings live across
// the loop (after ttg-prefetch-next-tile, or the producer warp's ring of a
// warp-specialized kernel), that tile's bytes come on top of them and can
// cost a ring stage, or keep the loop from being rewritten at all.  The copy engine moves the tile as boxes one
// swizzle span wide anyway (64 fp16 columns for the 128-byte swizzle), so
// the epilogue can store one such slab at a time through two slab slots:
//
//   for each slab j (columns [jW, (j+1)W)):
//     ttg.async_tma_store_wait {pendings = 1}   // the store that read slot
//                                               // j % 2, two slabs ago, has
//     %w = ttg.extract_tile %acc [0, jW]        // the slab's registers
//     ttg.local_store %w, %slots[j % 2]         // stmatrix, fenced for TMA
//     ttg.async_tma_copy_local_to_global %desc[%m, %n + jW] %slots[j % 2]
//   ... after the tile loop: ttg.async_tma_store_wait {pendings = 0}
//
// Two slabs ago is the previous tile's second-to-last slab for the first
// two slabs, so no wait is left at the end of a tile: its last stores read
// shared memory while the next tile's K loop runs.  The slots are allocated
// before the tile loop (live across it, so no other buffer takes their
// bytes while a store may read them).  The membar pass puts the CTA
// barriers between each slab's wait and its writes, and between the writes
// and the copy.
//
// The pass applies this to the tile loops marked tt.flatten that
// ttg-prefetch-next-tile could rewrite only with the tile stored so
// (planSubtiledStoreForPrefetch, PrefetchNextTile.cpp), and to the tile
// loop of a warp-specialized kernel whose tile does not fit beside the
// buffers live across it (the producer's ring and barriers) while the slots
// do.
//
// Applies to a rank-2 tile whose source has a wgmma accumulator layout
// with its warps along M only (each slab is then the same layout with a
// narrower instruction, its registers a subset of the thread's), stored
// by the TMA store right after its local_alloc, whose wait for all follows
// at once, with an even number of slabs, at least four (with two, the slots
// save nothing).
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Layout/MmaLayout.h"
#include "tritium/Layout/TileWindow.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace tritium::ttg {
#define GEN_PASS_DEF_TTGSUBTILETMASTOREPASS
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"
} // namespace tritium::ttg

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

std::optional<TileSlabs> ttg::planTileSlabs(RankedTensorType source,
                                            MemDescType tileType,
                                            RankedTensorType block) {
  auto mma = dyn_cast_or_null<NvidiaMmaEncodingAttr>(source.getEncoding());
  if (!mma || !mma.isHopper() || source.getRank() != 2 ||
      mma.getWarpsPerCTA()[1] != 1)
    return std::nullopt;
  if (tileType.getShape() != block.getShape() ||
      source.getShape() != block.getShape())
    return std::nullopt;
  std::vector<int64_t> shape(block.getShape().begin(), block.getShape().end());
  int64_t bits = block.getElementTypeBitWidth();
  int64_t swizzle = layout::chooseTmaSwizzle(shape, bits);
  layout::TmaTilePlan boxes = layout::planTmaTile(shape, bits, swizzle);
  if (swizzle == 0 || boxes.box[0] != shape[0])
    return std::nullopt; // rows in several boxes, or no slabs
  int64_t width = boxes.box[1];
  int64_t count = shape[1] / width;
  if (count < 2)
    return std::nullopt;
  // Each slab: the accumulator's layout with a slab-wide instruction.
  SmallVector<unsigned> instr(mma.getInstrShape());
  instr[1] = width;
  layout::MmaSpec spec = mma.toSpec();
  spec.instrShape[1] = width;
  if (layout::verifyMma(spec, /*expectedNumWarps=*/0))
    return std::nullopt;
  auto slabLayout = NvidiaMmaEncodingAttr::get(
      source.getContext(), mma.getVersionMajor(), mma.getVersionMinor(),
      mma.getWarpsPerCTA(), instr);
  auto slabType = RankedTensorType::get({shape[0], width},
                                        source.getElementType(), slabLayout);
  layout::LinearLayout whole = mma.toLinearLayout(source.getShape());
  layout::LinearLayout slab = slabLayout.toLinearLayout(slabType.getShape());
  for (int64_t j = 0; j < count; ++j)
    if (std::holds_alternative<std::string>(
            layout::planTileWindow(whole, slab, {0, j * width})))
      return std::nullopt;
  TileSlabs slabs;
  slabs.slabType = slabType;
  slabs.width = width;
  slabs.count = count;
  return slabs;
}

MemDescType ttg::slabSlotsType(MemDescType tileType, const TileSlabs &slabs,
                               int64_t slots) {
  return MemDescType::get({slots, tileType.getShape()[0], slabs.width},
                          tileType.getElementType(), tileType.getEncoding(),
                          tileType.getMemorySpace(), /*mutableMemory=*/true);
}

std::optional<SubtiledStorePlan> ttg::planSubtiledStore(LocalAllocOp tile) {
  Value src = tile.getSrc();
  if (!src || !tile->hasOneUse())
    return std::nullopt;
  auto copy = dyn_cast<AsyncTMACopyLocalToGlobalOp>(*tile->user_begin());
  if (!copy || copy.getSrc() != tile.getResult() ||
      copy->getBlock() != tile->getBlock())
    return std::nullopt;
  auto wait = dyn_cast_or_null<AsyncTMAStoreWaitOp>(copy->getNextNode());
  if (!wait || wait.getPendings() != 0)
    return std::nullopt;
  std::optional<TileSlabs> slabs = planTileSlabs(
      cast<RankedTensorType>(src.getType()), tile.getType(),
      copy.getDesc().getType().getBlockType());
  // Slab j of every tile uses slot j % 2: with an even count, the first
  // slab's slot was last read by the previous tile's second-to-last store,
  // the one its {pendings = 1} wait finishes.
  if (!slabs || slabs->count < 4 || slabs->count % 2 != 0)
    return std::nullopt;
  SubtiledStorePlan plan;
  plan.tile = tile;
  plan.copy = copy;
  plan.wait = wait;
  plan.slabType = slabs->slabType;
  plan.slotsType = slabSlotsType(tile.getType(), *slabs, 2);
  plan.slabs = slabs->count;
  return plan;
}

void ttg::subtileStore(scf::ForOp loop, SubtiledStorePlan plan) {
  Location loc = plan.copy.getLoc();
  OpBuilder beforeLoop(loop);
  Value slots = LocalAllocOp::create(beforeLoop, loc, plan.slotsType, Value());
  ArrayRef<int64_t> slotShape = plan.slotsType.getShape().drop_front();
  auto slotType = MemDescType::get(
      loop.getContext(), slotShape, plan.slotsType.getElementType(),
      plan.slotsType.getEncoding(), plan.slotsType.getMemorySpace(),
      /*mutableMemory=*/true, plan.slotsType.getShape());
  int64_t width = slotShape[1];
  // (at the copy: the source and the indices are defined before it)
  OpBuilder builder(plan.copy);
  SmallVector<Value> indices(plan.copy.getIndices());
  Value column = indices[1];
  for (int64_t j = 0; j < plan.slabs; ++j) {
    AsyncTMAStoreWaitOp::create(builder, loc, 1);
    Value slab = ExtractTileOp::create(builder, loc, plan.slabType,
                                       plan.tile.getSrc(),
                                       ArrayRef<int64_t>{0, j * width});
    Value index = arith::ConstantIntOp::create(builder, loc, j % 2, 32);
    Value slot = MemDescIndexOp::create(builder, loc, slotType, slots, index);
    LocalStoreOp::create(builder, loc, slab, slot);
    if (j > 0) {
      Value offset =
          arith::ConstantIntOp::create(builder, loc, j * width, 32);
      indices[1] = arith::AddIOp::create(builder, loc, column, offset);
    }
    AsyncTMACopyLocalToGlobalOp::create(builder, loc, plan.copy.getDesc(),
                                        indices, slot);
  }
  OpBuilder afterLoop(loop.getContext());
  afterLoop.setInsertionPointAfter(loop);
  AsyncTMAStoreWaitOp::create(afterLoop, loc, 0);
  plan.wait->erase();
  plan.copy->erase();
  plan.tile->erase();
}

/// A warp-specialized tile loop's epilogue tile stored a slab at a time
/// when the whole tile does not fit beside the buffers that live across the
/// loop (the producer's ring and barriers) and the slots do.
static void subtileIfShort(scf::ForOp loop) {
  LocalAllocOp tile;
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto alloc = dyn_cast<LocalAllocOp>(&op)) {
      if (tile || !alloc.getSrc())
        return;
      tile = alloc;
    }
  std::optional<SubtiledStorePlan> plan;
  if (!tile || !(plan = planSubtiledStore(tile)))
    return;
  int64_t buffers = 0;
  loop->getParentOfType<FunctionOpInterface>()->walk([&](LocalAllocOp alloc) {
    if (!alloc.getSrc() && !loop->isAncestor(alloc))
      buffers += sharedBytesOf(alloc.getType());
  });
  if (buffers + sharedBytesOf(tile.getType()) <= kTileLoopSharedBudget ||
      buffers + sharedBytesOf(plan->slotsType) > kTileLoopSharedBudget)
    return;
  subtileStore(loop, *plan);
}

namespace {
struct TTGSubtileTMAStorePass
    : public ttg::impl::TTGSubtileTMAStorePassBase<TTGSubtileTMAStorePass> {
  void runOnOperation() override {
    SmallVector<std::pair<scf::ForOp, SubtiledStorePlan>> flattened;
    SmallVector<scf::ForOp> specialized;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->hasAttr("tt.flatten")) {
        if (std::optional<SubtiledStorePlan> plan =
                planSubtiledStoreForPrefetch(loop))
          flattened.emplace_back(loop, *plan);
      } else if (isWarpSpecializedTileLoop(loop)) {
        specialized.push_back(loop);
      }
    });
    for (auto &[loop, plan] : flattened)
      subtileStore(loop, plan);
    for (scf::ForOp loop : specialized)
      subtileIfShort(loop);
  }
};
} // namespace
