//===- ConvertTTToHostLLVM.cpp - Triton IR to LLVM for the host CPU -------===//
//
// convert-tt-to-host-llvm: one program of a Triton IR kernel becomes one
// host function (Passes.td has the contract).
//
// Algorithm:
//   1. Tensors to flat vectors (a dialect conversion).  A tensor of shape S
//      is one LLVM vector of prod(S) elements in row-major order, so the
//      element order never changes between ops and shape ops are index
//      maps: `tt.expand_dims` and `tt.reshape` are the value itself,
//      `tt.broadcast` and `tt.trans` one shufflevector whose mask sends
//      each result element to the source element it copies.  arith and
//      math ops are rebuilt on the vector types; scf ops convert
//      structurally.  Pointers become `!llvm.ptr` (address space 0):
//      `tt.addptr` is a GEP; a load or store whose pointers address each
//      row contiguously (by the axis analysis) is one masked vector load or
//      store per row, any other a masked gather or scatter.
//      `tt.reduce` over an axis of n elements (a power of two) takes
//      log2(n) steps, each splitting the axis into its two halves with two
//      shuffles and applying the combine region to them, element-wise, as
//      vector ops; `tt.scan` is the same with shifted operands (Hillis and
//      Steele).  `tt.dot` keeps the accumulator as its rows and adds, for
//      each k and row i, a[i][k] times row k of b with one vector FMA.
//      `tt.gather` stores its source to a stack slot and gathers from it;
//      atomics run element by element (scf.for, scf.if on the mask) as
//      LLVM atomics.
//      The kernel gains six i32 arguments: the program's coordinates and
//      the grid's size.
//   2. The standard conversions to the LLVM dialect (scf to cf, then arith,
//      math, func and cf to llvm).
//   3. The entry `<kernel>__program(ptr args, x, y, z, nx, ny, nz)`, which
//      loads each argument from the array of argument addresses and calls
//      the kernel.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"
#include "tritium/Analysis/AxisInfo.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"

namespace tritium {
#define GEN_PASS_DEF_CONVERTTTTOHOSTLLVMPASS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium

using namespace mlir;
namespace tt = tritium::tt;

namespace {

constexpr unsigned kGridArgs = 6; // x, y, z, nx, ny, nz

int64_t numElements(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getNumElements();
  return 1;
}

/// Row-major strides of `shape`.
SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

/// The multi-index of flat position `flat` in `shape`.
SmallVector<int64_t> unflatten(int64_t flat, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> index(shape.size());
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    index[i] = flat % shape[i];
    flat /= shape[i];
  }
  return index;
}

/// Tensors to flat vectors, Triton pointers to LLVM pointers; a pointer to
/// i1 reads and writes bytes, as Triton's `*i1` does.
class HostTypeConverter : public TypeConverter {
public:
  explicit HostTypeConverter(MLIRContext *ctx) {
    addConversion([](Type type) { return type; });
    addConversion([ctx](tt::PointerType) -> Type { return LLVM::LLVMPointerType::get(ctx); });
    addConversion([this](RankedTensorType type) -> std::optional<Type> {
      Type element = convertType(type.getElementType());
      if (!element)
        return std::nullopt;
      return VectorType::get({type.getNumElements()}, element);
    });
    auto materialize = [](OpBuilder &b, Type type, ValueRange inputs, Location loc) -> Value {
      return UnrealizedConversionCastOp::create(b, loc, type, inputs).getResult(0);
    };
    addSourceMaterialization(materialize);
    addTargetMaterialization(materialize);
  }
};

bool hasTensorType(Operation *op) {
  auto isTensor = [](Type t) { return isa<RankedTensorType>(t); };
  return llvm::any_of(op->getOperandTypes(), isTensor) || llvm::any_of(op->getResultTypes(), isTensor);
}

Value i32Constant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(static_cast<int32_t>(v)));
}

/// `src` (a flat vector) rearranged by `mask`: result[i] = src[mask[i]].
Value shuffle(OpBuilder &b, Location loc, Value src, ArrayRef<int64_t> mask) {
  SmallVector<int32_t> m(mask.begin(), mask.end());
  return LLVM::ShuffleVectorOp::create(b, loc, src, src, m);
}

/// A vector of `count` copies of scalar `value`.
Value splat(OpBuilder &b, Location loc, Value value, int64_t count) {
  auto type = VectorType::get({count}, value.getType());
  Value poison = LLVM::PoisonOp::create(b, loc, type);
  Value zero = i32Constant(b, loc, 0);
  Value one = LLVM::InsertElementOp::create(b, loc, poison, value, zero);
  return shuffle(b, loc, one, SmallVector<int64_t>(count, 0));
}

Value allTrue(OpBuilder &b, Location loc, int64_t count) {
  auto type = VectorType::get({count}, b.getI1Type());
  return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, true));
}

Value zeroOf(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
}

func::FuncOp enclosingKernel(Operation *op) { return op->getParentOfType<func::FuncOp>(); }

Value slice(OpBuilder &b, Location loc, Value v, int64_t first, int64_t count);
Value concatenate(OpBuilder &b, Location loc, SmallVector<Value> parts);

// -- functions --------------------------------------------------------------

struct FuncOpConversion : OpConversionPattern<tt::FuncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::FuncOp op, OpAdaptor, ConversionPatternRewriter &rewriter) const override {
    if (op.isDeclaration())
      return rewriter.notifyMatchFailure(op, "declarations have no host lowering");
    FunctionType type = op.getFunctionType();
    TypeConverter::SignatureConversion signature(type.getNumInputs());
    for (auto [i, input] : llvm::enumerate(type.getInputs())) {
      Type converted = getTypeConverter()->convertType(input);
      if (!converted)
        return failure();
      signature.addInputs(i, converted);
    }
    SmallVector<Type> grid(kGridArgs, rewriter.getI32Type());
    signature.addInputs(grid);
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertTypes(type.getResults(), results)))
      return failure();
    auto func = func::FuncOp::create(rewriter, op.getLoc(), op.getName(),
                                     rewriter.getFunctionType(signature.getConvertedTypes(), results));
    func.setVisibility(op.getVisibility());
    rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
    if (!rewriter.applySignatureConversion(&func.getBody().front(), signature, getTypeConverter()))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct ReturnOpConversion : OpConversionPattern<tt::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::ReturnOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<func::ReturnOp>(op, adaptor.getOperands());
    return success();
  }
};

/// tt.get_program_id and tt.get_num_programs: the kernel's trailing
/// arguments (x, y, z, then nx, ny, nz).
template <typename OpTy, unsigned First>
struct GridQueryConversion : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    func::FuncOp func = enclosingKernel(op);
    if (!func)
      return failure();
    unsigned index = func.getNumArguments() - kGridArgs + First + op.getAxis();
    rewriter.replaceOp(op, func.getArgument(index));
    return success();
  }
};

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

// -- memory -----------------------------------------------------------------

/// The element type a pointer to `pointee` reads and writes (i1 as bytes).
Type memoryType(Type pointee, OpBuilder &b) {
  return pointee.isInteger(1) ? b.getI8Type() : pointee;
}

Type pointeeOf(Type ptrLike) {
  if (auto tensor = dyn_cast<RankedTensorType>(ptrLike))
    ptrLike = tensor.getElementType();
  return cast<tt::PointerType>(ptrLike).getPointeeType();
}

struct AddPtrConversion : OpConversionPattern<tt::AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::AddPtrOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type result = getTypeConverter()->convertType(op.getType());
    Type element = memoryType(pointeeOf(op.getType()), rewriter);
    rewriter.replaceOpWithNewOp<LLVM::GEPOp>(op, result, element, adaptor.getPtr(),
                                             ValueRange{adaptor.getOffset()});
    return success();
  }
};

/// A scalar pointer or value as a one-element vector, or the vector itself.
Value asVector(OpBuilder &b, Location loc, Value v) {
  return isa<VectorType>(v.getType()) ? v : splat(b, loc, v, 1);
}

Value fromVector(OpBuilder &b, Location loc, Value v, Type want) {
  if (isa<VectorType>(want))
    return v;
  return LLVM::ExtractElementOp::create(b, loc, v, i32Constant(b, loc, 0));
}

/// Loads and stores whose pointers address each row (the innermost
/// dimension) contiguously, by the axis analysis of the Triton IR: the
/// length of a row.  Such an access is one masked vector load or store per
/// row instead of a gather or scatter.
using ContiguousRows = llvm::DenseMap<Operation *, int64_t>;

ContiguousRows findContiguousRows(ModuleOp module) {
  ContiguousRows rows;
  tritium::ModuleAxisInfo axis(module);
  if (!axis.succeeded())
    return rows;
  module.walk([&](Operation *op) {
    Value ptr;
    if (auto load = dyn_cast<tt::LoadOp>(op))
      ptr = load.getPtr();
    else if (auto store = dyn_cast<tt::StoreOp>(op))
      ptr = store.getPtr();
    auto type = ptr ? dyn_cast<RankedTensorType>(ptr.getType()) : RankedTensorType();
    if (!type)
      return;
    unsigned last = type.getRank() - 1;
    int64_t length = type.getShape()[last];
    if (length > 1 && axis.getAxisInfo(ptr).getContiguity(last) >= length)
      rows[op] = length;
  });
  return rows;
}

/// Elements [first, first + count) of flat vector `v`.
Value slice(OpBuilder &b, Location loc, Value v, int64_t first, int64_t count) {
  SmallVector<int64_t> mask;
  for (int64_t i = 0; i < count; ++i)
    mask.push_back(first + i);
  return shuffle(b, loc, v, mask);
}

/// The vectors `parts` (of equal length) one after another.
Value concatenate(OpBuilder &b, Location loc, SmallVector<Value> parts) {
  while (parts.size() > 1) {
    SmallVector<Value> joined;
    for (size_t i = 0; i + 1 < parts.size(); i += 2) {
      int64_t left = cast<VectorType>(parts[i].getType()).getNumElements();
      int64_t right = cast<VectorType>(parts[i + 1].getType()).getNumElements();
      SmallVector<int32_t> mask;
      for (int64_t k = 0; k < left + right; ++k)
        mask.push_back(static_cast<int32_t>(k));
      joined.push_back(LLVM::ShuffleVectorOp::create(b, loc, parts[i], parts[i + 1], mask));
    }
    if (parts.size() % 2)
      joined.push_back(parts.back());
    parts = std::move(joined);
  }
  return parts.front();
}

LogicalResult refuseBlockPointers(Operation *op, Value ptr, ConversionPatternRewriter &rewriter) {
  if (tt::isTensorPointerType(ptr.getType()))
    return rewriter.notifyMatchFailure(op, "block pointers reach the host lowering rewritten to pointers");
  return success();
}

struct LoadConversion : OpConversionPattern<tt::LoadOp> {
  LoadConversion(const TypeConverter &converter, MLIRContext *ctx, const ContiguousRows &rows)
      : OpConversionPattern(converter, ctx), rows(rows) {}
  const ContiguousRows &rows;
  LogicalResult matchAndRewrite(tt::LoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (failed(refuseBlockPointers(op, op.getPtr(), rewriter)))
      return failure();
    Location loc = op.getLoc();
    int64_t n = numElements(op.getType());
    Type pointee = pointeeOf(op.getPtr().getType());
    auto memType = VectorType::get({n}, memoryType(pointee, rewriter));
    Value ptrs = asVector(rewriter, loc, adaptor.getPtr());
    Value mask = adaptor.getMask() ? asVector(rewriter, loc, adaptor.getMask()) : allTrue(rewriter, loc, n);
    Value other = adaptor.getOther() ? asVector(rewriter, loc, adaptor.getOther()) : zeroOf(rewriter, loc, memType);
    if (pointee.isInteger(1) && adaptor.getOther())
      other = arith::ExtUIOp::create(rewriter, loc, memType, other);
    unsigned align = std::max(1u, memType.getElementType().getIntOrFloatBitWidth() / 8);
    Value loaded;
    if (auto row = rows.find(op); row != rows.end()) {
      int64_t length = row->second;
      auto rowType = VectorType::get({length}, memType.getElementType());
      SmallVector<Value> parts;
      for (int64_t first = 0; first < n; first += length) {
        Value address = LLVM::ExtractElementOp::create(rewriter, loc, ptrs, i32Constant(rewriter, loc, first));
        parts.push_back(LLVM::MaskedLoadOp::create(
            rewriter, loc, rowType, address, slice(rewriter, loc, mask, first, length),
            slice(rewriter, loc, other, first, length), rewriter.getI32IntegerAttr(align)));
      }
      loaded = concatenate(rewriter, loc, parts);
    } else {
      loaded = LLVM::masked_gather::create(rewriter, loc, memType, ptrs, mask, ValueRange{other},
                                           rewriter.getI32IntegerAttr(align));
    }
    if (pointee.isInteger(1))
      loaded = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, loaded,
                                     zeroOf(rewriter, loc, memType));
    rewriter.replaceOp(op, fromVector(rewriter, loc, loaded, getTypeConverter()->convertType(op.getType())));
    return success();
  }
};

struct StoreConversion : OpConversionPattern<tt::StoreOp> {
  StoreConversion(const TypeConverter &converter, MLIRContext *ctx, const ContiguousRows &rows)
      : OpConversionPattern(converter, ctx), rows(rows) {}
  const ContiguousRows &rows;
  LogicalResult matchAndRewrite(tt::StoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (failed(refuseBlockPointers(op, op.getPtr(), rewriter)))
      return failure();
    Location loc = op.getLoc();
    int64_t n = numElements(op.getValue().getType());
    Type pointee = pointeeOf(op.getPtr().getType());
    Value ptrs = asVector(rewriter, loc, adaptor.getPtr());
    Value value = asVector(rewriter, loc, adaptor.getValue());
    if (pointee.isInteger(1))
      value = arith::ExtUIOp::create(rewriter, loc, VectorType::get({n}, rewriter.getI8Type()), value);
    Value mask = adaptor.getMask() ? asVector(rewriter, loc, adaptor.getMask()) : allTrue(rewriter, loc, n);
    unsigned align = std::max(1u, cast<VectorType>(value.getType()).getElementType().getIntOrFloatBitWidth() / 8);
    if (auto row = rows.find(op); row != rows.end()) {
      int64_t length = row->second;
      for (int64_t first = 0; first < n; first += length) {
        Value address = LLVM::ExtractElementOp::create(rewriter, loc, ptrs, i32Constant(rewriter, loc, first));
        LLVM::MaskedStoreOp::create(rewriter, loc, slice(rewriter, loc, value, first, length), address,
                                    slice(rewriter, loc, mask, first, length), rewriter.getI32IntegerAttr(align));
      }
    } else {
      LLVM::masked_scatter::create(rewriter, loc, value, ptrs, mask, rewriter.getI32IntegerAttr(align));
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// tt.gather along `axis`: the source goes to a stack slot and each result
/// element loads src[..., indices[i], ...], one gather through pointers
/// base + indices * stride(axis) + (i's offset with its axis index zeroed).
struct GatherConversion : OpConversionPattern<tt::GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::GatherOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ArrayRef<int64_t> srcShape = op.getSrc().getType().getShape();
    ArrayRef<int64_t> shape = op.getType().getShape();
    unsigned axis = op.getAxis();
    SmallVector<int64_t> srcStrides = stridesOf(srcShape);
    int64_t n = op.getType().getNumElements();
    SmallVector<int32_t> base;
    for (int64_t i = 0; i < n; ++i) {
      SmallVector<int64_t> index = unflatten(i, shape);
      int64_t offset = 0;
      for (size_t d = 0; d < shape.size(); ++d)
        offset += (d == axis ? 0 : index[d]) * srcStrides[d];
      base.push_back(static_cast<int32_t>(offset));
    }
    auto srcType = cast<VectorType>(adaptor.getSrc().getType());
    auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
    Value slot = LLVM::AllocaOp::create(rewriter, loc, ptr, srcType, i32Constant(rewriter, loc, 1));
    LLVM::StoreOp::create(rewriter, loc, adaptor.getSrc(), slot);
    auto i32s = VectorType::get({n}, rewriter.getI32Type());
    Value indices = adaptor.getIndices();
    if (getElementTypeOrSelf(indices.getType()) != rewriter.getI32Type())
      indices = arith::TruncIOp::create(rewriter, loc, i32s, indices);  // (an index is below the axis length)
    Value strideAxis = arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(i32s, static_cast<int32_t>(srcStrides[axis])));
    Value offsets = arith::AddIOp::create(
        rewriter, loc, arith::MulIOp::create(rewriter, loc, indices, strideAxis),
        arith::ConstantOp::create(rewriter, loc, DenseElementsAttr::get(i32s, ArrayRef<int32_t>(base))));
    Value ptrs = LLVM::GEPOp::create(rewriter, loc, VectorType::get({n}, ptr), srcType.getElementType(),
                                     splat(rewriter, loc, slot, n), ValueRange{offsets});
    auto resultType = VectorType::get({n}, srcType.getElementType());
    unsigned align = std::max(1u, srcType.getElementType().getIntOrFloatBitWidth() / 8);
    rewriter.replaceOp(op, LLVM::masked_gather::create(rewriter, loc, resultType, ptrs, allTrue(rewriter, loc, n),
                                                       ValueRange{}, rewriter.getI32IntegerAttr(align)));
    return success();
  }
};

// -- atomics ------------------------------------------------------------------

LLVM::AtomicOrdering ordering(tt::MemSemantic sem) {
  switch (sem) {
  case tt::MemSemantic::RELAXED:
    return LLVM::AtomicOrdering::monotonic;
  case tt::MemSemantic::ACQUIRE:
    return LLVM::AtomicOrdering::acquire;
  case tt::MemSemantic::RELEASE:
    return LLVM::AtomicOrdering::release;
  default:
    return LLVM::AtomicOrdering::acq_rel;
  }
}

/// The result of an atomic on `n` elements (a vector, or the scalar when
/// the op is scalar): element i is `atomic(b, i)` where `enabled(b, i)`
/// holds, else zero, one element after another in an scf.for (host atomics
/// are scalar).
Value perElement(ConversionPatternRewriter &rewriter, Location loc, int64_t n, Type element, bool scalar,
                 function_ref<Value(OpBuilder &, Value)> enabled, function_ref<Value(OpBuilder &, Value)> atomic) {
  auto one = [&](OpBuilder &b, Value index) -> Value {
    auto guarded = scf::IfOp::create(
        b, loc, enabled(b, index),
        [&](OpBuilder &t, Location) { scf::YieldOp::create(t, loc, atomic(t, index)); },
        [&](OpBuilder &e, Location) { scf::YieldOp::create(e, loc, zeroOf(e, loc, element)); });
    return guarded.getResult(0);
  };
  if (scalar)
    return one(rewriter, i32Constant(rewriter, loc, 0));
  auto type = VectorType::get({n}, element);
  Value init = LLVM::PoisonOp::create(rewriter, loc, type);
  auto loop = scf::ForOp::create(
      rewriter, loc, i32Constant(rewriter, loc, 0), i32Constant(rewriter, loc, n), i32Constant(rewriter, loc, 1),
      ValueRange{init}, [&](OpBuilder &b, Location, Value index, ValueRange carried) {
        Value value = one(b, index);
        scf::YieldOp::create(b, loc, Value(LLVM::InsertElementOp::create(b, loc, carried[0], value, index)));
      });
  return loop.getResult(0);
}

/// Element `index` of `v` (a vector), or `v` itself (a scalar).
Value elementAt(OpBuilder &b, Location loc, Value v, Value index) {
  return isa<VectorType>(v.getType()) ? Value(LLVM::ExtractElementOp::create(b, loc, v, index)) : v;
}

struct AtomicRMWConversion : OpConversionPattern<tt::AtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::AtomicRMWOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type element = getElementTypeOrSelf(op.getVal().getType());
    bool isFloat = isa<FloatType>(element);
    LLVM::AtomicBinOp kind;
    switch (op.getAtomicRmwOp()) {
    case tt::RMWOp::AND: kind = LLVM::AtomicBinOp::_and; break;
    case tt::RMWOp::OR: kind = LLVM::AtomicBinOp::_or; break;
    case tt::RMWOp::XOR: kind = LLVM::AtomicBinOp::_xor; break;
    case tt::RMWOp::ADD: kind = LLVM::AtomicBinOp::add; break;
    case tt::RMWOp::FADD: kind = LLVM::AtomicBinOp::fadd; break;
    case tt::RMWOp::MAX: kind = isFloat ? LLVM::AtomicBinOp::fmax : LLVM::AtomicBinOp::max; break;
    case tt::RMWOp::MIN: kind = isFloat ? LLVM::AtomicBinOp::fmin : LLVM::AtomicBinOp::min; break;
    case tt::RMWOp::UMAX: kind = LLVM::AtomicBinOp::umax; break;
    case tt::RMWOp::UMIN: kind = LLVM::AtomicBinOp::umin; break;
    case tt::RMWOp::XCHG: kind = LLVM::AtomicBinOp::xchg; break;
    }
    LLVM::AtomicOrdering order = ordering(op.getSem());
    Value ptr = adaptor.getPtr(), val = adaptor.getVal(), mask = adaptor.getMask();
    Value result = perElement(
        rewriter, loc, numElements(op.getType()), element, !isa<RankedTensorType>(op.getType()),
        [&](OpBuilder &b, Value i) -> Value {
          return mask ? elementAt(b, loc, mask, i) : Value(arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
        },
        [&](OpBuilder &b, Value i) -> Value {
          return LLVM::AtomicRMWOp::create(b, loc, kind, elementAt(b, loc, ptr, i), elementAt(b, loc, val, i),
                                           order);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct AtomicCASConversion : OpConversionPattern<tt::AtomicCASOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::AtomicCASOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type element = getElementTypeOrSelf(op.getVal().getType());
    if (!element.isIntOrIndex())
      return rewriter.notifyMatchFailure(op, "atomic compare-and-swap of integers only");
    LLVM::AtomicOrdering onSuccess = ordering(op.getSem());
    LLVM::AtomicOrdering onFailure = onSuccess == LLVM::AtomicOrdering::release   ? LLVM::AtomicOrdering::monotonic
                                     : onSuccess == LLVM::AtomicOrdering::acq_rel ? LLVM::AtomicOrdering::acquire
                                                                                  : onSuccess;
    Value ptr = adaptor.getPtr(), cmp = adaptor.getCmp(), val = adaptor.getVal();
    Value result = perElement(
        rewriter, loc, numElements(op.getType()), element, !isa<RankedTensorType>(op.getType()),
        [&](OpBuilder &b, Value) -> Value { return arith::ConstantOp::create(b, loc, b.getBoolAttr(true)); },
        [&](OpBuilder &b, Value i) -> Value {
          auto pair = LLVM::AtomicCmpXchgOp::create(b, loc, elementAt(b, loc, ptr, i), elementAt(b, loc, cmp, i),
                                                    elementAt(b, loc, val, i), onSuccess, onFailure);
          return LLVM::ExtractValueOp::create(b, loc, pair, ArrayRef<int64_t>{0});
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

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

// -- element-wise ops -------------------------------------------------------

/// An arith or math op on tensors, rebuilt on the flat vector types (a
/// dense constant keeps its elements in order).
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
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, dense.reshape(cast<ShapedType>(types.front())));
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
      result = LLVM::BitcastOp::create(rewriter, loc, type, operands[0]);
    } else if (isa<tt::IntToPtrOp>(op)) {
      result = LLVM::IntToPtrOp::create(rewriter, loc, type, operands[0]);
    } else if (isa<tt::PtrToIntOp>(op)) {
      result = LLVM::PtrToIntOp::create(rewriter, loc, type, operands[0]);
    } else if (auto fp = dyn_cast<tt::FpToFpOp>(op)) {
      unsigned from = getElementTypeOrSelf(operands[0].getType()).getIntOrFloatBitWidth();
      unsigned to = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
      if (from < to)
        result = arith::ExtFOp::create(rewriter, loc, type, operands[0]);
      else if (from > to && (getElementTypeOrSelf(type).isF16() || getElementTypeOrSelf(type).isBF16()))
        result = arith::TruncFOp::create(rewriter, loc, type, operands[0]);
      else
        return rewriter.notifyMatchFailure(op, "fp8 conversions have no host lowering yet");
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

// -- the entry the runtime calls ----------------------------------------------

/// `<kernel>__program(ptr args, i32 x, y, z, nx, ny, nz)`: loads argument i
/// from the address args[i] and calls the kernel.
void addProgramEntry(LLVM::LLVMFuncOp kernel) {
  OpBuilder b(kernel.getContext());
  b.setInsertionPointAfter(kernel);
  Location loc = kernel.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(kernel.getContext());
  Type i32 = b.getI32Type();
  SmallVector<Type> params{ptr};
  params.append(kGridArgs, i32);
  auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(kernel.getContext()), params);
  auto entry = LLVM::LLVMFuncOp::create(b, loc, (kernel.getName() + "__program").str(), type);
  Block *block = entry.addEntryBlock(b);
  b.setInsertionPointToStart(block);
  ArrayRef<Type> kernelParams = kernel.getFunctionType().getParams();
  unsigned userArgs = kernelParams.size() - kGridArgs;
  SmallVector<Value> args;
  for (unsigned i = 0; i < userArgs; ++i) {
    Value slot = LLVM::GEPOp::create(b, loc, ptr, ptr, block->getArgument(0),
                                     ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
    Value address = LLVM::LoadOp::create(b, loc, ptr, slot);
    args.push_back(LLVM::LoadOp::create(b, loc, kernelParams[i], address));
  }
  for (unsigned i = 0; i < kGridArgs; ++i)
    args.push_back(block->getArgument(1 + i));
  LLVM::CallOp::create(b, loc, kernel, args);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
}

/// The Triton IR ops this lowering handles.
bool hasHostLowering(Operation *op) {
  return isa<tt::FuncOp, tt::ReturnOp, tt::GetProgramIdOp, tt::GetNumProgramsOp, tt::MakeRangeOp, tt::SplatOp,
             tt::ExpandDimsOp, tt::ReshapeOp, tt::BroadcastOp, tt::TransOp, tt::AddPtrOp, tt::LoadOp, tt::StoreOp,
             tt::ReduceOp, tt::ReduceReturnOp, tt::ScanOp, tt::ScanReturnOp, tt::DotOp, tt::AtomicRMWOp,
             tt::AtomicCASOp, tt::JoinOp, tt::SplitOp, tt::CatOp, tt::GatherOp, tt::ClampOp, tt::PreciseSqrtOp, tt::PreciseDivFOp, tt::BitcastOp,
             tt::IntToPtrOp, tt::PtrToIntOp, tt::FpToFpOp, tt::MulhiUIOp>(op);
}

struct ConvertTTToHostLLVMPass
    : tritium::impl::ConvertTTToHostLLVMPassBase<ConvertTTToHostLLVMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    // An op with no lowering: an error at it (at the user's line), not a
    // failure to legalize somewhere in the module.
    WalkResult unsupported = module.walk([](Operation *op) {
      if (isa<tt::TTDialect>(op->getDialect()) && !hasHostLowering(op)) {
        op->emitError() << "'" << op->getName() << "' has no lowering for the CPU target yet";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (unsupported.wasInterrupted())
      return signalPassFailure();

    // 1. tensors to flat vectors
    HostTypeConverter types(ctx);
    ConversionTarget target(*ctx);
    target.addIllegalDialect<tt::TTDialect>();
    target.addLegalDialect<LLVM::LLVMDialect, func::FuncDialect, cf::ControlFlowDialect>();
    target.addLegalOp<UnrealizedConversionCastOp>();
    target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect>(
        [](Operation *op) { return !hasTensorType(op); });
    target.addDynamicallyLegalOp<func::FuncOp>(
        [&](func::FuncOp f) { return types.isSignatureLegal(f.getFunctionType()); });
    RewritePatternSet patterns(ctx);
    ContiguousRows rows = findContiguousRows(module);
    patterns.add<LoadConversion, StoreConversion>(types, ctx, rows);
    patterns.add<FuncOpConversion, ReturnOpConversion,
                 GridQueryConversion<tt::GetProgramIdOp, 0>, GridQueryConversion<tt::GetNumProgramsOp, 3>,
                 MakeRangeConversion, SplatConversion, SameElementsConversion<tt::ExpandDimsOp>,
                 SameElementsConversion<tt::ReshapeOp>, BroadcastConversion, TransConversion, AddPtrConversion,
                 ReduceConversion, ScanConversion, DotConversion, AtomicRMWConversion, AtomicCASConversion,
                 JoinConversion, SplitConversion, CatConversion, GatherConversion>(types, ctx);
    patterns.add<ElementwiseConversion, TritonElementwiseConversion>(types, ctx);
    scf::populateSCFStructuralTypeConversionsAndLegality(types, patterns, target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    // 2. to the LLVM dialect
    {
      ConversionTarget cfTarget(*ctx);
      cfTarget.addIllegalDialect<scf::SCFDialect>();
      cfTarget.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
      RewritePatternSet scfPatterns(ctx);
      populateSCFToControlFlowConversionPatterns(scfPatterns);
      if (failed(applyPartialConversion(module, cfTarget, std::move(scfPatterns))))
        return signalPassFailure();
    }
    LLVMTypeConverter llvmTypes(ctx);
    LLVMConversionTarget llvmTarget(*ctx);
    llvmTarget.addLegalOp<ModuleOp>();
    RewritePatternSet llvmPatterns(ctx);
    arith::populateArithToLLVMConversionPatterns(llvmTypes, llvmPatterns);
    populateMathToLLVMConversionPatterns(llvmTypes, llvmPatterns);
    populateFuncToLLVMConversionPatterns(llvmTypes, llvmPatterns);
    cf::populateControlFlowToLLVMConversionPatterns(llvmTypes, llvmPatterns);
    if (failed(applyFullConversion(module, llvmTarget, std::move(llvmPatterns))))
      return signalPassFailure();

    // 3. the entries
    SmallVector<LLVM::LLVMFuncOp> kernels;
    for (auto f : module.getOps<LLVM::LLVMFuncOp>())
      if (!f.isExternal() && f.getFunctionType().getNumParams() >= kGridArgs)
        kernels.push_back(f);
    for (LLVM::LLVMFuncOp kernel : kernels)
      addProgramEntry(kernel);
  }
};

} // namespace
