//===- TargetInfo.cpp - CUDA chips and PTX ISA versions --------------------===//
//
// Parsing and checking of compute capabilities and PTX ISA versions.  Only
// tables and string handling: nothing here touches LLVM's target registry, so
// a bad option is rejected before any of LLVM sees it.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/NVIDIA/TargetInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace tritium::nvidia;

namespace {
constexpr unsigned kCapabilities[] = {80, 86, 89, 90};

/// The PTX ISA versions NVPTX (LLVM 22) has a `ptxNN` feature for, from 7.0
/// on (older ones cannot name any chip we support).
constexpr unsigned kKnownPtxVersions[] = {70, 71, 72, 73, 74, 75, 76, 77, 78,
                                          80, 81, 82, 83, 84, 85, 86, 87, 88,
                                          90};

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string versionString(unsigned v) {
  return std::to_string(v / 10) + "." + std::to_string(v % 10);
}
} // namespace

std::string CudaTarget::chip() const {
  // 9.0 parts get the architecture-specific variant: wgmma, setmaxnreg and
  // the other Hopper-only instructions exist only there.
  std::string chip = "sm_" + std::to_string(capability);
  if (capability == 90)
    chip += "a";
  return chip;
}

std::string CudaTarget::ptxFeature() const {
  return "+ptx" + std::to_string(ptxVersion);
}

std::string CudaTarget::name() const {
  return "cuda:" + std::to_string(capability);
}

std::string CudaTarget::ptxVersionString() const {
  return versionString(ptxVersion);
}

llvm::ArrayRef<unsigned> tritium::nvidia::supportedCapabilities() {
  return kCapabilities;
}

std::string tritium::nvidia::supportedCapabilitiesString() {
  std::string out;
  for (unsigned c : kCapabilities) {
    if (!out.empty())
      out += ", ";
    out += std::to_string(c);
  }
  return out;
}

llvm::Expected<unsigned> tritium::nvidia::parseCapability(llvm::StringRef text) {
  llvm::StringRef digits = text.trim();
  // Accept the spellings users meet elsewhere: cuda:90 (a Tritium target),
  // sm_90 / sm_90a (a chip), 90 (torch.cuda.get_device_capability joined).
  digits.consume_front("cuda:");
  digits.consume_front("sm_");
  if (digits.size() > 2)
    digits.consume_back("a");
  unsigned capability = 0;
  if (digits.empty() || digits.getAsInteger(10, capability))
    return makeError("invalid arch '" + text +
                     "': expected a compute capability such as 90 (supported: " +
                     supportedCapabilitiesString() + ")");
  if (!llvm::is_contained(kCapabilities, capability))
    return makeError("unsupported arch '" + text + "' (compute capability " +
                     versionString(capability) +
                     "): Tritium compiles for compute capabilities " +
                     supportedCapabilitiesString());
  return capability;
}

llvm::Expected<unsigned> tritium::nvidia::parsePtxVersion(llvm::StringRef text) {
  llvm::StringRef t = text.trim();
  unsigned major = 0, minor = 0, joined = 0;
  bool ok;
  if (t.contains('.')) {
    // "8.4"
    auto [left, right] = t.split('.');
    ok = !left.getAsInteger(10, major) && !right.getAsInteger(10, minor) &&
         major >= 1 && major < 100 && minor < 10;
  } else {
    // "84": the last digit is the minor version
    ok = !t.getAsInteger(10, joined) && joined >= 10 && joined < 1000;
    major = joined / 10;
    minor = joined % 10;
  }
  if (!ok)
    return makeError("invalid ptx_version '" + text +
                     "': expected a PTX ISA version such as 8.4 or 84");
  return major * 10 + minor;
}

unsigned tritium::nvidia::minPtxVersion(unsigned capability) {
  switch (capability) {
  case 80:
    return 70;
  case 86:
    return 71;
  case 89:
    return 78;
  default:
    return 80;
  }
}

unsigned tritium::nvidia::maxPtxVersion() {
  return kKnownPtxVersions[std::size(kKnownPtxVersions) - 1];
}

bool tritium::nvidia::isKnownPtxVersion(unsigned ptxVersion) {
  return llvm::is_contained(kKnownPtxVersions, ptxVersion);
}

std::optional<unsigned>
tritium::nvidia::ptxVersionOfCudaRelease(unsigned major, unsigned minor) {
  unsigned v;
  if (major == 11)
    v = 70 + std::min(minor, 8u); // 11.0 -> 7.0 ... 11.8 -> 7.8
  else if (major == 12 && minor < 6)
    v = 80 + minor; // 12.0 -> 8.0 ... 12.5 -> 8.5
  else if (major == 12)
    v = 79 + std::min(minor, 9u); // 12.6 -> 8.5, 12.8 -> 8.7, 12.9 -> 8.8
  else if (major > 12)
    v = 90 + 10 * (major - 13) + std::min(minor, 9u); // 13.0 -> 9.0
  else
    return std::nullopt;
  // Past what NVPTX can declare, declare its newest: ptxas takes older ISAs.
  while (v > maxPtxVersion() || !isKnownPtxVersion(v))
    --v;
  return v;
}

llvm::Expected<CudaTarget>
tritium::nvidia::makeCudaTarget(unsigned capability, unsigned ptxVersion,
                                unsigned defaultPtxVersion) {
  if (!llvm::is_contained(kCapabilities, capability))
    return makeError("unsupported arch " + llvm::Twine(capability) +
                     ": Tritium compiles for compute capabilities " +
                     supportedCapabilitiesString());
  CudaTarget target;
  target.capability = capability;
  unsigned lowest = minPtxVersion(capability);
  if (ptxVersion == 0) {
    target.ptxVersion = std::max(defaultPtxVersion, lowest);
    return target;
  }
  if (!isKnownPtxVersion(ptxVersion))
    return makeError("unknown PTX ISA version " + versionString(ptxVersion) +
                     ": LLVM's NVPTX backend knows 7.0-7.8, 8.0-8.8 and 9.0");
  if (ptxVersion < lowest)
    return makeError("PTX ISA " + versionString(ptxVersion) +
                     " cannot target " + target.chip() + ": it needs PTX ISA " +
                     versionString(lowest) + " or newer");
  target.ptxVersion = ptxVersion;
  return target;
}
