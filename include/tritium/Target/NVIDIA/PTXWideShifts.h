//===- PTXWideShifts.h - widening multiplies by 2^k as sign-extend + shift -*- C++ -*-===//
//
// NVPTX selects `shl (sext i32 x), k` as `mul.wide.s32 x, 2^k` (and zext as
// mul.wide.u32).  Given that form for the loop-invariant per-thread offsets
// of a pipelined loop's pointers, ptxas keeps the 32-bit value and redoes
// the widening multiply-add in every iteration into one reused register,
// which then waits on each cp.async before it (long-scoreboard stalls).
// Given the offsets widened once (cvt + shl, the form Triton's PTX has for
// the same loop), it keeps 64-bit offsets and adds a uniform base: tutorial
// 03's 128x128x32 4-warp matmul runs 6-12% faster (H200, 2026-11-29).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_NVIDIA_PTXWIDESHIFTS_H
#define TRITIUM_TARGET_NVIDIA_PTXWIDESHIFTS_H

#include <string>

namespace tritium::nvidia {

/// Rewrites every unpredicated `mul.wide.{s,u}32 %rdD, %rS, 2^k;` of `ptx`
/// into `cvt.{s64.s32,u64.u32} %rdD, %rS;` and `shl.b64 %rdD, %rdD, k;`.
/// Returns how many it rewrote.
unsigned splitWideningShifts(std::string &ptx);

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_PTXWIDESHIFTS_H
