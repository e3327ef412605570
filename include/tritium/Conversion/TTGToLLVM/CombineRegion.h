//===- CombineRegion.h - inlining tt.reduce / tt.scan combiners -*- C++ -*-===//
//
// tt.reduce and tt.scan carry their combine function as a region of one
// block: arguments (acc_0..acc_{n-1}, cur_0..cur_{n-1}) for n operands, and a
// terminator returning the n combined values.  The lowerings apply it to
// lowered scalars many times; each application clones the block's ops.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CONVERSION_TTGTOLLVM_COMBINEREGION_H
#define TRITIUM_CONVERSION_TTGTOLLVM_COMBINEREGION_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Region.h"

namespace tritium {

/// Clones the ops of `combine` at the builder's insertion point with its
/// arguments bound to `lhs` then `rhs` (lowered scalars, one per operand),
/// and returns the values its terminator returns, typed like `lhs`.  Where
/// a lowered type differs from the region's (pointers), an
/// unrealized_conversion_cast bridges them, which the dialect conversion
/// resolves.
llvm::SmallVector<mlir::Value> emitCombine(mlir::OpBuilder &builder,
                                           mlir::Location loc,
                                           mlir::Region &combine,
                                           mlir::ValueRange lhs,
                                           mlir::ValueRange rhs);

} // namespace tritium

#endif // TRITIUM_CONVERSION_TTGTOLLVM_COMBINEREGION_H
