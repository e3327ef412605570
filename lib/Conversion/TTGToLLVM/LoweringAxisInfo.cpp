//===- LoweringAxisInfo.cpp - axis-info facts the lowering uses ----------===//
//
// Along the dimension d in which the layout keeps a thread's registers
// consecutive (LayoutIndices' getRegisterFastestDim), with the pointer's
// axis info P and the mask's M:
//
//   limit = min(P.contiguity[d],                 consecutive addresses
//               P.divisibility[d] / elementBytes, aligned to the vector
//               M.constancy[d])                  one mask bit per vector
//
// A vector of n <= limit elements then starts n * bytes-aligned: runs of
// contiguous pointers start at P.divisibility-aligned addresses, and groups
// of n inside a run start n elements apart.
//
// An element-wise result with constancy c[d] in every dimension d is
// constant on aligned blocks of bit_floor(c[d]) elements; the register
// bits whose layout basis stays inside such a block
// (layout::registerBitsInsideBlocks) never change its value, so register i
// equals register i & ~mask in every thread.
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTGToLLVM/LoweringAxisInfo.h"

#include "tritium/Analysis/Allocation.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "tritium/Analysis/AxisInfo.h"
#include "tritium/Conversion/TTGToLLVM/LayoutIndices.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "llvm/ADT/bit.h"

using namespace mlir;
using namespace tritium;

/// The register bits of `op`'s result that never change its value (see
/// getEqualRegisterMask), or 0.
static uint64_t equalRegisterMask(Operation *op,
                                  const ModuleAxisInfo &axisInfo) {
  if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
      isa<arith::ConstantOp>(op) || op->getNumResults() != 1 ||
      op->getNumRegions() != 0)
    return 0;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !ttg::getDistributedEncoding(type))
    return 0;
  const AxisInfo &info = axisInfo.getAxisInfo(op->getResult(0));
  std::vector<int64_t> block;
  for (int64_t d = 0, e = type.getRank(); d < e; ++d)
    block.push_back(static_cast<int64_t>(llvm::bit_floor(
        static_cast<uint64_t>(std::max<int64_t>(1, info.getConstancy(d))))));
  return layout::registerBitsInsideBlocks(getLinearLayout(type), block);
}

LoweringAxisInfo::LoweringAxisInfo(ModuleOp module) {
  ModuleAxisInfo axisInfo(module);
  module.walk([&](Operation *op) {
    if (uint64_t mask = equalRegisterMask(op, axisInfo))
      equalRegisterMasks_[op] = mask;
    Value ptr, mask;
    if (auto load = dyn_cast<tt::LoadOp>(op)) {
      ptr = load.getPtr();
      mask = load.getMask();
    } else if (auto store = dyn_cast<tt::StoreOp>(op)) {
      ptr = store.getPtr();
      mask = store.getMask();
    } else if (auto atomic = dyn_cast<tt::AtomicRMWOp>(op)) {
      ptr = atomic.getPtr();
      mask = atomic.getMask();
    } else if (auto copy = dyn_cast<ttg::AsyncCopyGlobalToLocalOp>(op)) {
      ptr = copy.getSrc();
      mask = copy.getMask();
    } else {
      return;
    }
    auto ptrType = dyn_cast<RankedTensorType>(ptr.getType());
    if (!ptrType)
      return; // a scalar access moves one element
    auto pointer = dyn_cast<tt::PointerType>(ptrType.getElementType());
    if (!pointer || !ttg::getDistributedEncoding(ptrType))
      return;
    int dim = getRegisterFastestDim(getLinearLayout(ptrType));
    if (dim < 0)
      return;
    AxisInfo ptrInfo = axisInfo.getAxisInfo(ptr);
    int64_t bytes = getElementBytes(pointer.getPointeeType());
    int64_t limit =
        std::min(ptrInfo.getContiguity(dim),
                 std::max<int64_t>(1, ptrInfo.getDivisibility(dim) / bytes));
    if (mask)
      limit = std::min(limit, axisInfo.getAxisInfo(mask).getConstancy(dim));
    vectorLimits_[op] =
        std::max<int64_t>(1, llvm::bit_floor(static_cast<uint64_t>(limit)));
  });
}

int64_t LoweringAxisInfo::getVectorLimit(Operation *op) const {
  return vectorLimits_.lookup_or(op, 1);
}

uint64_t LoweringAxisInfo::getEqualRegisterMask(Operation *op) const {
  return equalRegisterMasks_.lookup_or(op, 0);
}
