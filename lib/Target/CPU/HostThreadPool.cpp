//===- HostThreadPool.cpp - the threads that run CPU grids ----------------===//
//
// A job is (task, count, helpers): the caller publishes it under the pool's
// lock with a new generation number and wakes the workers; workers whose
// index is below `helpers` take indices from the job's atomic counter until
// it passes `count`, then report; the caller, having drained the counter
// too, waits for the `helpers` reports.  A worker handles each generation
// at most once, and the next job is published only after every helper of
// the current one has reported, so a late worker never sees a stale job.
// Jobs are serialized by a second lock.  The pool is never destroyed (its
// workers sleep through process exit); a child process made by fork()
// starts a pool of its own, since it inherits none of the threads.
//
// A task whose stack frame is larger than kPoolStackBytes runs on threads
// started for its call instead, with stacks of the frame plus 1 MiB, as
// many as asked but no more than a quarter of the physical memory holds;
// they take indices from a counter of their own and the caller joins them.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/CPU/HostThreadPool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <cstring>
#include <thread>
#include <vector>

#include <pthread.h>
#include <unistd.h>

using namespace tritium::cpu;

namespace {

class HostThreadPool {
public:
  explicit HostThreadPool(unsigned workers) {
    for (unsigned i = 0; i < workers; ++i)
      std::thread([this, i] { work(i); }).detach();
    size = workers;
  }

  unsigned workers() const { return size; }

  void run(int64_t count, unsigned helpers,
           llvm::function_ref<void(int64_t)> task) {
    std::lock_guard<std::mutex> job(jobLock);
    {
      std::lock_guard<std::mutex> lock(mutex);
      current = task;
      total = count;
      next.store(0, std::memory_order_relaxed);
      wanted = helpers;
      reported = 0;
      ++generation;
    }
    wake.notify_all();
    drain();
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [&] { return reported == wanted; });
  }

private:
  void drain() {
    for (int64_t i = next.fetch_add(1); i < total; i = next.fetch_add(1))
      current(i);
  }

  void work(unsigned index) {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      wake.wait(lock, [&] { return generation != seen; });
      seen = generation;
      if (index >= wanted)
        continue;
      lock.unlock();
      drain();
      lock.lock();
      if (++reported == wanted)
        done.notify_one();
    }
  }

  std::mutex jobLock; ///< one job at a time
  std::mutex mutex;   ///< the job's fields below
  std::condition_variable wake, done;
  uint64_t generation = 0;
  llvm::function_ref<void(int64_t)> current;
  int64_t total = 0;
  std::atomic<int64_t> next{0};
  unsigned wanted = 0, reported = 0;
  unsigned size = 0;
};

std::atomic<HostThreadPool *> processPool{nullptr};
std::mutex poolCreation;

HostThreadPool &pool() {
  if (HostThreadPool *p = processPool.load(std::memory_order_acquire))
    return *p;
  std::lock_guard<std::mutex> lock(poolCreation);
  if (HostThreadPool *p = processPool.load(std::memory_order_relaxed))
    return *p;
  static const bool forkHandler = [] {
    // The child has the pool's memory but not its threads: it makes its own.
    pthread_atfork(nullptr, nullptr,
                   [] { processPool.store(nullptr, std::memory_order_relaxed); });
    return true;
  }();
  (void)forkHandler;
  unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  auto *p = new HostThreadPool(hardware - 1); // never deleted (see above)
  processPool.store(p, std::memory_order_release);
  return *p;
}

} // namespace

namespace {
/// One call's threads for tasks with large frames.
struct LargeStackRun {
  llvm::function_ref<void(int64_t)> task;
  int64_t count;
  std::atomic<int64_t> next{0};

  static void *work(void *self) {
    auto *run = static_cast<LargeStackRun *>(self);
    for (int64_t i = run->next.fetch_add(1); i < run->count; i = run->next.fetch_add(1))
      run->task(i);
    return nullptr;
  }
};

/// runOnHostThreads for a task of `stackBytes`: up to `threads` threads
/// with stacks of stackBytes plus 1 MiB (for what the task calls), the
/// caller waiting for them.
std::optional<std::string> runWithLargeStacks(int64_t count, unsigned threads, uint64_t stackBytes,
                                              llvm::function_ref<void(int64_t)> task) {
  unsigned wanted = threads == 0 ? std::max(1u, std::thread::hardware_concurrency()) : threads;
  wanted = static_cast<unsigned>(std::min<int64_t>(wanted, count));
  uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  uint64_t size = (stackBytes + (1u << 20) + page - 1) / page * page;
  // The frames are written as the programs run: their stacks become memory.
  long pages = sysconf(_SC_PHYS_PAGES);
  if (pages > 0)
    wanted = static_cast<unsigned>(
        std::max<uint64_t>(1, std::min<uint64_t>(wanted, static_cast<uint64_t>(pages) * page / 4 / size)));
  LargeStackRun run{task, count};
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  int status = pthread_attr_setstacksize(&attributes, size);
  std::vector<pthread_t> started;
  for (unsigned i = 0; status == 0 && i < wanted; ++i) {
    pthread_t thread;
    int created = pthread_create(&thread, &attributes, &LargeStackRun::work, &run);
    if (created != 0) {
      if (started.empty())
        status = created;
      break; // the threads started share the work
    }
    started.push_back(thread);
  }
  pthread_attr_destroy(&attributes);
  for (pthread_t thread : started)
    pthread_join(thread, nullptr);
  if (started.empty())
    return "the kernel's stack frame takes " + std::to_string(stackBytes >> 10) +
           " KiB, and no thread with a stack that large could start (" + std::strerror(status) +
           "): a smaller block shape needs less";
  return std::nullopt;
}
} // namespace

std::optional<std::string> tritium::cpu::runOnHostThreads(int64_t count, unsigned threads, uint64_t stackBytes,
                                                          llvm::function_ref<void(int64_t)> task) {
  if (count <= 0)
    return std::nullopt;
  if (stackBytes > kPoolStackBytes)
    return runWithLargeStacks(count, threads, stackBytes, task);
  if (threads == 1 || count == 1) {
    for (int64_t i = 0; i < count; ++i)
      task(i);
    return std::nullopt;
  }
  HostThreadPool &p = pool();
  unsigned helpers = threads == 0 ? p.workers() : std::min(threads - 1, p.workers());
  helpers = static_cast<unsigned>(std::min<int64_t>(helpers, count - 1));
  p.run(count, helpers, task);
  return std::nullopt;
}
