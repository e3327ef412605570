//===- OptimizeDotOperands.cpp - ttg-optimize-dot-operands -----------------===//
//
// Where a dot operand lives, once the dots sit on tensor cores.
//
// Hopper's wgmma reads B from shared memory but may take A from registers.
// ttg-accelerate-matmul stores every A to a shared tile; for an A that was
// computed in registers (the probabilities of attention, P = softmax(QK^T),
// feeding P @ V; a scaled or converted operand) that is a round trip
// through shared memory, a barrier and a proxy fence, where the values
// could go to the tensor cores from the registers they are already in.
//
// Algorithm: for every ttg.warp_group_dot whose A is a ttg.local_alloc of a
// tensor %x (or of a conversion of %x, which then goes too), used by this
// dot only, replace A by %x converted to the
// #ttg.dot_op layout (opIdx 0, kWidth 32 / element bits) of the dot's
// accumulator when
//   * %x is 16-bit or 8-bit (wgmma's register A: f16 / bf16 in kWidth 2,
//     fp8 / int8 in kWidth 4, four elements a register),
//   * %x is not loaded from global memory by a tt.load (such tiles stay in
//     shared memory, where ttg-pipeline streams them with cp.async), and
//   * the conversion stays in registers or warp shuffles (a conversion
//     through shared memory would only move the round trip).
// The alloc is erased.
//
// An A computed element by element in a loop body from tiles it loads (a
// loaded tile scaled by a loaded row, cast, dequantized: the conversion of
// the result would go through shared memory) is computed in the operand
// layout instead: the conversion to it moves up the chain to the loads
// (hoistConversion, Rematerialization.cpp, which takes it only where the
// operand layout holds each value no more often than the chain's layout),
// and each tile loaded there is read from a shared tile in the operand
// layout (16-bit ones with ldmatrix; 32-bit ones, a gate, element by
// element from a swizzled tile), which ttg-pipeline then fills ahead with
// cp.async: the store of A, its fence and its barrier each iteration go
// (Triton's rule).  Everything else is left alone.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "tritium/Analysis/Allocation.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "llvm/ADT/SetVector.h"

namespace tritium::ttg {
#define GEN_PASS_DEF_TTGOPTIMIZEDOTOPERANDSPASS
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"
} // namespace tritium::ttg

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

namespace {

/// The register operand type for A of `dot` converted from `source`, or
/// null when A should stay in shared memory.
RankedTensorType registerOperandType(WarpGroupDotOp dot, LocalAllocOp alloc,
                                     Value source) {
  if (!source || !alloc->hasOneUse())
    return {};
  auto srcType = cast<RankedTensorType>(source.getType());
  unsigned bits = srcType.getElementTypeBitWidth();
  if ((bits != 16 && bits != 8) || source.getDefiningOp<tt::LoadOp>())
    return {};
  auto mma = cast<RankedTensorType>(dot.getC().getType()).getEncoding();
  auto layout = DotOperandEncodingAttr::get(dot.getContext(), /*opIdx=*/0,
                                            mma, /*kWidth=*/32 / bits);
  RankedTensorType dstType = withEncoding(srcType, layout);
  if (srcType.getEncoding() != layout &&
      getConvertLayoutPath(srcType, dstType) == ConvertLayoutPath::SharedMemory)
    return {};
  return dstType;
}

/// Moves A of `dot`, stored by `alloc` from `source` computed from loaded
/// tiles in a loop body, into registers by computing it in the operand
/// layout (see the file comment); false, and nothing changed, where the
/// hoisting does not apply.
bool computeOperandInRegisters(WarpGroupDotOp dot, LocalAllocOp alloc,
                               Value source) {
  if (!source || !alloc->hasOneUse() || !isa<scf::ForOp>(dot->getParentOp()))
    return false;
  auto srcType = cast<RankedTensorType>(source.getType());
  Operation *producer = source.getDefiningOp();
  if (srcType.getElementTypeBitWidth() != 16 || !producer ||
      isa<tt::LoadOp>(producer) || producer->getBlock() != dot->getBlock())
    return false;
  auto mma = cast<RankedTensorType>(dot.getC().getType()).getEncoding();
  auto layout = DotOperandEncodingAttr::get(dot.getContext(), /*opIdx=*/0,
                                            mma, /*kWidth=*/2);
  // The alloc lets go of `source` while the plan is made: the plan
  // recomputes only values that feed nothing else.
  OpBuilder builder(dot);
  auto convert = ConvertLayoutOp::create(builder, dot.getLoc(),
                                         withEncoding(srcType, layout), source);
  dot.getAMutable().assign(convert.getResult());
  alloc.getSrcMutable().clear();
  if (!hoistConversion(convert)) {
    alloc.getSrcMutable().assign(source);
    dot.getAMutable().assign(alloc.getResult());
    convert.erase();
    return false;
  }
  alloc.erase();
  // The loaded tiles, converted to the operand layout where they are
  // defined: read from shared tiles in it.
  SmallVector<Value> work = {dot.getA()};
  DenseSet<Operation *> seen;
  SmallVector<ConvertLayoutOp> leaves;
  while (!work.empty()) {
    Operation *op = work.pop_back_val().getDefiningOp();
    if (!op || op->getBlock() != dot->getBlock() || !seen.insert(op).second)
      continue;
    auto leaf = dyn_cast<ConvertLayoutOp>(op);
    if (leaf && leaf.getType().getEncoding() == layout &&
        leaf.getSrc().getDefiningOp<tt::LoadOp>()) {
      leaves.push_back(leaf);
      continue;
    }
    work.append(op->operand_begin(), op->operand_end());
  }
  for (ConvertLayoutOp leaf : leaves)
    if (getConvertLayoutPath(cast<RankedTensorType>(leaf.getSrc().getType()),
                             leaf.getType()) == ConvertLayoutPath::SharedMemory)
      readOperandFromSharedTile(leaf);
  return true;
}

} // namespace

void ttg::optimizeDotOperands(ModuleOp module) {
  SmallVector<WarpGroupDotOp> dots;
  module.walk([&](WarpGroupDotOp dot) { dots.push_back(dot); });
  // Functions whose hoisted chains left their originals behind.
  llvm::SetVector<Operation *> hoisted;
  for (WarpGroupDotOp dot : dots) {
    auto alloc = dot.getA().getDefiningOp<LocalAllocOp>();
    if (!alloc)
      continue;
    // The tensor, or what a conversion made it from: the conversion into
    // the store's layout is then not needed either.
    Value source = alloc.getSrc();
    auto convert = source ? source.getDefiningOp<ConvertLayoutOp>() : nullptr;
    RankedTensorType type;
    if (convert)
      type = registerOperandType(dot, alloc, convert.getSrc());
    if (type)
      source = convert.getSrc();
    else
      type = registerOperandType(dot, alloc, source);
    if (!type) {
      if (computeOperandInRegisters(dot, alloc, alloc.getSrc()))
        hoisted.insert(dot->getParentOfType<FunctionOpInterface>());
      continue;
    }
    OpBuilder builder(dot);
    Value a = source.getType() == type
                  ? source
                  : ConvertLayoutOp::create(builder, dot.getLoc(), type, source)
                        .getResult();
    dot.getAMutable().assign(a);
    alloc.erase();
    if (convert && convert->use_empty())
      convert.erase();
  }
  for (Operation *function : hoisted)
    cleanupConversions(function);
}

namespace {
struct TTGOptimizeDotOperandsPass
    : public ttg::impl::TTGOptimizeDotOperandsPassBase<
          TTGOptimizeDotOperandsPass> {
  void runOnOperation() override { ttg::optimizeDotOperands(getOperation()); }
};
} // namespace
