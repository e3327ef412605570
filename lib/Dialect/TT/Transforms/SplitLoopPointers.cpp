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
// Algorithm, per scf.for (outermost first), per iteration argument `p` of
// a tensor-of-pointers type:
//   1. The initial value must come from one scalar pointer `s` through
//      tt.splat, tt.addptr (its pointer operand), tt.broadcast and
//      tt.expand_dims only, as the frontend builds `s + a[None, :] +
//      b[:, None]`.  Its offsets are gathered into one integer tensor `off`
//      of the tile's shape, made before the loop: broadcast and expanded as
//      the pointers were, added where two meet (in their type when they
//      agree, as tt-combine adds the offsets of two tt.addptr in a row;
//      else both sign-extended to i64).
//   2. The value yielded for `p` must be `tt.addptr(p, step)`, where step
//      is `tt.splat(x)` or a splat constant, with x loop-invariant: defined
//      above the loop, or computed in the body from such values by pure,
//      speculatable ops (as `ptrs += BLOCK * stride` writes it), which move
//      before the loop.
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
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>

namespace tritium::tt {
#define GEN_PASS_DEF_TTSPLITLOOPPOINTERSPASS
#include "tritium/Dialect/TT/Transforms/Passes.h.inc"
} // namespace tritium::tt

using namespace mlir;
using namespace tritium::tt;

namespace {

/// Whether `value` is defined outside `loop`'s region (where the loop or its
/// body uses such a value, it dominates the loop).
bool isAboveLoop(Value value, scf::ForOp loop) {
  return !loop.getRegion().isAncestor(value.getParentRegion());
}

/// Whether `value` is loop-invariant: defined above `loop`, or by a pure
/// (memory-effect free and speculatable: no division that may trap) op in
/// its body whose operands are; such ops move before the loop, where they
/// also run when the loop runs no turn.
bool hoistIfInvariant(Value value, scf::ForOp loop) {
  if (isAboveLoop(value, loop))
    return true;
  Operation *op = value.getDefiningOp();
  if (!op || op->getBlock() != loop.getBody() || op->getNumRegions() != 0 ||
      !isPure(op))
    return false;
  for (Value operand : op->getOperands())
    if (!hoistIfInvariant(operand, loop))
      return false;
  op->moveBefore(loop);
  return true;
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

/// A tensor of pointers as one scalar pointer plus integer offsets of the
/// tensor's shape (null offsets: all zero).
struct BaseAndOffsets {
  Value base;
  Value offsets;
};

/// The sum of two offset tensors of one shape: in their element type when
/// they agree, else both sign-extended to i64.
Value addOffsets(OpBuilder &builder, Location loc, Value a, Value b) {
  auto aType = cast<RankedTensorType>(a.getType());
  auto bType = cast<RankedTensorType>(b.getType());
  if (aType.getElementType() != bType.getElementType()) {
    auto wide = RankedTensorType::get(aType.getShape(), builder.getI64Type());
    if (!aType.getElementType().isInteger(64))
      a = arith::ExtSIOp::create(builder, loc, wide, a);
    if (!bType.getElementType().isInteger(64))
      b = arith::ExtSIOp::create(builder, loc, wide, b);
  }
  return arith::AddIOp::create(builder, loc, a, b);
}

/// `pointers` as a scalar base plus offsets, when it is built from one
/// scalar pointer by tt.splat, tt.addptr, tt.broadcast and tt.expand_dims;
/// the offsets are made at the builder's insertion point.
std::optional<BaseAndOffsets> decompose(Value pointers, OpBuilder &builder) {
  Operation *op = pointers.getDefiningOp();
  if (!op)
    return std::nullopt;
  Location loc = op->getLoc();
  if (auto splat = dyn_cast<SplatOp>(op)) {
    if (isa<RankedTensorType>(splat.getSrc().getType()))
      return std::nullopt;
    return BaseAndOffsets{splat.getSrc(), Value()};
  }
  if (auto add = dyn_cast<AddPtrOp>(op)) {
    if (!isa<RankedTensorType>(add.getOffset().getType()))
      return std::nullopt;
    std::optional<BaseAndOffsets> inner = decompose(add.getPtr(), builder);
    if (!inner)
      return std::nullopt;
    Value offsets = inner->offsets
                        ? addOffsets(builder, loc, inner->offsets,
                                     add.getOffset())
                        : add.getOffset();
    return BaseAndOffsets{inner->base, offsets};
  }
  if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
    std::optional<BaseAndOffsets> inner =
        decompose(broadcast.getSrc(), builder);
    if (!inner || !inner->offsets)
      return inner;
    auto type = cast<RankedTensorType>(inner->offsets.getType());
    auto shape = cast<RankedTensorType>(broadcast.getType()).getShape();
    inner->offsets = BroadcastOp::create(
        builder, loc, RankedTensorType::get(shape, type.getElementType()),
        inner->offsets);
    return inner;
  }
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    std::optional<BaseAndOffsets> inner = decompose(expand.getSrc(), builder);
    if (!inner || !inner->offsets)
      return inner;
    auto type = cast<RankedTensorType>(inner->offsets.getType());
    auto shape = cast<RankedTensorType>(expand.getType()).getShape();
    inner->offsets = ExpandDimsOp::create(
        builder, loc, RankedTensorType::get(shape, type.getElementType()),
        inner->offsets, expand.getAxis());
    return inner;
  }
  return std::nullopt;
}

/// Replaces every use of the scalar pointer `base`, whose type was the
/// tensor `type`, with `tt.addptr(tt.splat(base), offsets)` (the splat alone
/// when there are no offsets) made at the insertion point.
void rebuildUses(OpBuilder &builder, Location loc, RankedTensorType type,
                 Value base, Value offsets) {
  auto splat = SplatOp::create(builder, loc, type, base);
  Value rebuilt = splat;
  if (offsets)
    rebuilt = AddPtrOp::create(builder, loc, type, splat, offsets);
  base.replaceAllUsesExcept(rebuilt, splat);
}

/// Rewrites iteration argument `index` of `loop` as described above, if it
/// matches; returns whether it did.
bool splitArgument(scf::ForOp loop, unsigned index, OpBuilder &builder) {
  BlockArgument arg = loop.getRegionIterArg(index);
  auto tensorType = dyn_cast<RankedTensorType>(arg.getType());
  if (!tensorType || !isa<PointerType>(tensorType.getElementType()))
    return false;

  // The yield advances the argument by a loop-invariant step.
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  auto advance = yield.getOperand(index).getDefiningOp<AddPtrOp>();
  if (!advance || advance.getPtr() != arg)
    return false;
  Value step = splatScalar(advance.getOffset(), loop, builder);
  if (!step || !hoistIfInvariant(step, loop))
    return false;
  // The initial value is s + off.
  builder.setInsertionPoint(loop);
  std::optional<BaseAndOffsets> init =
      decompose(loop.getInitArgs()[index], builder);
  if (!init || init->base.getType() != tensorType.getElementType())
    return false;
  Value base = init->base;
  Value offsets = init->offsets;

  // Carry the scalar base.
  Type scalarType = base.getType();
  Location loc = arg.getLoc();
  loop.getInitArgsMutable()[index].assign(base);
  arg.setType(scalarType);

  builder.setInsertionPointToStart(loop.getBody());
  rebuildUses(builder, loc, tensorType, arg, offsets);

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
    rebuildUses(builder, loc, tensorType, result, offsets);
  }
  return true;
}

} // namespace

void tritium::tt::splitLoopPointers(Operation *root) {
  SmallVector<scf::ForOp> loops;
  // Outer loops first: an inner loop's pointers are often built from the
  // outer loop's, which must be a scalar base plus offsets by then.
  root->walk<WalkOrder::PreOrder>(
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
