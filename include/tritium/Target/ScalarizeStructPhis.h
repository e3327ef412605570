//===- ScalarizeStructPhis.h - one phi per field of a struct phi -*- C++ -*-===//
//
// A tensor lowered to the LLVM dialect is a literal struct of its thread's
// elements, so a loop that carries tensors carries struct phis.  LLVM keeps
// those whole: every iteration unpacks them with extractvalue and packs them
// again with insertvalue, and the loop unroller counts that packing as the
// loop's size, so a loop over a few tiles with a constant trip count stays
// rolled and loses the folding that knowing each iteration's offsets gives
// (its masks, its index arithmetic).  This pass gives each field of such a
// loop's struct phis (loops of constant trip count only) a phi of its own
// and rebuilds the struct after the block's phis, from which instcombine
// then forwards each field to its users.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_SCALARIZESTRUCTPHIS_H
#define TRITIUM_TARGET_SCALARIZESTRUCTPHIS_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class LoopInfo;
class ScalarEvolution;
} // namespace llvm

namespace tritium {

/// Replaces every struct phi in the header of a loop of `function` whose
/// trip count `evolution` knows as a constant by one phi per field
/// (recursively for fields that are structs).  Returns whether it changed
/// anything.
bool scalarizeStructPhis(llvm::Function &function, llvm::LoopInfo &loops,
                         llvm::ScalarEvolution &evolution);

struct ScalarizeStructPhisPass
    : public llvm::PassInfoMixin<ScalarizeStructPhisPass> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &);
};

} // namespace tritium

#endif // TRITIUM_TARGET_SCALARIZESTRUCTPHIS_H
