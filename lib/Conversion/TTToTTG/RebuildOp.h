//===- RebuildOp.h - helpers of the layout-aware conversion patterns -*- C++ -*-===//
//
// Private to lib/Conversion/TTToTTG: the two steps every pattern that picks
// a non-default layout takes, bringing an operand into the layout the op
// needs and rebuilding the op with new operands and result types.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_LIB_CONVERSION_TTTOTTG_REBUILDOP_H
#define TRITIUM_LIB_CONVERSION_TTTOTTG_REBUILDOP_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

namespace tritium::detail {

/// `value` in tensor type `type`: itself if it already has it, the source of
/// the layout change the driver just inserted if that source has it, and
/// otherwise a new ttg.convert_layout.
inline mlir::Value convertToType(mlir::OpBuilder &builder, mlir::Location loc,
                                 mlir::Value value, mlir::RankedTensorType type) {
  if (value.getType() == type)
    return value;
  mlir::Operation *def = value.getDefiningOp();
  if (def && def->getNumOperands() == 1 &&
      mlir::isa<ttg::ConvertLayoutOp, mlir::UnrealizedConversionCastOp>(def) &&
      def->getOperand(0).getType() == type)
    return def->getOperand(0);
  return ttg::ConvertLayoutOp::create(builder, loc, type, value);
}

/// A copy of `op` (same name and attributes) with `operands` and
/// `resultTypes`, its regions moved over, replacing `op`.
inline mlir::Operation *rebuildOp(mlir::RewriterBase &rewriter,
                                  mlir::Operation *op, mlir::ValueRange operands,
                                  mlir::TypeRange resultTypes) {
  mlir::OperationState state(op->getLoc(), op->getName(), operands,
                             resultTypes, op->getAttrs());
  for (unsigned i = 0; i < op->getNumRegions(); ++i)
    state.addRegion();
  mlir::Operation *rebuilt = rewriter.create(state);
  for (auto [from, to] : llvm::zip(op->getRegions(), rebuilt->getRegions()))
    rewriter.inlineRegionBefore(from, to, to.end());
  rewriter.replaceOp(op, rebuilt->getResults());
  return rebuilt;
}

} // namespace tritium::detail

#endif // TRITIUM_LIB_CONVERSION_TTTOTTG_REBUILDOP_H
