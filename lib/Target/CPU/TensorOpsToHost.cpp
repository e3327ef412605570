//===- TensorOpsToHost.cpp - tensor creation, shape, element-wise ops ----===//
//
// convert-tt-to-host-llvm's patterns for ops that make tensors
// (`tt.make_range`, `tt.splat`), rearrange their elements (shape ops, one
// shuffle or nothing on the flat vector) and compute element-wise (arith,
// math and Triton's own element-wise ops, rebuilt on vectors, the costly
// ones on large tensors in a loop over 16-lane chunks; a libdevice function
// with a C library twin of the same name, such as __nv_expf and expf, or
// computed by the native library's own function, HostMath.h, called
// element by element).
//
//===----------------------------------------------------------------------===//
#include "HostLowering.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tritium/Conversion/TTGToLLVM/ModuleSymbols.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Target/CPU/HostMath.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>
#include <functional>
#include <limits>

using namespace mlir;
namespace tt = tritium::tt;
using namespace tritium::cpu;

namespace {

// -- tensor creation and shape ---------------------------------------------

struct MakeRangeConversion : OpConversionPattern<tt::MakeRangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::MakeRangeOp op, OpAdaptor, ConversionPatternRewriter &rewriter) const override {
    auto type = cast<VectorType>(getTypeConverter()->convertType(op.getType()));
    SmallVector<int32_t> values;
    for (int32_t v = op.getStart(); v < static_cast<int32_t>(op.getEnd()); ++v)
      values.push_back(v);
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, DenseElementsAttr::get(type, ArrayRef<int32_t>(values)));
    return success();
  }
};

struct SplatConversion : OpConversionPattern<tt::SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::SplatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, splat(rewriter, op.getLoc(), adaptor.getSrc(), numElements(op.getType())));
    return success();
  }
};

/// Ops that keep the row-major order of the elements: the value itself.
template <typename OpTy>
struct SameElementsConversion : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct BroadcastConversion : OpConversionPattern<tt::BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::BroadcastOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    ArrayRef<int64_t> src = op.getSrc().getType().getShape();
    ArrayRef<int64_t> dst = op.getType().getShape();
    SmallVector<int64_t> srcStrides = stridesOf(src), mask;
    for (int64_t i = 0, n = op.getType().getNumElements(); i < n; ++i) {
      SmallVector<int64_t> index = unflatten(i, dst);
      int64_t from = 0;
      for (size_t d = 0; d < dst.size(); ++d)
        from += (src[d] == 1 ? 0 : index[d]) * srcStrides[d];
      mask.push_back(from);
    }
    rewriter.replaceOp(op, shuffle(rewriter, op.getLoc(), adaptor.getSrc(), mask));
    return success();
  }
};

struct TransConversion : OpConversionPattern<tt::TransOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::TransOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    ArrayRef<int64_t> src = op.getSrc().getType().getShape();
    ArrayRef<int64_t> dst = op.getType().getShape();
    ArrayRef<int32_t> order = op.getOrder();
    SmallVector<int64_t> srcStrides = stridesOf(src), mask;
    for (int64_t i = 0, n = op.getType().getNumElements(); i < n; ++i) {
      SmallVector<int64_t> index = unflatten(i, dst);
      int64_t from = 0;
      for (size_t d = 0; d < dst.size(); ++d) // result dim d is source dim order[d]
        from += index[d] * srcStrides[order[d]];
      mask.push_back(from);
    }
    rewriter.replaceOp(op, shuffle(rewriter, op.getLoc(), adaptor.getSrc(), mask));
    return success();
  }
};

/// tt.join: element i of each operand side by side (a new minor dimension
/// of 2), one two-source shuffle.
struct JoinConversion : OpConversionPattern<tt::JoinOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::JoinOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    int64_t n = numElements(op.getLhs().getType());
    SmallVector<int32_t> mask;
    for (int64_t i = 0; i < n; ++i) {
      mask.push_back(static_cast<int32_t>(i));
      mask.push_back(static_cast<int32_t>(n + i));
    }
    rewriter.replaceOpWithNewOp<LLVM::ShuffleVectorOp>(op, adaptor.getLhs(), adaptor.getRhs(), mask);
    return success();
  }
};

/// tt.split: the even and the odd elements.
struct SplitConversion : OpConversionPattern<tt::SplitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::SplitOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    int64_t n = numElements(op.getOutLHS().getType());
    SmallVector<int64_t> even, odd;
    for (int64_t i = 0; i < n; ++i) {
      even.push_back(2 * i);
      odd.push_back(2 * i + 1);
    }
    rewriter.replaceOp(op, {shuffle(rewriter, op.getLoc(), adaptor.getSrc(), even),
                            shuffle(rewriter, op.getLoc(), adaptor.getSrc(), odd)});
    return success();
  }
};

/// tt.cat along dimension 0: in row-major order, one operand after the other.
struct CatConversion : OpConversionPattern<tt::CatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::CatOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, concatenate(rewriter, op.getLoc(), {adaptor.getLhs(), adaptor.getRhs()}));
    return success();
  }
};

// -- element-wise ops -------------------------------------------------------

/// Element-wise ops whose host code is long for every few lanes (math
/// functions, expanded into polynomials; integer division and remainders
/// and float remainders, element by element) run on tensors of more than
/// this many elements in a loop over chunks of kChunk lanes.
constexpr int64_t kWholeCostlyOpLimit = 256;
constexpr int64_t kChunk = 16;

bool isCostlyElementwise(Operation *op) {
  return isa<math::MathDialect>(op->getDialect()) ||
         isa<arith::RemFOp, arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
             arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op);
}

/// `op` rebuilt on chunks of kChunk lanes in a loop (inChunks).
SmallVector<Value> elementwiseInChunks(Operation *op, ArrayRef<Value> operands, ArrayRef<Type> types, int64_t n,
                                       ConversionPatternRewriter &rewriter) {
  return inChunks(rewriter, op->getLoc(), operands, types, n, kChunk,
                  [&](OpBuilder &b, ValueRange chunks, TypeRange chunkTypes) {
                    OperationState state(op->getLoc(), op->getName(), chunks, chunkTypes, op->getAttrs());
                    return SmallVector<Value>(b.create(state)->getResults());
                  });
}

/// An arith or math op on tensors, rebuilt on the flat vector types (a
/// dense constant keeps its elements in order); a costly one on large
/// tensors in a loop over chunks (elementwiseInChunks).
struct ElementwiseConversion : ConversionPattern {
  ElementwiseConversion(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) || !hasTensorType(op) ||
        op->getNumRegions() != 0)
      return failure();
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), types)))
      return failure();
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
      if (!dense)
        return failure();
      Type element = getElementTypeOrSelf(types.front());
      if (dense.getElementType() != element)
        dense = dense.bitcast(element);  // (fp8 constants as their bits)
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, dense.reshape(cast<ShapedType>(types.front())));
      return success();
    }
    auto first = dyn_cast<VectorType>(types.front());
    int64_t n = first ? first.getNumElements() : 1;
    auto lanes = [&](Type t) {
      auto v = dyn_cast<VectorType>(t);
      return v && v.getNumElements() == n;
    };
    if (isCostlyElementwise(op) && n > kWholeCostlyOpLimit && n % kChunk == 0 && llvm::all_of(types, lanes) &&
        llvm::all_of(operands, [&](Value v) { return lanes(v.getType()); })) {
      rewriter.replaceOp(op, elementwiseInChunks(op, operands, types, n, rewriter));
      return success();
    }
    OperationState state(op->getLoc(), op->getName(), operands, types, op->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

/// Triton's own element-wise ops, as arith, math or LLVM ops.
struct TritonElementwiseConversion : ConversionPattern {
  TritonElementwiseConversion(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op->getLoc();
    if (!isa<tt::TTDialect>(op->getDialect()) || op->getNumResults() != 1)
      return failure();
    Type type = getTypeConverter()->convertType(op->getResult(0).getType());
    if (!type)
      return failure();
    Value result;
    if (isa<tt::PreciseSqrtOp>(op)) {
      result = math::SqrtOp::create(rewriter, loc, operands[0]);
    } else if (auto clamp = dyn_cast<tt::ClampOp>(op)) {
      // max(min) that return NaN for a NaN input when propagateNan says so
      if (clamp.getPropagateNan() == tt::PropagateNan::ALL)
        result = arith::MinimumFOp::create(rewriter, loc, arith::MaximumFOp::create(rewriter, loc, operands[0],
                                                                                    operands[1]),
                                           operands[2]);
      else
        result = arith::MinNumFOp::create(rewriter, loc, arith::MaxNumFOp::create(rewriter, loc, operands[0],
                                                                                  operands[1]),
                                          operands[2]);
    } else if (isa<tt::PreciseDivFOp>(op)) {
      result = arith::DivFOp::create(rewriter, loc, operands[0], operands[1]);
    } else if (isa<tt::BitcastOp>(op)) {
      // (fp8 and i8 are both bytes here)
      result = operands[0].getType() == type ? operands[0]
                                             : Value(LLVM::BitcastOp::create(rewriter, loc, type, operands[0]));
    } else if (isa<tt::IntToPtrOp>(op)) {
      result = LLVM::IntToPtrOp::create(rewriter, loc, type, operands[0]);
    } else if (isa<tt::PtrToIntOp>(op)) {
      result = LLVM::PtrToIntOp::create(rewriter, loc, type, operands[0]);
    } else if (auto fp = dyn_cast<tt::FpToFpOp>(op)) {
      // fp8 values are their bits: decoded to f32, encoded from it
      auto srcFloat = cast<FloatType>(getElementTypeOrSelf(fp.getSrc().getType()));
      auto dstFloat = cast<FloatType>(getElementTypeOrSelf(fp.getType()));
      if ((srcFloat.getWidth() == 8 && !isFp8OnHost(srcFloat)) || (dstFloat.getWidth() == 8 && !isFp8OnHost(dstFloat)))
        return rewriter.notifyMatchFailure(op, "fp8 format without a host lowering");
      Value value = operands[0];
      Type f32 = rewriter.getF32Type();
      auto shapedLike = [&](Type element) -> Type {
        if (auto v = dyn_cast<VectorType>(value.getType()))
          return VectorType::get(v.getShape(), element);
        return element;
      };
      auto convertFloat = [&](Value v, Type to) -> Value {  // between host float types
        unsigned from = getElementTypeOrSelf(v.getType()).getIntOrFloatBitWidth();
        unsigned width = getElementTypeOrSelf(to).getIntOrFloatBitWidth();
        if (getElementTypeOrSelf(v.getType()) == getElementTypeOrSelf(to))
          return v;
        if (from < width)
          return arith::ExtFOp::create(rewriter, loc, to, v);
        return arith::TruncFOp::create(rewriter, loc, to, v);
      };
      if (srcFloat.getWidth() == 8)
        value = decodeFp8(rewriter, loc, value, srcFloat);
      if (dstFloat.getWidth() == 8) {
        bool towardZero = fp.getRounding() && *fp.getRounding() == tt::RoundingMode::RTZ;
        result = encodeFp8(rewriter, loc, convertFloat(value, shapedLike(f32)), dstFloat, towardZero);
      } else {
        result = convertFloat(value, type);
      }
    } else if (isa<tt::MulhiUIOp>(op)) {
      Type element = getElementTypeOrSelf(type);
      unsigned bits = element.getIntOrFloatBitWidth();
      Type wide = rewriter.getIntegerType(2 * bits);
      if (auto vector = dyn_cast<VectorType>(type))
        wide = VectorType::get(vector.getShape(), wide);
      Value a = arith::ExtUIOp::create(rewriter, loc, wide, operands[0]);
      Value b = arith::ExtUIOp::create(rewriter, loc, wide, operands[1]);
      TypedAttr bitsAttr = rewriter.getIntegerAttr(getElementTypeOrSelf(wide), bits);
      if (isa<VectorType>(wide))
        bitsAttr = DenseElementsAttr::get(cast<ShapedType>(wide), bitsAttr);
      Value shift = arith::ConstantOp::create(rewriter, loc, bitsAttr);
      Value high = arith::ShRUIOp::create(rewriter, loc, arith::MulIOp::create(rewriter, loc, a, b), shift);
      result = arith::TruncIOp::create(rewriter, loc, type, high);
    } else {
      return failure();
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};


} // namespace

std::optional<std::string> tritium::cpu::hostLibraryFunction(tt::ExternElementwiseOp op) {
  // libdevice's functions (the double versions' names) whose C library
  // function of the same name computes the same thing.
  static const llvm::StringSet<> twins = {
      "sin",   "cos",   "tan",   "asin",  "acos",      "atan",  "atan2",    "sinh",  "cosh",  "tanh",  "asinh",
      "acosh", "atanh", "exp",   "exp2",  "exp10",     "expm1", "log",      "log2",  "log10", "log1p", "pow",
      "sqrt",  "cbrt",  "hypot", "erf",   "erfc",      "lgamma", "tgamma",  "fmod",  "remainder", "floor",
      "ceil",  "trunc", "round", "rint",  "nearbyint", "fabs",  "fmin",     "fmax",  "copysign", "nextafter",
      "fma",   "fdim",  "logb",  "j0",    "j1",        "y0",    "y1"};
  // ... and those with integer operands or results: the kinds of the
  // operands and of the result, 'x' the floating-point type, 'i' i32, 'l' i64
  static const llvm::StringMap<std::pair<StringRef, char>> mixed = {
      {"ldexp", {"xi", 'x'}}, {"scalbn", {"xi", 'x'}}, {"ilogb", {"x", 'i'}}, {"llrint", {"x", 'l'}},
      {"llround", {"x", 'l'}}, {"jn", {"ix", 'x'}},   {"yn", {"ix", 'x'}}};
  StringRef symbol = op.getSymbol();
  if (!symbol.consume_front("__nv_"))
    return std::nullopt;
  for (const HostMathFunction &function : hostMathFunctions()) {
    if (function.name != symbol)
      continue;
    Type floating = function.isFloat ? Type(Float32Type::get(op.getContext()))
                                     : Type(Float64Type::get(op.getContext()));
    auto types = llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes());
    if (op->getNumOperands() != function.numOperands ||
        !llvm::all_of(types, [&](Type type) { return getElementTypeOrSelf(type) == floating; }))
      return std::nullopt;
    return function.symbol.str();
  }
  symbol.consume_front("fast_"); // (__nv_fast_expf: expf, at full accuracy)
  // The float versions end in 'f' (erff, fabsf); erf itself is a double one.
  auto known = [&](StringRef name) { return twins.contains(name) || mixed.contains(name); };
  bool isDouble = known(symbol);
  if (!isDouble && !(symbol.ends_with("f") && known(symbol.drop_back())))
    return std::nullopt;
  MLIRContext *context = op.getContext();
  Type floating = isDouble ? Type(Float64Type::get(context)) : Type(Float32Type::get(context));
  StringRef base = isDouble ? symbol : symbol.drop_back();
  auto kind = [&](char c) -> Type {
    return c == 'x' ? floating : IntegerType::get(context, c == 'i' ? 32 : 64);
  };
  SmallVector<Type> want;
  if (auto it = mixed.find(base); it != mixed.end()) {
    for (char c : it->second.first)
      want.push_back(kind(c));
    want.push_back(kind(it->second.second));
  } else {
    want.assign(op->getNumOperands() + 1, floating);
  }
  auto types = llvm::to_vector(llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()));
  if (types.size() != want.size())
    return std::nullopt;
  for (auto [type, expected] : llvm::zip(types, want))
    if (getElementTypeOrSelf(type) != expected)
      return std::nullopt;
  return symbol.str();
}

namespace {

/// tt.extern_elementwise of a libdevice function with a C library twin:
/// the twin called on each element (a loop over a tensor's flat vector).
/// The libdevice functions computed by MLIR ops instead of a C library
/// function: by name without `__nv_`, the operands (already of the host's
/// types) to the result.  Each is its float and its double version where
/// both exist (rsqrtf and rsqrt); the tests return i32 as libdevice does.
using MathEquivalent = std::function<Value(OpBuilder &, Location, ValueRange, Type)>;

/// An integer constant of `type` (a scalar or a vector of its element).
Value intConstant(OpBuilder &b, Location loc, Type type, int64_t value) {
  Type element = getElementTypeOrSelf(type);
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vector, b.getIntegerAttr(element, value)));
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(element, value));
}

/// `type` (a scalar or a vector) with `element` for its element type.
Type withElement(Type type, Type element) {
  if (auto vector = dyn_cast<VectorType>(type))
    return VectorType::get(vector.getShape(), element);
  return element;
}

/// A floating-point constant of `type` (a scalar or a vector of its element).
Value floatConstant(OpBuilder &b, Location loc, Type type, double value) {
  Type element = getElementTypeOrSelf(type);
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vector, b.getFloatAttr(element, value)));
  return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(element, value));
}

enum class Rounding { Down, Up, TowardZero };

/// All false, of the shape of the flags `like`.
Value falseLike(OpBuilder &b, Location loc, Value like) { return arith::XOrIOp::create(b, loc, like, like); }

/// The result of an operation in a directed rounding, from its result
/// `nearest` rounded to nearest and `error`, a value (of any float type)
/// with the sign of the exact result minus `nearest`: `nearest` moved one
/// step (to the next float, by its bits) where the exact result lies on the
/// other side of it than the rounding goes.  `overflow` marks an infinite
/// `nearest` whose exact result is finite: it becomes the largest finite
/// value where the rounding goes toward zero from it.
Value directed(OpBuilder &b, Location loc, Value nearest, Value error, Value overflow, Rounding rounding) {
  Type type = nearest.getType();
  unsigned bits = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
  Type intType = withElement(type, b.getIntegerType(bits));
  Value asInt = arith::BitcastOp::create(b, loc, intType, nearest);
  Value one = intConstant(b, loc, intType, 1);
  Value zero = floatConstant(b, loc, type, 0.0);
  Value errorZero = floatConstant(b, loc, error.getType(), 0.0);
  Value positive = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, nearest, zero);
  Value negative = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, nearest, zero);
  Value isZero = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, nearest, zero);
  Value below = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, error, errorZero); // exact < nearest
  Value above = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, error, errorZero); // exact > nearest
  // the next float up and down by the bits: away from zero adds one to the
  // magnitude's bits, toward zero subtracts one; from zero, the smallest
  // subnormal of the sign
  Value plus = arith::AddIOp::create(b, loc, asInt, one), minus = arith::SubIOp::create(b, loc, asInt, one);
  Value tinyUp = intConstant(b, loc, intType, 1);
  // (-min subnormal: the sign bit and 1, -(2^(bits-1) - 1) as a signed value of the width)
  int64_t minusTiny = bits == 64 ? std::numeric_limits<int64_t>::min() + 1 : -((int64_t(1) << (bits - 1)) - 1);
  Value tinyDown = intConstant(b, loc, intType, minusTiny);
  Value up = arith::SelectOp::create(b, loc, isZero, tinyUp, arith::SelectOp::create(b, loc, negative, minus, plus));
  Value down =
      arith::SelectOp::create(b, loc, isZero, tinyDown, arith::SelectOp::create(b, loc, negative, plus, minus));
  Value stepDown = below, stepUp = above;
  if (rounding == Rounding::Up)
    stepDown = falseLike(b, loc, below);
  if (rounding == Rounding::Down)
    stepUp = falseLike(b, loc, above);
  if (rounding == Rounding::TowardZero) {
    stepDown = arith::AndIOp::create(b, loc, below, positive);
    stepUp = arith::AndIOp::create(b, loc, above, negative);
  }
  Value moved = arith::SelectOp::create(b, loc, stepDown, down, arith::SelectOp::create(b, loc, stepUp, up, asInt));
  Value result = arith::BitcastOp::create(b, loc, type, moved);
  // an overflow whose rounding goes toward zero gives the largest finite value
  double largest = bits == 32 ? double(std::numeric_limits<float>::max()) : std::numeric_limits<double>::max();
  Value toZero = rounding == Rounding::TowardZero ? overflow
                 : rounding == Rounding::Down    ? Value(arith::AndIOp::create(b, loc, overflow, positive))
                                                 : Value(arith::AndIOp::create(b, loc, overflow, negative));
  Value bound = arith::SelectOp::create(b, loc, positive, floatConstant(b, loc, type, largest),
                                        floatConstant(b, loc, type, -largest));
  return arith::SelectOp::create(b, loc, toZero, bound, result);
}

/// An infinite `nearest` from finite operands: an overflow.
Value overflowed(OpBuilder &b, Location loc, Value nearest, ValueRange operands) {
  Value infinity = floatConstant(b, loc, nearest.getType(), std::numeric_limits<double>::infinity());
  Value result =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, math::AbsFOp::create(b, loc, nearest), infinity);
  for (Value operand : operands)
    result = arith::AndIOp::create(b, loc, result, math::IsFiniteOp::create(b, loc, operand));
  return result;
}

/// `result` (of the sum `s` of `p` and `c` rounded down), or -0 where the
/// sum is an exact zero and not both terms are +0 (IEEE 754: a zero sum is
/// -0 when rounding down).
Value zeroSumRoundedDown(OpBuilder &b, Location loc, Value s, Value p, Value c, Value result) {
  auto plusZero = [&](Value v) -> Value {
    Type type = v.getType();
    Type intType = withElement(type, b.getIntegerType(getElementTypeOrSelf(type).getIntOrFloatBitWidth()));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, arith::BitcastOp::create(b, loc, intType, v),
                                 intConstant(b, loc, intType, 0));
  };
  Value zeroSum = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, s, floatConstant(b, loc, s.getType(), 0.0));
  Value bothPlus = arith::AndIOp::create(b, loc, plusZero(p), plusZero(c));
  // (zeroSum and not bothPlus: where zeroSum holds, bothPlus ^ zeroSum is its negation)
  Value minusZero = arith::AndIOp::create(b, loc, zeroSum, arith::XOrIOp::create(b, loc, bothPlus, zeroSum));
  return arith::SelectOp::create(b, loc, minusZero, floatConstant(b, loc, result.getType(), -0.0), result);
}

/// libdevice's arithmetic in the directed roundings (_rd, _ru, _rz): the
/// result rounded to nearest, and the sign of its error, exact: for sums
/// by Knuth's two-sum; for products, quotients and square roots from the
/// residual (floats in double, doubles by one fma); for conversions by
/// converting back.
void addDirectedArithmetic(llvm::StringMap<MathEquivalent> &t) {
  auto widen = [](OpBuilder &b, Location loc, Value v) -> Value {
    return arith::ExtFOp::create(b, loc, withElement(v.getType(), b.getF64Type()), v);
  };
  // exact - (a + b)
  auto twoSumError = [](OpBuilder &b, Location loc, Value a, Value c, Value s) -> Value {
    Value cv = arith::SubFOp::create(b, loc, s, a);
    Value av = arith::SubFOp::create(b, loc, s, cv);
    return arith::AddFOp::create(b, loc, arith::SubFOp::create(b, loc, a, av), arith::SubFOp::create(b, loc, c, cv));
  };
  struct Named {
    const char *suffix;
    Rounding rounding;
  };
  for (Named r : {Named{"rd", Rounding::Down}, Named{"ru", Rounding::Up}, Named{"rz", Rounding::TowardZero}}) {
    Rounding rounding = r.rounding;
    auto sum = [rounding, twoSumError](bool subtract) {
      return [=](OpBuilder &b, Location loc, ValueRange x, Type) -> Value {
        Value c = subtract ? Value(arith::NegFOp::create(b, loc, x[1])) : x[1];
        Value s = arith::AddFOp::create(b, loc, x[0], c);
        Value result =
            directed(b, loc, s, twoSumError(b, loc, x[0], c, s), overflowed(b, loc, s, {x[0], c}), rounding);
        return rounding == Rounding::Down ? zeroSumRoundedDown(b, loc, s, x[0], c, result) : result;
      };
    };
    t[std::string("fadd_") + r.suffix] = t[std::string("dadd_") + r.suffix] = sum(false);
    t[std::string("fsub_") + r.suffix] = t[std::string("dsub_") + r.suffix] = sum(true);
    // Products, quotients and square roots: the sign of the error from the
    // residual, exact for floats in double (a float product is exact
    // there) and by one fma for doubles, exact unless it falls below the
    // subnormals: there the operands are scaled by a power of two first
    // (2^k (exact - result) has the same sign).
    auto isFloat = [](Value v) { return getElementTypeOrSelf(v.getType()).isF32(); };
    auto scaledWhereTiny = [](OpBuilder &b, Location loc, Value tiny, Value v, int power) -> Value {
      Value scaled = arith::MulFOp::create(b, loc, v, floatConstant(b, loc, v.getType(), std::ldexp(1.0, power)));
      return arith::SelectOp::create(b, loc, tiny, scaled, v);
    };
    auto lessThan = [](OpBuilder &b, Location loc, Value v, double bound) -> Value {
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, math::AbsFOp::create(b, loc, v),
                                   floatConstant(b, loc, v.getType(), bound));
    };
    const double tinyBound = std::ldexp(1.0, -900);
    auto product = [=](OpBuilder &b, Location loc, ValueRange x, Type) -> Value {
      Value p = arith::MulFOp::create(b, loc, x[0], x[1]);
      Value error;
      if (isFloat(p)) {
        Value exact = arith::MulFOp::create(b, loc, widen(b, loc, x[0]), widen(b, loc, x[1]));
        error = arith::SubFOp::create(b, loc, exact, widen(b, loc, p));
      } else {
        // (with a tiny product one operand is below 2^-450: scaling the
        // smaller one by 2^128 cannot overflow)
        Value tiny = lessThan(b, loc, p, tinyBound);
        Value first = math::AbsFOp::create(b, loc, x[0]), second = math::AbsFOp::create(b, loc, x[1]);
        Value firstSmaller = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, first, second);
        Value scaleFirst = arith::AndIOp::create(b, loc, tiny, firstSmaller);
        Value scaleSecond = arith::AndIOp::create(b, loc, tiny, arith::XOrIOp::create(b, loc, firstSmaller, tiny));
        Value scaledProduct = scaledWhereTiny(b, loc, tiny, p, 128);
        error = math::FmaOp::create(b, loc, scaledWhereTiny(b, loc, scaleFirst, x[0], 128),
                                    scaledWhereTiny(b, loc, scaleSecond, x[1], 128),
                                    arith::NegFOp::create(b, loc, scaledProduct));
      }
      return directed(b, loc, p, error, overflowed(b, loc, p, {x[0], x[1]}), rounding);
    };
    auto quotient = [=](OpBuilder &b, Location loc, Value a, Value d) -> Value {
      Value q = arith::DivFOp::create(b, loc, a, d);
      // the residual a - q d; the error's sign is the residual's times the divisor's
      Value residual;
      if (isFloat(q)) {
        residual = arith::SubFOp::create(b, loc, widen(b, loc, a),
                                         arith::MulFOp::create(b, loc, widen(b, loc, q), widen(b, loc, d)));
      } else { // (a tiny dividend scaled with the quotient)
        Value tiny = lessThan(b, loc, a, tinyBound);
        residual = math::FmaOp::create(b, loc, arith::NegFOp::create(b, loc, scaledWhereTiny(b, loc, tiny, q, 128)),
                                       d, scaledWhereTiny(b, loc, tiny, a, 128));
      }
      // (the sign flipped for a negative divisor: a product with it could underflow to zero)
      Value negativeDivisor =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, d, floatConstant(b, loc, d.getType(), 0.0));
      Value error = arith::SelectOp::create(b, loc, negativeDivisor,
                                            arith::NegFOp::create(b, loc, residual), residual);
      Value finiteDivisor = arith::AndIOp::create(
          b, loc, math::IsFiniteOp::create(b, loc, d),
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE, d, floatConstant(b, loc, d.getType(), 0.0)));
      Value overflow = arith::AndIOp::create(b, loc, overflowed(b, loc, q, {a}), finiteDivisor);
      return directed(b, loc, q, error, overflow, rounding);
    };
    auto root = [=](OpBuilder &b, Location loc, ValueRange x, Type) -> Value {
      Value r = math::SqrtOp::create(b, loc, x[0]);
      Value error; // x - r^2
      if (isFloat(r)) {
        Value wide = widen(b, loc, r);
        error = arith::SubFOp::create(b, loc, widen(b, loc, x[0]), arith::MulFOp::create(b, loc, wide, wide));
      } else { // (a tiny x scaled by 2^256, its root by 2^128)
        Value tiny = lessThan(b, loc, x[0], std::ldexp(1.0, -800));
        Value scaledRoot = scaledWhereTiny(b, loc, tiny, r, 128);
        error = math::FmaOp::create(b, loc, arith::NegFOp::create(b, loc, scaledRoot), scaledRoot,
                                    scaledWhereTiny(b, loc, tiny, x[0], 256));
      }
      Value never = falseLike(b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, r, r));
      return directed(b, loc, r, error, never, rounding); // (a square root never overflows)
    };
    for (const char *prefix : {"f", "d"}) {
      t[prefix + std::string("mul_") + r.suffix] = product;
      t[prefix + std::string("div_") + r.suffix] = [=](OpBuilder &b, Location loc, ValueRange x, Type) -> Value {
        return quotient(b, loc, x[0], x[1]);
      };
      t[prefix + std::string("rcp_") + r.suffix] = [=](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
        return quotient(b, loc, floatConstant(b, loc, type, 1.0), x[0]);
      };
      t[prefix + std::string("sqrt_") + r.suffix] = root;
    }
    // a * b + c of floats: the product is exact in double, the double sum's
    // error exact by two-sum; rounded to float, the result is next to the
    // exact one, and its error is (sum - result) + the sum's error
    t[std::string("fmaf_") + r.suffix] = [=](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
      Value p = arith::MulFOp::create(b, loc, widen(b, loc, x[0]), widen(b, loc, x[1]));
      Value c = widen(b, loc, x[2]);
      Value s = arith::AddFOp::create(b, loc, p, c);
      Value nearest = arith::TruncFOp::create(b, loc, type, s);
      Value error = arith::AddFOp::create(b, loc, arith::SubFOp::create(b, loc, s, widen(b, loc, nearest)),
                                          twoSumError(b, loc, p, c, s));
      Value result = directed(b, loc, nearest, error, overflowed(b, loc, nearest, {x[0], x[1], x[2]}), rounding);
      return rounding == Rounding::Down ? zeroSumRoundedDown(b, loc, s, p, c, result) : result;
    };
    // a double to float: the error in double is exact
    t[std::string("double2float_") + r.suffix] = [=](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
      Value nearest = arith::TruncFOp::create(b, loc, type, x[0]);
      Value error = arith::SubFOp::create(b, loc, x[0], widen(b, loc, nearest));
      return directed(b, loc, nearest, error, overflowed(b, loc, nearest, {x[0]}), rounding);
    };
    // a 32-bit integer to float: the integer is exact in double
    auto fromInt = [=](bool isSigned) {
      return [=](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
        Value nearest = isSigned ? Value(arith::SIToFPOp::create(b, loc, type, x[0]))
                                 : Value(arith::UIToFPOp::create(b, loc, type, x[0]));
        Type wide = withElement(type, b.getF64Type());
        Value exact = isSigned ? Value(arith::SIToFPOp::create(b, loc, wide, x[0]))
                               : Value(arith::UIToFPOp::create(b, loc, wide, x[0]));
        Value never = falseLike(b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, nearest, nearest));
        return directed(b, loc, nearest, arith::SubFOp::create(b, loc, exact, widen(b, loc, nearest)), never,
                        rounding);
      };
    };
    t[std::string("int2float_") + r.suffix] = fromInt(true);
    t[std::string("uint2float_") + r.suffix] = fromInt(false);

    // 64-bit integers to float or double: the integer minus the result
    // (converted back: an integer value, within 2^11 of the integer, or 2^63
    // (2^64 unsigned) which no i64 (u64) reaches: the integer is below it)
    auto fromLong = [=](bool isSigned) {
      return [=](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
        Value nearest = isSigned ? Value(arith::SIToFPOp::create(b, loc, type, x[0]))
                                 : Value(arith::UIToFPOp::create(b, loc, type, x[0]));
        Type longType = x[0].getType();
        double limit = isSigned ? std::ldexp(1.0, 63) : std::ldexp(1.0, 64);
        Value atLimit = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, nearest,
                                              floatConstant(b, loc, type, limit));
        Value clamped = arith::SelectOp::create(b, loc, atLimit, floatConstant(b, loc, type, 0.0), nearest);
        Value back = isSigned ? Value(arith::FPToSIOp::create(b, loc, longType, clamped))
                              : Value(arith::FPToUIOp::create(b, loc, longType, clamped));
        Value difference = arith::SubIOp::create(b, loc, x[0], back); // (|difference| < 2^40 unless atLimit)
        Type wide = withElement(type, b.getF64Type());
        Value error = arith::SIToFPOp::create(b, loc, wide, difference);
        error = arith::SelectOp::create(b, loc, atLimit, floatConstant(b, loc, wide, -1.0), error);
        Value never = falseLike(b, loc, atLimit);
        return directed(b, loc, nearest, error, never, rounding);
      };
    };
    for (const char *to : {"float_", "double_"}) {
      t[std::string("ll2") + to + r.suffix] = fromLong(true);
      t[std::string("ull2") + to + r.suffix] = fromLong(false);
    }
  }
}

/// libdevice's integer functions (CUDA's __ffs, __brev, __byte_perm,
/// __mulhi, __mul24, __sad, __hadd, __rhadd and their unsigned and 64-bit
/// versions) in arith and math ops, as the CUDA math API defines them.
void addIntegerFunctions(llvm::StringMap<MathEquivalent> &t) {
  // 1 + the index of the lowest set bit, 0 for 0; an i32 for both widths
  t["ffs"] = t["ffsll"] = [](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
    Type argument = x[0].getType();
    Value zero = intConstant(b, loc, argument, 0);
    Value position = arith::AddIOp::create(b, loc, math::CountTrailingZerosOp::create(b, loc, x[0]),
                                           intConstant(b, loc, argument, 1));
    Value isZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x[0], zero);
    Value result = arith::SelectOp::create(b, loc, isZero, zero, position);
    return result.getType() == type ? result : Value(arith::TruncIOp::create(b, loc, type, result));
  };
  // the bits in reverse order: swap ever larger halves
  t["brev"] = t["brevll"] = [](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
    unsigned bits = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
    static const uint64_t masks[] = {0x5555555555555555ull, 0x3333333333333333ull, 0x0f0f0f0f0f0f0f0full,
                                     0x00ff00ff00ff00ffull, 0x0000ffff0000ffffull, 0x00000000ffffffffull};
    Value v = x[0];
    for (unsigned step = 0, width = 1; width < bits; ++step, width *= 2) {
      uint64_t widthMask = bits == 64 ? ~0ull : (1ull << bits) - 1;
      Value mask = intConstant(b, loc, type, static_cast<int64_t>(masks[step] & widthMask));
      Value shift = intConstant(b, loc, type, width);
      Value low = arith::ShLIOp::create(b, loc, arith::AndIOp::create(b, loc, v, mask), shift);
      Value high = arith::AndIOp::create(b, loc, arith::ShRUIOp::create(b, loc, v, shift), mask);
      v = arith::OrIOp::create(b, loc, low, high);
    }
    return v;
  };
  // byte n of the result: byte (s >> 4n) & 7 of the eight bytes y:x (x's
  // bytes are 0-3)
  t["byte_perm"] = [](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
    Type wide = withElement(type, b.getI64Type());
    auto widen = [&](Value v) { return Value(arith::ExtUIOp::create(b, loc, wide, v)); };
    Value bytes = arith::OrIOp::create(
        b, loc, widen(x[0]), arith::ShLIOp::create(b, loc, widen(x[1]), intConstant(b, loc, wide, 32)));
    Value selector = widen(x[2]);
    Value result = intConstant(b, loc, wide, 0);
    for (int n = 0; n < 4; ++n) {
      Value which = arith::AndIOp::create(
          b, loc, arith::ShRUIOp::create(b, loc, selector, intConstant(b, loc, wide, 4 * n)),
          intConstant(b, loc, wide, 7));
      Value byte = arith::AndIOp::create(
          b, loc,
          arith::ShRUIOp::create(b, loc, bytes, arith::MulIOp::create(b, loc, which, intConstant(b, loc, wide, 8))),
          intConstant(b, loc, wide, 0xff));
      result = arith::OrIOp::create(b, loc, result,
                                    arith::ShLIOp::create(b, loc, byte, intConstant(b, loc, wide, 8 * n)));
    }
    return arith::TruncIOp::create(b, loc, type, result);
  };
  // the high half of the double-width product
  t["mulhi"] = t["mul64hi"] = [](OpBuilder &b, Location loc, ValueRange x, Type) -> Value {
    return arith::MulSIExtendedOp::create(b, loc, x[0], x[1]).getHigh();
  };
  t["umulhi"] = t["umul64hi"] = [](OpBuilder &b, Location loc, ValueRange x, Type) -> Value {
    return arith::MulUIExtendedOp::create(b, loc, x[0], x[1]).getHigh();
  };
  // the low 32 bits of the product of the operands' low 24 bits (signed:
  // sign-extended from bit 23)
  t["mul24"] = [](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
    Value eight = intConstant(b, loc, type, 8);
    auto low24 = [&](Value v) {
      return Value(arith::ShRSIOp::create(b, loc, arith::ShLIOp::create(b, loc, v, eight), eight));
    };
    return arith::MulIOp::create(b, loc, low24(x[0]), low24(x[1]));
  };
  t["umul24"] = [](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
    Value mask = intConstant(b, loc, type, 0xffffff);
    return arith::MulIOp::create(b, loc, arith::AndIOp::create(b, loc, x[0], mask),
                                 arith::AndIOp::create(b, loc, x[1], mask));
  };
  // |x - y| + z
  auto sad = [](arith::CmpIPredicate greater) {
    return [greater](OpBuilder &b, Location loc, ValueRange x, Type) -> Value {
      Value larger = arith::CmpIOp::create(b, loc, greater, x[0], x[1]);
      Value difference = arith::SelectOp::create(b, loc, larger, arith::SubIOp::create(b, loc, x[0], x[1]),
                                                 arith::SubIOp::create(b, loc, x[1], x[0]));
      return arith::AddIOp::create(b, loc, difference, x[2]);
    };
  };
  t["sad"] = sad(arith::CmpIPredicate::sgt);
  t["usad"] = sad(arith::CmpIPredicate::ugt);
  // (x + y) >> 1 and (x + y + 1) >> 1 of the sum without overflow:
  // (x & y) + ((x ^ y) >> 1) and (x | y) - ((x ^ y) >> 1)
  auto halving = [](bool isSigned, bool roundUp) {
    return [isSigned, roundUp](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
      Value one = intConstant(b, loc, type, 1);
      Value differing = arith::XOrIOp::create(b, loc, x[0], x[1]);
      Value half = isSigned ? Value(arith::ShRSIOp::create(b, loc, differing, one))
                            : Value(arith::ShRUIOp::create(b, loc, differing, one));
      if (roundUp)
        return arith::SubIOp::create(b, loc, arith::OrIOp::create(b, loc, x[0], x[1]), half);
      return arith::AddIOp::create(b, loc, arith::AndIOp::create(b, loc, x[0], x[1]), half);
    };
  };
  t["hadd"] = halving(true, false);
  t["uhadd"] = halving(false, false);
  t["rhadd"] = halving(true, true);
  t["urhadd"] = halving(false, true);
}

const llvm::StringMap<MathEquivalent> &mathEquivalents() {
  static const llvm::StringMap<MathEquivalent> table = [] {
    llvm::StringMap<MathEquivalent> t;
    auto both = [&](StringRef name, MathEquivalent fn) {
      t[name] = fn;
      t[(name + "f").str()] = fn;
    };
    auto asI32 = [](OpBuilder &b, Location loc, Value flag, Type result) -> Value {
      return arith::ExtUIOp::create(b, loc, result, flag);
    };
    both("rsqrt", [](OpBuilder &b, Location loc, ValueRange x, Type) -> Value {
      return math::RsqrtOp::create(b, loc, x[0]);
    });
    t["frcp_rn"] = t["drcp_rn"] = [](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
      Value one = arith::ConstantOp::create(b, loc, type, b.getFloatAttr(getElementTypeOrSelf(type), 1.0));
      if (auto v = dyn_cast<VectorType>(type))
        one = arith::ConstantOp::create(b, loc, DenseElementsAttr::get(v, b.getFloatAttr(v.getElementType(), 1.0)));
      return arith::DivFOp::create(b, loc, one, x[0]);
    };
    both("isnan", [asI32](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
      return asI32(b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x[0], x[0]), type);
    });
    both("isinf", [asI32](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
      Value inf = arith::ConstantOp::create(
          b, loc, b.getFloatAttr(getElementTypeOrSelf(x[0].getType()), std::numeric_limits<double>::infinity()));
      if (auto v = dyn_cast<VectorType>(x[0].getType()))
        inf = arith::ConstantOp::create(
            b, loc, DenseElementsAttr::get(v, b.getFloatAttr(v.getElementType(), std::numeric_limits<double>::infinity())));
      Value magnitude = math::AbsFOp::create(b, loc, x[0]);
      return asI32(b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, magnitude, inf), type);
    });
    t["finitef"] = t["isfinited"] = [asI32](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
      return asI32(b, loc, math::IsFiniteOp::create(b, loc, x[0]), type);
    };
    both("signbit", [](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
      Type element = getElementTypeOrSelf(x[0].getType());
      unsigned bits = element.getIntOrFloatBitWidth();
      Type intType = b.getIntegerType(bits);
      if (auto v = dyn_cast<VectorType>(x[0].getType()))
        intType = VectorType::get(v.getShape(), intType);
      Value asInt = arith::BitcastOp::create(b, loc, intType, x[0]);
      Value shift = arith::ConstantOp::create(b, loc, intType, b.getIntegerAttr(getElementTypeOrSelf(intType), bits - 1));
      if (auto v = dyn_cast<VectorType>(intType))
        shift = arith::ConstantOp::create(b, loc, DenseElementsAttr::get(v, b.getIntegerAttr(v.getElementType(), bits - 1)));
      Value sign = arith::ShRUIOp::create(b, loc, asInt, shift);
      if (bits > 32)
        return arith::TruncIOp::create(b, loc, type, sign);
      return sign;
    });
    t["saturatef"] = [](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
      auto constant = [&](double v) -> Value {
        if (auto vt = dyn_cast<VectorType>(type))
          return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vt, b.getFloatAttr(vt.getElementType(), v)));
        return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, v));
      };
      return arith::MinNumFOp::create(b, loc, arith::MaxNumFOp::create(b, loc, x[0], constant(0.0)), constant(1.0));
    };
    t["abs"] = t["llabs"] = [](OpBuilder &b, Location loc, ValueRange x, Type) -> Value {
      return math::AbsIOp::create(b, loc, x[0]);
    };
    t["min"] = t["llmin"] = [](OpBuilder &b, Location loc, ValueRange x, Type) -> Value {
      return arith::MinSIOp::create(b, loc, x[0], x[1]);
    };
    t["max"] = t["llmax"] = [](OpBuilder &b, Location loc, ValueRange x, Type) -> Value {
      return arith::MaxSIOp::create(b, loc, x[0], x[1]);
    };
    t["umin"] = t["ullmin"] = [](OpBuilder &b, Location loc, ValueRange x, Type) -> Value {
      return arith::MinUIOp::create(b, loc, x[0], x[1]);
    };
    t["umax"] = t["ullmax"] = [](OpBuilder &b, Location loc, ValueRange x, Type) -> Value {
      return arith::MaxUIOp::create(b, loc, x[0], x[1]);
    };
    // the round-to-nearest-even versions of arithmetic and conversions, as
    // the host rounds
    t["fadd_rn"] = t["dadd_rn"] = [](OpBuilder &b, Location loc, ValueRange x, Type) -> Value {
      return arith::AddFOp::create(b, loc, x[0], x[1]);
    };
    t["fsub_rn"] = t["dsub_rn"] = [](OpBuilder &b, Location loc, ValueRange x, Type) -> Value {
      return arith::SubFOp::create(b, loc, x[0], x[1]);
    };
    t["fmul_rn"] = t["dmul_rn"] = [](OpBuilder &b, Location loc, ValueRange x, Type) -> Value {
      return arith::MulFOp::create(b, loc, x[0], x[1]);
    };
    t["fdiv_rn"] = t["ddiv_rn"] = t["fast_fdividef"] = [](OpBuilder &b, Location loc, ValueRange x, Type) -> Value {
      return arith::DivFOp::create(b, loc, x[0], x[1]);
    };
    t["fmaf_rn"] = t["fma_rn"] = [](OpBuilder &b, Location loc, ValueRange x, Type) -> Value {
      return math::FmaOp::create(b, loc, x[0], x[1], x[2]);
    };
    t["fsqrt_rn"] = t["dsqrt_rn"] = [](OpBuilder &b, Location loc, ValueRange x, Type) -> Value {
      return math::SqrtOp::create(b, loc, x[0]);
    };
    t["frsqrt_rn"] = [](OpBuilder &b, Location loc, ValueRange x, Type) -> Value {
      return math::RsqrtOp::create(b, loc, x[0]);
    };
    for (const char *name : {"float2int_rz", "double2int_rz", "float2ll_rz", "double2ll_rz"})
      t[name] = [](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
        return arith::FPToSIOp::create(b, loc, type, x[0]);
      };
    for (const char *name : {"float2uint_rz", "double2uint_rz", "float2ull_rz", "double2ull_rz"})
      t[name] = [](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
        return arith::FPToUIOp::create(b, loc, type, x[0]);
      };
    // the other roundings of float-to-integer conversions: round to nearest
    // even, down or up first (out-of-range values as the _rz ones treat
    // them)
    auto rounded = [](auto round, bool isSigned) {
      return [round, isSigned](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
        Value whole = round(b, loc, x[0]);
        return isSigned ? Value(arith::FPToSIOp::create(b, loc, type, whole))
                        : Value(arith::FPToUIOp::create(b, loc, type, whole));
      };
    };
    auto even = [](OpBuilder &b, Location loc, Value v) -> Value { return math::RoundEvenOp::create(b, loc, v); };
    auto down = [](OpBuilder &b, Location loc, Value v) -> Value { return math::FloorOp::create(b, loc, v); };
    auto up = [](OpBuilder &b, Location loc, Value v) -> Value { return math::CeilOp::create(b, loc, v); };
    for (StringRef from : {"float2", "double2"})
      for (StringRef to : {"int", "ll", "uint", "ull"}) {
        bool isSigned = to == "int" || to == "ll";
        std::string stem = (from + to).str();
        t[stem + "_rn"] = rounded(even, isSigned);
        t[stem + "_rd"] = rounded(down, isSigned);
        t[stem + "_ru"] = rounded(up, isSigned);
      }
    // the double names of the tests
    t["isnand"] = t["isnan"];
    t["isinfd"] = t["isinf"];
    t["signbitd"] = t["signbit"];
    // a double's high and low 32 bits, and a double of them
    auto half = [](bool high) {
      return [high](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
        Value bits = arith::BitcastOp::create(b, loc, withElement(x[0].getType(), b.getI64Type()), x[0]);
        if (high)
          bits = arith::ShRUIOp::create(b, loc, bits, intConstant(b, loc, bits.getType(), 32));
        return arith::TruncIOp::create(b, loc, type, bits);
      };
    };
    t["double2hiint"] = half(true);
    t["double2loint"] = half(false);
    t["hiloint2double"] = [](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
      Type wide = withElement(type, b.getI64Type());
      Value hi = arith::ShLIOp::create(b, loc, arith::ExtUIOp::create(b, loc, wide, x[0]),
                                       intConstant(b, loc, wide, 32));
      Value bits = arith::OrIOp::create(b, loc, hi, arith::ExtUIOp::create(b, loc, wide, x[1]));
      return arith::BitcastOp::create(b, loc, type, bits);
    };
    for (const char *name : {"int2float_rn", "ll2float_rn", "int2double_rn", "ll2double_rn"})
      t[name] = [](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
        return arith::SIToFPOp::create(b, loc, type, x[0]);
      };
    for (const char *name : {"uint2float_rn", "ull2float_rn", "uint2double_rn", "ull2double_rn"})
      t[name] = [](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
        return arith::UIToFPOp::create(b, loc, type, x[0]);
      };
    t["double2float_rn"] = [](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
      return arith::TruncFOp::create(b, loc, type, x[0]);
    };
    for (const char *name : {"int_as_float", "float_as_int", "uint_as_float", "float_as_uint",
                             "longlong_as_double", "double_as_longlong"})
      t[name] = [](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
        return arith::BitcastOp::create(b, loc, type, x[0]);
      };
    // bit counts, as i32
    auto count = [](auto make) {
      return [make](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
        Value n = make(b, loc, x[0]);
        return n.getType() == type ? n : Value(arith::TruncIOp::create(b, loc, type, n));
      };
    };
    t["popc"] = t["popcll"] = count([](OpBuilder &b, Location loc, Value v) -> Value {
      return math::CtPopOp::create(b, loc, v);
    });
    t["clz"] = t["clzll"] = count([](OpBuilder &b, Location loc, Value v) -> Value {
      return math::CountLeadingZerosOp::create(b, loc, v);
    });
    // x to an integer power: pow with the exponent as a float (exact: an
    // i32 fits a double, and powf of an integral exponent is x^n rounded)
    t["powi"] = t["powif"] = [](OpBuilder &b, Location loc, ValueRange x, Type type) -> Value {
      Value exponent = arith::SIToFPOp::create(b, loc, type, x[1]);
      return math::PowFOp::create(b, loc, x[0], exponent);
    };
    addIntegerFunctions(t);
    addDirectedArithmetic(t);
    return t;
  }();
  return table;
}

/// The MLIR ops computing `op` (a libdevice call) on the host, if any.
const MathEquivalent *mathEquivalent(tt::ExternElementwiseOp op) {
  StringRef symbol = op.getSymbol();
  if (!symbol.consume_front("__nv_"))
    return nullptr;
  auto it = mathEquivalents().find(symbol);
  return it == mathEquivalents().end() ? nullptr : &it->second;
}

struct ExternElementwiseConversion : OpConversionPattern<tt::ExternElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::ExternElementwiseOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (const MathEquivalent *equivalent = mathEquivalent(op)) {
      Type type = getTypeConverter()->convertType(op.getType());
      rewriter.replaceOp(op, (*equivalent)(rewriter, op.getLoc(), adaptor.getSrcs(), type));
      return success();
    }
    std::optional<std::string> name = hostLibraryFunction(op);
    if (!name)
      return rewriter.notifyMatchFailure(op, "no C library twin");
    Location loc = op.getLoc();
    Type element = getElementTypeOrSelf(op.getType());
    SmallVector<Type> params; // (ldexp's exponent is an i32)
    for (Value operand : op->getOperands())
      params.push_back(getElementTypeOrSelf(operand.getType()));
    auto callee = tritium::getOrInsertFunction(rewriter, op->getParentOfType<ModuleOp>(), *name,
                                               LLVM::LLVMFunctionType::get(element, params));
    if (!callee)
      return op.emitError() << "'" << *name << "' is declared with another type";
    ValueRange operands = adaptor.getSrcs();
    if (!isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOp(op, LLVM::CallOp::create(rewriter, loc, callee, operands).getResult());
      return success();
    }
    // element by element through stack copies of the operands and result
    int64_t n = numElements(op.getType());
    Value zero = i32Constant(rewriter, loc, 0);
    SmallVector<Value> operandMem;
    for (auto [operand, param] : llvm::zip(operands, params)) {
      operandMem.push_back(entryAlloca(rewriter, loc, param, n));
      storeElements(rewriter, loc, operand, operandMem.back(), zero);
    }
    Value resultMem = entryAlloca(rewriter, loc, element, n);
    scf::ForOp::create(rewriter, loc, zero, i32Constant(rewriter, loc, n), i32Constant(rewriter, loc, 1),
                       ValueRange{}, [&](OpBuilder &b, Location, Value i, ValueRange) {
                         SmallVector<Value> args;
                         for (auto [mem, param] : llvm::zip(operandMem, params))
                           args.push_back(loadElements(b, loc, mem, param, i, 1));
                         Value result = LLVM::CallOp::create(b, loc, callee, args).getResult();
                         storeElements(b, loc, result, resultMem, i);
                         scf::YieldOp::create(b, loc);
                       });
    Value result = asVector(rewriter, loc, loadElements(rewriter, loc, resultMem, element, zero, n));
    endLifetimes(rewriter, loc, operandMem);
    endLifetimes(rewriter, loc, {resultMem});
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

bool tritium::cpu::hasHostLibdevice(tt::ExternElementwiseOp op) {
  return mathEquivalent(op) || hostLibraryFunction(op);
}

void tritium::cpu::populateTensorOpsToHostPatterns(const TypeConverter &types, RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<MakeRangeConversion, SplatConversion, SameElementsConversion<tt::ExpandDimsOp>,
               SameElementsConversion<tt::ReshapeOp>, BroadcastConversion, TransConversion, JoinConversion,
               SplitConversion, CatConversion, ElementwiseConversion, TritonElementwiseConversion,
               ExternElementwiseConversion>(types, ctx);
}
