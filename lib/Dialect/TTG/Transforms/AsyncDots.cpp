//===- AsyncDots.cpp - asynchronous wgmma in pipelined loops ---------------===//
//
// The last step of ttg-pipeline (Pipeline.cpp): in the loop it rebuilt,
// warpgroup dots whose result only the next iteration reads are issued
// asynchronously ({isAsync}), with ttg.warp_group_dot_wait placed so that
// their MMAs overlap the rest of the loop:
//   * a dot accumulating in place into a carried value read by nothing
//     else waits for the previous iteration's dot right after it is issued
//     ({pendings = 1}); the last of several such dots waits at the end of
//     its own iteration instead ({pendings = 0} before the yield: left in
//     flight into the next iteration, the loop's register copies of its
//     accumulator fall inside the asynchronous window and ptxas serializes
//     every wgmma of the kernel, C7515);
//   * a dot whose result the next iteration first reads elsewhere
//     (attention's P V, rescaled before the next accumulation) waits right
//     before that read;
//   * every such dot is waited for after the loop ({pendings = 0}).
// A dot reading a shared tile written inside the loop (not a ring slot)
// stays synchronous: the next iteration would overwrite the tile under it.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

/// Whether every shared-memory operand of `dot` stays unchanged while the
/// dot runs on past its iteration: a ring slot (refilled only after the
/// wait that follows the next iteration's dot) or a tile made before the
/// loop.  A tile written inside the loop (a local_alloc of a value loaded
/// to registers, as a block-pointer B operand stored transposed) is
/// rewritten by the next iteration, and its bytes may be given to another
/// tile of this one, while the MMAs still read it: such a dot stays
/// synchronous.
static bool sharedOperandsOutliveIteration(WarpGroupDotOp dot,
                                           scf::ForOp newLoop) {
  for (Value operand : {Value(dot.getA()), Value(dot.getB())}) {
    if (!isa<MemDescType>(operand.getType()))
      continue; // registers: the wgmma fence holds them
    Value root = operand;
    while (Operation *def = root.getDefiningOp()) {
      if (auto index = dyn_cast<MemDescIndexOp>(def))
        root = index.getSrc();
      else if (auto trans = dyn_cast<MemDescTransOp>(def))
        root = trans.getSrc();
      else if (auto slice = dyn_cast<MemDescSubsliceOp>(def))
        root = slice.getSrc();
      else
        break;
    }
    if (newLoop->isAncestor(root.getParentRegion()->getParentOp()))
      return false;
  }
  return true;
}

/// A ttg.warp_group_dot of the new loop that only accumulates into a
/// carried value (read by nothing else) runs asynchronously: right after
/// issuing it the loop waits for the previous iteration's dot
/// (pendings = 1), so the MMAs of one iteration overlap the next
/// iteration's waits and copies; after the loop it waits for the last.
void ttg::makeDotsAsync(scf::ForOp newLoop) {
  auto yield = cast<scf::YieldOp>(newLoop.getBody()->getTerminator());
  SmallVector<WarpGroupDotOp> dots;
  for (Operation &op : newLoop.getBody()->without_terminator())
    if (auto dot = dyn_cast<WarpGroupDotOp>(&op))
      dots.push_back(dot);
  for (WarpGroupDotOp dot : dots) {
    if (!dot->hasOneUse() || *dot->user_begin() != yield)
      continue;
    if (!sharedOperandsOutliveIteration(dot, newLoop))
      continue;
    unsigned index = dot->use_begin()->getOperandNumber();
    Value carried = newLoop.getRegionIterArg(index);
    OpBuilder builder(dot->getContext());
    if (dot.getC() == carried && carried.hasOneUse()) {
      // Accumulating in place: wait for the previous iteration's dot
      // right after issuing this one.  The last of several dots instead
      // waits at the end of its own iteration, after the copies the
      // iteration issues, which its MMAs overlap: left in flight into the
      // next iteration, the loop's register copies of its accumulator
      // fall inside the asynchronous window and ptxas serializes every
      // wgmma of the kernel (C7515, seen on attention backward's dK loop).
      dot.setIsAsync(true);
      bool last = dots.size() > 1 && dot == dots.back();
      if (last)
        builder.setInsertionPoint(yield);
      else
        builder.setInsertionPointAfter(dot);
      auto wait = WarpGroupDotWaitOp::create(
          builder, dot.getLoc(), TypeRange{dot.getType()},
          ValueRange{dot.getResult()}, builder.getI32IntegerAttr(last ? 0 : 1));
      yield->setOperand(index, wait.getResult(0));
    } else {
      // The next iteration reads the result first elsewhere (attention
      // rescales its accumulator): wait there, so the MMAs overlap the
      // loop's turn and whatever the iteration issues before that read
      // (the next Q K^T).
      Operation *first = nullptr;
      for (Operation *user : carried.getUsers()) {
        Operation *inBody = newLoop.getBody()->findAncestorOpInBlock(*user);
        if (inBody && (!first || inBody->isBeforeInBlock(first)))
          first = inBody;
      }
      if (!first || first == dot)
        continue;
      dot.setIsAsync(true);
      builder.setInsertionPoint(first);
      auto wait = WarpGroupDotWaitOp::create(
          builder, dot.getLoc(), TypeRange{carried.getType()},
          ValueRange{carried}, builder.getI32IntegerAttr(0));
      carried.replaceAllUsesExcept(wait.getResult(0), wait);
    }
    builder.setInsertionPointAfter(newLoop);
    Value result = newLoop.getResult(index);
    auto last = WarpGroupDotWaitOp::create(
        builder, dot.getLoc(), TypeRange{result.getType()},
        ValueRange{result}, builder.getI32IntegerAttr(0));
    result.replaceAllUsesExcept(last.getResult(0), last);
  }
}
