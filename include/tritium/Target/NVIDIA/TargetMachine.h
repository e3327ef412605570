//===- TargetMachine.h - the NVPTX target machine ---------------*- C++ -*-===//
//
// One llvm::TargetMachine per compile, for triple nvptx64-nvidia-cuda, the
// chip of a CudaTarget and `+ptxNN` for its PTX ISA version.  It supplies the
// data layout of the translated module, the NVPTX passes of the O3 pipeline
// (NVVMReflect among them) and the PTX printer.  Only NVPTX is initialized in
// LLVM's target registry, once per process.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_NVIDIA_TARGETMACHINE_H
#define TRITIUM_TARGET_NVIDIA_TARGETMACHINE_H

#include "tritium/Target/NVIDIA/TargetInfo.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace tritium::nvidia {

/// The triple every module Tritium emits is compiled for.
inline constexpr const char kNVPTXTriple[] = "nvptx64-nvidia-cuda";

/// Code generation choices that change the machine code.
struct CodegenOptions {
  /// Contract a * b + c into fma (both in LLVM and in ptxas).
  bool fpFusion = true;
};

/// Registers the NVPTX target with LLVM (and no other target).  Idempotent
/// and thread-safe.
void initializeNVPTXTarget();

/// Creates the NVPTX target machine for `target`.  Fails, with a message,
/// if this LLVM does not know the chip or the PTX version.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const CudaTarget &target, const CodegenOptions &options);

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_TARGETMACHINE_H
