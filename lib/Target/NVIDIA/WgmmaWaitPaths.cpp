//===- WgmmaWaitPaths.cpp - wgmma waits on the paths MMAs run on ----------===//
//
// For each call of an inline-asm wgmma.wait_group (emitted with its values
// tied: it takes N values and returns them in a struct read by
// extractvalue) in block B:
//   1. every operand must be a phi of B, a field of one (an extractvalue
//      in B) or a constant, and every user an extractvalue of one field;
//   2. a predecessor is quiet when every operand's value from it is a
//      constant; at least one must be quiet and one not, and none that is
//      not may be reached from B (a back edge: the wait would leave the
//      window of its iteration);
//   3. each edge from a predecessor that is not quiet is split if that
//      predecessor has other successors, and a copy of the wait taking that
//      edge's values ends it;
//   4. each field becomes a phi at the top of B: the copy's field on the
//      waited edges, the constant on the quiet ones; the extractvalues and
//      the wait go.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/NVIDIA/WgmmaWaitPaths.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace {

bool isWgmmaWait(const CallInst &call) {
  const auto *asmCode = dyn_cast<InlineAsm>(call.getCalledOperand());
  return asmCode &&
         StringRef(asmCode->getAsmString()).trim().starts_with("wgmma.wait_group");
}

/// The phi of `block` operand `value` of a wait comes from: the phi itself,
/// or the aggregate phi a single-index extractvalue of `block` reads.
PHINode *phiOf(Value *value, BasicBlock *block) {
  if (auto *field = dyn_cast<ExtractValueInst>(value);
      field && field->getParent() == block && field->getNumIndices() == 1)
    value = field->getAggregateOperand();
  auto *phi = dyn_cast<PHINode>(value);
  return phi && phi->getParent() == block ? phi : nullptr;
}

/// The constant operand `value` of a wait in `block` is on the edge from
/// `pred`, or null when it is not a constant there.
Constant *constantFrom(Value *value, BasicBlock *block, BasicBlock *pred) {
  PHINode *phi = phiOf(value, block);
  if (!phi)
    return dyn_cast<Constant>(value);
  auto *in = dyn_cast<Constant>(phi->getIncomingValueForBlock(pred));
  if (!in || phi == value)
    return in;
  return in->getAggregateElement(cast<ExtractValueInst>(value)->getIndices()[0]);
}

/// The value operand `value` of a wait in `block` has on the edge from
/// `pred`, read (an extractvalue) before `before` where needed.
Value *valueFrom(Value *value, BasicBlock *block, BasicBlock *pred,
                 Instruction *before) {
  if (Constant *constant = constantFrom(value, block, pred))
    return constant;
  PHINode *phi = phiOf(value, block);
  if (!phi)
    return value;
  Value *in = phi->getIncomingValueForBlock(pred);
  if (phi == value)
    return in;
  return ExtractValueInst::Create(
      in, cast<ExtractValueInst>(value)->getIndices(), "", before->getIterator());
}

bool moveWait(CallInst *wait, const DominatorTree &dominators) {
  BasicBlock *block = wait->getParent();
  auto *structType = dyn_cast<StructType>(wait->getType());
  if (!structType || structType->getNumElements() != wait->arg_size())
    return false; // not the tied form: N values in, the same N out
  for (Value *arg : wait->args())
    if (!phiOf(arg, block) && !isa<Constant>(arg))
      return false;
  SmallVector<ExtractValueInst *> fields;
  for (User *user : wait->users()) {
    auto *field = dyn_cast<ExtractValueInst>(user);
    if (!field || field->getNumIndices() != 1)
      return false;
    fields.push_back(field);
  }
  SmallVector<BasicBlock *> preds;
  for (BasicBlock *pred : predecessors(block)) {
    if (is_contained(preds, pred))
      return false; // two edges from one block: left alone
    preds.push_back(pred);
  }
  auto quiet = [&](BasicBlock *pred) {
    return all_of(wait->args(), [&](Value *arg) {
      return constantFrom(arg, block, pred) != nullptr;
    });
  };
  // A wait on a back edge would move to the end of the iteration before,
  // out of the window it leaves the MMAs to overlap: left alone.
  for (BasicBlock *pred : preds)
    if (!quiet(pred) && dominators.dominates(block, pred))
      return false;
  int quietCount = count_if(preds, quiet);
  if (quietCount == 0 || quietCount == int(preds.size()))
    return false;
  // The waited edges, split so that each copy runs on its edge only.
  SmallVector<BasicBlock *> waited;
  for (BasicBlock *pred : preds)
    if (!quiet(pred))
      waited.push_back(pred->getSingleSuccessor() == block
                           ? pred
                           : SplitEdge(pred, block));
  DenseMap<BasicBlock *, CallInst *> copies;
  for (BasicBlock *edge : waited) {
    auto *copy = cast<CallInst>(wait->clone());
    copy->insertBefore(edge->getTerminator()->getIterator());
    for (unsigned i = 0, e = wait->arg_size(); i < e; ++i)
      copy->setArgOperand(
          i, valueFrom(wait->getArgOperand(i), block, edge, copy));
    copies[edge] = copy;
  }
  SmallVector<PHINode *> phis;
  for (unsigned f = 0, e = structType->getNumElements(); f < e; ++f) {
    PHINode *phi = PHINode::Create(structType->getElementType(f), 0,
                                   "waited", block->begin());
    for (BasicBlock *pred : predecessors(block)) {
      if (CallInst *copy = copies.lookup(pred)) {
        auto *field = ExtractValueInst::Create(copy, {f}, "",
                                               pred->getTerminator()->getIterator());
        phi->addIncoming(field, pred);
      } else {
        phi->addIncoming(constantFrom(wait->getArgOperand(f), block, pred),
                         pred);
      }
    }
    phis.push_back(phi);
  }
  for (ExtractValueInst *field : fields) {
    field->replaceAllUsesWith(phis[field->getIndices()[0]]);
    field->eraseFromParent();
  }
  SmallVector<WeakTrackingVH> args(wait->arg_begin(), wait->arg_end());
  wait->eraseFromParent();
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(args);
  return true;
}

} // namespace

unsigned tritium::nvidia::waitOnlyOnMmaPaths(Module &module) {
  unsigned moved = 0;
  for (Function &function : module) {
    if (function.isDeclaration())
      continue;
    SmallVector<CallInst *> waits;
    for (BasicBlock &block : function)
      for (Instruction &inst : block)
        if (auto *call = dyn_cast<CallInst>(&inst); call && isWgmmaWait(*call))
          waits.push_back(call);
    for (CallInst *wait : waits) {
      DominatorTree dominators(function); // edges split by earlier moves
      moved += moveWait(wait, dominators);
    }
  }
  return moved;
}
