//===- HoistBeforeBarrierWaits.cpp - llvm-hoist-before-barrier-waits -----===//
//
// Algorithm, per block of an llvm.func:
//   1. Find each inline assembly op whose text waits on an mbarrier
//      (`mbarrier.try_wait`: ttg.wait_barrier's lowering).
//   2. Walk the ops after it in the block.  An op is hoistable when it has
//      no memory effects and no regions, and each operand is defined outside
//      the block, before the wait, or by a hoistable op.
//   3. Of the hoistable ops, keep those that (transitively) feed an operand
//      of an inline `wgmma.mma_async` after the wait, and move them, in
//      their order, to just before the wait.
// The descriptors of the iteration's wgmma ops are then ready when the
// stage's data lands, as Triton's kernels have them (computed ahead in
// uniform registers).
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTGToLLVM/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace tritium {
#define GEN_PASS_DEF_HOISTBEFOREBARRIERWAITSPASS
#include "tritium/Conversion/TTGToLLVM/Passes.h.inc"
} // namespace tritium

using namespace mlir;

namespace {

bool asmContains(Operation *op, llvm::StringRef text) {
  auto inlineAsm = dyn_cast<LLVM::InlineAsmOp>(op);
  return inlineAsm && inlineAsm.getAsmString().contains(text);
}

void hoistBeforeWait(Operation *wait) {
  Block *block = wait->getBlock();
  llvm::SetVector<Operation *> hoistable;
  SmallVector<Operation *> mmas;
  for (Operation *op = wait->getNextNode(); op; op = op->getNextNode()) {
    if (asmContains(op, "wgmma.mma_async"))
      mmas.push_back(op);
    if (op->getNumRegions() != 0 || !isMemoryEffectFree(op) ||
        op->hasTrait<OpTrait::IsTerminator>())
      continue;
    bool available = llvm::all_of(op->getOperands(), [&](Value v) {
      Operation *def = v.getDefiningOp();
      if (!def)
        return true; // a block argument: defined before any op
      return def->getBlock() != block || def->isBeforeInBlock(wait) ||
             hoistable.contains(def);
    });
    if (available)
      hoistable.insert(op);
  }
  // Keep what feeds the wgmma operands.
  llvm::SetVector<Operation *> feeding;
  SmallVector<Value> worklist;
  for (Operation *mma : mmas)
    llvm::append_range(worklist, mma->getOperands());
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || !hoistable.contains(def) || !feeding.insert(def))
      continue;
    llvm::append_range(worklist, def->getOperands());
  }
  for (Operation *op : hoistable)
    if (feeding.contains(op))
      op->moveBefore(wait);
}

struct HoistBeforeBarrierWaitsPass
    : public tritium::impl::HoistBeforeBarrierWaitsPassBase<
          HoistBeforeBarrierWaitsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> waits;
    getOperation().walk([&](Operation *op) {
      if (asmContains(op, "mbarrier.try_wait"))
        waits.push_back(op);
    });
    for (Operation *wait : waits)
      hoistBeforeWait(wait);
  }
};

} // namespace
