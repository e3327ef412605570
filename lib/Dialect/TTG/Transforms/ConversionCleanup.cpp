//===- ConversionCleanup.cpp - cleanup of remove-layout-conversions -------===//
//
// Runs after each step of ttg-remove-layout-conversions and removes what the
// step leaves behind: conversions between equal layouts, conversions of
// conversions, two conversions of one value to one type (hoisting converts
// a load once per conversion it moves up to it), ops whose results nobody
// uses any more (the originals of rematerialized and hoisted values), and
// loop-carried values that the loop still computes although only the
// computation of the next iteration reads them (a loop carried in the old
// layout next to one in the new).
//
// Algorithm, repeated until nothing changes:
//   1. convert(convert(x)) becomes convert(x); convert(x) to x's own type
//      becomes x; of two conversions of x to one type in one block, the
//      later one is replaced by the earlier; a local_alloc or local_store
//      of convert(x) stores x (any distributed layout but a dot operand's).
//   2. A carried value of an scf.for whose result is unused and whose
//      iteration argument only flows, through pure ops of the body, into its
//      own yield is dropped: the loop is rebuilt without it.
//   3. Dead-code elimination over the function's regions.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/BitVector.h"

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

namespace {
/// Step 1; true if a conversion changed.
bool foldConversions(Operation *funcOp) {
  bool changed = false;
  // The first conversion of each value to each type in each block; the walk
  // visits the ops of a block in order.
  DenseMap<std::tuple<Value, Type, Block *>, ConvertLayoutOp> first;
  funcOp->walk([&](ConvertLayoutOp op) {
    if (auto inner = op.getSrc().getDefiningOp<ConvertLayoutOp>()) {
      op.getSrcMutable().assign(inner.getSrc());
      changed = true;
    }
    if (op->use_empty())
      return;
    if (op.getSrc().getType() == op.getType()) {
      op.getResult().replaceAllUsesWith(op.getSrc());
      changed = true;
      return;
    }
    auto [it, inserted] =
        first.insert({{op.getSrc(), op.getType(), op->getBlock()}, op});
    if (!inserted) {
      op.getResult().replaceAllUsesWith(it->second.getResult());
      changed = true;
    }
  });
  // A shared tile written from a converted value is written from the value
  // itself (the store into shared memory takes any distributed layout; a
  // dot operand's excepted): the conversion's own round trip through shared
  // memory goes.
  funcOp->walk([&](Operation *op) {
    OpOperand *src = nullptr;
    if (auto alloc = dyn_cast<LocalAllocOp>(op); alloc && alloc.getSrc())
      src = &alloc.getSrcMutable()[0];
    else if (auto store = dyn_cast<LocalStoreOp>(op))
      src = &store.getSrcMutable();
    if (!src)
      return;
    auto convert = src->get().getDefiningOp<ConvertLayoutOp>();
    if (!convert)
      return;
    Attribute from = cast<RankedTensorType>(convert.getSrc().getType()).getEncoding();
    if (!isa<DistributedEncodingAttr>(from) || isa<DotOperandEncodingAttr>(from))
      return;
    src->assign(convert.getSrc());
    changed = true;
  });
  return changed;
}

/// True if carried value `index` of `forOp` is computed only for itself.
bool isDeadCarriedValue(scf::ForOp forOp, unsigned index) {
  if (!forOp.getResult(index).use_empty())
    return false;
  Operation *yield = forOp.getBody()->getTerminator();
  SmallVector<Value> worklist{forOp.getRegionIterArgs()[index]};
  DenseSet<Operation *> visited;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (user == yield) {
        if (use.getOperandNumber() != index)
          return false;
        continue;
      }
      if (user->getBlock() != forOp.getBody() || user->getNumRegions() != 0 ||
          !isMemoryEffectFree(user))
        return false;
      if (visited.insert(user).second)
        llvm::append_range(worklist, user->getResults());
    }
  }
  return true;
}

/// Rebuilds `forOp` without the carried values marked in `dead`.
void dropCarriedValues(scf::ForOp forOp, const llvm::BitVector &dead) {
  IRRewriter rewriter(forOp->getContext());
  rewriter.setInsertionPoint(forOp);
  SmallVector<Value> inits;
  for (auto [index, init] : llvm::enumerate(forOp.getInitArgs()))
    if (!dead.test(index))
      inits.push_back(init);
  auto newFor =
      scf::ForOp::create(rewriter, forOp.getLoc(), forOp.getLowerBound(),
                         forOp.getUpperBound(), forOp.getStep(), inits);
  newFor->setAttrs(forOp->getAttrDictionary());

  // Dropped iteration arguments only feed their own dead computation; any
  // value of their type keeps that computation valid until DCE removes it.
  Block *newBody = newFor.getBody();
  SmallVector<Value> arguments{newBody->getArgument(0)};
  unsigned next = 1;
  for (auto [index, init] : llvm::enumerate(forOp.getInitArgs()))
    arguments.push_back(dead.test(index) ? init : newBody->getArgument(next++));
  rewriter.mergeBlocks(forOp.getBody(), newBody, arguments);

  Operation *yield = newBody->getTerminator();
  for (int index = dead.size() - 1; index >= 0; --index)
    if (dead.test(index))
      yield->eraseOperand(index);
  next = 0;
  for (auto [index, result] : llvm::enumerate(forOp.getResults()))
    if (!dead.test(index))
      result.replaceAllUsesWith(newFor.getResult(next++));
  rewriter.eraseOp(forOp);
}

} // namespace

bool ttg::dropDeadCarriedValues(Operation *funcOp) {
  SmallVector<scf::ForOp> loops;
  funcOp->walk([&](scf::ForOp forOp) { loops.push_back(forOp); });
  bool changed = false;
  for (scf::ForOp forOp : loops) {
    llvm::BitVector dead(forOp.getNumRegionIterArgs());
    for (unsigned index = 0; index < dead.size(); ++index)
      if (isDeadCarriedValue(forOp, index))
        dead.set(index);
    if (dead.none())
      continue;
    dropCarriedValues(forOp, dead);
    changed = true;
  }
  return changed;
}

void ttg::cleanupConversions(Operation *funcOp) {
  IRRewriter rewriter(funcOp->getContext());
  bool changed = true;
  while (changed) {
    changed = foldConversions(funcOp);
    changed |= dropDeadCarriedValues(funcOp);
    changed |= succeeded(runRegionDCE(rewriter, funcOp->getRegions()));
  }
}
