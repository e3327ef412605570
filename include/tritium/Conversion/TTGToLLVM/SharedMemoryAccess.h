//===- SharedMemoryAccess.h - tiles in shared memory ------------*- C++ -*-===//
//
// Moving a thread's elements of a distributed tensor to and from a tile in
// shared memory.  The tile is row-major over the tensor's shape (the last
// dimension is contiguous), optionally with padding after each row (a
// layout::PaddedTile) or with the XOR swizzle of a layout::ScratchTile;
// each element goes to the offset of its coordinates,
// so any layout can write it and any other layout read it.  Consecutive
// registers that are consecutive along the last dimension move as one
// vector of up to 16 bytes (or of a narrower width the caller picks).
// Callers add the barriers.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CONVERSION_TTGTOLLVM_SHAREDMEMORYACCESS_H
#define TRITIUM_CONVERSION_TTGTOLLVM_SHAREDMEMORYACCESS_H

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>
#include "tritium/Conversion/TTGToLLVM/LayoutIndices.h"
#include "tritium/Layout/BankConflicts.h"

namespace tritium {

/// The buffer ttg-allocate-shared-memory assigned to `op`: the shared memory
/// base plus the op's `allocation.offset`.  Emits an error at `op` and
/// returns null when the op has no offset.
mlir::Value getBufferPointer(mlir::OpBuilder &builder, mlir::Operation *op);

/// Where a tile lies and how it is accessed: `pad` elements after every row
/// of the last dimension, and `vec` registers per vector access (0: the
/// widest the layout allows; otherwise a power of two dividing it, and
/// dividing `pad`, so vectors stay aligned).  With a `swizzle` (chunk > 0,
/// pad 0), each row's chunks are permuted as layout::ScratchTile describes;
/// vec must then be at most the chunk.
struct TileAccess {
  int64_t pad = 0;
  int64_t vec = 0;
  layout::TileSwizzle swizzle = {};
};

/// Stores `values`, the registers of `layout` in this thread (converted
/// element types), into the tile at `base` as elements of `memoryType`
/// (i1 is stored as i8).  Registers that duplicate an earlier one are not
/// stored twice.  With `predicate`, only threads where it holds store.
void storeTile(mlir::OpBuilder &builder, mlir::Location loc, mlir::Value base,
               llvm::ArrayRef<mlir::Value> values,
               const layout::LinearLayout &layout, ThreadIndex thread,
               mlir::Type memoryType, mlir::Value predicate = {},
               TileAccess access = {});

/// Loads the registers of `layout` in this thread from the tile at `base`,
/// as values of `registerType`, with the same `access` the tile was stored
/// with (the vector width may differ).
llvm::SmallVector<mlir::Value>
loadTile(mlir::OpBuilder &builder, mlir::Location loc, mlir::Value base,
         const layout::LinearLayout &layout, ThreadIndex thread,
         mlir::Type memoryType, mlir::Type registerType,
         TileAccess access = {});

/// The element offset of a tensor coordinate in a shared tile whose
/// offsets are XOR-linear in the coordinate bits (the offset of a
/// coordinate is the XOR of the offsets of its single-bit parts), such as
/// #ttg.nvmma_shared and #ttg.swizzled_shared tiles of power-of-two shape.
using XorLinearOffset = std::function<int64_t(const std::vector<int64_t> &)>;

/// The XOR-linear offset function of a shared layout (#ttg.nvmma_shared or
/// #ttg.swizzled_shared) over `shape`, or null for layouts that are not.
XorLinearOffset getSharedTileOffset(mlir::Attribute encoding,
                                    llvm::ArrayRef<int64_t> shape);

/// The pointers of one thread's registers into an XOR-linear tile:
/// offset(reg, lane, warp) = R[reg] ^ T(lane, warp) with R a constant per
/// register and T computed once; R ^ T = (T ^ (R & B)) + (R & ~B) with B
/// the bits T may have, so registers share one XOR per distinct R & B and
/// the rest folds into the access's immediate offset.
///
/// With an `origin`, `layout` covers a sub-tile of the tile `offset`
/// describes, whose element x is the tile's element origin + x.  The origin
/// must be aligned (subTileOriginIsAligned): then origin + x = origin | x,
/// whose offset is offset(origin | reg's part) ^ T, and R takes the origin.
class XorLinearTilePointers {
public:
  XorLinearTilePointers(mlir::OpBuilder &builder, mlir::Location loc,
                        mlir::Value base, const layout::LinearLayout &layout,
                        ThreadIndex thread, mlir::Type memoryType,
                        const XorLinearOffset &offset,
                        llvm::ArrayRef<int64_t> origin = {});
  /// The most registers (a power of two, at most `maxElements`) that lie at
  /// consecutive, aligned offsets in every thread (layout::vectorWidth).
  int64_t vectorWidth(int64_t maxElements) const;
  /// `registers` grouped by the vector access they can share
  /// (layout::groupsByOffset).
  llvm::SmallVector<llvm::SmallVector<int64_t, 4>>
  groupsByOffset(llvm::ArrayRef<int64_t> registers, int64_t maxElements) const;
  /// The pointer to register `reg`'s element.
  mlir::Value pointer(int64_t reg);

private:
  mlir::OpBuilder &builder;
  mlir::Location loc;
  mlir::Value base;
  mlir::Type memoryType;
  std::vector<int64_t> registerOffsets;
  int64_t threadBits = 0;
  mlir::Value threadOffset;
  llvm::DenseMap<int64_t, mlir::Value> pointersByOverlap;
};

/// Stores `values`, the registers of `layout` in this thread, into the tile
/// at `base` laid out by `offset`, as elements of `memoryType`.  Registers
/// whose offsets are consecutive and aligned move as one vector of up to 16
/// bytes; duplicate registers are stored once.
void storeXorLinearTile(mlir::OpBuilder &builder, mlir::Location loc,
                        mlir::Value base, llvm::ArrayRef<mlir::Value> values,
                        const layout::LinearLayout &layout, ThreadIndex thread,
                        mlir::Type memoryType, const XorLinearOffset &offset);

/// Loads the registers of `layout` in this thread from the tile at `base`
/// laid out by `offset` (the inverse of storeXorLinearTile), as values of
/// `registerType`; with an `origin`, from the sub-tile there (as
/// XorLinearTilePointers takes it).
llvm::SmallVector<mlir::Value>
loadXorLinearTile(mlir::OpBuilder &builder, mlir::Location loc,
                  mlir::Value base, const layout::LinearLayout &layout,
                  ThreadIndex thread, mlir::Type memoryType,
                  mlir::Type registerType, const XorLinearOffset &offset,
                  llvm::ArrayRef<int64_t> origin = {});

/// Whether a sub-tile of `shape` at `origin` is read correctly through its
/// tile's XOR-linear offsets: in every dimension the origin is a multiple
/// of the sub-tile's extent rounded up to a power of two, so that origin +
/// x = origin | x for every coordinate x of the sub-tile.
bool subTileOriginIsAligned(llvm::ArrayRef<int64_t> shape,
                            llvm::ArrayRef<int64_t> origin);

} // namespace tritium

#endif // TRITIUM_CONVERSION_TTGTOLLVM_SHAREDMEMORYACCESS_H
