//===- LayoutRoles.cpp - how ops constrain the layouts around them ---------===//
//
// Classifies ops for ttg-remove-layout-conversions (see LayoutRoles.h).  An
// op is only trusted to accept any layout when its lowering really is
// layout-agnostic: pure element-wise ops (inline assembly excepted, since it
// packs neighbouring elements), the shape ops whose layout rules are simple
// (broadcast, expand_dims), reductions and scans, producers of uniform or
// index values, structured control flow that merely carries values, and
// loads and stores of fewer elements than threads (no layout makes those
// cheaper), and device asserts and prints.
// Transposes and row-major reshapes only relabel coordinates: their results
// take the operand's layout relabelled the same way (getTransposed,
// getReshaped), which their lowering turns into a renaming of registers.
//
//===----------------------------------------------------------------------===//
#include "LayoutRoles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Layout/LinearLayout.h"

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

/// A load or store through a tensor of pointers with fewer elements than
/// the threads that run it: every thread touches at most one element (a
/// size-1 tensor: the same one), so no layout makes it cheaper and it
/// anchors nothing; its layout follows its neighbours'.  (Anchoring it
/// would let a broadcast of its [1, 1] value spread its layout, with all
/// threads along the size-1 dimension, to the [1, N] tensors it meets, each
/// thread then holding all N elements.)
bool isCheapAccess(Operation *op) {
  if (!isa<tt::LoadOp, tt::StoreOp>(op) || op->getNumOperands() == 0)
    return false;
  auto pointers = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto layout = getLayoutOf(op->getOperand(0));
  if (!pointers || !layout || !isa<tt::PointerType>(pointers.getElementType()))
    return false;
  return pointers.getNumElements() < layout.getNumWarps() * layout.getWarpSize();
}

/// tt.assert, and tt.print of at most one tensor: they check or print each
/// element where it is, under any layout, so they follow the value they
/// take.  (Were it anchored, an assert on a gather's indices would keep the
/// index computation in the assert's layout as well, computing it twice.)
bool isLayoutFreeDebugOp(Operation *op) {
  if (isa<tt::AssertOp>(op))
    return true;
  if (!isa<tt::PrintOp>(op))
    return false;
  return llvm::count_if(op->getOperands(), [](Value operand) {
           return getLayoutOf(operand) != nullptr;
         }) <= 1;
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
  if (isa<tt::TransOp>(op))
    return LayoutRole::Trans;
  if (auto reshape = dyn_cast<tt::ReshapeOp>(op))
    return reshape.getAllowReorder() ? LayoutRole::Fixed : LayoutRole::Reshape;
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
  if (isElementwise(op) || isCheapAccess(op) || isLayoutFreeDebugOp(op))
    return LayoutRole::SameLayout;
  return LayoutRole::Fixed;
}

DistributedEncodingAttr ttg::detail::getLayoutOf(Value value) {
  return getDistributedEncoding(value.getType());
}

SliceEncodingAttr ttg::detail::getSlice(Attribute parent, unsigned dim) {
  return SliceEncodingAttr::get(parent.getContext(), dim, parent);
}

namespace {
/// A #ttg.linear layout of rank `rank` with the bases of `layout`, each
/// coordinate vector passed through `relabel`.
DistributedEncodingAttr
linearWithBases(MLIRContext *context, unsigned rank,
                const layout::LinearLayout &layout,
                llvm::function_ref<std::vector<int64_t>(const std::vector<int64_t> &)>
                    relabel) {
  auto flatten = [&](layout::HwDim dim) {
    SmallVector<int64_t> flat;
    for (const std::vector<int64_t> &basis : layout.bases(dim))
      llvm::append_range(flat, relabel(basis));
    return flat;
  };
  return LinearEncodingAttr::get(context, rank, flatten(layout::HwDim::Register),
                                 flatten(layout::HwDim::Lane),
                                 flatten(layout::HwDim::Warp));
}
} // namespace

DistributedEncodingAttr ttg::detail::getTransposed(Attribute layout,
                                                   ArrayRef<int64_t> srcShape,
                                                   ArrayRef<int32_t> order) {
  auto distributed = dyn_cast_or_null<DistributedEncodingAttr>(layout);
  if (!distributed || order.size() != srcShape.size())
    return {};
  size_t rank = order.size();
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(layout)) {
    // Result dimension i is source dimension order[i]; `order` lists
    // dimensions fastest first, so a source dimension d is renamed to the
    // result dimension i with order[i] == d.
    SmallVector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, dimOrder;
    SmallVector<unsigned> renamed(rank);
    for (size_t i = 0; i < rank; ++i) {
      sizePerThread.push_back(blocked.getSizePerThread()[order[i]]);
      threadsPerWarp.push_back(blocked.getThreadsPerWarp()[order[i]]);
      warpsPerCTA.push_back(blocked.getWarpsPerCTA()[order[i]]);
      renamed[order[i]] = i;
    }
    for (unsigned d : blocked.getOrder())
      dimOrder.push_back(renamed[d]);
    return BlockedEncodingAttr::get(layout.getContext(), sizePerThread,
                                    threadsPerWarp, warpsPerCTA, dimOrder);
  }
  layout::LinearLayout linear =
      distributed.toLinearLayout(std::vector<int64_t>(srcShape.begin(), srcShape.end()));
  return linearWithBases(layout.getContext(), rank, linear,
                         [&](const std::vector<int64_t> &coord) {
                           std::vector<int64_t> result(rank);
                           for (size_t i = 0; i < rank; ++i)
                             result[i] = coord[order[i]];
                           return result;
                         });
}

DistributedEncodingAttr ttg::detail::getReshaped(Attribute layout,
                                                 ArrayRef<int64_t> srcShape,
                                                 ArrayRef<int64_t> dstShape) {
  auto distributed = dyn_cast_or_null<DistributedEncodingAttr>(layout);
  if (!distributed)
    return {};
  std::vector<int64_t> from(srcShape.begin(), srcShape.end());
  std::vector<int64_t> to(dstShape.begin(), dstShape.end());
  return linearWithBases(layout.getContext(), dstShape.size(),
                         distributed.toLinearLayout(from),
                         [&](const std::vector<int64_t> &coord) {
                           return layout::reshapeCoordinate(coord, from, to);
                         });
}

Attribute ttg::detail::getSliceParent(Attribute layout, unsigned dim) {
  auto slice = dyn_cast_or_null<SliceEncodingAttr>(layout);
  if (!slice || slice.getDim() != dim)
    return {};
  return slice.getParent();
}
