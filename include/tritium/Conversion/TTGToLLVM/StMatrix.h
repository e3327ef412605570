//===- StMatrix.h - 16-bit tiles into shared memory with stmatrix -*- C++ -*-===//
//
// stmatrix (sm_90) stores four 8x8 matrices of 16-bit elements per warp
// instruction, where plain stores move one 32-bit pair per lane: the
// epilogue of a tensor-core tile (its accumulator, truncated to f16 or
// bf16, written to the #ttg.nvmma_shared tile a TMA store reads) takes a
// quarter of the instructions.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CONVERSION_TTGTOLLVM_STMATRIX_H
#define TRITIUM_CONVERSION_TTGTOLLVM_STMATRIX_H

#include "mlir/IR/Builders.h"
#include "tritium/Conversion/TTGToLLVM/LayoutIndices.h"
#include "tritium/Conversion/TTGToLLVM/SharedMemoryAccess.h"

namespace tritium {

/// Stores `values`, this thread's registers of `layout` (16-bit elements of
/// `memoryType`), into the XOR-linear tile at `base` with stmatrix, when
/// the layout holds the tile as stmatrix's fragments do
/// (layout::planStMatrix).  Returns false, emitting nothing, when it does
/// not (the caller stores element by element).
bool storeXorLinearTileWithStMatrix(mlir::OpBuilder &builder,
                                    mlir::Location loc, mlir::Value base,
                                    llvm::ArrayRef<mlir::Value> values,
                                    const layout::LinearLayout &layout,
                                    ThreadIndex thread, mlir::Type memoryType,
                                    const XorLinearOffset &offset);

} // namespace tritium

#endif // TRITIUM_CONVERSION_TTGTOLLVM_STMATRIX_H
