//===- ScanOpToLLVM.cpp - tt.scan to LLVM ---------------------------------===//
//
// An inclusive scan along `axis` with any combine region over N operands
// that share one distributed layout; the result keeps the layout.
//
// Which hardware index holds which position along the axis comes from the
// layout's LinearLayout.  Every basis that moves along the axis must move
// along it only, by a distinct power of two, so the axis position of an
// element is the sum of the axis parts of its register, lane and warp bits.
// Sorted by the position bit they set, those bits must come in the order of
// a blocked layout:
//
//   position = [a register bits][b lane bits][c warp bits][d register bits]
//              (low)                                              (high)
//
// with the b lane bits consecutive lane-id bits (so a shuffle by 2^i lane
// ranks is a shuffle by a constant lane delta).  The high register bits
// number the "chunks": when sizePerThread * lanes * warps along the axis is
// smaller than the axis, one thread holds 2^d chunks of 2^a consecutive
// elements, chunk k+1 after the elements of chunk k of every lane and warp.
// Registers whose bases do not move along the axis select the line (the
// other coordinates); a register, lane or warp bit with a zero basis holds
// a duplicate, which is computed once (registers) or redundantly (threads).
//
// Algorithm, for every line and chunk a thread holds (the scan order is the
// increasing axis position, or the decreasing one with `reverse`, which
// mirrors registers, lanes (shfl.down instead of shfl.up), chunks and warps):
//   1. in the thread: a sequential scan over the chunk's 2^a registers;
//   2. across lanes (b > 0): the chunk's last value t goes through a
//      Kogge-Stone scan over the lane rank along the axis: for i < b,
//        t = rank >= 2^i ? combine(shfl.up(t, 2^i ranks), t) : t
//      then the exclusive prefix shfl.up(t, 1 rank) is combined into the
//      chunk's other registers of every lane of rank > 0 (the last becomes
//      t);
//   3a. chunks without warps along the axis (c = 0, d > 0): each chunk's
//      total (its last register in the last lane, broadcast by shfl.idx)
//      is folded into a running carry that is combined into the next chunk;
//   3b. across warps (c > 0): the last lane of every warp stores each
//      (line, chunk) total at scratch[chunk][warp rank][line]; after a
//      barrier every thread, chunk by chunk, loads the totals of its lines
//      and combines into chunk k of warp w the totals of all chunks before k
//      (every warp, a running carry per line) and of chunk k of the warps
//      before w: it holds one chunk's totals at a time.  The line is the
//      fastest index: lanes that hold different lines then touch consecutive
//      words, where with the line slowest, lines a multiple of
//      32 / (chunks * warps) apart fall on one bank.
// The scratch (3b only) holds one region per operand of lines * chunks *
// warp ranks elements; getScanScratchBytes sizes it from the same plan
// (layout::makeScanPlan, include/tritium/Layout/ScanRule.h).
// No barrier precedes the scratch stores: the membar analysis orders them
// after earlier users of the buffer.
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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
#include "tritium/Layout/ScanRule.h"
#include "llvm/Support/MathExtras.h"

#include <string>

using namespace mlir;
using namespace tritium;
using layout::HwDim;
using layout::LinearLayout;

namespace {

using layout::ScanPlan;

/// Bytes of the scratch region of each operand: whole multiples of 8 so
/// that every region is aligned for any element.
int64_t regionBytes(const ScanPlan &plan, int64_t elementBytes) {
  return llvm::alignTo(plan.scratchElements() * elementBytes, 8);
}

/// Values of the N operands at one position.
using Values = SmallVector<Value>;

struct ScanLowering : public ConvertOpToLLVMPattern<tt::ScanOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
    if (!ttg::getDistributedEncoding(srcType))
      return op.emitError("only scans of tensors with a distributed layout "
                          "can be lowered");
    int axis = static_cast<int>(op.getAxis());
    LinearLayout layout = getLinearLayout(srcType);
    std::string why;
    std::optional<ScanPlan> plan = layout::makeScanPlan(layout, axis, why);
    if (!plan)
      return op.emitError("cannot lower the scan along axis ")
             << axis << " of this layout: " << why;

    Location loc = op.getLoc();
    auto &converter = TTGToLLVMTypeConverter::of(getTypeConverter());
    ScanEmitter emitter{rewriter, loc, op, *plan, layout, axis,
                        op.getReverse()};
    int64_t numOperands = op.getSrcs().size();
    // values[reg][operand]
    SmallVector<Values> values(plan->numRegisters, Values(numOperands));
    for (auto [i, src] : llvm::enumerate(adaptor.getSrcs())) {
      SmallVector<Value> elements = unpackElements(rewriter, loc, src);
      for (int64_t reg = 0; reg < plan->numRegisters; ++reg)
        values[reg][i] = elements[reg];
    }
    if (failed(emitter.run(converter, values)))
      return failure();

    SmallVector<Value> results;
    for (auto [i, result] : llvm::enumerate(op.getResults())) {
      SmallVector<Value> elements;
      for (int64_t reg = 0; reg < plan->numRegisters; ++reg)
        elements.push_back(values[reg][i]);
      results.push_back(packElements(
          rewriter, loc, converter.convertType(result.getType()), elements));
    }
    rewriter.replaceOp(op, results);
    return success();
  }

  /// The code of one scan.
  struct ScanEmitter {
    ConversionPatternRewriter &b;
    Location loc;
    tt::ScanOp op;
    const ScanPlan &plan;
    const LinearLayout &layout;
    int axis;
    bool reverse;

    Value constant(int64_t value) {
      return LLVM::ConstantOp::create(b, loc, b.getI32Type(), value);
    }
    Values combine(ValueRange acc, ValueRange cur) {
      return emitCombine(b, loc, op.getCombineOp(), acc, cur);
    }
    Values select(Value condition, ValueRange ifTrue, ValueRange ifFalse) {
      Values result;
      for (auto [t, f] : llvm::zip(ifTrue, ifFalse))
        result.push_back(LLVM::SelectOp::create(b, loc, condition, t, f));
      return result;
    }
    Value compare(LLVM::ICmpPredicate predicate, Value lhs, int64_t rhs) {
      return LLVM::ICmpOp::create(b, loc, predicate, lhs, constant(rhs));
    }
    /// Index `k` of the scan order among `count` (mirrored when reverse).
    int64_t ordered(int64_t k, int64_t count) const {
      return reverse ? count - 1 - k : k;
    }
    /// The bits [shift, shift + bits) of `value`, mirrored when reverse:
    /// a rank in scan order.
    Value scanRank(Value value, int shift, int bits) {
      if (shift > 0)
        value = LLVM::LShrOp::create(b, loc, value, constant(shift));
      int64_t mask = (int64_t(1) << bits) - 1;
      value = LLVM::AndOp::create(b, loc, value, constant(mask));
      if (reverse)
        value = LLVM::XOrOp::create(b, loc, value, constant(mask));
      return value;
    }

    LogicalResult run(const TTGToLLVMTypeConverter &converter,
                      SmallVector<Values> &values) {
      ModuleOp module = op->getParentOfType<ModuleOp>();
      ThreadIndex thread = emitThreadIndex(b, loc, module);
      bool needsIndices = plan.laneBits > 0 || plan.needsScratch();
      SmallVector<SmallVector<Value>> indices;
      Value laneRank, warpRank; // in scan order
      if (needsIndices) {
        indices = emitIndices(b, loc, layout, thread);
        // Register 0 has no axis part: its axis coordinate is the lane
        // rank at bit a and the warp rank at bit a + b.
        Value axisCoord = indices[0][axis];
        if (plan.laneBits > 0)
          laneRank = scanRank(axisCoord, plan.regLowBits(), plan.laneBits);
        if (plan.needsScratch())
          warpRank = scanRank(axisCoord, plan.regLowBits() + plan.laneBits,
                              plan.warpBits);
      }

      // The lines this thread computes: register bits off the axis, without
      // the duplicate (zero-basis) ones.
      SmallVector<int64_t> lines;
      for (int64_t line = 0; line < plan.numRegisters; ++line)
        if ((line & (plan.axisRegisterMask | plan.zeroRegisterMask)) == 0)
          lines.push_back(line);
      auto chunkRegisters = [&](int64_t line, int64_t chunk) {
        SmallVector<int64_t> regs;
        for (int64_t k = 0; k < plan.chunkSize(); ++k)
          regs.push_back(plan.registerOf(line, chunk,
                                         ordered(k, plan.chunkSize())));
        return regs;
      };

      // 1. and 2.: in the thread, then across lanes.
      for (int64_t line : lines)
        for (int64_t chunk = 0; chunk < plan.numChunks(); ++chunk) {
          SmallVector<int64_t> regs = chunkRegisters(line, chunk);
          for (size_t k = 1; k < regs.size(); ++k)
            values[regs[k]] = combine(values[regs[k - 1]], values[regs[k]]);
          if (plan.laneBits > 0)
            scanLanes(values, regs, laneRank);
        }

      // 3a. chunks of one warp follow one another.
      if (!plan.needsScratch() && plan.numChunks() > 1)
        for (int64_t line : lines)
          carryChunksInWarp(values, line, thread.lane, chunkRegisters);

      // 3b. across warps, through shared memory.
      if (plan.needsScratch() &&
          failed(scanWarps(converter, values, lines, indices, laneRank,
                           warpRank, chunkRegisters)))
        return failure();

      // Duplicate registers copy the register they duplicate.
      for (int64_t reg = 0; reg < plan.numRegisters; ++reg)
        if (int64_t original = reg & ~plan.zeroRegisterMask; original != reg)
          values[reg] = values[original];
      return success();
    }

    /// Step 2 for the registers `regs` (in scan order) of one chunk.
    void scanLanes(SmallVector<Values> &values, ArrayRef<int64_t> regs,
                   Value laneRank) {
      nvvm::ShuffleMode mode =
          reverse ? nvvm::ShuffleMode::Down : nvvm::ShuffleMode::Up;
      auto shuffle = [&](ValueRange vs, int rankDelta) {
        Values moved;
        for (Value v : vs)
          moved.push_back(shuffleValue(b, loc, mode, v,
                                       int32_t(rankDelta)
                                           << plan.firstLaneBit));
        return moved;
      };
      Values total = values[regs.back()];
      for (int i = 0; i < plan.laneBits; ++i) {
        Values earlier = shuffle(total, 1 << i);
        Value inRange = compare(LLVM::ICmpPredicate::uge, laneRank, 1 << i);
        total = select(inRange, combine(earlier, total), total);
      }
      values[regs.back()] = total;
      if (regs.size() == 1)
        return;
      Values exclusive = shuffle(total, 1);
      Value hasPrefix = compare(LLVM::ICmpPredicate::ne, laneRank, 0);
      for (int64_t reg : regs.drop_back())
        values[reg] =
            select(hasPrefix, combine(exclusive, values[reg]), values[reg]);
    }

    /// Step 3a for one line: chunk totals (the last lane's last register)
    /// are carried into the chunks after them.
    void carryChunksInWarp(
        SmallVector<Values> &values, int64_t line, Value lane,
        llvm::function_ref<SmallVector<int64_t>(int64_t, int64_t)>
            chunkRegisters) {
      Value lastLane;
      if (plan.laneBits > 0) {
        int64_t axisLanes = (plan.numLaneRanks() - 1) << plan.firstLaneBit;
        lastLane = LLVM::AndOp::create(b, loc, lane, constant(~axisLanes));
        if (!reverse)
          lastLane = LLVM::OrOp::create(b, loc, lastLane, constant(axisLanes));
      }
      // Every chunk's total first (independent shuffles), then the carries.
      SmallVector<Values> totals;
      for (int64_t k = 0; k + 1 < plan.numChunks(); ++k) {
        Values total =
            values[chunkRegisters(line, ordered(k, plan.numChunks())).back()];
        if (lastLane)
          for (Value &v : total)
            v = shuffleValue(b, loc, nvvm::ShuffleMode::Idx, v, lastLane);
        totals.push_back(total);
      }
      Values carry = totals[0];
      for (int64_t k = 1; k < plan.numChunks(); ++k) {
        for (int64_t reg :
             chunkRegisters(line, ordered(k, plan.numChunks())))
          values[reg] = combine(carry, values[reg]);
        if (k + 1 < plan.numChunks())
          carry = combine(carry, totals[k]);
      }
    }

    /// Step 3b.
    LogicalResult scanWarps(
        const TTGToLLVMTypeConverter &converter, SmallVector<Values> &values,
        ArrayRef<int64_t> lines, ArrayRef<SmallVector<Value>> indices,
        Value laneRank, Value warpRank,
        llvm::function_ref<SmallVector<int64_t>(int64_t, int64_t)>
            chunkRegisters) {
      Value buffer = getBufferPointer(b, op);
      if (!buffer)
        return failure();
      int64_t numOperands = op.getSrcs().size();
      int64_t numChunks = plan.numChunks();
      int64_t numWarps = plan.numWarpRanks();

      // One region per operand.
      SmallVector<Value> regions;
      SmallVector<Type> memoryTypes, registerTypes;
      int64_t offset = 0;
      for (Value src : op.getSrcs()) {
        Type elementType = getElementTypeOrSelf(src.getType());
        Type memoryType = converter.convertMemoryElementType(elementType);
        memoryTypes.push_back(memoryType);
        registerTypes.push_back(converter.convertElementType(elementType));
        regions.push_back(
            offset == 0
                ? buffer
                : LLVM::GEPOp::create(b, loc, buffer.getType(), b.getI8Type(),
                                      buffer, ArrayRef<LLVM::GEPArg>{offset})
                      .getResult());
        offset += regionBytes(plan, getElementBytes(elementType));
      }
      auto pointer = [&](int64_t i, Value index) {
        return LLVM::GEPOp::create(b, loc, regions[i].getType(),
                                   memoryTypes[i], regions[i],
                                   ValueRange{index});
      };
      auto bytes = [&](int64_t i) {
        return TTGToLLVMTypeConverter::getMemoryBits(memoryTypes[i]) / 8;
      };

      // The scratch element of (chunk, warp, line) is
      // (chunk * warps + warp) * lines + line, the line index row-major over
      // the coordinates off the axis (null for 0, which 1-D scans have).
      SmallVector<int64_t> otherShape;
      int64_t numLines = 1;
      for (auto [dim, size] : llvm::enumerate(layout.shape()))
        if (static_cast<int>(dim) != axis) {
          otherShape.push_back(size);
          numLines *= size;
        }
      SmallVector<Value> lineBase;
      for (int64_t line : lines) {
        SmallVector<Value> coords;
        for (auto [dim, coord] : llvm::enumerate(indices[line]))
          if (static_cast<int>(dim) != axis)
            coords.push_back(coord);
        lineBase.push_back(otherShape.empty() ? Value()
                                              : emitRowMajorOffset(
                                                    b, loc, coords, otherShape));
      }
      // base + offset, with a null base meaning 0.
      auto addOffset = [&](Value base, int64_t offset) -> Value {
        if (!base)
          return constant(offset);
        if (offset == 0)
          return base;
        return LLVM::AddOp::create(b, loc, base, constant(offset));
      };

      // Stores: the last lane along the axis holds its warp's totals.
      {
        OpBuilder::InsertionGuard guard(b);
        if (plan.laneBits > 0) {
          Value isLast = compare(LLVM::ICmpPredicate::eq, laneRank,
                                 plan.numLaneRanks() - 1);
          auto ifOp = scf::IfOp::create(b, loc, isLast,
                                        /*withElseRegion=*/false);
          b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        }
        // The physical warp rank (warpRank is in scan order), times lines.
        Value warp = reverse ? LLVM::XOrOp::create(b, loc, warpRank,
                                                   constant(numWarps - 1))
                                   .getResult()
                             : warpRank;
        if (numLines > 1)
          warp = LLVM::MulOp::create(b, loc, warp, constant(numLines));
        for (auto [l, line] : llvm::enumerate(lines))
          for (int64_t chunk = 0; chunk < numChunks; ++chunk) {
            Value index =
                !lineBase[l] && chunk == 0
                    ? warp
                    : LLVM::AddOp::create(
                          b, loc,
                          addOffset(lineBase[l], chunk * numWarps * numLines),
                          warp)
                          .getResult();
            int64_t last = chunkRegisters(line, chunk).back();
            for (int64_t i = 0; i < numOperands; ++i) {
              Value v = values[last][i];
              if (v.getType() != memoryTypes[i])
                v = LLVM::ZExtOp::create(b, loc, memoryTypes[i], v); // i1
              LLVM::StoreOp::create(b, loc, v, pointer(i, index), bytes(i));
            }
          }
      }
      nvvm::barrier(b, loc);

      // Loads and prefixes, chunk by chunk in scan order and line by line
      // within a chunk: a chunk's totals are loaded where they are combined
      // (one vector load takes the same total of neighbouring lines), so a
      // thread holds one chunk's totals and each line's carry at a time
      // rather than every total of every line.
      // carries[l]: all chunks before this one, every warp, of line l.
      SmallVector<Values> carries(lines.size());
      for (int64_t chunk = 0; chunk < numChunks; ++chunk) {
        for (auto [l, line] : llvm::enumerate(lines)) {
          // totals[warp] of this chunk in scan order.
          SmallVector<Values> totals(numWarps);
          for (int64_t warp = 0; warp < numWarps; ++warp) {
            if (chunk + 1 == numChunks && warp + 1 == numWarps)
              continue; // the total of everything: nobody needs it
            Value index = addOffset(lineBase[l],
                                    (ordered(chunk, numChunks) * numWarps +
                                     ordered(warp, numWarps)) *
                                        numLines);
            for (int64_t i = 0; i < numOperands; ++i) {
              Value v = LLVM::LoadOp::create(b, loc, memoryTypes[i],
                                             pointer(i, index), bytes(i));
              if (v.getType() != registerTypes[i])
                v = LLVM::TruncOp::create(b, loc, registerTypes[i], v); // i1
              totals[warp].push_back(v);
            }
          }
          Values &carry = carries[l];
          // prefix: carry and this chunk's warps before warpRank; running:
          // carry and this chunk's warps up to w.
          Values running = carry, prefix = carry;
          for (int64_t w = 0; w + 1 < numWarps; ++w) {
            running = running.empty() ? totals[w] : combine(running, totals[w]);
            prefix = prefix.empty()
                         ? running
                         : select(compare(LLVM::ICmpPredicate::ugt, warpRank,
                                          w),
                                  running, prefix);
          }
          Value hasPrefix =
              carry.empty() ? compare(LLVM::ICmpPredicate::ne, warpRank, 0)
                            : Value();
          for (int64_t reg :
               chunkRegisters(line, ordered(chunk, numChunks))) {
            Values combined = combine(prefix, values[reg]);
            values[reg] = hasPrefix ? select(hasPrefix, combined, values[reg])
                                    : combined;
          }
          if (chunk + 1 < numChunks)
            carry = combine(running, totals[numWarps - 1]);
        }
      }
      return success();
    }
  };
};
} // namespace

void tritium::populateScanOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<ScanLowering>(converter, kTritiumPatternBenefit);
}

int64_t tritium::getScanScratchBytes(Operation *op) {
  auto scan = cast<tt::ScanOp>(op);
  auto srcType = cast<RankedTensorType>(scan.getSrcs().front().getType());
  if (!ttg::getDistributedEncoding(srcType))
    return 0;
  std::string why;
  std::optional<ScanPlan> plan = layout::makeScanPlan(getLinearLayout(srcType),
                                          static_cast<int>(scan.getAxis()),
                                          why);
  if (!plan || !plan->needsScratch())
    return 0; // unsupported layouts are reported by the lowering
  int64_t bytes = 0;
  for (Value src : scan.getSrcs())
    bytes += regionBytes(*plan, getElementBytes(getElementTypeOrSelf(src)));
  return bytes;
}
