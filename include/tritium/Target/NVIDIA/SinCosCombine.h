//===- SinCosCombine.h - one libdevice sincos for a sin and a cos -*- C++ -*-===//
//
// A kernel that takes both the sine and the cosine of the same value (a
// rotary embedding: cos(theta) and sin(theta)) calls libdevice's __nv_sinf
// and __nv_cosf on it.  Each call carries the whole argument reduction
// (Payne-Hanek's slow path included) and is inlined at every element, so
// the pair doubles the code the compiler and ptxas work through.
// libdevice's __nv_sincosf computes both from one reduction, with the same
// polynomials and quadrant logic as the separate functions: run on the host
// (libdevice 13.0's bitcode with its NVVM intrinsics replaced by host ones)
// over every seventh float bit pattern, 613,566,757 inputs, its results
// equal __nv_sinf's and __nv_cosf's bit for bit.  Before libdevice is
// linked, each pair is made one call.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_NVIDIA_SINCOSCOMBINE_H
#define TRITIUM_TARGET_NVIDIA_SINCOSCOMBINE_H

namespace llvm {
class Module;
} // namespace llvm

namespace tritium::nvidia {

/// Replaces each __nv_sinf(x) and __nv_cosf(x) of one value x in one basic
/// block by one __nv_sincosf(x, &s, &c) through two stack slots, which O3
/// turns back into registers.  Returns the number of pairs combined.
unsigned combineSinCos(llvm::Module &module);

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_SINCOSCOMBINE_H
