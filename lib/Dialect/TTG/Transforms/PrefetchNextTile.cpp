//===- PrefetchNextTile.cpp - ttg-prefetch-next-tile -----------------------===//
//
// A persistent kernel loops over output tiles, and for each tile runs a
// K loop that ttg-pipeline streamed through a ring: before the K loop, the
// tile's indices and the ring's first numStages - 1 copies (the K loop's
// prologue); after it, the drain (waits for the last MMAs and copies, the
// barriers invalidated) and the epilogue that stores the tile.  Left like
// that, every tile starts with the ring empty: the copies of its first
// stages wait for global memory while nothing else runs.  This pass issues
// the next tile's prologue before the current tile's epilogue, so its
// copies land while the epilogue converts and stores (what Triton gets by
// flattening the two loops, `tl.range(..., flatten=True)`).
//
// Algorithm, for every scf.for marked `tt.flatten` (the user asked for the
// tile loops to overlap) whose body is [head] [K loop] [drain] [epilogue]:
//   1. The head's ops must be pure (tensor maps made in the kernel
//      excepted: each is rewritten in place), shared buffers without an initial
//      value (the rings and barriers), the prologue's copies and barrier
//      operations, or loads; its values must not depend on the loop's
//      iteration arguments (the induction variable aside).  Ops before the
//      K loop with other effects (a store, an atomic, a print) and the ops
//      that read their results are not part of the head: they stay where
//      they are, in their tile's iteration, and read the carried values;
//      the head must not need them (so this tile's prologue copies may be
//      issued before them, as in Triton's flattened loop), and no load of
//      the head may follow them (it could read what they write).  Otherwise, or
//      when the rings plus the epilogue's shared tiles would not fit in
//      shared memory at once, the loop is left alone.
//   2. The buffers, and the head's ops that only depend on values from
//      outside the loop, move before the loop: the rings now live across
//      the whole loop, so no epilogue tile shares their bytes.  (When the
//      epilogue's TMA-stored tile is what does not fit, the loop is left
//      alone here: ttg-subtile-tma-store, run before, stores such a tile a
//      slab at a time through two slots where that fits.)
//   3. Before the loop, the rest of the head runs for the first tile: its
//      index arithmetic at %lb, its effects (barrier inits, copies, loads)
//      under `scf.if %lb < %ub`.
//   4. The loop carries the head's values that the K loop and the epilogue
//      read; after the drain, the head of tile i + 1 runs: its index
//      arithmetic at %iv + %step (at %iv past the last tile, so that it
//      never computes a tile that does not exist), its effects under
//      `scf.if %iv + %step < %ub`; its values are yielded to the next
//      iteration.  The arithmetic stays outside the `scf.if` so that the
//      axis information of the carried offsets and pointers stays exact (a
//      yielded placeholder would join with them).  The drain invalidated
//      the barriers; the next head initializes them again.  The new loop
//      is marked kPrefetchedNextTileAttr.
// The passes after this one rewrite the marked loops further:
// ttg-defer-tma-store-wait, ttg-continue-ring-across-tiles and
// ttg-defer-tile-store.
// The epilogue's loads and stores then run after the next tile's copies
// were issued: the flatten request is the user's statement that a tile's
// stores and the following tiles' loads do not overlap in memory.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"

namespace tritium::ttg {
#define GEN_PASS_DEF_TTGPREFETCHNEXTTILEPASS
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"
} // namespace tritium::ttg

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

namespace {

/// A shared buffer made without a value: a ring or a barrier array.
bool isEmptyBuffer(Operation *op) {
  auto alloc = dyn_cast<LocalAllocOp>(op);
  return alloc && !alloc.getSrc();
}

/// The ops a K loop's prologue is made of (besides pure ones).
bool isPrologueEffect(Operation *op) {
  return isa<InitBarrierOp, BarrierExpectOp, AsyncTMACopyGlobalToLocalOp,
             AsyncCopyGlobalToLocalOp, AsyncCommitGroupOp, FenceAsyncSharedOp,
             tt::LoadOp>(op);
}

/// The ops that end a pipelined K loop's tile.
bool isDrain(Operation *op) {
  return isa<WarpGroupDotWaitOp, AsyncWaitOp, InvalBarrierOp>(op);
}

Value zeroOf(OpBuilder &builder, Location loc, Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return arith::ConstantOp::create(builder, loc, tensor,
                                     builder.getZeroAttr(tensor));
  return arith::ConstantOp::create(builder, loc, type,
                                   builder.getZeroAttr(type));
}

class TileLoop {
public:
  explicit TileLoop(scf::ForOp loop) : loop(loop) {}

  /// Splits the body; false when the loop does not have the shape above.
  bool analyze() {
    Block *body = loop.getBody();
    for (Operation &op : body->without_terminator())
      if (auto inner = dyn_cast<scf::ForOp>(&op)) {
        if (kLoop)
          return false; // one K loop per tile
        kLoop = inner;
      }
    if (!kLoop)
      return false;
    bool prologue = false;
    DenseSet<Operation *> stays;
    for (Operation &op : body->without_terminator()) {
      if (&op == kLoop.getOperation())
        break;
      // (a tensor map made per tile is rewritten in place: the next
      // tile's would replace this tile's before its epilogue stores)
      if (op.getNumRegions() != 0 || isa<tt::MakeTensorDescOp>(op))
        return false;
      if (isa<AsyncTMACopyGlobalToLocalOp, AsyncCopyGlobalToLocalOp>(op))
        prologue = true;
      // Other effects (a store, an atomic, a print) and what reads their
      // results stay in this tile's iteration; the prologue must not need
      // them.
      bool readsStaying = llvm::any_of(op.getOperands(), [&](Value v) {
        return v.getDefiningOp() && stays.contains(v.getDefiningOp());
      });
      bool otherEffect = !isEmptyBuffer(&op) && !isPrologueEffect(&op) &&
                         !isMemoryEffectFree(&op);
      if (otherEffect || readsStaying) {
        if (isEmptyBuffer(&op) || isPrologueEffect(&op))
          return false;
        stays.insert(&op);
        continue;
      }
      // A load after a staying op would run before it once hoisted a tile
      // ahead, and might read what it writes: left alone.
      if (isa<tt::LoadOp>(op) && !stays.empty())
        return false;
      for (Value operand : op.getOperands())
        if (auto arg = dyn_cast<BlockArgument>(operand))
          if (arg.getOwner() == body && arg != loop.getInductionVar())
            return false;
      head.push_back(&op);
    }
    if (!prologue)
      return false; // the K loop was not pipelined
    // The drain's ops may have their barrier views and constants between
    // them: the next head goes after the last drain op.
    drainEnd = kLoop->getNextNode();
    for (Operation *op = kLoop->getNextNode(); op; op = op->getNextNode()) {
      if (isDrain(op))
        drainEnd = op->getNextNode();
      else if (op->getNumRegions() != 0 || !isMemoryEffectFree(op))
        break;
    }
    if (fitsInSharedMemory(nullptr))
      return true;
    // The epilogue's tile, stored a slab at a time, may make room.
    for (Operation *op = kLoop->getNextNode(); op; op = op->getNextNode())
      if (auto tile = dyn_cast<LocalAllocOp>(op))
        if (std::optional<SubtiledStorePlan> plan = planSubtiledStore(tile))
          if (fitsInSharedMemory(&*plan)) {
            subtiled = plan;
            return true;
          }
    return false;
  }

  /// The plan that would make the loop fit when analyze() found that only
  /// its epilogue's tile, stored a slab at a time, would (the loop is then
  /// not rewritten here).
  const std::optional<SubtiledStorePlan> &subtiledStore() const {
    return subtiled;
  }

  scf::ForOp rewrite() {
    assert(!subtiled && "the subtiled store is ttg-subtile-tma-store's");
    // 2. Buffers and loop-invariant ops move before the loop.
    DenseSet<Operation *> hoisted;
    SmallVector<Operation *> rest;
    for (Operation *op : head) {
      bool invariant =
          isEmptyBuffer(op) ||
          (isMemoryEffectFree(op) &&
           llvm::all_of(op->getOperands(), [&](Value v) {
             Operation *def = v.getDefiningOp();
             return def ? (hoisted.contains(def) ||
                           !loop->isAncestor(def))
                        : !loop->isAncestor(
                              v.getParentRegion()->getParentOp());
           }));
      if (invariant) {
        op->moveBefore(loop);
        hoisted.insert(op);
      } else {
        rest.push_back(op);
      }
    }
    // The values of the rest that the K loop, the drain or the epilogue read.
    DenseSet<Operation *> inRest(rest.begin(), rest.end());
    SmallVector<Value> carried;
    for (Operation *op : rest)
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              return !inRest.contains(
                  loop.getBody()->findAncestorOpInBlock(*user));
            }))
          carried.push_back(result);
    SmallVector<Type> types;
    for (Value v : carried)
      types.push_back(v.getType());

    // 3. The first tile's head, before the loop.
    Location loc = loop.getLoc();
    OpBuilder builder(loop);
    Value first = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                        loop.getLowerBound(),
                                        loop.getUpperBound());
    SmallVector<Value> firstHead =
        emitHead(builder, loc, first, rest, carried, loop.getLowerBound());

    // 4. The loop carries them; the next tile's head runs after the drain.
    Block *body = loop.getBody();
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    OpBuilder inLoop(drainEnd);
    Value next = arith::AddIOp::create(inLoop, loc, loop.getInductionVar(),
                                       loop.getStep());
    Value exists = arith::CmpIOp::create(inLoop, loc, arith::CmpIPredicate::slt,
                                         next, loop.getUpperBound());
    // Past the last tile the index arithmetic recomputes this tile's.
    Value valid = arith::SelectOp::create(inLoop, loc, exists, next,
                                          loop.getInductionVar());
    SmallVector<Value> nextHead =
        emitHead(inLoop, loc, exists, rest, carried, valid);
    for (auto [value, type] : llvm::zip(carried, types)) {
      BlockArgument arg = body->addArgument(type, value.getLoc());
      value.replaceUsesWithIf(arg, [&](OpOperand &use) {
        return !inRest.contains(use.getOwner());
      });
    }
    yield->insertOperands(yield->getNumOperands(), nextHead);

    SmallVector<Value> inits(loop.getInitArgs());
    llvm::append_range(inits, firstHead);
    auto newLoop =
        scf::ForOp::create(builder, loc, loop.getLowerBound(),
                           loop.getUpperBound(), loop.getStep(), inits);
    newLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
    newLoop.getRegion().takeBody(loop.getRegion());
    loop->replaceAllUsesWith(
        newLoop.getResults().take_front(loop.getNumResults()));
    loop->erase();
    for (Operation *op : llvm::reverse(rest))
      op->erase();
    newLoop->setAttr(kPrefetchedNextTileAttr, builder.getUnitAttr());
    return newLoop;
  }

private:
  /// The head ops `rest` with the induction variable at `iv`; returns the
  /// `carried` values.  The index arithmetic runs unconditionally, so that
  /// the axis information of the carried offsets and pointers stays exact;
  /// the ops with effects (barrier inits, copies, loads) and what depends on
  /// them run under `scf.if %cond`, which yields zeros when it does not run.
  SmallVector<Value> emitHead(OpBuilder &builder, Location loc, Value cond,
                              ArrayRef<Operation *> rest,
                              ArrayRef<Value> carried, Value iv) {
    IRMapping mapping;
    mapping.map(loop.getInductionVar(), iv);
    DenseSet<Operation *> guarded;
    for (Operation *op : rest) {
      bool dependsOnGuarded = llvm::any_of(op->getOperands(), [&](Value v) {
        Operation *def = v.getDefiningOp();
        return def && guarded.contains(def);
      });
      if (isMemoryEffectFree(op) && !dependsOnGuarded)
        builder.clone(*op, mapping);
      else
        guarded.insert(op);
    }
    SmallVector<Value> fromIf;
    for (Value v : carried)
      if (guarded.contains(v.getDefiningOp()))
        fromIf.push_back(v);
    auto ifOp = scf::IfOp::create(builder, loc, ValueRange(fromIf).getTypes(),
                                  cond, /*withElseRegion=*/!fromIf.empty());
    OpBuilder thenBuilder = ifOp.getThenBodyBuilder();
    IRMapping inside = mapping;
    for (Operation *op : rest)
      if (guarded.contains(op))
        thenBuilder.clone(*op, inside);
    if (!fromIf.empty()) {
      SmallVector<Value> yielded, zeros;
      for (Value v : fromIf)
        yielded.push_back(inside.lookup(v));
      scf::YieldOp::create(thenBuilder, loc, yielded);
      OpBuilder elseBuilder = ifOp.getElseBodyBuilder();
      for (Value v : fromIf)
        zeros.push_back(zeroOf(elseBuilder, loc, v.getType()));
      scf::YieldOp::create(elseBuilder, loc, zeros);
    }
    for (auto [v, result] : llvm::zip(fromIf, ifOp.getResults()))
      mapping.map(v, result);
    SmallVector<Value> values;
    for (Value v : carried)
      values.push_back(mapping.lookup(v));
    return values;
  }

  /// The rings and barriers, live across the loop once hoisted, plus what
  /// the epilogue keeps in shared memory at once (its tiles, or the largest
  /// layout conversion's scratch), within the budget; with `subtile`, its
  /// slots (also live across the loop) instead of its tile.
  bool fitsInSharedMemory(const SubtiledStorePlan *subtile) {
    int64_t buffers = subtile ? sharedBytesOf(subtile->slotsType) : 0;
    for (Operation *op : head)
      if (isEmptyBuffer(op))
        buffers += sharedBytesOf(op->getResult(0).getType());
    int64_t tiles = 0, scratch = 0;
    loop.getBody()->walk([&](Operation *op) {
      if (kLoop->isAncestor(op) || llvm::is_contained(head, op))
        return;
      if (subtile && op == subtile->tile)
        return;
      if (auto alloc = dyn_cast<LocalAllocOp>(op))
        tiles += sharedBytesOf(alloc.getType());
      else if (isa<ConvertLayoutOp>(op) && !op->use_empty()) // (dead ones
        // go at the next cleanup: lower-tensor-descriptors leaves the store's)
        scratch = std::max(scratch, sharedBytesOf(op->getResult(0).getType()));
    });
    return buffers + std::max(tiles, scratch) <= kTileLoopSharedBudget;
  }

  scf::ForOp loop;
  scf::ForOp kLoop;
  SmallVector<Operation *> head;
  Operation *drainEnd = nullptr;
  /// The epilogue's store, a slab at a time, when the whole tile would not
  /// fit beside the rings.
  std::optional<SubtiledStorePlan> subtiled;
};

} // namespace

int64_t ttg::sharedBytesOf(Type type) {
  int64_t elements = 1;
  Type element;
  if (auto memdesc = dyn_cast<MemDescType>(type)) {
    for (int64_t d : memdesc.getShape())
      elements *= d;
    element = memdesc.getElementType();
  } else if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    elements = tensor.getNumElements();
    element = tensor.getElementType();
  } else {
    return 0;
  }
  unsigned bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
  return elements * std::max(8u, bits) / 8;
}

std::optional<SubtiledStorePlan>
ttg::planSubtiledStoreForPrefetch(scf::ForOp tileLoop) {
  if (!tileLoop->hasAttr("tt.flatten"))
    return std::nullopt;
  TileLoop tiles(tileLoop);
  if (!tiles.analyze())
    return std::nullopt;
  return tiles.subtiledStore();
}

scf::ForOp ttg::prefetchNextTile(scf::ForOp tileLoop) {
  if (!tileLoop->hasAttr("tt.flatten"))
    return {};
  TileLoop tiles(tileLoop);
  if (!tiles.analyze() || tiles.subtiledStore())
    return {};
  return tiles.rewrite();
}

namespace {
struct TTGPrefetchNextTilePass
    : public ttg::impl::TTGPrefetchNextTilePassBase<TTGPrefetchNextTilePass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->hasAttr("tt.flatten"))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      prefetchNextTile(loop);
  }
};
} // namespace
