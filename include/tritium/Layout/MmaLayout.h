//===- MmaLayout.h - Tensor-core accumulator/operand layouts ----*- C++ -*-===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// Layouts dictated by NVIDIA tensor-core instructions: the accumulator
// ("mma") layout of Ampere mma.sync (version 2) and Hopper wgmma
// (version 3), and the register layout of the A/B operands of mma.sync
// ("dot operand").  The per-warp fragments follow the PTX ISA; warps tile
// the CTA tile, and the CTA tile repeats over the tensor through extra
// register bases.  Everything is expressed as a LinearLayout.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_LAYOUT_MMALAYOUT_H
#define TRITIUM_LAYOUT_MMALAYOUT_H

#include "tritium/Layout/LinearLayout.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tritium {
namespace layout {

/// Parameters of an MMA accumulator layout.
///   version 2 (Ampere mma.sync): instrShape = [16, 8].
///   version 3 (Hopper wgmma):    instrShape = [16, N, K]; each warp of a
///                                warpgroup owns 16 rows of the M=64 tile.
struct MmaSpec {
  int64_t versionMajor = 2;
  int64_t versionMinor = 0;
  // [warps along M, warps along N], or [warps along the batch, M, N] for
  // batched (rank-3) tiles (version 2: batched dots; version 3: only
  // conversions, no wgmma computes them).
  std::vector<int64_t> warpsPerCTA;
  std::vector<int64_t> instrShape;
};

/// Checks an MMA spec: versionMajor 2 with instrShape [16,8], or 3 with
/// instrShape [16,N,K] (N a power-of-two multiple of 8 in 8..256, K a
/// positive power of two); warpsPerCTA of rank 2 or 3 with power-of-two
/// entries whose product is expectedNumWarps (not checked when expectedNumWarps <=
/// 0).  A v3 layout with fewer than 4 warps along M is a valid distribution
/// of values (Triton's layout tests convert such layouts), but no wgmma
/// computes it: ttg.warp_group_dot requires whole warpgroups along M.
std::optional<std::string> verifyMma(const MmaSpec &spec,
                                     int64_t expectedNumWarps);

/// The accumulator tile covered by all warps once:
/// v2 [16*wm, 8*wn] (batched: [wb, 16*wm, 8*wn]), v3 [16*wm, N*wn].
std::vector<int64_t> shapePerCTATile(const MmaSpec &spec);

/// The accumulator layout over an M x N tensor of `shape`.
///   v2: per warp a 16x8 tile; lane l holds rows l/4 and l/4+8, columns
///       2*(l%4) and +1; warps tile with N fastest.
///   v3: per warp a 16xN tile (the v2 pattern repeated along N); warps tile
///       with M fastest.
/// Repetitions of the CTA tile are register bases, N first, then M.
/// Batched (rank 3): each batch index holds the 2-D layout; batch
/// warps are the slowest warp bits, and batch repetitions follow all others.
LinearLayout mmaToLinear(const MmaSpec &spec,
                         const std::vector<int64_t> &shape);

/// Checks a dot-operand layout: opIdx 0 (A) or 1 (B), kWidth a power of two
/// in 1..16, a valid parent (see verifyMma, warp count not checked) of
/// version 2 or 3; with a version-3 parent only operand A lives in
/// registers.
std::optional<std::string> verifyDotOperand(const MmaSpec &parent, int opIdx,
                                            int64_t kWidth);

/// The register layout of operand `opIdx` (0: A, M x K; 1: B, K x N) of an
/// MMA with the given parent accumulator, where each thread holds kWidth
/// consecutive K elements per register group (fp16: kWidth 2, m16n8k16;
/// int8: kWidth 4, m16n8k32).  Warps follow the parent's warp grid; warps
/// along the dimension the operand does not have hold the same data.
/// Repetitions: K first, then M (A) or N (B); batched operands (rank 3)
/// repeat over the batch as the accumulator does.
LinearLayout dotOperandToLinear(const MmaSpec &parent, int opIdx,
                                int64_t kWidth,
                                const std::vector<int64_t> &shape);

/// How many mma.sync (version 2) instruction tiles each thread computes
/// over an M x N accumulator of `shape` with operands of `k` columns:
/// repetitions of the warp grid's tile along M, N and K.
struct MmaV2Repetitions {
  int64_t b = 1, m = 1, n = 1, k = 1; // b: batch (rank-3 dots)
};
MmaV2Repetitions mmaV2Repetitions(const MmaSpec &spec,
                                  const std::vector<int64_t> &shape,
                                  int64_t k, int64_t kWidth);

/// The register of the accumulator layout (mmaToLinear, version 2) holding
/// fragment element `i` (c0..c3) of instruction tile (mRep, nRep) of batch
/// repetition bRep.
int64_t mmaV2AccumulatorRegister(const MmaV2Repetitions &reps, int64_t mRep,
                                 int64_t nRep, int64_t i, int64_t bRep = 0);

/// The register of operand `opIdx` (dotOperandToLinear) holding fragment
/// element `i` (A: a0..a(4*kWidth-1), B: b0..b(2*kWidth-1), in the PTX
/// order) of the instruction tile at repetition `rep` along M (A) or N (B)
/// and `kRep` along K, of batch repetition bRep.
int64_t mmaV2OperandRegister(const MmaV2Repetitions &reps, int opIdx,
                             int64_t kWidth, int64_t rep, int64_t kRep,
                             int64_t i, int64_t bRep = 0);

} // namespace layout
} // namespace tritium

#endif // TRITIUM_LAYOUT_MMALAYOUT_H
