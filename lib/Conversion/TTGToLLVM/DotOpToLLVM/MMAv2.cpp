//===- MMAv2.cpp - tt.dot as mma.sync -------------------------------------===//
//
// A dot whose accumulator is #ttg.nvidia_mma version 2 and whose operands
// are #ttg.dot_op of it.  Each warp computes, per repetition (mRep, nRep)
// of the warp grid's tile (and, for batched rank-3 dots, per batch
// repetition bRep), a 16 x 8 accumulator tile, walking K in steps of one
// instruction:
//
//   for bRep, mRep, nRep:  d = c[bRep, mRep, nRep]
//     for kRep:      d = mma.sync(a[mRep, kRep], b[nRep, kRep], d)
//
// The layouts put every fragment in the registers the PTX ISA names
// (layout/MmaLayout.h: mmaV2*Register), so an operand fragment is its
// elements packed into 32-bit registers, kWidth per register:
//
//   fp16 / bf16   m16n8k16  A 4 x b32, B 2 x b32, C/D 4 x f32 (or 2 x f16x2)
//   tf32          m16n8k8   A 4 x b32, B 2 x b32, C/D 4 x f32
//   int8          m16n8k32  A 4 x b32, B 2 x b32, C/D 4 x s32
//   fp8           m16n8k32  A 4 x b32, B 2 x b32, C/D 4 x f32
//
// tf32x3 splits each fp32 operand into a tf32 "big" part (cvt.rna.tf32)
// and the tf32 rounding of the remainder, and adds the three products that
// matter: small*big and big*small first, then big*big.  bf16x3 and bf16x6
// split it into two or three bf16 parts (the operands' layouts then hold
// two per register, kWidth 2) and add 3 or 6 products of m16n8k16 bf16,
// smallest first.  int8 uses the saturating (.satfinite) form.
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"
#include "tritium/Conversion/TTGToLLVM/NVVMHelpers.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Layout/MmaLayout.h"
#include "tritium/Target/NVIDIA/PTXBuilder.h"

using namespace mlir;
using namespace tritium;

namespace {

/// cvt.rna.tf32.f32 of an f32 value, as the bits of an f32.
Value roundToTf32(OpBuilder &builder, Location loc, Value value) {
  nvidia::PTXBuilder ptx;
  auto *out = ptx.output("=r");
  ptx.instr("cvt.rna.tf32.f32").args({out, ptx.input(value, "f")});
  Value bits = ptx.launch(builder, loc, builder.getI32Type(),
                          /*hasSideEffects=*/false);
  return LLVM::BitcastOp::create(builder, loc, builder.getF32Type(), bits);
}

/// Part `index` of the bf16 split of an f32 value: part 0 is its bf16
/// rounding, part i the rounding of what parts 0..i-1 leave.
Value bf16Part(OpBuilder &builder, Location loc, Value value, int index) {
  Type bf16 = builder.getBF16Type(), f32 = builder.getF32Type();
  Value rest = value;
  for (int i = 0; i < index; ++i) {
    Value part = LLVM::FPTruncOp::create(builder, loc, bf16, rest);
    rest = LLVM::FSubOp::create(builder, loc, rest,
                                LLVM::FPExtOp::create(builder, loc, f32, part));
  }
  return LLVM::FPTruncOp::create(builder, loc, bf16, rest);
}

struct MmaV2DotLowering : public ConvertOpToLLVMPattern<tt::DotOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto cType = cast<RankedTensorType>(op.getType());
    auto mma = dyn_cast<ttg::NvidiaMmaEncodingAttr>(cType.getEncoding());
    if (!mma || !mma.isAmpere())
      return rewriter.notifyMatchFailure(op, "not an mma v2 dot");
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    auto aLayout = dyn_cast<ttg::DotOperandEncodingAttr>(aType.getEncoding());
    auto bLayout = dyn_cast<ttg::DotOperandEncodingAttr>(bType.getEncoding());
    if (!aLayout || !bLayout || aLayout.getParent() != mma ||
        bLayout.getParent() != mma ||
        aLayout.getKWidth() != bLayout.getKWidth())
      return op.emitError("the operands of an mma dot must be #ttg.dot_op "
                          "layouts of its accumulator with one kWidth");
    Type ea = aType.getElementType(), eb = bType.getElementType();
    Type ec = cType.getElementType();
    int64_t kWidth = aLayout.getKWidth();
    std::string ta = nvvm::ptxMmaTypeName(ea), tb = nvvm::ptxMmaTypeName(eb),
                tc = nvvm::ptxMmaTypeName(ec);
    // Like Triton, input precisions other than ieee only matter for fp32.
    tt::InputPrecision precision = op.getInputPrecision();
    bool tf32x3 = ea.isF32() && precision == tt::InputPrecision::TF32x3;
    // bf16x3 / bf16x6: fp32 operands split into bf16 parts (kWidth 2).
    int bf16Parts = !ea.isF32() ? 0
                    : precision == tt::InputPrecision::BF16x3 ? 2
                    : precision == tt::InputPrecision::BF16x6 ? 3
                                                              : 0;
    int64_t operandBits = bf16Parts ? 16 : ea.getIntOrFloatBitWidth();
    if (ta.empty() || tb.empty() || tc.empty() || 32 / operandBits != kWidth)
      return op.emitError() << "no mma.sync instruction multiplies " << ea
                            << " by " << eb << " into " << ec
                            << " with kWidth " << kWidth;
    if (ea.isF32())
      ta = tb = bf16Parts ? "bf16" : "tf32";
    int64_t instrK = 8 * kWidth;
    bool halfAccumulator = ec.isF16();
    // int8 saturates on overflow, as Triton's instruction does.
    std::string opcode = "mma.sync.aligned.m16n8k" + std::to_string(instrK) +
                         ".row.col." + (ec.isInteger(32) ? "satfinite." : "") +
                         tc + "." + ta + "." + tb + "." + tc;

    Location loc = op.getLoc();
    SmallVector<Value> a = unpackElements(rewriter, loc, adaptor.getA());
    SmallVector<Value> b = unpackElements(rewriter, loc, adaptor.getB());
    SmallVector<Value> d = unpackElements(rewriter, loc, adaptor.getC());
    auto toVector = [](ArrayRef<int64_t> shape) {
      return std::vector<int64_t>(shape.begin(), shape.end());
    };
    layout::MmaSpec spec = mma.toSpec();
    layout::MmaV2Repetitions reps = layout::mmaV2Repetitions(
        spec, toVector(cType.getShape()), aType.getShape().back(), kWidth);
    if (int64_t(d.size()) != 4 * reps.b * reps.m * reps.n ||
        int64_t(a.size()) != 4 * kWidth * reps.b * reps.m * reps.k ||
        int64_t(b.size()) != 2 * kWidth * reps.b * reps.n * reps.k)
      return op.emitError("mma dot registers do not match its layouts");

    // Operand fragments as 32-bit registers, per repetition.
    int64_t batch = 0; // the batch repetition being lowered (rank-3 dots)
    auto fragment = [&](ArrayRef<Value> elements, int opIdx, int64_t rep,
                        int64_t kRep, function_ref<Value(Value)> map) {
      int64_t count = (opIdx == 0 ? 4 : 2);
      SmallVector<Value> regs;
      for (int64_t r = 0; r < count; ++r) {
        SmallVector<Value> group;
        for (int64_t j = 0; j < kWidth; ++j)
          group.push_back(map(elements[layout::mmaV2OperandRegister(
              reps, opIdx, kWidth, rep, kRep, r * kWidth + j, batch)]));
        regs.push_back(packToI32(rewriter, loc, group));
      }
      return regs;
    };
    auto identity = [](Value v) { return v; };
    auto big = [&](Value v) { return roundToTf32(rewriter, loc, v); };
    auto small = [&](Value v) {
      Value rest = LLVM::FSubOp::create(rewriter, loc, v,
                                        roundToTf32(rewriter, loc, v));
      return roundToTf32(rewriter, loc, rest);
    };

    Type accRegType = halfAccumulator ? rewriter.getI32Type()
                      : ec.isInteger(32) ? ec
                                         : rewriter.getF32Type();
    StringRef accConstraint = ec.isF32() ? "f" : "r";
    int accRegs = halfAccumulator ? 2 : 4;
    auto emitMma = [&](ArrayRef<Value> aRegs, ArrayRef<Value> bRegs,
                       ArrayRef<Value> cRegs) {
      nvidia::PTXBuilder ptx;
      auto outs = ptx.outputs(accRegs, ("=" + accConstraint).str());
      SmallVector<nvidia::PTXBuilder::Operand *> aIn, bIn, cIn;
      for (Value v : aRegs)
        aIn.push_back(ptx.input(v, "r"));
      for (Value v : bRegs)
        bIn.push_back(ptx.input(v, "r"));
      for (Value v : cRegs)
        cIn.push_back(ptx.input(v, accConstraint));
      ptx.instr(opcode).args({nvidia::PTXBuilder::list(outs),
                              nvidia::PTXBuilder::list(aIn),
                              nvidia::PTXBuilder::list(bIn),
                              nvidia::PTXBuilder::list(cIn)});
      SmallVector<Type> types(accRegs, accRegType);
      Value result = ptx.launch(
          rewriter, loc,
          LLVM::LLVMStructType::getLiteral(getContext(), types),
          /*hasSideEffects=*/false);
      SmallVector<Value> regs;
      for (int i = 0; i < accRegs; ++i)
        regs.push_back(LLVM::ExtractValueOp::create(rewriter, loc, result, i));
      return regs;
    };

    for (batch = 0; batch < reps.b; ++batch)
    for (int64_t m = 0; m < reps.m; ++m) {
      for (int64_t n = 0; n < reps.n; ++n) {
        int64_t reg[4];
        for (int i = 0; i < 4; ++i)
          reg[i] = layout::mmaV2AccumulatorRegister(reps, m, n, i, batch);
        SmallVector<Value> acc;
        if (halfAccumulator) {
          acc.push_back(packToI32(rewriter, loc, {d[reg[0]], d[reg[1]]}));
          acc.push_back(packToI32(rewriter, loc, {d[reg[2]], d[reg[3]]}));
        } else {
          for (int i = 0; i < 4; ++i)
            acc.push_back(d[reg[i]]);
        }
        for (int64_t k = 0; k < reps.k; ++k) {
          if (bf16Parts) {
            // Products of the parts, smallest first: bf16x3 adds a1b0, a0b1,
            // a0b0; bf16x6 also a2b0, a0b2 and a1b1.
            static const std::pair<int, int> order3[] = {{1, 0}, {0, 1}, {0, 0}};
            static const std::pair<int, int> order6[] = {
                {2, 0}, {0, 2}, {1, 1}, {1, 0}, {0, 1}, {0, 0}};
            ArrayRef<std::pair<int, int>> products =
                bf16Parts == 2 ? ArrayRef(order3) : ArrayRef(order6);
            for (const std::pair<int, int> &product : products) {
              int pa = product.first, pb = product.second;
              auto partA = [&](Value v) { return bf16Part(rewriter, loc, v, pa); };
              auto partB = [&](Value v) { return bf16Part(rewriter, loc, v, pb); };
              acc = emitMma(fragment(a, 0, m, k, partA),
                            fragment(b, 1, n, k, partB), acc);
            }
          } else if (tf32x3) {
            auto aBig = fragment(a, 0, m, k, big), bBig = fragment(b, 1, n, k, big);
            auto aSmall = fragment(a, 0, m, k, small);
            auto bSmall = fragment(b, 1, n, k, small);
            acc = emitMma(aSmall, bBig, acc);
            acc = emitMma(aBig, bSmall, acc);
            acc = emitMma(aBig, bBig, acc);
          } else {
            acc = emitMma(fragment(a, 0, m, k, identity),
                          fragment(b, 1, n, k, identity), acc);
          }
        }
        if (halfAccumulator) {
          for (int half = 0; half < 2; ++half) {
            SmallVector<Value> pair =
                unpackFromI32(rewriter, loc, acc[half], rewriter.getF16Type(), 2);
            d[reg[2 * half]] = pair[0];
            d[reg[2 * half + 1]] = pair[1];
          }
        } else {
          for (int i = 0; i < 4; ++i)
            d[reg[i]] = acc[i];
        }
      }
    }
    rewriter.replaceOp(op, packElements(rewriter, loc,
                                        adaptor.getC().getType(), d));
    return success();
  }
};
} // namespace

void tritium::populateMmaV2DotOpToLLVMPatterns(
    TTGToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MmaV2DotLowering>(converter, kTritiumPatternBenefit);
}
