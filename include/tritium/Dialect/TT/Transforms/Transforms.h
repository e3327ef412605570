//===- Transforms.h - tt rewrites callable without a pass -------*- C++ -*-===//
//
// The functions behind the tt passes of Passes.td.  Each pass is a thin
// wrapper that calls one of these on its module; pipelines and tests may call
// them directly, e.g. to add the combine patterns to another pattern set.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_DIALECT_TT_TRANSFORMS_TRANSFORMS_H
#define TRITIUM_DIALECT_TT_TRANSFORMS_TRANSFORMS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
class ModuleOp;
class Operation;
class RewritePatternSet;
} // namespace mlir

namespace tritium::tt {

/// The discardable attribute of an scf.for that asks tt-loop-unroll to
/// unroll it: `tt.loop_unroll_factor = N : i32`.
inline constexpr llvm::StringLiteral kLoopUnrollFactorAttrName =
    "tt.loop_unroll_factor";

/// The discardable unit attribute of a tt.make_tensor_descriptor that
/// tt-rewrite-tensor-pointer made for a block pointer: the kernel's global
/// scratch for it comes from the runtime, not from triton.set_allocator.
inline constexpr llvm::StringLiteral kFromBlockPointerAttrName =
    "tt.from_block_pointer";

/// The unit argument attribute of a kernel argument that a block pointer
/// moved by TMA uses as a dimension or a stride: the launcher refuses a
/// negative value (the tensor map's fields are unsigned).
inline constexpr llvm::StringLiteral kNonNegativeArgAttrName = "tt.nonnegative";

/// The integer argument attribute of a kernel argument that a tensor map
/// made in the kernel takes as a stride: the launcher refuses a value that
/// is not a multiple of this many elements (the copy engine's 16 bytes), and
/// says why with the string attribute kMultipleAtLaunchWhyArgAttrName.
inline constexpr llvm::StringLiteral kMultipleAtLaunchArgAttrName =
    "tt.multiple_at_launch";
inline constexpr llvm::StringLiteral kMultipleAtLaunchWhyArgAttrName =
    "tt.multiple_at_launch_why";

/// tt-combine: dot accumulation, addptr chains, select of a masked load,
/// broadcast of a splat, and broadcast-multiply-reduce as tt.dot.
void populateCombinePatterns(mlir::RewritePatternSet &patterns);

/// tt-reorder-broadcast: element-wise ops move before the splats and
/// broadcasts of their operands; shape ops of splats become splats (see
/// populateSplatThroughShapeOpPatterns).
void populateReorderBroadcastPatterns(mlir::RewritePatternSet &patterns);

/// `tt.broadcast(tt.splat x)` and `tt.expand_dims(tt.splat x)` become one
/// `tt.splat x` of the final shape.  Shared by tt-combine and
/// tt-reorder-broadcast.
void populateSplatThroughShapeOpPatterns(mlir::RewritePatternSet &patterns);

/// tt-loop-unroll: unrolls every scf.for under `root` that carries
/// kLoopUnrollFactorAttrName by that factor and removes the attribute.
/// Fails (after emitting an error) only on a malformed attribute.
mlir::LogicalResult unrollAnnotatedLoops(mlir::Operation *root);

/// tt-split-loop-pointers: every scf.for under `root` that carries a tensor
/// of pointers made as `base + offsets` before it and advanced by one
/// loop-invariant step a turn carries the scalar base instead; the tensor
/// is rebuilt from the base and the offsets in the body and after the loop.
void splitLoopPointers(mlir::Operation *root);

/// tt-rewrite-tensor-pointer: replaces every block pointer in `module` with
/// tensors of pointers and masks, or, from `computeCapability` 90 on, with
/// tensor descriptors where the copy engine can move the tile (see the
/// pass's description).  Fails, with an error at the offending op, where a
/// block pointer is used in a way the rewrite does not support.
mlir::LogicalResult rewriteTensorPointers(mlir::ModuleOp module,
                                          unsigned computeCapability = 0);

} // namespace tritium::tt

#endif // TRITIUM_DIALECT_TT_TRANSFORMS_TRANSFORMS_H
