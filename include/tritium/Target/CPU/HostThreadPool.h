//===- HostThreadPool.h - the threads that run CPU grids --------*- C++ -*-===//
//
// One pool of worker threads per process, started at the first grid run and
// kept: a launch wakes them instead of starting threads (which costs tens
// of microseconds each, more than a small grid's work).  The calling thread
// works too; grids of concurrent launches run one after another.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_CPU_HOSTTHREADPOOL_H
#define TRITIUM_TARGET_CPU_HOSTTHREADPOOL_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>

namespace tritium::cpu {

/// Calls `task(i)` for every i in [0, count), on up to `threads` threads
/// (the caller and threads - 1 workers; 0: one per hardware thread), each
/// taking the next i from a shared counter.  Returns when all calls have.
void runOnHostThreads(int64_t count, unsigned threads,
                      llvm::function_ref<void(int64_t)> task);

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_HOSTTHREADPOOL_H
