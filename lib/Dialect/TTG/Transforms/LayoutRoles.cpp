//===- LayoutRoles.cpp - how ops constrain the layouts around them ---------===//
//
// Classifies ops for ttg-remove-layout-conversions (see LayoutRoles.h).  An
// op is only trusted to accept any layout when its lowering really is
// layout-agnostic: pure element-wise ops (inline assembly excepted, since it
// packs neighbouring elements), the shape ops whose layout rules are simple
// (broadcast, expand_dims), reductions and scans, producers of uniform or
// index values, and structured control flow that merely carries values.
//
//===----------------------------------------------------------------------===//
#include "LayoutRoles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;
using namespace tritium::ttg::detail;

namespace {
/// Element-wise ops whose lowering handles each element on its own.
bool isElementwise(Operation *op) {
  if (op->getNumRegions() != 0 || op->getNumResults() == 0 ||
      isa<tt::ElementwiseInlineAsmOp>(op))
    return false;
  bool elementwise =
      op->hasTrait<OpTrait::Elementwise>() ||
      isa<tt::AddPtrOp, tt::IntToPtrOp, tt::PtrToIntOp, tt::BitcastOp,
          tt::FpToFpOp, tt::ClampOp, tt::PreciseSqrtOp, tt::PreciseDivFOp,
          tt::MulhiUIOp>(op);
  return elementwise && isMemoryEffectFree(op);
}
} // namespace

LayoutRole ttg::detail::getLayoutRole(Operation *op) {
  if (isa<ConvertLayoutOp>(op))
    return LayoutRole::Convert;
  if (isa<tt::SplatOp, tt::MakeRangeOp>(op))
    return LayoutRole::Producer;
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return isa<DenseElementsAttr>(constant.getValue()) ? LayoutRole::Producer
                                                       : LayoutRole::Fixed;
  if (isa<tt::BroadcastOp, tt::ScanOp>(op))
    return LayoutRole::SameLayout;
  if (isa<tt::ExpandDimsOp>(op))
    return LayoutRole::ExpandDims;
  if (isa<tt::ReduceOp>(op))
    return LayoutRole::Reduce;
  if (isa<scf::ForOp>(op))
    return LayoutRole::For;
  if (isa<scf::IfOp>(op))
    return LayoutRole::If;
  if (isa<scf::WhileOp>(op))
    return LayoutRole::While;
  if (isa<scf::ConditionOp>(op))
    return LayoutRole::Condition;
  if (isa<scf::YieldOp>(op) &&
      isa<scf::ForOp, scf::IfOp, scf::WhileOp>(op->getParentOp()))
    return LayoutRole::Yield;
  if (isElementwise(op))
    return LayoutRole::SameLayout;
  return LayoutRole::Fixed;
}

DistributedEncodingAttr ttg::detail::getLayoutOf(Value value) {
  return getDistributedEncoding(value.getType());
}

SliceEncodingAttr ttg::detail::getSlice(Attribute parent, unsigned dim) {
  return SliceEncodingAttr::get(parent.getContext(), dim, parent);
}

Attribute ttg::detail::getSliceParent(Attribute layout, unsigned dim) {
  auto slice = dyn_cast_or_null<SliceEncodingAttr>(layout);
  if (!slice || slice.getDim() != dim)
    return {};
  return slice.getParent();
}
