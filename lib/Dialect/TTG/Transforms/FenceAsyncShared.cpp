//===- FenceAsyncShared.cpp - ttg-fence-async-shared ----------------------===//
//
// Threads store to shared memory through the generic proxy; wgmma and TMA
// copies access it through the async proxy, which sees those stores only
// after fence.proxy.async.  mma.sync's ldmatrix, ttg.local_load and
// cp.async are generic: a tile only they read needs no fence, and on sm_90
// the fence costs a MEMBAR.ALL.CTA in SASS (and keeps ptxas from unrolling
// a small loop around it).
//
// Algorithm, on sm_90 and newer, for every ttg.local_alloc with a source and
// every ttg.local_store whose tile is #ttg.nvmma_shared (the layout the
// async proxy reads; other tiles are never read by it):
//   1. Find the buffer: the ttg.local_alloc the stored-to memdesc comes
//      from through ttg.memdesc_index / memdesc_subslice / memdesc_trans.
//   2. Walk every use of the buffer, through those views.  The buffer is
//      read only through the generic proxy when every use is a
//      ttg.local_load, ttg.local_store, ttg.local_dealloc or cp.async copy
//      into it; any other use (a warpgroup dot, a TMA copy, or an op the
//      walk does not know, such as a loop carrying the memdesc) counts as
//      an async-proxy access.  A buffer the walk cannot trace back to its
//      allocation counts as one too.
//   3. Where the async proxy accesses the buffer, a ttg.fence_async_shared
//      follows the store (the CTA barrier the membar pass places before the
//      reader completes the ordering).
// It runs after ttg-membar, right before the lowering, on the final IR.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"

#include "tritium/Dialect/TTG/IR/TTGDialect.h"

namespace tritium::ttg {
#define GEN_PASS_DEF_TTGFENCEASYNCSHAREDPASS
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"
} // namespace tritium::ttg

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

namespace {

bool isView(Operation *op) {
  return isa<MemDescIndexOp, MemDescSubsliceOp, MemDescTransOp>(op);
}

/// Whether the async proxy may access `buffer` (see the file comment).
bool accessedByAsyncProxy(LocalAllocOp buffer) {
  SmallVector<Value> worklist = {buffer.getResult()};
  while (!worklist.empty()) {
    Value memdesc = worklist.pop_back_val();
    for (OpOperand &use : memdesc.getUses()) {
      Operation *user = use.getOwner();
      if (isView(user)) {
        worklist.push_back(user->getResult(0));
        continue;
      }
      if (isa<LocalLoadOp, LocalStoreOp, LocalDeallocOp>(user))
        continue;
      if (auto copy = dyn_cast<AsyncCopyGlobalToLocalOp>(user);
          copy && use.get() == copy.getDst())
        continue;
      return true;
    }
  }
  return false;
}

struct TTGFenceAsyncSharedPass
    : public ttg::impl::TTGFenceAsyncSharedPassBase<TTGFenceAsyncSharedPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (getComputeCapability(module) < 90)
      return;
    DenseMap<Operation *, bool> asyncBuffers;
    auto needsFence = [&](Value memdesc) {
      auto type = cast<MemDescType>(memdesc.getType());
      if (!isa<NvmmaSharedEncodingAttr>(type.getEncoding()))
        return false;
      LocalAllocOp buffer = getViewedAllocation(memdesc);
      if (!buffer)
        return true;
      auto [it, inserted] = asyncBuffers.try_emplace(buffer, false);
      if (inserted)
        it->second = accessedByAsyncProxy(buffer);
      return it->second;
    };
    SmallVector<Operation *> stores;
    module.walk([&](Operation *op) {
      if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
        if (alloc.getSrc() && needsFence(alloc.getResult()))
          stores.push_back(op);
      } else if (auto store = dyn_cast<LocalStoreOp>(op)) {
        if (needsFence(store.getDst()))
          stores.push_back(op);
      }
    });
    for (Operation *store : stores) {
      OpBuilder builder(store->getContext());
      builder.setInsertionPointAfter(store);
      FenceAsyncSharedOp::create(builder, store->getLoc());
    }
  }
};

} // namespace
