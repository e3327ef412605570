//===- ElementwiseOpToLLVM.cpp - element-wise ops to LLVM -----------------===//
//
// An element-wise op on tensors is the same op on each register: unpack the
// operand structs, compute each result element, pack.  A scalar operand of
// an op on tensors (the condition of arith.select) serves every element.
//
// * arith and math ops (any of them) are re-created on scalars here and
//   lowered by the upstream arith/math-to-LLVM patterns in the same
//   conversion (LibdeviceOpToLLVM.cpp takes the math functions NVPTX cannot
//   expand); where axis info proves registers of a thread equal
//   (LoweringAxisInfo::getEqualRegisterMask), each value is computed once;
// * tt.addptr is one GEP per element, over the pointee's memory type;
// * tt.bitcast / int_to_ptr / ptr_to_int are llvm casts;
// * tt.clamp is max-then-min (NaN-propagating forms when propagateNan=all);
// * tt.precise_sqrt / precise_divf are single PTX instructions (sqrt.rn,
//   div.rn), which LLVM would otherwise be free to relax; tt.mulhiui is the
//   high half of the double-width product (NVPTX selects mul.hi);
// * tt.extern_elementwise calls its symbol, declared external here (the
//   library, e.g. libdevice, is linked after translation to LLVM IR);
// * tt.elementwise_inline_asm runs the user's asm once per group of
//   `packed_element` elements; within a group, elements narrower than 32
//   bits share 32-bit registers as small vectors.
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"
#include "tritium/Conversion/TTGToLLVM/LoweringAxisInfo.h"
#include "tritium/Conversion/TTGToLLVM/ModuleSymbols.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Target/NVIDIA/PTXBuilder.h"

using namespace mlir;
using namespace tritium;

namespace {

/// Computes one result element from the elements of the operands.
using ElementFn =
    llvm::function_ref<Value(ValueRange operands, Type resultElementType)>;

/// Lowers single-result `op` element by element.  `operands` are the
/// converted operands; the result element type passed to `compute` is the
/// converted one.
/// Register i is known to hold the same result as register
/// i & ~`equalMask`: only those registers are computed.
LogicalResult lowerPerElement(Operation *op, ValueRange operands,
                              ConversionPatternRewriter &rewriter,
                              const TypeConverter &converter,
                              ElementFn compute, uint64_t equalMask = 0) {
  Location loc = op->getLoc();
  Type resultType = converter.convertType(op->getResult(0).getType());
  if (!resultType)
    return failure();
  auto structType = dyn_cast<LLVM::LLVMStructType>(resultType);
  int64_t count = structType ? structType.getBody().size() : 1;
  Type elementType = structType ? structType.getBody().front() : resultType;
  SmallVector<bool> isTensor;
  for (Value operand : op->getOperands())
    isTensor.push_back(isa<RankedTensorType>(operand.getType()));
  auto columns = unpackOperands(rewriter, loc, operands, isTensor, count);
  SmallVector<Value> results;
  for (int64_t i = 0; i < count; ++i) {
    if (uint64_t(i) & equalMask) {
      results.push_back(results[uint64_t(i) & ~equalMask]);
      continue;
    }
    SmallVector<Value> elementOperands;
    for (auto &column : columns)
      elementOperands.push_back(column[i]);
    Value result = compute(elementOperands, elementType);
    if (!result)
      return failure();
    results.push_back(result);
  }
  rewriter.replaceOp(op, packElements(rewriter, loc, resultType, results));
  return success();
}

/// Any arith or math op whose result is a tensor: the same op per element.
struct TensorArithLowering : public ConversionPattern {
  TensorArithLowering(TTGToLLVMTypeConverter &converter,
                      const LoweringAxisInfo &access,
                      PatternBenefit benefit)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), benefit,
                          &converter.getContext()),
        access(access) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        isa<arith::ConstantOp>(op) || op->getNumResults() != 1 ||
        op->getNumRegions() != 0)
      return failure();
    auto tensorType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!tensorType || !ttg::getDistributedEncoding(tensorType))
      return failure();
    Type scalarType = tensorType.getElementType();
    // A pointer element (arith.select between tensors of pointers) takes its
    // converted type, as its operands have; other elements keep their arith
    // type, which the upstream arith patterns convert afterwards.
    bool pointerElements = isa<tt::PointerType>(scalarType);
    return lowerPerElement(op, operands, rewriter, *getTypeConverter(),
                           [&](ValueRange elements, Type resultType) -> Value {
                             OperationState state(op->getLoc(), op->getName());
                             state.addOperands(elements);
                             state.addTypes(pointerElements ? resultType
                                                            : scalarType);
                             state.addAttributes(op->getAttrs());
                             return rewriter.create(state)->getResult(0);
                           },
                           access.getEqualRegisterMask(op));
  }

private:
  const LoweringAxisInfo &access;
};

/// Pattern base for tt ops lowered element by element by `compute`.
template <typename OpTy>
struct PerElementLowering : public ConvertOpToLLVMPattern<OpTy> {
  using ConvertOpToLLVMPattern<OpTy>::ConvertOpToLLVMPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  virtual Value compute(OpTy op, ValueRange elements, Type resultType,
                        ConversionPatternRewriter &rewriter) const = 0;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return lowerPerElement(op, adaptor.getOperands(), rewriter,
                           *this->getTypeConverter(),
                           [&](ValueRange elements, Type resultType) {
                             return compute(op, elements, resultType, rewriter);
                           });
  }
};

struct AddPtrLowering : public PerElementLowering<tt::AddPtrOp> {
  using PerElementLowering::PerElementLowering;
  Value compute(tt::AddPtrOp op, ValueRange elements, Type resultType,
                ConversionPatternRewriter &rewriter) const override {
    auto pointer = cast<tt::PointerType>(getElementTypeOrSelf(op.getType()));
    Type pointee = TTGToLLVMTypeConverter::of(this->getTypeConverter())
                       .convertMemoryElementType(pointer.getPointeeType());
    return LLVM::GEPOp::create(rewriter, op.getLoc(), resultType, pointee,
                               elements[0], ValueRange{elements[1]});
  }
};

/// A cast between the converted element types: pointer <-> integer, or a
/// bitcast between types of one width.
Value castElement(OpBuilder &builder, Location loc, Value value, Type type) {
  Type from = value.getType();
  if (from == type)
    return value;
  if (isa<LLVM::LLVMPointerType>(from) && isa<IntegerType>(type))
    return LLVM::PtrToIntOp::create(builder, loc, type, value);
  if (isa<IntegerType>(from) && isa<LLVM::LLVMPointerType>(type))
    return LLVM::IntToPtrOp::create(builder, loc, type, value);
  if (isa<LLVM::LLVMPointerType>(from) && isa<LLVM::LLVMPointerType>(type))
    return LLVM::AddrSpaceCastOp::create(builder, loc, type, value);
  return LLVM::BitcastOp::create(builder, loc, type, value);
}

template <typename OpTy> struct CastLowering : public PerElementLowering<OpTy> {
  using PerElementLowering<OpTy>::PerElementLowering;
  Value compute(OpTy op, ValueRange elements, Type resultType,
                ConversionPatternRewriter &rewriter) const override {
    return castElement(rewriter, op.getLoc(), elements[0], resultType);
  }
};

Value emitSimplePTX(OpBuilder &builder, Location loc, StringRef opcode,
                    ValueRange operands, Type type);

/// The limit c of tt.clamp(x, -c, c) with c a positive constant (a splat or
/// scalar), as Triton recognises it; 0 when the bounds are not of that form.
double symmetricClampLimit(tt::ClampOp op) {
  auto constantOf = [](Value value) -> std::optional<double> {
    Attribute attr;
    if (!matchPattern(value, m_Constant(&attr)))
      return std::nullopt;
    if (auto splat = dyn_cast<SplatElementsAttr>(attr))
      attr = splat.getSplatValue<Attribute>();
    if (auto number = dyn_cast<FloatAttr>(attr))
      return number.getValueAsDouble();
    return std::nullopt;
  };
  std::optional<double> lo = constantOf(op.getMin());
  std::optional<double> hi = constantOf(op.getMax());
  return lo && hi && *hi > 0 && *lo == -*hi ? *hi : 0;
}

struct ClampLowering : public PerElementLowering<tt::ClampOp> {
  using PerElementLowering::PerElementLowering;
  Value compute(tt::ClampOp op, ValueRange elements, Type resultType,
                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = elements[0], lo = elements[1], hi = elements[2];
    // clamp(x, -c, c) of f32 on sm_90: one `min.xorsign.abs` (|x| capped
    // at c, with x's sign), Triton's lowering (`.NaN` when NaNs propagate).
    auto module = op->getParentOfType<ModuleOp>();
    if (resultType.isF32() && module && ttg::getComputeCapability(module) >= 90 &&
        symmetricClampLimit(op) > 0) {
      bool nan = op.getPropagateNan() == tt::PropagateNan::ALL;
      return emitSimplePTX(rewriter, loc,
                           nan ? "min.NaN.xorsign.abs.f32"
                               : "min.xorsign.abs.f32",
                           ValueRange{x, hi}, resultType);
    }
    if (op.getPropagateNan() == tt::PropagateNan::ALL) {
      Value low = arith::MaximumFOp::create(rewriter, loc, x, lo);
      return arith::MinimumFOp::create(rewriter, loc, low, hi);
    }
    Value low = arith::MaxNumFOp::create(rewriter, loc, x, lo);
    return arith::MinNumFOp::create(rewriter, loc, low, hi);
  }
};

/// The inline-asm register constraint of a scalar of `type`.
StringRef constraintFor(Type type) {
  if (type.isF32())
    return "f";
  if (type.isF64())
    return "d";
  switch (type.getIntOrFloatBitWidth()) {
  case 1:
    return "b";
  case 8:
    return "c";
  case 16:
    return "h";
  case 64:
    return "l";
  default:
    return "r";
  }
}

/// One PTX instruction `opcode $0, $1[, $2]` on scalars of `type`.
Value emitSimplePTX(OpBuilder &builder, Location loc, StringRef opcode,
                    ValueRange operands, Type type) {
  nvidia::PTXBuilder ptx;
  SmallVector<nvidia::PTXBuilder::Arg> args = {
      ptx.output(("=" + constraintFor(type)).str())};
  for (Value operand : operands)
    args.push_back(ptx.input(operand, constraintFor(type)));
  ptx.instr(opcode).args(args);
  return ptx.launch(builder, loc, type, /*hasSideEffects=*/false);
}

struct PreciseSqrtLowering : public PerElementLowering<tt::PreciseSqrtOp> {
  using PerElementLowering::PerElementLowering;
  Value compute(tt::PreciseSqrtOp op, ValueRange elements, Type resultType,
                ConversionPatternRewriter &rewriter) const override {
    if (!resultType.isF32() && !resultType.isF64()) {
      op.emitError("precise_sqrt supports f32 and f64 only");
      return {};
    }
    return emitSimplePTX(rewriter, op.getLoc(),
                         resultType.isF32() ? "sqrt.rn.f32" : "sqrt.rn.f64",
                         elements, resultType);
  }
};

struct PreciseDivLowering : public PerElementLowering<tt::PreciseDivFOp> {
  using PerElementLowering::PerElementLowering;
  Value compute(tt::PreciseDivFOp op, ValueRange elements, Type resultType,
                ConversionPatternRewriter &rewriter) const override {
    if (!resultType.isF32() && !resultType.isF64()) {
      op.emitError("precise_divf supports f32 and f64 only");
      return {};
    }
    return emitSimplePTX(rewriter, op.getLoc(),
                         resultType.isF32() ? "div.rn.f32" : "div.rn.f64",
                         elements, resultType);
  }
};

struct MulhiUILowering : public PerElementLowering<tt::MulhiUIOp> {
  using PerElementLowering::PerElementLowering;
  Value compute(tt::MulhiUIOp op, ValueRange elements, Type resultType,
                ConversionPatternRewriter &rewriter) const override {
    // The high half of the double-width product: exact, so LLVM may fold and
    // schedule it freely, and NVPTX selects mul.hi for the pattern.
    Location loc = op.getLoc();
    unsigned width = resultType.getIntOrFloatBitWidth();
    Type wide = rewriter.getIntegerType(2 * width);
    Value lhs = LLVM::ZExtOp::create(rewriter, loc, wide, elements[0]);
    Value rhs = LLVM::ZExtOp::create(rewriter, loc, wide, elements[1]);
    Value product = LLVM::MulOp::create(rewriter, loc, lhs, rhs);
    Value shift = LLVM::ConstantOp::create(
        rewriter, loc, wide, rewriter.getIntegerAttr(wide, width));
    Value high = LLVM::LShrOp::create(rewriter, loc, product, shift);
    return LLVM::TruncOp::create(rewriter, loc, resultType, high);
  }
};

struct ExternElementwiseLowering
    : public PerElementLowering<tt::ExternElementwiseOp> {
  using PerElementLowering::PerElementLowering;
  Value compute(tt::ExternElementwiseOp op, ValueRange elements,
                Type resultType,
                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> argTypes(elements.getTypes());
    auto type = LLVM::LLVMFunctionType::get(resultType, argTypes);
    auto callee = getOrInsertFunction(rewriter, op->getParentOfType<ModuleOp>(),
                                      op.getSymbol(), type);
    if (!callee) {
      op.emitError("symbol '")
          << op.getSymbol() << "' is already defined with another type";
      return {};
    }
    return LLVM::CallOp::create(rewriter, op.getLoc(), callee, elements)
        .getResult();
  }
};

/// How a group of `packed` elements of `type` is passed to inline asm:
/// `registers` values of `elementsPerRegister` elements each (a vector when
/// more than one).
struct AsmPacking {
  int64_t elementsPerRegister;
  int64_t registers;
  Type registerType;
};

AsmPacking getAsmPacking(Type type, int64_t packed) {
  int64_t bits = type.isIntOrFloat() ? type.getIntOrFloatBitWidth() : 64;
  int64_t perRegister = bits >= 32 ? 1 : std::min<int64_t>(packed, 32 / bits);
  Type registerType =
      perRegister == 1 ? type : VectorType::get({perRegister}, type);
  return {perRegister, packed / perRegister, registerType};
}

struct ElementwiseInlineAsmLowering
    : public ConvertOpToLLVMPattern<tt::ElementwiseInlineAsmOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::ElementwiseInlineAsmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TypeConverter &converter = *getTypeConverter();
    int64_t packed = op.getPackedElement();
    SmallVector<Type> resultTypes;
    for (Type type : op.getResultTypes())
      resultTypes.push_back(converter.convertType(type));
    Type first = resultTypes.front();
    auto firstStruct = dyn_cast<LLVM::LLVMStructType>(first);
    int64_t count = firstStruct ? firstStruct.getBody().size() : 1;
    if (count % packed != 0)
      return op.emitError("each thread holds ")
             << count
             << " elements, not a multiple of packed_element = " << packed;

    auto elementTypeOf = [](Type type) {
      auto structType = dyn_cast<LLVM::LLVMStructType>(type);
      return structType ? structType.getBody().front() : type;
    };
    SmallVector<bool> isTensor;
    for (Value arg : op.getArgs())
      isTensor.push_back(isa<RankedTensorType>(arg.getType()));
    auto columns =
        unpackOperands(rewriter, loc, adaptor.getArgs(), isTensor, count);

    // The asm's own result: every register of every result, in order.
    SmallVector<AsmPacking> resultPacking;
    SmallVector<Type> asmResultTypes;
    for (Type type : resultTypes) {
      resultPacking.push_back(getAsmPacking(elementTypeOf(type), packed));
      asmResultTypes.append(resultPacking.back().registers,
                            resultPacking.back().registerType);
    }
    Type asmType =
        asmResultTypes.size() == 1
            ? asmResultTypes.front()
            : LLVM::LLVMStructType::getLiteral(getContext(), asmResultTypes);

    SmallVector<SmallVector<Value>> results(resultTypes.size());
    for (int64_t group = 0; group < count; group += packed) {
      SmallVector<Value> asmOperands;
      for (auto [column, value] : llvm::zip(columns, adaptor.getArgs())) {
        AsmPacking packing =
            getAsmPacking(elementTypeOf(value.getType()), packed);
        for (int64_t r = 0; r < packing.registers; ++r) {
          int64_t base = group + r * packing.elementsPerRegister;
          if (packing.elementsPerRegister == 1) {
            asmOperands.push_back(column[base]);
            continue;
          }
          Value reg =
              LLVM::UndefOp::create(rewriter, loc, packing.registerType);
          for (int64_t i = 0; i < packing.elementsPerRegister; ++i)
            reg = LLVM::InsertElementOp::create(
                rewriter, loc, reg, column[base + i],
                LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                         rewriter.getI32IntegerAttr(i)));
          asmOperands.push_back(reg);
        }
      }
      auto asmOp = LLVM::InlineAsmOp::create(
          rewriter, loc, asmType, asmOperands, op.getAsmString(),
          op.getConstraints(), /*has_side_effects=*/!op.getPure(),
          /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
          LLVM::AsmDialectAttr::get(getContext(), LLVM::AsmDialect::AD_ATT),
          ArrayAttr());
      int64_t field = 0;
      for (auto [index, packing] : llvm::enumerate(resultPacking)) {
        for (int64_t r = 0; r < packing.registers; ++r, ++field) {
          Value reg = asmResultTypes.size() == 1
                          ? asmOp.getResult(0)
                          : LLVM::ExtractValueOp::create(
                                rewriter, loc, asmOp.getResult(0), field)
                                .getResult();
          if (packing.elementsPerRegister == 1) {
            results[index].push_back(reg);
            continue;
          }
          for (int64_t i = 0; i < packing.elementsPerRegister; ++i)
            results[index].push_back(LLVM::ExtractElementOp::create(
                rewriter, loc, reg,
                LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                         rewriter.getI32IntegerAttr(i))));
        }
      }
    }
    SmallVector<Value> replacements;
    for (auto [type, elements] : llvm::zip(resultTypes, results))
      replacements.push_back(packElements(rewriter, loc, type, elements));
    rewriter.replaceOp(op, replacements);
    return success();
  }
};

} // namespace

void tritium::populateElementwiseOpToLLVMPatterns(
    TTGToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringAxisInfo &access) {
  patterns.add<TensorArithLowering>(converter, access, kTritiumPatternBenefit);
  patterns.add<AddPtrLowering, CastLowering<tt::BitcastOp>,
               CastLowering<tt::IntToPtrOp>, CastLowering<tt::PtrToIntOp>,
               ClampLowering, PreciseSqrtLowering, PreciseDivLowering,
               MulhiUILowering, ExternElementwiseLowering,
               ElementwiseInlineAsmLowering>(converter, kTritiumPatternBenefit);
}
