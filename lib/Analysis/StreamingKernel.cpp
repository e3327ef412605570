//===- StreamingKernel.cpp - kernels that only stream memory ---------------===//
//
// Algorithm: the kernel must be one tt.func whose body is a single block (no
// cf branches).  Its ops are walked in order against an allow-list: arith
// and math, the index ops (program id, range, splat, broadcast, expand_dims,
// addptr), conversions and element-wise tt ops, tt.load, tt.store and
// tt.return.  None of them has regions, so a loop (scf.for, scf.while), an
// scf.if, a call or a reduction is rejected by its name, which is the reason
// returned.  Along the walk, a value "depends on loaded data" if a tt.load
// made it or any operand of its op depends on loaded data; a load with such
// an operand (pointer, mask or other) or a store with such a pointer or mask
// is a gather or a scatter.
//
//===----------------------------------------------------------------------===//
#include "tritium/Analysis/StreamingKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tritium;

namespace {
/// Ops of the tt dialect a streaming kernel may contain besides loads and
/// stores: index computations and element-wise operations.
bool isIndexOrElementwiseTTOp(Operation *op) {
  return isa<tt::GetProgramIdOp, tt::GetNumProgramsOp, tt::MakeRangeOp, tt::SplatOp,
             tt::BroadcastOp, tt::ExpandDimsOp, tt::AddPtrOp, tt::FpToFpOp, tt::BitcastOp,
             tt::ClampOp, tt::PreciseSqrtOp, tt::PreciseDivFOp, tt::MulhiUIOp,
             tt::ExternElementwiseOp, tt::ReturnOp>(op);
}
} // namespace

std::string tritium::whyNotStreamingKernel(ModuleOp module) {
  auto functions = llvm::to_vector(module.getOps<tt::FuncOp>());
  if (functions.size() != 1)
    return std::to_string(functions.size()) + " functions";
  tt::FuncOp kernel = functions.front();
  if (!kernel.getBody().hasOneBlock())
    return "branches";

  llvm::DenseSet<Value> dependsOnLoad;
  auto loaded = [&](Value v) { return dependsOnLoad.contains(v); };
  bool hasTensorLoad = false;
  for (Operation &op : kernel.getBody().front()) {
    if (auto load = dyn_cast<tt::LoadOp>(op)) {
      if (llvm::any_of(load->getOperands(), loaded))
        return "a load whose address, mask or other value depends on loaded data";
      hasTensorLoad |= isa<RankedTensorType>(load.getType());
    } else if (auto store = dyn_cast<tt::StoreOp>(op)) {
      if (loaded(store.getPtr()) || (store.getMask() && loaded(store.getMask())))
        return "a store whose address or mask depends on loaded data";
    } else if (Dialect *dialect = op.getDialect();
               !(dialect && isa<arith::ArithDialect, math::MathDialect>(dialect)) &&
               !isIndexOrElementwiseTTOp(&op)) {
      return "'" + op.getName().getStringRef().str() + "'";
    }
    if (isa<tt::LoadOp>(op) || llvm::any_of(op.getOperands(), loaded))
      dependsOnLoad.insert(op.result_begin(), op.result_end());
  }
  if (!hasTensorLoad)
    return "no tensor load";
  return "";
}
