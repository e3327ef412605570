//===- Coalesce.cpp - ttg-coalesce -----------------------------------------===//
//
// Gives every global-memory access through a tensor of pointers the blocked
// layout under which the threads of a warp touch consecutive addresses, each
// thread with one vector instruction of up to 128 bits.
//
// Algorithm:
//   1. Run the axis-info analysis over the module.
//   2. For each tt.load / tt.store / tt.atomic_rmw / tt.atomic_cas whose
//      pointer operand is a tensor with a distributed layout:
//        order     = the dimensions by decreasing contiguity of the pointers
//                    (ties: last dimension first);
//        perThread = min(alignment in elements, contiguity along order[0],
//                        128 / element bits), at most elements / threads;
//        layout    = sizePerThread 1 except perThread along order[0], lanes
//                    and warps fitted over the shape along `order`
//                    (fitBlockedLayout).
//      All layouts are chosen before any op changes, from one analysis.
//   3. Rebuild each op whose pointers are not in that layout yet: tensor
//      operands (pointers, mask, value, other) are converted into it with
//      ttg.convert_layout, and the result converted back to its old type.
//      ttg-remove-layout-conversions then propagates the new layouts.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "llvm/ADT/TypeSwitch.h"
#include "tritium/Analysis/AxisInfo.h"
#include "tritium/Dialect/TTG/Transforms/BlockedLayoutRules.h"

namespace tritium::ttg {
#define GEN_PASS_DEF_TTGCOALESCEPASS
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"
} // namespace tritium::ttg

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

namespace {
/// Bits of what the pointers of `ptrTensor` point to (pointers: 64).
int64_t pointeeBits(RankedTensorType ptrTensor) {
  Type pointee =
      cast<tt::PointerType>(ptrTensor.getElementType()).getPointeeType();
  if (pointee.isIntOrFloat())
    return pointee.getIntOrFloatBitWidth();
  return 64;
}

/// Replaces `op` by a copy whose tensor operands and results have layout
/// `layout`, converting operands in and results back out.
void rebuildInLayout(Operation *op, BlockedEncodingAttr layout) {
  OpBuilder builder(op);
  Location loc = op->getLoc();
  SmallVector<Value> operands;
  for (Value operand : op->getOperands()) {
    auto tensor = dyn_cast<RankedTensorType>(operand.getType());
    if (!tensor || !tensor.getEncoding() || tensor.getEncoding() == layout) {
      operands.push_back(operand);
      continue;
    }
    operands.push_back(ConvertLayoutOp::create(
        builder, loc, withEncoding(tensor, layout), operand));
  }
  SmallVector<Type> resultTypes;
  for (Type type : op->getResultTypes()) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    resultTypes.push_back(tensor && tensor.getEncoding()
                              ? Type(withEncoding(tensor, layout))
                              : type);
  }
  OperationState state(loc, op->getName(), operands, resultTypes,
                       op->getAttrs());
  Operation *rebuilt = builder.create(state);
  for (auto [oldResult, newResult] :
       llvm::zip(op->getResults(), rebuilt->getResults())) {
    Value replacement = newResult;
    if (oldResult.getType() != newResult.getType())
      replacement =
          ConvertLayoutOp::create(builder, loc, oldResult.getType(), newResult);
    oldResult.replaceAllUsesWith(replacement);
  }
  op->erase();
}
} // namespace

Value ttg::getCoalescablePointer(Operation *op) {
  Value ptr = llvm::TypeSwitch<Operation *, Value>(op)
                  .Case<tt::LoadOp, tt::StoreOp, tt::AtomicRMWOp,
                        tt::AtomicCASOp>([](auto access) { return access.getPtr(); })
                  .Default([](Operation *) { return Value(); });
  if (!ptr)
    return {};
  auto tensor = dyn_cast<RankedTensorType>(ptr.getType());
  if (!tensor || !isa<tt::PointerType>(tensor.getElementType()) ||
      !isa_and_nonnull<DistributedEncodingAttr>(tensor.getEncoding()))
    return {};
  return ptr;
}

BlockedEncodingAttr ttg::getCoalescedEncoding(Operation *op,
                                              const ModuleAxisInfo &axisInfo,
                                              int numWarps,
                                              int threadsPerWarp) {
  Value ptr = getCoalescablePointer(op);
  if (!ptr)
    return {};
  auto tensor = cast<RankedTensorType>(ptr.getType());
  AxisInfo info = axisInfo.getAxisInfo(ptr);
  std::vector<unsigned> order = orderByContiguity(info.getContiguity());
  unsigned fastest = order.front();
  int64_t contiguity =
      std::min(info.getContiguity(fastest), tensor.getDimSize(fastest));
  int64_t perThread = coalescedSizePerThread(
      axisInfo.getPtrAlignment(ptr), contiguity, pointeeBits(tensor),
      tensor.getNumElements(), int64_t(numWarps) * threadsPerWarp);

  std::vector<int64_t> shape(tensor.getShape().begin(), tensor.getShape().end());
  std::vector<int64_t> sizePerThread(shape.size(), 1);
  sizePerThread[fastest] = perThread;
  std::vector<int64_t> order64(order.begin(), order.end());
  return getBlockedEncoding(op->getContext(),
                            fitBlockedLayout(shape, sizePerThread, order64,
                                             numWarps, threadsPerWarp));
}

void ttg::coalesceMemoryAccesses(ModuleOp module) {
  ModuleAxisInfo axisInfo(module);
  int numWarps = getNumWarps(module);
  int threadsPerWarp = getThreadsPerWarp(module);
  SmallVector<std::pair<Operation *, BlockedEncodingAttr>> plan;
  module.walk([&](Operation *op) {
    BlockedEncodingAttr layout =
        getCoalescedEncoding(op, axisInfo, numWarps, threadsPerWarp);
    if (!layout)
      return;
    auto ptrType = cast<RankedTensorType>(getCoalescablePointer(op).getType());
    if (ptrType.getEncoding() != layout)
      plan.emplace_back(op, layout);
  });
  for (auto [op, layout] : plan)
    rebuildInLayout(op, layout);
}

namespace {
struct TTGCoalescePass
    : public tritium::ttg::impl::TTGCoalescePassBase<TTGCoalescePass> {
  void runOnOperation() override { coalesceMemoryAccesses(getOperation()); }
};
} // namespace
