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
// #ttg.dot_op layout (opIdx 0, kWidth 2) of the dot's accumulator when
//   * %x is 16-bit (wgmma's register A takes f16 / bf16 here),
//   * %x is not loaded from global memory by a tt.load (such tiles stay in
//     shared memory, where ttg-pipeline streams them with cp.async), and
//   * the conversion stays in registers or warp shuffles (a conversion
//     through shared memory would only move the round trip).
// The alloc is erased.  Everything else is left alone.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "tritium/Analysis/Allocation.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"

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
  if (srcType.getElementTypeBitWidth() != 16 ||
      source.getDefiningOp<tt::LoadOp>())
    return {};
  auto mma = cast<RankedTensorType>(dot.getC().getType()).getEncoding();
  auto layout = DotOperandEncodingAttr::get(dot.getContext(), /*opIdx=*/0,
                                            mma, /*kWidth=*/2);
  RankedTensorType dstType = withEncoding(srcType, layout);
  if (srcType.getEncoding() != layout &&
      getConvertLayoutPath(srcType, dstType) == ConvertLayoutPath::SharedMemory)
    return {};
  return dstType;
}

} // namespace

void ttg::optimizeDotOperands(ModuleOp module) {
  SmallVector<WarpGroupDotOp> dots;
  module.walk([&](WarpGroupDotOp dot) { dots.push_back(dot); });
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
    if (!type)
      continue;
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
}

namespace {
struct TTGOptimizeDotOperandsPass
    : public ttg::impl::TTGOptimizeDotOperandsPassBase<
          TTGOptimizeDotOperandsPass> {
  void runOnOperation() override { ttg::optimizeDotOperands(getOperation()); }
};
} // namespace
