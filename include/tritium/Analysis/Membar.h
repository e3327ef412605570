//===- Membar.h - barriers between shared-memory accesses -------*- C++ -*-===//
//
// Threads of a CTA share shared memory but run unsynchronized, so when one
// thread writes bytes that another reads or writes (or reads bytes another
// will overwrite), a CTA barrier must separate the two accesses.  This
// analysis follows, per function and through structured control flow, the
// bytes read and written since the last barrier, and inserts a `ttg.barrier`
// right before each op whose own accesses would race with them.
//
// Which bytes an op touches comes from the offsets that
// ttg-allocate-shared-memory recorded (include/tritium/Analysis/Allocation.h), so
// it must run after that pass and before the lowering.  The lowerings of
// scratch ops (layout conversions, atomics, reductions, ...) keep only the
// barriers *inside* the op, between their own writes and reads; every
// barrier between ops comes from here.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_ANALYSIS_MEMBAR_H
#define TRITIUM_ANALYSIS_MEMBAR_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <limits>

namespace tritium {

/// A half-open range [start, end) of bytes of the kernel's shared memory.
struct SharedInterval {
  int64_t start = 0;
  int64_t end = 0;

  /// Every byte: what an access to an unknown buffer may touch.
  static SharedInterval all() {
    return {0, std::numeric_limits<int64_t>::max()};
  }
  bool overlaps(const SharedInterval &other) const {
    return start < other.end && other.start < end;
  }
  bool operator<(const SharedInterval &other) const {
    return start != other.start ? start < other.start : end < other.end;
  }
  bool operator==(const SharedInterval &other) const {
    return start == other.start && end == other.end;
  }
};

/// The shared-memory bytes one op reads and writes when lowered (its own
/// accesses, not those of ops nested in its regions).
struct SharedMemoryAccess {
  llvm::SmallVector<SharedInterval, 1> reads;
  llvm::SmallVector<SharedInterval, 1> writes;
  /// The writes complete on an mbarrier (TMA copies): they wait for the
  /// accesses pending before them, but later readers see them through
  /// their own wait on the barrier, not through a CTA barrier, so they do
  /// not stay pending.
  bool writesCompleteOnBarrier = false;
  /// Made by the issuing thread alone (thread 0 of the CTA: mbarrier
  /// init and inval).  Two such accesses are ordered by
  /// that thread's program order, so only the accesses of all threads
  /// conflict with them.
  bool byIssuingThread = false;
  /// The writes are made by copies each thread issues (cp.async) and
  /// complete only when that thread waits for them (ttg.async_wait): a
  /// barrier before the wait orders nothing.  They stay in flight until
  /// a wait, and count as pending writes from the wait on, so a barrier
  /// goes between the wait and the next access that overlaps them.
  bool writesCompleteOnAsyncWait = false;
  /// The reads are made by the copy engine for a TMA store, which the
  /// issuing thread waits for (ttg.async_tma_store_wait): like the writes
  /// above, they stay in flight until a wait, and count as pending reads
  /// from the wait on.
  bool readsCompleteOnStoreWait = false;

  bool empty() const { return reads.empty() && writes.empty(); }
};

/// The accesses of `op` alone, from the offsets ttg-allocate-shared-memory
/// recorded:
///   * an op with scratch (allocation.offset and getScratchBytes > 0) reads
///     and writes its scratch: its lowering writes, synchronizes and reads
///     it, so it is one access of both kinds;
///   * ttg.local_alloc with a source writes its buffer;
///   * ttg.local_store and ttg.async_copy_global_to_local write, and
///     ttg.local_load reads, the whole buffer of the ttg.local_alloc their
///     memdesc views (through memdesc_index / memdesc_subslice); the
///     copy's writes complete on ttg.async_wait (writesCompleteOnAsyncWait);
///   * any other op that declares a read or write of shared memory, or a
///     memdesc whose allocation is not known (a function argument, a loop
///     argument), touches every byte.
/// Calls are not handled here (see insertSharedMemoryBarriers).
SharedMemoryAccess getSharedMemoryAccess(mlir::Operation *op);

/// Inserts the `ttg.barrier` ops that every function of `module` needs
/// (the ttg-membar pass): before each op whose accesses overlap, as
/// read-after-write, write-after-read or write-after-write, an access made
/// since the last barrier on some path to it, loops' back edges included.
/// A tt.call of a function that uses shared memory (itself or through its
/// callees) counts as reading and writing every byte.  Barriers already in
/// the IR are kept and taken into account.
void insertSharedMemoryBarriers(mlir::ModuleOp module);

} // namespace tritium

#endif // TRITIUM_ANALYSIS_MEMBAR_H
