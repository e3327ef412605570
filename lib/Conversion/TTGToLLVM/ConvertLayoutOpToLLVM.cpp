//===- ConvertLayoutOpToLLVM.cpp - ttg.convert_layout to LLVM -------------===//
//
// Four paths, chosen by getConvertLayoutPath, the same function the
// shared-memory allocation uses (only the last one gets a buffer):
//   * Registers: every element of the result is already in the same
//     thread: pick registers, no code;
//   * WarpShuffle: no element changes warps and each destination register
//     can be read from one source register of another lane (the scheme of
//     layout/WarpShufflePlan.h): per destination register one
//     shfl.sync.idx of source register srcRegister[r] from lane
//     laneXor[r] ^ laneMap(lane), where laneMap(lane) is computed once from
//     the lane id with a few and/shift/xor ops; registers that stay in
//     their lane and duplicates of earlier registers cost nothing;
//   * WarpTransfer: no element changes warps, but a register bit trades
//     places with a lane bit (one at most, as under Triton; more go through
//     shared memory) (layout/WarpShufflePlan.h's WarpTransferPlan):
//     per register one shfl.sync.idx, the register each lane sends chosen
//     by selects on its lane bits, and the register each lane keeps the
//     value in chosen the same way after it;
//   Elements of 8 or 16 bits take these two paths in 32-bit words where
//   the layouts allow (layout/WarpShufflePlan.h's WordConversion); words
//   of four bytes leave the WarpTransfer path through one prmt per four
//   destination registers, whose selector also makes the receiver's
//   choice;
//   * SharedMemory: through the op's scratch buffer:
//       store the source registers at their tile offsets
//       barrier          (every element is written)
//       load the result registers from their tile offsets
//     The barrier before the store (earlier readers of the buffer are
//     done) is the membar pass's to insert, as between any two ops that
//     share bytes of shared memory.
//     A tile larger than shared memory goes in parts (layout/ConvertParts.h)
//     through a scratch of one part: store part p, barrier, load part p,
//     barrier before part p + 1's store.
//     The tile is row-major, over the tensor's dimensions in the plan's
//     order (both layouts' dimensions permuted the same way), with a pad
//     after every row or its chunks XOR swizzled per row (whichever models
//     faster), and each phase has its own vector width, as
//     getConvertScratchPlan chose them (the same plan sized the buffer) to
//     keep both phases free of bank conflicts as far as the model of
//     layout/BankConflicts.h can.
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "tritium/Analysis/Allocation.h"
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"
#include "tritium/Conversion/TTGToLLVM/NVVMHelpers.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/SharedMemoryAccess.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Conversion/TTGToLLVM/WarpShuffle.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Layout/WarpShufflePlan.h"

#include <map>

using namespace mlir;
using namespace tritium;

namespace {
/// laneMap(lane) of `plan` as an i32: bit i of `lane` flips the source lane
/// bits plan.laneMap[i].  Contributions that move by the same distance are
/// one and + shift; groups are XORed (two lane bits may flip one bit).
Value emitLaneMap(OpBuilder &builder, Location loc, ArrayRef<int64_t> laneMap,
                  Value lane) {
  std::map<int, int64_t> maskByShift; // shift (target - source) -> bits
  for (int i = 0, e = laneMap.size(); i < e; ++i)
    for (int j = 0; j < 32; ++j)
      if (laneMap[i] & (int64_t(1) << j))
        maskByShift[j - i] |= int64_t(1) << i;
  auto constant = [&](int64_t value) {
    return LLVM::ConstantOp::create(builder, loc, builder.getI32Type(), value);
  };
  Value result;
  for (auto [shift, mask] : maskByShift) {
    Value term = LLVM::AndOp::create(builder, loc, lane, constant(mask));
    if (shift > 0)
      term = LLVM::ShlOp::create(builder, loc, term, constant(shift));
    else if (shift < 0)
      term = LLVM::LShrOp::create(builder, loc, term, constant(-shift));
    result = result
                 ? LLVM::XOrOp::create(builder, loc, result, term).getResult()
                 : term;
  }
  return result ? result : constant(0);
}

/// The WarpShuffle path: the destination registers of this thread.
SmallVector<Value> shuffleWithinWarps(OpBuilder &builder, Location loc,
                                      ModuleOp module,
                                      const layout::LinearLayout &src,
                                      const layout::LinearLayout &dst,
                                      ArrayRef<Value> srcElements) {
  std::optional<layout::WarpShufflePlan> plan =
      layout::planWarpShuffle(src, dst);
  assert(plan && "getConvertLayoutPath chose warp shuffles");
  SmallVector<int64_t> representative = getRepresentativeRegisters(dst);
  Value lane = emitThreadIndex(builder, loc, module).lane;
  Value laneMap =
      plan->isIdentityLaneMap() ? lane
                                : emitLaneMap(builder, loc, plan->laneMap, lane);
  std::map<std::pair<int64_t, int64_t>, Value> moved; // (reg, laneXor)
  SmallVector<Value> elements;
  for (int64_t reg = 0; reg < dst.elemsPerThread(); ++reg) {
    if (representative[reg] != reg) {
      elements.push_back(elements[representative[reg]]);
      continue;
    }
    int64_t srcReg = plan->srcRegister[reg];
    if (plan->isLocal(reg)) {
      elements.push_back(srcElements[srcReg]);
      continue;
    }
    Value &value = moved[{srcReg, plan->laneXor[reg]}];
    if (!value) {
      Value srcLane = laneMap;
      if (plan->laneXor[reg] != 0)
        srcLane = LLVM::XOrOp::create(
            builder, loc, laneMap,
            LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                     plan->laneXor[reg]));
      value = shuffleValue(builder, loc, nvvm::ShuffleMode::Idx,
                           srcElements[srcReg], srcLane);
    }
    elements.push_back(value);
  }
  return elements;
}

/// A linear map given per lane bit (columns of register or shuffle-index
/// bits) as choices: the basis of its image, and per basis vector the lane
/// bits whose columns hold it (their parity in a lane says whether the
/// map's value there includes that vector).
struct LaneChoices {
  SmallVector<int64_t> basis;
  SmallVector<int64_t> laneMasks;
};

LaneChoices laneChoices(ArrayRef<int64_t> columns) {
  LaneChoices choices;
  // Reduced rows keyed by their highest bit, each with the basis vectors
  // (by index) it combines.
  std::map<int, std::pair<int64_t, int64_t>> rows;
  auto reduce = [&](int64_t &v, int64_t &combo) {
    for (auto it = rows.rbegin(); it != rows.rend(); ++it)
      if (v & (int64_t(1) << it->first)) {
        v ^= it->second.first;
        combo ^= it->second.second;
      }
  };
  for (int64_t column : columns) {
    int64_t v = column, combo = 0;
    reduce(v, combo);
    if (v) {
      int index = choices.basis.size();
      choices.basis.push_back(column);
      choices.laneMasks.push_back(0);
      rows[63 - __builtin_clzll(v)] = {v, combo ^ (int64_t(1) << index)};
    }
  }
  for (int i = 0, e = columns.size(); i < e; ++i) {
    int64_t v = columns[i], combo = 0;
    reduce(v, combo);
    for (int a = 0, n = choices.basis.size(); a < n; ++a)
      if (combo & (int64_t(1) << a))
        choices.laneMasks[a] |= int64_t(1) << i;
  }
  return choices;
}

/// Per basis vector of `choices`, whether this lane's value includes it.
SmallVector<Value> emitChoiceBits(OpBuilder &builder, Location loc,
                                  const LaneChoices &choices, Value lane) {
  auto i32 = builder.getI32Type();
  auto constant = [&](int64_t value) {
    return LLVM::ConstantOp::create(builder, loc, i32, value);
  };
  SmallVector<Value> bits;
  for (int64_t mask : choices.laneMasks) {
    Value masked = LLVM::AndOp::create(builder, loc, lane, constant(mask));
    Value parity = LLVM::CtPopOp::create(builder, loc, i32, masked);
    bits.push_back(LLVM::TruncOp::create(builder, loc, builder.getI1Type(), parity));
  }
  return bits;
}

/// values[S] for every subset S of the basis, reduced to the one this lane
/// picks (the subset its choice bits name) by a tree of selects.
Value selectByChoices(OpBuilder &builder, Location loc,
                      SmallVector<Value> values, ArrayRef<Value> bits) {
  for (int a = 0, n = bits.size(); a < n; ++a)
    for (size_t subset = 0; subset < values.size(); ++subset)
      if (!(subset & (size_t(1) << a)))
        values[subset] = LLVM::SelectOp::create(
            builder, loc, bits[a], values[subset | (size_t(1) << a)],
            values[subset]);
  return values[0];
}

/// The XOR of `columns[b]` over the set bits b of `x`.
int64_t xorOfColumns(ArrayRef<int64_t> columns, int64_t x) {
  int64_t y = 0;
  for (int b = 0, e = columns.size(); b < e; ++b)
    if (x & (int64_t(1) << b))
      y ^= columns[b];
  return y;
}

/// The XOR of the basis vectors of `choices` that `subset` names.
int64_t subsetXor(const LaneChoices &choices, size_t subset) {
  int64_t y = 0;
  for (int a = 0, n = choices.basis.size(); a < n; ++a)
    if (subset & (size_t(1) << a))
      y ^= choices.basis[a];
  return y;
}

/// The shuffles of the WarpTransfer path: per shuffle k the value this lane
/// received, and the choice each destination register makes among them.
struct TransferShuffles {
  layout::WarpTransferPlan plan;
  SmallVector<Value> received;
  LaneChoices keep;
  SmallVector<Value> keepBits;

  /// The received value destination register `reg` keeps when this lane's
  /// keep choice is `subset`.
  int64_t keptFrom(int64_t reg, size_t subset) const {
    return xorOfColumns(plan.shuffleOfDstRegister, reg) ^ subsetXor(keep, subset);
  }
  size_t numSubsets() const { return size_t(1) << keep.basis.size(); }
};

/// Per shuffle k, each lane sends its register k + M(lane), chosen by
/// selects, and reads lane P(lane) + Q(k).
TransferShuffles shuffleForTransfer(OpBuilder &builder, Location loc,
                                    ModuleOp module,
                                    const layout::LinearLayout &src,
                                    const layout::LinearLayout &dst,
                                    ArrayRef<Value> srcElements) {
  std::optional<layout::WarpTransferPlan> plan =
      layout::planWarpTransfer(src, dst);
  assert(plan && "getConvertLayoutPath chose a warp transfer");
  TransferShuffles result{*plan, {}, laneChoices(plan->shuffleOfLane), {}};
  Value lane = emitThreadIndex(builder, loc, module).lane;
  LaneChoices send = laneChoices(plan->sendRegisterOfLane);
  SmallVector<Value> sendBits = emitChoiceBits(builder, loc, send, lane);
  result.keepBits = emitChoiceBits(builder, loc, result.keep, lane);
  bool identityLanes = true;
  for (int i = 0, e = plan->srcLaneOfLane.size(); i < e; ++i)
    identityLanes &= plan->srcLaneOfLane[i] == (int64_t(1) << i);
  Value laneBase =
      identityLanes ? lane : emitLaneMap(builder, loc, plan->srcLaneOfLane, lane);
  for (int64_t k = 0; k < plan->numShuffles(); ++k) {
    SmallVector<Value> candidates;
    for (size_t subset = 0; subset < (size_t(1) << send.basis.size()); ++subset)
      candidates.push_back(srcElements[k ^ subsetXor(send, subset)]);
    Value value = selectByChoices(builder, loc, candidates, sendBits);
    int64_t laneXor = xorOfColumns(plan->srcLaneOfShuffle, k);
    if (identityLanes && laneXor == 0 && send.basis.empty()) {
      result.received.push_back(value);
      continue;
    }
    Value srcLane = laneBase;
    if (laneXor != 0)
      srcLane = LLVM::XOrOp::create(
          builder, loc, laneBase,
          LLVM::ConstantOp::create(builder, loc, builder.getI32Type(), laneXor));
    result.received.push_back(
        shuffleValue(builder, loc, nvvm::ShuffleMode::Idx, value, srcLane));
  }
  return result;
}

/// The WarpTransfer path (layout/WarpShufflePlan.h's WarpTransferPlan): the
/// shuffles, then each destination register j takes, by selects, the value
/// of shuffle R^-1 j + R^-1 N(lane).
SmallVector<Value> transferWithinWarps(OpBuilder &builder, Location loc,
                                       ModuleOp module,
                                       const layout::LinearLayout &src,
                                       const layout::LinearLayout &dst,
                                       ArrayRef<Value> srcElements) {
  TransferShuffles shuffles =
      shuffleForTransfer(builder, loc, module, src, dst, srcElements);
  SmallVector<Value> elements;
  for (int64_t reg = 0; reg < dst.elemsPerThread(); ++reg) {
    SmallVector<Value> candidates;
    for (size_t subset = 0; subset < shuffles.numSubsets(); ++subset)
      candidates.push_back(shuffles.received[shuffles.keptFrom(reg, subset)]);
    elements.push_back(
        selectByChoices(builder, loc, candidates, shuffles.keepBits));
  }
  return elements;
}

/// The 16-bit value whose low and high bytes are `lo` and `hi`, put
/// together with integer operations: where they are the two bytes of one
/// value (an fp8 pair from one cvt, split into trunc(x) and trunc(x >> 8)),
/// LLVM folds the whole back to that value, which it does not through a
/// vector of bytes.
Value halfOfBytes(OpBuilder &builder, Location loc, Value lo, Value hi) {
  Type i16 = builder.getI16Type();
  Value wideLo = LLVM::ZExtOp::create(builder, loc, i16, lo);
  Value wideHi = LLVM::ZExtOp::create(builder, loc, i16, hi);
  Value eight = LLVM::ConstantOp::create(builder, loc, i16,
                                         builder.getI16IntegerAttr(8));
  return LLVM::OrOp::create(builder, loc, wideLo,
                            LLVM::ShlOp::create(builder, loc, wideHi, eight));
}

/// The WarpTransfer path on words of four 8-bit elements: each four
/// consecutive destination registers (one register of an 8-bit mma
/// operand) are one `prmt` of the at most two received words that hold
/// them, its selector picked by the lane's keep choice, so the receiver's
/// selects and the regrouping of bytes are one instruction (as in
/// Triton's lowering).  A group spread over more words takes the selects.
SmallVector<Value> permuteReceivedBytes(OpBuilder &builder, Location loc,
                                        ModuleOp module,
                                        const layout::WordConversion &words,
                                        const layout::LinearLayout &dst,
                                        ArrayRef<Value> srcWords,
                                        Type elementType) {
  TransferShuffles shuffles = shuffleForTransfer(
      builder, loc, module, words.src, words.dst, srcWords);
  // Where each destination register is: (word, byte).
  SmallVector<std::pair<int64_t, int64_t>> place(dst.elemsPerThread());
  for (int64_t w = 0; w < words.dst.elemsPerThread(); ++w)
    for (int64_t e = 0; e < words.elementsPerWord(); ++e)
      place[layout::WordConversion::originalRegister(w, e, words.dstBits)] = {w,
                                                                           e};
  Type i8 = builder.getI8Type(), i32 = builder.getI32Type();
  auto bytesType = VectorType::get({4}, i8);
  auto constant = [&](int64_t value) {
    return LLVM::ConstantOp::create(builder, loc, i32, value);
  };
  SmallVector<Value> elements(dst.elemsPerThread());
  auto unpackInto = [&](Value word, int64_t byte, int64_t reg) {
    Value bytes = LLVM::BitcastOp::create(builder, loc, bytesType, word);
    Value element =
        LLVM::ExtractElementOp::create(builder, loc, bytes, constant(byte));
    if (elementType != i8)
      element = LLVM::BitcastOp::create(builder, loc, elementType, element);
    elements[reg] = element;
  };
  SmallVector<Value> keptWords(words.dst.elemsPerThread());
  auto keptWord = [&](int64_t w) {
    if (!keptWords[w]) {
      SmallVector<Value> candidates;
      for (size_t subset = 0; subset < shuffles.numSubsets(); ++subset)
        candidates.push_back(shuffles.received[shuffles.keptFrom(w, subset)]);
      keptWords[w] =
          selectByChoices(builder, loc, candidates, shuffles.keepBits);
    }
    return keptWords[w];
  };
  for (int64_t first = 0; first < dst.elemsPerThread(); first += 4) {
    SmallVector<int64_t> sources; // received words, at most two
    SmallVector<int64_t> selectors(shuffles.numSubsets(), 0);
    bool fits = true;
    for (size_t subset = 0; subset < shuffles.numSubsets() && fits; ++subset)
      for (int64_t j = 0; j < 4 && fits; ++j) {
        auto [w, byte] = place[first + j];
        int64_t k = shuffles.keptFrom(w, subset);
        auto *it = llvm::find(sources, k);
        if (it == sources.end()) {
          fits = sources.size() < 2;
          sources.push_back(k);
          it = sources.end() - 1;
        }
        selectors[subset] |= (4 * (it - sources.begin()) + byte) << (4 * j);
      }
    if (!fits) {
      for (int64_t j = 0; j < 4; ++j)
        unpackInto(keptWord(place[first + j].first), place[first + j].second,
                   first + j);
      continue;
    }
    Value lo = shuffles.received[sources[0]];
    Value hi = sources.size() > 1 ? shuffles.received[sources[1]] : lo;
    SmallVector<Value> choices;
    for (int64_t selector : selectors)
      choices.push_back(constant(selector));
    Value selector =
        llvm::all_equal(selectors)
            ? choices.front()
            : selectByChoices(builder, loc, choices, shuffles.keepBits);
    Value word = NVVM::PermuteOp::create(builder, loc, i32, lo, hi, selector,
                                         NVVM::PermuteMode::DEFAULT);
    for (int64_t j = 0; j < 4; ++j)
      unpackInto(word, j, first + j);
  }
  return elements;
}

/// The WarpShuffle and WarpTransfer paths.  Elements of 8 or 16 bits move
/// in 32-bit words where the layouts allow (layout::planWordConversion):
/// the elements of a word share a thread before and after, so the plan is
/// made for the layouts of words and each shuffle and select moves up to
/// four elements.
SmallVector<Value> convertWithinWarps(OpBuilder &builder, Location loc,
                                      ModuleOp module, ConvertLayoutPath path,
                                      const layout::LinearLayout &src,
                                      const layout::LinearLayout &dst,
                                      ArrayRef<Value> srcElements) {
  bool shuffle = path == ConvertLayoutPath::WarpShuffle;
  auto lower = shuffle ? shuffleWithinWarps : transferWithinWarps;
  Type elementType = srcElements.front().getType();
  unsigned bits =
      elementType.isIntOrFloat() ? elementType.getIntOrFloatBitWidth() : 0;
  std::optional<layout::WordConversion> words;
  if (bits == 8 || bits == 16)
    words = layout::planWordConversion(src, dst, bits == 8 ? 2 : 1);
  if (words && !(shuffle ? layout::planWarpShuffle(words->src, words->dst)
                               .has_value()
                         : layout::planWarpTransfer(words->src, words->dst)
                               .has_value()))
    words.reset();
  if (!words)
    return lower(builder, loc, module, src, dst, srcElements);
  int64_t perWord = words->elementsPerWord();
  Type intType = builder.getIntegerType(bits);
  Type wordType = builder.getIntegerType(perWord * bits);
  Type i32 = builder.getI32Type();
  auto vectorType = VectorType::get({perWord}, intType);
  auto index = [&](int64_t i) {
    return LLVM::ConstantOp::create(builder, loc, i32, i);
  };
  SmallVector<Value> srcWords;
  for (int64_t w = 0; w < words->src.elemsPerThread(); ++w) {
    SmallVector<Value> parts;
    for (int64_t e = 0; e < perWord; ++e) {
      Value element = srcElements[layout::WordConversion::originalRegister(
          w, e, words->srcBits)];
      if (element.getType() != intType)
        element = LLVM::BitcastOp::create(builder, loc, intType, element);
      parts.push_back(element);
    }
    // Bytes go in by halves (halfOfBytes).
    Type partType = intType;
    if (bits == 8 && perWord >= 2) {
      SmallVector<Value> halves;
      for (int64_t e = 0; e < perWord; e += 2)
        halves.push_back(halfOfBytes(builder, loc, parts[e], parts[e + 1]));
      parts = halves;
      partType = builder.getI16Type();
    }
    Value word;
    if (parts.size() == 1) {
      word = parts.front();
    } else {
      auto partsType = VectorType::get({int64_t(parts.size())}, partType);
      Value vector = LLVM::UndefOp::create(builder, loc, partsType);
      for (auto [e, part] : llvm::enumerate(parts))
        vector = LLVM::InsertElementOp::create(builder, loc, vector, part,
                                               index(int64_t(e)));
      word = LLVM::BitcastOp::create(builder, loc, wordType, vector);
    }
    if (wordType != i32)
      word = LLVM::ZExtOp::create(builder, loc, i32, word);
    srcWords.push_back(word);
  }
  if (!shuffle && bits == 8 && perWord == 4 && dst.elemsPerThread() % 4 == 0)
    return permuteReceivedBytes(builder, loc, module, *words, dst, srcWords,
                                elementType);
  SmallVector<Value> dstWords =
      lower(builder, loc, module, words->src, words->dst, srcWords);
  SmallVector<Value> elements(dst.elemsPerThread());
  for (auto [w, word] : llvm::enumerate(dstWords)) {
    if (wordType != i32)
      word = LLVM::TruncOp::create(builder, loc, wordType, word);
    Value vector = LLVM::BitcastOp::create(builder, loc, vectorType, word);
    for (int64_t e = 0; e < perWord; ++e) {
      Value element =
          LLVM::ExtractElementOp::create(builder, loc, vector, index(e));
      if (elementType != intType)
        element = LLVM::BitcastOp::create(builder, loc, elementType, element);
      elements[layout::WordConversion::originalRegister(
          int64_t(w), e, words->dstBits)] = element;
    }
  }
  return elements;
}

struct ConvertLayoutLowering
    : public ConvertOpToLLVMPattern<ttg::ConvertLayoutOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ttg::ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    if (!ttg::getDistributedEncoding(srcType) ||
        !ttg::getDistributedEncoding(dstType))
      return op.emitError("only conversions between distributed layouts "
                          "can be lowered");
    Location loc = op.getLoc();
    auto &converter = TTGToLLVMTypeConverter::of(getTypeConverter());
    Type resultType = converter.convertType(dstType);
    layout::LinearLayout srcLayout = getLinearLayout(srcType);
    layout::LinearLayout dstLayout = getLinearLayout(dstType);
    SmallVector<Value> srcElements =
        unpackElements(rewriter, loc, adaptor.getSrc());

    ConvertLayoutPath path = getConvertLayoutPath(srcType, dstType);
    if (path == ConvertLayoutPath::Registers) {
      auto mapping = getRegisterPermutation(srcLayout, dstLayout);
      assert(mapping && "getConvertLayoutPath chose registers");
      SmallVector<Value> elements;
      for (int64_t reg : *mapping)
        elements.push_back(srcElements[reg]);
      rewriter.replaceOp(op, packElements(rewriter, loc, resultType, elements));
      return success();
    }
    if (path == ConvertLayoutPath::WarpShuffle ||
        path == ConvertLayoutPath::WarpTransfer) {
      SmallVector<Value> elements = convertWithinWarps(
          rewriter, loc, op->getParentOfType<ModuleOp>(), path, srcLayout,
          dstLayout, srcElements);
      rewriter.replaceOp(op, packElements(rewriter, loc, resultType, elements));
      return success();
    }

    std::optional<layout::ConvertScratchPlan> plan =
        getConvertScratchPlan(srcType, dstType);
    assert(plan && "getConvertLayoutPath chose shared memory");
    Value buffer = getBufferPointer(rewriter, op);
    if (!buffer)
      return failure();
    Type elementType = dstType.getElementType();
    Type memoryType = converter.convertMemoryElementType(elementType);
    Type registerType = converter.convertElementType(elementType);
    ThreadIndex thread =
        emitThreadIndex(rewriter, loc, op->getParentOfType<ModuleOp>());
    TileAccess store{plan->tile.pad, plan->storeVec, plan->tile.swizzle};
    TileAccess load{plan->tile.pad, plan->loadVec, plan->tile.swizzle};
    // Both phases address the tile in its dimension order.
    auto inTileOrder = [&](const layout::LinearLayout &layout) {
      return plan->order.empty() ? layout : layout.permuteOutDims(plan->order);
    };
    if (!plan->parts) {
      srcLayout = inTileOrder(srcLayout);
      dstLayout = inTileOrder(dstLayout);
      storeTile(rewriter, loc, buffer, srcElements, srcLayout, thread,
                memoryType, /*predicate=*/{}, store);
      nvvm::barrier(rewriter, loc);
      SmallVector<Value> elements = loadTile(rewriter, loc, buffer, dstLayout,
                                             thread, memoryType, registerType,
                                             load);
      rewriter.replaceOp(op, packElements(rewriter, loc, resultType, elements));
      return success();
    }
    // In parts: each through the same scratch, a barrier before every part
    // but the first (the previous part's loads are done).
    const layout::ConvertParts &parts = *plan->parts;
    SmallVector<Value> elements(dstLayout.elemsPerThread());
    for (int64_t part = 0; part < parts.numParts(); ++part) {
      if (part > 0)
        nvvm::barrier(rewriter, loc);
      SmallVector<Value> partElements;
      for (int64_t reg : parts.srcRegisters(part))
        partElements.push_back(srcElements[reg]);
      storeTile(rewriter, loc, buffer, partElements, inTileOrder(parts.srcPart),
                thread, memoryType, /*predicate=*/{}, store);
      nvvm::barrier(rewriter, loc);
      SmallVector<Value> loaded =
          loadTile(rewriter, loc, buffer, inTileOrder(parts.dstPart), thread,
                   memoryType, registerType, load);
      for (auto [reg, value] : llvm::zip(parts.dstRegisters(part), loaded))
        elements[reg] = value;
    }
    rewriter.replaceOp(op, packElements(rewriter, loc, resultType, elements));
    return success();
  }
};
} // namespace

void tritium::populateConvertLayoutOpToLLVMPatterns(
    TTGToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ConvertLayoutLowering>(converter, kTritiumPatternBenefit);
}
