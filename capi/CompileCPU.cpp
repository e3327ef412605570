//===- CompileCPU.cpp - the C API of the CPU target -----------------------===//
//
// tritium_cpu_compile: Triton IR through tritium-make-ttir and
// convert-tt-to-host-llvm to a kernel compiled for the host
// (tritium::cpu::HostProgram), with the object file it is linked from;
// tritium_cpu_load links such an object file again (the kernel cache's
// copy); tritium_cpu_run runs a kernel's grid; tritium_cpu_release frees it.
//
//===----------------------------------------------------------------------===//
#include "CompileContext.h"

#include "mlir/Pass/PassManager.h"
#include "tritium.h"
#include "tritium/InitAll.h"
#include "tritium/Target/CPU/HostProgram.h"

#include <string>

using tritium::capi::CompileContext;
using tritium::capi::store;

extern "C" int tritium_cpu_compile(const char *ttir, size_t len, const char *source_name,
                                   const char *kernel_name, int fast_codegen, void **program,
                                   char **llvm_ir, char **object, size_t *object_size,
                                   char **diagnostics) {
  if (program)
    *program = nullptr;
  if (llvm_ir)
    *llvm_ir = nullptr;
  if (object)
    *object = nullptr;
  if (object_size)
    *object_size = 0;
  if (diagnostics)
    *diagnostics = nullptr;
  if (!ttir || !kernel_name || !program) {
    store(diagnostics, "error: no IR, kernel name or result slot given");
    return 1;
  }
  CompileContext context(ttir, len, source_name);
  mlir::OwningOpRef<mlir::ModuleOp> module = context.parseAndVerify();
  if (!module) {
    store(diagnostics, context.takeDiagnostics("error: the IR does not parse"));
    return 1;
  }
  tritium::registerAllPasses();
  std::string error;
  mlir::PassManager *pm = context.getPassManager(
      fast_codegen ? "builtin.module(tritium-make-ttir,convert-tt-to-host-llvm{fast-compile=1})"
                   : "builtin.module(tritium-make-ttir,convert-tt-to-host-llvm)",
      error);
  if (!pm || mlir::failed(pm->run(*module))) {
    store(diagnostics, context.takeDiagnostics(error.empty() ? "error: the CPU lowering failed" : error));
    return 1;
  }
  std::string llvmIR, objectFile;
  auto compiled = tritium::cpu::HostProgram::compile(*module, kernel_name, llvmIR, objectFile,
                                                     fast_codegen != 0);
  if (!compiled) {
    store(diagnostics, "error: " + llvm::toString(compiled.takeError()));
    return 1;
  }
  store(llvm_ir, llvmIR);
  if (object) {
    store(object, objectFile);
    if (object_size)
      *object_size = objectFile.size();
  }
  *program = compiled->release();
  return 0;
}

extern "C" int tritium_cpu_load(const char *object, size_t size, const char *kernel_name, void **program,
                                char **diagnostics) {
  if (program)
    *program = nullptr;
  if (diagnostics)
    *diagnostics = nullptr;
  if (!object || !kernel_name || !program) {
    store(diagnostics, "error: no object file, kernel name or result slot given");
    return 1;
  }
  auto loaded = tritium::cpu::HostProgram::load(llvm::StringRef(object, size), kernel_name);
  if (!loaded) {
    store(diagnostics, "error: " + llvm::toString(loaded.takeError()));
    return 1;
  }
  *program = loaded->release();
  return 0;
}

extern "C" int tritium_cpu_run(void *program, void **args, int nx, int ny, int nz, unsigned threads,
                               char **diagnostics) {
  if (diagnostics)
    *diagnostics = nullptr;
  std::optional<tritium::cpu::HostProgram::Failure> failure =
      static_cast<tritium::cpu::HostProgram *>(program)->run(args, nx, ny, nz, threads);
  if (!failure)
    return 0;
  store(diagnostics, failure->message);
  return failure->kind == tritium::cpu::HostProgram::Failure::Assertion ? 1 : 2;
}

extern "C" void tritium_cpu_release(void *program) {
  delete static_cast<tritium::cpu::HostProgram *>(program);
}

extern "C" void tritium_cpu_host(char **description) {
  store(description, tritium::cpu::hostDescription());
}
