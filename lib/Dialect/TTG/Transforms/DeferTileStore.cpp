//===- DeferTileStore.cpp - a tile's TMA store issued in the next K loop --===//
//
// Part of ttg-prefetch-next-tile, after ContinueRingAcrossTiles.cpp.  In a
// tile loop whose K loops share one TMA ring, the epilogue writes the tile
// to shared memory and issues its TMA store, and the next tile's K loop
// starts right after: its first iteration waits for its first copies,
// starts its first MMA and issues the copies of a later step.  Issued
// before those copies, the tile's store delays them: measured on the H100
// (tutorial 09's persistent matmul, 128x256x64, 8192^3, three stages;
// bench/tools/persistent_cubin_ab.py, hand-edited PTX variants of one
// kernel timed through one launcher), the same kernel ran 1.6% faster with
// its four store boxes issued after the next tile's first copies instead,
// and 1.7% faster with no stores at all (Triton's cubin: 0.4%).  This step
// moves the store there, as those variants did (its own output had not run
// on a GPU when it was written: bench/RESULTS.md, tenth session).
//
// Algorithm, for a tile loop T (as ContinueRingAcrossTiles left it) whose
// body holds one K loop K with TMA ring copies and ends, as
// deferTMAStoreWait left it, with
//     ttg.async_tma_store_wait {pendings = 0}; ttg.barrier;
//     %t = ttg.local_alloc %v;  (no other use)
//     ttg.async_tma_copy_local_to_global %d[%i...] %t;  (%d from outside T)
// and a ttg.async_tma_store_wait {pendings = 0} right after T:
//   1. %t becomes a mutable buffer allocated before T, and the epilogue
//      stores %v into it (ttg.local_store, which, as local_alloc did, fences
//      its writes for the copy engine: an NVMMA tile on sm_90) where %t was
//      allocated.
//   2. T carries `pending` (false on entry) and the store's indices; the
//      epilogue yields true and its indices instead of issuing the copy.
//   3. In K, right after the body's last TMA copy: scf.if (iv == lb &&
//      pending) { the copy at the carried indices }.
//   4. Before the epilogue's wait (the buffer is about to be written
//      again), for a K loop that ran no iteration: scf.if (pending &&
//      lb >= ub) { the copy }.
//   5. Before the wait after T: scf.if (T's pending) { the copy } (the last
//      tile's).
// The CTA barriers between the local_store and the copies are the membar
// pass's (in K, the ring's own barrier before its copies already orders
// them).  The next tile's head effects and the ops of K's first iteration
// before its copies now run before the previous tile's store is issued:
// the tt.flatten request is the user's statement that a tile's stores and
// the following tiles' accesses do not overlap in memory (as for the
// prefetched copies, PrefetchNextTile.cpp).
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

namespace {

/// The epilogue's store of a tile loop in the form of the file comment.
struct TileStore {
  AsyncTMAStoreWaitOp wait;    ///< before the barrier and the tile
  LocalAllocOp tile;           ///< %t = ttg.local_alloc %v
  AsyncTMACopyLocalToGlobalOp copy;
  AsyncTMAStoreWaitOp waitAfterLoop;
  scf::ForOp kLoop;
  Operation *lastRingCopy = nullptr; ///< in K's body
};

std::optional<TileStore> match(scf::ForOp loop) {
  TileStore store;
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  // The copy: the last op with effects before the yield.
  for (Operation *op = yield->getPrevNode(); op; op = op->getPrevNode()) {
    if ((store.copy = dyn_cast<AsyncTMACopyLocalToGlobalOp>(op)))
      break;
    if (!isMemoryEffectFree(op) || op->getNumRegions() != 0)
      return std::nullopt;
  }
  if (!store.copy)
    return std::nullopt;
  store.tile = store.copy.getSrc().getDefiningOp<LocalAllocOp>();
  if (!store.tile || !store.tile.getSrc() || !store.tile->hasOneUse() ||
      store.tile->getBlock() != body)
    return std::nullopt;
  auto barrier = dyn_cast_or_null<BarrierOp>(store.tile->getPrevNode());
  store.wait = barrier ? dyn_cast_or_null<AsyncTMAStoreWaitOp>(
                             barrier->getPrevNode())
                       : AsyncTMAStoreWaitOp();
  if (!store.wait || store.wait.getPendings() != 0)
    return std::nullopt;
  Value desc = store.copy.getDesc();
  if (Operation *def = desc.getDefiningOp(); def && loop->isAncestor(def))
    return std::nullopt;
  if (auto arg = dyn_cast<BlockArgument>(desc);
      arg && loop->isAncestor(arg.getOwner()->getParentOp()))
    return std::nullopt;
  store.waitAfterLoop =
      dyn_cast_or_null<AsyncTMAStoreWaitOp>(loop->getNextNode());
  if (!store.waitAfterLoop || store.waitAfterLoop.getPendings() != 0)
    return std::nullopt;
  // One K loop before the epilogue, its ring copies directly in its body;
  // no other TMA store in T (the carried copy must be the only one pending
  // at the epilogue's wait).
  int kLoops = 0, stores = 0;
  body->walk([&](Operation *op) {
    if (auto k = dyn_cast<scf::ForOp>(op); k && k->getBlock() == body) {
      ++kLoops;
      store.kLoop = k;
    }
    if (isa<AsyncTMACopyLocalToGlobalOp>(op))
      ++stores;
  });
  if (kLoops != 1 || stores != 1 || !store.kLoop->isBeforeInBlock(store.wait))
    return std::nullopt;
  for (Operation &op : store.kLoop.getBody()->without_terminator())
    if (isa<AsyncTMACopyGlobalToLocalOp>(op))
      store.lastRingCopy = &op;
  if (!store.lastRingCopy)
    return std::nullopt;
  return store;
}

/// `scf.if %cond { ttg.async_tma_copy_local_to_global %desc[%indices] %buffer }`
void emitCopyIf(OpBuilder &builder, Location loc, Value cond, Value desc,
                ValueRange indices, Value buffer) {
  auto ifOp = scf::IfOp::create(builder, loc, cond, /*withElseRegion=*/false);
  OpBuilder inside = ifOp.getThenBodyBuilder();
  AsyncTMACopyLocalToGlobalOp::create(inside, loc, desc, indices, buffer);
}

} // namespace

bool ttg::deferTileStore(scf::ForOp loop) {
  std::optional<TileStore> found = match(loop);
  if (!found)
    return false;
  TileStore &store = *found;
  Location loc = store.copy.getLoc();
  MLIRContext *context = loop.getContext();
  Block *body = loop.getBody();
  Value desc = store.copy.getDesc();
  SmallVector<Value> indices(store.copy.getIndices());

  // 1. The tile's buffer, allocated before T, written where it was made.
  MemDescType tileType = store.tile.getType();
  auto bufferType = MemDescType::get(
      tileType.getShape(), tileType.getElementType(), tileType.getEncoding(),
      tileType.getMemorySpace(), /*mutableMemory=*/true);
  OpBuilder beforeLoop(loop);
  Value buffer = LocalAllocOp::create(beforeLoop, loc, bufferType, Value());
  OpBuilder atTile(store.tile);
  LocalStoreOp::create(atTile, loc, store.tile.getSrc(), buffer);

  // 2. T carries `pending` and the indices.
  Value no = arith::ConstantIntOp::create(beforeLoop, loc, 0, 1);
  SmallVector<Value> inits(loop.getInitArgs());
  inits.push_back(no);
  for (Value index : indices)
    inits.push_back(arith::ConstantIntOp::create(beforeLoop, loc, index.getType(), 0));
  Value pending = body->addArgument(no.getType(), loc);
  SmallVector<Value> carriedIndices;
  for (Value index : indices)
    carriedIndices.push_back(body->addArgument(index.getType(), loc));
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  OpBuilder atYield(yield);
  yield->insertOperands(yield->getNumOperands(),
                        {arith::ConstantIntOp::create(atYield, loc, 1, 1)});
  yield->insertOperands(yield->getNumOperands(), indices);

  // 3. In K's first iteration, after its ring copies.
  scf::ForOp k = store.kLoop;
  OpBuilder inK(context);
  inK.setInsertionPointAfter(store.lastRingCopy);
  Value first = arith::CmpIOp::create(inK, loc, arith::CmpIPredicate::eq,
                                      k.getInductionVar(), k.getLowerBound());
  emitCopyIf(inK, loc, arith::AndIOp::create(inK, loc, first, pending), desc,
             carriedIndices, buffer);

  // 4. A K loop without iterations left it pending: before the wait.
  OpBuilder atWait(store.wait);
  Value empty = arith::CmpIOp::create(atWait, loc, arith::CmpIPredicate::sge,
                                      k.getLowerBound(), k.getUpperBound());
  emitCopyIf(atWait, loc, arith::AndIOp::create(atWait, loc, empty, pending),
             desc, carriedIndices, buffer);

  store.copy->erase();
  store.tile->erase();

  auto newLoop = scf::ForOp::create(beforeLoop, loop.getLoc(), loop.getLowerBound(),
                                    loop.getUpperBound(), loop.getStep(), inits);
  newLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  newLoop.getRegion().takeBody(loop.getRegion());
  loop->replaceAllUsesWith(newLoop.getResults().take_front(loop.getNumResults()));
  loop->erase();

  // 5. The last tile's store, before the wait after T.
  unsigned carried = newLoop.getNumResults() - indices.size() - 1;
  OpBuilder afterLoop(store.waitAfterLoop);
  emitCopyIf(afterLoop, loc, newLoop.getResult(carried), desc,
             newLoop.getResults().drop_front(carried + 1), buffer);
  return true;
}
