//===- SharedMemoryAccess.h - tiles in shared memory ------------*- C++ -*-===//
//
// Moving a thread's elements of a distributed tensor to and from a tile in
// shared memory.  The tile is row-major over the tensor's shape (the last
// dimension is contiguous); each element goes to the offset of its
// coordinates, so any layout can write it and any other layout read it.
// Consecutive registers that are consecutive along the last dimension move
// as one vector of up to 16 bytes.  Callers add the barriers.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CONVERSION_TTGTOLLVM_SHAREDMEMORYACCESS_H
#define TRITIUM_CONVERSION_TTGTOLLVM_SHAREDMEMORYACCESS_H

#include "mlir/IR/Builders.h"
#include "tritium/Conversion/TTGToLLVM/LayoutIndices.h"

namespace tritium {

/// The buffer allocate-shared-memory assigned to `op`: the shared memory
/// base plus the op's `allocation.offset`.  Emits an error at `op` and
/// returns null when the op has no offset.
mlir::Value getBufferPointer(mlir::OpBuilder &builder, mlir::Operation *op);

/// Stores `values`, the registers of `layout` in this thread (converted
/// element types), into the tile at `base` as elements of `memoryType`
/// (i1 is stored as i8).  Registers that duplicate an earlier one are not
/// stored twice.  With `predicate`, only threads where it holds store.
void storeTile(mlir::OpBuilder &builder, mlir::Location loc, mlir::Value base,
               llvm::ArrayRef<mlir::Value> values,
               const layout::LinearLayout &layout, ThreadIndex thread,
               mlir::Type memoryType, mlir::Value predicate = {});

/// Loads the registers of `layout` in this thread from the tile at `base`,
/// as values of `registerType`.
llvm::SmallVector<mlir::Value>
loadTile(mlir::OpBuilder &builder, mlir::Location loc, mlir::Value base,
         const layout::LinearLayout &layout, ThreadIndex thread,
         mlir::Type memoryType, mlir::Type registerType);

} // namespace tritium

#endif // TRITIUM_CONVERSION_TTGTOLLVM_SHAREDMEMORYACCESS_H
