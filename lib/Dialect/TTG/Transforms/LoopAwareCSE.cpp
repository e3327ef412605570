//===- LoopAwareCSE.cpp - ttg-loop-aware-cse -------------------------------===//
//
// Plain CSE cannot merge two values a loop carries side by side, such as
// two pointers that start equal and advance by the same step: inside the
// body they are different block arguments, so nothing computed from them
// looks common.  They are equal by induction, though: equal on entry, and
// if they are equal at the start of an iteration, the values yielded for
// them are computed the same way from equal inputs, so they are equal at
// the start of the next.
//
// Algorithm, for every scf.for, innermost loops first:
//   1. Candidate pairs: carried values (i, j), i < j, of one type with the
//      same init operand.
//   2. Greatest fixpoint: assume every candidate pair equal; drop each pair
//      whose yielded values are not provably equal under the assumptions
//      still standing; repeat until no pair drops.  "Provably equal":
//      the same value, an assumed pair of iteration arguments, or results
//      of the same number of two equivalent pure, region-free ops of the
//      loop body (same name, attributes, properties and result types,
//      operands provably equal, checked recursively with a memo).  What
//      survives is sound by induction over the iterations.
//   3. Every surviving pair is merged (union-find, the lowest index
//      represents its class): uses of the other argument and of the other
//      result are redirected to the representative's.
//   4. CSE over the loop shares the computations that became common, and
//      the carried values now computed only for themselves are dropped.
// Steps 1-4 repeat while a loop changes: merging values can make further
// yields look alike.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/CSE.h"
#include "llvm/ADT/EquivalenceClasses.h"

namespace tritium::ttg {
#define GEN_PASS_DEF_TTGLOOPAWARECSEPASS
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"
} // namespace tritium::ttg

using namespace mlir;
using namespace tritium;

namespace {

using ArgPair = std::pair<unsigned, unsigned>; // iteration-argument indices

/// Decides "provably equal" for values of one loop body under a set of
/// assumed-equal pairs of iteration arguments.
class InductiveEquivalence {
public:
  InductiveEquivalence(scf::ForOp loop, const llvm::DenseSet<ArgPair> &assumed)
      : loop(loop), assumed(assumed) {}

  bool equal(Value a, Value b) {
    if (a == b)
      return true;
    if (a.getType() != b.getType())
      return false;
    auto key = std::make_pair(a, b);
    if (auto it = memo.find(key); it != memo.end())
      return it->second;
    bool result = compute(a, b);
    memo[key] = result;
    return result;
  }

private:
  /// The index of `value` among the loop's iteration arguments, or -1.
  int iterArgIndex(Value value) {
    auto arg = dyn_cast<BlockArgument>(value);
    if (!arg || arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0)
      return -1; // argument 0 is the induction variable
    return static_cast<int>(arg.getArgNumber()) - 1;
  }

  bool compute(Value a, Value b) {
    int ia = iterArgIndex(a), ib = iterArgIndex(b);
    if (ia >= 0 || ib >= 0) {
      if (ia < 0 || ib < 0)
        return false;
      return assumed.contains({std::min(ia, ib), std::max(ia, ib)});
    }
    auto ra = dyn_cast<OpResult>(a), rb = dyn_cast<OpResult>(b);
    if (!ra || !rb || ra.getResultNumber() != rb.getResultNumber())
      return false;
    Operation *opA = ra.getOwner(), *opB = rb.getOwner();
    // Values from outside the loop are equal only when identical (a == b
    // was checked first).
    if (!loop->isProperAncestor(opA) || !loop->isProperAncestor(opB))
      return false;
    if (opA->getNumRegions() != 0 || opB->getNumRegions() != 0 ||
        !isMemoryEffectFree(opA) || !isMemoryEffectFree(opB))
      return false;
    return OperationEquivalence::isEquivalentTo(
        opA, opB,
        [&](Value x, Value y) { return success(equal(x, y)); },
        /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
  }

  scf::ForOp loop;
  const llvm::DenseSet<ArgPair> &assumed;
  llvm::DenseMap<std::pair<Value, Value>, bool> memo;
};

/// Steps 1-3 for one loop; true if carried values were merged.
bool mergeEqualCarriedValues(scf::ForOp loop) {
  auto inits = loop.getInitArgs();
  llvm::DenseSet<ArgPair> assumed;
  for (unsigned i = 0; i < inits.size(); ++i)
    for (unsigned j = i + 1; j < inits.size(); ++j)
      if (inits[i] == inits[j])
        assumed.insert({i, j});
  if (assumed.empty())
    return false;

  auto yielded = loop.getBody()->getTerminator()->getOperands();
  bool dropped = true;
  while (dropped && !assumed.empty()) {
    dropped = false;
    InductiveEquivalence equivalence(loop, assumed);
    SmallVector<ArgPair> failing;
    for (ArgPair pair : assumed)
      if (!equivalence.equal(yielded[pair.first], yielded[pair.second]))
        failing.push_back(pair);
    for (ArgPair pair : failing)
      assumed.erase(pair);
    dropped = !failing.empty();
  }
  if (assumed.empty())
    return false;

  llvm::EquivalenceClasses<unsigned> classes;
  for (ArgPair pair : assumed)
    classes.unionSets(pair.first, pair.second);
  bool changed = false;
  for (unsigned index = 0; index < inits.size(); ++index) {
    if (!classes.contains(index))
      continue;
    unsigned leader = index;
    for (auto member = classes.findLeader(index); member != classes.member_end();
         ++member)
      leader = std::min(leader, *member);
    if (leader == index)
      continue;
    BlockArgument arg = loop.getRegionIterArgs()[index];
    if (!arg.use_empty() || !loop.getResult(index).use_empty())
      changed = true;
    arg.replaceAllUsesWith(loop.getRegionIterArgs()[leader]);
    loop.getResult(index).replaceAllUsesWith(loop.getResult(leader));
  }
  return changed;
}

} // namespace

void ttg::loopAwareCSE(ModuleOp module) {
  IRRewriter rewriter(module.getContext());
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<scf::ForOp> loops;
    module.walk<WalkOrder::PostOrder>(
        [&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      changed |= mergeEqualCarriedValues(loop);
    if (!changed)
      break;
    DominanceInfo dominance(module);
    eliminateCommonSubExpressions(rewriter, dominance, module);
    dropDeadCarriedValues(module);
  }
}

namespace {
struct TTGLoopAwareCSEPass
    : public ttg::impl::TTGLoopAwareCSEPassBase<TTGLoopAwareCSEPass> {
  void runOnOperation() override { ttg::loopAwareCSE(getOperation()); }
};
} // namespace
