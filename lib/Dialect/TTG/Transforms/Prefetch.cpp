//===- Prefetch.cpp - ttg-prefetch -----------------------------------------===//
//
// In a pipelined loop on mma.sync, every iteration reads its whole A and B
// tiles from shared memory (ldmatrix) and only then starts multiplying.
// This pass splits each such dot along K into instruction-wide slices
// (16 of K) and reads each slice just before the MMAs that use it, so that
// the ldmatrix of slice s + 1 overlaps the MMAs of slice s; the first
// slice of the next iteration is read at the end of the current one and
// carried in registers (the seeds' prefetch).
//
// Algorithm, for every tt.dot with a version-2 mma accumulator in the body
// of an scf.for that ttg-pipeline made (it has a ttg.async_wait), whose A
// and B are ttg.local_loads, used by the dot only, of 16-bit #ttg.dot_op
// (kWidth 2) tiles from ring slots `ttg.memdesc_index %ring[%slot]` with
// %ring defined outside the loop and %slot a carried value, and whose K
// is a multiple of 16:
//   1. Before the loop: the loop's wait (ttg.async_wait with its count:
//      the first iteration's copies have landed), then slice 0 of A and B
//      of the initial slot (ttg.memdesc_subslice + ttg.local_load).
//   2. The loop carries the two slices; at the end of the body (after the
//      iteration's copies were issued) the same wait, then slice 0 of the
//      next iteration's slot (the value the loop yields for %slot).
//   3. In the body the dot becomes a chain of dots over the slices, slice
//      0 from the carried registers, slice s >= 1 loaded from the slot.
// The next iteration's wait at the top of the body stays (it is already
// satisfied).  Other dots, and loops that were not pipelined, are left
// alone.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"

namespace tritium::ttg {
#define GEN_PASS_DEF_TTGPREFETCHPASS
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"
} // namespace tritium::ttg

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

namespace {

constexpr int64_t kSliceK = 16; // one m16n8k16 instruction of K

/// One operand of a dot the pass applies to.
struct OperandSource {
  LocalLoadOp load;    // the whole tile, in the loop
  MemDescIndexOp view; // %ring[%slot]
  unsigned slotArg;    // the loop's iteration-argument index of %slot
};

/// The operand `value` of a dot in `loop`, if it qualifies.
std::optional<OperandSource> matchOperand(scf::ForOp loop, Value value) {
  auto load = value.getDefiningOp<LocalLoadOp>();
  if (!load || load->getBlock() != loop.getBody() || !load->hasOneUse())
    return std::nullopt;
  auto type = cast<RankedTensorType>(load.getType());
  auto dot = dyn_cast<DotOperandEncodingAttr>(type.getEncoding());
  if (!dot || dot.getKWidth() != 2 || type.getElementTypeBitWidth() != 16 ||
      type.getRank() != 2)
    return std::nullopt;
  auto view = load.getSrc().getDefiningOp<MemDescIndexOp>();
  if (!view || view->getBlock() != loop.getBody() ||
      !isa<NvmmaSharedEncodingAttr>(view.getType().getEncoding()) ||
      !loop.isDefinedOutsideOfLoop(view.getSrc()))
    return std::nullopt;
  auto slot = dyn_cast<BlockArgument>(view.getIndex());
  if (!slot || slot.getOwner() != loop.getBody() || slot.getArgNumber() == 0)
    return std::nullopt;
  return OperandSource{load, view, slot.getArgNumber() - 1};
}

/// The K slice [k, k + 16) of operand `opIdx` from the tile `view`, loaded
/// into the dot_op layout of `type`.
Value loadSlice(OpBuilder &builder, Location loc, Value view,
                RankedTensorType type, int opIdx, int64_t k) {
  auto viewType = cast<MemDescType>(view.getType());
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<int32_t> offsets = {0, 0};
  shape[opIdx == 0 ? 1 : 0] = kSliceK;
  offsets[opIdx == 0 ? 1 : 0] = static_cast<int32_t>(k);
  auto sliceType = MemDescType::get(
      builder.getContext(), shape, viewType.getElementType(),
      viewType.getEncoding(), viewType.getMemorySpace(),
      viewType.getMutableMemory(), viewType.getAllocShape());
  Value slice = MemDescSubsliceOp::create(builder, loc, sliceType, view,
                                          builder.getDenseI32ArrayAttr(offsets));
  return LocalLoadOp::create(builder, loc,
                             RankedTensorType::get(shape, type.getElementType(),
                                                   type.getEncoding()),
                             slice, Value());
}

/// `view` (a memdesc_index) rebuilt on `slot`.
Value viewAt(OpBuilder &builder, MemDescIndexOp view, Value slot) {
  return MemDescIndexOp::create(builder, view.getLoc(), view.getType(),
                                view.getSrc(), slot);
}

/// Prefetches the operands of `dot` in `loop`; returns the new loop.
scf::ForOp prefetch(scf::ForOp loop, tt::DotOp dot, AsyncWaitOp wait,
                    OperandSource a, OperandSource b) {
  IRRewriter rewriter(loop.getContext());
  Location loc = dot.getLoc();
  auto aType = cast<RankedTensorType>(a.load.getType());
  auto bType = cast<RankedTensorType>(b.load.getType());

  // 1. The first iteration's slice 0, before the loop.
  rewriter.setInsertionPoint(loop);
  rewriter.clone(*wait);
  Value a0 = loadSlice(rewriter, loc,
                       viewAt(rewriter, a.view, loop.getInitArgs()[a.slotArg]),
                       aType, 0, 0);
  Value b0 = loadSlice(rewriter, loc,
                       viewAt(rewriter, b.view, loop.getInitArgs()[b.slotArg]),
                       bType, 1, 0);

  // 2. The next iteration's slice 0, at the end of the body, carried.
  auto yieldNext = [&](OpBuilder &builder, Location yieldLoc,
                       ArrayRef<BlockArgument>) -> SmallVector<Value> {
    // Called with the body already in the new loop, before its yield.
    auto yield = cast<scf::YieldOp>(builder.getInsertionBlock()->getTerminator());
    builder.clone(*wait);
    Value nextA = loadSlice(builder, yieldLoc,
                            viewAt(builder, a.view, yield.getOperand(a.slotArg)),
                            aType, 0, 0);
    Value nextB = loadSlice(builder, yieldLoc,
                            viewAt(builder, b.view, yield.getOperand(b.slotArg)),
                            bType, 1, 0);
    return {nextA, nextB};
  };
  FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
      rewriter, ValueRange{a0, b0}, /*replaceInitOperandUsesInLoop=*/false,
      yieldNext);
  if (failed(replaced))
    return loop;
  auto newLoop = cast<scf::ForOp>(replaced->getOperation());
  unsigned carriedA = newLoop.getNumRegionIterArgs() - 2;
  Value sliceA0 = newLoop.getRegionIterArgs()[carriedA];
  Value sliceB0 = newLoop.getRegionIterArgs()[carriedA + 1];

  // 3. The dot as a chain over the K slices.
  rewriter.setInsertionPoint(dot);
  int64_t k = aType.getDimSize(1);
  Value acc = dot.getC();
  for (int64_t start = 0; start < k; start += kSliceK) {
    Value sliceA = start == 0 ? sliceA0
                              : loadSlice(rewriter, loc, a.view, aType, 0, start);
    Value sliceB = start == 0 ? sliceB0
                              : loadSlice(rewriter, loc, b.view, bType, 1, start);
    acc = tt::DotOp::create(rewriter, loc, dot.getType(), sliceA, sliceB, acc,
                            dot.getInputPrecision(), dot.getMaxNumImpreciseAcc())
              .getResult();
  }
  rewriter.replaceOp(dot, acc);
  rewriter.eraseOp(a.load);
  if (b.load != a.load)
    rewriter.eraseOp(b.load);
  return newLoop;
}

} // namespace

void ttg::prefetchDotOperands(ModuleOp module) {
  SmallVector<scf::ForOp> loops;
  module.walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops) {
    AsyncWaitOp wait;
    for (Operation &op : loop.getBody()->without_terminator())
      if ((wait = dyn_cast<AsyncWaitOp>(&op)))
        break;
    if (!wait)
      continue; // not a pipelined loop
    SmallVector<tt::DotOp> dots;
    for (Operation &op : loop.getBody()->without_terminator())
      if (auto dot = dyn_cast<tt::DotOp>(&op))
        dots.push_back(dot);
    for (tt::DotOp dot : dots) {
      auto mma = dyn_cast<NvidiaMmaEncodingAttr>(
          cast<RankedTensorType>(dot.getType()).getEncoding());
      if (!mma || !mma.isAmpere() ||
          cast<RankedTensorType>(dot.getA().getType()).getDimSize(1) %
                  kSliceK != 0)
        continue;
      std::optional<OperandSource> a = matchOperand(loop, dot.getA());
      std::optional<OperandSource> b = matchOperand(loop, dot.getB());
      if (!a || !b)
        continue;
      loop = prefetch(loop, dot, wait, *a, *b);
      break; // one dot per loop: the loop was rebuilt
    }
  }
}

namespace {
struct TTGPrefetchPass
    : public ttg::impl::TTGPrefetchPassBase<TTGPrefetchPass> {
  void runOnOperation() override { ttg::prefetchDotOperands(getOperation()); }
};
} // namespace
