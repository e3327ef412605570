//===- LdMatrix.h - tensor-core register operands from smem -----*- C++ -*-===//
//
// ldmatrix loads the register fragments of mma.sync's 16-bit operands (and
// of tf32 ones stored contiguous along K) from a shared tile in one
// instruction per four (A) or two (B) 8x8 matrices of b16, transposing on
// the way (.trans) when a 16-bit tile is contiguous along M or N rather
// than along K.  wgmma's A in registers is made of the same A fragments.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CONVERSION_TTGTOLLVM_LDMATRIX_H
#define TRITIUM_CONVERSION_TTGTOLLVM_LDMATRIX_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "tritium/Conversion/TTGToLLVM/LayoutIndices.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace tritium {

/// The registers of `dstType` (a #ttg.dot_op of an mma v2 layout, or A of
/// an mma v3 one: kWidth 2 with 16-bit elements, or kWidth 1 with 32-bit
/// ones from a tile contiguous along K) loaded with ldmatrix from the
/// #ttg.nvmma_shared tile
/// `srcType` at `base`, or from its sub-tile of dstType's shape at
/// `offsets` (a K slice: zero along M or N, a multiple of one instruction's
/// K along K); nothing when the types are not of that kind.
std::optional<llvm::SmallVector<mlir::Value>>
loadDotOperandWithLdMatrix(mlir::OpBuilder &builder, mlir::Location loc,
                           mlir::Value base, ttg::MemDescType srcType,
                           mlir::RankedTensorType dstType, ThreadIndex thread,
                           mlir::Type elementType,
                           llvm::ArrayRef<int64_t> offsets = {});

} // namespace tritium

#endif // TRITIUM_CONVERSION_TTGTOLLVM_LDMATRIX_H
