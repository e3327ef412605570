//===- ChildProcess.cpp - child processes without shells or signals ------===//
//
// The processes the back end runs (ptxas): started with posix_spawn from an
// argument vector, stdout and stderr into a log file, stdin /dev/null or a
// pipe the parent writes; waited for through a pidfd (polling where the
// kernel has none) with a deadline, never SIGALRM, which is one per process
// and would be shared by compiles waiting on several threads, and killed by
// its own wait where another thread raises the wait's stop flag (so that no
// other thread signals a pid the wait may already have reaped).  A pipe for a
// child's input is made under a lock that fork takes (pthread_atfork), and a
// child forked (not exec'd) meanwhile closes its copies of the write ends.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/NVIDIA/ChildProcess.h"

#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <ctime>
#include <mutex>
#include <system_error>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace {
/// How often a wait that may be stopped looks at its flag.
constexpr long kStopPollMs = 5;

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The write ends of the pipes made by makeChildInputPipe and not yet
/// forgotten, each as fd + 1 (0: a free slot).  A child this process forks
/// (not execs) meanwhile holds copies of them, and the process reading such
/// a pipe waits for the end of its input until every copy is closed: the
/// forked child closes its copies as it starts.  A pipe is made and entered here under
/// pipeMaking, which fork takes first (pthread_atfork), so that no child is
/// made between the two.
constexpr int kPipeSlots = 256;
std::atomic<int> childInputPipeEnds[kPipeSlots];
pthread_mutex_t pipeMaking = PTHREAD_MUTEX_INITIALIZER;

void takePipeMaking() { pthread_mutex_lock(&pipeMaking); }
void givePipeMaking() { pthread_mutex_unlock(&pipeMaking); }
void closeChildInputPipesInChild() {
  for (std::atomic<int> &slot : childInputPipeEnds)
    if (int end = slot.exchange(0, std::memory_order_relaxed))
      ::close(end - 1); // the child's copy; the pipe's user is the parent
  pthread_mutex_unlock(&pipeMaking);
}

} // namespace

bool tritium::nvidia::writeToPipe(int fd, llvm::StringRef data,
                                  unsigned seconds) {
  sigset_t pipeSignal, previous;
  sigemptyset(&pipeSignal);
  sigaddset(&pipeSignal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  bool ok = true, broken = false;
  while (!data.empty()) {
    ssize_t written = ::write(fd, data.data(), data.size());
    if (written > 0) {
      data = data.drop_front(written);
      continue;
    }
    if (written < 0 && errno == EINTR)
      continue;
    if (written < 0 && errno == EAGAIN) {
      int waitMs = 100;
      if (seconds) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
          ok = false;
          break;
        }
        waitMs = std::min<int>(waitMs, left.count());
      }
      struct pollfd writable = {fd, POLLOUT, 0};
      ::poll(&writable, 1, waitMs);
      continue;
    }
    broken = written < 0 && errno == EPIPE;
    ok = false;
    break;
  }
  if (broken && !sigismember(&previous, SIGPIPE)) {
    struct timespec none = {0, 0};
    while (sigtimedwait(&pipeSignal, nullptr, &none) == SIGPIPE) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return ok;
}

bool tritium::nvidia::makeChildInputPipe(int fds[2]) {
  static std::once_flag installed;
  std::call_once(installed, [] {
    pthread_atfork(takePipeMaking, givePipeMaking, closeChildInputPipesInChild);
  });
  pthread_mutex_lock(&pipeMaking);
  bool made = pipe2(fds, O_CLOEXEC) == 0;
  bool entered = false;
  for (int i = 0; made && !entered && i < kPipeSlots; ++i) {
    int free = 0;
    entered = childInputPipeEnds[i].compare_exchange_strong(free, fds[1] + 1);
  }
  pthread_mutex_unlock(&pipeMaking);
  if (made && !entered) { // every slot taken: no pipe rather than one a child keeps open
    ::close(fds[0]);
    ::close(fds[1]);
    return false;
  }
  return made;
}

void tritium::nvidia::forgetChildInputPipe(int fd) {
  for (std::atomic<int> &slot : childInputPipeEnds) {
    int held = fd + 1;
    if (slot.compare_exchange_strong(held, 0))
      return;
  }
}

llvm::Expected<pid_t>
tritium::nvidia::spawnProcess(const std::vector<std::string> &args, int input,
                              const std::string &logPath) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (input >= 0)
    posix_spawn_file_actions_adddup2(&actions, input, 0);
  else
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, logPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char *> argv;
  for (const std::string &arg : args)
    argv.push_back(const_cast<char *>(arg.c_str()));
  argv.push_back(nullptr);
  pid_t pid;
  int failed = posix_spawn(&pid, args[0].c_str(), &actions, nullptr,
                           argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (failed != 0)
    return makeError("cannot run " + args[0] + ": " +
                     std::error_code(failed, std::generic_category()).message());
  return pid;
}

llvm::Expected<int> tritium::nvidia::waitForExit(pid_t pid, unsigned seconds,
                                                llvm::StringRef program,
                                                const std::atomic<bool> *stop) {
  auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  int handle = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); // -1: poll by sleeping
  int status = 0;
  for (int pause = 1;; pause = std::min(pause * 2, 50)) {
    pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid)
      break;
    if (done < 0 && errno != EINTR) {
      if (handle >= 0)
        ::close(handle);
      return makeError("cannot wait for " + program + ": " +
                       std::error_code(errno, std::generic_category()).message());
    }
    if (stop && stop->load(std::memory_order_acquire)) {
      killProcess(pid);
      if (handle >= 0)
        ::close(handle);
      return makeError(program + " was stopped (killed)");
    }
    long left = -1; // milliseconds to the deadline; -1: none
    if (seconds) {
      left = std::chrono::duration_cast<std::chrono::milliseconds>(
                 deadline - std::chrono::steady_clock::now())
                 .count();
      if (left <= 0) {
        killProcess(pid);
        if (handle >= 0)
          ::close(handle);
        return makeError(program + " did not finish within " +
                         llvm::Twine(seconds) + " s (killed)");
      }
    }
    // A wait that may be stopped looks at `stop` every few milliseconds.
    if (stop)
      left = left < 0 ? kStopPollMs : std::min<long>(left, kStopPollMs);
    if (handle >= 0) { // readable once the process has ended
      struct pollfd ended = {handle, POLLIN, 0};
      ::poll(&ended, 1, static_cast<int>(std::min<long>(left, INT_MAX)));
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(
          left < 0 ? pause : std::min<long>(pause, left)));
    }
  }
  if (handle >= 0)
    ::close(handle);
  if (WIFSIGNALED(status))
    return makeError(program + " did not finish: killed by signal " +
                     llvm::Twine(WTERMSIG(status)));
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

llvm::Expected<int>
tritium::nvidia::runProcess(const std::vector<std::string> &args,
                            const std::string &logPath, unsigned timeout,
                            const std::atomic<bool> *stop) {
  llvm::Expected<pid_t> pid = spawnProcess(args, -1, logPath);
  if (!pid)
    return pid.takeError();
  return waitForExit(*pid, timeout, args[0], stop);
}

void tritium::nvidia::killProcess(pid_t pid) {
  ::kill(pid, SIGKILL);
  int status;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}
