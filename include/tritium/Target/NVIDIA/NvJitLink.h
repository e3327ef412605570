//===- NvJitLink.h - PTX to cubin inside this process -----------*- C++ -*-===//
//
// nvJitLink, NVIDIA's device linker library, holds the same PTX compiler as
// the ptxas of its CUDA release.  Loaded at run time (dlopen, never linked
// against), it turns PTX into a cubin inside this process: no ptxas process
// to start, no temporary files, which is most of the time a small kernel's
// last compile step takes.
//
// It is used only where it is the twin of the ptxas Tritium would run: the
// library found beside that ptxas (the same CUDA toolkit) whose version is
// the ptxas's release, so the PTX version chosen for that ptxas holds and
// the code is the same compiler's.  $TRITIUM_NVJITLINK names the library to
// use instead, or "none" to always run ptxas.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_NVIDIA_NVJITLINK_H
#define TRITIUM_TARGET_NVIDIA_NVJITLINK_H

#include "tritium/Target/NVIDIA/Ptxas.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace tritium::nvidia {

class NvJitLink;

/// The nvJitLink that is the twin of the ptxas at `ptxasPath` (or the one
/// $TRITIUM_NVJITLINK names), loaded once per path and process; nullptr
/// when there is none, while another thread is still loading it (the
/// caller runs ptxas meanwhile), or when $TRITIUM_NVJITLINK is "none"; an
/// error when the library $TRITIUM_NVJITLINK names cannot be loaded.
llvm::Expected<const NvJitLink *> nvJitLinkFor(llvm::StringRef ptxasPath);

/// Loads the library for `ptxasPath` and compiles an empty kernel with it
/// (its first compile costs a tenth of a second or more); meant for a
/// thread of its own started before the first kernel compiles, which runs
/// ptxas until this returns.
void prepareNvJitLink(llvm::StringRef ptxasPath);

/// Compiles `ptx` to a cubin with `library`, as runPtxas does with ptxas:
/// the same options, the same report (its -verbose log is ptxas's -v log).
/// An error only when the library could not be used at all; rejected PTX
/// is a result that did not succeed, with the log saying why.
llvm::Expected<PtxasResult> compileWithNvJitLink(const NvJitLink &library,
                                                 llvm::StringRef ptx,
                                                 const CudaTarget &target,
                                                 const PtxasOptions &options);

/// Where `library` was loaded from, for messages.
llvm::StringRef nvJitLinkPath(const NvJitLink &library);

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_NVJITLINK_H
