//===- ParseAndVerify.cpp - C API: version, parse and verify --------------===//
//
// The first entry points of the C ABI: the library's version and ABI
// revision, parsing + verifying a module, and freeing returned strings.  The
// context and diagnostic capture they share with the other entry points live
// in CompileContext.h; no diagnostic escapes to stderr and none ends the
// process.
//
//===----------------------------------------------------------------------===//
#include "tritium.h"

#include "CompileContext.h"
#include "llvm/Config/llvm-config.h"

#include <cstdlib>

using namespace tritium::capi;

namespace {
/// Bumped whenever an entry point is added or changes (python/tritium/
/// _native.py checks it).
constexpr int kAbiVersion = 16;
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

  CompileContext compile(text, len, source_name);
  mlir::OwningOpRef<mlir::ModuleOp> module = compile.parseAndVerify();
  if (!module) {
    store(diagnostics, compile.takeDiagnostics(
                           "error: the module did not parse or verify"));
    return 1;
  }
  store(printed, printModule(*module));
  return 0;
}

extern "C" void tritium_free(char *p) { std::free(p); }
