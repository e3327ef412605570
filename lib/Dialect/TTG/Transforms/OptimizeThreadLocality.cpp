//===- OptimizeThreadLocality.cpp - ttg-optimize-thread-locality ----------===//
//
// A loop that folds a reduction of each iteration's loaded tile into a
// carried value,
//
//   %r = scf.for ... iter_args(%acc = %init) {
//     %x = tt.load ...                          : tensor<MxN, #blocked>
//     %s = "tt.reduce"(%x) <{axis = 1}> (addf)   : -> tensor<M>
//     %a = arith.addf %acc, %s                  : tensor<M>
//     scf.yield %a
//   }
//
// reduces across threads (shuffles, shared memory) every iteration,
// although only the final value needs the threads combined.  This pass
// keeps a partial per thread instead and combines the threads once, after
// the loop:
//
//   %p = scf.for ... iter_args(%part = neutral : tensor<MxH, slice>) {
//     %v = tt.reshape %x allow_reorder efficient_layout
//                                               : -> tensor<MxHxE, #blocked3d>
//     %t = "tt.reduce"(%v) <{axis = 2}> (addf)   : -> tensor<MxH> (in-thread)
//     %q = arith.addf %part, %t
//     scf.yield %q
//   }
//   %s = "tt.reduce"(%p) <{axis = 1}> (addf)     : -> tensor<M>   (once)
//   %r = arith.addf %init, convert(%s)
//
// E is the number of elements one thread holds along the reduced axis and
// H = N / E the threads (lanes times warps) along it.  #blocked3d is
// #blocked with the axis split in two: H spread over the same lanes and
// warps as the axis was, one element each, and the new innermost dimension
// E held entirely in registers.  The reshape may reorder elements along the
// axis (the combine is associative and commutative); each thread keeps its
// registers, and the pass checks with the linear layouts that every
// register, lane and warp holds the same rows (all other coordinates)
// before and after, so no value moves to another row.
//
// Rewritten: a single-operand tt.reduce over the innermost axis (rank >= 2)
// of a tt.load in a #ttg.blocked layout without broadcasting, whose
// combine is one addf, mulf, maximumf, maxnumf, minimumf or minnumf, with
// E > 1, in the body of an scf.for, whose one user is the same operation
// folding it into an iteration argument started from an arith.constant
// (not NaN for maxnum/minnum), used only there and yielded.  (Triton's pass
// of the same name, with the additional checks that the fold is the
// reduction's own operation and that an empty loop still returns its
// start.)
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Layout/LinearLayout.h"

namespace tritium::ttg {
#define GEN_PASS_DEF_TTGOPTIMIZETHREADLOCALITYPASS
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"
} // namespace tritium::ttg

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

namespace {

/// The one operation of a reduction's combine region, applied to its two
/// arguments and returned, or null.
Operation *combineOp(tt::ReduceOp reduce) {
  Block &block = reduce.getCombineOp().front();
  if (!llvm::hasSingleElement(block.without_terminator()) ||
      block.getNumArguments() != 2)
    return nullptr;
  Operation *op = &block.front();
  if (!isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp, arith::MaxNumFOp,
           arith::MinimumFOp, arith::MinNumFOp>(op))
    return nullptr;
  Value a = block.getArgument(0), b = block.getArgument(1);
  bool onArguments = (op->getOperand(0) == a && op->getOperand(1) == b) ||
                     (op->getOperand(0) == b && op->getOperand(1) == a);
  Operation *terminator = block.getTerminator();
  if (!onArguments || terminator->getNumOperands() != 1 ||
      terminator->getOperand(0) != op->getResult(0))
    return nullptr;
  return op;
}

/// The value x with x (op) y == y for the combine `op`.
TypedAttr neutralElement(Operation *op, Type elementType) {
  auto floatType = cast<FloatType>(elementType);
  const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
  auto value = [&](const APFloat &v) { return FloatAttr::get(floatType, v); };
  if (isa<arith::AddFOp>(op))
    return value(APFloat::getZero(semantics, /*Negative=*/true));
  if (isa<arith::MulFOp>(op))
    return value(APFloat::getOne(semantics));
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(op))
    return value(APFloat::getInf(semantics, /*Negative=*/true));
  return value(APFloat::getInf(semantics, /*Negative=*/false));
}

/// One reduction the pass rewrites, and what it found around it.
struct Candidate {
  tt::ReduceOp reduce;
  Operation *fold;       // combine(iteration argument, reduction)
  scf::ForOp loop;
  unsigned argIndex;     // of the iteration argument among the loop's
  unsigned accOperand;   // the fold's operand that is the argument
  BlockedEncodingAttr blocked3d;
  SmallVector<int64_t> shape3d;
};

/// The layout of the reshaped tile (see the file comment), when the
/// register-keeping reshape keeps every value in its row.
std::optional<std::pair<BlockedEncodingAttr, SmallVector<int64_t>>>
splitAxisLayout(RankedTensorType type) {
  auto blocked = dyn_cast<BlockedEncodingAttr>(type.getEncoding());
  int64_t rank = type.getRank();
  if (!blocked || rank < 2)
    return std::nullopt;
  unsigned axis = rank - 1;
  ArrayRef<int64_t> shape = type.getShape();
  for (int64_t d = 0; d < rank; ++d) {
    int64_t covered = int64_t(blocked.getSizePerThread()[d]) *
                      blocked.getThreadsPerWarp()[d] *
                      blocked.getWarpsPerCTA()[d];
    if (shape[d] % covered != 0)
      return std::nullopt; // broadcasting
  }
  int64_t threads =
      int64_t(blocked.getThreadsPerWarp()[axis]) * blocked.getWarpsPerCTA()[axis];
  int64_t perThread = shape[axis] / threads;
  if (perThread <= 1)
    return std::nullopt;

  SmallVector<unsigned> sizePerThread(blocked.getSizePerThread());
  unsigned vector = sizePerThread[axis];
  sizePerThread[axis] = 1;
  sizePerThread.push_back(vector);
  SmallVector<unsigned> threadsPerWarp(blocked.getThreadsPerWarp());
  threadsPerWarp.push_back(1);
  SmallVector<unsigned> warpsPerCTA(blocked.getWarpsPerCTA());
  warpsPerCTA.push_back(1);
  SmallVector<unsigned> order = {static_cast<unsigned>(rank)};
  order.append(blocked.getOrder().begin(), blocked.getOrder().end());
  auto blocked3d = BlockedEncodingAttr::get(type.getContext(), sizePerThread,
                                            threadsPerWarp, warpsPerCTA, order);
  SmallVector<int64_t> shape3d(shape);
  shape3d[axis] = threads;
  shape3d.push_back(perThread);

  // Every register, lane and warp holds the same rows before and after.
  layout::LinearLayout before = blocked.toLinearLayout(shape);
  layout::LinearLayout after = blocked3d.toLinearLayout(shape3d);
  for (layout::HwDim hw :
       {layout::HwDim::Register, layout::HwDim::Lane, layout::HwDim::Warp}) {
    if (before.numBases(hw) != after.numBases(hw))
      return std::nullopt;
    for (auto [b, a] : llvm::zip(before.bases(hw), after.bases(hw))) {
      if (!std::equal(b.begin(), b.begin() + axis, a.begin()))
        return std::nullopt;
      if (hw != layout::HwDim::Register && a.back() != 0)
        return std::nullopt; // the new dimension must stay in registers
    }
  }
  return std::make_pair(blocked3d, shape3d);
}

std::optional<Candidate> match(tt::ReduceOp reduce) {
  if (reduce.getSrcs().size() != 1 || !reduce->hasOneUse())
    return std::nullopt;
  auto type = cast<RankedTensorType>(reduce.getSrcs()[0].getType());
  if (reduce.getAxis() != type.getRank() - 1 ||
      !reduce.getSrcs()[0].getDefiningOp<tt::LoadOp>())
    return std::nullopt;
  Operation *combine = combineOp(reduce);
  if (!combine)
    return std::nullopt;
  auto loop = dyn_cast<scf::ForOp>(reduce->getParentOp());
  if (!loop)
    return std::nullopt;
  // The fold: the combine's own operation on the iteration argument and
  // the reduction, yielded and used nowhere else.
  Operation *fold = *reduce->getUsers().begin();
  if (fold->getName() != combine->getName() ||
      fold->getAttrDictionary() != combine->getAttrDictionary() ||
      fold->getPropertiesAsAttribute() != combine->getPropertiesAsAttribute() ||
      fold->getNumOperands() != 2 || !fold->hasOneUse() ||
      fold->getBlock() != reduce->getBlock())
    return std::nullopt;
  unsigned accOperand = fold->getOperand(0) == reduce.getResult()[0] ? 1 : 0;
  auto arg = dyn_cast<BlockArgument>(fold->getOperand(accOperand));
  OpOperand &yielded = *fold->getUses().begin();
  if (!arg || arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0 ||
      !arg.hasOneUse() || !isa<scf::YieldOp>(yielded.getOwner()) ||
      yielded.getOperandNumber() != arg.getArgNumber() - 1)
    return std::nullopt;
  unsigned argIndex = arg.getArgNumber() - 1;
  auto init = loop.getInitArgs()[argIndex].getDefiningOp<arith::ConstantOp>();
  if (!init)
    return std::nullopt;
  // maxnum/minnum skip a NaN: a NaN start folded with the neutral -inf/+inf
  // of an empty loop's partials would not stay NaN.
  if (isa<arith::MaxNumFOp, arith::MinNumFOp>(combine)) {
    auto values = dyn_cast<DenseFPElementsAttr>(init.getValue());
    if (!values || llvm::any_of(values.getValues<APFloat>(),
                                [](const APFloat &v) { return v.isNaN(); }))
      return std::nullopt;
  }
  auto split = splitAxisLayout(type);
  if (!split)
    return std::nullopt;
  return Candidate{reduce,   fold,         loop, argIndex,
                   accOperand, split->first, split->second};
}

/// A copy of `reduce` over `operand` along `axis` whose results take the
/// slice of the operand's layout.
Value reduceAlong(OpBuilder &builder, tt::ReduceOp reduce, Value operand,
                  int64_t axis) {
  auto type = cast<RankedTensorType>(operand.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape.erase(shape.begin() + axis);
  auto slice = SliceEncodingAttr::get(builder.getContext(), axis,
                                      type.getEncoding());
  OperationState state(reduce.getLoc(), reduce->getName());
  state.addOperands(operand);
  state.addTypes(RankedTensorType::get(shape, type.getElementType(), slice));
  state.addAttributes(reduce->getAttrs());
  state.attributes.set("axis", builder.getI32IntegerAttr(axis));
  IRMapping mapping;
  reduce->getRegion(0).cloneInto(state.addRegion(), mapping);
  return builder.create(state)->getResult(0);
}

/// The fold `like` applied to (accumulated, value), in its operand order.
Value foldLike(OpBuilder &builder, Operation *like, unsigned accOperand,
               Value accumulated, Value value) {
  IRMapping mapping;
  mapping.map(like->getOperand(accOperand), accumulated);
  mapping.map(like->getOperand(1 - accOperand), value);
  Operation *copy = builder.clone(*like, mapping);
  copy->getResult(0).setType(accumulated.getType());
  return copy->getResult(0);
}

void rewrite(Candidate c) {
  IRRewriter rewriter(c.loop.getContext());
  Location loc = c.reduce.getLoc();
  Value tile = c.reduce.getSrcs()[0];
  auto tileType = cast<RankedTensorType>(tile.getType());
  Type element = tileType.getElementType();
  int64_t rank = tileType.getRank();
  auto type3d = RankedTensorType::get(c.shape3d, element, c.blocked3d);
  SmallVector<int64_t> partialShape(c.shape3d.begin(), c.shape3d.end() - 1);
  auto partialType = RankedTensorType::get(
      partialShape, element,
      SliceEncodingAttr::get(c.loop.getContext(), rank, c.blocked3d));

  // The partials start from the combine's neutral element.
  rewriter.setInsertionPoint(c.loop);
  Value neutral = arith::ConstantOp::create(
      rewriter, loc, partialType,
      DenseElementsAttr::get(partialType,
                             neutralElement(combineOp(c.reduce), element)));

  // In the loop: the in-thread reduction folded into the partials.
  auto yieldPartials = [&](OpBuilder &builder, Location,
                           ArrayRef<BlockArgument> args) -> SmallVector<Value> {
    builder.setInsertionPointAfter(c.reduce);
    auto reshaped = tt::ReshapeOp::create(builder, loc, type3d, tile,
                                          /*allow_reorder=*/true,
                                          /*efficient_layout=*/true);
    Value inThread = reduceAlong(builder, c.reduce, reshaped, rank);
    return {foldLike(builder, c.fold, c.accOperand, args.front(), inThread)};
  };
  FailureOr<LoopLikeOpInterface> replaced = c.loop.replaceWithAdditionalYields(
      rewriter, ValueRange{neutral}, /*replaceInitOperandUsesInLoop=*/false,
      yieldPartials);
  if (failed(replaced))
    return;
  auto loop = cast<scf::ForOp>(replaced->getOperation());

  // After the loop: the threads combined once, then the initial value.
  rewriter.setInsertionPointAfter(loop);
  Value partials = loop.getResults().back();
  Value combined = reduceAlong(rewriter, c.reduce, partials, rank - 1);
  Value result = loop.getResult(c.argIndex);
  Value converted =
      ConvertLayoutOp::create(rewriter, loc, result.getType(), combined);
  Value final = foldLike(rewriter, c.fold, c.accOperand,
                         loop.getInitArgs()[c.argIndex], converted);
  rewriter.replaceAllUsesExcept(result, final, final.getDefiningOp());

  // The old accumulator now passes through unchanged (canonicalize drops
  // it); the old reduction and fold go.
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  yield.setOperand(c.argIndex, loop.getRegionIterArgs()[c.argIndex]);
  rewriter.eraseOp(c.fold);
  rewriter.eraseOp(c.reduce);
}

struct OptimizeThreadLocalityPass
    : public ttg::impl::TTGOptimizeThreadLocalityPassBase<
          OptimizeThreadLocalityPass> {
  void runOnOperation() override {
    SmallVector<Candidate> candidates;
    getOperation().walk([&](tt::ReduceOp reduce) {
      if (auto c = match(reduce))
        candidates.push_back(*c);
    });
    // One rewrite per loop at a time: each replaces its loop.
    llvm::SmallPtrSet<Operation *, 4> loops;
    for (Candidate &c : candidates)
      if (loops.insert(c.loop).second)
        rewrite(c);
  }
};

} // namespace
