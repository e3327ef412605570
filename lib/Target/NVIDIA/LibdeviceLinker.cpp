//===- LibdeviceLinker.cpp - link NVIDIA's libdevice -----------------------===//
//
// libdevice.10.bc is about 500 KB of bitcode with some 350 functions, and a
// kernel calls a handful, so the file is read once per process and each
// compile opens it lazily: Linker::LinkOnlyNeeded then materializes only the
// functions that are called (and what they call).  The library's triple
// ("nvptx64-nvidia-gpulibs") and data layout are replaced by ours first, so
// the linker has nothing to warn about.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/NVIDIA/LibdeviceLinker.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

using namespace tritium::nvidia;

namespace {
constexpr const char kLibdeviceName[] = "libdevice.10.bc";

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// `dir`/nvvm/libdevice/libdevice.10.bc if `dir` is set and that file exists.
std::string underToolkit(const char *dir) {
  if (!dir || !*dir)
    return "";
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, "nvvm", "libdevice", kLibdeviceName);
  return llvm::sys::fs::is_regular_file(path) ? std::string(path) : "";
}

/// The bytes of a bitcode file, read on first use and kept for the life of
/// the process (the buffers are immutable, so compiles on several threads
/// may share one).
llvm::Expected<llvm::MemoryBufferRef> readCached(llvm::StringRef path) {
  static std::mutex mutex;
  static auto *cache =
      new std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>>();
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache->find(path.str());
  if (it == cache->end()) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
        llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
    if (!file)
      return makeError("cannot read libdevice at " + path + ": " +
                       file.getError().message());
    it = cache->emplace(path.str(), std::move(*file)).first;
  }
  return it->second->getMemBufferRef();
}
} // namespace

std::string tritium::nvidia::findLibdevice() {
  if (const char *explicitPath = std::getenv("TRITIUM_LIBDEVICE_PATH");
      explicitPath && *explicitPath) {
    if (llvm::sys::fs::is_directory(explicitPath)) {
      llvm::SmallString<256> path(explicitPath);
      llvm::sys::path::append(path, kLibdeviceName);
      return std::string(path);
    }
    // Returned even if missing: reading it then says what is wrong, rather
    // than silently taking another libdevice.
    return explicitPath;
  }
  for (const char *variable : {"CUDA_HOME", "CUDA_PATH"})
    if (std::string path = underToolkit(std::getenv(variable)); !path.empty())
      return path;
  return underToolkit("/usr/local/cuda");
}

std::vector<std::string>
tritium::nvidia::libdeviceReferences(const llvm::Module &module) {
  std::vector<std::string> names;
  for (const llvm::Function &f : module)
    if (f.isDeclaration() && f.getName().starts_with("__nv_"))
      names.push_back(f.getName().str());
  return names;
}

llvm::Error tritium::nvidia::linkLibdevice(llvm::Module &module,
                                           llvm::StringRef path,
                                           bool flushDenormals) {
  llvm::Expected<llvm::MemoryBufferRef> bytes = readCached(path);
  if (!bytes)
    return bytes.takeError();
  llvm::Expected<std::unique_ptr<llvm::Module>> library =
      llvm::getLazyBitcodeModule(*bytes, module.getContext());
  if (!library)
    return makeError("cannot parse libdevice at " + path + ": " +
                     llvm::toString(library.takeError()));
  (*library)->setTargetTriple(module.getTargetTriple());
  (*library)->setDataLayout(module.getDataLayout());

  if (llvm::Linker::linkModules(module, std::move(*library),
                                llvm::Linker::Flags::LinkOnlyNeeded))
    return makeError("linking libdevice (" + path + ") failed");

  std::vector<std::string> missing = libdeviceReferences(module);
  if (!missing.empty()) {
    std::string names;
    for (const std::string &name : missing)
      names += (names.empty() ? "" : ", ") + name;
    return makeError("libdevice (" + path + ") has no function " + names);
  }
  module.setModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz",
                       flushDenormals ? 1u : 0u);
  return llvm::Error::success();
}

void tritium::nvidia::internalizeAllButKernels(llvm::Module &module) {
  for (llvm::Function &f : module)
    if (!f.isDeclaration() &&
        f.getCallingConv() != llvm::CallingConv::PTX_Kernel)
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (llvm::GlobalVariable &g : module.globals())
    if (!g.isDeclaration() && !g.getName().starts_with("llvm."))
      g.setLinkage(llvm::GlobalValue::InternalLinkage);
}
