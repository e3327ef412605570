//===- Occupancy.h - blocks an SM holds, and the register step to one more -*- C++ -*-===//
//
// How many blocks of a kernel one SM runs at once: the least of what its
// registers, its shared memory, its warps and the SM's block slots allow.
// ptxas picks a kernel's register count without looking at the other
// limits, so a kernel a few registers above a step (130 registers a thread
// in blocks of 8 warps: one block per SM; 128: two) runs half as many
// warps as the same code a few registers leaner.  Where registers are the
// limit, the SM runs fewer warps than its schedulers need to hide latency,
// the next block fits in shared memory, the count that step needs is
// within an eighth of the kernel's (three eighths from one block per SM
// to two), the kernel does not spill, and its values do not hold nearly
// twice the registers of the step at once (stepOutOfReach),
// Backend.cpp assembles it once more with `.minnctapersm` set to
// one block more (Ptxas.h, withMinBlocksPerSM) and keeps that result when
// ptxas reached the step without spilling, or spilling a few words where
// the SM ran few warps (stepSpillsAcceptable).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_NVIDIA_OCCUPANCY_H
#define TRITIUM_TARGET_NVIDIA_OCCUPANCY_H

#include <optional>

namespace tritium::nvidia {

/// One SM's resources for blocks, by compute capability.
struct SMLimits {
  int registers = 65536;
  /// Registers are allocated per warp in units of this many.
  int registerUnit = 256;
  int maxRegistersPerThread = 255;
  int warps = 64;
  /// Warp schedulers, and the warps each needs resident to hide latency:
  /// past that, a block more is worth less than the registers ptxas gives
  /// up for it (4-warp kernels at 5 -> 6 and 7 -> 8 blocks ran 2-3.5%
  /// slower on the H200, 8-warp ones at 1 -> 2 blocks up to 40% faster).
  int schedulers = 4;
  int warpsPerSchedulerToHideLatency = 4;
  int blocks = 32;
  /// Shared memory blocks may take in all, and what the system reserves
  /// for each block on top of its own.
  int sharedBytes = 0;
  int reservedSharedPerBlock = 1024;
};

/// The limits of compute capability `capability` (times ten plus minor);
/// nullopt for one this table does not know.
std::optional<SMLimits> smLimits(unsigned capability);

/// Blocks of `threads` threads that `limits` allow at once when each thread
/// takes `registers` registers and each block `sharedBytes` of shared
/// memory (static and dynamic); 0 when one block does not fit.
int blocksPerSM(const SMLimits &limits, int registers, int threads,
                int sharedBytes);

/// The block count to ask ptxas for (`.minnctapersm`) so that a kernel of
/// `registers` registers a thread, `threads` threads and `sharedBytes` of
/// shared memory a block runs one block more per SM: when registers are
/// what limits it, the blocks it runs hold fewer warps than the schedulers
/// need to hide latency, shared memory, warps and block slots allow one
/// more, and the register count that needs is at least 5/8 of `registers`
/// (180 registers in blocks of 8 warps -> 128; 4 warps of 168 -> 128).
/// nullopt otherwise.
std::optional<int> oneMoreBlockPerSM(const SMLimits &limits, int registers,
                                     int threads, int sharedBytes);

/// The most registers a thread may have for `blocks` blocks of `threads`
/// threads to fit the register file (128 for two blocks of 8 warps).
int registersForBlocks(const SMLimits &limits, int threads, int blocks);

/// Whether a kernel whose values hold `liveWords` 32-bit words at once
/// (RegisterPressure.h, maxLiveWords) is too far above the registers a
/// thread may have for `blocks` blocks of `threads` threads for ptxas to
/// fit it there: 1.95 times those registers or more, where foreseenStep's
/// window ends.  Over the snapshot's kernels and the corpus's attention
/// forwards and backwards whose step was tried (cuda:90, ptxas 13.0), the
/// steps ptxas reached, with at most 160 bytes spilled, came at 1.44-1.91
/// times, and every one at 1.98 times or more spilled 288-2,560 bytes (the
/// 4-warp 128x128 matmuls and head-dim-64 attention forwards at 255
/// registers, 520-608 words against 168; the 4-warp head-dim-64 attention
/// backwards at (32, 128, 128, 32) and fp8 one-loop forwards at head dim
/// 128, 333-379 words against 168; the descriptor backward of 333 words
/// spilled 1,136-1,252 bytes).  Such a step is not assembled.
bool stepOutOfReach(const SMLimits &limits, unsigned liveWords, int threads,
                    int blocks);

/// The block count of the occupancy step a kernel of `threads` threads and
/// `sharedBytes` of shared memory a block is likely to be asked to take
/// (oneMoreBlockPerSM's result), foreseen before ptxas runs from the
/// 32-bit words its values hold at once (`liveWords`): the fewest blocks b
/// that oneMoreBlockPerSM asks for at some register count and whose
/// registers (registersForBlocks) the live words exceed by 1.4 to 1.95
/// times.  The kernels whose step ptxas reached held 1.44-1.91 times its
/// registers (cuda:90, ptxas 13.0: attention forwards and backwards of 4
/// and 8 warps); nullopt where no step is foreseen.
std::optional<int> foreseenStep(const SMLimits &limits, unsigned liveWords,
                                int threads, int sharedBytes);

/// Whether ptxas's result for the step to `blocks` blocks per SM of
/// `threads` threads is taken though it spilled `spilledBytes` (stores and
/// loads, as ptxas counts them): with none, or with at most 160 where the SM
/// ran one or two blocks of at most 8 warps in all before the step and the
/// MMAs stay asynchronous (`mmasSerialized` false) or the step is from one
/// block to two.  There a block more is worth a few words in local memory:
/// on 11 corpus items whose step spilled 32-140 bytes (2-16 words of local
/// memory; H200, 2026-12-02, both builds in one call), the steps from one
/// block of 8 warps to two ran 1.07-1.36x as fast (their MMAs serialized,
/// C7511 or C7512), those from two blocks of 4 warps to three with
/// asynchronous MMAs 1.06-1.09x, and the 4-warp forwards whose step
/// serialized the MMAs (two blocks to three, three to four) 0.95-0.98x; of
/// Inductor's kernels, a pointwise one of 8 warps ran 1.08-1.09x as fast
/// from one block to two, a persistent reduction of 2 warps 0.96x from four
/// blocks to five.
bool stepSpillsAcceptable(long long spilledBytes, int blocks, int threads,
                          bool mmasSerialized);

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_OCCUPANCY_H
