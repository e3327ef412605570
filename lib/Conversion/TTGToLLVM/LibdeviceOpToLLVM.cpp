//===- LibdeviceOpToLLVM.cpp - math functions as libdevice calls ----------===//
//
// The NVPTX backend has instructions for sqrt, fabs, floor, ceil, fma,
// min/max and friends (the upstream math-to-LLVM patterns handle those),
// but not for transcendental functions: llvm.exp.f32 and the like do not
// select.  Scalar math ops of that kind become calls to libdevice's
// `__nv_*` functions (float and double versions), declared external here;
// the NVIDIA back end links libdevice's bitcode into the module after
// translation.  f16 and bf16 go through the float version.  f32 exp and
// exp2 never get here: ApproxMathOpToLLVM.cpp takes them first.
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tritium/Conversion/TTGToLLVM/ModuleSymbols.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace tritium;

namespace {

/// libdevice's float and double names of a math function.
struct LibdeviceNames {
  StringRef f32;
  StringRef f64;
};

const llvm::StringMap<LibdeviceNames> &getLibdeviceTable() {
  static const llvm::StringMap<LibdeviceNames> table = {
      {"math.exp", {"__nv_expf", "__nv_exp"}},
      {"math.exp2", {"__nv_exp2f", "__nv_exp2"}},
      {"math.expm1", {"__nv_expm1f", "__nv_expm1"}},
      {"math.log", {"__nv_logf", "__nv_log"}},
      {"math.log2", {"__nv_log2f", "__nv_log2"}},
      {"math.log10", {"__nv_log10f", "__nv_log10"}},
      {"math.log1p", {"__nv_log1pf", "__nv_log1p"}},
      {"math.sin", {"__nv_sinf", "__nv_sin"}},
      {"math.cos", {"__nv_cosf", "__nv_cos"}},
      {"math.tan", {"__nv_tanf", "__nv_tan"}},
      {"math.asin", {"__nv_asinf", "__nv_asin"}},
      {"math.acos", {"__nv_acosf", "__nv_acos"}},
      {"math.atan", {"__nv_atanf", "__nv_atan"}},
      {"math.atan2", {"__nv_atan2f", "__nv_atan2"}},
      {"math.sinh", {"__nv_sinhf", "__nv_sinh"}},
      {"math.cosh", {"__nv_coshf", "__nv_cosh"}},
      {"math.tanh", {"__nv_tanhf", "__nv_tanh"}},
      {"math.asinh", {"__nv_asinhf", "__nv_asinh"}},
      {"math.acosh", {"__nv_acoshf", "__nv_acosh"}},
      {"math.atanh", {"__nv_atanhf", "__nv_atanh"}},
      {"math.erf", {"__nv_erff", "__nv_erf"}},
      {"math.erfc", {"__nv_erfcf", "__nv_erfc"}},
      {"math.rsqrt", {"__nv_rsqrtf", "__nv_rsqrt"}},
      {"math.cbrt", {"__nv_cbrtf", "__nv_cbrt"}},
      {"math.powf", {"__nv_powf", "__nv_pow"}},
  };
  return table;
}

struct LibdeviceCallLowering : public ConversionPattern {
  LibdeviceCallLowering(TTGToLLVMTypeConverter &converter,
                        PatternBenefit benefit)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), benefit,
                          &converter.getContext()) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    const auto &table = getLibdeviceTable();
    auto it = table.find(op->getName().getStringRef());
    if (it == table.end() || op->getNumResults() != 1)
      return failure();
    auto type = dyn_cast<FloatType>(op->getResult(0).getType());
    if (!type ||
        !llvm::all_of(operands, [&](Value v) { return v.getType() == type; }))
      return failure(); // tensors go per element first
    Location loc = op->getLoc();

    // f16 and bf16 compute in f32.
    bool isDouble = type.isF64();
    Type callType = isDouble ? Type(type) : Type(rewriter.getF32Type());
    SmallVector<Value> args;
    for (Value operand : operands)
      args.push_back(
          operand.getType() == callType
              ? operand
              : LLVM::FPExtOp::create(rewriter, loc, callType, operand)
                    .getResult());
    StringRef name = isDouble ? it->second.f64 : it->second.f32;
    SmallVector<Type> argTypes(args.size(), callType);
    auto callee =
        getOrInsertFunction(rewriter, op->getParentOfType<ModuleOp>(), name,
                            LLVM::LLVMFunctionType::get(callType, argTypes));
    if (!callee)
      return op->emitError("symbol '") << name << "' has an unexpected type";
    Value result =
        LLVM::CallOp::create(rewriter, loc, callee, args).getResult();
    if (callType != type)
      result = LLVM::FPTruncOp::create(rewriter, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void tritium::populateLibdeviceOpToLLVMPatterns(
    TTGToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<LibdeviceCallLowering>(converter, kTritiumPatternBenefit);
}
