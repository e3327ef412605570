//===- ConvertTTToTTG.cpp - convert-tt-to-ttg ------------------------------===//
//
// The pass that turns Triton IR into TritonGPU IR: every tensor gets a
// layout and the module records the launch shape.
//
// Algorithm:
//   1. Check the options and that every tensor can carry a distributed
//      layout (static power-of-two dimensions), then set ttg.num-warps,
//      ttg.threads-per-warp, ttg.num-ctas and ttg.target on the module.
//   2. Run one full dialect conversion with TTGTypeConverter (tensor types
//      gain the default blocked layout of their shape):
//        - tt.func signatures and block arguments are converted by the
//          function-signature pattern, scf.for/if/while and their
//          terminators by MLIR's structural SCF patterns;
//        - expand_dims, broadcast, trans, join, split, reduce and scan pick
//          related layouts (ShapeOpConversion.cpp, ReductionConversion.cpp);
//        - every other op is rebuilt with converted types
//          (GenericOpConversion.cpp).
//      Where a value reaches a user that needs another layout of the same
//      tensor, the driver materializes a ttg.convert_layout.
//   3. Fold the conversions the patterns stacked on each other and erase
//      the unused ones, so the output shows only the conversions that move
//      data.
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTToTTG/Passes.h"
#include "tritium/Conversion/TTToTTG/TTToTTG.h"

#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "llvm/Support/MathExtras.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

namespace tritium {
#define GEN_PASS_DEF_CONVERTTTTOTTGPASS
#include "tritium/Conversion/TTToTTG/Passes.h.inc"
} // namespace tritium

using namespace mlir;
using namespace tritium;

namespace {
/// Folds convert(convert(x)) to convert(x) and convert(x) to x when the
/// types agree, then erases conversions left unused.
void foldLayoutConversions(ModuleOp module) {
  SmallVector<ttg::ConvertLayoutOp> conversions;
  module.walk([&](ttg::ConvertLayoutOp op) { conversions.push_back(op); });
  for (ttg::ConvertLayoutOp op : conversions) {
    if (auto inner = op.getSrc().getDefiningOp<ttg::ConvertLayoutOp>())
      op.getSrcMutable().assign(inner.getSrc());
    if (op.getSrc().getType() == op.getType())
      op.getResult().replaceAllUsesWith(op.getSrc());
  }
  for (ttg::ConvertLayoutOp op : llvm::reverse(conversions))
    if (op->use_empty())
      op->erase();
}

/// Reports the first tensor without a layout that cannot get one (dynamic
/// or non-power-of-two dimensions) at the op that defines it.
LogicalResult checkTensorShapes(ModuleOp module) {
  auto isBad = [](Type type) {
    if (auto blockPtr = dyn_cast<tt::PointerType>(type))
      type = blockPtr.getPointeeType();
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && !tensor.getEncoding() &&
           llvm::any_of(tensor.getShape(), [](int64_t size) {
             return ShapedType::isDynamic(size) || !llvm::isPowerOf2_64(size);
           });
  };
  WalkResult result = module.walk([&](Operation *op) {
    SmallVector<Type> types(op->getResultTypes());
    for (Region &region : op->getRegions())
      for (Block &block : region)
        llvm::append_range(types, block.getArgumentTypes());
    for (Type type : types)
      if (isBad(type)) {
        op->emitOpError() << "produces " << type
                          << ", which cannot be given a layout: tensor "
                             "dimensions must be static powers of two";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Checks one launch-shape option: a positive power of two.
LogicalResult checkPowerOfTwo(ModuleOp module, StringRef name, int value) {
  if (value > 0 && llvm::isPowerOf2_32(value))
    return success();
  return module.emitError() << "convert-tt-to-ttg: " << name
                            << " must be a positive power of two, got "
                            << value;
}
} // namespace

LogicalResult tritium::convertTTToTTG(ModuleOp module,
                                      const TTToTTGOptions &options) {
  if (failed(checkPowerOfTwo(module, "num-warps", options.numWarps)) ||
      failed(checkPowerOfTwo(module, "threads-per-warp",
                             options.threadsPerWarp)) ||
      failed(checkPowerOfTwo(module, "num-ctas", options.numCTAs)))
    return failure();
  StringRef target = options.target;
  unsigned capability = 0;
  if (!target.starts_with("cuda:") ||
      target.drop_front(5).getAsInteger(10, capability))
    return module.emitError()
           << "convert-tt-to-ttg: target must be \"cuda:<compute "
              "capability>\", e.g. \"cuda:90\", got \""
           << target << "\"";

  if (failed(checkTensorShapes(module)))
    return failure();

  MLIRContext *context = module.getContext();
  Builder builder(context);
  module->setAttr(ttg::TTGDialect::kNumWarpsAttrName,
                  builder.getI32IntegerAttr(options.numWarps));
  module->setAttr(ttg::TTGDialect::kThreadsPerWarpAttrName,
                  builder.getI32IntegerAttr(options.threadsPerWarp));
  module->setAttr(ttg::TTGDialect::kNumCTAsAttrName,
                  builder.getI32IntegerAttr(options.numCTAs));
  module->setAttr(ttg::TTGDialect::kTargetAttrName,
                  builder.getStringAttr(target));

  TTGTypeConverter converter(context, options.numWarps, options.threadsPerWarp);
  ConversionTarget conversionTarget(*context);
  configureTTToTTGTarget(conversionTarget, converter);
  RewritePatternSet patterns(context);
  populateGenericTTToTTGPatterns(converter, patterns);
  populateShapeOpTTToTTGPatterns(converter, patterns);
  populateReductionTTToTTGPatterns(converter, patterns);
  populateDotTTToTTGPatterns(converter, patterns);
  populateFunctionOpInterfaceTypeConversionPattern<tt::FuncOp>(patterns,
                                                               converter);
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       conversionTarget);
  if (failed(applyFullConversion(module, conversionTarget, std::move(patterns))))
    return failure();
  foldLayoutConversions(module);
  return success();
}

namespace {
struct ConvertTTToTTGPass
    : public tritium::impl::ConvertTTToTTGPassBase<ConvertTTToTTGPass> {
  using ConvertTTToTTGPassBase::ConvertTTToTTGPassBase;

  void runOnOperation() override {
    TTToTTGOptions options;
    options.numWarps = numWarps;
    options.threadsPerWarp = threadsPerWarp;
    options.numCTAs = numCTAs;
    options.target = target;
    if (failed(convertTTToTTG(getOperation(), options)))
      signalPassFailure();
  }
};
} // namespace
