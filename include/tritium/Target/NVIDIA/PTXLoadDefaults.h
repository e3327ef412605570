//===- PTXLoadDefaults.h - masked loads' defaults in PTX text ----*- C++ -*-===//
//
// A masked load with `other` is lowered as the default written under the
// complementary predicate, then the load under the mask:
//     @!%p1 mov.u32 %r5, 0x0;
//     @%p1 ld.global.b32 %r5, [ %rd3 + 0 ];
// Each write alone is partial, so ptxas treats %r5 as live before both (a
// predicated write does not end the previous value's life): across a loop
// body, the register of every such word is live from one iteration to the
// next.  Written unconditionally, the default ends it:
//     mov.u32 %r5, 0x0;
//     @%p1 ld.global.b32 %r5, [ %rd3 + 0 ];
// the same values, and fewer registers.  Backend.cpp assembles a spilling
// kernel in that form too (the layer-norm benchmark, which does not spill,
// lost 7% with it on the H100: 48 -> 40 registers, one more block per SM).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_NVIDIA_PTXLOADDEFAULTS_H
#define TRITIUM_TARGET_NVIDIA_PTXLOADDEFAULTS_H

#include <string>
#include <string_view>

namespace tritium::nvidia {

/// `ptx` with every `@!%pN mov.uW %rX, V;` that is followed, after other
/// such moves only, by a load predicated on `@%pN` written unconditionally;
/// `changed` counts them.
std::string withUnconditionalLoadDefaults(std::string_view ptx, unsigned &changed);

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_PTXLOADDEFAULTS_H
