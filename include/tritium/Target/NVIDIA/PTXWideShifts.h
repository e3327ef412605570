//===- PTXWideShifts.h - widening multiplies by 2^k in the PTX -*- C++ -*-===//
//
// NVPTX selects `shl (sext i32 x), k` as `mul.wide.s32 x, 2^k` (and zext as
// mul.wide.u32), and an address `base + (sext x << k)` as that multiply and
// an add.  Where the add is the product's one use and follows it in its
// block (an address computed where it is used: the K and V rows of a loop
// that multiplies the row by its stride each iteration), the two become
// `mad.wide.s32 x, 2^k, base`, the form Triton's PTX has, which ptxas
// assembles as a sign-extending LEA pair; split (below), they take a third
// instruction for the sign (SHF): 16 in the loop of the one-loop attention
// forward at head dim 256, (64, 32, 3, 4), whose registers go 228 -> 209.
//
// The other widening multiplies are split into sign-extend + shift.  Given
// the mul.wide form for the loop-invariant per-thread offsets of a
// pipelined loop's pointers, ptxas keeps the 32-bit value and redoes
// the widening multiply-add in every iteration into one reused register,
// which then waits on each cp.async before it (long-scoreboard stalls).
// Given the offsets widened once (cvt + shl, the form Triton's PTX has for
// the same loop), it keeps 64-bit offsets and adds a uniform base: tutorial
// 03's 128x128x32 4-warp matmul runs 6-12% faster (H200, 2026-11-29).
//
// The 64-bit offsets take two registers each where the 32-bit ones took
// one.  A kernel that spills with them split is therefore also assembled as
// NVPTX emitted it (one of per-thread cp.async only with 32 splits or more,
// kSplitsWorthAnotherForm), and the form that spills less is kept
// (Backend.cpp): a one-warp loop of flash-linear-attention's
// chunk_fwd_kernel_h streaming 64x64 fp16 and fp32 tiles by cp.async
// spills 100 bytes split and none as emitted (200 registers; ptxas 13.0); a
// tutorial-08 grouped matmul (pointers loaded from memory, plain loads) at
// 128x128x32, 4 warps, spills 644 bytes split
// and 196 as emitted, and runs 1.45-1.57x faster as emitted; its configs
// that do not spill run 7% faster split (H200, 2026-11-30).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_NVIDIA_PTXWIDESHIFTS_H
#define TRITIUM_TARGET_NVIDIA_PTXWIDESHIFTS_H

#include <string>
#include <string_view>

namespace tritium::nvidia {

/// Whether `ptx` copies global to shared memory with per-thread cp.async
/// (`cp.async.ca` or `cp.async.cg`; the bulk and tensor copies of TMA take
/// no per-thread offsets).
bool copiesWithPerThreadAsyncCopies(std::string_view ptx);

/// Fuses each unpredicated `mul.wide.{s,u}32 %rdD, %rS, 2^k;` whose product
/// has one use, an `add.s64 %rdX, %rdD, %rdB;` (or `%rdB, %rdD`) later in the
/// same block with %rS not redefined between, into
/// `mad.wide.{s,u}32 %rdX, %rS, 2^k, %rdB;` in place of the add (an add of
/// two such products takes one of them).  Returns how many it fused.
unsigned fuseWideningMultiplyAdds(std::string &ptx);

/// Rewrites every unpredicated `mul.wide.{s,u}32 %rdD, %rS, 2^k;` of `ptx`
/// into `cvt.{s64.s32,u64.u32} %rdD, %rS;` and `shl.b64 %rdD, %rdD, k;`.
/// Returns how many it rewrote.
unsigned splitWideningShifts(std::string &ptx);

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_PTXWIDESHIFTS_H
