//===- ApproxMathOpToLLVM.cpp - fast f32 exp, sqrt and division -----------===//
//
// Scalar f32 math that Triton compiles to PTX's approximate instructions,
// compiled the same way so that kernels get Triton's speed and Triton's
// numerics (f16/bf16 compute in f32 and round back):
//   exp(x)  = ex2.approx.f32(x * log2(e))
//   exp2(x) = ex2.approx.ftz.f32(x) (as Triton: subnormal results flush to 0;
//             without ftz ptxas wraps every ex2 in a range test and two
//             multiplies)
//   x / y   = div.full.f32 (at most 2 ulp; tl.math.div_rn is exact)
//   sqrt(x) = sqrt.approx.ftz.f32 for f32 (tl.sqrt is Triton's fast square
//             root; tl.sqrt_rn the correctly rounded one); f16 and bf16
//             square roots stay LLVM's, as in Triton
// log stays with libdevice's accurate __nv_logf: an approximate lg2 moves
// tl.randn's Box-Muller results away from Triton's (measured on the H100).
// f64 math stays with libdevice (LibdeviceOpToLLVM.cpp), f64 division and
// square root with LLVM.  These patterns run above the libdevice one.
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Target/NVIDIA/PTXBuilder.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tritium;

namespace {

/// One PTX instruction on f32 registers.
Value emitF32PTX(OpBuilder &builder, Location loc, StringRef opcode,
                 ValueRange operands) {
  nvidia::PTXBuilder ptx;
  auto *out = ptx.output("=f");
  SmallVector<nvidia::PTXBuilder::Arg> args = {out};
  for (Value operand : operands)
    args.push_back(ptx.input(operand, "f"));
  ptx.instr(opcode).args(args);
  return ptx.launch(builder, loc, builder.getF32Type(),
                    /*hasSideEffects=*/false);
}

Value f32Constant(OpBuilder &builder, Location loc, double value) {
  return LLVM::ConstantOp::create(builder, loc, builder.getF32Type(),
                                  builder.getF32FloatAttr(value));
}

/// Lowers scalar `Op` on f32, f16 and bf16 by computing in f32.
template <typename Op>
struct ApproxF32Lowering : public ConvertOpToLLVMPattern<Op> {
  using ConvertOpToLLVMPattern<Op>::ConvertOpToLLVMPattern;
  using OpAdaptor = typename Op::Adaptor;

  virtual Value compute(OpBuilder &builder, Location loc,
                        ValueRange operands) const = 0;

  /// Whether f16 and bf16 also compute through the f32 instruction.
  virtual bool widensHalfTypes() const { return true; }

  LogicalResult
  matchAndRewrite(Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<FloatType>(op.getType());
    if (!type || !(type.isF32() || type.isF16() || type.isBF16()))
      return failure(); // tensors go per element first; f64 elsewhere
    if (!type.isF32() && !widensHalfTypes())
      return failure();
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    SmallVector<Value> operands;
    for (Value operand : adaptor.getOperands())
      operands.push_back(operand.getType() == f32
                             ? operand
                             : LLVM::FPExtOp::create(rewriter, loc, f32,
                                                     operand)
                                   .getResult());
    Value result = compute(rewriter, loc, operands);
    if (type != f32)
      result = LLVM::FPTruncOp::create(rewriter, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ExpLowering : public ApproxF32Lowering<math::ExpOp> {
  using ApproxF32Lowering::ApproxF32Lowering;
  Value compute(OpBuilder &builder, Location loc,
                ValueRange operands) const override {
    Value scaled = LLVM::FMulOp::create(
        builder, loc, operands[0], f32Constant(builder, loc, llvm::numbers::log2e));
    return emitF32PTX(builder, loc, "ex2.approx.f32", scaled);
  }
};

struct Exp2Lowering : public ApproxF32Lowering<math::Exp2Op> {
  using ApproxF32Lowering::ApproxF32Lowering;
  Value compute(OpBuilder &builder, Location loc,
                ValueRange operands) const override {
    return emitF32PTX(builder, loc, "ex2.approx.ftz.f32", operands);
  }
};

struct SqrtLowering : public ApproxF32Lowering<math::SqrtOp> {
  using ApproxF32Lowering::ApproxF32Lowering;
  bool widensHalfTypes() const override { return false; }
  Value compute(OpBuilder &builder, Location loc,
                ValueRange operands) const override {
    return emitF32PTX(builder, loc, "sqrt.approx.ftz.f32", operands);
  }
};

struct DivFLowering : public ApproxF32Lowering<arith::DivFOp> {
  using ApproxF32Lowering::ApproxF32Lowering;
  Value compute(OpBuilder &builder, Location loc,
                ValueRange operands) const override {
    return emitF32PTX(builder, loc, "div.full.f32", operands);
  }
};

} // namespace

void tritium::populateApproxMathOpToLLVMPatterns(
    TTGToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ExpLowering, Exp2Lowering, SqrtLowering, DivFLowering>(converter, kTritiumPatternBenefit + 1);
}
