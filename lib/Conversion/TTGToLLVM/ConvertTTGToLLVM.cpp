//===- ConvertTTGToLLVM.cpp - convert-ttg-to-llvm -------------------------===//
//
// Algorithm overview:
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

LogicalResult tritium::convertTTGToLLVM(ModuleOp module,
                                        const TargetConfig &target) {
  MLIRContext *context = module.getContext();
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
