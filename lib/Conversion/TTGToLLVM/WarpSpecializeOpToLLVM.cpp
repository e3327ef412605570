//===- WarpSpecializeOpToLLVM.cpp - ttg.warp_specialize to branches -------===//
//
// The last step of convert-ttg-to-llvm.  While the dialect conversion runs,
// ttg.warp_specialize and ttg.warp_yield stay as they are (legal), so that
// the ops of its regions are lowered knowing which warps run them (named
// barriers, the partition's issuing thread: NVVMHelpers' runningWarps).
// Afterwards each one becomes control flow in its llvm.func:
//
//   ^before: ...                          ^before: ...
//     ttg.warp_specialize default {A}       %warp = tid.x / 32
//       partition num_warps(n) {B}          llvm.cond_br %warp < num-warps,
//     llvm.return                                        ^A, ^B
//                                         ^A: ... llvm.br ^after
//                                         ^B: ... llvm.br ^after
//                                         ^after: llvm.return
//
// The regions' blocks move into the function; each ttg.warp_yield becomes
// the branch to ^after.  The scf ops still inside them are lowered to
// branches by the passes that follow.
//
//===----------------------------------------------------------------------===//
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "tritium/Conversion/TTGToLLVM/NVVMHelpers.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

using namespace mlir;
using namespace tritium;

void tritium::lowerWarpSpecializeOps(ModuleOp module) {
  SmallVector<ttg::WarpSpecializeOp> ops;
  module.walk([&](ttg::WarpSpecializeOp op) { ops.push_back(op); });
  IRRewriter rewriter(module.getContext());
  for (ttg::WarpSpecializeOp op : ops) {
    Location loc = op.getLoc();
    Block *before = op->getBlock();
    Block *after = rewriter.splitBlock(before, std::next(op->getIterator()));
    Region *body = before->getParent();

    rewriter.setInsertionPoint(op);
    int warpSize = ttg::getThreadsPerWarp(module);
    Value tid = nvvm::threadIdX(rewriter, loc,
                                ttg::getTotalNumWarps(module) * warpSize);
    Type i32 = rewriter.getI32Type();
    Value warp = LLVM::UDivOp::create(
        rewriter, loc, tid,
        LLVM::ConstantOp::create(rewriter, loc, i32, rewriter.getI32IntegerAttr(warpSize)));
    Value inDefault = LLVM::ICmpOp::create(
        rewriter, loc, LLVM::ICmpPredicate::ult, warp,
        LLVM::ConstantOp::create(rewriter, loc, i32,
                                 rewriter.getI32IntegerAttr(ttg::getNumWarps(module))));

    Block *defaultEntry = &op.getDefaultRegion().front();
    Block *partitionEntry = &op.getPartitionRegion().front();
    for (Region *region : {&op.getDefaultRegion(), &op.getPartitionRegion()}) {
      for (Block &block : *region)
        if (auto yield = dyn_cast<ttg::WarpYieldOp>(block.getTerminator())) {
          rewriter.setInsertionPoint(yield);
          rewriter.replaceOpWithNewOp<LLVM::BrOp>(yield, ValueRange{}, after);
        }
      rewriter.inlineRegionBefore(*region, *body, after->getIterator());
    }
    rewriter.setInsertionPoint(op);
    LLVM::CondBrOp::create(rewriter, loc, inDefault, defaultEntry, partitionEntry);
    rewriter.eraseOp(op);
  }
}
