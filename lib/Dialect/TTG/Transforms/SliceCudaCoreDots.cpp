//===- SliceCudaCoreDots.cpp - ttg-slice-cuda-core-dots -------------------===//
//
// A CUDA-core dot (a tt.dot with a blocked accumulator) reads its operands
// in #ttg.dot_op layouts that give each thread whole rows of A and columns
// of B.  Read by one ttg.local_load each, a thread holds its whole K slice
// of both before its first FMA: at 4 warps, a 128x128 fp32 accumulator
// with K = 64 gives a thread 16 rows of A, 1024 values, and 256 of B.
// ptxas does not move that many loads down to the FMAs that read them: it
// spills, and allocating registers for such a block takes it seconds.  A
// thread needs only its accumulator and one step of k at a time, so the
// dot becomes a chain of dots over slices of K, each slice's operands read
// from the shared tile right before its FMAs.  The FMAs are the same and
// in the same order (FMA.cpp adds each element's products in order of k,
// and the chain keeps that order): the results are bit-identical.
//
// Algorithm: for every tt.dot with a blocked accumulator whose A and B
// are each a ttg.local_load, possibly followed by single-operand
// element-wise ops (casts to the accumulator's type), every op of that
// chain used once and in the dot's block, with no op that may write memory
// between the loads and the dot, and whose K is a multiple of the slice
// width and larger than it:
//   for s in 0, W, 2W, .. K - W:
//     a_s = local_load (memdesc_subslice %A_tile [.., 0, s])  (then A's casts)
//     b_s = local_load (memdesc_subslice %B_tile [.., s, 0])  (then B's casts)
//     acc = tt.dot a_s, b_s, acc
// inserted at the dot, which the last dot replaces.  The slice width W is
// four steps of k, the most whose A values a thread reads as one 16-byte
// vector in fp32; a tile read through a sub-tile view must be swizzled or
// NVMMA-shared (LocalMemoryOpToLLVM.cpp reads it), and other dots are left
// alone.
//
// Only dots whose whole-K operands take a thread at least
// `minOperandRegisters` 32-bit registers (512 by default) are rewritten.
// Measured on the H200 with Inductor's fp32 mm template (2048^3): at 192
// and 384 operand registers ptxas already interleaves the loads with the
// FMAs (64-106 registers, no spill) and slicing costs up to 2%; from 512
// on (168-255 registers) slicing gains 4-8%.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"

namespace tritium::ttg {
#define GEN_PASS_DEF_TTGSLICECUDACOREDOTSPASS
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"
} // namespace tritium::ttg

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

namespace {

constexpr int64_t kSliceWidth = 4; // steps of k per slice

/// One operand of a dot the pass applies to: the tile's load and the
/// element-wise ops from it to the dot, in order.
struct OperandChain {
  LocalLoadOp load;
  SmallVector<Operation *> casts;
};

/// The chain that produces operand `value` of `dot`, if it qualifies.
std::optional<OperandChain> matchOperand(tt::DotOp dot, Value value) {
  OperandChain chain;
  while (true) {
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != dot->getBlock() || !value.hasOneUse())
      return std::nullopt;
    if (auto load = dyn_cast<LocalLoadOp>(def)) {
      if (load.getSrc().getDefiningOp<MemDescSubsliceOp>() ||
          !isa<SwizzledSharedEncodingAttr, NvmmaSharedEncodingAttr>(
              load.getSrc().getType().getEncoding()))
        return std::nullopt;
      chain.load = load;
      break;
    }
    if (def->getNumOperands() != 1 || def->getNumResults() != 1 ||
        !def->hasTrait<OpTrait::Elementwise>() || !isMemoryEffectFree(def) ||
        def->getNumRegions() != 0)
      return std::nullopt;
    chain.casts.insert(chain.casts.begin(), def);
    value = def->getOperand(0);
  }
  return chain;
}

/// Whether every op between `first` and `dot` (in their block) that is not
/// part of the operand chains reads memory at most: the slices, read at
/// the dot, then see what the whole loads saw.
bool noWritesBefore(Operation *first, tt::DotOp dot,
                    const llvm::SmallPtrSetImpl<Operation *> &chains) {
  for (Operation *op = first; op && op != dot.getOperation();
       op = op->getNextNode()) {
    if (chains.contains(op) || isMemoryEffectFree(op))
      continue;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects || effects.hasEffect<MemoryEffects::Write>() ||
        effects.hasEffect<MemoryEffects::Allocate>() ||
        effects.hasEffect<MemoryEffects::Free>())
      return false;
  }
  return true;
}

/// Slice [k, k + width) of K of the operand `chain` produces (operand
/// `opIdx` of the dot), read from its tile and passed through its casts.
Value loadSlice(OpBuilder &builder, OperandChain chain, int opIdx,
                int64_t k, int64_t width) {
  Location loc = chain.load.getLoc();
  MemDescType tileType = chain.load.getSrc().getType();
  int64_t rank = tileType.getRank();
  int64_t kDim = opIdx == 0 ? rank - 1 : rank - 2;
  SmallVector<int64_t> shape(tileType.getShape());
  SmallVector<int32_t> offsets(rank, 0);
  shape[kDim] = width;
  offsets[kDim] = static_cast<int32_t>(k);
  auto sliceType = MemDescType::get(
      builder.getContext(), shape, tileType.getElementType(),
      tileType.getEncoding(), tileType.getMemorySpace(),
      tileType.getMutableMemory(), tileType.getAllocShape());
  Value view = MemDescSubsliceOp::create(builder, loc, sliceType,
                                         chain.load.getSrc(),
                                         builder.getDenseI32ArrayAttr(offsets));
  auto loadedType = cast<RankedTensorType>(chain.load.getType());
  Value value = LocalLoadOp::create(builder, loc, loadedType.clone(shape), view,
                                    chain.load.getToken());
  for (Operation *castOp : chain.casts) {
    auto resultType = cast<RankedTensorType>(castOp->getResult(0).getType());
    OperationState state(castOp->getLoc(), castOp->getName().getStringRef(),
                         ValueRange{value}, TypeRange{resultType.clone(shape)},
                         castOp->getAttrs());
    value = builder.create(state)->getResult(0);
  }
  return value;
}

/// 32-bit registers a thread needs to hold its part of `value`.
int64_t registersPerThread(Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  auto encoding = dyn_cast<DistributedEncodingAttr>(type.getEncoding());
  if (!encoding)
    return 0;
  int64_t bits = encoding.getElemsPerThread(type.getShape()) *
                 type.getElementType().getIntOrFloatBitWidth();
  return llvm::divideCeil(bits, 32);
}

/// Rewrites `dot` as a chain of dots over K slices, if it qualifies.
void sliceDot(tt::DotOp dot, int64_t minOperandRegisters) {
  auto accType = cast<RankedTensorType>(dot.getType());
  if (!isa<BlockedEncodingAttr>(accType.getEncoding()))
    return;
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  int64_t k = aType.getShape().back();
  if (k <= kSliceWidth || k % kSliceWidth != 0)
    return;
  if (registersPerThread(dot.getA()) + registersPerThread(dot.getB()) <
      minOperandRegisters)
    return;
  std::optional<OperandChain> a = matchOperand(dot, dot.getA());
  std::optional<OperandChain> b = matchOperand(dot, dot.getB());
  if (!a || !b || a->load == b->load)
    return;
  llvm::SmallPtrSet<Operation *, 8> chains;
  for (const OperandChain *chain : {&*a, &*b}) {
    chains.insert(chain->load);
    chains.insert(chain->casts.begin(), chain->casts.end());
  }
  Operation *first =
      a->load->isBeforeInBlock(b->load) ? a->load.getOperation() : b->load;
  if (!noWritesBefore(first, dot, chains))
    return;

  IRRewriter rewriter(dot.getContext());
  rewriter.setInsertionPoint(dot);
  Value acc = dot.getC();
  for (int64_t start = 0; start < k; start += kSliceWidth) {
    Value sliceA = loadSlice(rewriter, *a, 0, start, kSliceWidth);
    Value sliceB = loadSlice(rewriter, *b, 1, start, kSliceWidth);
    acc = tt::DotOp::create(rewriter, dot.getLoc(), accType, sliceA, sliceB,
                            acc, dot.getInputPrecision(),
                            dot.getMaxNumImpreciseAcc())
              .getResult();
  }
  rewriter.replaceOp(dot, acc);
  for (const OperandChain *chain : {&*a, &*b}) {
    for (Operation *castOp : llvm::reverse(chain->casts))
      rewriter.eraseOp(castOp);
    rewriter.eraseOp(chain->load);
  }
}

} // namespace

void ttg::sliceCudaCoreDots(ModuleOp module, int64_t minOperandRegisters) {
  SmallVector<tt::DotOp> dots;
  module.walk([&](tt::DotOp dot) { dots.push_back(dot); });
  for (tt::DotOp dot : dots)
    sliceDot(dot, minOperandRegisters);
}

namespace {
struct TTGSliceCudaCoreDotsPass
    : public ttg::impl::TTGSliceCudaCoreDotsPassBase<TTGSliceCudaCoreDotsPass> {
  using TTGSliceCudaCoreDotsPassBase::TTGSliceCudaCoreDotsPassBase;
  void runOnOperation() override {
    ttg::sliceCudaCoreDots(getOperation(), minOperandRegisters);
  }
};
} // namespace
