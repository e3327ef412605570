//===- ConvertTTGToLLVM.cpp - convert-ttg-to-llvm -------------------------===//
//
// Algorithm overview:
//   0. Arithmetic on fp8 values is refused at its op's location (the user's
//      line): fp8 has no arithmetic instructions, and Triton computes
//      fp8 (op) fp8 of one type in that type, which no lowering takes
//      (Triton's fails inside LLVM's verifier).  Dead arithmetic was
//      removed by then, as in Triton, so only arithmetic whose result is
//      used is refused.
//   1. Before anything is rewritten, analyse the pointers and masks of every
//      global load and store (LoweringAxisInfo): how many consecutive
//      elements one vector access may cover.
//   2. Run one partial dialect conversion with
//        - Tritium's type converter (tensor -> struct of a thread's
//          elements, !tt.ptr -> !llvm.ptr, memdesc -> shared pointer),
//        - Tritium's patterns, one family per file, at a benefit above the
//          upstream ones,
//        - the upstream arith and math to LLVM patterns, which lower the
//          scalar ops written by the element-wise patterns (and the kernel's
//          own scalar arithmetic) in the same conversion,
//        - the structural scf patterns, which only convert the types of
//          scf.for/if/while and their yields.
//      tt, ttg, arith and math are illegal; llvm and nvvm are legal; scf is
//      legal once its types are.
//      ttg.warp_specialize and its terminator stay legal: the ops of its
//      regions are lowered in place, knowing which warps run them.
//   3. Each ttg.warp_specialize becomes a branch on the warp index
//      (WarpSpecializeOpToLLVM.cpp).
//   4. scf is lowered to cf and cf to llvm by the passes that follow in the
//      tritium-make-llir pipeline.
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTGToLLVM/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/TypeSwitch.h"
#include "tritium/Conversion/TTGToLLVM/LoweringAxisInfo.h"
#include "tritium/Conversion/TTGToLLVM/NVVMHelpers.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

namespace tritium {
#define GEN_PASS_DEF_CONVERTTTGTOLLVMPASS
#include "tritium/Conversion/TTGToLLVM/Passes.h.inc"
} // namespace tritium

using namespace mlir;
using namespace tritium;

namespace {
/// Triton's name of an fp8 type (tl.float8e4nv is f8E4M3FN), or "" for
/// other types.
StringRef tritonFp8Name(Type type) {
  return llvm::TypeSwitch<Type, StringRef>(type)
      .Case<Float8E4M3FNType>([](auto) { return "fp8e4nv"; })
      .Case<Float8E5M2Type>([](auto) { return "fp8e5"; })
      .Case<Float8E4M3FNUZType>([](auto) { return "fp8e4b8"; })
      .Case<Float8E5M2FNUZType>([](auto) { return "fp8e5b16"; })
      .Case<Float8E4M3B11FNUZType>([](auto) { return "fp8e4b15"; })
      .Default([](auto) { return ""; });
}

/// What the user wrote for an arithmetic op, for the message.
std::string arithmeticName(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::string>(op)
      .Case<arith::AddFOp>([](auto) { return "+"; })
      .Case<arith::SubFOp>([](auto) { return "-"; })
      .Case<arith::MulFOp>([](auto) { return "*"; })
      .Case<arith::DivFOp>([](auto) { return "/"; })
      .Case<arith::RemFOp>([](auto) { return "%"; })
      .Case<arith::NegFOp>([](auto) { return "unary -"; })
      .Case<arith::CmpFOp>([](auto) { return "a comparison"; })
      .Default([](Operation *op) { return op->getName().getStringRef().str(); });
}

/// Step 0 of the overview: every arith or math op other than a conversion,
/// a constant or a select whose operands are fp8 is an error at its
/// location.
LogicalResult refuseFp8Arithmetic(ModuleOp module) {
  bool refused = false;
  module.walk([&](Operation *op) {
    StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
    if ((dialect != "arith" && dialect != "math") ||
        isa<CastOpInterface, arith::ConstantOp, arith::SelectOp>(op))
      return;
    for (Value operand : op->getOperands()) {
      StringRef name = tritonFp8Name(getElementTypeOrSelf(operand.getType()));
      if (name.empty())
        continue;
      op->emitError() << name << " values have no arithmetic ("
                      << arithmeticName(op)
                      << "): convert them first, for example x.to(tl.float16) "
                         "or x.to(tl.float32)";
      refused = true;
      return;
    }
  });
  return failure(refused);
}
} // namespace

LogicalResult tritium::convertTTGToLLVM(ModuleOp module,
                                        const TargetConfig &target) {
  MLIRContext *context = module.getContext();
  if (failed(refuseFp8Arithmetic(module)))
    return failure();
  LoweringAxisInfo access(module);
  TTGToLLVMTypeConverter converter(context);

  RewritePatternSet patterns(context);
  populateFuncOpToLLVMPatterns(converter, patterns);
  populateSPMDOpToLLVMPatterns(converter, patterns);
  populateTensorCreationOpToLLVMPatterns(converter, patterns);
  populateTensorShapeOpToLLVMPatterns(converter, patterns);
  populateElementwiseOpToLLVMPatterns(converter, patterns, access);
  populateLibdeviceOpToLLVMPatterns(converter, patterns);
  populateApproxMathOpToLLVMPatterns(converter, patterns);
  populateFpToFpOpToLLVMPatterns(converter, patterns, target);
  populateLoadStoreOpToLLVMPatterns(converter, patterns, access);
  populateAtomicOpToLLVMPatterns(converter, patterns, access, target);
  populateConvertLayoutOpToLLVMPatterns(converter, patterns);
  populateFmaDotOpToLLVMPatterns(converter, patterns);
  populateMmaV2DotOpToLLVMPatterns(converter, patterns);
  populateWgmmaDotOpToLLVMPatterns(converter, patterns);
  populateLocalMemoryOpToLLVMPatterns(converter, patterns);
  populateAsyncCopyOpToLLVMPatterns(converter, patterns, access);
  populateTMAOpToLLVMPatterns(converter, patterns);
  populateReduceOpToLLVMPatterns(converter, patterns);
  populateScanOpToLLVMPatterns(converter, patterns);
  populateGatherHistogramOpToLLVMPatterns(converter, patterns);
  populateBarrierOpToLLVMPatterns(converter, patterns);
  populateDebugOpToLLVMPatterns(converter, patterns);
  arith::populateArithToLLVMConversionPatterns(converter, patterns);
  populateMathToLLVMConversionPatterns(converter, patterns);

  ConversionTarget legality(*context);
  legality.addLegalDialect<LLVM::LLVMDialect>();
  legality.addLegalDialect("nvvm");
  legality.addIllegalDialect<tt::TTDialect, ttg::TTGDialect,
                             arith::ArithDialect, math::MathDialect>();
  legality.addIllegalOp<gpu::BarrierOp>();
  legality.addLegalOp<ModuleOp>();
  // Lowered after the conversion, once the ops inside know their warps.
  legality.addLegalOp<ttg::WarpSpecializeOp, ttg::WarpYieldOp>();
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       legality);
  // Fold an op only when no pattern lowers it.  Folding first would rewrite
  // ops the allocation and membar passes already planned for: a
  // ttg.convert_layout of a ttg.convert_layout folds into one conversion
  // whose scratch (or lack of it) nobody allocated.
  ConversionConfig config;
  config.foldingMode = DialectConversionFoldingMode::AfterPatterns;
  if (failed(applyPartialConversion(module, legality, std::move(patterns),
                                    config)))
    return failure();
  lowerWarpSpecializeOps(module);
  return success();
}

namespace {
struct ConvertTTGToLLVMPass
    : public tritium::impl::ConvertTTGToLLVMPassBase<ConvertTTGToLLVMPass> {
  using ConvertTTGToLLVMPassBase::ConvertTTGToLLVMPassBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    ConvertTTGToLLVMPassBase::getDependentDialects(registry);
    nvvm::insertNVVMDialect(registry);
  }

  void runOnOperation() override {
    TargetConfig target;
    target.computeCapability = computeCapability;
    target.ptxVersion = ptxVersion;
    if (failed(convertTTGToLLVM(getOperation(), target)))
      signalPassFailure();
  }
};
} // namespace
