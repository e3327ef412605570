//===- ReduceScanDotToHost.cpp - reductions, scans and dots ---------------===//
//
// convert-tt-to-host-llvm's patterns for `tt.reduce` (log2 n halvings),
// `tt.scan` (log2 n shifted combines), `tt.dot` (one vector FMA per row of
// the accumulator and k) and `tt.histogram` (a loop over the input adding
// one to the bin of each value below the number of bins, as an unsigned
// number after sign extension, as the GPU lowering counts).  Dots, and
// reductions and scans of more than 1024 elements, run in loops over stack
// copies of their operands, so that their code does not grow with the tile.
//
//===----------------------------------------------------------------------===//
#include "HostLowering.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"

using namespace mlir;
namespace tt = tritium::tt;
using namespace tritium::cpu;

namespace {

// -- reductions ---------------------------------------------------------------

/// Applies the combine region `body` (of `op`, a reduction or a scan)
/// element-wise to vectors of `count` elements: each scalar op of the
/// region rebuilt on vectors.
FailureOr<SmallVector<Value>> combineAsVectors(Operation *op, Block &body, ValueRange lhs, ValueRange rhs,
                                               int64_t count, ConversionPatternRewriter &rewriter) {
  IRMapping mapping;
  for (auto [arg, v] : llvm::zip(body.getArguments(), llvm::concat<const Value>(lhs, rhs)))
    mapping.map(arg, v);
  for (Operation &inner : body.without_terminator()) {
    if (inner.getNumRegions() != 0 || !isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()))
      return rewriter.notifyMatchFailure(op, "combine regions of arith and math ops only");
    if (auto constant = dyn_cast<arith::ConstantOp>(inner)) {
      auto type = VectorType::get({count}, constant.getType());
      auto attr = DenseElementsAttr::get(type, cast<TypedAttr>(constant.getValue()));
      mapping.map(constant.getResult(), arith::ConstantOp::create(rewriter, constant.getLoc(), attr));
      continue;
    }
    OperationState state(inner.getLoc(), inner.getName());
    for (Value operand : inner.getOperands()) {
      Value mapped = mapping.lookupOrNull(operand);
      if (!mapped) // a scalar from outside the region (a constant hoisted out of it): one per lane
        mapped = splat(rewriter, inner.getLoc(), operand, count);
      state.operands.push_back(mapped);
    }
    for (Type t : inner.getResultTypes())
      state.types.push_back(VectorType::get({count}, t));
    state.attributes = inner.getAttrs();
    Operation *vectorOp = rewriter.create(state);
    mapping.map(inner.getResults(), vectorOp->getResults());
  }
  SmallVector<Value> results;
  for (Value v : body.getTerminator()->getOperands())
    results.push_back(mapping.lookup(v));
  return results;
}

/// Whether combineAsVectors can rebuild `body` on vectors.
bool isVectorizableCombine(Block &body) {
  return llvm::all_of(body.without_terminator(), [](Operation &inner) {
    return inner.getNumRegions() == 0 && isa<arith::ArithDialect, math::MathDialect>(inner.getDialect());
  });
}

/// A tensor of `shape` viewed as [outer, length, inner] around `axis`.
struct AxisView {
  int64_t outer = 1, length = 1, inner = 1;
};
AxisView viewAround(ArrayRef<int64_t> shape, unsigned axis) {
  AxisView view;
  view.length = shape[axis];
  for (unsigned d = 0; d < axis; ++d)
    view.outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d)
    view.inner *= shape[d];
  return view;
}

/// Stack copies of `values` (flat vectors of `n` elements), with their
/// element types, and a stack result of `resultCount` elements for each.
struct OperandCopies {
  SmallVector<Type> elements;
  SmallVector<Value> srcMem, resultMem;
};
OperandCopies copyOperands(OpBuilder &b, Location loc, ArrayRef<Value> values, int64_t n, int64_t resultCount) {
  OperandCopies copies;
  Value zero = i32Constant(b, loc, 0);
  for (Value v : values) {
    copies.elements.push_back(getElementTypeOrSelf(v.getType()));
    copies.srcMem.push_back(entryAlloca(b, loc, copies.elements.back(), n));
    copies.resultMem.push_back(entryAlloca(b, loc, copies.elements.back(), resultCount));
    storeElements(b, loc, v, copies.srcMem.back(), zero);
  }
  return copies;
}

/// `values` (flat vectors of `shape`, one per operand of `op`) reduced
/// along `axis` in log2 halvings: each halving combines the low half of the
/// axis with the high half.
FailureOr<SmallVector<Value>> reduceByHalving(tt::ReduceOp op, SmallVector<Value> values,
                                              SmallVector<int64_t> shape, unsigned axis,
                                              ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  while (shape[axis] > 1) {
    SmallVector<int64_t> half = shape;
    half[axis] /= 2;
    SmallVector<int64_t> strides = stridesOf(shape), lowMask, highMask;
    int64_t count = 1;
    for (int64_t d : half)
      count *= d;
    for (int64_t i = 0; i < count; ++i) {
      SmallVector<int64_t> index = unflatten(i, half);
      int64_t low = 0;
      for (size_t d = 0; d < shape.size(); ++d)
        low += index[d] * strides[d];
      lowMask.push_back(low);
      highMask.push_back(low + half[axis] * strides[axis]);
    }
    SmallVector<Value> lows, highs;
    for (Value v : values) {
      lows.push_back(shuffle(rewriter, loc, v, lowMask));
      highs.push_back(shuffle(rewriter, loc, v, highMask));
    }
    FailureOr<SmallVector<Value>> combined =
        combineAsVectors(op, op.getCombineOp().front(), lows, highs, count, rewriter);
    if (failed(combined))
      return failure();
    values = *combined;
    shape = half;
  }
  return values;
}

/// Tensors of up to this many elements are reduced as whole vectors; larger
/// ones in loops over a stack copy, whose code does not grow with the tile.
constexpr int64_t kWholeVectorReduceLimit = 1024;

/// tt.reduce along an axis of L elements (a power of two).  A small tensor
/// is reduced by halvings of the whole vector.  A larger one, viewed as
/// [outer, L, inner], is stored to the stack, and for each of the outer
/// rows (scf.for): with inner == 1, its L elements are loaded as one vector
/// and reduced by halvings; otherwise the inner elements of l = 0 are
/// combined with those of l = 1, 2, ... in order (scf.for).  Each row's
/// inner results are stored to a stack result, loaded whole at the end.
struct ReduceConversion : OpConversionPattern<tt::ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::ReduceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
    SmallVector<int64_t> shape(srcType.getShape());
    unsigned axis = op.getAxis();
    if (!llvm::isPowerOf2_64(shape[axis]))
      return rewriter.notifyMatchFailure(op, "reductions over a power-of-two axis only");
    if (!isVectorizableCombine(op.getCombineOp().front()))
      return rewriter.notifyMatchFailure(op, "combine regions of arith and math ops only");
    SmallVector<Value> srcs(adaptor.getSrcs().begin(), adaptor.getSrcs().end());
    int64_t n = srcType.getNumElements();
    SmallVector<Value> reduced;
    if (n <= kWholeVectorReduceLimit) {
      FailureOr<SmallVector<Value>> whole = reduceByHalving(op, srcs, shape, axis, rewriter);
      if (failed(whole))
        return failure();
      reduced = *whole;
    } else {
      auto [outer, length, inner] = viewAround(shape, axis);
      auto [elements, srcMem, resultMem] = copyOperands(rewriter, loc, srcs, n, outer * inner);
      Value zero = i32Constant(rewriter, loc, 0);
      bool failedCombine = false;
      scf::ForOp::create(
          rewriter, loc, zero, i32Constant(rewriter, loc, outer), i32Constant(rewriter, loc, 1), ValueRange{},
          [&](OpBuilder &, Location, Value o, ValueRange) {
            // (the body builder is `rewriter`, placed in the loop body)
            Value rowBase = arith::MulIOp::create(rewriter, loc, o, i32Constant(rewriter, loc, length * inner));
            Value resultIndex = arith::MulIOp::create(rewriter, loc, o, i32Constant(rewriter, loc, inner));
            SmallVector<Value> rowResults;
            if (inner == 1) {
              SmallVector<Value> rows;
              for (auto [mem, element] : llvm::zip(srcMem, elements))
                rows.push_back(asVector(rewriter, loc, loadElements(rewriter, loc, mem, element, rowBase, length)));
              FailureOr<SmallVector<Value>> row = reduceByHalving(op, rows, {length}, 0, rewriter);
              if (failed(row))
                failedCombine = true;
              else
                rowResults = *row;
            } else {
              SmallVector<Value> first;
              for (auto [mem, element] : llvm::zip(srcMem, elements))
                first.push_back(loadElements(rewriter, loc, mem, element, rowBase, inner));
              auto lLoop = scf::ForOp::create(
                  rewriter, loc, i32Constant(rewriter, loc, 1), i32Constant(rewriter, loc, length),
                  i32Constant(rewriter, loc, 1), first, [&](OpBuilder &, Location, Value l, ValueRange carried) {
                    Value at = arith::AddIOp::create(
                        rewriter, loc, rowBase, arith::MulIOp::create(rewriter, loc, l, i32Constant(rewriter, loc, inner)));
                    SmallVector<Value> next;
                    for (auto [mem, element] : llvm::zip(srcMem, elements))
                      next.push_back(loadElements(rewriter, loc, mem, element, at, inner));
                    FailureOr<SmallVector<Value>> combined =
                        combineAsVectors(op, op.getCombineOp().front(), carried, next, inner, rewriter);
                    if (failed(combined)) {
                      failedCombine = true;
                      combined = SmallVector<Value>(carried.begin(), carried.end());
                    }
                    scf::YieldOp::create(rewriter, loc, *combined);
                  });
              rowResults.assign(lLoop.getResults().begin(), lLoop.getResults().end());
            }
            for (auto [value, mem] : llvm::zip(rowResults, resultMem))
              storeElements(rewriter, loc, value, mem, resultIndex);
            scf::YieldOp::create(rewriter, loc);
          });
      if (failedCombine)
        return failure();  // (not reached: isVectorizableCombine held)
      for (auto [mem, element] : llvm::zip(resultMem, elements))
        reduced.push_back(asVector(rewriter, loc, loadElements(rewriter, loc, mem, element, zero, outer * inner)));
      endLifetimes(rewriter, loc, srcMem);
      endLifetimes(rewriter, loc, resultMem);
    }
    SmallVector<Value> results;
    for (auto [v, result] : llvm::zip(reduced, op.getResults()))
      results.push_back(fromVector(rewriter, loc, v, getTypeConverter()->convertType(result.getType())));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// An inclusive scan of `values` (flat vectors of `shape`, one per operand
/// of `op`) along `axis`, in ceil(log2 L) steps (Hillis and Steele): at
/// distance d = 1, 2, 4, ..., each element whose index along the axis is at
/// least d (at most L - 1 - d when reversed) becomes combine(element d
/// before it, itself); the others keep their value.  One shuffle, one
/// combine and one select per step and operand.
FailureOr<SmallVector<Value>> scanBySteps(tt::ScanOp op, SmallVector<Value> current, ArrayRef<int64_t> shape,
                                          unsigned axis, ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  int64_t length = shape[axis], n = 1;
  for (int64_t d : shape)
    n *= d;
  int64_t stride = stridesOf(shape)[axis];
  for (int64_t d = 1; d < length; d *= 2) {
    SmallVector<int64_t> from;
    SmallVector<bool> valid;
    for (int64_t i = 0; i < n; ++i) {
      int64_t index = unflatten(i, shape)[axis];
      bool inside = op.getReverse() ? index + d < length : index >= d;
      valid.push_back(inside);
      from.push_back(inside ? i + (op.getReverse() ? d : -d) * stride : i);
    }
    SmallVector<Value> previous;
    for (Value v : current)
      previous.push_back(shuffle(rewriter, loc, v, from));
    FailureOr<SmallVector<Value>> combined =
        combineAsVectors(op, op.getCombineOp().front(), previous, current, n, rewriter);
    if (failed(combined))
      return failure();
    auto maskType = VectorType::get({n}, rewriter.getI1Type());
    Value mask = arith::ConstantOp::create(rewriter, loc, DenseElementsAttr::get(maskType, ArrayRef<bool>(valid)));
    for (auto [v, c] : llvm::zip(current, *combined))
      v = arith::SelectOp::create(rewriter, loc, mask, c, v);
  }
  return current;
}

/// Tensors of up to this many elements are scanned as whole vectors;
/// larger ones in loops over a stack copy.
constexpr int64_t kWholeVectorScanLimit = 1024;

/// tt.scan along an axis of L elements.  A small tensor is scanned in
/// steps over the whole vector (scanBySteps).  A larger one, viewed as
/// [outer, L, inner], is stored to the stack, and for each of the outer
/// rows (scf.for): with inner == 1, its L elements are loaded as one vector
/// and scanned in steps; otherwise the running combination of the inner
/// elements is carried along the axis (scf.for over l, from the end when
/// reversed), each step's value stored to the stack result, which is
/// loaded whole at the end.
struct ScanConversion : OpConversionPattern<tt::ScanOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::ScanOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getSrcs().front().getType());
    ArrayRef<int64_t> shape = type.getShape();
    unsigned axis = op.getAxis();
    if (!isVectorizableCombine(op.getCombineOp().front()))
      return rewriter.notifyMatchFailure(op, "combine regions of arith and math ops only");
    SmallVector<Value> srcs(adaptor.getSrcs().begin(), adaptor.getSrcs().end());
    int64_t n = type.getNumElements();
    if (n <= kWholeVectorScanLimit) {
      FailureOr<SmallVector<Value>> whole = scanBySteps(op, srcs, shape, axis, rewriter);
      if (failed(whole))
        return failure();
      rewriter.replaceOp(op, *whole);
      return success();
    }
    auto [outer, length, inner] = viewAround(shape, axis);
    bool reverse = op.getReverse();
    auto [elements, srcMem, resultMem] = copyOperands(rewriter, loc, srcs, n, n);
    Value zero = i32Constant(rewriter, loc, 0);
    auto constant = [&](int64_t v) { return i32Constant(rewriter, loc, v); };
    scf::ForOp::create(
        rewriter, loc, zero, constant(outer), constant(1), ValueRange{},
        [&](OpBuilder &, Location, Value o, ValueRange) {
          // (the body builder is `rewriter`, placed in the loop body)
          Value rowBase = arith::MulIOp::create(rewriter, loc, o, constant(length * inner));
          if (inner == 1) {
            SmallVector<Value> rows;
            for (auto [mem, element] : llvm::zip(srcMem, elements))
              rows.push_back(asVector(rewriter, loc, loadElements(rewriter, loc, mem, element, rowBase, length)));
            FailureOr<SmallVector<Value>> row = scanBySteps(op, rows, {length}, 0, rewriter);
            for (auto [value, mem] : llvm::zip(*row, resultMem))  // (isVectorizableCombine held)
              storeElements(rewriter, loc, value, mem, rowBase);
          } else {
            // position p = 0 .. L-1 along the axis is l = p, or L-1-p when reversed
            auto at = [&](Value l) {
              return arith::AddIOp::create(rewriter, loc, rowBase,
                                           arith::MulIOp::create(rewriter, loc, l, constant(inner)));
            };
            Value firstAt = at(constant(reverse ? length - 1 : 0));
            SmallVector<Value> first;
            for (auto [mem, element, result] : llvm::zip(srcMem, elements, resultMem)) {
              first.push_back(loadElements(rewriter, loc, mem, element, firstAt, inner));
              storeElements(rewriter, loc, first.back(), result, firstAt);
            }
            scf::ForOp::create(
                rewriter, loc, constant(1), constant(length), constant(1), first,
                [&](OpBuilder &, Location, Value p, ValueRange carried) {
                  Value l = reverse ? Value(arith::SubIOp::create(rewriter, loc, constant(length - 1), p)) : p;
                  Value offset = at(l);
                  SmallVector<Value> next;
                  for (auto [mem, element] : llvm::zip(srcMem, elements))
                    next.push_back(loadElements(rewriter, loc, mem, element, offset, inner));
                  FailureOr<SmallVector<Value>> combined =
                      combineAsVectors(op, op.getCombineOp().front(), carried, next, inner, rewriter);
                  for (auto [value, mem] : llvm::zip(*combined, resultMem))
                    storeElements(rewriter, loc, value, mem, offset);
                  scf::YieldOp::create(rewriter, loc, *combined);
                });
          }
          scf::YieldOp::create(rewriter, loc);
        });
    SmallVector<Value> results;
    for (auto [mem, element] : llvm::zip(resultMem, elements))
      results.push_back(loadElements(rewriter, loc, mem, element, zero, n));
    endLifetimes(rewriter, loc, srcMem);
    endLifetimes(rewriter, loc, resultMem);
    rewriter.replaceOp(op, results);
    return success();
  }
};

// -- dot --------------------------------------------------------------------

/// `v` (a flat vector of an operand whose element type was `original`) in
/// the accumulator's element type; fp8 operands (their bits) through f32.
Value toAccumulator(ConversionPatternRewriter &rewriter, Location loc, Value v, Type original, Type acc) {
  if (auto fp = dyn_cast<FloatType>(original); fp && fp.getWidth() == 8)
    v = decodeFp8(rewriter, loc, v, fp);
  auto type = cast<VectorType>(v.getType());
  Type element = type.getElementType();
  if (element == acc)
    return v;
  auto wide = VectorType::get(type.getShape(), acc);
  if (isa<FloatType>(acc)) {
    if (!isa<FloatType>(element))
      return arith::SIToFPOp::create(rewriter, loc, wide, v);
    if (element.getIntOrFloatBitWidth() > acc.getIntOrFloatBitWidth())  // (decoded fp8, f16 accumulator)
      return arith::TruncFOp::create(rewriter, loc, wide, v);
    return arith::ExtFOp::create(rewriter, loc, wide, v);
  }
  return arith::ExtSIOp::create(rewriter, loc, wide, v);
}

/// d = a b + c as loops over stack copies of the operands, so that the code
/// is the same size whatever the tile: a, b and c are stored to the stack;
/// for each block of R rows of d (scf.for), the R rows (N elements each)
/// are loaded and carried through a loop over k (scf.for) in which each
/// row i adds a[i][k] (one element, splat) times row k of b (N contiguous
/// elements, loaded once for the R rows), then stored back; d is loaded
/// whole at the end.  R keeps the carried rows within about 1 KiB (at most
/// 4 rows).  Each element still sums in the order of k; narrower inputs are
/// widened to the accumulator's type first.
struct DotConversion : OpConversionPattern<tt::DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::DotOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ArrayRef<int64_t> aShape = op.getA().getType().getShape();
    ArrayRef<int64_t> dShape = op.getType().getShape();
    bool batched = dShape.size() == 3;
    int64_t B = batched ? dShape[0] : 1, M = dShape[batched], N = dShape[batched + 1];
    int64_t K = aShape.back();
    Type acc = op.getType().getElementType();
    Value a = toAccumulator(rewriter, loc, adaptor.getA(), op.getA().getType().getElementType(), acc);
    Value b = toAccumulator(rewriter, loc, adaptor.getB(), op.getB().getType().getElementType(), acc);
    Value aMem = entryAlloca(rewriter, loc, acc, B * M * K);
    Value bMem = entryAlloca(rewriter, loc, acc, B * K * N);
    Value dMem = entryAlloca(rewriter, loc, acc, B * M * N);
    Value zero = i32Constant(rewriter, loc, 0);
    storeElements(rewriter, loc, a, aMem, zero);
    storeElements(rewriter, loc, b, bMem, zero);
    storeElements(rewriter, loc, adaptor.getC(), dMem, zero);

    int64_t rowBytes = N * std::max<int64_t>(1, acc.getIntOrFloatBitWidth() / 8);
    int64_t R = 1;
    while (R < 4 && R * 2 <= M && R * 2 * rowBytes <= 1024)
      R *= 2;
    bool isFloat = isa<FloatType>(acc);
    auto constant = [&](OpBuilder &builder, int64_t v) { return i32Constant(builder, loc, v); };
    scf::ForOp::create(
        rewriter, loc, zero, i32Constant(rewriter, loc, B * M / R), i32Constant(rewriter, loc, 1), ValueRange{},
        [&](OpBuilder &rb, Location, Value block, ValueRange) {
          // rows first .. first + R - 1 of d, of batch first / M
          Value first = arith::MulIOp::create(rb, loc, block, constant(rb, R));
          Value batch = arith::DivUIOp::create(rb, loc, first, constant(rb, M));
          Value bBase = arith::MulIOp::create(rb, loc, batch, constant(rb, K));
          SmallVector<Value> rowIndex, rows;
          for (int64_t r = 0; r < R; ++r) {
            rowIndex.push_back(arith::AddIOp::create(rb, loc, first, constant(rb, r)));
            rows.push_back(loadElements(rb, loc, dMem, acc,
                                        arith::MulIOp::create(rb, loc, rowIndex[r], constant(rb, N)), N));
          }
          auto kLoop = scf::ForOp::create(
              rb, loc, constant(rb, 0), constant(rb, K), constant(rb, 1), rows,
              [&](OpBuilder &kb, Location, Value k, ValueRange carried) {
                Value bRow = loadElements(
                    kb, loc, bMem, acc,
                    arith::MulIOp::create(kb, loc, arith::AddIOp::create(kb, loc, bBase, k), constant(kb, N)), N);
                SmallVector<Value> next;
                for (int64_t r = 0; r < R; ++r) {
                  Value aIndex =
                      arith::AddIOp::create(kb, loc, arith::MulIOp::create(kb, loc, rowIndex[r], constant(kb, K)), k);
                  Value column = splat(kb, loc, loadElements(kb, loc, aMem, acc, aIndex, 1), N);
                  next.push_back(isFloat ? Value(math::FmaOp::create(kb, loc, column, bRow, carried[r]))
                                         : Value(arith::AddIOp::create(
                                               kb, loc, carried[r],
                                               arith::MulIOp::create(kb, loc, column, bRow))));
                }
                scf::YieldOp::create(kb, loc, next);
              });
          for (int64_t r = 0; r < R; ++r)
            storeElements(rb, loc, kLoop.getResult(r), dMem,
                          arith::MulIOp::create(rb, loc, rowIndex[r], constant(rb, N)));
          scf::YieldOp::create(rb, loc);
        });
    Value d = loadElements(rewriter, loc, dMem, acc, zero, B * M * N);
    endLifetimes(rewriter, loc, {aMem, bMem, dMem});
    rewriter.replaceOp(op, d);
    return success();
  }
};


} // namespace

namespace {

// -- histograms ---------------------------------------------------------------

struct HistogramConversion : OpConversionPattern<tt::HistogramOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::HistogramOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t n = numElements(op.getSrc().getType()), bins = numElements(resultType);
    Type count = resultType.getElementType(), i64 = rewriter.getI64Type();
    Value src = adaptor.getSrc();
    Value zero = zeroOf(rewriter, loc, VectorType::get({bins}, count));
    Value numBins = arith::ConstantOp::create(rewriter, loc, rewriter.getI64IntegerAttr(bins));
    Value one = arith::ConstantOp::create(rewriter, loc, rewriter.getIntegerAttr(count, 1));
    auto loop = scf::ForOp::create(
        rewriter, loc, i32Constant(rewriter, loc, 0), i32Constant(rewriter, loc, n), i32Constant(rewriter, loc, 1),
        ValueRange{zero}, [&](OpBuilder &b, Location, Value i, ValueRange carried) {
          Value x = LLVM::ExtractElementOp::create(b, loc, src, i);
          if (x.getType() != i64)
            x = arith::ExtSIOp::create(b, loc, i64, x);
          Value counts = carried[0];
          Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, numBins);
          auto update = scf::IfOp::create(
              b, loc, inRange,
              [&](OpBuilder &t, Location) {
                Value bin = arith::TruncIOp::create(t, loc, t.getI32Type(), x);
                Value c = LLVM::ExtractElementOp::create(t, loc, counts, bin);
                Value next = arith::AddIOp::create(t, loc, c, one);
                scf::YieldOp::create(t, loc, Value(LLVM::InsertElementOp::create(t, loc, counts, next, bin)));
              },
              [&](OpBuilder &e, Location) { scf::YieldOp::create(e, loc, counts); });
          scf::YieldOp::create(b, loc, update.getResult(0));
        });
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }
};

} // namespace

void tritium::cpu::populateReduceScanDotToHostPatterns(const TypeConverter &types, RewritePatternSet &patterns) {
  patterns.add<ReduceConversion, ScanConversion, DotConversion, HistogramConversion>(types, patterns.getContext());
}
