//===- NvJitLink.h - PTX to cubin inside this process -----------*- C++ -*-===//
//
// nvJitLink, NVIDIA's device linker library, holds the PTX compiler of its
// CUDA release.  Loaded at run time (dlopen, never linked against), it turns
// PTX into a cubin inside this process: no ptxas process to start, no
// temporary files, which is most of a small kernel's last compile step.
//
// Its compile is ptxas's relocatable one (`ptxas -c`, then a link), whose
// registers and instruction order differ from the whole-program compile a
// ptxas run does, so a kernel's speed may differ.  It is therefore asked for: $TRITIUM_NVJITLINK=twin takes the
// library of the ptxas's release found beside it (the same toolkit; the
// PTX version chosen for that ptxas holds), a path takes that library;
// unset or "none", ptxas runs.
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

/// The nvJitLink $TRITIUM_NVJITLINK asks for ("twin": the one of the ptxas
/// at `ptxasPath`; or a path), loaded once per process; nullptr when none
/// is asked for or there is no twin, or while another thread is still
/// loading it (the caller runs ptxas meanwhile); an error when the library
/// named cannot be loaded.
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

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_NVJITLINK_H
