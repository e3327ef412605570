//===- TargetInfo.h - CUDA chips and PTX ISA versions -----------*- C++ -*-===//
//
// Which NVIDIA GPUs Tritium generates code for and which PTX ISA version the
// PTX it emits declares.  NVPTX only warns about an unknown chip (and then
// writes `.target sm_999`, which ptxas rejects much later), so every chip and
// version is checked here, with a message naming the supported values, before
// it reaches LLVM.
//
// Facts used:
//   * compute capability 9.0 is compiled for `sm_90a`, the chip variant that
//     has wgmma and setmaxnreg (a cubin for sm_90a runs only on 9.0 parts,
//     which is every Hopper GPU);
//   * the lowest PTX ISA that can name a chip: sm_80 7.0, sm_86 7.1,
//     sm_89 7.8, sm_90a 8.0;
//   * a CUDA toolkit release 12.N emits PTX ISA 8.N (12.9 -> 8.8) and 13.0
//     emits 9.0; ptxas accepts any ISA up to its own.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_NVIDIA_TARGETINFO_H
#define TRITIUM_TARGET_NVIDIA_TARGETINFO_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace tritium::nvidia {

/// A validated CUDA code generation target.
struct CudaTarget {
  /// Compute capability times ten plus minor: 80, 86, 89, 90.
  unsigned capability = 90;
  /// PTX ISA version as 10 * major + minor: 84 is PTX ISA 8.4.
  unsigned ptxVersion = 84;

  /// The NVPTX CPU / ptxas --gpu-name: "sm_80", ..., "sm_90a".
  std::string chip() const;
  /// The NVPTX target feature that sets `.version`: "+ptx84".
  std::string ptxFeature() const;
  /// Tritium's name of the target: "cuda:90".
  std::string name() const;
  /// "8.4".
  std::string ptxVersionString() const;
};

/// The compute capabilities Tritium compiles for, ascending.
llvm::ArrayRef<unsigned> supportedCapabilities();

/// "80, 86, 89, 90": for messages.
std::string supportedCapabilitiesString();

/// Parses a compute capability written "90", "sm_90", "sm_90a" or "cuda:90"
/// and checks that it is supported.
llvm::Expected<unsigned> parseCapability(llvm::StringRef text);

/// Parses a PTX ISA version written "84" or "8.4" (syntax only).
llvm::Expected<unsigned> parsePtxVersion(llvm::StringRef text);

/// The lowest PTX ISA version that can target `capability`.
unsigned minPtxVersion(unsigned capability);

/// The highest PTX ISA version LLVM's NVPTX backend can declare.
unsigned maxPtxVersion();

/// Whether NVPTX knows `ptxVersion` (there is no 7.9, for instance).
bool isKnownPtxVersion(unsigned ptxVersion);

/// The PTX ISA version a CUDA toolkit release emits, clamped to what NVPTX
/// can declare; nullopt for releases older than 11.0.
std::optional<unsigned> ptxVersionOfCudaRelease(unsigned major,
                                                 unsigned minor);

/// The PTX ISA version used when none is asked for and no ptxas says which
/// it takes: 8.4 (CUDA 12.4 and every driver since 550).
constexpr unsigned kFallbackPtxVersion = 84;

/// Checks `capability` and `ptxVersion` together.  A `ptxVersion` of 0 picks
/// `defaultPtxVersion` raised to the chip's minimum.
llvm::Expected<CudaTarget> makeCudaTarget(unsigned capability,
                                          unsigned ptxVersion,
                                          unsigned defaultPtxVersion =
                                              kFallbackPtxVersion);

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_TARGETINFO_H
