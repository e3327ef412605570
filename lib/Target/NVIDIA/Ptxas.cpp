//===- Ptxas.cpp - PTX to cubin with NVIDIA's ptxas ------------------------===//
//
// Where $TRITIUM_NVJITLINK asks for nvJitLink (NvJitLink.h) and it is found,
// the PTX is compiled by that library inside this process instead.
// Otherwise ptxas is started with posix_spawn: an argument vector, no
// shell, stdout and stderr into one log file, and stdin /dev/null or, for a
// ptxas started before its PTX exists (StartedPtxas), a pipe.  Its end is
// waited for without signals (pidfd, else polling), so that compiles on
// several threads can each wait with a time limit.  The -v
// report it writes looks like
//
//   ptxas info    : Compiling entry function 'add' for 'sm_90a'
//   ptxas info    : Function properties for add
//       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//   ptxas info    : Used 12 registers, used 1 barriers, 4096 bytes smem
//
// and is read line by line: "Function properties for X" says which function
// the next numbers belong to; only entry functions (kernels) are kept.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/NVIDIA/Ptxas.h"
#include "tritium/Target/NVIDIA/NvJitLink.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <map>
#include <mutex>

#include <chrono>

#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

using namespace tritium::nvidia;

namespace {
llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string ptxasUnder(const char *toolkit) {
  if (!toolkit || !*toolkit)
    return "";
  llvm::SmallString<256> path(toolkit);
  llvm::sys::path::append(path, "bin", "ptxas");
  return llvm::sys::fs::can_execute(path) ? std::string(path) : "";
}

/// The number just before `suffix` in `line` ("12" for " registers" in
/// "Used 12 registers"), or -1 when `suffix` is absent.
int numberBefore(llvm::StringRef line, llvm::StringRef suffix) {
  size_t at = line.find(suffix);
  if (at == llvm::StringRef::npos)
    return -1;
  size_t begin = at;
  while (begin > 0 && llvm::isDigit(line[begin - 1]))
    --begin;
  int value = -1;
  if (begin == at || line.slice(begin, at).getAsInteger(10, value))
    return -1;
  return value;
}

/// The text between the first pair of single quotes after `marker`, or the
/// rest of the line when the name is not quoted.
llvm::StringRef nameAfter(llvm::StringRef line, llvm::StringRef marker) {
  llvm::StringRef rest = line.substr(line.find(marker) + marker.size()).trim();
  if (rest.consume_front("'"))
    return rest.take_until([](char c) { return c == '\''; });
  return rest;
}

/// ptxas's command line: -v (the resource report), the chip, the
/// optimization level and the switches of `options`, then the input and
/// the cubin's path.
std::vector<std::string> ptxasArguments(llvm::StringRef ptxasPath,
                                        const CudaTarget &target,
                                        const PtxasOptions &options,
                                        llvm::StringRef input,
                                        llvm::StringRef cubin) {
  std::vector<std::string> args = {ptxasPath.str(), "-v",
                                   "--gpu-name=" + target.chip(),
                                   options.optimize ? "-O3" : "-O0"};
  if (!options.fpFusion)
    args.push_back("--fmad=false");
  if (options.lineInfo)
    args.push_back("-lineinfo");
  args.insert(args.end(), {input.str(), "-o", cubin.str()});
  return args;
}

/// The result of a ptxas run that exited with `status`: its log (the input
/// named as users know it, kernel.ptx) with the kernels' resources, and
/// the cubin when it succeeded.
llvm::Expected<PtxasResult> collectOutputs(int status, llvm::StringRef input,
                                           llvm::StringRef logPath,
                                           llvm::StringRef cubinPath,
                                           std::string command) {
  PtxasResult result;
  result.command = std::move(command);
  if (auto log = llvm::MemoryBuffer::getFile(logPath))
    result.log = (*log)->getBuffer().str();
  for (size_t at; (at = result.log.find(input.str())) != std::string::npos;)
    result.log.replace(at, input.size(), "kernel.ptx");
  result.kernels = parsePtxasLog(result.log);
  if (status != 0)
    return result;
  auto cubin = llvm::MemoryBuffer::getFile(cubinPath, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!cubin)
    return makeError("ptxas succeeded but wrote no cubin: " +
                     cubin.getError().message());
  result.cubin = (*cubin)->getBuffer().str();
  result.succeeded = true;
  return result;
}

/// Writes all of `data` to the pipe `fd` until the reader goes: every byte
/// written, true; the reader gone (EPIPE) or `seconds` passed (0: no
/// limit), false.  SIGPIPE is held back for this thread and discarded, so
/// that a reader that is gone cannot end the process.
bool writeToPipe(int fd, llvm::StringRef data, unsigned seconds) {
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

/// The write ends of the pipes of started ptxas processes that have not
/// been given their PTX yet, each as fd + 1 (0: a free slot).  A child this
/// process forks (not execs) meanwhile holds copies of them, and a ptxas
/// waits for the end of its input until every copy is closed: the child
/// closes its copies as it starts.  A pipe is made and entered here under
/// pipeMaking, which fork takes first (pthread_atfork), so that no child is
/// made between the two.
constexpr int kPipeSlots = 256;
std::atomic<int> startedPipeEnds[kPipeSlots];
pthread_mutex_t pipeMaking = PTHREAD_MUTEX_INITIALIZER;

void takePipeMaking() { pthread_mutex_lock(&pipeMaking); }
void givePipeMaking() { pthread_mutex_unlock(&pipeMaking); }
void closeStartedPipesInChild() {
  for (std::atomic<int> &slot : startedPipeEnds)
    if (int end = slot.exchange(0, std::memory_order_relaxed))
      ::close(end - 1); // the child's copy; the StartedPtxas is the parent's
  pthread_mutex_unlock(&pipeMaking);
}

/// A pipe for a started ptxas, both ends close-on-exec, its write end
/// entered in startedPipeEnds; false when none can be made.
bool makeStartedPipe(int fds[2]) {
  static std::once_flag installed;
  std::call_once(installed, [] {
    pthread_atfork(takePipeMaking, givePipeMaking, closeStartedPipesInChild);
  });
  pthread_mutex_lock(&pipeMaking);
  bool made = pipe2(fds, O_CLOEXEC) == 0;
  bool entered = false;
  for (int i = 0; made && !entered && i < kPipeSlots; ++i) {
    int free = 0;
    entered = startedPipeEnds[i].compare_exchange_strong(free, fds[1] + 1);
  }
  pthread_mutex_unlock(&pipeMaking);
  if (made && !entered) { // every slot taken: no pipe rather than one a child keeps open
    ::close(fds[0]);
    ::close(fds[1]);
    return false;
  }
  return made;
}

/// Forgets the write end `fd` (before it is closed).
void forgetPipeEnd(int fd) {
  for (std::atomic<int> &slot : startedPipeEnds) {
    int held = fd + 1;
    if (slot.compare_exchange_strong(held, 0))
      return;
  }
}

/// Starts `args` (args[0] the program), its standard input the pipe end
/// `input` (or /dev/null when negative), stdout and stderr into `logPath`.
llvm::Expected<pid_t> spawn(const std::vector<std::string> &args, int input,
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

/// Waits for the process `pid` to end and returns its exit status; after
/// `seconds` (0: no limit) it is killed and the wait is an error.  No
/// signals: compiles on several threads wait at once, and SIGALRM (what
/// llvm::sys::Wait times out with) is one per process.
llvm::Expected<int> waitForExit(pid_t pid, unsigned seconds,
                                llvm::StringRef program) {
  auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  int handle = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
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
    long left = -1; // milliseconds to the deadline; -1: none
    if (seconds) {
      left = std::chrono::duration_cast<std::chrono::milliseconds>(
                 deadline - std::chrono::steady_clock::now())
                 .count();
      if (left <= 0) {
        ::kill(pid, SIGKILL);
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        if (handle >= 0)
          ::close(handle);
        return makeError(program + " did not finish within " +
                         llvm::Twine(seconds) + " s (killed)");
      }
    }
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

/// Runs `args` (args[0] the program), stdin /dev/null and stdout + stderr
/// in `logPath`.  Returns the exit status, or an error when the program
/// could not run or did not finish.
llvm::Expected<int> execute(const std::vector<std::string> &args,
                            const std::string &logPath, unsigned timeout) {
  llvm::Expected<pid_t> pid = spawn(args, -1, logPath);
  if (!pid)
    return pid.takeError();
  return waitForExit(*pid, timeout, args[0]);
}
} // namespace

std::string tritium::nvidia::findPtxas() {
  if (const char *explicitPath = std::getenv("TRITIUM_PTXAS_PATH");
      explicitPath && *explicitPath) {
    if (llvm::StringRef(explicitPath) == "none")
      return ""; // asked to stop at PTX
    return explicitPath; // running it says what is wrong with it
  }
  for (const char *variable : {"CUDA_HOME", "CUDA_PATH"})
    if (std::string path = ptxasUnder(std::getenv(variable)); !path.empty())
      return path;
  if (std::string path = ptxasUnder("/usr/local/cuda"); !path.empty())
    return path;
  llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName("ptxas");
  return onPath ? *onPath : "";
}

std::optional<std::pair<unsigned, unsigned>>
tritium::nvidia::ptxasCudaRelease(llvm::StringRef path) {
  using Release = std::optional<std::pair<unsigned, unsigned>>;
  static std::mutex mutex;
  static auto *known = new std::map<std::string, Release>();
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = known->find(path.str()); it != known->end())
    return it->second;

  Release release;
  llvm::SmallString<128> logPath;
  int fd;
  if (!llvm::sys::fs::createTemporaryFile("tritium-ptxas-version", "txt", fd,
                                          logPath)) {
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
    llvm::Expected<int> status =
        execute({path.str(), "--version"}, std::string(logPath), 60);
    if (!status)
      llvm::consumeError(status.takeError());
    else if (*status == 0)
      if (auto text = llvm::MemoryBuffer::getFile(logPath)) {
        // "Cuda compilation tools, release 13.0, V13.0.88"
        llvm::StringRef rest = (*text)->getBuffer();
        size_t at = rest.find("release ");
        if (at != llvm::StringRef::npos) {
          auto [major, tail] =
              rest.substr(at + 8).take_until([](char c) {
                return c == ',' || c == '\n';
              }).split('.');
          unsigned mj, mn;
          if (!major.getAsInteger(10, mj) && !tail.getAsInteger(10, mn))
            release = std::make_pair(mj, mn);
        }
      }
    llvm::sys::fs::remove(logPath);
  }
  known->emplace(path.str(), release);
  return release;
}

unsigned tritium::nvidia::defaultPtxVersion(llvm::StringRef path) {
  if (path.empty())
    return kFallbackPtxVersion;
  if (auto release = ptxasCudaRelease(path))
    if (auto v = ptxVersionOfCudaRelease(release->first, release->second))
      return *v;
  return kFallbackPtxVersion;
}

std::vector<KernelResources>
tritium::nvidia::parsePtxasLog(llvm::StringRef log) {
  std::vector<KernelResources> kernels;
  std::map<std::string, size_t> index;
  KernelResources *current = nullptr;
  llvm::SmallVector<llvm::StringRef> lines;
  log.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    if (line.contains("Compiling entry function")) {
      std::string name = nameAfter(line, "Compiling entry function").str();
      if (!index.count(name)) {
        index[name] = kernels.size();
        kernels.push_back(KernelResources{});
        kernels.back().name = name;
      }
      current = &kernels[index[name]];
      continue;
    }
    if (line.contains("Function properties for")) {
      auto it = index.find(nameAfter(line, "Function properties for").str());
      current = it == index.end() ? nullptr : &kernels[it->second];
      continue;
    }
    if (!current)
      continue;
    if (int v = numberBefore(line, " bytes stack frame"); v >= 0)
      current->stackFrameBytes = v;
    if (int v = numberBefore(line, " bytes spill stores"); v >= 0)
      current->spillStoreBytes = v;
    if (int v = numberBefore(line, " bytes spill loads"); v >= 0)
      current->spillLoadBytes = v;
    if (int v = numberBefore(line, " registers"); v >= 0)
      current->registers = v;
    if (int v = numberBefore(line, " barriers"); v >= 0)
      current->barriers = v;
    if (int v = numberBefore(line, " bytes smem"); v >= 0)
      current->sharedBytes = v;
  }
  return kernels;
}

int tritium::nvidia::registerCeiling(int threads) {
  if (threads <= 0)
    return 255;
  return std::min(255, (65536 / threads) / 8 * 8);
}

int tritium::nvidia::declaredThreads(llvm::StringRef ptx) {
  llvm::SmallVector<llvm::StringRef> lines;
  ptx.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    line = line.trim();
    if (!line.consume_front(".maxntid") && !line.consume_front(".reqntid"))
      continue;
    llvm::SmallVector<llvm::StringRef> dims;
    line.split(dims, ',');
    int threads = 1;
    for (llvm::StringRef dim : dims) {
      int value = 0;
      if (dim.trim().getAsInteger(10, value) || value <= 0)
        return 0;
      threads *= value;
    }
    return threads;
  }
  return 0;
}

bool tritium::nvidia::spilledWithRegistersToSpare(const KernelResources &kernel,
                                                  int threads) {
  return kernel.spillStoreBytes > 0 && kernel.registers >= 0 &&
         kernel.registers < registerCeiling(threads);
}

std::optional<std::string>
tritium::nvidia::withOneBlockPerSM(llvm::StringRef ptx) {
  if (ptx.contains(".minnctapersm") || ptx.contains(".maxnreg"))
    return std::nullopt;
  std::string out;
  out.reserve(ptx.size() + 32);
  bool added = false;
  while (!ptx.empty()) {
    auto [line, rest] = ptx.split('\n');
    out += line.str();
    if (!rest.empty() || ptx.back() == '\n')
      out += '\n';
    if (line.trim().starts_with(".maxntid") ||
        line.trim().starts_with(".reqntid")) {
      out += ".minnctapersm 1\n";
      added = true;
    }
    ptx = rest;
  }
  if (!added)
    return std::nullopt;
  return out;
}

std::unique_ptr<StartedPtxas>
StartedPtxas::start(llvm::StringRef ptxasPath, const CudaTarget &target,
                    const PtxasOptions &options) {
  if (!llvm::sys::fs::can_execute(ptxasPath))
    return nullptr;
  if (options.inProcess) { // runPtxas compiles with nvJitLink where it loads
    llvm::Expected<const NvJitLink *> library = nvJitLinkFor(ptxasPath);
    if (!library) {
      llvm::consumeError(library.takeError());
      return nullptr;
    }
    if (*library)
      return nullptr;
  }
  std::unique_ptr<StartedPtxas> started(new StartedPtxas());
  llvm::SmallString<128> dir;
  if (llvm::sys::fs::createUniqueDirectory("tritium-ptxas", dir))
    return nullptr;
  started->directory = std::string(dir);
  started->ptxasPath = ptxasPath.str();
  started->chip = target.chip();
  started->options = options;
  started->ptxPath = (dir + "/kernel.ptx").str();
  started->cubinPath = (dir + "/kernel.cubin").str();
  started->logPath = (dir + "/ptxas.log").str();
  // ptxas reads its input twice (the second time to embed the PTX text in
  // the cubin's .nv_debug_ptx_txt).  kernel.ptx is first a link to ptxas's
  // standard input, a pipe; finish() puts the PTX in its place as a file
  // before it writes the PTX into the pipe, so that an open of kernel.ptx
  // before then waits on the pipe and one after reads the file.
  if (llvm::sys::fs::create_link("/dev/stdin", started->ptxPath))
    return nullptr;
  started->arguments = ptxasArguments(ptxasPath, target, options,
                                      started->ptxPath, started->cubinPath);

  // Both ends close on exec: ptxas gets the read end as its standard input
  // through dup2, and no ptxas (this one, or one another thread starts
  // meanwhile) holds the write end, which would keep it waiting for ever.
  int fds[2];
  if (!makeStartedPipe(fds))
    return nullptr;
  started->input = fds[1];
  llvm::Expected<pid_t> pid = spawn(started->arguments, fds[0], started->logPath);
  ::close(fds[0]);
  if (!pid) {
    llvm::consumeError(pid.takeError());
    return nullptr; // the destructor closes the pipe and removes the directory
  }
  started->pid = *pid;
  return started;
}

bool StartedPtxas::serves(llvm::StringRef path, const CudaTarget &target,
                          const PtxasOptions &asked) const {
  return pid > 0 && input >= 0 && path == ptxasPath && target.chip() == chip &&
         asked.fpFusion == options.fpFusion &&
         asked.lineInfo == options.lineInfo &&
         asked.optimize == options.optimize;
}

llvm::Expected<PtxasResult> StartedPtxas::finish(llvm::StringRef ptx) {
  {
    std::string written = ptxPath + ".tmp";
    std::error_code ec;
    llvm::raw_fd_ostream out(written, ec);
    if (ec)
      return makeError("cannot write " + written + ": " + ec.message());
    out << ptx;
    out.close();
    if (out.has_error()) {
      out.clear_error();
      return makeError("cannot write " + written);
    }
    if (std::error_code renamed = llvm::sys::fs::rename(written, ptxPath))
      return makeError("cannot write " + ptxPath + ": " + renamed.message());
  }
  // A ptxas that opened kernel.ptx as the file never reads the pipe: the
  // write then ends when it exits (EPIPE).
  fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK);
  writeToPipe(input, ptx, options.timeoutSeconds);
  forgetPipeEnd(input);
  ::close(input);
  input = -1;
  llvm::Expected<int> status =
      waitForExit(pid, options.timeoutSeconds, ptxasPath);
  pid = -1;
  if (!status)
    return status.takeError();
  llvm::Expected<PtxasResult> result = collectOutputs(
      *status, ptxPath, logPath, cubinPath, llvm::join(arguments, " "));
  end();
  return result;
}

void StartedPtxas::end() {
  if (input >= 0) {
    forgetPipeEnd(input);
    ::close(input); // ptxas reads an empty input and exits
    input = -1;
  }
  if (pid > 0) {
    ::kill(pid, SIGKILL);
    int status;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    pid = -1;
  }
  if (!directory.empty()) {
    llvm::sys::fs::remove_directories(directory);
    directory.clear();
  }
}

StartedPtxas::~StartedPtxas() { end(); }

llvm::Expected<PtxasResult>
tritium::nvidia::runPtxas(llvm::StringRef ptxasPath, llvm::StringRef ptx,
                          const CudaTarget &target,
                          const PtxasOptions &options, StartedPtxas *started) {
  if (!llvm::sys::fs::can_execute(ptxasPath))
    return makeError("ptxas at '" + ptxasPath +
                     "' does not exist or is not executable");
  if (options.inProcess) {
    llvm::Expected<const NvJitLink *> library = nvJitLinkFor(ptxasPath);
    if (!library)
      return library.takeError();
    if (*library) {
      llvm::Expected<PtxasResult> compiled =
          compileWithNvJitLink(**library, ptx, target, options);
      // A cubin without the report of its kernels (the registers) is not
      // taken: ptxas runs and reports.
      if (!compiled || !compiled->succeeded || !compiled->kernels.empty())
        return compiled;
    }
  }
  // A started ptxas's result stands where it made a cubin.  Where it did
  // not, ptxas runs again on the PTX as a file, and that run's result (its
  // log says why) stands: a ptxas that reads its input otherwise than this
  // one (CUDA 13.0: a stream, then a second read for the embedded PTX text)
  // costs a second run, never a kernel.  An error (ptxas killed at its time
  // limit, say) is not retried.
  if (started && started->serves(ptxasPath, target, options)) {
    llvm::Expected<PtxasResult> piped = started->finish(ptx);
    if (!piped || piped->succeeded)
      return piped;
  }

  llvm::SmallString<128> dir;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("tritium-ptxas",
                                                                dir))
    return makeError("cannot create a temporary directory for ptxas: " +
                     ec.message());
  // Whatever happens below, the directory and its files go.
  struct Cleanup {
    llvm::SmallString<128> &dir;
    ~Cleanup() { llvm::sys::fs::remove_directories(dir); }
  } cleanup{dir};

  auto inDir = [&](llvm::StringRef file) {
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, file);
    return std::string(path);
  };
  std::string ptxPath = inDir("kernel.ptx");
  std::string cubinPath = inDir("kernel.cubin");
  std::string logPath = inDir("ptxas.log");
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(ptxPath, ec);
    if (ec)
      return makeError("cannot write " + ptxPath + ": " + ec.message());
    out << ptx;
    out.close();
    if (out.has_error()) {
      out.clear_error();
      return makeError("cannot write " + ptxPath);
    }
  }

  std::vector<std::string> arguments =
      ptxasArguments(ptxasPath, target, options, ptxPath, cubinPath);
  llvm::Expected<int> status =
      execute(arguments, logPath, options.timeoutSeconds);
  if (!status)
    return status.takeError();
  return collectOutputs(*status, ptxPath, logPath, cubinPath,
                        llvm::join(arguments, " "));
}
