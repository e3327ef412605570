//===- Occupancy.cpp - blocks an SM holds, and the register step to one more ===//
//
// The arithmetic of Occupancy.h: a warp's registers are its threads'
// registers rounded up to the allocation unit; an SM holds as many warps as
// its register file has room for, and as many blocks as whole blocks of
// those warps, its warp and block slots and its shared memory (each block's
// own plus the system's reserve) allow.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/NVIDIA/Occupancy.h"

#include <algorithm>

using namespace tritium::nvidia;

std::optional<SMLimits> tritium::nvidia::smLimits(unsigned capability) {
  SMLimits limits;
  switch (capability) {
  case 80:
    limits.sharedBytes = 164 * 1024;
    return limits;
  case 86:
  case 89:
    limits.warps = 48;
    limits.blocks = capability == 86 ? 16 : 24;
    limits.sharedBytes = 100 * 1024;
    return limits;
  case 90:
    limits.sharedBytes = 228 * 1024;
    return limits;
  default:
    return std::nullopt;
  }
}

namespace {
int ceilDiv(int a, int b) { return (a + b - 1) / b; }

/// Blocks the register file holds.
int blocksByRegisters(const SMLimits &limits, int registers, int warpsPerBlock) {
  int perWarp = ceilDiv(registers * 32, limits.registerUnit) * limits.registerUnit;
  if (perWarp <= 0)
    return limits.blocks;
  return (limits.registers / perWarp) / warpsPerBlock;
}

/// Blocks everything but the registers allows.
int blocksByOtherLimits(const SMLimits &limits, int warpsPerBlock, int sharedBytes) {
  int blocks = std::min(limits.blocks, limits.warps / warpsPerBlock);
  if (sharedBytes > 0)
    blocks = std::min(blocks, limits.sharedBytes /
                                  (sharedBytes + limits.reservedSharedPerBlock));
  return blocks;
}
} // namespace

int tritium::nvidia::blocksPerSM(const SMLimits &limits, int registers,
                                 int threads, int sharedBytes) {
  if (threads <= 0 || registers < 0)
    return 0;
  int warpsPerBlock = ceilDiv(threads, 32);
  return std::max(0, std::min(blocksByRegisters(limits, registers, warpsPerBlock),
                              blocksByOtherLimits(limits, warpsPerBlock, sharedBytes)));
}

std::optional<int> tritium::nvidia::oneMoreBlockPerSM(const SMLimits &limits,
                                                      int registers, int threads,
                                                      int sharedBytes) {
  if (threads <= 0 || registers <= 0)
    return std::nullopt;
  int warpsPerBlock = ceilDiv(threads, 32);
  int now = blocksByRegisters(limits, registers, warpsPerBlock);
  int target = now + 1;
  if (now < 1 || target > blocksByOtherLimits(limits, warpsPerBlock, sharedBytes))
    return std::nullopt;
  if (now * warpsPerBlock >=
      limits.schedulers * limits.warpsPerSchedulerToHideLatency)
    return std::nullopt;
  int needed = registersForBlocks(limits, threads, target);
  // Below the warps that hide latency, a block more is worth up to three
  // eighths of the registers: a block alone on its SM has no other block's
  // warps to run while its own wait at a barrier or drain their last loads
  // (8-warp attention tiles, 1 -> 2 blocks), and 3 blocks of 4 warps leave
  // each scheduler three (Mamba-2's chunk-state backward, 168 -> 123
  // registers for a fourth block).
  constexpr int eighthsKept = 5;
  if (needed <= 0 || needed * 8 < registers * eighthsKept)
    return std::nullopt;
  return target;
}

int tritium::nvidia::registersForBlocks(const SMLimits &limits, int threads,
                                        int blocks) {
  if (threads <= 0 || blocks <= 0)
    return 0;
  // Whole allocation units per warp, rounded down to a multiple of 8.
  int perWarp = limits.registers / (blocks * ceilDiv(threads, 32));
  perWarp = perWarp / limits.registerUnit * limits.registerUnit;
  return std::min(limits.maxRegistersPerThread, perWarp / 32 / 8 * 8);
}

std::optional<int> tritium::nvidia::foreseenStep(const SMLimits &limits,
                                                 unsigned liveWords, int threads,
                                                 int sharedBytes) {
  if (threads <= 0)
    return std::nullopt;
  int warpsPerBlock = ceilDiv(threads, 32);
  int allowed = blocksByOtherLimits(limits, warpsPerBlock, sharedBytes);
  for (int blocks = 2; blocks <= allowed; ++blocks) {
    int registers = registersForBlocks(limits, threads, blocks);
    // Live words from 1.4 times the step's registers to where the step is
    // out of reach.
    if (registers <= 0 || 10u * liveWords < 14u * registers ||
        stepOutOfReach(limits, liveWords, threads, blocks))
      continue;
    // A step oneMoreBlockPerSM takes at some register count.
    for (int r = registers + 1; r <= limits.maxRegistersPerThread; ++r)
      if (oneMoreBlockPerSM(limits, r, threads, sharedBytes) == blocks)
        return blocks;
  }
  return std::nullopt;
}

bool tritium::nvidia::stepOutOfReach(const SMLimits &limits,
                                     unsigned liveWords, int threads,
                                     int blocks) {
  int registers = registersForBlocks(limits, threads, blocks);
  // 1.95 times or more: 20 * words >= 39 * registers.
  return registers > 0 && 20u * liveWords >= 39u * static_cast<unsigned>(registers);
}

bool tritium::nvidia::stepSpillsAcceptable(long long spilledBytes, int blocks,
                                           int threads,
                                           bool mmasSerialized) {
  constexpr long long kFewBytes = 160;
  constexpr int kFewBlocks = 2, kFewWarps = 8;
  if (spilledBytes == 0)
    return true;
  int blocksBefore = blocks - 1;
  return spilledBytes <= kFewBytes && blocksBefore <= kFewBlocks &&
         blocksBefore * ceilDiv(threads, 32) <= kFewWarps &&
         (blocksBefore == 1 || !mmasSerialized);
}
