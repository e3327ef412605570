//===- Backend.h - LLVM dialect to PTX and cubin ----------------*- C++ -*-===//
//
// The back half of a CUDA compile, after tritium-make-llir: translate the
// LLVM dialect module to LLVM IR, link libdevice if the kernel calls it,
// internalize, run O3, emit PTX, and assemble it with ptxas when one is
// installed.  The C API and tritium-translate both call compileToCubin; the
// steps it chains are in the headers beside this one.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_NVIDIA_BACKEND_H
#define TRITIUM_TARGET_NVIDIA_BACKEND_H

#include "tritium/Target/NVIDIA/Ptxas.h"
#include "tritium/Target/NVIDIA/TargetInfo.h"
#include "tritium/Target/NVIDIA/TargetMachine.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tritium::nvidia {

struct BackendOptions {
  CudaTarget target;
  CodegenOptions codegen;
  /// Value of the nvvm-reflect-ftz flag: libdevice flushes denormals to zero.
  bool flushDenormals = false;
  /// Source line information in the PTX (`.loc`) and the cubin (ptxas
  /// -lineinfo), for profilers and error reports.
  bool lineInfo = false;
  /// LLVM optimization level, 0-3.
  unsigned optLevel = 3;
  /// Assemble with ptxas (when one is found); false stops at PTX.
  bool assemble = true;
  /// ptxas optimizes (-O3); false: -O0.
  bool ptxasOptimize = true;
  /// The ptxas to run; empty means findPtxas().
  std::string ptxasPath;
  /// A ptxas started for this compile (StartedPtxas), used where it serves
  /// the assembly asked for; null: ptxas starts once the PTX exists.
  StartedPtxas *startedPtxas = nullptr;
  /// Called with each intermediate text ("llvm-ir.ll", "llvm-ir-linked.ll",
  /// "llvm-ir-optimized.ll", "kernel.ptx", "ptxas-forms.txt": when the other
  /// forms of a kernel likely to spill were assembled, and the occupancy
  /// step's retry with its result when there was one, "ptxas.log") when set.
  std::function<void(llvm::StringRef name, llvm::StringRef text)> dump;
};

/// Milliseconds spent in each step.
struct BackendTimes {
  double translate = 0, link = 0, optimize = 0, ptx = 0, ptxas = 0;
};

struct BackendResult {
  /// The kernel (first ptx_kernel function) of the module.
  std::string kernelName;
  /// LLVM IR after linking and O3 (what Triton calls `llir`).
  std::string llvmIR;
  std::string ptx;
  /// The ptxas that ran, or empty when none was found (the PTX is then the
  /// final artifact).
  std::string ptxasPath;
  /// Set when ptxas ran.
  std::optional<PtxasResult> ptxas;
  /// Warnings of LLVM and notes such as "no ptxas found".
  std::vector<std::string> warnings;
  BackendTimes times;
};

/// How compileToCubin runs ptxas for `options`.
PtxasOptions ptxasOptionsFor(const BackendOptions &options);

/// Compiles `module` (builtin + llvm + nvvm dialects only, one or more
/// nvvm.kernel functions) for `options.target`.  Steps fill `result` as they
/// finish, so on failure it holds the stages produced so far.  Fails when the
/// module has no kernel, cannot be translated, needs a libdevice that cannot
/// be found or linked, or when ptxas rejects the PTX (the error then carries
/// ptxas's log).
llvm::Error compileToCubin(mlir::ModuleOp module, const BackendOptions &options,
                           BackendResult &result);

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_BACKEND_H
