//===- WarpShuffle.h - warp shuffles of any scalar ------------*- C++ -*-===//
//
// shfl.sync moves 32 bits.  These wrappers move any lowered scalar (i1 to
// i64, f16/bf16/f32/f64, pointers): narrower values are widened to i32 and
// back, 64-bit values move as two halves.  Reductions use the butterfly
// (Xor), scans Up, layout conversions inside a warp Idx.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CONVERSION_TTGTOLLVM_WARPSHUFFLE_H
#define TRITIUM_CONVERSION_TTGTOLLVM_WARPSHUFFLE_H

#include "mlir/IR/Builders.h"
#include "tritium/Conversion/TTGToLLVM/NVVMHelpers.h"

namespace tritium {

/// `value` as read from the lane that `mode` and `operand` (an i32 value)
/// select, with the type of `value`.
mlir::Value shuffleValue(mlir::OpBuilder &builder, mlir::Location loc,
                         nvvm::ShuffleMode mode, mlir::Value value,
                         mlir::Value operand);

/// The same with a constant lane, delta or mask.
mlir::Value shuffleValue(mlir::OpBuilder &builder, mlir::Location loc,
                         nvvm::ShuffleMode mode, mlir::Value value,
                         int32_t operand);

} // namespace tritium

#endif // TRITIUM_CONVERSION_TTGTOLLVM_WARPSHUFFLE_H
