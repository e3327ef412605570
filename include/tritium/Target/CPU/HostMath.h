//===- HostMath.h - libdevice functions the C library lacks ----*- C++ -*-===//
//
// The libdevice functions that have neither a C library twin nor an
// expression in MLIR's ops (erfinv, sinpi, norm3d, the Bessel functions I0
// and I1, the directed roundings of a double fma, ...), computed by
// functions of the native library itself: kernels compiled for the host
// call them by symbol, and the host program's linker resolves the symbols
// to these addresses (HostProgram.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_CPU_HOSTMATH_H
#define TRITIUM_TARGET_CPU_HOSTMATH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace tritium::cpu {

/// One of them: its libdevice name without `__nv_` ("erfinvf"; every
/// operand and the result of the name's floating-point type, f32 for the
/// names that end in 'f' where the double version exists too), the symbol
/// host programs call, and its address in this process.
struct HostMathFunction {
  llvm::StringRef name;
  llvm::StringRef symbol;
  void *address;
  bool isFloat; ///< operands and result f32 (else f64)
  unsigned numOperands;
};

/// All of them.
llvm::ArrayRef<HostMathFunction> hostMathFunctions();

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_HOSTMATH_H
