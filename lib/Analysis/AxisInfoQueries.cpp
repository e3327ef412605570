//===- AxisInfoQueries.cpp - running axis info and asking it questions ----===//
//
// ModuleAxisInfo: loads AxisInfoAnalysis into a data-flow solver together
// with the two analyses the sparse framework relies on (dead-code analysis,
// which tells it which blocks and call edges are live, and sparse constant
// propagation, which resolves constant branch conditions for it), runs it
// once over a module, and turns the per-value facts into the numbers memory
// ops need: pointer contiguity, pointer alignment in elements, and mask
// alignment.
//
//===----------------------------------------------------------------------===//
#include "tritium/Analysis/AxisInfo.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/IR/BuiltinTypes.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"

using namespace mlir;
using namespace tritium;

namespace {
unsigned rankOf(Value value) {
  if (auto tensor = dyn_cast<RankedTensorType>(value.getType()))
    return tensor.getRank();
  return 1;
}

/// The most contiguous dimension of `info` over `tensor` and that
/// contiguity, capped by the dimension's size.
std::pair<unsigned, int64_t> mostContiguous(const AxisInfo &info,
                                            RankedTensorType tensor) {
  unsigned dim = orderByContiguity(info.getContiguity()).front();
  return {dim, std::min(info.getContiguity(dim), tensor.getDimSize(dim))};
}

/// A tensor of pointers, or null.
RankedTensorType getPointerTensor(Value value) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  if (!tensor || !isa<tt::PointerType>(tensor.getElementType()))
    return {};
  return tensor;
}
} // namespace

ModuleAxisInfo::ModuleAxisInfo(Operation *root)
    : solver(std::make_unique<DataFlowSolver>()) {
  solver->load<dataflow::DeadCodeAnalysis>();
  solver->load<dataflow::SparseConstantPropagation>();
  solver->load<AxisInfoAnalysis>();
  ok = mlir::succeeded(solver->initializeAndRun(root));
}

ModuleAxisInfo::~ModuleAxisInfo() = default;

AxisInfo ModuleAxisInfo::getAxisInfo(Value value) const {
  if (ok)
    if (const auto *lattice = solver->lookupState<AxisInfoLattice>(value))
      if (lattice->getValue().isInitialized())
        return lattice->getValue();
  return AxisInfo::unknown(rankOf(value));
}

unsigned ModuleAxisInfo::getPtrContiguity(Value ptr) const {
  RankedTensorType tensor = getPointerTensor(ptr);
  if (!tensor)
    return 1;
  return mostContiguous(getAxisInfo(ptr), tensor).second;
}

bool ModuleAxisInfo::isTensorMapAligned(Value value,
                                        int64_t elementBytes) const {
  AxisInfo info = getAxisInfo(value);
  int64_t divisibility = info.isInitialized() ? info.getDivisibility(0) : 1;
  return divisibility * elementBytes % 16 == 0;
}

unsigned ModuleAxisInfo::getPtrAlignment(Value ptr) const {
  RankedTensorType tensor = getPointerTensor(ptr);
  if (!tensor)
    return 1;
  AxisInfo info = getAxisInfo(ptr);
  auto [dim, contiguity] = mostContiguous(info, tensor);
  Type pointee = cast<tt::PointerType>(tensor.getElementType()).getPointeeType();
  int64_t elementBytes = 8;
  if (pointee.isIntOrFloat())
    elementBytes = std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
  int64_t alignedElements =
      std::max<int64_t>(1, info.getDivisibility(dim) / elementBytes);
  return std::min(alignedElements, contiguity);
}

unsigned ModuleAxisInfo::getMaskAlignment(Value mask,
                                          std::optional<unsigned> dim) const {
  auto tensor = dyn_cast<RankedTensorType>(mask.getType());
  if (!tensor)
    return 1;
  AxisInfo info = getAxisInfo(mask);
  unsigned d = dim ? *dim : orderByContiguity(info.getContiguity()).front();
  return std::max<int64_t>(1, std::min(info.getConstancy(d),
                                       tensor.getDimSize(d)));
}
