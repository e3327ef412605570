//===- TMAOpToLLVM.cpp - mbarriers and TMA copies to LLVM -----------------===//
//
// Inline PTX for the Hopper data-movement ops (sm_90, PTX 8.0).  "The
// issuing thread" is the lane elect.sync picks in warp 0, or in the first
// warp of a warp-specialized partition for the ops in its region.
//   ttg.init_barrier       the issuing thread: mbarrier.init.shared::cta.b64
//                          [bar], n; then every thread:
//                          fence.mbarrier_init.release.cluster (the copy
//                          engine sees the initialized barrier; the membar
//                          pass adds the CTA barrier);
//   ttg.inval_barrier      the issuing thread: mbarrier.inval.shared::cta.b64
//                          [bar];
//   ttg.barrier_expect     the issuing thread where pred:
//                          mbarrier.arrive.expect_tx.shared::cta.b64 _,
//                          [bar], bytes;
//   ttg.wait_barrier       every thread: mbarrier.try_wait.parity in a loop
//                          (a scoped label, so copies of the asm coexist);
//                          with {poll}, mbarrier.test_wait.parity instead;
//   ttg.arrive_barrier     lane 0 of every warp where pred:
//                          mbarrier.arrive.shared::cta.b64 _, [bar];
//   ttg.async_tma_copy_global_to_local
//                          the issuing thread where pred, per box of the
//                          tile (layout::planTmaTile): cp.async.bulk.tensor
//                          .Nd.shared::cluster.global.mbarrier::complete_tx
//                          ::bytes [tile + box offset], [map, {coords}],
//                          [bar];
//   ttg.async_tma_copy_local_to_global
//                          the issuing thread, per box: cp.async.bulk.tensor
//                          .Nd.global.shared::cta.bulk_group [map, {coords}],
//                          [tile + box offset]; then cp.async.bulk
//                          .commit_group;
//   ttg.async_tma_store_wait  cp.async.bulk.wait_group.read n;
//   tt.make_tensor_descriptor the issuing thread encodes the tensor map in
//                          the op's shared scratch (zeroes, then
//                          tensormap.replace.tile.*.shared::cta per field),
//                          (on global memory the fields' writes are loads
//                          and stores of the slot, one global round trip
//                          after another); its warp copies it to its slot
//                          of the kernel's global scratch and releases it
//                          (tensormap.cp_fenceproxy ... release.gpu); the
//                          thread acquires it (not a map marked
//                          ttg.tensormap_fences_deferred: acquired after a
//                          later map, TensorMapFences.h); the result is the
//                          slot's address;
//   ttg.fence_async_shared    fence.proxy.async.shared::cta;
//   ttg.fence_tensormap_acquire  the issuing thread:
//                          fence.proxy.tensormap::generic.acquire.gpu [map],
//                          128, then an empty bulk group waited for (as
//                          after a map is made).
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
#include "tritium/Conversion/TTGToLLVM/SharedMemoryAccess.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Dialect/TTG/TensorMapFences.h"
#include "tritium/Layout/TmaTile.h"
#include "tritium/Target/NVIDIA/PTXBuilder.h"

using namespace mlir;
using namespace tritium;
using nvidia::PTXBuilder;

namespace {

/// i1: this thread is in the warp of the issuing thread (warp 0, or the
/// first warp of a warp-specialized partition, for its ops).
Value isIssuingWarp(OpBuilder &builder, Location loc, Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  int64_t warpSize = ttg::getThreadsPerWarp(module);
  int64_t threads = ttg::getTotalNumWarps(module) * warpSize;
  Value tid = nvvm::threadIdX(builder, loc, threads);
  // The first warp of the warps that run the op (a warp-specialized
  // partition's are numbered after the default region's).
  int64_t first = nvvm::runningWarps(op->getBlock()).first * warpSize;
  Value warpZero = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::ult, tid,
                                        emitI32Constant(builder, loc, first + warpSize));
  if (first > 0)
    warpZero = LLVM::AndOp::create(
        builder, loc, warpZero,
        LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::uge, tid,
                             emitI32Constant(builder, loc, first)));
  return warpZero;
}

/// i1: this thread issues the CTA's barrier and bulk-copy instructions (and
/// `pred`, when given): the lane `elect.sync` picks in warp 0 (in the first
/// warp of a warp-specialized partition, for its ops).  Every lane of that
/// warp reaches these ops together, so it is one thread, and ptxas
/// knows it: it issues the uniform-datapath TMA instructions (UTMALDG,
/// UTMASTG) once, where a `tid == 0` guard makes it loop over the warp's
/// active lanes around each of them.  The lane is elected once, at the
/// function's entry (nvvm::electedLane): electing it again at each op costs
/// each one an ELECT, an ISETP and a PLOP3, and tutorial 09's persistent K
/// step takes 97 SASS instructions a warp that way against 88 with one
/// election (4 stages; measured 2026-11-28 on the H200).
Value isIssuingThread(OpBuilder &builder, Location loc, Operation *op,
                      Value pred = {}) {
  Value warpZero = isIssuingWarp(builder, loc, op);
  Value elected = nvvm::electedLane(builder, loc, op);
  Value issuing = LLVM::AndOp::create(builder, loc, warpZero, elected);
  return pred ? LLVM::AndOp::create(builder, loc, issuing, pred).getResult() : issuing;
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

/// The boxes of a shared tile of `tile`'s shape, in the block's swizzle: the
/// whole block, or the part of it a TMA store writes (whole boxes).
layout::TmaTilePlan planFor(tt::TensorDescType desc, ttg::MemDescType tile) {
  RankedTensorType block = desc.getBlockType();
  std::vector<int64_t> blockShape(block.getShape().begin(),
                                  block.getShape().end());
  std::vector<int64_t> shape(tile.getShape().begin(), tile.getShape().end());
  int64_t bits = block.getElementTypeBitWidth();
  return layout::planTmaTile(shape, bits,
                             layout::chooseTmaSwizzle(blockShape, bits));
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
    if (op.getPoll())
      ptx.verbatim("{ .reg .pred done; tritium_poll: "
                   "mbarrier.test_wait.parity.shared::cta.b64 done, [%0], %1; "
                   "@!done bra.uni tritium_poll; }",
                   {bar, phase});
    else
      ptx.verbatim("{ .reg .pred done; tritium_wait: "
                   "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1; "
                   "@!done bra.uni tritium_wait; }",
                   {bar, phase});
    ptx.launch(rewriter, loc, Type());
    rewriter.eraseOp(op);
    return success();
  }
};

struct ArriveBarrierLowering : public ConvertOpToLLVMPattern<ttg::ArriveBarrierOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ttg::ArriveBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    int64_t warpSize = ttg::getThreadsPerWarp(module);
    Value tid = nvvm::threadIdX(rewriter, loc, ttg::getTotalNumWarps(module) * warpSize);
    Value lane = LLVM::AndOp::create(rewriter, loc, tid,
                                     emitI32Constant(rewriter, loc, warpSize - 1));
    Value first = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, lane,
                                       emitI32Constant(rewriter, loc, 0));
    PTXBuilder ptx;
    auto *pred = ptx.input(LLVM::AndOp::create(rewriter, loc, first, adaptor.getPred()), "b");
    auto *bar = ptx.input(sharedAddress(rewriter, loc, adaptor.getAlloc()), "r");
    ptx.instr("mbarrier.arrive.shared::cta.b64")
        .guard(pred)
        .args({ptx.literal("_"), PTXBuilder::address(bar)});
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
    layout::TmaTilePlan plan =
        planFor(op.getDesc().getType(), op.getSrc().getType());
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

/// The tensor-map element type code of `type` (tensormap.replace's
/// .elemtype values, which differ from the driver's CUtensorMapDataType
/// from f64 on): integers (and 8-bit floats) by width as unsigned.
int tensorMapElementType(Type type) {
  if (type.isF16())
    return 6;
  if (type.isF32())
    return 7;
  if (type.isF64())
    return 9;
  if (type.isBF16())
    return 10;
  switch (type.getIntOrFloatBitWidth()) {
  case 8:
    return 0;
  case 16:
    return 1;
  case 32:
    return 2;
  default:
    return 4;
  }
}

/// tt.make_tensor_descriptor: every thread waits for its bulk stores to
/// have read their sources (one may still use the map this slot held), then
/// the issuing thread encodes the tensor map in the op's 128 bytes of shared
/// scratch (zeroed, then every field written with tensormap.replace,
/// dimensions innermost first), its warp copies it to its slot of the
/// global scratch and releases it to the tensor-map proxy, the thread
/// acquires it there (it is also the thread that issues the copies); then
/// an empty bulk group waited for, which keeps ptxas from moving the acquire
/// after later copies.  The result is the slot's generic address.
struct MakeTensorDescLowering
    : public ConvertOpToLLVMPattern<tt::MakeTensorDescOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tt::MakeTensorDescOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    auto size = module->getAttrOfType<IntegerAttr>(ttg::TTGDialect::kGlobalScratchSizeAttrName);
    if (!adaptor.getScratch() || !op.getScratchOffset() || !size)
      return op.emitError("a tensor map made in the kernel has no scratch slot "
                          "(ttg-lower-tensor-descriptors gives it one)");
    // slot = scratch + program * size + offset, the program numbered x first
    auto i64 = rewriter.getI64Type();
    Value program = nvvm::blockId(rewriter, loc, 2);
    for (int axis : {1, 0}) {
      program = LLVM::MulOp::create(rewriter, loc, program, nvvm::gridDim(rewriter, loc, axis));
      program = LLVM::AddOp::create(rewriter, loc, program, nvvm::blockId(rewriter, loc, axis));
    }
    Value bytes = LLVM::MulOp::create(
        rewriter, loc, LLVM::ZExtOp::create(rewriter, loc, i64, program),
        LLVM::ConstantOp::create(rewriter, loc, i64, size.getInt()));
    bytes = LLVM::AddOp::create(rewriter, loc, bytes,
                                LLVM::ConstantOp::create(rewriter, loc, i64,
                                                         *op.getScratchOffset()));
    Value slot = LLVM::GEPOp::create(rewriter, loc, adaptor.getScratch().getType(),
                                     rewriter.getI8Type(), adaptor.getScratch(), bytes);

    RankedTensorType block = op.getType().getBlockType();
    std::vector<int64_t> shape(block.getShape().begin(), block.getShape().end());
    int64_t bits = block.getElementTypeBitWidth();
    int64_t swizzle = layout::chooseTmaSwizzle(shape, bits);
    layout::TmaTilePlan plan = layout::planTmaTile(shape, bits, swizzle);
    int64_t rank = block.getRank();

    PTXBuilder ptx;
    auto *pred = ptx.input(isIssuingThread(rewriter, loc, op), "b");
    auto *map = ptx.input(slot, "l");
    Value staging = getBufferPointer(rewriter, op);
    if (!staging)
      return failure();
    auto *draft = ptx.input(sharedAddress(rewriter, loc, staging), "r");
    auto *zero = ptx.input(emitI32Constant(rewriter, loc, 0), "r");
    // A bulk store issued through the map the slot held (the op ran before:
    // a loop) may not have read it yet.  Every thread waits for its own
    // groups: whichever lane issued them is covered.
    ptx.verbatim("cp.async.bulk.wait_group.read 0;", {});
    const int64_t mapBytes = ttg::TTGDialect::kTensorMapBytes;
    for (int64_t offset = 0; offset < mapBytes; offset += 16)
      ptx.verbatim("@%0 st.shared.v4.b32 [%1+" + std::to_string(offset) +
                       "], {%2, %2, %2, %2};",
                   {pred, draft, zero});
    auto replace = [&](StringRef field, StringRef type, std::optional<int64_t> ord,
                       PTXBuilder::Operand *value) {
      std::string text = "@%0 tensormap.replace.tile." + field.str() +
                         ".shared::cta.b1024." + type.str() + " [%1], ";
      if (ord)
        text += std::to_string(*ord) + ", ";
      ptx.verbatim(text + "%2;", {pred, draft, value});
    };
    auto constant = [&](int64_t value) {
      return ptx.literal(std::to_string(value));
    };
    replace("global_address", "b64", std::nullopt,
            ptx.input(LLVM::PtrToIntOp::create(rewriter, loc, i64, adaptor.getBase()), "l"));
    replace("rank", "b32", std::nullopt, constant(rank - 1));
    int64_t elementBytes = std::max<int64_t>(bits / 8, 1);
    for (int64_t d = 0; d < rank; ++d) {
      int64_t dim = rank - 1 - d; // tensor dimension of tensor-map dimension d
      replace("box_dim", "b32", d, constant(plan.box[dim]));
      replace("global_dim", "b32", d, ptx.input(adaptor.getShape()[dim], "r"));
      if (d > 0) {
        Value stride = LLVM::MulOp::create(
            rewriter, loc, adaptor.getStrides()[dim],
            LLVM::ConstantOp::create(rewriter, loc, i64, elementBytes));
        replace("global_stride", "b64", d - 1, ptx.input(stride, "l"));
      }
      replace("element_stride", "b32", d, constant(1));
    }
    replace("elemtype", "b32", std::nullopt,
            constant(tensorMapElementType(block.getElementType())));
    replace("interleave_layout", "b32", std::nullopt, constant(0));
    int64_t swizzleMode = swizzle == 128 ? 3 : swizzle == 64 ? 2 : swizzle == 32 ? 1 : 0;
    replace("swizzle_mode", "b32", std::nullopt, constant(swizzleMode));
    replace("fill_mode", "b32", std::nullopt, constant(op.getPadding() == 2 ? 1 : 0));
    // The issuing thread's warp copies the encoded map to its slot and
    // releases it to the tensor-map proxy in one collective instruction,
    // once the warp sees the thread's writes of the draft.
    auto *warp = ptx.input(isIssuingWarp(rewriter, loc, op), "b");
    ptx.verbatim("@%0 bar.warp.sync -1;", {warp});
    ptx.verbatim("@%0 tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic"
                 ".release.gpu.sync.aligned [%1], [%2], 128;",
                 {warp, map, draft});
    if (!op->hasAttr(ttg::kTensorMapFencesDeferredAttrName)) {
      ptx.verbatim("@%0 fence.proxy.tensormap::generic.acquire.gpu [%1], 128;", {pred, map});
      ptx.verbatim("@%0 cp.async.bulk.commit_group;", {pred});
      ptx.verbatim("@%0 cp.async.bulk.wait_group.read 0;", {pred});
    }
    ptx.launch(rewriter, loc, Type());
    rewriter.replaceOp(op, LLVM::AddrSpaceCastOp::create(
                               rewriter, loc, LLVM::LLVMPointerType::get(op.getContext()), slot));
    return success();
  }
};

struct FenceTensorMapAcquireLowering
    : public ConvertOpToLLVMPattern<ttg::FenceTensorMapAcquireOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ttg::FenceTensorMapAcquireOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    PTXBuilder ptx;
    auto *pred = ptx.input(isIssuingThread(rewriter, loc, op), "b");
    auto *map = ptx.input(adaptor.getDesc(), "l");
    ptx.verbatim("@%0 fence.proxy.tensormap::generic.acquire.gpu [%1], 128;", {pred, map});
    // An empty bulk group waited for: keeps ptxas from moving the acquire
    // after the copies that read the map (as after a map is made).
    ptx.verbatim("@%0 cp.async.bulk.commit_group;", {pred});
    ptx.verbatim("@%0 cp.async.bulk.wait_group.read 0;", {pred});
    ptx.launch(rewriter, loc, Type());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void tritium::populateTMAOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<InitBarrierLowering, InvalBarrierLowering, BarrierExpectLowering,
               WaitBarrierLowering, ArriveBarrierLowering, TMALoadLowering, TMAStoreLowering,
               TMAStoreWaitLowering, FenceAsyncSharedLowering,
               MakeTensorDescLowering, FenceTensorMapAcquireLowering>(
      converter, kTritiumPatternBenefit);
}
