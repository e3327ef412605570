//===- LoweringAxisInfo.h - axis-info facts the lowering uses --*- C++ -*-===//
//
// What convert-ttg-to-llvm needs from the axis-info analysis, read for every
// op before the conversion rewrites the values the analysis works on:
//
// For each tt.load / tt.store on a tensor of pointers: how many consecutive
// elements, along the dimension in which a thread's registers are
// consecutive, are guaranteed to be contiguous in memory, aligned to their
// combined size, and under one mask value.  The lowering uses the largest
// power of two within this limit (and 16 bytes, and the layout's run of
// consecutive registers) as the width of each vector access.  The same
// limit is kept for tt.atomic_rmw, whose float adds are packed by it.
//
// Also, for each element-wise arith/math op on a tensor: which registers of
// a thread hold equal results (those in one aligned block on which the
// result is constant), so that the lowering computes each value once (e.g.
// a mask `offs < n` compares once per vector, not once per element, and a
// 2-D mask `(rows < M) & (cols < N)` with M, N multiples of 16 once per
// 16x16 block).
//
// The facts come from the module-wide axis-info analysis
// (include/tritium/Analysis/AxisInfo.h).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CONVERSION_TTGTOLLVM_LOWERINGAXISINFO_H
#define TRITIUM_CONVERSION_TTGTOLLVM_LOWERINGAXISINFO_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

namespace tritium {

class LoweringAxisInfo {
public:
  /// Analyses the memory and element-wise ops of `module` (before it is
  /// lowered).
  explicit LoweringAxisInfo(mlir::ModuleOp module);

  /// The most consecutive elements one access of `op` (a tt.load,
  /// tt.store or tt.atomic_rmw) may cover along the layout's
  /// register-contiguous dimension;
  /// 1 for ops that were not analysed (scalar accesses, say).
  int64_t getVectorLimit(mlir::Operation *op) const;

  /// For an element-wise op on a tensor: the register-index bits that do
  /// not change its result, i.e. register i holds the same value as
  /// register i & ~mask in every thread; 0 when nothing is known.
  uint64_t getEqualRegisterMask(mlir::Operation *op) const;

private:
  llvm::DenseMap<mlir::Operation *, int64_t> vectorLimits_;
  llvm::DenseMap<mlir::Operation *, uint64_t> equalRegisterMasks_;
};

} // namespace tritium

#endif // TRITIUM_CONVERSION_TTGTOLLVM_LOWERINGAXISINFO_H
