//===- FMA.cpp - tt.dot on the CUDA cores ---------------------------------===//
//
// A dot with a blocked accumulator: every thread computes the accumulator
// elements it holds, one fused multiply-add per product,
//
//   d[r] = c[r] + sum over k of a[regA(r, k)] * b[regB(r, k)]
//
// where the #ttg.dot_op layouts of A and B (layout/FmaDotLayout.h) give the
// thread the whole row of A and column of B of each of its elements, and
// fmaOperandRegister says which register holds which k.  The products are
// added in order of k, as a sequential loop would, with k the outer loop so
// that one step's operands are dead before the next step's are needed.
// ttg-accelerate-matmul has cast A and B to the accumulator's element type:
// floats use llvm.fma, integers a multiply and an add.
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"
#include "tritium/Conversion/TTGToLLVM/LayoutIndices.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Layout/FmaDotLayout.h"

using namespace mlir;
using namespace tritium;

namespace {
struct FmaDotLowering : public ConvertOpToLLVMPattern<tt::DotOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto cType = cast<RankedTensorType>(op.getType());
    if (!isa<ttg::BlockedEncodingAttr>(cType.getEncoding()))
      return rewriter.notifyMatchFailure(op, "not a CUDA-core dot");
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    Type elem = cType.getElementType();
    if (aType.getElementType() != elem || bType.getElementType() != elem)
      return op.emitError("a CUDA-core dot needs operands of the "
                          "accumulator's element type (ttg-accelerate-matmul "
                          "casts them)");
    Location loc = op.getLoc();
    layout::LinearLayout acc = getLinearLayout(cType);
    int64_t k = aType.getShape().back();
    SmallVector<Value> a = unpackElements(rewriter, loc, adaptor.getA());
    SmallVector<Value> b = unpackElements(rewriter, loc, adaptor.getB());
    SmallVector<Value> d = unpackElements(rewriter, loc, adaptor.getC());
    auto shapeOf = [](RankedTensorType type) {
      return std::vector<int64_t>(type.getShape().begin(),
                                  type.getShape().end());
    };
    if (int64_t(a.size()) !=
            layout::fmaOperandToLinear(acc, 0, shapeOf(aType)).elemsPerThread() ||
        int64_t(b.size()) !=
            layout::fmaOperandToLinear(acc, 1, shapeOf(bType)).elemsPerThread())
      return op.emitError("the operands of a CUDA-core dot must be in the "
                          "#ttg.dot_op layouts of its accumulator");
    bool isFloat = isa<FloatType>(elem);
    // k outermost: the operand values of one step of k are used by all the
    // accumulator elements and then dead, so a thread needs its accumulator
    // and one step's operands in registers at a time, not its whole slice
    // of A and B.  Each element still sums its products in order of k.
    for (int64_t kk = 0; kk < k; ++kk) {
      for (int64_t r = 0, e = d.size(); r < e; ++r) {
        Value x = a[layout::fmaOperandRegister(acc, 0, k, r, kk)];
        Value y = b[layout::fmaOperandRegister(acc, 1, k, r, kk)];
        if (isFloat)
          d[r] = LLVM::FMAOp::create(rewriter, loc, x, y, d[r]);
        else
          d[r] = LLVM::AddOp::create(
              rewriter, loc, LLVM::MulOp::create(rewriter, loc, x, y), d[r]);
      }
    }
    rewriter.replaceOp(op, packElements(rewriter, loc,
                                        adaptor.getC().getType(), d));
    return success();
  }
};
} // namespace

void tritium::populateFmaDotOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                             RewritePatternSet &patterns) {
  patterns.add<FmaDotLowering>(converter, kTritiumPatternBenefit);
}
