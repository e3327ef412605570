//===- ScalarizeStructPhis.cpp - one phi per field of a struct phi --------===//
//
// Only the struct phis of loop headers whose trip count scalar evolution
// knows as a constant are split: those are the loops the unroller may unroll
// whole.  A loop of unknown trip count keeps its struct phis: split, the K
// loop of tutorial 09's persistent matmul is small enough for NVPTX's
// runtime unrolling (three iterations a trip), which Triton's pipeline,
// built without a target's cost model, never applies.  For each such phi of struct type S with fields f0..fn-1:
//   1. a new phi per field i, beside the old one, whose incoming value from
//      each predecessor P is `extractvalue V, i` placed before P's
//      terminator (V the old phi's value from P; one extract per
//      predecessor, as a phi must take one value per predecessor however
//      many edges come from it);
//   2. the struct rebuilt by an insertvalue chain at the block's first
//      insertion point (after all its phis), which replaces the old phi.
// A field that is itself a struct gets the same treatment in turn.  The
// extracts of rebuilt structs and the inserts nothing reads are left for
// instcombine to fold and remove.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/ScalarizeStructPhis.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Analysis.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

bool tritium::scalarizeStructPhis(Function &function, LoopInfo &loops,
                                  ScalarEvolution &evolution) {
  SmallVector<PHINode *> worklist;
  for (Loop *loop : loops.getLoopsInPreorder()) {
    if (evolution.getSmallConstantTripCount(loop) == 0)
      continue;
    for (PHINode &phi : loop->getHeader()->phis())
      if (isa<StructType>(phi.getType()))
        worklist.push_back(&phi);
  }
  bool changed = !worklist.empty();
  while (!worklist.empty()) {
    PHINode *phi = worklist.pop_back_val();
    auto *type = cast<StructType>(phi->getType());
    BasicBlock *block = phi->getParent();
    IRBuilder<> besidePhi(phi);
    IRBuilder<> afterPhis(block, block->getFirstInsertionPt());
    Value *rebuilt = PoisonValue::get(type);
    for (unsigned field = 0; field < type->getNumElements(); ++field) {
      PHINode *part =
          besidePhi.CreatePHI(type->getElementType(field),
                              phi->getNumIncomingValues(),
                              phi->getName() + "." + Twine(field));
      DenseMap<BasicBlock *, Value *> fromPredecessor;
      for (unsigned in = 0; in < phi->getNumIncomingValues(); ++in) {
        BasicBlock *predecessor = phi->getIncomingBlock(in);
        Value *&value = fromPredecessor[predecessor];
        if (!value) {
          IRBuilder<> atEnd(predecessor->getTerminator());
          value = atEnd.CreateExtractValue(phi->getIncomingValue(in), field);
        }
        part->addIncoming(value, predecessor);
      }
      rebuilt = afterPhis.CreateInsertValue(rebuilt, part, field);
      if (isa<StructType>(part->getType()))
        worklist.push_back(part);
    }
    phi->replaceAllUsesWith(rebuilt);
    phi->eraseFromParent();
  }
  return changed;
}

PreservedAnalyses
tritium::ScalarizeStructPhisPass::run(Function &function,
                                      FunctionAnalysisManager &analyses) {
  if (!scalarizeStructPhis(function, analyses.getResult<LoopAnalysis>(function),
                           analyses.getResult<ScalarEvolutionAnalysis>(function)))
    return PreservedAnalyses::all();
  PreservedAnalyses kept;
  kept.preserveSet<CFGAnalyses>();
  return kept;
}
