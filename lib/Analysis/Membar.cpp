//===- Membar.cpp - barriers between shared-memory accesses ---------------===//
//
// Algorithm overview:
//   The state is the set of byte intervals of shared memory read, and the
//   set written, since the last barrier ("pending").  A function starts with
//   nothing pending: a kernel begins with no access in flight, and a caller
//   synchronizes before a device function that uses shared memory (below).
//   Each function is walked forward, op by op, through structured control
//   flow:
//     * ttg.barrier (and gpu.barrier, from tl.debug_barrier) clears the state;
//     * an op with accesses (getSharedMemoryAccess) conflicts with the state
//       when it writes an interval overlapping a pending read or write
//       (WAR, WAW) or reads one overlapping a pending write (RAW); then a
//       ttg.barrier goes right before it and the state is cleared.  Its own
//       accesses are then added, except the writes of TMA copies: those
//       complete on an mbarrier that every reader waits on.  Accesses of
//       the issuing thread alone (thread 0's mbarrier inits and invals)
//       are pending apart: they conflict with the accesses of all threads,
//       not with each other (one thread's program order);
//     * the writes of cp.async copies (ttg.async_copy_global_to_local) land
//       when their issuing thread waits for them, not at a barrier: they
//       are kept "in flight", which a barrier does not clear.  Each
//       ttg.async_wait adds them to the pending writes (a barrier must
//       then separate the wait from an overlapping access by another
//       thread); a wait for all groups ({num = 0}) also ends the flight
//       of those committed (ttg.async_commit_group) before it.
//       A wait for all but the newest N groups may leave some in flight;
//       which ones is not tracked, so all stay, and later waits add them
//       again (an extra barrier at worst, never a missing one);
//     * the reads of a TMA store (ttg.async_tma_copy_local_to_global) are
//       the copy engine's, done when the issuing thread's
//       ttg.async_tma_store_wait says so: kept in flight the same way, and
//       pending reads from each such wait on (a barrier then separates the
//       wait from a write of those bytes by any thread);
//     * tt.call of a function that uses shared memory (directly or through
//       its callees) reads and writes every byte: a barrier before it when
//       anything is pending, and the next access after it waits for it;
//     * scf.if: both branches start from the state; afterwards the state is
//       their union (a missing else branch contributes the state itself);
//     * scf.for: the body's entry state E must contain the state before the
//       loop and the state at the end of the body (the back edge), so E is
//       grown from the state before the loop until the body adds nothing.
//       When the body would need fewer barriers had nothing been pending
//       before the loop (a conflict with the state before the loop only,
//       met on every iteration: mbarrier inits before a loop of waits), a
//       barrier goes before the loop instead and the loop starts clear.
//       The loop's exit state is the state before it (zero trips) joined
//       with the body's exit;
//     * scf.while: the same over "before" then "after"; the loop exits from
//       the end of "before";
//     * ttg.warp_specialize: a barrier right before it (the last point every
//       warp reaches; tensor maps made before it are released there to the
//       partition, which acquires them), then each region alone from
//       nothing pending but what is in flight: they run at once on
//       different warps and order their accesses to each other's buffers
//       with mbarriers (their barriers are named barriers of their own
//       warps);
//     * any other op whose regions contain shared-memory accesses or calls:
//       each block of each region may run any number of times in any order,
//       so one entry state for all of them is grown to a fixed point.
//   While a loop's fixed point is sought, barriers are only simulated (they
//   clear the state but change nothing); once it is found, one last walk of
//   the body from it inserts them.  So every block gets its barriers once,
//   from the final state, and the entry state grows monotonically (the
//   intervals come from a finite set of buffers, so the iteration ends).
//
//===----------------------------------------------------------------------===//
#include "tritium/Analysis/Membar.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tritium/Analysis/Allocation.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <set>

using namespace mlir;
using namespace tritium;

//===----------------------------------------------------------------------===//
// The accesses of one op
//===----------------------------------------------------------------------===//

/// The bytes of the ttg.local_alloc that `memdesc` views, or every byte when
/// it is not known which buffer it is.
static SharedInterval getBufferInterval(Value memdesc) {
  if (ttg::LocalAllocOp alloc = ttg::getViewedAllocation(memdesc))
    if (std::optional<int64_t> offset = getAllocationOffset(alloc))
      return {*offset, *offset + getLocalAllocBytes(alloc)};
  return SharedInterval::all();
}

/// True if `op` declares that it reads or writes shared memory.
static bool declaresSharedMemoryAccess(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
    return isa<ttg::SharedMemory>(e.getResource()) &&
           isa<MemoryEffects::Read, MemoryEffects::Write>(e.getEffect());
  });
}

SharedMemoryAccess tritium::getSharedMemoryAccess(Operation *op) {
  SharedMemoryAccess access;
  if (isa<ttg::BarrierOp, gpu::BarrierOp, ttg::LocalDeallocOp>(op))
    return access;
  if (auto alloc = dyn_cast<ttg::LocalAllocOp>(op)) {
    if (alloc.getSrc())
      access.writes.push_back(getBufferInterval(alloc.getResult()));
    return access;
  }
  if (auto store = dyn_cast<ttg::LocalStoreOp>(op)) {
    access.writes.push_back(getBufferInterval(store.getDst()));
    return access;
  }
  if (auto copy = dyn_cast<ttg::AsyncCopyGlobalToLocalOp>(op)) {
    access.writes.push_back(getBufferInterval(copy.getDst()));
    access.writesCompleteOnAsyncWait = true;
    return access;
  }
  // mbarrier operations synchronize among themselves: only the
  // initialization and invalidation (plain writes of its bytes) must be
  // ordered against the other uses of a barrier.  Thread 0 alone issues
  // init and inval (TMAOpToLLVM.cpp), so a run of them needs no barrier
  // inside.  Expects and TMA copies are thread 0's too, but count as every
  // thread's: a barrier between the inits and the first expect is what
  // compute-sanitizer's racecheck needs to see the copies' writes ordered
  // before the waiting threads' reads (it reported hazards without it).
  if (isa<ttg::InitBarrierOp, ttg::InvalBarrierOp>(op)) {
    access.writes.push_back(getBufferInterval(op->getOperand(0)));
    access.byIssuingThread = true;
    return access;
  }
  if (isa<ttg::BarrierExpectOp, ttg::WaitBarrierOp, ttg::ArriveBarrierOp>(op)) {
    access.reads.push_back(getBufferInterval(op->getOperand(0)));
    return access;
  }
  if (auto copy = dyn_cast<ttg::AsyncTMACopyGlobalToLocalOp>(op)) {
    access.writes.push_back(getBufferInterval(copy.getResult()));
    access.reads.push_back(getBufferInterval(copy.getBarrier()));
    access.writesCompleteOnBarrier = true;
    return access;
  }
  if (auto copy = dyn_cast<ttg::AsyncTMACopyLocalToGlobalOp>(op)) {
    access.reads.push_back(getBufferInterval(copy.getSrc()));
    access.readsCompleteOnStoreWait = true;
    return access;
  }
  // A fence of the thread's own writes: nothing another thread must be
  // ordered against.  (The waits are handled by the walk.)
  if (isa<ttg::AsyncTMAStoreWaitOp, ttg::FenceAsyncSharedOp>(op))
    return access;
  if (auto dot = dyn_cast<ttg::WarpGroupDotOp>(op)) {
    if (isa<ttg::MemDescType>(dot.getA().getType())) // else in registers
      access.reads.push_back(getBufferInterval(dot.getA()));
    access.reads.push_back(getBufferInterval(dot.getB()));
    return access;
  }
  if (auto load = dyn_cast<ttg::LocalLoadOp>(op)) {
    access.reads.push_back(getBufferInterval(load.getSrc()));
    return access;
  }
  if (std::optional<int64_t> offset = getAllocationOffset(op)) {
    if (int64_t bytes = getScratchBytes(op)) {
      SharedInterval scratch{*offset, *offset + bytes};
      access.reads.push_back(scratch);
      access.writes.push_back(scratch);
      // The issuing thread alone encodes a tensor map in its scratch.
      access.byIssuingThread = isa<tt::MakeTensorDescOp>(op);
      return access;
    }
  }
  if (declaresSharedMemoryAccess(op)) {
    access.reads.push_back(SharedInterval::all());
    access.writes.push_back(SharedInterval::all());
  }
  return access;
}

//===----------------------------------------------------------------------===//
// The pending state
//===----------------------------------------------------------------------===//

namespace {
/// The intervals read and written since the last barrier: by all threads,
/// and by the issuing thread alone.
struct Pending {
  std::set<SharedInterval> reads;
  std::set<SharedInterval> writes;
  std::set<SharedInterval> issuerReads;
  std::set<SharedInterval> issuerWrites;
  /// Written by cp.async copies not yet waited for by a wait for all.
  std::set<SharedInterval> inFlight;
  /// Of those, the copies issued since the last ttg.async_commit_group: no
  /// wait covers them until they are committed.
  std::set<SharedInterval> uncommitted;
  /// Read by TMA stores not yet waited for by a wait for all.
  std::set<SharedInterval> readsInFlight;

  static bool overlapsAny(const std::set<SharedInterval> &set,
                          ArrayRef<SharedInterval> intervals) {
    for (const SharedInterval &interval : intervals)
      for (const SharedInterval &other : set)
        if (interval.overlaps(other))
          return true;
    return false;
  }

  /// RAW, WAR or WAW between `access` and what is pending; the issuing
  /// thread's own accesses are ordered among themselves.
  bool conflictsWith(const SharedMemoryAccess &access) const {
    if (overlapsAny(writes, access.reads) ||
        overlapsAny(writes, access.writes) ||
        overlapsAny(reads, access.writes))
      return true;
    return !access.byIssuingThread &&
           (overlapsAny(issuerWrites, access.reads) ||
            overlapsAny(issuerWrites, access.writes) ||
            overlapsAny(issuerReads, access.writes));
  }
  void add(const SharedMemoryAccess &access) {
    auto &r = access.byIssuingThread ? issuerReads : reads;
    auto &w = access.byIssuingThread ? issuerWrites : writes;
    if (access.readsCompleteOnStoreWait)
      readsInFlight.insert(access.reads.begin(), access.reads.end());
    else
      r.insert(access.reads.begin(), access.reads.end());
    if (access.writesCompleteOnAsyncWait) {
      inFlight.insert(access.writes.begin(), access.writes.end());
      uncommitted.insert(access.writes.begin(), access.writes.end());
    } else if (!access.writesCompleteOnBarrier) {
      w.insert(access.writes.begin(), access.writes.end());
    }
  }
  /// A ttg.async_wait: the copies it waited for are now writes of their
  /// threads that a barrier orders.
  void asyncWait(bool all) {
    writes.insert(inFlight.begin(), inFlight.end());
    if (all)
      inFlight = uncommitted;
  }
  /// A ttg.async_tma_store_wait: the stores it waited for have read their
  /// tiles; a barrier orders that before other threads' writes.
  void storeWait(bool all) {
    reads.insert(readsInFlight.begin(), readsInFlight.end());
    if (all)
      readsInFlight.clear();
  }
  void join(const Pending &other) {
    reads.insert(other.reads.begin(), other.reads.end());
    writes.insert(other.writes.begin(), other.writes.end());
    issuerReads.insert(other.issuerReads.begin(), other.issuerReads.end());
    issuerWrites.insert(other.issuerWrites.begin(), other.issuerWrites.end());
    inFlight.insert(other.inFlight.begin(), other.inFlight.end());
    readsInFlight.insert(other.readsInFlight.begin(), other.readsInFlight.end());
    uncommitted.insert(other.uncommitted.begin(), other.uncommitted.end());
  }
  /// Carries the accesses still in flight of `other` (a region that ran on
  /// other warps) into this state.
  void joinInFlight(const Pending &other) {
    inFlight.insert(other.inFlight.begin(), other.inFlight.end());
    readsInFlight.insert(other.readsInFlight.begin(), other.readsInFlight.end());
    uncommitted.insert(other.uncommitted.begin(), other.uncommitted.end());
  }
  /// A CTA barrier: every access made before it is ordered before every
  /// access after it, except the copies still in flight.
  void barrier() {
    reads.clear();
    writes.clear();
    issuerReads.clear();
    issuerWrites.clear();
  }
  /// The state right after a barrier placed here.
  Pending afterBarrier() const {
    Pending after;
    after.inFlight = inFlight;
    after.readsInFlight = readsInFlight;
    after.uncommitted = uncommitted;
    return after;
  }
  bool operator==(const Pending &other) const {
    return reads == other.reads && writes == other.writes &&
           issuerReads == other.issuerReads &&
           issuerWrites == other.issuerWrites && inFlight == other.inFlight &&
           readsInFlight == other.readsInFlight &&
           uncommitted == other.uncommitted;
  }
};

/// Walks the functions of a module and places their barriers.
class BarrierPlacement {
public:
  explicit BarrierPlacement(ModuleOp module) {
    findSharedMemoryFunctions(module);
  }

  void runOnFunction(FunctionOpInterface function) {
    Region &body = function.getFunctionBody();
    Pending state;
    if (body.hasOneBlock())
      visitBlock(body.front(), state, /*insert=*/true);
    else
      visitRegions(function, state, /*insert=*/true);
  }

private:
  /// The accesses of `op` itself (calls included), computed once.
  const SharedMemoryAccess &getAccess(Operation *op);
  /// True if `op`'s regions hold anything this analysis must look at.
  bool hasNestedAccesses(Operation *op);
  /// Functions of the module that use shared memory, callees included.
  void findSharedMemoryFunctions(ModuleOp module);
  Operation *getCallee(CallOpInterface call);

  void visitBlock(Block &block, Pending &state, bool insert);
  void visitOp(Operation *op, Pending &state, bool insert);
  void visitFor(scf::ForOp forOp, Pending &state, bool insert);
  /// The fixed-point state at the top of `forOp`'s body, entered with
  /// `state`.
  Pending loopEntry(scf::ForOp forOp, const Pending &state);
  /// The barriers one walk of `forOp`'s body from `entry` would place
  /// (nothing is inserted).
  unsigned countBarriers(scf::ForOp forOp, const Pending &entry);
  void visitWhile(scf::WhileOp whileOp, Pending &state, bool insert);
  void visitIf(scf::IfOp ifOp, Pending &state, bool insert);
  void visitRegions(Operation *op, Pending &state, bool insert);
  void visitWarpSpecialize(ttg::WarpSpecializeOp op, Pending &state, bool insert);

  SymbolTableCollection symbols;
  DenseSet<Operation *> sharedMemoryFunctions;
  DenseMap<Operation *, SharedMemoryAccess> accesses;
  DenseMap<Operation *, bool> nested;
  /// While countBarriers walks a loop: that loop, and the barriers placed
  /// inside it so far.
  Operation *countingLoop = nullptr;
  unsigned counted = 0;
};
} // namespace

Operation *BarrierPlacement::getCallee(CallOpInterface call) {
  return call.resolveCallableInTable(&symbols);
}

void BarrierPlacement::findSharedMemoryFunctions(ModuleOp module) {
  // Direct users first, then callers of users until nothing changes.
  SmallVector<std::pair<Operation *, Operation *>> calls; // caller, callee
  module.walk([&](FunctionOpInterface function) {
    function->walk([&](Operation *op) {
      if (auto call = dyn_cast<CallOpInterface>(op)) {
        if (Operation *callee = getCallee(call))
          calls.push_back({function, callee});
        return;
      }
      if (!getSharedMemoryAccess(op).empty())
        sharedMemoryFunctions.insert(function);
    });
  });
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto [caller, callee] : calls)
      if (sharedMemoryFunctions.contains(callee) &&
          sharedMemoryFunctions.insert(caller).second)
        changed = true;
  }
}

const SharedMemoryAccess &BarrierPlacement::getAccess(Operation *op) {
  auto it = accesses.find(op);
  if (it != accesses.end())
    return it->second;
  SharedMemoryAccess access;
  if (auto call = dyn_cast<CallOpInterface>(op)) {
    Operation *callee = getCallee(call);
    // An unresolved callee may do anything.
    if (!callee || sharedMemoryFunctions.contains(callee)) {
      access.reads.push_back(SharedInterval::all());
      access.writes.push_back(SharedInterval::all());
    }
  } else {
    access = getSharedMemoryAccess(op);
  }
  return accesses.try_emplace(op, std::move(access)).first->second;
}

bool BarrierPlacement::hasNestedAccesses(Operation *op) {
  auto it = nested.find(op);
  if (it != nested.end())
    return it->second;
  bool found = false;
  for (Region &region : op->getRegions())
    region.walk([&](Operation *inner) {
      if (isa<ttg::BarrierOp, gpu::BarrierOp, ttg::AsyncWaitOp,
              ttg::AsyncCommitGroupOp, ttg::AsyncTMAStoreWaitOp>(inner) ||
          !getAccess(inner).empty()) {
        found = true;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
  return nested[op] = found;
}

void BarrierPlacement::visitBlock(Block &block, Pending &state, bool insert) {
  for (Operation &op : block)
    visitOp(&op, state, insert);
}

void BarrierPlacement::visitOp(Operation *op, Pending &state, bool insert) {
  if (isa<ttg::BarrierOp, gpu::BarrierOp>(op)) {
    state.barrier();
    return;
  }
  if (auto wait = dyn_cast<ttg::AsyncWaitOp>(op)) {
    state.asyncWait(/*all=*/wait.getNum() == 0);
    return;
  }
  if (isa<ttg::AsyncCommitGroupOp>(op)) {
    state.uncommitted.clear();
    return;
  }
  if (auto wait = dyn_cast<ttg::AsyncTMAStoreWaitOp>(op)) {
    state.storeWait(/*all=*/wait.getPendings() == 0);
    return;
  }
  if (op->getNumRegions() != 0 && hasNestedAccesses(op)) {
    if (auto forOp = dyn_cast<scf::ForOp>(op))
      visitFor(forOp, state, insert);
    else if (auto whileOp = dyn_cast<scf::WhileOp>(op))
      visitWhile(whileOp, state, insert);
    else if (auto ifOp = dyn_cast<scf::IfOp>(op))
      visitIf(ifOp, state, insert);
    else if (auto specialize = dyn_cast<ttg::WarpSpecializeOp>(op))
      visitWarpSpecialize(specialize, state, insert);
    else
      visitRegions(op, state, insert);
  }
  const SharedMemoryAccess &access = getAccess(op);
  if (access.empty())
    return;
  if (state.conflictsWith(access)) {
    if (insert) {
      OpBuilder builder(op);
      ttg::BarrierOp::create(builder, op->getLoc());
    }
    if (countingLoop && countingLoop->isProperAncestor(op))
      ++counted;
    state.barrier();
  }
  state.add(access);
}

Pending BarrierPlacement::loopEntry(scf::ForOp forOp, const Pending &state) {
  Block &body = *forOp.getBody();
  Pending entry = state;
  while (true) {
    Pending next = entry;
    visitBlock(body, next, /*insert=*/false);
    next.join(entry);
    if (next == entry)
      return entry;
    entry = std::move(next);
  }
}

unsigned BarrierPlacement::countBarriers(scf::ForOp forOp,
                                         const Pending &entry) {
  Operation *outerLoop = countingLoop;
  unsigned outerCount = counted;
  countingLoop = forOp;
  counted = 0;
  Pending walk = entry;
  visitBlock(*forOp.getBody(), walk, /*insert=*/false);
  unsigned result = counted;
  countingLoop = outerLoop;
  counted = outerCount;
  return result;
}

void BarrierPlacement::visitFor(scf::ForOp forOp, Pending &state,
                                bool insert) {
  Pending entry = loopEntry(forOp, state);
  // A barrier the body needs only because of what was pending before the
  // loop runs once before it rather than in every iteration.
  if (!(state == state.afterBarrier())) {
    Pending fresh = loopEntry(forOp, state.afterBarrier());
    if (countBarriers(forOp, fresh) < countBarriers(forOp, entry)) {
      if (insert) {
        OpBuilder builder(forOp);
        ttg::BarrierOp::create(builder, forOp.getLoc());
      }
      if (countingLoop && countingLoop->isProperAncestor(forOp))
        ++counted;
      state.barrier();
      entry = std::move(fresh);
    }
  }
  visitBlock(*forOp.getBody(), entry, insert);
  state.join(entry);
}

void BarrierPlacement::visitWhile(scf::WhileOp whileOp, Pending &state,
                                  bool insert) {
  Block &before = whileOp.getBefore().front();
  Block &after = whileOp.getAfter().front();
  Pending entry = state;
  while (true) {
    Pending next = entry;
    visitBlock(before, next, /*insert=*/false);
    visitBlock(after, next, /*insert=*/false);
    next.join(entry);
    if (next == entry)
      break;
    entry = std::move(next);
  }
  visitBlock(before, entry, insert);
  Pending afterState = entry;
  visitBlock(after, afterState, insert);
  state = std::move(entry); // the loop leaves from the end of "before"
}

void BarrierPlacement::visitIf(scf::IfOp ifOp, Pending &state, bool insert) {
  Pending thenState = state;
  visitBlock(ifOp.getThenRegion().front(), thenState, insert);
  if (!ifOp.getElseRegion().empty())
    visitBlock(ifOp.getElseRegion().front(), state, insert);
  state.join(thenState);
}

void BarrierPlacement::visitWarpSpecialize(ttg::WarpSpecializeOp op,
                                           Pending &state, bool insert) {
  // The last CTA barrier all warps reach, always placed: what came before
  // (the mbarriers' initialization, tensor maps the kernel made and
  // released, which the partition acquires) is ordered before both regions.
  Operation *previous = op->getPrevNode();
  if (insert && !(previous && isa<ttg::BarrierOp>(previous))) {
    OpBuilder builder(op);
    ttg::BarrierOp::create(builder, op.getLoc());
  }
  state.barrier();
  // The regions run at once on different warps and order their shared
  // accesses with each other through mbarriers only: each is walked alone,
  // from nothing pending but what is still in flight, and its barriers wait
  // for its own warps.  What either leaves in flight is in flight after.
  Pending exits = state.afterBarrier();
  for (Region *region : {&op.getDefaultRegion(), &op.getPartitionRegion()}) {
    Pending regionState = state.afterBarrier();
    visitBlock(region->front(), regionState, insert);
    exits.joinInFlight(regionState);
  }
  state = exits.afterBarrier(); // only the return follows
}

void BarrierPlacement::visitRegions(Operation *op, Pending &state,
                                    bool insert) {
  // Every block may follow every other (or the op's entry), any number of
  // times: one entry state for all, grown until the blocks add nothing.
  auto visitAll = [&](const Pending &entry, Pending &exits, bool doInsert) {
    for (Region &region : op->getRegions())
      for (Block &block : region) {
        Pending blockState = entry;
        visitBlock(block, blockState, doInsert);
        exits.join(blockState);
      }
  };
  Pending entry = state;
  while (true) {
    Pending next = entry;
    visitAll(entry, next, /*doInsert=*/false);
    if (next == entry)
      break;
    entry = std::move(next);
  }
  Pending exits = state;
  visitAll(entry, exits, insert);
  state = std::move(exits);
}

void tritium::insertSharedMemoryBarriers(ModuleOp module) {
  BarrierPlacement placement(module);
  SmallVector<FunctionOpInterface> functions;
  module.walk([&](FunctionOpInterface function) {
    if (!function.isExternal())
      functions.push_back(function);
  });
  for (FunctionOpInterface function : functions)
    placement.runOnFunction(function);
}
