//===- LayoutIndices.h - which elements this thread holds -------*- C++ -*-===//
//
// Run-time and compile-time answers to "which tensor element is register r
// of this thread?" for a distributed layout, given as a LinearLayout:
// coordinates = L(reg) xor L(lane) xor L(warp), where the register part is a
// compile-time constant and the lane and warp parts are computed once from
// the thread id.  Also: which registers and threads hold duplicates, and how
// many consecutive registers hold consecutive elements (for vector memory
// accesses).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CONVERSION_TTGTOLLVM_LAYOUTINDICES_H
#define TRITIUM_CONVERSION_TTGTOLLVM_LAYOUTINDICES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "tritium/Layout/LinearLayout.h"
#include "llvm/ADT/SmallVector.h"

namespace tritium {

/// The lane and warp of the executing thread, as i32 values.
struct ThreadIndex {
  mlir::Value lane;
  mlir::Value warp;
};

/// An i32 constant.
mlir::Value emitI32Constant(mlir::OpBuilder &builder, mlir::Location loc,
                            int64_t value);

/// The bits `bits` (positions, in order) of the i32 `value` packed into a
/// dense index, bits[0] becoming bit 0: e.g. a warp's position among the
/// warps whose warp-id bits `bits` move along an axis.
mlir::Value emitPackedBits(mlir::OpBuilder &builder, mlir::Location loc,
                           mlir::Value value, llvm::ArrayRef<int> bits);

/// Emits lane = tid % threadsPerWarp and warp = tid / threadsPerWarp from
/// the thread id (tid.x, known to be below threadsPerWarp * numWarps).
ThreadIndex emitThreadIndex(mlir::OpBuilder &builder, mlir::Location loc,
                            int threadsPerWarp, int numWarps);

/// The same, with the warp and lane counts of `module` (ttg.num-warps,
/// ttg.threads-per-warp).
ThreadIndex emitThreadIndex(mlir::OpBuilder &builder, mlir::Location loc,
                            mlir::ModuleOp module);

/// The linear layout of a tensor type with a distributed layout.
layout::LinearLayout getLinearLayout(mlir::RankedTensorType type);

/// Emits, for every register of `layout`, its tensor coordinates as i32
/// values: result[reg][dim].  Lane and warp bits enter through masks and
/// shifts (one `and` + `shl`/`lshr` per group of bits that move by the same
/// amount), the register part is a constant xor-ed in.
llvm::SmallVector<llvm::SmallVector<mlir::Value>>
emitIndices(mlir::OpBuilder &builder, mlir::Location loc,
            const layout::LinearLayout &layout, ThreadIndex thread);

/// The row-major linear index (i32) of `coords` in a tensor of `shape`:
/// sum_d coords[d] * prod_{e>d} shape[e].
mlir::Value emitRowMajorOffset(mlir::OpBuilder &builder, mlir::Location loc,
                               mlir::ValueRange coords,
                               llvm::ArrayRef<int64_t> shape);

/// An i1 value that is true in exactly one of the threads holding each
/// element (the one whose lane and warp bits on zero bases are 0), or null
/// when no two threads hold the same element.  Stores and atomics run only
/// there.
mlir::Value emitUniqueThreadPredicate(mlir::OpBuilder &builder,
                                      mlir::Location loc,
                                      const layout::LinearLayout &layout,
                                      ThreadIndex thread);

/// For each register, the first register holding the same element (itself
/// for registers that are not duplicates).
llvm::SmallVector<int64_t>
getRepresentativeRegisters(const layout::LinearLayout &layout);

/// The largest power of two n such that registers [k*n, (k+1)*n) hold n
/// consecutive elements along `dim`, starting at a multiple of n, for every
/// k and in every thread.
int64_t getContiguousRegisters(const layout::LinearLayout &layout, int dim);

/// The dimension along which register 0 and register 1 are neighbours (the
/// fastest-varying dimension of the thread's own elements), or -1.
int getRegisterFastestDim(const layout::LinearLayout &layout);

} // namespace tritium

#endif // TRITIUM_CONVERSION_TTGTOLLVM_LAYOUTINDICES_H
