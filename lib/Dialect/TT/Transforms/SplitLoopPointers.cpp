//===- SplitLoopPointers.cpp - tt-split-loop-pointers ----------------------===//
//
// A loop that walks a tile through memory usually carries the tile's
// pointers, `ptrs = base + offsets` before it and `ptrs += step` at the end
// of each turn, with the same step for every element.  Carried that way,
// every element's 64-bit address is a value of its own that lives across
// the whole loop; two tiles at the same offsets from different bases (K and
// V, Q and dO) carry twice the addresses.  This pass carries the scalar
// base instead and rebuilds the tile's pointers at the top of each turn
// from the base and the offsets, which are loop-invariant and, where two
// tiles share them, one value.
//
// Algorithm, per scf.for (innermost first), per iteration argument `p` of
// a tensor-of-pointers type:
//   1. The initial value must be `tt.addptr(tt.splat(s), off)`, s a scalar
//      pointer and `off` an integer tensor, both defined above the loop.
//   2. The value yielded for `p` must be `tt.addptr(p, step)`, where step
//      is `tt.splat(x)` or a splat constant, with x defined above the loop.
//   3. Then the argument, its initial value and the loop result become
//      scalars: init `s`, yield `tt.addptr(b, x)` (b: the new argument);
//      at the top of the body `tt.addptr(tt.splat(b), off)` replaces every
//      use of the old argument (the old tensor increment stays where other
//      uses need it, else it is dead), and after the loop
//      `tt.addptr(tt.splat(result), off)` replaces the result's uses.
// Element j before the rewrite is s + off_j + k * x after k turns (64-bit
// pointer arithmetic, offsets sign-extended, both forms alike); after it,
// (s + k * x) + off_j: the same address in two's complement.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TT/Transforms/Passes.h"
#include "tritium/Dialect/TT/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

namespace tritium::tt {
#define GEN_PASS_DEF_TTSPLITLOOPPOINTERSPASS
#include "tritium/Dialect/TT/Transforms/Passes.h.inc"
} // namespace tritium::tt

using namespace mlir;
using namespace tritium::tt;

namespace {

/// Whether `value` is defined outside `loop`'s body (an operand of the loop
/// or of its body defined there dominates the loop).
bool isAboveLoop(Value value, scf::ForOp loop) {
  return !loop.getRegion().isAncestor(value.getParentRegion());
}

/// The scalar every element of `tensor` equals, when it is a tt.splat or a
/// splat integer constant (materialized as a scalar constant before
/// `loop`); null otherwise.
Value splatScalar(Value tensor, scf::ForOp loop, OpBuilder &builder) {
  if (auto splat = tensor.getDefiningOp<SplatOp>())
    return splat.getSrc();
  SplatElementsAttr constant;
  if (!matchPattern(tensor, m_Constant(&constant)))
    return {};
  auto element = dyn_cast<IntegerAttr>(constant.getSplatValue<Attribute>());
  if (!element)
    return {};
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop);
  return arith::ConstantOp::create(builder, tensor.getLoc(), element);
}

/// Rewrites iteration argument `index` of `loop` as described above, if it
/// matches; returns whether it did.
bool splitArgument(scf::ForOp loop, unsigned index, OpBuilder &builder) {
  BlockArgument arg = loop.getRegionIterArg(index);
  auto tensorType = dyn_cast<RankedTensorType>(arg.getType());
  if (!tensorType || !isa<PointerType>(tensorType.getElementType()))
    return false;

  // 1. init = addptr(splat(s), off), both from above the loop.
  auto init = loop.getInitArgs()[index].getDefiningOp<AddPtrOp>();
  if (!init)
    return false;
  auto initSplat = init.getPtr().getDefiningOp<SplatOp>();
  if (!initSplat)
    return false;
  Value base = initSplat.getSrc();
  Value offsets = init.getOffset();
  if (base.getType() != tensorType.getElementType() ||
      !isAboveLoop(base, loop) || !isAboveLoop(offsets, loop))
    return false;

  // 2. yield = addptr(arg, step), step a splat of a loop-invariant scalar.
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  auto advance = yield.getOperand(index).getDefiningOp<AddPtrOp>();
  if (!advance || advance.getPtr() != arg)
    return false;
  Value step = splatScalar(advance.getOffset(), loop, builder);
  if (!step || !isAboveLoop(step, loop))
    return false;

  // 3. Carry the scalar base.
  Type scalarType = base.getType();
  Location loc = arg.getLoc();
  loop.getInitArgsMutable()[index].assign(base);
  arg.setType(scalarType);

  builder.setInsertionPointToStart(loop.getBody());
  Value splatInBody = SplatOp::create(builder, loc, tensorType, arg);
  auto rebuilt = AddPtrOp::create(builder, loc, tensorType, splatInBody,
                                  offsets);
  arg.replaceAllUsesExcept(rebuilt.getResult(),
                           splatInBody.getDefiningOp());

  builder.setInsertionPoint(yield);
  Value next = AddPtrOp::create(builder, advance.getLoc(), scalarType,
                                arg, step);
  yield.setOperand(index, next);
  if (advance->use_empty())
    advance->erase();

  OpResult result = loop->getResult(index);
  result.setType(scalarType);
  if (!result.use_empty()) {
    builder.setInsertionPointAfter(loop);
    Value splatAfter = SplatOp::create(builder, loc, tensorType, result);
    auto after = AddPtrOp::create(builder, loc, tensorType, splatAfter,
                                  offsets);
    result.replaceAllUsesExcept(after.getResult(),
                                splatAfter.getDefiningOp());
  }
  return true;
}

} // namespace

void tritium::tt::splitLoopPointers(Operation *root) {
  SmallVector<scf::ForOp> loops;
  root->walk<WalkOrder::PostOrder>(
      [&](scf::ForOp loop) { loops.push_back(loop); });
  OpBuilder builder(root->getContext());
  for (scf::ForOp loop : loops)
    for (unsigned i = 0, e = loop.getNumRegionIterArgs(); i < e; ++i)
      splitArgument(loop, i, builder);
}

namespace {
struct TTSplitLoopPointersPass
    : public tritium::tt::impl::TTSplitLoopPointersPassBase<
          TTSplitLoopPointersPass> {
  void runOnOperation() override { splitLoopPointers(getOperation()); }
};
} // namespace
