//===- ContinueRingAcrossTiles.cpp - ttg-continue-ring-across-tiles ------===//
//
// After ttg-prefetch-next-tile, a tile loop marked tt.flatten issues the
// next tile's ring prologue (its first numStages - 1 copies) after the K
// loop's drain, before the epilogue.  Those copies then have only the
// epilogue to land in, and the barriers are invalidated and initialized
// again for every tile: on the H100 (persistent 128x256x64 matmul,
// 8192x8192 output, 2026-11-27) about 1,200 cycles per tile transition that
// a flattened loop does not spend.
//
// This pass makes the K loops of consecutive tiles share one ring, the way
// a flattened loop would: the K loop's last numStages - 1 iterations, whose
// copies of the current tile would be past its end, issue the next tile's
// first copies instead, and the ring's slot indices and phases carry from
// one tile's K loop to the next.
//
// Algorithm, for a tile loop T that ttg-prefetch-next-tile rewrote (marked
// ttg.prefetched_next_tile) whose one K
// loop K streams only TMA copies through barrier rings:
//   1. K's copies and barrier expects share one predicate
//      `%shifted < ub` with `%shifted = %iv + d * step` (d iterations
//      ahead); K's bounds are the same for every tile; the ring state (the
//      slot indices that select barriers and the phases waited for) is
//      K's iteration arguments that index barriers or feed wait_barrier,
//      started from values defined outside T.  Otherwise T is left alone.
//   2. Before T: `cross = tripcount(K) >= d` (a K loop shorter than the
//      lookahead cannot hold the next tile's whole prologue: then every
//      tile keeps today's prologue and barrier re-initialization).
//   3. The next tile's values that T carries (its offsets) are computed
//      before K instead of after the drain (pure index arithmetic);
//      `cont = %t + step < ub(T) && cross`.
//   4. Each copy's coordinates become `select(%issue, cur, next)`, where
//      `next` is the same computation with the carried values replaced by
//      the next tile's, T's induction variable by `%t + step` (coordinates
//      computed from the tile index inside K) and `%shifted` by
//      `%shifted - tripcount * step`; the predicate of the copies and
//      expects becomes `%issue || cont`.
//   5. The drain's barrier invalidations run under `scf.if !cont`; the next
//      tile's head (barrier inits and prologue copies) under
//      `scf.if exists && !cross`.
//   6. T carries the ring state: K starts from T's arguments, and T yields
//      K's final state when `cont`, the initial values otherwise (the
//      barriers were then initialized again).
//   7. The new T is marked ttg.ring_across_tiles (ttg-defer-tile-store
//      looks for it).
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tritium::ttg {
#define GEN_PASS_DEF_TTGCONTINUERINGACROSSTILESPASS
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"
} // namespace tritium::ttg

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

namespace {

/// Whether `v` is available before `loop` (defined outside it).
bool definedOutside(Value v, scf::ForOp loop) {
  if (Operation *def = v.getDefiningOp())
    return !loop->isAncestor(def);
  return !loop->isAncestor(v.getParentRegion()->getParentOp());
}

/// `v` when it is a constant or constant arithmetic (the pipeliner's
/// lookahead `step * d` is not folded yet when this runs).
std::optional<int64_t> foldedConstant(Value v) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return c;
  Operation *def = v.getDefiningOp();
  if (!isa_and_nonnull<arith::MulIOp, arith::AddIOp>(def))
    return std::nullopt;
  std::optional<int64_t> lhs = foldedConstant(def->getOperand(0));
  std::optional<int64_t> rhs = foldedConstant(def->getOperand(1));
  if (!lhs || !rhs)
    return std::nullopt;
  return isa<arith::MulIOp>(def) ? *lhs * *rhs : *lhs + *rhs;
}

/// The K loop's iteration argument that `v` is, or -1.
int iterArgIndex(Value v, scf::ForOp kLoop) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != kLoop.getBody() || arg.getArgNumber() == 0)
    return -1;
  return arg.getArgNumber() - 1;
}

/// The iteration argument that indexes the barrier array view `barrier`.
int barrierSlotArg(Value barrier, scf::ForOp kLoop) {
  auto view = barrier.getDefiningOp<MemDescIndexOp>();
  return view ? iterArgIndex(view.getIndex(), kLoop) : -1;
}

class SharedRing {
public:
  explicit SharedRing(scf::ForOp tileLoop) : tileLoop(tileLoop) {}

  bool analyze() {
    Block *body = tileLoop.getBody();
    for (Operation &op : body->without_terminator())
      if (auto inner = dyn_cast<scf::ForOp>(&op)) {
        if (kLoop)
          return false;
        kLoop = inner;
      }
    if (!kLoop || !definedOutside(kLoop.getLowerBound(), tileLoop) ||
        !definedOutside(kLoop.getUpperBound(), tileLoop))
      return false;
    std::optional<int64_t> step = getConstantIntValue(kLoop.getStep());
    if (!step || *step <= 0)
      return false;
    return analyzeCopies(*step) && analyzeRingState() && analyzeTileBody();
  }

  scf::ForOp rewrite() {
    Location loc = tileLoop.getLoc();
    // 2. Whether the K loop can hold the next tile's prologue.
    OpBuilder before(tileLoop);
    Type ivType = kLoop.getInductionVar().getType();
    auto constant = [&](OpBuilder &b, int64_t v) -> Value {
      return arith::ConstantOp::create(b, loc, ivType,
                                       b.getIntegerAttr(ivType, v));
    };
    Value span = arith::SubIOp::create(before, loc, kLoop.getUpperBound(),
                                       kLoop.getLowerBound());
    Value trips = arith::DivSIOp::create(
        before, loc,
        arith::AddIOp::create(before, loc, span, constant(before, step - 1)),
        constant(before, step));
    Value cross = arith::CmpIOp::create(before, loc, arith::CmpIPredicate::sge,
                                        trips, constant(before, lookahead));
    Value tileSpan =
        arith::MulIOp::create(before, loc, trips, constant(before, step));

    // 3. The next tile's carried values, before the K loop.
    OpBuilder atK(kLoop);
    nextTile = arith::AddIOp::create(atK, loc, tileLoop.getInductionVar(),
                                     tileLoop.getStep());
    Value exists = arith::CmpIOp::create(atK, loc, arith::CmpIPredicate::slt,
                                         nextTile, tileLoop.getUpperBound());
    cont = arith::AndIOp::create(atK, loc, exists, cross);
    // (in the tile loop's argument order, so that the output is the same
    // from one compile to the next)
    for (BlockArgument arg : tileLoop.getRegionIterArgs())
      if (Value next = nextCarried.lookup(arg))
        hoistBeforeK(next);

    // 4. The copies' coordinates and predicates.
    OpBuilder atShifted(kLoop.getContext());
    atShifted.setInsertionPointAfter(shifted.getDefiningOp());
    shiftedNext = arith::SubIOp::create(atShifted, loc, shifted, tileSpan);
    OpBuilder atIssue(kLoop.getContext());
    atIssue.setInsertionPointAfter(issue.getDefiningOp());
    Value issueOrNext = arith::OrIOp::create(atIssue, loc, issue, cont);
    for (Operation *op : issuers) {
      if (auto copy = dyn_cast<AsyncTMACopyGlobalToLocalOp>(op)) {
        OpBuilder atCopy(copy);
        for (OpOperand &index : copy.getIndicesMutable()) {
          Value next = forNextTile(index.get(), copy);
          if (next != index.get())
            index.set(arith::SelectOp::create(atCopy, loc, issue, index.get(),
                                              next));
        }
        copy.getPredMutable().assign(issueOrNext);
      } else {
        cast<BarrierExpectOp>(op).getPredMutable().assign(issueOrNext);
      }
    }

    // 5. Barriers invalidated only when the ring stops here; the next
    // tile's head only when the ring could not continue.
    OpBuilder atInval(kLoop.getContext());
    atInval.setInsertionPointAfter(invals.back());
    Value stop = arith::XOrIOp::create(
        atInval, loc, cont,
        arith::ConstantOp::create(atInval, loc, atInval.getBoolAttr(true)));
    auto stopIf = scf::IfOp::create(atInval, loc, TypeRange{}, stop, false);
    for (Operation *inval : invals)
      inval->moveBefore(stopIf.thenBlock()->getTerminator());
    OpBuilder atHead(headIf);
    Value notCross = arith::XOrIOp::create(
        atHead, loc, cross,
        arith::ConstantOp::create(atHead, loc, atHead.getBoolAttr(true)));
    headIf.getConditionMutable().assign(arith::AndIOp::create(
        atHead, loc, headIf.getCondition(), notCross));

    // 6. The tile loop carries the ring state.
    Block *body = tileLoop.getBody();
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    OpBuilder atYield(yield);
    SmallVector<Value> inits(tileLoop.getInitArgs());
    SmallVector<Value> carriedOut;
    for (unsigned index : ringArgs) {
      Value start = kLoop.getInitArgs()[index];
      inits.push_back(start);
      BlockArgument arg = body->addArgument(start.getType(), start.getLoc());
      kLoop.getInitArgsMutable()[index].assign(arg);
      carriedOut.push_back(arith::SelectOp::create(
          atYield, loc, cont, kLoop.getResult(index), start));
    }
    yield->insertOperands(yield->getNumOperands(), carriedOut);
    OpBuilder atLoop(tileLoop);
    auto newLoop = scf::ForOp::create(atLoop, loc, tileLoop.getLowerBound(),
                                      tileLoop.getUpperBound(),
                                      tileLoop.getStep(), inits);
    newLoop->setDiscardableAttrs(tileLoop->getDiscardableAttrDictionary());
    newLoop.getRegion().takeBody(tileLoop.getRegion());
    tileLoop->replaceAllUsesWith(
        newLoop.getResults().take_front(tileLoop.getNumResults()));
    tileLoop->erase();
    return newLoop;
  }

private:
  /// 1. The ring copies of the K loop and their shared predicate.
  bool analyzeCopies(int64_t loopStep) {
    step = loopStep;
    bool nestedRingOps = false;
    kLoop.getBody()->walk([&](Operation *op) {
      bool direct = op->getBlock() == kLoop.getBody();
      if (isa<AsyncTMACopyGlobalToLocalOp, BarrierExpectOp, WaitBarrierOp>(
              op)) {
        if (!direct)
          nestedRingOps = true;
        else if (!isa<WaitBarrierOp>(op))
          issuers.push_back(op);
      } else if (isa<AsyncCopyGlobalToLocalOp, InitBarrierOp, InvalBarrierOp>(
                     op)) {
        nestedRingOps = true; // (cp.async groups or barriers of its own: left alone)
      }
    });
    if (nestedRingOps || issuers.empty())
      return false;
    for (Operation *op : issuers) {
      Value pred = isa<AsyncTMACopyGlobalToLocalOp>(op)
                       ? cast<AsyncTMACopyGlobalToLocalOp>(op).getPred()
                       : cast<BarrierExpectOp>(op).getPred();
      if (issue && pred != issue)
        return false;
      issue = pred;
    }
    auto cmp = issue.getDefiningOp<arith::CmpIOp>();
    if (!cmp || cmp->getBlock() != kLoop.getBody() ||
        cmp.getPredicate() != arith::CmpIPredicate::slt ||
        cmp.getRhs() != kLoop.getUpperBound())
      return false;
    shifted = cmp.getLhs();
    auto add = shifted.getDefiningOp<arith::AddIOp>();
    if (!add || add->getBlock() != kLoop.getBody())
      return false;
    Value iv = kLoop.getInductionVar();
    Value other = add.getLhs() == iv ? add.getRhs() : add.getLhs();
    std::optional<int64_t> ahead = foldedConstant(other);
    if ((add.getLhs() != iv && add.getRhs() != iv) || !ahead ||
        *ahead <= 0 || *ahead % step != 0)
      return false;
    lookahead = *ahead / step;
    // The predicate guards the ring's issue and nothing else.
    return llvm::all_of(issue.getUsers(), [&](Operation *user) {
      return llvm::is_contained(issuers, user);
    });
  }

  /// 1. The ring state: slot indices of barriers and waited phases.
  bool analyzeRingState() {
    SetVector<unsigned> state;
    bool ok = true;
    auto add = [&](int index) {
      if (index < 0)
        ok = false;
      else
        state.insert(index);
    };
    for (Operation &op : kLoop.getBody()->without_terminator()) {
      if (auto wait = dyn_cast<WaitBarrierOp>(&op)) {
        add(barrierSlotArg(wait.getAlloc(), kLoop));
        add(iterArgIndex(wait.getPhase(), kLoop));
      } else if (auto expect = dyn_cast<BarrierExpectOp>(&op)) {
        add(barrierSlotArg(expect.getAlloc(), kLoop));
      } else if (auto copy = dyn_cast<AsyncTMACopyGlobalToLocalOp>(&op)) {
        add(barrierSlotArg(copy.getBarrier(), kLoop));
      }
    }
    if (!ok || state.empty())
      return false;
    for (unsigned index : state) {
      Value init = kLoop.getInitArgs()[index];
      if (!init.getType().isSignlessInteger() ||
          !definedOutside(init, tileLoop))
        return false;
    }
    ringArgs.assign(state.begin(), state.end());
    return true;
  }

  /// 1. The drain's invalidations, the next tile's head, and which of the
  /// tile loop's carried values the next tile's can be computed early for.
  bool analyzeTileBody() {
    Block *body = tileLoop.getBody();
    for (Operation *op = kLoop->getNextNode(); op; op = op->getNextNode()) {
      if (isa<InvalBarrierOp>(op)) {
        if (headIf)
          return false;
        invals.push_back(op);
      } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
        bool inits = false, other = false;
        ifOp.getThenRegion().walk([&](Operation *inner) {
          if (isa<InitBarrierOp>(inner))
            inits = true;
          else if (!isa<BarrierExpectOp, AsyncTMACopyGlobalToLocalOp,
                        scf::YieldOp>(inner) &&
                   !isMemoryEffectFree(inner))
            other = true;
        });
        if (!inits)
          continue;
        if (headIf || other || ifOp.getNumResults() != 0)
          return false;
        headIf = ifOp;
      }
    }
    if (invals.empty() || !headIf)
      return false;
    // The next tile's value of each carried value the copies read.
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    for (BlockArgument arg : tileLoop.getRegionIterArgs()) {
      Value next = yield.getOperand(arg.getArgNumber() - 1);
      if (canHoistBeforeK(next))
        nextCarried[arg] = next;
    }
    // Every copy's coordinates must have a next-tile form.
    for (Operation *op : issuers)
      if (auto copy = dyn_cast<AsyncTMACopyGlobalToLocalOp>(op)) {
        if (!definedOutside(copy.getDesc(), tileLoop))
          return false;
        for (Value index : copy.getIndices())
          if (!hasNextForm(index))
            return false;
      }
    return true;
  }

  /// Whether `v` is computed by pure ops of the tile loop's body from values
  /// outside it, its induction variable, or ops before the K loop.
  bool canHoistBeforeK(Value v) {
    if (definedOutside(v, tileLoop))
      return true;
    if (auto arg = dyn_cast<BlockArgument>(v))
      return arg.getOwner() == tileLoop.getBody();
    Operation *def = v.getDefiningOp();
    if (def->getBlock() != tileLoop.getBody())
      return false;
    if (def->isBeforeInBlock(kLoop))
      return true;
    if (def == kLoop.getOperation() || def->getNumRegions() != 0 ||
        !isMemoryEffectFree(def))
      return false;
    return llvm::all_of(def->getOperands(),
                        [&](Value operand) { return canHoistBeforeK(operand); });
  }

  void hoistBeforeK(Value v) {
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != tileLoop.getBody() ||
        def->isBeforeInBlock(kLoop))
      return;
    for (Value operand : def->getOperands())
      hoistBeforeK(operand);
    def->moveBefore(kLoop);
  }

  /// Whether the next tile's value of `v` (a copy coordinate) can be formed.
  bool hasNextForm(Value v) {
    if (v == shifted || v == tileLoop.getInductionVar() ||
        definedOutside(v, tileLoop))
      return true;
    if (auto arg = dyn_cast<BlockArgument>(v))
      return arg.getOwner() == tileLoop.getBody() && nextCarried.count(arg);
    Operation *def = v.getDefiningOp();
    if (def->getNumRegions() != 0 || !isMemoryEffectFree(def) ||
        def == kLoop.getOperation())
      return false;
    if (def->getBlock() != kLoop.getBody() &&
        def->getBlock() != tileLoop.getBody())
      return false;
    return llvm::all_of(def->getOperands(),
                        [&](Value operand) { return hasNextForm(operand); });
  }

  /// The next tile's value of `v`, cloning what differs: before `copy` for
  /// ops of the K loop, before the K loop for ops of the tile loop's body.
  Value forNextTile(Value v, Operation *copy) {
    if (auto it = nextOf.find(v); it != nextOf.end())
      return it->second;
    Value result = v;
    if (v == shifted) {
      result = shiftedNext;
    } else if (v == tileLoop.getInductionVar()) {
      result = nextTile; // (past the last tile, `cont` keeps this tile's)
    } else if (definedOutside(v, tileLoop)) {
      result = v;
    } else if (auto arg = dyn_cast<BlockArgument>(v)) {
      result = nextCarried.lookup(arg);
    } else {
      Operation *def = v.getDefiningOp();
      IRMapping mapping;
      bool differs = false;
      for (Value operand : def->getOperands()) {
        Value next = forNextTile(operand, copy);
        mapping.map(operand, next);
        differs |= next != operand;
      }
      if (differs) {
        OpBuilder builder(def->getBlock() == kLoop.getBody() ? copy
                                                             : kLoop.getOperation());
        Operation *clone = builder.clone(*def, mapping);
        result = clone->getResult(cast<OpResult>(v).getResultNumber());
      }
    }
    nextOf[v] = result;
    return result;
  }

  scf::ForOp tileLoop;
  scf::ForOp kLoop;
  int64_t step = 1, lookahead = 1;
  SmallVector<Operation *> issuers; // the K loop's copies and expects
  Value issue, shifted, shiftedNext, cont, nextTile;
  SmallVector<unsigned> ringArgs;
  SmallVector<Operation *> invals;
  scf::IfOp headIf;
  DenseMap<BlockArgument, Value> nextCarried;
  DenseMap<Value, Value> nextOf;
};

} // namespace

scf::ForOp ttg::continueRingAcrossTiles(scf::ForOp tileLoop) {
  if (!tileLoop->hasAttr(kPrefetchedNextTileAttr))
    return {};
  SharedRing ring(tileLoop);
  if (!ring.analyze())
    return {};
  scf::ForOp shared = ring.rewrite();
  shared->setAttr(kRingAcrossTilesAttr, UnitAttr::get(shared.getContext()));
  return shared;
}

namespace {
struct TTGContinueRingAcrossTilesPass
    : public ttg::impl::TTGContinueRingAcrossTilesPassBase<
          TTGContinueRingAcrossTilesPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->hasAttr(kPrefetchedNextTileAttr))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      continueRingAcrossTiles(loop);
  }
};
} // namespace
