//===- NvJitLink.cpp - PTX to cubin inside this process -------------------===//
//
// With TRITIUM_NVJITLINK=twin the library is looked for beside the ptxas
// Tritium found, as a CUDA toolkit lays it out (<root>/bin/ptxas;
// <root>/lib64, <root>/lib or <root>/targets/<arch>-linux/lib for
// libnvJitLink.so.<major>), loaded with dlopen, and kept only when
// nvJitLinkVersion says the ptxas's release.  A
// compile is one handle: create with the options (-arch, -O, -verbose for
// ptxas's -v report, ptxas's own options through -Xptxas), add the PTX,
// complete, read the cubin and the logs, destroy.  Handles are independent,
// so compiles on several threads at once need no lock.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/NVIDIA/NvJitLink.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

namespace tritium::nvidia {

/// The entry points of one loaded libnvJitLink (its C API; the handle is an
/// opaque pointer and results are ints, 0 meaning success).
class NvJitLink {
public:
  using Handle = void *;
  int (*create)(Handle *, uint32_t, const char *const *) = nullptr;
  int (*destroy)(Handle *) = nullptr;
  int (*addData)(Handle, int, const void *, size_t, const char *) = nullptr;
  int (*complete)(Handle) = nullptr;
  int (*cubinSize)(Handle, size_t *) = nullptr;
  int (*cubin)(Handle, void *) = nullptr;
  int (*errorLogSize)(Handle, size_t *) = nullptr;
  int (*errorLog)(Handle, char *) = nullptr;
  int (*infoLogSize)(Handle, size_t *) = nullptr;
  int (*infoLog)(Handle, char *) = nullptr;
  int (*version)(unsigned *, unsigned *) = nullptr;
  std::string path;
};

} // namespace tritium::nvidia

using namespace tritium::nvidia;

namespace {
constexpr int kInputPtx = 2; // NVJITLINK_INPUT_PTX

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The library at `path` with every entry point resolved, or nullptr (and
/// why in `why`, where given).
std::unique_ptr<NvJitLink> load(const std::string &path,
                                std::string *why = nullptr) {
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    if (why)
      *why = dlerror();
    return nullptr;
  }
  auto library = std::make_unique<NvJitLink>();
  library->path = path;
  bool complete = true;
  auto resolve = [&](auto &entry, const char *name) {
    entry = reinterpret_cast<std::remove_reference_t<decltype(entry)>>(
        dlsym(handle, name));
    complete &= entry != nullptr;
  };
  resolve(library->create, "nvJitLinkCreate");
  resolve(library->destroy, "nvJitLinkDestroy");
  resolve(library->addData, "nvJitLinkAddData");
  resolve(library->complete, "nvJitLinkComplete");
  resolve(library->cubinSize, "nvJitLinkGetLinkedCubinSize");
  resolve(library->cubin, "nvJitLinkGetLinkedCubin");
  resolve(library->errorLogSize, "nvJitLinkGetErrorLogSize");
  resolve(library->errorLog, "nvJitLinkGetErrorLog");
  resolve(library->infoLogSize, "nvJitLinkGetInfoLogSize");
  resolve(library->infoLog, "nvJitLinkGetInfoLog");
  resolve(library->version, "nvJitLinkVersion");
  // (the library stays loaded for the life of the process, used or not: a
  // library the process may have loaded for other reasons is not unloaded)
  if (!complete && why)
    *why = "it lacks nvJitLink's entry points (nvJitLinkVersion needs CUDA "
           "12.3 or later)";
  return complete ? std::move(library) : nullptr;
}

/// The toolkit's library directories around `ptxasPath` (<root>/bin/ptxas).
std::vector<std::string> libraryDirectories(llvm::StringRef ptxasPath) {
  llvm::StringRef root =
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(ptxasPath));
  std::vector<std::string> dirs;
  for (llvm::StringRef sub : {"lib64", "lib", "targets/x86_64-linux/lib",
                              "targets/sbsa-linux/lib",
                              "targets/aarch64-linux/lib"}) {
    llvm::SmallString<256> dir(root);
    llvm::sys::path::append(dir, sub);
    dirs.push_back(std::string(dir));
  }
  return dirs;
}

/// The twin of the ptxas at `ptxasPath`, or nullptr.
std::unique_ptr<NvJitLink> findTwin(llvm::StringRef ptxasPath) {
  std::optional<std::pair<unsigned, unsigned>> release =
      ptxasCudaRelease(ptxasPath);
  if (!release)
    return nullptr;
  std::string name = "libnvJitLink.so." + std::to_string(release->first);
  for (const std::string &dir : libraryDirectories(ptxasPath)) {
    llvm::SmallString<256> candidate(dir);
    llvm::sys::path::append(candidate, name);
    if (!llvm::sys::fs::exists(candidate))
      continue;
    std::unique_ptr<NvJitLink> library = load(std::string(candidate));
    unsigned major = 0, minor = 0;
    if (library && library->version(&major, &minor) == 0 &&
        std::make_pair(major, minor) == *release)
      return library;
  }
  return nullptr;
}

/// One of the library's logs of `handle` (info or error).
std::string readLog(NvJitLink::Handle handle, int (*size)(void *, size_t *),
                    int (*read)(void *, char *)) {
  size_t bytes = 0;
  if (size(handle, &bytes) != 0 || bytes == 0)
    return "";
  std::string text(bytes, '\0');
  if (read(handle, text.data()) != 0)
    return "";
  while (!text.empty() && text.back() == '\0')
    text.pop_back();
  return text;
}
/// `log` as ptxas writes it: the PTX named as a ptxas run names it ("ptxas
/// kernel.ptx, line 4; error ..." for "ptxas application ptx input, line 4;
/// ..."), without the linker's own lines (its summary, whose shared memory
/// counts the 1 KiB the GPU reserves, and its line about the failed step).
std::string asPtxasWrites(llvm::StringRef log) {
  std::string out;
  llvm::SmallVector<llvm::StringRef> lines;
  log.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    if (line.starts_with("ERROR NVJITLINK_") || line.starts_with("info "))
      continue;
    std::string text = line.str();
    constexpr llvm::StringLiteral input = "ptxas application ptx input";
    if (size_t at = text.find(input.data()); at != std::string::npos)
      text.replace(at, input.size(), "ptxas kernel.ptx");
    out += text;
    out += '\n';
  }
  while (!out.empty() && out.back() == '\n')
    out.pop_back();
  return out;
}

/// What is known of the library for one ptxas (or one $TRITIUM_NVJITLINK).
struct Entry {
  enum State { Unknown, Loading, Known } state = Unknown;
  std::unique_ptr<NvJitLink> library; // when Known; null: there is none
  std::string error;                  // when Known: why the named one fails
};

std::mutex &entriesMutex() {
  static auto *mutex = new std::mutex();
  return *mutex;
}

std::map<std::string, Entry> &entries() {
  static auto *map = new std::map<std::string, Entry>();
  return *map;
}

/// A kernel that does nothing, in the PTX the ptxas at `ptxasPath` takes:
/// compiled once to pay the library's first-use cost.
std::string emptyKernel(llvm::StringRef ptxasPath, const CudaTarget &target) {
  unsigned version = defaultPtxVersion(ptxasPath);
  return ".version " + std::to_string(version / 10) + "." +
         std::to_string(version % 10) + "\n.target " + target.chip() +
         "\n.address_size 64\n.visible .entry warm() { ret; }\n";
}

/// The library for `ptxasPath`: found (and, when `warm`, given one compile)
/// by the first caller, outside the lock; callers that come while that
/// happens get nullptr (they run ptxas) rather than wait.
llvm::Expected<const NvJitLink *> lookUp(llvm::StringRef ptxasPath, bool warm) {
  const char *asked = std::getenv("TRITIUM_NVJITLINK");
  if (!asked || !*asked || llvm::StringRef(asked) == "none")
    return nullptr;
  std::string explicitPath =
      llvm::StringRef(asked) == "twin" ? std::string() : std::string(asked);
  std::string key = explicitPath.empty() ? ptxasPath.str() : "=" + explicitPath;
  {
    std::lock_guard<std::mutex> lock(entriesMutex());
    Entry &entry = entries()[key];
    if (entry.state == Entry::Loading)
      return nullptr;
    if (entry.state == Entry::Known) {
      if (!entry.error.empty())
        return makeError(entry.error);
      return entry.library.get();
    }
    entry.state = Entry::Loading;
  }
  std::string why, error;
  std::unique_ptr<NvJitLink> library =
      explicitPath.empty() ? findTwin(ptxasPath) : load(explicitPath, &why);
  if (!library && !explicitPath.empty())
    error = "TRITIUM_NVJITLINK=" + explicitPath + " cannot be used: " + why +
            " (name a libnvJitLink.so, 'twin' for the one beside ptxas, or "
            "'none' to run ptxas)";
  if (library && warm) {
    CudaTarget target; // sm_90a: any target the library knows will do
    llvm::Expected<PtxasResult> ignored = compileWithNvJitLink(
        *library, emptyKernel(ptxasPath, target), target, PtxasOptions());
    if (!ignored)
      llvm::consumeError(ignored.takeError());
  }
  std::lock_guard<std::mutex> lock(entriesMutex());
  Entry &entry = entries()[key];
  entry.library = std::move(library);
  entry.error = error;
  entry.state = Entry::Known;
  if (!error.empty())
    return makeError(error);
  return entry.library.get();
}
} // namespace

llvm::Expected<const NvJitLink *>
tritium::nvidia::nvJitLinkFor(llvm::StringRef ptxasPath) {
  return lookUp(ptxasPath, /*warm=*/false);
}

void tritium::nvidia::prepareNvJitLink(llvm::StringRef ptxasPath) {
  llvm::Expected<const NvJitLink *> library = lookUp(ptxasPath, /*warm=*/true);
  if (!library)
    llvm::consumeError(library.takeError()); // the next compile reports it
}

llvm::Expected<PtxasResult>
tritium::nvidia::compileWithNvJitLink(const NvJitLink &library,
                                      llvm::StringRef ptx,
                                      const CudaTarget &target,
                                      const PtxasOptions &options) {
  // (-no-cache: a compile the library answers from its cache writes no
  // report, and the report is what gives the kernel's registers)
  std::vector<std::string> args = {"-arch=" + target.chip(),
                                   options.optimize ? "-O3" : "-O0",
                                   "-verbose", "-no-cache"};
  if (!options.fpFusion)
    args.push_back("-Xptxas=--fmad=false");
  if (options.lineInfo)
    args.push_back("-lineinfo");
  std::vector<const char *> argv;
  for (const std::string &arg : args)
    argv.push_back(arg.c_str());

  PtxasResult result;
  result.command = "nvJitLink (" + library.path + ") " + llvm::join(args, " ");
  NvJitLink::Handle handle = nullptr;
  if (int status = library.create(&handle, argv.size(), argv.data()))
    return makeError("nvJitLink (" + library.path +
                     ") refused the options '" + llvm::join(args, " ") +
                     "': status " + llvm::Twine(status));
  struct Destroy {
    const NvJitLink &library;
    NvJitLink::Handle &handle;
    ~Destroy() { library.destroy(&handle); }
  } destroy{library, handle};

  // The PTX goes in with its terminating NUL, as the library reads text.
  std::string text = ptx.str();
  int status = library.addData(handle, kInputPtx, text.c_str(), text.size() + 1,
                               "kernel.ptx");
  if (status == 0)
    status = library.complete(handle);
  std::string errors =
      readLog(handle, library.errorLogSize, library.errorLog);
  std::string info = readLog(handle, library.infoLogSize, library.infoLog);
  result.log = asPtxasWrites(errors.empty() ? info : errors + "\n" + info);
  result.kernels = parsePtxasLog(result.log);
  if (status != 0)
    return result;
  size_t bytes = 0;
  if (library.cubinSize(handle, &bytes) != 0 || bytes == 0)
    return makeError("nvJitLink compiled the PTX but returned no cubin");
  result.cubin.assign(bytes, '\0');
  if (library.cubin(handle, result.cubin.data()) != 0)
    return makeError("nvJitLink compiled the PTX but returned no cubin");
  result.succeeded = true;
  return result;
}
