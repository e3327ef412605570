//===- HostProgram.h - a kernel compiled for the host CPU -------*- C++ -*-===//
//
// The LLVM dialect module of convert-tt-to-host-llvm, optimized for the host
// processor (its CPU and features detected: AVX2, AVX-512, NEON...), compiled
// to an object file (kept by the kernel cache) and linked in memory by
// LLVM's ORC JIT, and run over a grid of programs on threads.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_CPU_HOSTPROGRAM_H
#define TRITIUM_TARGET_CPU_HOSTPROGRAM_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tritium::cpu {

/// The host's target triple, CPU and features, as LLVM names them.
std::string hostDescription();

class HostProgram {
public:
  /// The entry convert-tt-to-host-llvm adds: argument addresses, then the
  /// program's coordinates and the grid's size.
  using Entry = void (*)(void **args, int32_t x, int32_t y, int32_t z,
                         int32_t nx, int32_t ny, int32_t nz);

  /// Compiles `kernel` of the LLVM dialect module `module`; `llvmIR`
  /// receives the optimized LLVM IR and `object` the host object file the
  /// program is linked from (what `load` takes back, in another process).
  /// With `fastCodegen` the IR is optimized as always but the machine code
  /// comes from LLVM's fast path (CodeGenOptLevel::None: fast instruction
  /// selection and register allocation).
  static llvm::Expected<std::unique_ptr<HostProgram>>
  compile(mlir::ModuleOp module, llvm::StringRef kernel, std::string &llvmIR,
          std::string &object, bool fastCodegen = false);

  /// Links the object file `object` that `compile` produced on this host
  /// and finds `kernel`'s entry in it.
  static llvm::Expected<std::unique_ptr<HostProgram>>
  load(llvm::StringRef object, llvm::StringRef kernel);
  ~HostProgram();

  /// Why a grid did not complete.
  struct Failure {
    enum Kind { Assertion, CannotRun } kind;
    std::string message;
  };

  /// Runs every program of the grid (nx, ny, nz), x fastest, on up to
  /// `threads` threads (0: one per hardware thread).  Returns the message
  /// of the first failed tt.assert, after which no further program starts,
  /// or why the grid could not run (no threads with stacks large enough
  /// for the program's frame).
  std::optional<Failure> run(void **args, int32_t nx, int32_t ny, int32_t nz,
                             unsigned threads) const;

private:
  HostProgram() = default;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  Entry entry = nullptr;
  uint64_t stackBytes = 0; ///< what the program's frames take (0: not known)
};

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_HOSTPROGRAM_H
