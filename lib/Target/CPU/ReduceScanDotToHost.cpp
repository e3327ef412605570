//===- ReduceScanDotToHost.cpp - reductions, scans and dots ---------------===//
//
// convert-tt-to-host-llvm's patterns for `tt.reduce` (log2 n halvings),
// `tt.scan` (log2 n shifted combines), `tt.dot` (one vector FMA per row of
// the accumulator and k) and `tt.histogram` (a loop over the input adding
// one to the bin of each value below the number of bins, as an unsigned
// number after sign extension, as the GPU lowering counts).
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
    for (Value operand : inner.getOperands())
      state.operands.push_back(mapping.lookup(operand));
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
    SmallVector<Value> current(adaptor.getSrcs().begin(), adaptor.getSrcs().end());
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
      for (Value v : current) {
        lows.push_back(shuffle(rewriter, loc, v, lowMask));
        highs.push_back(shuffle(rewriter, loc, v, highMask));
      }
      FailureOr<SmallVector<Value>> combined =
          combineAsVectors(op, op.getCombineOp().front(), lows, highs, count, rewriter);
      if (failed(combined))
        return failure();
      current = *combined;
      shape = half;
    }
    SmallVector<Value> results;
    for (auto [v, result] : llvm::zip(current, op.getResults()))
      results.push_back(fromVector(rewriter, loc, v, getTypeConverter()->convertType(result.getType())));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// An inclusive scan along an axis of L elements in ceil(log2 L) steps
/// (Hillis and Steele): at distance d = 1, 2, 4, ..., each element whose
/// index along the axis is at least d (at most L - 1 - d when reversed)
/// becomes combine(element d before it, itself); the others keep their
/// value.  One shuffle, one combine and one select per step and operand.
struct ScanConversion : OpConversionPattern<tt::ScanOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::ScanOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getSrcs().front().getType());
    ArrayRef<int64_t> shape = type.getShape();
    unsigned axis = op.getAxis();
    int64_t length = shape[axis], n = type.getNumElements();
    int64_t stride = stridesOf(shape)[axis];
    SmallVector<Value> current(adaptor.getSrcs().begin(), adaptor.getSrcs().end());
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
    rewriter.replaceOp(op, current);
    return success();
  }
};

// -- dot --------------------------------------------------------------------

/// `a` (a flat vector of `type`'s shape) in the accumulator's element type.
Value toAccumulator(ConversionPatternRewriter &rewriter, Location loc, Value v, Type acc) {
  auto type = cast<VectorType>(v.getType());
  Type element = type.getElementType();
  if (element == acc)
    return v;
  auto wide = VectorType::get(type.getShape(), acc);
  if (isa<FloatType>(acc))
    return isa<FloatType>(element) ? Value(arith::ExtFOp::create(rewriter, loc, wide, v))
                                   : Value(arith::SIToFPOp::create(rewriter, loc, wide, v));
  return arith::ExtSIOp::create(rewriter, loc, wide, v);
}

/// d = a b + c, register-blocked: the accumulator is kept as its rows (N
/// elements each, a contiguous slice of the flat vector), and for each k,
/// each row i adds a[i][k] (one element, splat) times row k of b (a
/// contiguous slice).  Each element still sums in the order of k; narrower
/// inputs are widened to the accumulator's type.
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
    Value a = toAccumulator(rewriter, loc, adaptor.getA(), acc);
    Value b = toAccumulator(rewriter, loc, adaptor.getB(), acc);
    SmallVector<Value> rows;
    for (int64_t batch = 0; batch < B; ++batch) {
      SmallVector<Value> bRows, dRows;
      for (int64_t k = 0; k < K; ++k)
        bRows.push_back(slice(rewriter, loc, b, (batch * K + k) * N, N));
      for (int64_t i = 0; i < M; ++i)
        dRows.push_back(slice(rewriter, loc, adaptor.getC(), (batch * M + i) * N, N));
      for (int64_t k = 0; k < K; ++k)
        for (int64_t i = 0; i < M; ++i) {
          Value element = LLVM::ExtractElementOp::create(rewriter, loc, a,
                                                         i32Constant(rewriter, loc, (batch * M + i) * K + k));
          Value column = splat(rewriter, loc, element, N);
          if (isa<FloatType>(acc))
            dRows[i] = math::FmaOp::create(rewriter, loc, column, bRows[k], dRows[i]);
          else
            dRows[i] = arith::AddIOp::create(rewriter, loc, dRows[i],
                                             arith::MulIOp::create(rewriter, loc, column, bRows[k]));
        }
      rows.append(dRows);
    }
    rewriter.replaceOp(op, concatenate(rewriter, loc, rows));
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
