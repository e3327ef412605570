//===- ReorderInstructions.cpp - ttg-reorder-instructions ------------------===//
//
// Moves the ops that copy a tile between registers and shared memory to
// where they keep the fewest registers alive:
//
//   * ttg.local_alloc of a tensor moves up to right after the op that
//     defines the tensor (or the start of its block), so the registers of
//     a loaded tile are stored, and free, as early as possible; an
//     immutable tile of a tensor defined outside the loops around it first
//     leaves those loops (it is stored once, not every iteration);
//   * ttg.convert_layout and ttg.local_load move down to right before
//     their first user in their block, so the converted copy of a tile is
//     not held across unrelated work (the epilogue's conversion of the
//     accumulator next to the store that needs it, operand reads next to
//     their dot);
//   * element-wise work after a tt.reduce that does not depend on it moves
//     up above it when that keeps fewer tensors alive across the reduction
//     (an operand whose last use it is dies before the reduction; its
//     result, used after it, lives across instead), chain by chain of ops
//     that feed one another.  A norm's backward updates dW (`dw += dy *
//     xhat`) after the row's sum in the source, keeping its operand and
//     dW's old value alive across the sum; moved above it, Mamba-2's gated
//     RMSNorm backward spills half as much (ptxas of CUDA 13.0).
//
// Algorithm: one walk collects the candidates; allocs are hoisted first
// (and immutable tiles of one tensor in one layout that end up in one block
// merged), then conversions and loads are sunk, each within its own block
// only, then each reduction's independent work moves (hoistAboveReduction).
// A local_load never moves past an op that may write memory (a local_store,
// an async copy, a barrier, a call): it must read what it read before.  A
// conversion is pure and may pass anything.  Ops whose users sit in other
// blocks only, or are not after them in the block, stay.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <functional>

namespace tritium::ttg {
#define GEN_PASS_DEF_TTGREORDERINSTRUCTIONSPASS
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"
} // namespace tritium::ttg

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

namespace {

/// The first op of `op`'s block, after `op`, that uses one of its results
/// directly or through a nested region; null when none does.
Operation *firstUserInBlock(Operation *op) {
  Operation *first = nullptr;
  for (Operation *user : op->getUsers()) {
    Operation *ancestor = op->getBlock()->findAncestorOpInBlock(*user);
    if (!ancestor)
      continue;
    if (!first || ancestor->isBeforeInBlock(first))
      first = ancestor;
  }
  return first;
}

/// True if an op strictly between `from` and `to` (same block, `from`
/// first) may write memory or has effects no interface describes.
bool mayWriteBetween(Operation *from, Operation *to) {
  for (Operation *op = from->getNextNode(); op && op != to;
       op = op->getNextNode()) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects) {
      if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
          !isMemoryEffectFree(op))
        return true;
      continue;
    }
    if (effects.hasEffect<MemoryEffects::Write>() ||
        effects.hasEffect<MemoryEffects::Free>())
      return true;
  }
  return false;
}

/// The outermost loop around `alloc` that `source` is defined outside of,
/// crossing loops only (never an scf.if, whose body may not run).
LoopLikeOpInterface outermostInvariantLoop(LocalAllocOp alloc, Value source) {
  LoopLikeOpInterface outermost;
  for (Operation *parent = alloc->getParentOp(); parent;
       parent = parent->getParentOp()) {
    auto loop = dyn_cast<LoopLikeOpInterface>(parent);
    if (!loop || !loop.isDefinedOutsideOfLoop(source))
      break;
    outermost = loop;
  }
  return outermost;
}

void hoistLocalAlloc(LocalAllocOp alloc) {
  Value source = alloc.getSrc();
  if (!source)
    return;
  // An immutable tile of a loop-invariant tensor is stored once, before
  // the loops (the Q tile of attention would otherwise be stored to shared
  // memory every iteration).
  if (!alloc.getType().getMutableMemory())
    if (LoopLikeOpInterface loop = outermostInvariantLoop(alloc, source))
      alloc->moveBefore(loop);
  Block *block = alloc->getBlock();
  if (Operation *def = source.getDefiningOp()) {
    if (def->getBlock() != block || def->getNextNode() == alloc)
      return;
    alloc->moveAfter(def);
    return;
  }
  // A block argument: the start of its block, when that is ours.
  if (cast<BlockArgument>(source).getOwner() == block &&
      &block->front() != alloc.getOperation())
    alloc->moveBefore(&block->front());
}

void sinkToFirstUser(Operation *op) {
  Operation *user = firstUserInBlock(op);
  if (!user || user == op->getNextNode() || user->isBeforeInBlock(op))
    return;
  if (isa<LocalLoadOp>(op) && mayWriteBetween(op, user))
    return;
  op->moveBefore(user);
}

/// Element-wise work that may move above a reduction: a pure element-wise
/// op (arith, math) with one tensor result.  Shape ops (broadcasts of a
/// row statistic) stay: counted as tensors they would look like a saving
/// where they cost a thread next to no registers.
bool isHoistableWork(Operation *op) {
  return op->getNumResults() == 1 && op->getNumRegions() == 0 &&
         isa<RankedTensorType>(op->getResult(0).getType()) &&
         op->hasTrait<OpTrait::Elementwise>() && isMemoryEffectFree(op);
}

/// Whether every use of `value` other than by `op` lies before `point` in
/// `point`'s block.
bool diesAt(Value value, Operation *op, Operation *point) {
  Block *block = point->getBlock();
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() != block)
      return false; // defined around the block: alive across every visit
  } else if (value.getDefiningOp()->getBlock() != block) {
    return false;
  }
  for (Operation *user : value.getUsers()) {
    if (user == op)
      continue;
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (!ancestor || !ancestor->isBeforeInBlock(point))
      return false;
  }
  return true;
}

/// Moves the element-wise work after `reduce` that does not depend on it
/// above it, where that keeps fewer tensors alive across it.  Each op, in
/// order, is tentatively moved when it keeps no more alive than before
/// (delta <= 0: its dying operands against its result); the moved ops
/// that feed one another form chains, and a chain stays above the
/// reduction only when its deltas add up to fewer tensors alive (dy * xhat
/// alone trades dy for the product; added into dW it frees dW's old value
/// too), else its ops go back where they were.
void hoistAboveReduction(tt::ReduceOp reduce, DominanceInfo &dominance) {
  Operation *point = reduce;
  struct Moved {
    Operation *op;
    Operation *after; // the op it followed (to put it back)
    int delta;
    int chain;
  };
  SmallVector<Moved> moved;
  DenseMap<Operation *, int> chainOf;
  // Chains join where an op reads two of them (union by the lowest index).
  SmallVector<int> parent;
  std::function<int(int)> root = [&](int c) {
    return parent[c] == c ? c : parent[c] = root(parent[c]);
  };
  for (Operation *op = point->getNextNode(); op;) {
    Operation *next = op->getNextNode();
    if (isHoistableWork(op) &&
        llvm::all_of(op->getOperands(),
                     [&](Value v) { return dominance.properlyDominates(v, point); })) {
      int delta = op->use_empty() ? 0 : 1; // its users all come after it
      SmallPtrSet<Value, 4> seen;
      for (Value operand : op->getOperands())
        if (isa<RankedTensorType>(operand.getType()) &&
            seen.insert(operand).second && diesAt(operand, op, point))
          --delta;
      if (delta <= 0) {
        // Its chain: those of the moved ops it reads, joined, or a new one.
        int chain = parent.size();
        parent.push_back(chain);
        for (Value operand : op->getOperands())
          if (Operation *def = operand.getDefiningOp())
            if (auto it = chainOf.find(def); it != chainOf.end()) {
              int other = root(it->second);
              int low = std::min(root(chain), other);
              parent[root(chain)] = low;
              parent[other] = low;
            }
        moved.push_back({op, op->getPrevNode(), delta, chain});
        chainOf[op] = chain;
        op->moveBefore(point);
      }
    }
    op = next;
  }
  DenseMap<int, int> chainDelta;
  for (const Moved &m : moved)
    chainDelta[root(m.chain)] += m.delta;
  // Back in reverse, so that each op's old neighbour is in place again.
  for (const Moved &m : llvm::reverse(moved))
    if (chainDelta[root(m.chain)] >= 0)
      m.op->moveAfter(m.after);
}

} // namespace

void ttg::reorderInstructions(ModuleOp module) {
  SmallVector<LocalAllocOp> allocs;
  SmallVector<Operation *> sinks;
  module.walk([&](Operation *op) {
    if (auto alloc = dyn_cast<LocalAllocOp>(op))
      allocs.push_back(alloc);
    else if (isa<ConvertLayoutOp, LocalLoadOp>(op))
      sinks.push_back(op);
  });
  for (LocalAllocOp alloc : allocs)
    hoistLocalAlloc(alloc);
  // Two immutable tiles of one tensor in one layout are one (the loops of
  // a causal attention kernel each hoisted a copy of the Q tile).
  llvm::DenseMap<std::pair<Value, Type>, LocalAllocOp> firstTile;
  for (LocalAllocOp alloc : allocs) {
    if (!alloc.getSrc() || alloc.getType().getMutableMemory())
      continue;
    auto [it, inserted] = firstTile.try_emplace(
        std::make_pair(alloc.getSrc(), Type(alloc.getType())), alloc);
    if (inserted || it->second->getBlock() != alloc->getBlock())
      continue;
    LocalAllocOp first = it->second;
    if (alloc->isBeforeInBlock(first)) {
      std::swap(first, alloc);
      it->second = first;
    }
    alloc.replaceAllUsesWith(first.getResult());
    alloc.erase();
  }
  // Last first: a conversion that feeds another one sinks after it did.
  for (Operation *op : llvm::reverse(sinks))
    sinkToFirstUser(op);
  SmallVector<tt::ReduceOp> reductions;
  module.walk([&](tt::ReduceOp reduce) { reductions.push_back(reduce); });
  DominanceInfo dominance(module);
  for (tt::ReduceOp reduce : reductions)
    hoistAboveReduction(reduce, dominance);
}

namespace {
struct TTGReorderInstructionsPass
    : public ttg::impl::TTGReorderInstructionsPassBase<
          TTGReorderInstructionsPass> {
  void runOnOperation() override { ttg::reorderInstructions(getOperation()); }
};
} // namespace
