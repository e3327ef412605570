//===- Ptxas.cpp - PTX to cubin with NVIDIA's ptxas ------------------------===//
//
// Where $TRITIUM_NVJITLINK asks for nvJitLink (NvJitLink.h) and it is found,
// the PTX is compiled by that library inside this process instead.
// Otherwise ptxas runs as a child process (ChildProcess.h: an argument
// vector, no shell, stdout and stderr into one log file, a time limit),
// stdin /dev/null or, for a ptxas started before its PTX exists
// (StartedPtxas), a pipe.  The -v report it writes looks like
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
#include "tritium/Target/NVIDIA/ChildProcess.h"
#include "tritium/Target/NVIDIA/NvJitLink.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>

#include <fcntl.h>
#include <unistd.h>

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

/// Writes `text` to the file at `path`.
llvm::Error writeFile(const std::string &path, llvm::StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec);
  if (ec)
    return makeError("cannot write " + path + ": " + ec.message());
  out << text;
  out.close();
  if (out.has_error()) {
    out.clear_error();
    return makeError("cannot write " + path);
  }
  return llvm::Error::success();
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

} // namespace

std::string tritium::nvidia::findPtxas() {
  if (const char *explicitPath = std::getenv("TRITIUM_PTXAS_PATH");
      explicitPath && *explicitPath) {
    if (llvm::StringRef(explicitPath) == "none")
      return ""; // asked to stop at PTX
    return explicitPath; // running it says what is wrong with it
  }
  if (const char *tritonPath = std::getenv("TRITON_PTXAS_PATH");
      tritonPath && *tritonPath)
    return tritonPath;
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
        runProcess({path.str(), "--version"}, std::string(logPath), 60);
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

bool tritium::nvidia::serializedWarpGroupMmas(llvm::StringRef log) {
  return log.contains("wgmma.mma_async instructions are serialized");
}

bool tritium::nvidia::serializedWarpGroupMmasByPlacement(llvm::StringRef log) {
  llvm::SmallVector<llvm::StringRef> lines;
  log.split(lines, '\n');
  return llvm::any_of(lines, [](llvm::StringRef line) {
    return line.contains("wgmma.mma_async instructions are serialized") &&
           !line.contains("insufficient register resources") &&
           !line.contains("crossing function boundary");
  });
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
tritium::nvidia::withMinBlocksPerSM(llvm::StringRef ptx, int blocks) {
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
      out += ".minnctapersm " + std::to_string(blocks) + "\n";
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
  if (!makeChildInputPipe(fds))
    return nullptr;
  started->input = fds[1];
  llvm::Expected<pid_t> pid = spawnProcess(started->arguments, fds[0], started->logPath);
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
  std::string written = ptxPath + ".tmp";
  if (llvm::Error failed = writeFile(written, ptx))
    return std::move(failed);
  if (std::error_code renamed = llvm::sys::fs::rename(written, ptxPath))
    return makeError("cannot write " + ptxPath + ": " + renamed.message());
  // A ptxas that opened kernel.ptx as the file never reads the pipe: the
  // write then ends when it exits (EPIPE).
  fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK);
  writeToPipe(input, ptx, options.timeoutSeconds);
  forgetChildInputPipe(input);
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
    forgetChildInputPipe(input);
    ::close(input); // ptxas reads an empty input and exits
    input = -1;
  }
  if (pid > 0) {
    killProcess(pid);
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
                          const PtxasOptions &options, StartedPtxas *started,
                          const std::atomic<bool> *stop) {
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
  if (llvm::Error failed = writeFile(ptxPath, ptx))
    return std::move(failed);

  std::vector<std::string> arguments =
      ptxasArguments(ptxasPath, target, options, ptxPath, cubinPath);
  llvm::Expected<int> status =
      runProcess(arguments, logPath, options.timeoutSeconds, stop);
  if (!status)
    return status.takeError();
  return collectOutputs(*status, ptxPath, logPath, cubinPath,
                        llvm::join(arguments, " "));
}
