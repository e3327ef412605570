//===- WidenLoopExitCounters.cpp - 64-bit exit tests of counted loops -----===//
//
// After LLVM's O3, a loop with a constant trip count (a K loop over a
// constant K, as Inductor's templates bake their sizes in) counts with an
// i32 induction variable and exits on `icmp eq i32 %iv.next, C`.  NVPTX's
// code generation then strength-reduces the counter into the loop's 64-bit
// address offsets and, the compare being 32-bit, tests a truncation of one
// of them (cvt.u32.u64 + setp.ne.b32); ptxas then does not see the trip
// count and keeps the loop rolled.  With the exit test on an i64 counter,
// strength reduction folds it into an address offset whole (setp.ne.b64),
// ptxas unrolls small bodies, as it does for Triton's PTX of such loops.
//
// Algorithm, for every loop of every function with a body (LoopInfo over
// the dominator tree):
//   1. The loop's latch ends in a conditional branch on an icmp eq/ne of an
//      i32 value %n and a constant C, %n = add %iv, D with D a positive
//      constant, %iv a phi of the loop header whose incoming values are a
//      constant S from outside the loop and %n from the latch.
//   2. S <= C (unsigned, both below 2^31), and C - S a multiple of D: the
//      counter meets C exactly, before it could wrap.
//   3. A new phi i64 [S, outside], [%n64, latch] in the header, %n64 = add
//      nuw nsw i64 phi, D before the compare, and the compare reads %n64
//      and C as i64.  The i32 counter stays for its other users (or goes,
//      dead, in code generation).
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/NVIDIA/WidenLoopExitCounters.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace {

bool widenExitTest(Loop *loop) {
  BasicBlock *latch = loop->getLoopLatch();
  BasicBlock *header = loop->getHeader();
  if (!latch || !header)
    return false;
  auto *branch = dyn_cast<BranchInst>(latch->getTerminator());
  if (!branch || !branch->isConditional())
    return false;
  auto *compare = dyn_cast<ICmpInst>(branch->getCondition());
  if (!compare || !compare->isEquality() || !compare->hasOneUse())
    return false;
  auto *limit = dyn_cast<ConstantInt>(compare->getOperand(1));
  auto *next = dyn_cast<BinaryOperator>(compare->getOperand(0));
  if (!limit || !next || next->getOpcode() != Instruction::Add ||
      !next->getType()->isIntegerTy(32) || !loop->contains(next))
    return false;
  auto *step = dyn_cast<ConstantInt>(next->getOperand(1));
  auto *iv = dyn_cast<PHINode>(next->getOperand(0));
  if (!step || !iv || iv->getParent() != header ||
      iv->getNumIncomingValues() != 2)
    return false;
  ConstantInt *start = nullptr;
  BasicBlock *entry = nullptr;
  for (unsigned i = 0; i < 2; ++i) {
    BasicBlock *from = iv->getIncomingBlock(i);
    Value *value = iv->getIncomingValue(i);
    if (from == latch) {
      if (value != next)
        return false;
    } else if (!loop->contains(from)) {
      start = dyn_cast<ConstantInt>(value);
      entry = from;
    }
  }
  if (!start || !entry)
    return false;
  int64_t s = start->getSExtValue(), d = step->getSExtValue(),
          c = limit->getSExtValue();
  if (s < 0 || d <= 0 || c < s || (c - s) % d != 0)
    return false;

  Type *i64 = Type::getInt64Ty(header->getContext());
  IRBuilder<> builder(header, header->getFirstInsertionPt());
  PHINode *wide = builder.CreatePHI(i64, 2, "exit.counter");
  builder.SetInsertPoint(compare);
  Value *wideNext =
      builder.CreateAdd(wide, ConstantInt::get(i64, d), "exit.counter.next",
                        /*HasNUW=*/true, /*HasNSW=*/true);
  wide->addIncoming(ConstantInt::get(i64, s), entry);
  wide->addIncoming(wideNext, latch);
  compare->setOperand(0, wideNext);
  compare->setOperand(1, ConstantInt::get(i64, c));
  return true;
}

} // namespace

unsigned tritium::nvidia::widenLoopExitCounters(Module &module) {
  unsigned rewritten = 0;
  for (Function &function : module) {
    if (function.isDeclaration())
      continue;
    DominatorTree dominators(function);
    LoopInfo loops(dominators);
    for (Loop *loop : loops.getLoopsInPreorder())
      rewritten += widenExitTest(loop);
  }
  return rewritten;
}
