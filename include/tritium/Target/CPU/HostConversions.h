//===- HostConversions.h - float conversions LLVM calls on the host -*- C++ -*-===//
//
// The runtime functions LLVM's host code generators call to convert between
// double or float and half or bfloat16 where the processor has no
// instruction for it (x86 without AVX-512 FP16/BF16: f64 -> f16 always,
// f32/f64 -> bf16): compiler-rt's names and calling convention, defined
// here so that the JIT resolves them on every host (libgcc has some of
// them only from GCC 12 or 13, and a library loaded with RTLD_LOCAL does
// not export its dependencies' symbols to the JIT).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_CPU_HOSTCONVERSIONS_H
#define TRITIUM_TARGET_CPU_HOSTCONVERSIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace tritium::cpu {

struct HostConversion {
  llvm::StringRef symbol; ///< compiler-rt's name, e.g. __truncdfhf2
  void *address;
};

/// Every conversion the JIT links to (HostProgram::load).
llvm::ArrayRef<HostConversion> hostConversions();

/// The bits of the float with `exponentBits` and `mantissaBits` (IEEE
/// binary16: 5, 10; bfloat16: 8, 7) nearest to `x`, ties to even, with
/// subnormals, overflow to infinity and NaNs kept NaN (quiet, the sign and
/// the payload's top bits kept).
uint16_t roundToNarrowFloat(double x, int exponentBits, int mantissaBits);

/// The value of the binary16 float with bits `bits` (exact).
double halfToDouble(uint16_t bits);

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_HOSTCONVERSIONS_H
