//===- TMAOpToLLVM.cpp - mbarriers and TMA copies to LLVM -----------------===//
//
// Inline PTX for the Hopper data-movement ops (sm_90, PTX 8.0):
//   ttg.init_barrier       thread 0: mbarrier.init.shared::cta.b64 [bar], n;
//                          then every thread: fence.mbarrier_init.release
//                          .cluster (the copy engine sees the initialized
//                          barrier; the membar pass adds the CTA barrier);
//   ttg.inval_barrier      thread 0: mbarrier.inval.shared::cta.b64 [bar];
//   ttg.barrier_expect     thread 0 where pred: mbarrier.arrive.expect_tx
//                          .shared::cta.b64 _, [bar], bytes;
//   ttg.wait_barrier       every thread: mbarrier.try_wait.parity in a loop
//                          (a scoped label, so copies of the asm coexist);
//   ttg.async_tma_copy_global_to_local
//                          thread 0 where pred, per box of the tile
//                          (layout::planTmaTile): cp.async.bulk.tensor.Nd
//                          .shared::cluster.global.mbarrier::complete_tx
//                          ::bytes [tile + box offset], [map, {coords}],
//                          [bar];
//   ttg.async_tma_copy_local_to_global
//                          thread 0, per box: cp.async.bulk.tensor.Nd
//                          .global.shared::cta.bulk_group [map, {coords}],
//                          [tile + box offset]; then cp.async.bulk
//                          .commit_group;
//   ttg.async_tma_store_wait  cp.async.bulk.wait_group.read n;
//   ttg.fence_async_shared    fence.proxy.async.shared::cta.
// A tensor map's coordinates run innermost dimension first: box offsets
// plus the op's indices, reversed.  Shared addresses are 32-bit (the
// module uses short shared pointers).
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tritium/Conversion/TTGToLLVM/LayoutIndices.h"
#include "tritium/Conversion/TTGToLLVM/NVVMHelpers.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Layout/TmaTile.h"
#include "tritium/Target/NVIDIA/PTXBuilder.h"

using namespace mlir;
using namespace tritium;
using nvidia::PTXBuilder;

namespace {

/// i1: this is thread 0 of the CTA (and `pred`, when given).
Value isIssuingThread(OpBuilder &builder, Location loc, Operation *op,
                      Value pred = {}) {
  auto module = op->getParentOfType<ModuleOp>();
  int64_t threads = ttg::getNumWarps(module) * ttg::getThreadsPerWarp(module);
  Value tid = nvvm::threadIdX(builder, loc, threads);
  Value first = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq, tid,
                                     emitI32Constant(builder, loc, 0));
  return pred ? LLVM::AndOp::create(builder, loc, first, pred).getResult() : first;
}

/// The 32-bit shared address of `pointer` plus `offset` bytes.
Value sharedAddress(OpBuilder &builder, Location loc, Value pointer,
                    int64_t offset = 0) {
  Value address = LLVM::PtrToIntOp::create(builder, loc, builder.getI32Type(),
                                           pointer);
  if (offset == 0)
    return address;
  return LLVM::AddOp::create(builder, loc, address,
                             emitI32Constant(builder, loc, offset));
}

/// The plan of the tile `desc`'s blocks move through.
layout::TmaTilePlan planFor(tt::TensorDescType desc) {
  RankedTensorType block = desc.getBlockType();
  std::vector<int64_t> shape(block.getShape().begin(), block.getShape().end());
  int64_t bits = block.getElementTypeBitWidth();
  return layout::planTmaTile(shape, bits, layout::chooseTmaSwizzle(shape, bits));
}

/// `{c_inner, ..., c_outer}` operands of one box: the op's indices plus the
/// box's offset in the block, innermost first.
SmallVector<PTXBuilder::Operand *>
boxCoordinates(OpBuilder &builder, Location loc, PTXBuilder &ptx,
               ValueRange indices, const std::vector<int64_t> &blockOffset) {
  SmallVector<PTXBuilder::Operand *> coords;
  for (int64_t d = indices.size() - 1; d >= 0; --d) {
    Value coord = indices[d];
    if (blockOffset[d] != 0)
      coord = LLVM::AddOp::create(builder, loc, coord,
                                  emitI32Constant(builder, loc, blockOffset[d]));
    coords.push_back(ptx.input(coord, "r"));
  }
  return coords;
}

std::string tensorOpcode(size_t rank) {
  return "cp.async.bulk.tensor." + std::to_string(rank) + "d";
}

struct InitBarrierLowering : public ConvertOpToLLVMPattern<ttg::InitBarrierOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ttg::InitBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    PTXBuilder ptx;
    auto *pred = ptx.input(isIssuingThread(rewriter, loc, op), "b");
    auto *bar = ptx.input(sharedAddress(rewriter, loc, adaptor.getAlloc()), "r");
    ptx.instr("mbarrier.init.shared::cta.b64")
        .guard(pred)
        .args({PTXBuilder::address(bar), ptx.literal(std::to_string(op.getCount()))});
    ptx.instr("fence.mbarrier_init.release.cluster");
    ptx.launch(rewriter, loc, Type());
    rewriter.eraseOp(op);
    return success();
  }
};

struct InvalBarrierLowering : public ConvertOpToLLVMPattern<ttg::InvalBarrierOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ttg::InvalBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    PTXBuilder ptx;
    auto *pred = ptx.input(isIssuingThread(rewriter, loc, op), "b");
    auto *bar = ptx.input(sharedAddress(rewriter, loc, adaptor.getAlloc()), "r");
    ptx.instr("mbarrier.inval.shared::cta.b64").guard(pred).args({PTXBuilder::address(bar)});
    ptx.launch(rewriter, loc, Type());
    rewriter.eraseOp(op);
    return success();
  }
};

struct BarrierExpectLowering : public ConvertOpToLLVMPattern<ttg::BarrierExpectOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ttg::BarrierExpectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    PTXBuilder ptx;
    auto *pred = ptx.input(isIssuingThread(rewriter, loc, op, adaptor.getPred()), "b");
    auto *bar = ptx.input(sharedAddress(rewriter, loc, adaptor.getAlloc()), "r");
    ptx.instr("mbarrier.arrive.expect_tx.shared::cta.b64")
        .guard(pred)
        .args({ptx.literal("_"), PTXBuilder::address(bar),
               ptx.literal(std::to_string(op.getSize()))});
    ptx.launch(rewriter, loc, Type());
    rewriter.eraseOp(op);
    return success();
  }
};

struct WaitBarrierLowering : public ConvertOpToLLVMPattern<ttg::WaitBarrierOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ttg::WaitBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    PTXBuilder ptx;
    auto *bar = ptx.input(sharedAddress(rewriter, loc, adaptor.getAlloc()), "r");
    auto *phase = ptx.input(adaptor.getPhase(), "r");
    ptx.verbatim("{ .reg .pred done; tritium_wait: "
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1; "
                 "@!done bra.uni tritium_wait; }",
                 {bar, phase});
    ptx.launch(rewriter, loc, Type());
    rewriter.eraseOp(op);
    return success();
  }
};

/// `{%k, ...}` text for coordinate operands numbered from `first`.
std::string coordinateList(size_t count, size_t first) {
  std::string text = "{";
  for (size_t i = 0; i < count; ++i)
    text += (i ? ", %" : "%") + std::to_string(first + i);
  return text + "}";
}

struct TMALoadLowering
    : public ConvertOpToLLVMPattern<ttg::AsyncTMACopyGlobalToLocalOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ttg::AsyncTMACopyGlobalToLocalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    layout::TmaTilePlan plan = planFor(op.getDesc().getType());
    PTXBuilder ptx;
    auto *pred = ptx.input(isIssuingThread(rewriter, loc, op, adaptor.getPred()), "b");
    auto *map = ptx.input(adaptor.getDesc(), "l");
    auto *bar = ptx.input(sharedAddress(rewriter, loc, adaptor.getBarrier()), "r");
    size_t rank = adaptor.getIndices().size();
    for (const layout::TmaTilePlan::Copy &copy : plan.copies) {
      SmallVector<PTXBuilder::Operand *> refs = {
          pred, bar, map,
          ptx.input(sharedAddress(rewriter, loc, adaptor.getResult(),
                                  copy.sharedByteOffset),
                    "r")};
      refs.append(boxCoordinates(rewriter, loc, ptx, adaptor.getIndices(),
                                 copy.blockOffset));
      ptx.verbatim("@%0 " + tensorOpcode(rank) +
                       ".shared::cluster.global.mbarrier::complete_tx::bytes "
                       "[%3], [%2, " + coordinateList(rank, 4) + "], [%1];",
                   refs);
    }
    ptx.launch(rewriter, loc, Type());
    rewriter.eraseOp(op);
    return success();
  }
};

struct TMAStoreLowering
    : public ConvertOpToLLVMPattern<ttg::AsyncTMACopyLocalToGlobalOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ttg::AsyncTMACopyLocalToGlobalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    layout::TmaTilePlan plan = planFor(op.getDesc().getType());
    PTXBuilder ptx;
    auto *pred = ptx.input(isIssuingThread(rewriter, loc, op), "b");
    auto *map = ptx.input(adaptor.getDesc(), "l");
    size_t rank = adaptor.getIndices().size();
    for (const layout::TmaTilePlan::Copy &copy : plan.copies) {
      SmallVector<PTXBuilder::Operand *> refs = {
          pred, map,
          ptx.input(sharedAddress(rewriter, loc, adaptor.getSrc(),
                                  copy.sharedByteOffset),
                    "r")};
      refs.append(boxCoordinates(rewriter, loc, ptx, adaptor.getIndices(),
                                 copy.blockOffset));
      ptx.verbatim("@%0 " + tensorOpcode(rank) +
                       ".global.shared::cta.bulk_group [%1, " +
                       coordinateList(rank, 3) + "], [%2];",
                   refs);
    }
    ptx.verbatim("@%0 cp.async.bulk.commit_group;", {pred});
    ptx.launch(rewriter, loc, Type());
    rewriter.eraseOp(op);
    return success();
  }
};

struct TMAStoreWaitLowering
    : public ConvertOpToLLVMPattern<ttg::AsyncTMAStoreWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ttg::AsyncTMAStoreWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    PTXBuilder ptx;
    ptx.instr("cp.async.bulk.wait_group.read")
        .args({ptx.literal(std::to_string(op.getPendings()))});
    ptx.launch(rewriter, op.getLoc(), Type());
    rewriter.eraseOp(op);
    return success();
  }
};

struct FenceAsyncSharedLowering
    : public ConvertOpToLLVMPattern<ttg::FenceAsyncSharedOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ttg::FenceAsyncSharedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    PTXBuilder ptx;
    ptx.instr("fence.proxy.async.shared::cta");
    ptx.launch(rewriter, op.getLoc(), Type());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void tritium::populateTMAOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<InitBarrierLowering, InvalBarrierLowering, BarrierExpectLowering,
               WaitBarrierLowering, TMALoadLowering, TMAStoreLowering,
               TMAStoreWaitLowering, FenceAsyncSharedLowering>(
      converter, kTritiumPatternBenefit);
}
