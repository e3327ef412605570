//===- LowerLoopsToLLVM.cpp - lower-loops-to-llvm -------------------------===//
//
// The scf ops convert-ttg-to-llvm leaves (loops and ifs with LLVM types)
// to LLVM branches, with the upstream patterns of scf-to-cf,
// convert-arith-to-llvm and convert-cf-to-llvm applied to those ops and
// the ops they create only, and the unrealized casts reconciled: the IR
// the four upstream passes produce, without their four dialect
// conversions over every op of the module.
//
// Algorithm:
//   1. Walk the module once, collecting the scf ops but their terminators
//      (which their parents' lowering takes away) and the arith and cf ops.
//   2. Rewrite the scf ops with the scf-to-cf patterns (a greedy rewrite
//      restricted to them, folding off), a listener recording the arith and
//      cf ops the patterns create and forgetting any op erased.
//   3. Convert the arith and cf ops to the LLVM dialect (a partial
//      conversion of that list, which has no nested ops).
//   4. Reconcile the unrealized casts, those convert-ttg-to-llvm left and
//      any step 3 materialized (a second walk finds them; a plain walk costs
//      a fraction of a dialect conversion's visit).
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTGToLLVM/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace tritium {
#define GEN_PASS_DEF_LOWERLOOPSTOLLVMPASS
#include "tritium/Conversion/TTGToLLVM/Passes.h.inc"
} // namespace tritium

using namespace mlir;

namespace {

bool isArithOrControlFlow(Operation *op) {
  Dialect *dialect = op->getDialect();
  return isa_and_nonnull<arith::ArithDialect, cf::ControlFlowDialect>(dialect);
}

/// Records the arith and cf ops a rewrite creates and forgets erased ones.
struct CreatedOps : public RewriterBase::Listener {
  explicit CreatedOps(llvm::SetVector<Operation *> &ops) : ops(ops) {}
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint) override {
    if (isArithOrControlFlow(op))
      ops.insert(op);
  }
  void notifyOperationErased(Operation *op) override { ops.remove(op); }
  llvm::SetVector<Operation *> &ops;
};

struct LowerLoopsToLLVMPass
    : public tritium::impl::LowerLoopsToLLVMPassBase<LowerLoopsToLLVMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();

    // 1. The ops to rewrite.
    SmallVector<Operation *> structured;
    llvm::SetVector<Operation *> toLLVM;
    module.walk([&](Operation *op) {
      if (isa<scf::SCFDialect>(op->getDialect()) &&
          !op->hasTrait<OpTrait::IsTerminator>())
        structured.push_back(op);
      else if (isArithOrControlFlow(op))
        toLLVM.insert(op);
    });

    // 2. scf to blocks and branches.
    if (!structured.empty()) {
      RewritePatternSet patterns(context);
      populateSCFToControlFlowConversionPatterns(patterns);
      CreatedOps listener(toLLVM);
      GreedyRewriteConfig config;
      config.setStrictness(GreedyRewriteStrictness::ExistingOps)
          .enableFolding(false)
          .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled)
          .setListener(&listener);
      bool allErased = false;
      if (failed(applyOpPatternsGreedily(structured, std::move(patterns),
                                         config, /*changed=*/nullptr,
                                         &allErased)) ||
          !allErased) {
        module.emitError("lower-loops-to-llvm: an scf op could not be "
                         "lowered to branches");
        return signalPassFailure();
      }
    }

    // 3. arith and cf to the LLVM dialect.
    if (!toLLVM.empty()) {
      LowerToLLVMOptions options(context);
      LLVMTypeConverter converter(context, options);
      RewritePatternSet patterns(context);
      arith::populateArithToLLVMConversionPatterns(converter, patterns);
      cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
      LLVMConversionTarget target(*context);
      if (failed(applyPartialConversion(toLLVM.getArrayRef(), target,
                                        std::move(patterns))))
        return signalPassFailure();
    }

    // 4. The casts left between converted types.
    SmallVector<UnrealizedConversionCastOp> casts;
    module.walk([&](UnrealizedConversionCastOp cast) { casts.push_back(cast); });
    if (!casts.empty())
      reconcileUnrealizedCasts(casts);
  }
};

} // namespace
