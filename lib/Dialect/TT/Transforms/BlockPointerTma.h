//===- BlockPointerTma.h - which block pointers the copy engine moves -----===//
//
// On Hopper, tt-rewrite-tensor-pointer sends some block-pointer loads and
// stores through the tensor memory accelerator instead of tensors of
// pointers: each block pointer made at the top of a kernel whose tile the
// copy engine can move gets a tensor descriptor made next to it
// (tt.make_tensor_descriptor, a tensor map the program encodes in global
// scratch), and its loads that feed a tt.dot, and its stores of values
// computed from one, become tt.descriptor_load / tt.descriptor_store at the
// block pointer's offsets.  This file decides which; the rewrite builds.
//
// The rules, each of which keeps the pointer lowering where it fails:
//   - compute capability 9.0 or later;
//   - a public function (a kernel), with tt.make_tensor_ptr directly in its
//     body (a map made inside a loop or branch would be encoded again on
//     every pass);
//   - a tile of power-of-two dimensions of 8-64-bit elements whose
//     descriptor block (the tile's dimensions from slowest to fastest by
//     `order`) layout::whyNotTmaTile accepts;
//   - every dimension of the tensor an i32 value widened or a positive
//     constant that fits in 32 bits (a descriptor's shape is i32);
//   - the stride of the fastest dimension the constant 1, and the base and
//     the other strides proven multiples of 16 bytes by the axis
//     information (the copy engine faults otherwise; block pointers never
//     ask for a run-time alignment check), none a negative constant;
//   - every block pointer a load or store reaches traces back to that one
//     tt.make_tensor_ptr through tt.advance, scf.for and scf.if (a value
//     that may come from two of them keeps the pointer lowering);
//   - loads: feeding a tt.dot, in an scf.for with a constant positive
//     step (streamed through a ring, or at one stage issued ahead of its
//     wait with the block's other copies), not volatile, no NaN padding on
//     a checked dimension (the map fills zeros), and no write to global
//     memory that may come before (in program order, or anywhere in a loop
//     around the load; a volatile load declares a write).  A tile loaded
//     once, outside loops, stays on pointers: the map its program makes
//     costs more than its one copy saves;
//   - stores: of a value computed from a tt.dot, in no loop, with no
//     access to global memory that may come after, and no write, nor a
//     read the stored value does not depend on, before.
// The copy engine's accesses are not ordered with the threads' own (a TMA
// store is waited for only until it has read shared memory), so a pointer
// access to the same memory on the wrong side would see or leave stale
// data.  A map's dimensions and strides are unsigned: the rewrite has the
// launcher refuse negative kernel arguments used as one (tt.nonnegative)
// and checks other run-time values in the kernel (tt.assert), where the
// pointer lowering would have followed them.
// Elements outside the tensor read as zero and are not written, on every
// dimension: for the dimensions a load or store does not list in
// boundaryCheck, where Triton leaves such accesses undefined, that is one of
// the outcomes it allows.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_LIB_DIALECT_TT_TRANSFORMS_BLOCKPOINTERTMA_H
#define TRITIUM_LIB_DIALECT_TT_TRANSFORMS_BLOCKPOINTERTMA_H

#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TT/Transforms/Transforms.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace tritium::tt {

/// The decisions for one function, taken on its IR before the rewrite.
class BlockPointerTmaPlan {
public:
  /// Analyses `func` (the whole module is given to the axis information).
  BlockPointerTmaPlan(mlir::ModuleOp module, FuncOp func,
                      unsigned computeCapability);

  /// The tt.make_tensor_ptr every value of block pointer `ptr` comes from,
  /// if it is one op the copy engine can serve; null otherwise.
  MakeTensorPtrOp tmaOrigin(mlir::Value ptr) const;

  /// Whether `access`, a tt.load or tt.store through a block pointer of the
  /// analysed IR, should go through the copy engine.
  bool useTma(mlir::Operation *access) const;

  /// The descriptor's dimensions as tile dimensions, slowest first: the
  /// reverse of `order`.
  static llvm::SmallVector<int32_t> descriptorDims(MakeTensorPtrOp make);

private:
  /// Block pointer value -> its tt.make_tensor_ptr (null: more than one).
  llvm::DenseMap<mlir::Value, mlir::Operation *> origins;
  /// The tt.make_tensor_ptr ops whose tile and tensor the copy engine takes.
  llvm::SmallPtrSet<mlir::Operation *, 4> eligible;
  /// The loads and stores that go through the copy engine.
  llvm::SmallPtrSet<mlir::Operation *, 8> tmaAccesses;
};

} // namespace tritium::tt

#endif // TRITIUM_LIB_DIALECT_TT_TRANSFORMS_BLOCKPOINTERTMA_H
