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
//        a load takes the largest perThread of the stores of its shape and
//        order that its value reaches through element-wise ops: a bf16 tile
//        loaded 8 a thread and stored as fp8 16 a thread is loaded 16 a
//        thread, two vectors, in the store's layout, rather than converted
//        between (Triton widens a load to every access of its shape and
//        order its def-use chains touch, the index arithmetic included,
//        which also widens tiles that go to a dot: a packed weight tile
//        streamed through shared memory 8 words a thread instead of 4);
//        a store keeps its own (wider would leave gaps between a warp's
//        writes);
//        loads of one shape and order whose values meet in an element-wise
//        op take the largest perThread among them (Triton's layout for
//        them: one set of offsets and masks, and no conversion between
//        them where they meet), except a load whose value reaches a tt.dot
//        of the loop body it is loaded in: ttg-pipeline streams it into
//        shared memory and its readers read the slot in their own layout,
//        so its copy keeps its own width (flash-linear-attention's state
//        loops, where the wider fp32 copies spill);
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

#include "LayoutRoles.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/TypeSwitch.h"
#include "tritium/Analysis/AxisInfo.h"
#include "tritium/Dialect/TTG/Transforms/BlockedLayoutRules.h"

#include <optional>

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

namespace {
/// How an access is coalesced on its own: the dimensions by decreasing
/// contiguity and the elements a thread takes along the first.
struct AccessShape {
  std::vector<unsigned> order;
  int64_t perThread = 0;
};

std::optional<AccessShape> getAccessShape(Operation *op,
                                          const ModuleAxisInfo &axisInfo,
                                          int numWarps, int threadsPerWarp) {
  Value ptr = getCoalescablePointer(op);
  if (!ptr)
    return std::nullopt;
  auto tensor = cast<RankedTensorType>(ptr.getType());
  AxisInfo info = axisInfo.getAxisInfo(ptr);
  AccessShape access;
  access.order = orderByContiguity(info.getContiguity());
  unsigned fastest = access.order.front();
  int64_t contiguity =
      std::min(info.getContiguity(fastest), tensor.getDimSize(fastest));
  access.perThread = coalescedSizePerThread(
      axisInfo.getPtrAlignment(ptr), contiguity, pointeeBits(tensor),
      tensor.getNumElements(), int64_t(numWarps) * threadsPerWarp);
  return access;
}

BlockedEncodingAttr getBlockedAccessLayout(Operation *op,
                                           const AccessShape &access,
                                           int numWarps, int threadsPerWarp) {
  auto tensor = cast<RankedTensorType>(getCoalescablePointer(op).getType());
  std::vector<int64_t> shape(tensor.getShape().begin(), tensor.getShape().end());
  std::vector<int64_t> sizePerThread(shape.size(), 1);
  sizePerThread[access.order.front()] = access.perThread;
  std::vector<int64_t> order64(access.order.begin(), access.order.end());
  return getBlockedEncoding(op->getContext(),
                            fitBlockedLayout(shape, sizePerThread, order64,
                                             numWarps, threadsPerWarp));
}

/// Where `load`'s value goes through element-wise ops and layout
/// conversions (each result of the load's shape): the stores whose stored
/// value it reaches, the element-wise ops it reaches (conversions
/// excepted), and whether it reaches an operand of a tt.dot in the block
/// the load is in, inside an scf.for (a tile ttg-pipeline streams).
struct ValueReach {
  SmallVector<Operation *> stores;
  SmallVector<Operation *> elementwise;
  bool feedsDotOfItsLoop = false;
};

ValueReach reachOfValue(tt::LoadOp load) {
  ArrayRef<int64_t> shape = cast<RankedTensorType>(load.getType()).getShape();
  bool inLoop = isa_and_nonnull<scf::ForOp>(load->getParentOp());
  ValueReach reach;
  SmallVector<Value> work{load.getResult()};
  llvm::DenseSet<Value> seen{load.getResult()};
  while (!work.empty()) {
    Value value = work.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto store = dyn_cast<tt::StoreOp>(user)) {
        if (use.get() == store.getValue())
          reach.stores.push_back(store);
        continue;
      }
      if (isa<tt::DotOp>(user)) {
        reach.feedsDotOfItsLoop |= inLoop && user->getBlock() == load->getBlock();
        continue;
      }
      ttg::detail::LayoutRole role = ttg::detail::getLayoutRole(user);
      if ((role != ttg::detail::LayoutRole::SameLayout &&
           role != ttg::detail::LayoutRole::Convert) ||
          isa<tt::LoadOp, tt::AssertOp, tt::PrintOp>(user))
        continue;
      if (role == ttg::detail::LayoutRole::SameLayout)
        reach.elementwise.push_back(user);
      for (Value result : user->getResults()) {
        auto tensor = dyn_cast<RankedTensorType>(result.getType());
        if (tensor && tensor.getShape() == shape && seen.insert(result).second)
          work.push_back(result);
      }
    }
  }
  return reach;
}
} // namespace

void ttg::coalesceMemoryAccesses(ModuleOp module) {
  ModuleAxisInfo axisInfo(module);
  int numWarps = getNumWarps(module);
  int threadsPerWarp = getThreadsPerWarp(module);
  SmallVector<std::pair<Operation *, AccessShape>> accesses;
  module.walk([&](Operation *op) {
    if (std::optional<AccessShape> access =
            getAccessShape(op, axisInfo, numWarps, threadsPerWarp))
      accesses.emplace_back(op, *access);
  });
  llvm::DenseMap<Operation *, AccessShape> accessOf(accesses.begin(),
                                                    accesses.end());
  auto shapeOf = [](Operation *op) {
    return cast<RankedTensorType>(getCoalescablePointer(op).getType()).getShape();
  };
  // Where each load's value goes; the loads whose values meet in an
  // element-wise op, grouped (by their first member) where shape and order
  // agree and neither feeds a dot of its loop.
  llvm::DenseMap<Operation *, ValueReach> reachOf;
  llvm::DenseMap<Operation *, SmallVector<Operation *>> loadsMeetingAt;
  for (auto &[op, access] : accesses)
    if (auto load = dyn_cast<tt::LoadOp>(op)) {
      ValueReach &reach = reachOf[op] = reachOfValue(load);
      if (!reach.feedsDotOfItsLoop)
        for (Operation *user : reach.elementwise)
          loadsMeetingAt[user].push_back(op);
    }
  llvm::EquivalenceClasses<Operation *> meeting;
  for (auto &[user, loads] : loadsMeetingAt)
    for (Operation *other : llvm::drop_begin(loads))
      if (accessOf[other].order == accessOf[loads.front()].order &&
          shapeOf(other) == shapeOf(loads.front()))
        meeting.unionSets(loads.front(), other);
  SmallVector<std::pair<Operation *, BlockedEncodingAttr>> plan;
  for (auto &[op, access] : accesses) {
    AccessShape chosen = access;
    if (isa<tt::LoadOp>(op)) {
      // The widest vector of the stores of its shape and order its value
      // reaches, and of the loads it meets.
      for (Operation *store : reachOf[op].stores) {
        auto reached = accessOf.find(store);
        if (reached != accessOf.end() &&
            reached->second.order == access.order &&
            shapeOf(store) == shapeOf(op))
          chosen.perThread = std::max(chosen.perThread, reached->second.perThread);
      }
      if (meeting.contains(op))
        for (auto other = meeting.findLeader(op); other != meeting.member_end();
             ++other)
          chosen.perThread = std::max(chosen.perThread, accessOf[*other].perThread);
    }
    BlockedEncodingAttr layout =
        getBlockedAccessLayout(op, chosen, numWarps, threadsPerWarp);
    auto ptrType = cast<RankedTensorType>(getCoalescablePointer(op).getType());
    if (ptrType.getEncoding() != layout)
      plan.emplace_back(op, layout);
  }
  for (auto [op, layout] : plan)
    rebuildInLayout(op, layout);
}

namespace {
struct TTGCoalescePass
    : public tritium::ttg::impl::TTGCoalescePassBase<TTGCoalescePass> {
  void runOnOperation() override { coalesceMemoryAccesses(getOperation()); }
};
} // namespace
