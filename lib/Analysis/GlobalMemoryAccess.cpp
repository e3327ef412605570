//===- GlobalMemoryAccess.cpp - ops that may touch global memory ----------===//
//
// The questions of GlobalMemoryAccess.h, answered from the ops' declared
// memory effects.
//
//===----------------------------------------------------------------------===//
#include "tritium/Analysis/GlobalMemoryAccess.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"

using namespace mlir;

bool tritium::mayAccessGlobalMemory(Operation *op, bool writesOnly) {
  if (isa<tt::PrintOp, tt::AssertOp>(op) ||
      op->getName().getStringRef() == "llvm.intr.assume" ||
      op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return !isPure(op) && !op->hasTrait<OpTrait::IsTerminator>();
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [&](const MemoryEffects::EffectInstance &e) {
    if (!isa<tt::GlobalMemory, SideEffects::DefaultResource>(e.getResource()))
      return false;
    return isa<MemoryEffects::Write>(e.getEffect()) ||
           (!writesOnly && isa<MemoryEffects::Read>(e.getEffect()));
  });
}

bool tritium::mayWriteGlobalMemoryWithin(Operation *op) {
  return op
      ->walk([](Operation *inner) {
        return mayAccessGlobalMemory(inner, /*writesOnly=*/true)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}
