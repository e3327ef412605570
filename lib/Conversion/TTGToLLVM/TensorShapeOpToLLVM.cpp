//===- TensorShapeOpToLLVM.cpp - ops that only move registers -------------===//
//
// The result of a shape op holds the source's elements at other
// coordinates.  The layouts the TTGIR passes give these ops keep every
// element in the thread that already holds it, so each result register is
// a register of the same thread, found by coordinates: for every result
// register, map its coordinates back to the source (getRegisterPermutation
// with a projection, which also checks that lanes and warps agree):
//   tt.broadcast     zero the broadcast dimensions;
//   tt.expand_dims   drop the new dimension;
//   tt.trans         permute the dimensions back;
//   tt.reshape       row-major index in the result, then source coordinates
//                    (with allow_reorder, registers keep their order when
//                    the exact mapping does not exist);
//   tt.join          the last coordinate picks lhs (0) or rhs (1);
//   tt.split         lhs takes the elements with last coordinate 0, rhs 1;
//   tt.cat           (may reorder) a thread's lhs registers, then its rhs;
//   ttg.extract_tile the window's registers (layout::planTileWindow, which
//                    the op's verifier has already checked).
// Layouts that would need data to cross threads are reported: the layout
// passes insert a ttg.convert_layout instead.
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tritium/Analysis/Allocation.h"
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"
#include "tritium/Conversion/TTGToLLVM/LayoutIndices.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Layout/TileWindow.h"

#include <map>

using namespace mlir;
using namespace tritium;

namespace {

/// Replaces `op` by the registers of `src` picked by `mapping`.
void replaceWithRegisters(ConversionPatternRewriter &rewriter, Operation *op,
                          Value src, ArrayRef<int64_t> mapping,
                          Type resultType) {
  SmallVector<Value> srcElements = unpackElements(rewriter, op->getLoc(), src);
  SmallVector<Value> elements;
  for (int64_t reg : mapping)
    elements.push_back(srcElements[reg]);
  rewriter.replaceOp(
      op, packElements(rewriter, op->getLoc(), resultType, elements));
}

/// The source registers, for each result register of `op`, whose element
/// sits at `dstToSrc` of its coordinates; reports at `op` when some element
/// is in another thread.
std::optional<SmallVector<int64_t>> mapByCoordinates(
    Operation *op, RankedTensorType srcType, RankedTensorType dstType,
    llvm::function_ref<std::vector<int64_t>(const std::vector<int64_t> &)>
        dstToSrc) {
  auto mapping = getRegisterPermutation(getLinearLayout(srcType),
                                        getLinearLayout(dstType), dstToSrc);
  if (!mapping)
    op->emitError("the result layout holds elements in other threads than "
                  "the source layout; a ttg.convert_layout must come first");
  return mapping;
}

bool haveDistributedLayouts(TypeRange types) {
  return llvm::all_of(types, [](Type type) {
    return ttg::getDistributedEncoding(type) != nullptr;
  });
}

struct BroadcastLowering : public ConvertOpToLLVMPattern<tt::BroadcastOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    if (!haveDistributedLayouts({srcType, dstType}))
      return rewriter.notifyMatchFailure(op, "no distributed layout");
    ArrayRef<int64_t> srcShape = srcType.getShape();
    auto zeroBroadcastDims = [&](const std::vector<int64_t> &coord) {
      std::vector<int64_t> result = coord;
      for (size_t d = 0; d < result.size(); ++d)
        if (srcShape[d] == 1)
          result[d] = 0;
      return result;
    };
    auto mapping = mapByCoordinates(op, srcType, dstType, zeroBroadcastDims);
    if (!mapping)
      return failure();
    replaceWithRegisters(rewriter, op, adaptor.getSrc(), *mapping,
                         getTypeConverter()->convertType(dstType));
    return success();
  }
};

struct ExpandDimsLowering : public ConvertOpToLLVMPattern<tt::ExpandDimsOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    if (!haveDistributedLayouts({srcType, dstType}))
      return rewriter.notifyMatchFailure(op, "no distributed layout");
    unsigned axis = op.getAxis();
    auto dropAxis = [&](const std::vector<int64_t> &coord) {
      std::vector<int64_t> result = coord;
      result.erase(result.begin() + axis);
      return result;
    };
    auto mapping = mapByCoordinates(op, srcType, dstType, dropAxis);
    if (!mapping)
      return failure();
    replaceWithRegisters(rewriter, op, adaptor.getSrc(), *mapping,
                         getTypeConverter()->convertType(dstType));
    return success();
  }
};

struct TransLowering : public ConvertOpToLLVMPattern<tt::TransOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    if (!haveDistributedLayouts({srcType, dstType}))
      return rewriter.notifyMatchFailure(op, "no distributed layout");
    ArrayRef<int32_t> order = op.getOrder();
    // Result dimension i is source dimension order[i].
    auto permuteBack = [&](const std::vector<int64_t> &coord) {
      std::vector<int64_t> result(coord.size());
      for (size_t i = 0; i < coord.size(); ++i)
        result[order[i]] = coord[i];
      return result;
    };
    auto mapping = mapByCoordinates(op, srcType, dstType, permuteBack);
    if (!mapping)
      return failure();
    replaceWithRegisters(rewriter, op, adaptor.getSrc(), *mapping,
                         getTypeConverter()->convertType(dstType));
    return success();
  }
};

struct ReshapeLowering : public ConvertOpToLLVMPattern<tt::ReshapeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    if (!haveDistributedLayouts({srcType, dstType}))
      return rewriter.notifyMatchFailure(op, "no distributed layout");
    std::vector<int64_t> srcShape(srcType.getShape().begin(), srcType.getShape().end());
    std::vector<int64_t> dstShape(dstType.getShape().begin(), dstType.getShape().end());
    // A result coordinate -> the source coordinate of the same row-major index.
    auto sameIndex = [&](const std::vector<int64_t> &coord) {
      return layout::reshapeCoordinate(coord, dstShape, srcShape);
    };
    auto mapping = getRegisterPermutation(getLinearLayout(srcType),
                                          getLinearLayout(dstType), sameIndex);
    Type resultType = getTypeConverter()->convertType(dstType);
    if (!mapping && op.getAllowReorder()) {
      // Any order will do: keep the thread's registers as they are.
      auto structType = dyn_cast<LLVM::LLVMStructType>(resultType);
      auto srcStruct = dyn_cast<LLVM::LLVMStructType>(
          getTypeConverter()->convertType(srcType));
      if (structType && srcStruct &&
          structType.getBody().size() == srcStruct.getBody().size())
        mapping =
            llvm::to_vector(llvm::seq<int64_t>(0, structType.getBody().size()));
    }
    if (!mapping)
      return op.emitError("the result layout holds elements in other threads "
                          "than the source layout; a ttg.convert_layout must "
                          "come first");
    replaceWithRegisters(rewriter, op, adaptor.getSrc(), *mapping, resultType);
    return success();
  }
};

struct JoinLowering : public ConvertOpToLLVMPattern<tt::JoinOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::JoinOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getLhs().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    if (!haveDistributedLayouts({srcType, dstType}))
      return rewriter.notifyMatchFailure(op, "no distributed layout");
    layout::LinearLayout dst = getLinearLayout(dstType);
    // The new dimension must be in registers: lanes and warps never move
    // along it.
    for (layout::HwDim hw : {layout::HwDim::Lane, layout::HwDim::Warp})
      for (const std::vector<int64_t> &basis : dst.bases(hw))
        if (basis.back() != 0)
          return op.emitError("the joined dimension must be held within "
                              "each thread");
    auto dropLast = [](const std::vector<int64_t> &coord) {
      return std::vector<int64_t>(coord.begin(), coord.end() - 1);
    };
    auto mapping = mapByCoordinates(op, srcType, dstType, dropLast);
    if (!mapping)
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> lhs = unpackElements(rewriter, loc, adaptor.getLhs());
    SmallVector<Value> rhs = unpackElements(rewriter, loc, adaptor.getRhs());
    SmallVector<Value> elements;
    for (int64_t reg = 0; reg < dst.elemsPerThread(); ++reg)
      elements.push_back(dst.apply(reg, 0, 0).back() == 0
                             ? lhs[(*mapping)[reg]]
                             : rhs[(*mapping)[reg]]);
    rewriter.replaceOp(
        op, packElements(rewriter, loc,
                         getTypeConverter()->convertType(dstType), elements));
    return success();
  }
};

struct SplitLowering : public ConvertOpToLLVMPattern<tt::SplitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getOutLHS().getType());
    if (!haveDistributedLayouts({srcType, dstType}))
      return rewriter.notifyMatchFailure(op, "no distributed layout");
    // lhs: source coordinates (c, 0); the lane and warp check of that
    // mapping also holds for rhs, whose elements are (c, 1).
    auto appendZero = [](const std::vector<int64_t> &coord) {
      std::vector<int64_t> result = coord;
      result.push_back(0);
      return result;
    };
    if (!mapByCoordinates(op, srcType, dstType, appendZero))
      return failure();
    layout::LinearLayout src = getLinearLayout(srcType);
    layout::LinearLayout dst = getLinearLayout(dstType);
    std::map<std::vector<int64_t>, int64_t> srcRegisterOf;
    for (int64_t reg = src.elemsPerThread() - 1; reg >= 0; --reg)
      srcRegisterOf[src.apply(reg, 0, 0)] = reg;
    Location loc = op.getLoc();
    SmallVector<Value> elements =
        unpackElements(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> halves[2];
    for (int64_t reg = 0; reg < dst.elemsPerThread(); ++reg) {
      std::vector<int64_t> coord = dst.apply(reg, 0, 0);
      for (int half = 0; half < 2; ++half) {
        coord.push_back(half);
        auto it = srcRegisterOf.find(coord);
        coord.pop_back();
        if (it == srcRegisterOf.end())
          return op.emitError("the split dimension must be held within each "
                              "thread");
        halves[half].push_back(elements[it->second]);
      }
    }
    Type resultType = getTypeConverter()->convertType(dstType);
    rewriter.replaceOp(op,
                       {packElements(rewriter, loc, resultType, halves[0]),
                        packElements(rewriter, loc, resultType, halves[1])});
    return success();
  }
};

struct CatLowering : public ConvertOpToLLVMPattern<tt::CatOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::CatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = dyn_cast_or_null<LLVM::LLVMStructType>(
        getTypeConverter()->convertType(op.getType()));
    SmallVector<Value> elements =
        unpackElements(rewriter, loc, adaptor.getLhs());
    llvm::append_range(elements,
                       unpackElements(rewriter, loc, adaptor.getRhs()));
    if (!resultType || resultType.getBody().size() != elements.size())
      return op.emitError("the result layout must hold, per thread, the "
                          "registers of both operands");
    rewriter.replaceOp(op, packElements(rewriter, loc, resultType, elements));
    return success();
  }
};

struct ExtractTileLowering : public ConvertOpToLLVMPattern<ttg::ExtractTileOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ttg::ExtractTileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    auto plan = layout::planTileWindow(
        getLinearLayout(srcType), getLinearLayout(dstType),
        std::vector<int64_t>(op.getOffsets().begin(), op.getOffsets().end()));
    if (auto *why = std::get_if<std::string>(&plan))
      return op.emitError("takes no window of registers: ") << *why;
    replaceWithRegisters(rewriter, op, adaptor.getSrc(),
                         std::get<std::vector<int64_t>>(plan),
                         getTypeConverter()->convertType(dstType));
    return success();
  }
};

} // namespace

void tritium::populateTensorShapeOpToLLVMPatterns(
    TTGToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<BroadcastLowering, ExpandDimsLowering, TransLowering,
               ReshapeLowering, JoinLowering, SplitLowering, CatLowering,
               ExtractTileLowering>(
      converter, kTritiumPatternBenefit);
}
