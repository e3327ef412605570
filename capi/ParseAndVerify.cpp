//===- ParseAndVerify.cpp - C API: version, parse and verify ---------------===//
//
// The first entry points of the C ABI.  Each call builds its own MLIRContext
// (threading disabled: no thread pool per compile) from the shared dialect
// registry, captures every diagnostic as text through a SourceMgr handler
// (which renders the offending source line and a caret), and returns it; no
// diagnostic escapes to stderr and none ends the process.
//
//===----------------------------------------------------------------------===//
#include "tritium.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "tritium/InitAll.h"

#include <cstdlib>
#include <cstring>
#include <string>

namespace {
constexpr int kAbiVersion = 1;

/// A malloc'ed copy the caller frees with tritium_free().
char *copyOut(const std::string &s) {
  char *out = static_cast<char *>(std::malloc(s.size() + 1));
  if (out)
    std::memcpy(out, s.c_str(), s.size() + 1);
  return out;
}

void store(char **slot, const std::string &s) {
  if (slot)
    *slot = copyOut(s);
}

const mlir::DialectRegistry &getRegistry() {
  static const mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry();
    tritium::registerAllDialects(*r);
    return r;
  }();
  return *registry;
}
} // namespace

extern "C" const char *tritium_version(void) {
  return "0.1.0 (MLIR " LLVM_VERSION_STRING ")";
}

extern "C" int tritium_abi_version(void) { return kAbiVersion; }

extern "C" int tritium_parse_and_verify(const char *text, size_t len,
                                        const char *source_name, char **printed,
                                        char **diagnostics) {
  if (printed)
    *printed = nullptr;
  if (diagnostics)
    *diagnostics = nullptr;
  if (!text) {
    store(diagnostics, "error: no text given");
    return 1;
  }

  mlir::MLIRContext context(getRegistry(),
                            mlir::MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(false);

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(text, len),
                                           source_name ? source_name : "<ir>"),
      llvm::SMLoc());
  std::string messages;
  llvm::raw_string_ostream messageStream(messages);
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context, messageStream);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module || mlir::failed(mlir::verify(*module))) {
    if (messages.empty())
      messages = "error: the module did not parse or verify";
    store(diagnostics, messages);
    return 1;
  }
  std::string out;
  llvm::raw_string_ostream outStream(out);
  module->print(outStream);
  store(printed, out);
  return 0;
}

extern "C" void tritium_free(char *p) { std::free(p); }
