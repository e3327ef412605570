//===- LayoutRoles.h - how ops constrain the layouts around them -*- C++ -*-===//
//
// Private to lib/Dialect/TTG/Transforms: the classification that
// ttg-remove-layout-conversions uses to decide which layouts it may change.
// An op either fixes the layouts of its operands and results (loads, stores,
// dots, anything not modelled) or only relates them (element-wise ops need
// one layout for all, expand_dims needs a slice, ...), in which case the
// pass may pick them.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_LIB_DIALECT_TTG_TRANSFORMS_LAYOUTROLES_H
#define TRITIUM_LIB_DIALECT_TTG_TRANSFORMS_LAYOUTROLES_H

#include "mlir/IR/Operation.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

namespace tritium::ttg::detail {

enum class LayoutRole {
  /// Operands and results keep their layouts (the op anchors them).
  Fixed,
  /// All tensor operands and results share one layout: element-wise ops,
  /// tt.broadcast, tt.scan, loads and stores of fewer elements than threads,
  /// tt.assert and tt.print of one tensor.
  SameLayout,
  /// ttg.convert_layout: operand and result may take any layouts.
  Convert,
  /// The result may take any layout and has no tensor operands:
  /// tt.splat, tt.make_range, dense arith.constant.
  Producer,
  /// tt.expand_dims: operand = slice of the result's layout at the axis.
  ExpandDims,
  /// tt.trans: the result's layout is the operand's with its dimensions
  /// permuted (getTransposed), so the same threads hold the same elements.
  Trans,
  /// tt.reshape without allow_reorder: the result's layout holds each
  /// row-major index where the operand's does (getReshaped).
  Reshape,
  /// tt.reduce: operands share a layout; tensor results are its slice at
  /// the axis.
  Reduce,
  /// scf.for: init, iteration argument, yielded value and result of each
  /// carried tensor share a layout.
  For,
  /// scf.if: each result shares a layout with what both branches yield.
  If,
  /// scf.while: init, `before` argument and the value the `after` region
  /// yields for it share a layout; so do the values scf.condition forwards,
  /// the `after` arguments and the results.
  While,
  /// scf.condition of an scf.while (see While).
  Condition,
  /// scf.yield of an scf.for, scf.if or scf.while (see For, If, While).
  Yield,
};

/// The role of `op`.
LayoutRole getLayoutRole(mlir::Operation *op);

/// The distributed layout of `value`'s type, or null (scalars, tensors
/// without a layout or with a shared-memory one).
DistributedEncodingAttr getLayoutOf(mlir::Value value);

/// The slice of `parent` at `dim`.
SliceEncodingAttr getSlice(mlir::Attribute parent, unsigned dim);

/// The layout of tt.trans's result (its dimension i is the source's
/// dimension order[i]) when the source, of shape `srcShape`, has `layout`: a
/// blocked layout with its parameters permuted, else a #ttg.linear layout
/// with permuted bases.  Null if `layout` is not distributed.
DistributedEncodingAttr getTransposed(mlir::Attribute layout,
                                      llvm::ArrayRef<int64_t> srcShape,
                                      llvm::ArrayRef<int32_t> order);

/// The layout of a row-major tt.reshape's result (shape `dstShape`) whose
/// source (shape `srcShape`) has `layout`: a #ttg.linear layout whose bases
/// are the source's, each read as a row-major index and written back in
/// the result's shape (with power-of-two sizes, a relabelling of index
/// bits).  Null if `layout` is not distributed.
DistributedEncodingAttr getReshaped(mlir::Attribute layout,
                                    llvm::ArrayRef<int64_t> srcShape,
                                    llvm::ArrayRef<int64_t> dstShape);

/// `layout`'s parent if it is a slice at `dim`, else null.
mlir::Attribute getSliceParent(mlir::Attribute layout, unsigned dim);

} // namespace tritium::ttg::detail

#endif // TRITIUM_LIB_DIALECT_TTG_TRANSFORMS_LAYOUTROLES_H
