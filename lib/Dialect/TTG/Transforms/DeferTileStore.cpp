//===- DeferTileStore.cpp - ttg-defer-tile-store --------------------------===//
//
// In a tile loop whose K loops share one TMA ring (after
// ttg-continue-ring-across-tiles), the epilogue writes the tile to shared
// memory and issues its TMA store, and the next tile's K loop starts right
// after: its first iteration waits for its first copies, starts its first
// MMA and issues the copies of a later step.  Issued before those copies,
// the tile's store delays them: on the H100 (tutorial 09's persistent
// matmul, 128x256x64, 8192^3, three stages, 2026-11-27), the same kernel
// ran 1.6% faster with its four store boxes issued after the next tile's
// first copies instead, and 1.7% faster with no stores at all.  This pass
// moves the store there.
//
// The tile's write to shared memory (stmatrix, 64 KB for 128x256 f16) moves
// along with it: it waits only for the previous tile's store to have read
// the buffer, which by then it long has, so in the next K loop it runs
// while that loop's MMAs do, rather than between the last MMA of one tile
// and the first of the next (the tensor cores idle there).  Only the
// conversion of the accumulator stays in the epilogue (its registers are
// the next tile's accumulator).  Carried through the K loop, the tile holds
// its registers there beside the tensors live through the loop (the
// accumulator, what the loop reads from outside): where they would take
// more than kCarriedRegisterBudget 32-bit registers per thread, the
// epilogue keeps the write (with a ttg.local_store where the local_alloc
// was) and only the copy moves.
//
// Where the TMA store moves the tile as several boxes one swizzle span
// wide (planTileSlabs: 64 fp16 columns for the 128-byte swizzle), the write
// and the store go a slab at a time, slab j in the next K loop's iteration
// j, each slab in its own slot.  Written whole in the first iteration, the
// 64 KB of a 128x256 tile share shared memory with that iteration's MMA
// operand reads and hold the next MMA back by ~1400 cycles, and the whole
// tile's store, issued at once, slows the copies of the iterations after
// it; a slab (16 KB) per iteration fits beside the MMA.  Measured with
// clock64 traces of every K iteration (tutorial 09's 128x256x64 tiles at
// 8192^3, H100, 2026-11-28): a tile's cycles beyond its MMAs are 2800-3600
// in slabs and 4700-5500 with the whole tile in the first iteration,
// against Triton 3.6's 3550-4470.
//
// Algorithm, for a tile loop T marked ttg.ring_across_tiles whose
// body holds one K loop K with TMA ring copies and ends, as
// deferTMAStoreWait left it, with
//     ttg.async_tma_store_wait {pendings = 0}; ttg.barrier;
//     %t = ttg.local_alloc %v;  (no other use)
//     [ttg.fence_async_shared;]  (a tile not in an NVMMA layout)
//     ttg.async_tma_copy_local_to_global %d[%i...] %t;  (%d from outside T)
// (pure ops may sit between the last three; T and K compare signed)
// and a ttg.async_tma_store_wait {pendings = 0} right after T
// (ttg-defer-tma-store-wait's form):
//   1. %t becomes a mutable buffer B allocated before T.  T carries
//      `pending` (false on entry), the store's indices and the tile's value
//      %v; the epilogue yields true, its indices and %v instead of waiting,
//      writing B and issuing the copy.  (Over the budget: %v is not
//      carried; the epilogue keeps its wait and barrier and writes %v into
//      B with ttg.local_store where %t was made, and the steps below issue
//      the copy alone.)
//   2. "Write" below is: ttg.async_tma_store_wait {pendings = 0} (the
//      previous copy out of B has read it); ttg.barrier (every thread knows
//      it); ttg.local_store of the carried value into B (which fences its
//      writes for the copy engine, as local_alloc did, for an NVMMA tile on
//      sm_90; the epilogue's ttg.fence_async_shared, for another tile,
//      follows each such write instead).
//   3. In K: before the body's first ring op (its barrier_expect or copy,
//      after the MMA it issues), scf.if (iv == lb && pending) { the wait
//      of the write }; right after the body's last TMA copy, scf.if (iv ==
//      lb && pending) { ttg.local_store of the carried value into B (and
//      the fence, as in 2); the copy from B at the carried indices }.  So
//      the ring's copies are not held up by the write, and the ring's
//      barrier before them is the write's barrier after the wait (the
//      membar pass places one between the write and the copy out of B).
//      In slabs: B is [slabs, rows, width], and scf.if (iv < lb + slabs *
//      step && pending) { for each slab j, scf.if (iv == lb + j * step) {
//      [j = 0: the wait; ttg.barrier;] ttg.extract_tile of slab j;
//      ttg.local_store into B[j]; the copy from B[j] at the indices, the
//      column shifted by j * width } } (K loops of 32-bit or narrower
//      integers only, compared in 64 bits: no wrap).  The wait sits in
//      slab 0's branch, not before the ring ops, so that the iterations
//      past the slabs test nothing but `iv < lb + slabs * step`: a test
//      of its own there cost ~4 instructions a K step per warp (SASS of
//      tutorial 09's 3-stage K loop, 111 to 108; one CTA barrier more per
//      tile).
//   4. Where the epilogue's wait was, for a K loop that ran no iteration:
//      scf.if (pending && lb >= ub) { write; the copy }.  In slabs, for one
//      that ran fewer than `slabs`: scf.if (pending && lb + (slabs - 1) *
//      step >= ub) { the wait; barrier; each slab j whose iteration did
//      not run (lb + j * step >= ub) written and copied }.
//   5. Before the wait after T: scf.if (T's pending) { write; the copy }
//      (the last tile's; in slabs, each slab written and copied).
// The CTA barriers between a write and its copy are the membar pass's.  The
// next tile's head effects and the ops of K's first iteration before its
// copies now run before the previous tile's store is issued: the tt.flatten
// request is the user's statement that a tile's stores and the following
// tiles' accesses do not overlap in memory (as for the prefetched copies,
// PrefetchNextTile.cpp).
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace tritium::ttg {
#define GEN_PASS_DEF_TTGDEFERTILESTOREPASS
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"
} // namespace tritium::ttg

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

namespace {

/// 32-bit registers per thread that the tensors live through the K loop
/// (its accumulator, what it reads from outside) and the carried tile may
/// take together.  A thread has 255; addresses, indices and predicates take
/// the rest (tutorial 09's 128x256 fp16 tile on 8 warps: 128 + 64 here, 219
/// in all as ptxas allocates them with the slab writes, no spills).
constexpr int64_t kCarriedRegisterBudget = 192;

/// 32-bit registers a thread holds for `type` (0 for what is not a tensor
/// in a distributed layout).  Elements under 16 bits are counted a register
/// each: the lowering keeps them as scalars, which ptxas does not pack.
int64_t registersPerThread(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  auto layout = tensor ? dyn_cast_or_null<DistributedEncodingAttr>(tensor.getEncoding())
                       : DistributedEncodingAttr();
  if (!layout)
    return 0;
  Type element = tensor.getElementType();
  int64_t width = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
  int64_t bits = layout.getElemsPerThread(tensor.getShape()) * (width < 16 ? 32 : width);
  return (bits + 31) / 32;
}

/// Registers per thread of the tensors live through every iteration of
/// `k`: its iteration arguments and the values its body reads from outside.
int64_t registersLiveThrough(scf::ForOp k) {
  int64_t registers = 0;
  for (Value carried : k.getRegionIterArgs())
    registers += registersPerThread(carried.getType());
  llvm::SmallPtrSet<Value, 8> outside;
  k.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (!k->isAncestor(operand.getParentRegion()->getParentOp()) &&
          outside.insert(operand).second)
        registers += registersPerThread(operand.getType());
  });
  return registers;
}

/// The epilogue's store of a tile loop in the form of the file comment.
struct TileStore {
  AsyncTMAStoreWaitOp wait;    ///< before the barrier and the tile
  LocalAllocOp tile;           ///< %t = ttg.local_alloc %v
  /// Between %t and the copy for a tile not in an NVMMA layout (whose
  /// writes local_alloc and local_store do not fence for the copy engine).
  FenceAsyncSharedOp fence;
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
  // Between the tile and its copy: pure ops and at most one proxy fence.
  for (Operation *op = store.tile->getNextNode(); op != store.copy;
       op = op->getNextNode()) {
    if (auto fence = dyn_cast<FenceAsyncSharedOp>(op); fence && !store.fence) {
      store.fence = fence;
      continue;
    }
    if (!isMemoryEffectFree(op) || op->getNumRegions() != 0)
      return std::nullopt;
  }
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
  // The zero-trip tests below compare signed, as the rebuilt loops do.
  if (loop.getUnsignedCmp() || store.kLoop.getUnsignedCmp())
    return std::nullopt;
  for (Operation &op : store.kLoop.getBody()->without_terminator())
    if (isa<AsyncTMACopyGlobalToLocalOp>(op))
      store.lastRingCopy = &op;
  if (!store.lastRingCopy)
    return std::nullopt;
  return store;
}

/// `value` written into `buffer`, fenced for the copy engine when `fence`
/// (the tile's layout is not NVMMA: see TileStore::fence).
void emitLocalStore(OpBuilder &builder, Location loc, Value value, Value buffer,
                    bool fence) {
  LocalStoreOp::create(builder, loc, value, buffer);
  if (fence)
    FenceAsyncSharedOp::create(builder, loc);
}

/// `value` sign-extended to i64 when a narrower integer: lb + j * step of a
/// K loop below cannot wrap.
Value widen(OpBuilder &builder, Location loc, Value value) {
  auto type = dyn_cast<IntegerType>(value.getType());
  if (!type || type.getWidth() >= 64)
    return value;
  return arith::ExtSIOp::create(builder, loc, builder.getI64Type(), value);
}

/// lb + j * step of `k`, widened: its induction variable in iteration j.
Value iterationValue(OpBuilder &builder, Location loc, scf::ForOp k, int64_t j) {
  Value lb = widen(builder, loc, k.getLowerBound());
  if (j == 0)
    return lb;
  Value step = widen(builder, loc, k.getStep());
  Value count = arith::ConstantOp::create(
      builder, loc, builder.getIntegerAttr(lb.getType(), j));
  return arith::AddIOp::create(
      builder, loc, lb, arith::MulIOp::create(builder, loc, step, count));
}

/// Where the tile's value goes: one buffer for the whole tile, or, when
/// `slabs` is set, one slot per slab (stored by its own copy).
struct TileBuffer {
  Value buffer;                   ///< the tile, or [slabs, rows, width]
  std::optional<TileSlabs> slabs; ///< when cut into slabs
  bool fence = false;             ///< see TileStore::fence (whole tiles only)
  Value desc;

  /// Slab `j` of `value` written into its slot and copied out at
  /// `indices` shifted by its columns.
  void emitSlab(OpBuilder &builder, Location loc, Value value,
                ValueRange indices, int64_t j) const {
    auto slotsType = cast<MemDescType>(buffer.getType());
    ArrayRef<int64_t> slotShape = slotsType.getShape().drop_front();
    auto slotType = MemDescType::get(
        builder.getContext(), slotShape, slotsType.getElementType(),
        slotsType.getEncoding(), slotsType.getMemorySpace(),
        /*mutableMemory=*/true, slotsType.getShape());
    Value slab = ExtractTileOp::create(builder, loc, slabs->slabType, value,
                                       ArrayRef<int64_t>{0, j * slabs->width});
    Value index = arith::ConstantIntOp::create(builder, loc, j, 32);
    Value slot = MemDescIndexOp::create(builder, loc, slotType, buffer, index);
    LocalStoreOp::create(builder, loc, slab, slot);
    SmallVector<Value> shifted(indices);
    if (j > 0) {
      Value offset = arith::ConstantIntOp::create(
          builder, loc, shifted.back().getType(), j * slabs->width);
      shifted.back() = arith::AddIOp::create(builder, loc, shifted.back(), offset);
    }
    AsyncTMACopyLocalToGlobalOp::create(builder, loc, desc, shifted, slot);
  }

  /// The whole tile's copy at `indices`, after writing `value` when set
  /// (a tile in slabs always has its value).
  void emitCopies(OpBuilder &builder, Location loc, Value value,
                  ValueRange indices) const {
    if (slabs) {
      for (int64_t j = 0; j < slabs->count; ++j)
        emitSlab(builder, loc, value, indices, j);
      return;
    }
    if (value)
      emitLocalStore(builder, loc, value, buffer, fence);
    AsyncTMACopyLocalToGlobalOp::create(builder, loc, desc, indices, buffer);
  }
};

/// `scf.if %cond { [wait for the previous copies; barrier;] the tile's
/// copies }`, writing `value` first when set.
void emitStoreIf(OpBuilder &builder, Location loc, Value cond, Value value,
                 ValueRange indices, const TileBuffer &tile) {
  auto ifOp = scf::IfOp::create(builder, loc, cond, /*withElseRegion=*/false);
  OpBuilder inside = ifOp.getThenBodyBuilder();
  if (value) {
    AsyncTMAStoreWaitOp::create(inside, loc, 0);
    BarrierOp::create(inside, loc);
  }
  tile.emitCopies(inside, loc, value, indices);
}

} // namespace

bool ttg::deferTileStore(scf::ForOp loop) {
  if (!loop->hasAttr(kRingAcrossTilesAttr))
    return false;
  std::optional<TileStore> found = match(loop);
  if (!found)
    return false;
  TileStore &store = *found;
  Location loc = store.copy.getLoc();
  Block *body = loop.getBody();
  SmallVector<Value> indices(store.copy.getIndices());

  // 1. The tile's buffer (or slab slots), allocated before T; T carries
  //    `pending`, the indices and, within the register budget, the tile's
  //    value.
  scf::ForOp k = store.kLoop;
  Value tile = store.tile.getSrc();
  bool carryTile = registersPerThread(tile.getType()) + registersLiveThrough(k) <=
                   kCarriedRegisterBudget;
  MemDescType tileType = store.tile.getType();
  TileBuffer buffer;
  buffer.desc = store.copy.getDesc();
  buffer.fence = static_cast<bool>(store.fence);
  // (Slabs only for K loops of 32-bit or narrower integers: compared in 64
  // bits, lb + j * step cannot wrap.)
  auto ivType = dyn_cast<IntegerType>(k.getInductionVar().getType());
  if (carryTile && !buffer.fence && ivType && ivType.getWidth() < 64)
    buffer.slabs = planTileSlabs(cast<RankedTensorType>(tile.getType()), tileType,
                                 store.copy.getDesc().getType().getBlockType());
  OpBuilder beforeLoop(loop);
  if (buffer.slabs)
    buffer.buffer = LocalAllocOp::create(
        beforeLoop, loc, slabSlotsType(tileType, *buffer.slabs, buffer.slabs->count),
        Value());
  else
    buffer.buffer = LocalAllocOp::create(
        beforeLoop, loc,
        MemDescType::get(tileType.getShape(), tileType.getElementType(),
                         tileType.getEncoding(), tileType.getMemorySpace(),
                         /*mutableMemory=*/true),
        Value());
  Value no = arith::ConstantIntOp::create(beforeLoop, loc, 0, 1);
  SmallVector<Value> inits(loop.getInitArgs());
  inits.push_back(no);
  for (Value index : indices)
    inits.push_back(arith::ConstantIntOp::create(beforeLoop, loc, index.getType(), 0));
  if (carryTile)
    inits.push_back(arith::ConstantOp::create(
        beforeLoop, loc, cast<TypedAttr>(beforeLoop.getZeroAttr(tile.getType()))));
  Value pending = body->addArgument(no.getType(), loc);
  SmallVector<Value> carriedIndices;
  for (Value index : indices)
    carriedIndices.push_back(body->addArgument(index.getType(), loc));
  Value carriedTile = carryTile ? body->addArgument(tile.getType(), loc) : Value();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  OpBuilder atYield(yield);
  yield->insertOperands(yield->getNumOperands(),
                        {arith::ConstantIntOp::create(atYield, loc, 1, 1)});
  yield->insertOperands(yield->getNumOperands(), indices);
  if (carryTile)
    yield->insertOperands(yield->getNumOperands(), {tile});
  else {
    OpBuilder atTile(store.tile);
    LocalStoreOp::create(atTile, loc, tile, buffer.buffer);
  }

  // 3. In K's first iteration: the wait before its ring ops; after them,
  //    the write and the copy of the whole tile, or of slab j in iteration
  //    j.
  OpBuilder beforeK(k);
  Value iv = k.getInductionVar();
  Value go; // iv == lb && pending
  if (carryTile && !buffer.slabs) {
    Operation *firstRingOp = nullptr;
    for (Operation &op : k.getBody()->without_terminator())
      if (isa<BarrierExpectOp, AsyncTMACopyGlobalToLocalOp>(op)) {
        firstRingOp = &op;
        break;
      }
    OpBuilder beforeRing(firstRingOp);
    Value first = arith::CmpIOp::create(beforeRing, loc, arith::CmpIPredicate::eq,
                                        iv, k.getLowerBound());
    go = arith::AndIOp::create(beforeRing, loc, first, pending);
    auto waitIf = scf::IfOp::create(beforeRing, loc, go, /*withElseRegion=*/false);
    OpBuilder inWait = waitIf.getThenBodyBuilder();
    AsyncTMAStoreWaitOp::create(inWait, loc, 0);
  }
  OpBuilder afterRing(store.lastRingCopy->getContext());
  afterRing.setInsertionPointAfter(store.lastRingCopy);
  if (!go && !buffer.slabs) {
    Value first = arith::CmpIOp::create(afterRing, loc, arith::CmpIPredicate::eq,
                                        iv, k.getLowerBound());
    go = arith::AndIOp::create(afterRing, loc, first, pending);
  }
  if (buffer.slabs) {
    // One test in the iterations past the slabs: iv < lb + slabs * step.
    Value wideIv = widen(afterRing, loc, iv);
    Value inSlabs = arith::AndIOp::create(
        afterRing, loc,
        arith::CmpIOp::create(afterRing, loc, arith::CmpIPredicate::slt, wideIv,
                              iterationValue(beforeK, loc, k, buffer.slabs->count)),
        pending);
    auto slabsIf = scf::IfOp::create(afterRing, loc, inSlabs, /*withElseRegion=*/false);
    OpBuilder inRange = slabsIf.getThenBodyBuilder();
    for (int64_t j = 0; j < buffer.slabs->count; ++j) {
      Value now = arith::CmpIOp::create(inRange, loc, arith::CmpIPredicate::eq, wideIv,
                                        iterationValue(beforeK, loc, k, j));
      auto slabIf = scf::IfOp::create(inRange, loc, now, /*withElseRegion=*/false);
      OpBuilder inSlab = slabIf.getThenBodyBuilder();
      if (j == 0) {
        // The previous tile's copies out of the slots have read them.
        AsyncTMAStoreWaitOp::create(inSlab, loc, 0);
        BarrierOp::create(inSlab, loc);
      }
      buffer.emitSlab(inSlab, loc, carriedTile, carriedIndices, j);
    }
  } else {
    auto storeIf = scf::IfOp::create(afterRing, loc, go, /*withElseRegion=*/false);
    OpBuilder inStore = storeIf.getThenBodyBuilder();
    buffer.emitCopies(inStore, loc, carriedTile, carriedIndices);
  }

  // 4. What a K loop without (enough) iterations left: where the epilogue's
  //    wait is.
  OpBuilder atWait(store.wait);
  if (buffer.slabs) {
    // Slab j was not stored when iteration j did not run.
    int64_t last = buffer.slabs->count - 1;
    Value ub = widen(atWait, loc, k.getUpperBound());
    auto missing = [&](OpBuilder &builder, int64_t j) {
      return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge,
                                   iterationValue(builder, loc, k, j), ub);
    };
    auto shortIf = scf::IfOp::create(
        atWait, loc, arith::AndIOp::create(atWait, loc, missing(atWait, last), pending),
        /*withElseRegion=*/false);
    OpBuilder inShort = shortIf.getThenBodyBuilder();
    AsyncTMAStoreWaitOp::create(inShort, loc, 0);
    BarrierOp::create(inShort, loc);
    for (int64_t j = 0; j <= last; ++j) {
      auto slabIf = scf::IfOp::create(inShort, loc, missing(inShort, j),
                                      /*withElseRegion=*/false);
      OpBuilder inSlab = slabIf.getThenBodyBuilder();
      buffer.emitSlab(inSlab, loc, carriedTile, carriedIndices, j);
    }
  } else {
    Value empty = arith::CmpIOp::create(atWait, loc, arith::CmpIPredicate::sge,
                                        k.getLowerBound(), k.getUpperBound());
    emitStoreIf(atWait, loc, arith::AndIOp::create(atWait, loc, empty, pending),
                carriedTile, carriedIndices, buffer);
  }

  store.copy->erase();
  store.tile->erase();
  if (carryTile) {
    Operation *epilogueBarrier = store.wait->getNextNode();
    epilogueBarrier->erase();
    store.wait->erase();
    if (store.fence)
      store.fence->erase();
  }

  unsigned pendingResult = loop.getNumResults();
  auto newLoop = scf::ForOp::create(beforeLoop, loop.getLoc(), loop.getLowerBound(),
                                    loop.getUpperBound(), loop.getStep(), inits);
  newLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  newLoop.getRegion().takeBody(loop.getRegion());
  loop->replaceAllUsesWith(newLoop.getResults().take_front(loop.getNumResults()));
  loop->erase();

  // 5. The last tile's store, before the wait after T.
  OpBuilder afterLoop(store.waitAfterLoop);
  emitStoreIf(afterLoop, loc, newLoop.getResult(pendingResult),
              carryTile ? newLoop.getResults().back() : Value(),
              newLoop.getResults().slice(pendingResult + 1, indices.size()), buffer);
  return true;
}

namespace {
struct TTGDeferTileStorePass
    : public ttg::impl::TTGDeferTileStorePassBase<TTGDeferTileStorePass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->hasAttr(kRingAcrossTilesAttr))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      deferTileStore(loop);
  }
};
} // namespace
