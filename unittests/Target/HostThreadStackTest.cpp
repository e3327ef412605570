// Tests of the stacks CPU grids run on (runOnHostThreads): a task whose
// frame exceeds what the pool's threads hold runs on threads started with
// stacks that hold it, every index once; one no thread can be started for
// runs nothing and says why.
#include "tritium/Target/CPU/HostThreadPool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

using namespace tritium::cpu;

namespace {
/// Writes `bytes` of this thread's stack (a frame the compiler cannot
/// shrink: the buffer's bytes are summed back) and returns their sum.
[[gnu::noinline]] uint64_t touchStack(size_t bytes) {
  volatile char *frame = static_cast<volatile char *>(__builtin_alloca(bytes));
  for (size_t i = 0; i < bytes; i += 4096)
    frame[i] = static_cast<char>(i >> 12);
  uint64_t sum = 0;
  for (size_t i = 0; i < bytes; i += 4096)
    sum += static_cast<unsigned char>(frame[i]);
  return sum;
}
} // namespace

TEST(HostThreadStack, TasksWithLargeFramesRunOnLargeStacks) {
  constexpr size_t kFrame = 24u << 20; // three times a default thread stack
  std::vector<std::atomic<int>> runs(40);
  std::atomic<uint64_t> sums{0};
  std::optional<std::string> refused = runOnHostThreads(
      static_cast<int64_t>(runs.size()), 4, kFrame, [&](int64_t i) {
        sums += touchStack(kFrame);
        runs[i]++;
      });
  EXPECT_FALSE(refused) << *refused;
  for (const std::atomic<int> &count : runs)
    EXPECT_EQ(count.load(), 1);
  EXPECT_GT(sums.load(), 0u);
}

TEST(HostThreadStack, SmallFramesRunOnThePoolAndTheCaller) {
  std::vector<std::atomic<int>> runs(1000);
  EXPECT_FALSE(runOnHostThreads(static_cast<int64_t>(runs.size()), 0, 4096,
                                [&](int64_t i) { runs[i]++; }));
  for (const std::atomic<int> &count : runs)
    EXPECT_EQ(count.load(), 1);
}

TEST(HostThreadStack, AFrameNoThreadCanHoldRunsNothingAndSaysWhy) {
  std::atomic<int> calls{0};
  std::optional<std::string> refused =
      runOnHostThreads(8, 2, uint64_t(1) << 50, [&](int64_t) { calls++; });
  ASSERT_TRUE(refused);
  EXPECT_NE(refused->find("stack frame takes"), std::string::npos) << *refused;
  EXPECT_EQ(calls.load(), 0);
}
