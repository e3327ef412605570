//===- DeferTMAStoreWait.cpp - ttg-defer-tma-store-wait --------------------===//
//
// A tile loop's epilogue stores its tile with TMA and then waits
// (`ttg.async_tma_store_wait {pendings = 0}`) until the copy engine has read
// the tile out of shared memory, so that nothing overwrites it too early.
// The only thing that could overwrite it is the next tile's epilogue
// writing the same buffer, when that tile is the only buffer of the loop
// body: then the wait can move to just before that write, and the copy
// reads shared memory while the next tile's K loop runs.
//
// Algorithm, for a tile loop that ttg-prefetch-next-tile rewrote (marked
// ttg.prefetched_next_tile) or the tile loop of a warp-specialized kernel
// (whose ring the producer warp fills on its own):
//   1. The loop body must hold exactly one shared buffer, the epilogue's
//      tile (a ttg.local_alloc with a value, directly in the body), and no
//      op that may use shared scratch (a live layout conversion, a
//      reduction, scan, atomic, gather or histogram, a local store); the
//      buffers outside the body (the rings) are live across the loop and
//      never share the tile's bytes.  Its one wait for all stores must be
//      in the body, after the tile's allocation.
//   2. The wait moves to just before the tile's allocation, followed by a
//      CTA barrier: only the thread that issued the copy waits, and the
//      others must not write the tile before it has.
//   3. One more wait for all stores follows the loop (the last tile's).
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tritium::ttg {
#define GEN_PASS_DEF_TTGDEFERTMASTOREWAITPASS
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"
} // namespace tritium::ttg

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

void ttg::deferTMAStoreWait(scf::ForOp loop) {
  SmallVector<LocalAllocOp> tiles;
  SmallVector<AsyncTMAStoreWaitOp> waits;
  bool otherBuffers = false;
  loop.getBody()->walk([&](Operation *op) {
    if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
      if (alloc.getSrc() && alloc->getBlock() == loop.getBody())
        tiles.push_back(alloc);
      else
        otherBuffers = true;
    } else if (auto wait = dyn_cast<AsyncTMAStoreWaitOp>(op)) {
      waits.push_back(wait);
    } else if (isa<LocalStoreOp>(op) ||
               (!op->use_empty() && // (dead ones go at the next cleanup)
                (isa<ConvertLayoutOp>(op) ||
                 llvm::any_of(
                     std::initializer_list<StringRef>{
                         "reduce", "scan", "atomic", "gather", "histogram"},
                     [&](StringRef kind) {
                       return op->getName().getStringRef().contains(kind);
                     })))) {
      otherBuffers = true; // may use shared scratch
    }
  });
  if (otherBuffers || tiles.size() != 1 || waits.size() != 1 ||
      waits[0]->getBlock() != loop.getBody() ||
      waits[0].getPendings() != 0 || waits[0]->isBeforeInBlock(tiles[0]))
    return;
  waits[0]->moveBefore(tiles[0]);
  // Only the copy's thread waits; the others must not write the tile
  // before it has: a CTA barrier between the wait and the writes.
  OpBuilder before(tiles[0]);
  BarrierOp::create(before, tiles[0].getLoc());
  OpBuilder after(loop->getContext());
  after.setInsertionPointAfter(loop);
  AsyncTMAStoreWaitOp::create(after, loop.getLoc(), 0);
}

namespace {
struct TTGDeferTMAStoreWaitPass
    : public ttg::impl::TTGDeferTMAStoreWaitPassBase<TTGDeferTMAStoreWaitPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->hasAttr(kPrefetchedNextTileAttr) ||
          isWarpSpecializedTileLoop(loop))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      deferTMAStoreWait(loop);
  }
};
} // namespace
