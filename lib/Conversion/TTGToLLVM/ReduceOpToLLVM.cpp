//===- ReduceOpToLLVM.cpp - tt.reduce to LLVM ------------------------------===//
//
// A reduction along `axis` of N operands in a distributed layout L; the
// results are in L's slice at `axis` (rank-1 reductions yield scalars).
//
// Algorithm:
//   1. Within a thread.  The thread's registers are grouped by their
//      coordinates with the axis coordinate zeroed (one group per result
//      element the thread contributes to); registers that duplicate an
//      earlier one (zero register bases) are skipped, and each group is
//      folded with the combine region in increasing register order.
//   2. Across lanes.  For every lane bit whose basis moves along the axis,
//      a butterfly step: shuffle xor with that bit and combine.  Afterwards
//      every lane of a warp holds its warp's partial result.  Lane bits with
//      zero bases hold copies and are left out (combining them would count
//      twice).
//   3. Across warps, when warp bases move along the axis (W = 2^k warps share
//      a result element): through the op's scratch buffer.  Each thread
//      stores its partials (threads holding the same value store the same
//      word), a barrier, then the W partials of each result register are
//      spread over W lanes that hold that same result (one load each) and
//      folded by log2(W) butterflies; where the result layout has too few
//      such lanes, each thread loads all W and folds them in warp order.
//      The scratch is [result][W] when the partials are spread over lanes
//      (the W lanes of a result read W consecutive words) and [W][result]
//      otherwise: there a warp's lanes read one partial of their results at
//      a time, and results that lanes hold next to each other lie next to
//      each other (in [result][W] they would lie W words apart, and lanes
//      whose results are 32 / W apart would meet in one bank).  The same
//      path serves a result layout that is not the slice of the operand's
//      (the loads go by result coordinates), with W = 1.
//   Otherwise each result register takes the group with its coordinates.
// This counts every element once only on the layouts of
// layout::reductionLayoutProblem (ReductionRule.h); others are refused here
// and converted to a blocked layout by ttg-legalize-reduction-layouts.
//
// Scratch (getReduceScratchBytes): per operand, result elements * W
// elements, each operand's section 16-byte aligned.  The barrier before the
// first store is the membar pass's business, not this lowering's.
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tritium/Analysis/Allocation.h"
#include "tritium/Conversion/TTGToLLVM/CombineRegion.h"
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"
#include "tritium/Conversion/TTGToLLVM/LayoutIndices.h"
#include "tritium/Conversion/TTGToLLVM/NVVMHelpers.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/SharedMemoryAccess.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Conversion/TTGToLLVM/WarpShuffle.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Layout/ReductionRule.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace tritium;
using layout::HwDim;
using layout::LinearLayout;

namespace {
/// How one tt.reduce is lowered, decided from types only (the allocation
/// and the lowering both use it).
struct ReducePlan {
  explicit ReducePlan(LinearLayout src) : src(std::move(src)) {}
  LinearLayout src;
  int axis = 0;
  /// Lane bits (indices) whose bases move along the axis.
  SmallVector<int> laneBits;
  /// Warp bits whose bases move along the axis, low to high.
  SmallVector<int> warpBits;
  /// Result elements (1 for scalar results).
  int64_t numResults = 1;
  /// True when the partials meet in shared memory.
  bool throughScratch = false;

  int64_t warpsAlongAxis() const { return int64_t(1) << warpBits.size(); }
};

std::vector<int64_t> dropAxis(const std::vector<int64_t> &coord, int axis) {
  std::vector<int64_t> out;
  for (int d = 0; d < static_cast<int>(coord.size()); ++d)
    if (d != axis)
      out.push_back(coord[d]);
  return out;
}

/// True when `dst` (the result layout) is `src` with the axis dropped on
/// lanes and warps, so that a thread's result elements are the ones its
/// groups produced.
bool isSliceOf(const LinearLayout &src, const LinearLayout &dst, int axis) {
  for (HwDim dim : {HwDim::Lane, HwDim::Warp}) {
    const layout::BasisList &srcBases = src.bases(dim);
    const layout::BasisList &dstBases = dst.bases(dim);
    if (srcBases.size() != dstBases.size())
      return false;
    for (size_t i = 0; i < srcBases.size(); ++i)
      if (dropAxis(srcBases[i], axis) != dstBases[i])
        return false;
  }
  return true;
}

std::optional<ReducePlan> planReduce(tt::ReduceOp op) {
  auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
  if (!ttg::getDistributedEncoding(srcType))
    return std::nullopt;
  ReducePlan plan(getLinearLayout(srcType));
  plan.axis = static_cast<int>(op.getAxis());
  auto movesAlongAxis = [&](const std::vector<int64_t> &basis) {
    return basis[plan.axis] != 0;
  };
  const layout::BasisList &lanes = plan.src.bases(HwDim::Lane);
  for (int i = 0; i < static_cast<int>(lanes.size()); ++i)
    if (movesAlongAxis(lanes[i]))
      plan.laneBits.push_back(i);
  const layout::BasisList &warps = plan.src.bases(HwDim::Warp);
  for (int i = 0; i < static_cast<int>(warps.size()); ++i)
    if (movesAlongAxis(warps[i]))
      plan.warpBits.push_back(i);
  plan.throughScratch = !plan.warpBits.empty();
  if (auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType())) {
    plan.numResults = resultType.getNumElements();
    if (!plan.throughScratch) {
      if (!ttg::getDistributedEncoding(resultType))
        return std::nullopt;
      plan.throughScratch =
          !isSliceOf(plan.src, getLinearLayout(resultType), plan.axis);
    }
  }
  return plan;
}

/// Byte offset of each operand's section of the scratch, and the total.
SmallVector<int64_t> scratchSections(tt::ReduceOp op, const ReducePlan &plan,
                                     int64_t *total) {
  SmallVector<int64_t> offsets;
  int64_t bytes = 0;
  for (Value src : op.getSrcs()) {
    offsets.push_back(bytes);
    int64_t elementBytes = getElementBytes(
        cast<RankedTensorType>(src.getType()).getElementType());
    bytes += llvm::alignTo(plan.numResults * plan.warpsAlongAxis() *
                               elementBytes,
                           16);
  }
  if (total)
    *total = bytes;
  return offsets;
}

struct ReduceLowering : public ConvertOpToLLVMPattern<tt::ReduceOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<ReducePlan> plan = planReduce(op);
    if (!plan)
      return op.emitError("only reductions of tensors in distributed "
                          "layouts can be lowered");
    // ttg-legalize-reduction-layouts converts such operands beforehand.
    std::string problem =
        layout::reductionLayoutProblem(plan->src, plan->axis);
    if (!problem.empty())
      return op.emitError("cannot lower the reduction along axis ")
             << plan->axis << " of this layout: " << problem;
    Location loc = op.getLoc();
    auto &converter = TTGToLLVMTypeConverter::of(getTypeConverter());
    unsigned numOperands = op.getSrcs().size();
    Region &combine = op.getCombineOp();

    // Step 1: fold each group of registers.
    SmallVector<SmallVector<Value>> operandElements;
    for (Value src : adaptor.getSrcs())
      operandElements.push_back(unpackElements(rewriter, loc, src));
    SmallVector<int64_t> representative =
        getRepresentativeRegisters(plan->src);
    std::map<std::vector<int64_t>, size_t> groupOf;
    SmallVector<std::vector<int64_t>> groupCoords; // axis dropped
    SmallVector<int64_t> groupFirstRegister;
    SmallVector<SmallVector<Value>> partials; // [group][operand]
    for (int64_t reg = 0; reg < plan->src.elemsPerThread(); ++reg) {
      if (representative[reg] != reg)
        continue;
      std::vector<int64_t> key =
          dropAxis(plan->src.apply(reg, 0, 0), plan->axis);
      SmallVector<Value> values;
      for (unsigned k = 0; k < numOperands; ++k)
        values.push_back(operandElements[k][reg]);
      auto [it, inserted] = groupOf.try_emplace(key, partials.size());
      if (inserted) {
        groupCoords.push_back(key);
        groupFirstRegister.push_back(reg);
        partials.push_back(values);
      } else {
        partials[it->second] =
            emitCombine(rewriter, loc, combine, partials[it->second], values);
      }
    }

    // Step 2: butterflies across the lanes along the axis.
    for (int bit : plan->laneBits)
      for (SmallVector<Value> &partial : partials) {
        SmallVector<Value> other;
        for (Value value : partial)
          other.push_back(shuffleValue(rewriter, loc, nvvm::ShuffleMode::Xor,
                                       value, int32_t(1) << bit));
        partial = emitCombine(rewriter, loc, combine, partial, other);
      }

    // Step 3: results, by coordinates or through shared memory.
    SmallVector<SmallVector<Value>> results; // [operand][result register]
    results.resize(numOperands);
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!plan->throughScratch) {
      if (!resultType) {
        for (unsigned k = 0; k < numOperands; ++k)
          results[k].push_back(partials.front()[k]);
      } else {
        LinearLayout dst = getLinearLayout(resultType);
        for (int64_t reg = 0; reg < dst.elemsPerThread(); ++reg) {
          auto it = groupOf.find(dst.apply(reg, 0, 0));
          if (it == groupOf.end())
            return op.emitError("reduce result layout does not match its "
                                "operand's");
          for (unsigned k = 0; k < numOperands; ++k)
            results[k].push_back(partials[it->second][k]);
        }
      }
    } else if (failed(reduceThroughScratch(op, *plan, rewriter, converter,
                                           groupFirstRegister, partials,
                                           results))) {
      return failure();
    }

    SmallVector<Value> replacements;
    for (unsigned k = 0; k < numOperands; ++k) {
      Type type = converter.convertType(op->getResult(k).getType());
      replacements.push_back(packElements(rewriter, loc, type, results[k]));
    }
    rewriter.replaceOp(op, replacements);
    return success();
  }

private:
  /// Step 3 through the scratch buffer: store the warp partials, barrier,
  /// load and fold them per result register.
  LogicalResult
  reduceThroughScratch(tt::ReduceOp op, const ReducePlan &plan,
                       ConversionPatternRewriter &rewriter,
                       const TTGToLLVMTypeConverter &converter,
                       ArrayRef<int64_t> groupFirstRegister,
                       ArrayRef<SmallVector<Value>> partials,
                       SmallVector<SmallVector<Value>> &results) const {
    Location loc = op.getLoc();
    Value buffer = getBufferPointer(rewriter, op);
    if (!buffer)
      return failure();
    unsigned numOperands = op.getSrcs().size();
    int64_t warpsAlongAxis = plan.warpsAlongAxis();
    auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    SmallVector<int64_t> resultShape;
    if (resultType)
      resultShape.assign(resultType.getShape().begin(),
                         resultType.getShape().end());
    ThreadIndex thread =
        emitThreadIndex(rewriter, loc, op->getParentOfType<ModuleOp>());
    Type i8 = rewriter.getI8Type();

    // This warp's position among the warps along the axis: its warp-id bits
    // that move along the axis, packed.
    Value warpPosition =
        emitPackedBits(rewriter, loc, thread.warp, plan.warpBits);

    SmallVector<int64_t> sections = scratchSections(op, plan, nullptr);
    auto elementPointer = [&](unsigned k, Value elementIndex) {
      Type elementType = converter.convertMemoryElementType(
          cast<RankedTensorType>(op.getSrcs()[k].getType()).getElementType());
      Value section = buffer;
      if (sections[k] != 0)
        section = LLVM::GEPOp::create(rewriter, loc, buffer.getType(), i8,
                                      buffer,
                                      ArrayRef<LLVM::GEPArg>{sections[k]});
      return std::make_pair(
          Value(LLVM::GEPOp::create(rewriter, loc, buffer.getType(),
                                    elementType, section,
                                    ValueRange{elementIndex})),
          elementType);
    };

    // With W > 1 partials per result, spread them over lanes that hold the
    // same result elements (lane bits whose bases in the result layout are
    // zero; every lane bit for a scalar): the lane whose such bits read j
    // loads partial j, and butterflies over those bits fold the W partials.
    // One load and log2(W) shuffles per result instead of W loads (and W
    // live registers).  Without log2(W) such lane bits, every thread loads
    // all W partials and folds them in warp order.
    SmallVector<int> groupLaneBits;
    int log2Warps = static_cast<int>(plan.warpBits.size());
    if (resultType) {
      LinearLayout resultLayout = getLinearLayout(resultType);
      const layout::BasisList &lanes = resultLayout.bases(HwDim::Lane);
      for (int i = 0; i < static_cast<int>(lanes.size()); ++i)
        if (llvm::all_of(lanes[i], [](int64_t c) { return c == 0; }))
          groupLaneBits.push_back(i);
    } else {
      int threadsPerWarp =
          ttg::getThreadsPerWarp(op->getParentOfType<ModuleOp>());
      for (int i = 0; (1 << i) < threadsPerWarp; ++i)
        groupLaneBits.push_back(i);
    }
    bool spreadOverLanes =
        log2Warps > 0 && static_cast<int>(groupLaneBits.size()) >= log2Warps;
    groupLaneBits.resize(std::min<size_t>(groupLaneBits.size(), log2Warps));
    Value laneInGroup =
        spreadOverLanes
            ? emitPackedBits(rewriter, loc, thread.lane, groupLaneBits)
            : Value();
    // Where partial `w` of result `r` lies (see the file comment).
    Value width = emitI32Constant(rewriter, loc, warpsAlongAxis);
    Value resultCount = emitI32Constant(rewriter, loc, plan.numResults);
    auto scratchIndex = [&](Value resultIndex, Value w) -> Value {
      if (spreadOverLanes)
        return LLVM::AddOp::create(
            rewriter, loc, LLVM::MulOp::create(rewriter, loc, resultIndex, width),
            w);
      return LLVM::AddOp::create(
          rewriter, loc, LLVM::MulOp::create(rewriter, loc, w, resultCount),
          resultIndex);
    };

    // Store: the partial of each group at its result index.
    SmallVector<SmallVector<Value>> srcCoords =
        emitIndices(rewriter, loc, plan.src, thread);
    for (auto [group, reg] : llvm::enumerate(groupFirstRegister)) {
      Value resultIndex = emitI32Constant(rewriter, loc, 0);
      if (resultType) {
        SmallVector<Value> coords;
        for (int d = 0; d < srcType.getRank(); ++d)
          if (d != plan.axis)
            coords.push_back(srcCoords[reg][d]);
        resultIndex = emitRowMajorOffset(rewriter, loc, coords, resultShape);
      }
      Value index = scratchIndex(resultIndex, warpPosition);
      for (unsigned k = 0; k < numOperands; ++k) {
        auto [pointer, memoryType] = elementPointer(k, index);
        Value value = partials[group][k];
        if (value.getType() != memoryType) // i1 lives as i8
          value = LLVM::ZExtOp::create(rewriter, loc, memoryType, value);
        LLVM::StoreOp::create(rewriter, loc, value, pointer);
      }
    }
    nvvm::barrier(rewriter, loc);

    // Load and fold the partials of each result register.
    SmallVector<SmallVector<Value>> resultIndices;
    if (resultType) {
      LinearLayout dst = getLinearLayout(resultType);
      SmallVector<SmallVector<Value>> dstCoords =
          emitIndices(rewriter, loc, dst, thread);
      for (SmallVector<Value> &coords : dstCoords)
        resultIndices.push_back(
            {emitRowMajorOffset(rewriter, loc, coords, resultShape)});
    } else {
      resultIndices.push_back({emitI32Constant(rewriter, loc, 0)});
    }
    auto loadPartials = [&](Value index) {
      SmallVector<Value> loaded;
      for (unsigned k = 0; k < numOperands; ++k) {
        auto [pointer, memoryType] = elementPointer(k, index);
        Value value = LLVM::LoadOp::create(rewriter, loc, memoryType, pointer);
        Type registerType = partials.front()[k].getType();
        if (registerType != memoryType)
          value = LLVM::TruncOp::create(rewriter, loc, registerType, value);
        loaded.push_back(value);
      }
      return loaded;
    };
    for (SmallVector<Value> &resultIndex : resultIndices) {
      SmallVector<Value> acc;
      if (spreadOverLanes) {
        acc = loadPartials(scratchIndex(resultIndex.front(), laneInGroup));
        for (int bit : groupLaneBits) {
          SmallVector<Value> other;
          for (Value value : acc)
            other.push_back(shuffleValue(rewriter, loc, nvvm::ShuffleMode::Xor,
                                         value, int32_t(1) << bit));
          acc = emitCombine(rewriter, loc, op.getCombineOp(), acc, other);
        }
      } else {
        for (int64_t w = 0; w < warpsAlongAxis; ++w) {
          SmallVector<Value> loaded = loadPartials(scratchIndex(
              resultIndex.front(), emitI32Constant(rewriter, loc, w)));
          acc = w == 0 ? loaded
                       : emitCombine(rewriter, loc, op.getCombineOp(), acc,
                                     loaded);
        }
      }
      for (unsigned k = 0; k < numOperands; ++k)
        results[k].push_back(acc[k]);
    }
    return success();
  }
};
} // namespace

int64_t tritium::getReduceScratchBytes(Operation *op) {
  auto reduce = cast<tt::ReduceOp>(op);
  std::optional<ReducePlan> plan = planReduce(reduce);
  if (!plan || !plan->throughScratch)
    return 0;
  int64_t total = 0;
  scratchSections(reduce, *plan, &total);
  return total;
}

void tritium::populateReduceOpToLLVMPatterns(
    TTGToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ReduceLowering>(converter, kTritiumPatternBenefit);
}
