//===- BlockedLayoutRules.h - choosing blocked layouts ----------*- C++ -*-===//
//
// The rules that pick a blocked layout for a tensor, in plain C++ over
// tritium::layout::BlockedSpec so that gtest checks them without MLIR:
//
//   * fitBlockedLayout: given how many elements each thread holds per
//     dimension and the dimension order, spread the lanes of a warp and the
//     warps of a CTA over the tensor, fastest dimension first;
//   * defaultBlockedLayout: the layout convert-tt-to-ttg gives every tensor
//     (one element per thread, row-major);
//   * dotBlockedLayout: the layout it gives a dot's accumulator (a square
//     block of elements per thread, for the CUDA-core dot);
//   * coalescedSizePerThread: how many consecutive elements ttg-coalesce
//     lets one thread access (one 128-bit vector at most);
//   * permuteBlockedLayout / joinBlockedLayout / catBlockedLayout: the
//     layouts tt.trans, tt.join and tt.cat produce without moving data.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_DIALECT_TTG_TRANSFORMS_BLOCKEDLAYOUTRULES_H
#define TRITIUM_DIALECT_TTG_TRANSFORMS_BLOCKEDLAYOUTRULES_H

#include "tritium/Layout/BlockedLayout.h"

#include <cstdint>
#include <vector>

namespace tritium::ttg {

/// The blocked layout of a tensor of `shape` with the given `sizePerThread`
/// and `order` (fastest dimension first) over `numWarps` warps of
/// `threadsPerWarp` lanes.  Walking `order` from the fastest dimension, each
/// dimension but the slowest takes as many threads as it has blocks of
/// sizePerThread (at most the threads still unassigned): lanes first, then
/// warps.  The slowest dimension takes the lanes and warps left over, so the
/// products always equal `threadsPerWarp` and `numWarps`; where the tensor
/// is smaller than the CTA tile the layout wraps around it (several threads
/// hold the same element).  All arguments are powers of two.
layout::BlockedSpec fitBlockedLayout(const std::vector<int64_t> &shape,
                                     const std::vector<int64_t> &sizePerThread,
                                     const std::vector<int64_t> &order,
                                     int64_t numWarps, int64_t threadsPerWarp);

/// The layout every tensor gets when Triton IR becomes TritonGPU IR:
/// sizePerThread all 1, order [rank-1, ..., 0] (row-major), threads fitted
/// by fitBlockedLayout.
layout::BlockedSpec defaultBlockedLayout(const std::vector<int64_t> &shape,
                                         int64_t numWarps,
                                         int64_t threadsPerWarp);

/// The layout convert-tt-to-ttg gives a dot's accumulator and result (and,
/// through #ttg.dot_op, its operands): row-major, with a square block of
/// elements per thread in the two matrix dimensions, 2x2 when the tensor has
/// at least 4 elements per thread and 4x4 from 16 (each capped at the
/// dimension's size), threads fitted by fitBlockedLayout.  A CUDA-core dot
/// computes in this layout: a thread's a x b block reads a rows of A and b
/// columns of B per step of K, where one element per thread would read a
/// whole column of A.  Triton's rule for tt.dot.
layout::BlockedSpec dotBlockedLayout(const std::vector<int64_t> &shape,
                                     int64_t numWarps, int64_t threadsPerWarp);

/// The number of consecutive elements along the access's fastest dimension
/// one thread handles in a coalesced load or store:
///   min(alignment, contiguity, 128 / elementBits),
/// where `alignment` is the pointers' alignment in elements and `contiguity`
/// the length of their runs, further capped at numElements / numThreads (at
/// least 1) so that small tensors still use every thread, and rounded down
/// to a power of two.
int64_t coalescedSizePerThread(int64_t alignment, int64_t contiguity,
                               int64_t elementBits, int64_t numElements,
                               int64_t numThreads);

/// The layout of `tt.trans` with `permutation` (result dimension i is source
/// dimension permutation[i]) applied to a tensor in `source`: the same
/// threads hold the same elements, only the dimensions are renamed.
layout::BlockedSpec permuteBlockedLayout(const layout::BlockedSpec &source,
                                         const std::vector<int64_t> &permutation);

/// The layout of `tt.join` of two tensors in `source`: a new last dimension
/// of size 2, held inside each thread (sizePerThread 2, fastest in order), so
/// joining moves no data between threads.
layout::BlockedSpec joinBlockedLayout(const layout::BlockedSpec &source);

/// The layout of `tt.cat` of two tensors in `source` (the result is twice as
/// long in dimension 0): sizePerThread doubled in dimension 0, so that each
/// thread holds exactly the registers of both operands, whatever their size
/// (also when the operands have fewer elements than the CTA has threads and
/// are replicated).  tt.cat may reorder elements, so the lowering only
/// concatenates each thread's registers.
layout::BlockedSpec catBlockedLayout(const layout::BlockedSpec &source);

} // namespace tritium::ttg

#endif // TRITIUM_DIALECT_TTG_TRANSFORMS_BLOCKEDLAYOUTRULES_H
