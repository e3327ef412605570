//===- CompileContext.h - what every C API call sets up ---------*- C++ -*-===//
//
// Internal to libtritium.so (not part of the C ABI).  Each entry point that
// compiles builds one CompileContext: an MLIRContext over the shared dialect
// registry that no other compile uses meanwhile (threading disabled: no
// thread pool per compile) and a SourceMgr diagnostic handler that renders
// every diagnostic, with the offending source line and a caret, into a
// string instead of stderr.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CAPI_COMPILECONTEXT_H
#define TRITIUM_CAPI_COMPILECONTEXT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <string>

namespace mlir {
class PassManager;
} // namespace mlir

namespace tritium::capi {

/// Stores a malloc'ed copy of `s` (freed by tritium_free) in *slot, if slot
/// is not null.
void store(char **slot, const std::string &s);

struct CompilerSlot;

/// A compiler slot (a long-lived MLIRContext and its pass managers) taken
/// from the process's pool for the life of one compile and given back at
/// its end.
struct CompilerLease {
  CompilerLease();
  ~CompilerLease();
  CompilerLease(const CompilerLease &) = delete;
  CompilerLease &operator=(const CompilerLease &) = delete;
  CompilerSlot *slot;
};

/// One compile: context, source buffer and captured diagnostics.
class CompileContext {
public:
  /// Holds a copy of `len` bytes of `text`; diagnostics name `sourceName`
  /// (or "<ir>" when null).  Compiles reuse long-lived MLIRContexts and
  /// their pass managers (building a context and the canonicalizer's pattern
  /// sets costs more than compiling a kernel): a CompileContext holds one
  /// of the pool's for its lifetime, so compiles on several threads run at
  /// once, each in a context of its own.
  CompileContext(const char *text, size_t len, const char *sourceName);
  ~CompileContext();

  mlir::MLIRContext &getContext() { return *context; }

  /// The pass manager for a textual pipeline ("builtin.module(...)"),
  /// built once per pipeline string and context; null with `error` set if
  /// the pipeline does not parse.  Verification after each pass is on.
  mlir::PassManager *getPassManager(const std::string &pipeline,
                                    std::string &error);

  /// Parses the text as a module and verifies it; null (with diagnostics
  /// captured) on failure.
  mlir::OwningOpRef<mlir::ModuleOp> parseAndVerify();

  /// Everything reported so far, or `fallback` if nothing was.
  std::string takeDiagnostics(const std::string &fallback);

  /// Appends text that did not come through the diagnostic engine (e.g. a
  /// pass pipeline parser's message).
  void addMessage(const std::string &message);

private:
  // Declared first, so given back last: the handler below unregisters from
  // the context before another compile can take it.
  CompilerLease lease;
  mlir::MLIRContext *context;
  llvm::SourceMgr sourceMgr;
  std::string messages;
  llvm::raw_string_ostream messageStream;
  mlir::SourceMgrDiagnosticHandler handler;
};

/// The printed form of `module`, locations included (parseable).
std::string printModule(mlir::ModuleOp module);

} // namespace tritium::capi

#endif // TRITIUM_CAPI_COMPILECONTEXT_H
