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
// An element-wise result with constancy c along d and r consecutive
// registers along d repeats over runs of min(c, r) registers (both powers
// of two, runs starting at multiples of them).
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

/// Registers of `op`'s result that repeat their run's first value (see
/// getEqualRegisterRun), or 1.
static int64_t equalRegisterRun(Operation *op, const ModuleAxisInfo &axisInfo) {
  if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
      isa<arith::ConstantOp>(op) || op->getNumResults() != 1 ||
      op->getNumRegions() != 0)
    return 1;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !ttg::getDistributedEncoding(type))
    return 1;
  layout::LinearLayout layout = getLinearLayout(type);
  int dim = getRegisterFastestDim(layout);
  if (dim < 0)
    return 1;
  int64_t constancy = axisInfo.getAxisInfo(op->getResult(0)).getConstancy(dim);
  int64_t run = std::min<int64_t>(
      llvm::bit_floor(static_cast<uint64_t>(std::max<int64_t>(1, constancy))),
      getContiguousRegisters(layout, dim));
  return std::max<int64_t>(1, run);
}

LoweringAxisInfo::LoweringAxisInfo(ModuleOp module) {
  ModuleAxisInfo axisInfo(module);
  module.walk([&](Operation *op) {
    if (int64_t run = equalRegisterRun(op, axisInfo); run > 1)
      equalRegisterRuns_[op] = run;
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

int64_t LoweringAxisInfo::getEqualRegisterRun(Operation *op) const {
  return equalRegisterRuns_.lookup_or(op, 1);
}
