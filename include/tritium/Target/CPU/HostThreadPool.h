//===- HostThreadPool.h - the threads that run CPU grids --------*- C++ -*-===//
//
// One pool of worker threads per process, started at the first grid run and
// kept: a launch wakes them instead of starting threads (which costs tens
// of microseconds each, more than a small grid's work).  The calling thread
// works too; grids of concurrent launches run one after another.  A
// program with a stack frame too large for those threads' stacks runs on
// threads started for its grid instead.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_CPU_HOSTTHREADPOOL_H
#define TRITIUM_TARGET_CPU_HOSTTHREADPOOL_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tritium::cpu {

/// Calls `task(i)` for every i in [0, count), on up to `threads` threads
/// (the caller and threads - 1 workers; 0: one per hardware thread), each
/// taking the next i from a shared counter.  Returns when all calls have.
/// A task that needs more than kPoolStackBytes of stack (`stackBytes`)
/// runs on threads started for the call with stacks that hold it; when
/// not even one such thread starts, nothing runs and the reason returns.
std::optional<std::string> runOnHostThreads(int64_t count, unsigned threads, uint64_t stackBytes,
                                            llvm::function_ref<void(int64_t)> task);

/// The most stack a task may need to run on the pool's threads or the
/// caller's (whose stacks are the system's default, typically 8 MiB, and
/// partly used by the caller).
constexpr uint64_t kPoolStackBytes = 1u << 20;

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_HOSTTHREADPOOL_H
