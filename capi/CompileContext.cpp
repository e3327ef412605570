//===- CompileContext.cpp - what every C API call sets up -----------------===//
//
// The shared dialect registry (built once per process), the pool of compiler
// slots (an MLIRContext and its pass managers each) that concurrent compiles
// take one of, the per-call context with its diagnostic capture, and copying
// strings out to the caller.
//
//===----------------------------------------------------------------------===//
#include "CompileContext.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "tritium/InitAll.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

using namespace tritium::capi;

namespace {
const mlir::DialectRegistry &getRegistry() {
  static const mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry();
    tritium::registerAllDialects(*r);
    return r;
  }();
  return *registry;
}
} // namespace

/// One MLIRContext and the pass managers built on it, used by one compile
/// at a time.  Types and attributes stay uniqued in a context for its whole
/// life, so it is replaced every kCompilesPerContext compiles to bound
/// memory in long-running processes.
struct tritium::capi::CompilerSlot {
  static constexpr unsigned kCompilesPerContext = 256;
  std::unique_ptr<mlir::MLIRContext> context;
  std::map<std::string, std::unique_ptr<mlir::PassManager>> passManagers;
  unsigned compiles = 0;

  mlir::MLIRContext *acquire() {
    if (!context || ++compiles > kCompilesPerContext) {
      passManagers.clear();
      context = std::make_unique<mlir::MLIRContext>(
          getRegistry(), mlir::MLIRContext::Threading::DISABLED);
      context->allowUnregisteredDialects(false);
      compiles = 1;
    }
    return context.get();
  }
};

namespace {
/// The slots of the process: compiles on several threads at once each take
/// an idle slot, or a new one while there are fewer than the machine has
/// hardware threads; past that they wait for one to be given back.
class CompilerPool {
public:
  CompilerSlot *take() {
    std::unique_lock<std::mutex> lock(mutex);
    given.wait(lock, [&] { return !idle.empty() || slots.size() < limit(); });
    if (!idle.empty()) {
      CompilerSlot *slot = idle.back();
      idle.pop_back();
      return slot;
    }
    slots.push_back(std::make_unique<CompilerSlot>());
    return slots.back().get();
  }

  void giveBack(CompilerSlot *slot) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      idle.push_back(slot);
    }
    given.notify_one();
  }

private:
  static size_t limit() {
    return std::max(1u, std::thread::hardware_concurrency());
  }

  std::mutex mutex;
  std::condition_variable given;
  std::vector<std::unique_ptr<CompilerSlot>> slots;
  std::vector<CompilerSlot *> idle; ///< most recently used last
};

CompilerPool &pool() {
  static CompilerPool *compilers = new CompilerPool();
  return *compilers;
}
} // namespace

void tritium::capi::store(char **slot, const std::string &s) {
  if (!slot)
    return;
  char *out = static_cast<char *>(std::malloc(s.size() + 1));
  if (out)
    std::memcpy(out, s.c_str(), s.size() + 1);
  *slot = out;
}

CompileContext::CompileContext(const char *text, size_t len,
                               const char *sourceName)
    : context(lease.slot->acquire()),
      messageStream(messages), handler(sourceMgr, context, messageStream) {
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(text, len),
                                           sourceName ? sourceName : "<ir>"),
      llvm::SMLoc());
}

CompileContext::~CompileContext() = default;

CompilerLease::CompilerLease() : slot(pool().take()) {}

CompilerLease::~CompilerLease() { pool().giveBack(slot); }

mlir::PassManager *CompileContext::getPassManager(const std::string &pipeline,
                                                  std::string &error) {
  auto &cache = lease.slot->passManagers;
  auto it = cache.find(pipeline);
  if (it != cache.end())
    return it->second.get();
  llvm::raw_string_ostream errorStream(error);
  mlir::FailureOr<mlir::OpPassManager> parsed =
      mlir::parsePassPipeline(pipeline, errorStream);
  if (mlir::failed(parsed))
    return nullptr;
  auto pm = std::make_unique<mlir::PassManager>(context,
                                                parsed->getOpAnchorName());
  static_cast<mlir::OpPassManager &>(*pm) = std::move(*parsed);
  pm->enableVerifier(true);
  return cache.emplace(pipeline, std::move(pm)).first->second.get();
}

mlir::OwningOpRef<mlir::ModuleOp> CompileContext::parseAndVerify() {
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, context);
  if (!module || mlir::failed(mlir::verify(*module)))
    return nullptr;
  return module;
}

std::string CompileContext::takeDiagnostics(const std::string &fallback) {
  std::string out = messages.empty() ? fallback : messages;
  messages.clear();
  return out;
}

void CompileContext::addMessage(const std::string &message) {
  messageStream << message;
  if (!message.empty() && message.back() != '\n')
    messageStream << '\n';
}

std::string tritium::capi::printModule(mlir::ModuleOp module) {
  std::string out;
  llvm::raw_string_ostream stream(out);
  // With locations (as #loc aliases): the next stage parses this text, and
  // its diagnostics must still point at the kernel's Python source.  The
  // kernel's arguments print as %arg0, %arg1, ... (their names stay in
  // their locations), as in Triton's IR, which tests match as text.
  module->print(stream, mlir::OpPrintingFlags().enableDebugInfo(
                            /*enable=*/true, /*prettyForm=*/false));
  return out;
}
