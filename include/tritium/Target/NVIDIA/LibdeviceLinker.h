//===- LibdeviceLinker.h - link NVIDIA's libdevice --------------*- C++ -*-===//
//
// tl.math / libdevice calls reach LLVM IR as calls to `__nv_*` functions
// (`__nv_expf`, `__nv_erff`, ...) that NVIDIA ships as bitcode in
// libdevice.10.bc.  Before optimization the functions a module calls are
// linked in from that file, the `nvvm-reflect-ftz` module flag tells
// NVVMReflect which flavour (denormals flushed or kept) libdevice's
// `__nvvm_reflect("__CUDA_FTZ")` tests select, and everything but the kernels
// is made internal so that O3 inlines and then drops the library code.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_NVIDIA_LIBDEVICELINKER_H
#define TRITIUM_TARGET_NVIDIA_LIBDEVICELINKER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace tritium::nvidia {

/// The path of libdevice.10.bc, looked for in order at
/// $TRITIUM_LIBDEVICE_PATH (the file, or a directory holding it),
/// $CUDA_HOME/nvvm/libdevice, $CUDA_PATH/nvvm/libdevice and
/// /usr/local/cuda/nvvm/libdevice; empty when there is none.
std::string findLibdevice();

/// The `__nv_*` functions `module` declares without defining: what it needs
/// from libdevice.
std::vector<std::string> libdeviceReferences(const llvm::Module &module);

/// Links the functions of libdevice (bitcode at `path`, read once per
/// process) that `module` needs into it and sets `nvvm-reflect-ftz` to
/// `flushDenormals`.  Fails if the file cannot be read or parsed, the link
/// fails, or a `__nv_*` function is still undefined afterwards (a name
/// libdevice does not have).
llvm::Error linkLibdevice(llvm::Module &module, llvm::StringRef path,
                          bool flushDenormals);

/// Gives every function and global variable `module` defines internal
/// linkage, except the kernels (ptx_kernel functions) and variables that are
/// only declared (e.g. the dynamic shared memory `global_smem`).
void internalizeAllButKernels(llvm::Module &module);

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_LIBDEVICELINKER_H
