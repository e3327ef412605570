//===- Ptxas.h - PTX to cubin with NVIDIA's ptxas ---------------*- C++ -*-===//
//
// The last compile step runs NVIDIA's ptxas as a subprocess (never through a
// shell; started at the beginning of the compile and handed the PTX through
// a pipe, or started once the PTX is written to a file), or its relocatable
// twin inside this process where $TRITIUM_NVJITLINK asks for it
// (NvJitLink.h), and reads its `-v` report: registers, spills, stack frame
// and static shared memory per kernel.  When no ptxas exists the PTX is the final
// artifact and the CUDA driver JIT-compiles it at load time.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_NVIDIA_PTXAS_H
#define TRITIUM_TARGET_NVIDIA_PTXAS_H

#include "tritium/Target/NVIDIA/TargetInfo.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tritium::nvidia {

/// The ptxas to run, looked for in order at $TRITIUM_PTXAS_PATH,
/// $TRITON_PTXAS_PATH (Triton's setting), $CUDA_HOME/bin/ptxas, $CUDA_PATH/bin/ptxas, /usr/local/cuda/bin/ptxas and
/// on $PATH; empty when there is none, or when $TRITIUM_PTXAS_PATH is
/// "none" (stop at PTX, e.g. to test the driver's JIT path).
std::string findPtxas();

/// The CUDA release ({13, 0}) of the ptxas at `path`, from `ptxas --version`
/// (run once per path and process); nullopt if it cannot be told.
std::optional<std::pair<unsigned, unsigned>>
ptxasCudaRelease(llvm::StringRef path);

/// The PTX ISA version to declare when none is asked for: the one the
/// CUDA release of the ptxas at `path` emits, or kFallbackPtxVersion when
/// `path` is empty or its release cannot be told.
unsigned defaultPtxVersion(llvm::StringRef path);

/// What ptxas reports for one kernel under -v.
struct KernelResources {
  std::string name;
  int registers = -1;
  int spillStoreBytes = 0;
  int spillLoadBytes = 0;
  int stackFrameBytes = 0;
  /// Static shared memory (`.shared` variables), not the dynamic amount the
  /// launch requests.
  int sharedBytes = 0;
  int barriers = 0;
};

/// Reads the per-kernel resource lines of a `ptxas -v` log.
std::vector<KernelResources> parsePtxasLog(llvm::StringRef log);

/// Whether a `ptxas -v` log says the warp-group MMAs of a kernel were
/// serialized (performance notes C7510-C7515: each wgmma waited for before
/// the next is issued).
bool serializedWarpGroupMmas(llvm::StringRef log);

/// Whether a `ptxas -v` log says the warp-group MMAs were serialized for the
/// placement of instructions in their pipeline stages (C7515: instructions
/// that define or read an MMA's registers inside its stage; an ill-formed
/// stage), not for a lack of registers (C7511, C7512) nor for a function
/// call the pipeline crosses (C7510: the assertion handler, a device
/// function left uninlined).  Only the former can a different placement of
/// the waits undo: the wgmma-wait form tried on C7510 kernels (6 of the
/// snapshot's descriptor backward kernels, ptxas 13.0) was never kept.
bool serializedWarpGroupMmasByPlacement(llvm::StringRef log);

struct PtxasOptions {
  /// Contract a * b + c into fma (ptxas's --fmad).
  bool fpFusion = true;
  /// Keep source line information (-lineinfo).
  bool lineInfo = false;
  /// ptxas's own optimizations (-O3); false assembles with -O0, the way to
  /// tell a ptxas miscompile from ours (Triton's DISABLE_PTXAS_OPT).
  bool optimize = true;
  /// Compile with the nvJitLink $TRITIUM_NVJITLINK asks for, inside this
  /// process, where it is found (NvJitLink.h); false always starts ptxas.
  bool inProcess = true;
  /// Kill ptxas after this long (0: wait for ever; not for nvJitLink).
  unsigned timeoutSeconds = 600;
};

struct PtxasResult {
  /// ptxas exited with status 0 and wrote the cubin.
  bool succeeded = false;
  /// Everything ptxas printed (stdout and stderr interleaved).
  std::string log;
  /// The cubin (an ELF image) when succeeded.
  std::string cubin;
  std::vector<KernelResources> kernels;
  /// The command line, for messages.
  std::string command;
};

/// A ptxas process started before the PTX it is to assemble exists: it
/// waits for the PTX on its standard input (a pipe, through a link in
/// place of its input file) while the compile that makes the PTX goes on,
/// so that ptxas's own start (about 10 ms, most of its time on a small
/// kernel) overlaps that compile.  It writes the cubin and its log into a
/// temporary directory of its own, as a ptxas started on a file does, and
/// makes the same cubin.  Destroyed without
/// finish(), it is ended (its input closed, then killed) and its directory
/// removed.
class StartedPtxas {
public:
  /// ptxas at `ptxasPath` started for `target` and `options`; null when it
  /// cannot be started (runPtxas then starts one the usual way and reports
  /// why).
  static std::unique_ptr<StartedPtxas> start(llvm::StringRef ptxasPath,
                                             const CudaTarget &target,
                                             const PtxasOptions &options);
  ~StartedPtxas();
  StartedPtxas(const StartedPtxas &) = delete;
  StartedPtxas &operator=(const StartedPtxas &) = delete;

  /// Whether this process assembles as runPtxas(ptxasPath, _, target,
  /// options) would, and has not been given its PTX yet.
  bool serves(llvm::StringRef ptxasPath, const CudaTarget &target,
              const PtxasOptions &options) const;

  /// Gives ptxas `ptx` and waits for it (runPtxas's result and errors).
  llvm::Expected<PtxasResult> finish(llvm::StringRef ptx);

private:
  StartedPtxas() = default;
  void end();

  std::string ptxasPath, chip, directory, ptxPath, cubinPath, logPath;
  PtxasOptions options;
  std::vector<std::string> arguments;
  int pid = -1;
  int input = -1; ///< the write end of ptxas's standard input
};

/// Assembles `ptx` for `target` with the ptxas at `ptxasPath` in a fresh
/// temporary directory, removed afterwards, or with `started` where it
/// serves these arguments.  An error means ptxas could not be run at all
/// (missing, not executable, killed, no temporary directory); PTX that
/// ptxas rejects is a result with `succeeded` false and the reason in
/// `log`.  A ptxas run as a process of its own is killed soon after
/// `*stop` becomes true (the result is then an error).
llvm::Expected<PtxasResult> runPtxas(llvm::StringRef ptxasPath,
                                     llvm::StringRef ptx,
                                     const CudaTarget &target,
                                     const PtxasOptions &options,
                                     StartedPtxas *started = nullptr,
                                     const std::atomic<bool> *stop = nullptr);

/// The most registers a thread of a kernel whose PTX declares `.reqntid`
/// for `threads` threads can have: 65536 per SM over the block, in steps of
/// 8, at most 255.
int registerCeiling(int threads);

/// The threads of the kernel in `ptx`, the product of its `.reqntid` (or
/// `.maxntid`) dimensions; 0 when it declares neither.
int declaredThreads(llvm::StringRef ptx);

/// Whether ptxas spilled a kernel of `threads` threads while registers were
/// left: ptxas (CUDA 13.0), when a kernel cannot fit its registers, may
/// settle on the count that lets the most blocks share an SM (32 registers
/// for 128 threads) and keep kilobytes of values in local memory.
bool spilledWithRegistersToSpare(const KernelResources &kernel, int threads);

/// `ptx` with `.minnctapersm blocks` after its `.reqntid` (or `.maxntid`)
/// directives: ptxas keeps to the registers that many blocks per SM allow.
/// With 1, one block per SM is enough, so ptxas may use every register the
/// block size allows.
/// nullopt when the PTX already states an occupancy or a register cap
/// (.minnctapersm, .maxnreg) or declares neither.
std::optional<std::string> withMinBlocksPerSM(llvm::StringRef ptx, int blocks);

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_PTXAS_H
