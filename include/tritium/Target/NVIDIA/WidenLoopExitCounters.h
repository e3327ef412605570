//===- WidenLoopExitCounters.h - 64-bit exit tests of counted loops -*- C++ -*-===//
//
// A loop of a constant trip count whose exit tests a 32-bit counter gets the
// test on a 64-bit counter instead, so that NVPTX's loop strength reduction
// can fold it into the loop's 64-bit address increments without a
// truncation: ptxas recognizes the trip count of such a loop, and unrolls
// small bodies, which it does not do through a 32-bit truncated compare.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_NVIDIA_WIDENLOOPEXITCOUNTERS_H
#define TRITIUM_TARGET_NVIDIA_WIDENLOOPEXITCOUNTERS_H

namespace llvm {
class Module;
} // namespace llvm

namespace tritium::nvidia {

/// Rewrites, in every loop of `module`, an exit test `icmp eq/ne i32
/// %iv.next, C` of a counter %iv = phi [S, preheader], [%iv.next = %iv + D,
/// latch] (S, D, C constants, 0 <= S <= C, D > 0, D divides C - S) as the
/// same test on a new i64 counter with the same start and step: both
/// counters take the same values up to the exit, which the test reaches
/// exactly.  Returns the number of loops rewritten.
unsigned widenLoopExitCounters(llvm::Module &module);

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_WIDENLOOPEXITCOUNTERS_H
