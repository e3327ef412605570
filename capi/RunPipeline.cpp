//===- RunPipeline.cpp - C API: run a named pass pipeline -----------------===//
//
// tritium_run_pipeline parses and verifies a module, runs a textual pass
// pipeline on it (e.g. "builtin.module(tritium-make-ttir)") with the verifier
// on after every pass, and prints the result.  A pipeline that does not
// parse, names an unknown pass, or fails while running is reported through
// the diagnostics string: nothing here aborts the process.
//
//===----------------------------------------------------------------------===//
#include "tritium.h"

#include "CompileContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "tritium/InitAll.h"

using namespace tritium::capi;

extern "C" int tritium_run_pipeline(const char *text, size_t len,
                                    const char *source_name,
                                    const char *pipeline, char **printed,
                                    char **diagnostics) {
  if (printed)
    *printed = nullptr;
  if (diagnostics)
    *diagnostics = nullptr;
  if (!text || !pipeline) {
    store(diagnostics, "error: no text or no pipeline given");
    return 1;
  }
  tritium::registerAllPasses();

  CompileContext compile(text, len, source_name);
  mlir::OwningOpRef<mlir::ModuleOp> module = compile.parseAndVerify();
  if (!module) {
    store(diagnostics, compile.takeDiagnostics(
                           "error: the module did not parse or verify"));
    return 1;
  }

  std::string parseErrors;
  mlir::PassManager *pm = compile.getPassManager(pipeline, parseErrors);
  if (!pm) {
    compile.addMessage("error: invalid pass pipeline '" +
                       std::string(pipeline) + "': " + parseErrors);
    store(diagnostics, compile.takeDiagnostics(""));
    return 1;
  }
  if (mlir::failed(pm->run(*module))) {
    store(diagnostics,
          compile.takeDiagnostics("error: pass pipeline '" +
                                  std::string(pipeline) + "' failed"));
    return 1;
  }
  store(printed, printModule(*module));
  return 0;
}
