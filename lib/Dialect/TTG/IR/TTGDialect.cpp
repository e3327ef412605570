//===- TTGDialect.cpp - the TritonGPU dialect -----------------------------===//
//
// Registers the `ttg` dialect and verifies its module attributes.  The launch
// shape lives on the module (ttg.num-warps, ttg.threads-per-warp,
// ttg.num-ctas, ttg.target); when ttg.num-warps is verified, every tensor in
// the module is checked against it, because a layout's warps and lanes must
// add up to exactly the threads the kernel is launched with.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tritium::ttg;

#include "tritium/Dialect/TTG/IR/TTGDialect.cpp.inc"

void TTGDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "tritium/Dialect/TTG/IR/TTGOps.cpp.inc"
      >();
}

namespace {
constexpr int kDefaultThreadsPerWarp = 32;
constexpr int kDefaultNumWarps = 4;

int getIntAttrOr(ModuleOp module, StringRef name, int fallback) {
  if (auto attr = module->getAttrOfType<IntegerAttr>(name))
    return attr.getInt();
  return fallback;
}

/// Checks every distributed tensor type produced in `module` (op results and
/// block arguments) against the module's warp and lane counts.
LogicalResult verifyLayoutsFitModule(ModuleOp module, int64_t numWarps,
                                     int64_t threadsPerWarp) {
  auto check = [&](Type type, function_ref<InFlightDiagnostic()> emitError)
      -> LogicalResult {
    DistributedEncodingAttr layout = getDistributedEncoding(type);
    if (!layout)
      return success();
    if (layout.getNumWarps() != numWarps)
      return emitError() << "layout " << cast<RankedTensorType>(type).getEncoding()
                         << " spans " << layout.getNumWarps()
                         << " warps, but the module has "
                         << TTGDialect::kNumWarpsAttrName << " = " << numWarps;
    if (layout.getWarpSize() != threadsPerWarp)
      return emitError() << "layout " << cast<RankedTensorType>(type).getEncoding()
                         << " uses " << layout.getWarpSize()
                         << " threads per warp, but the module has "
                         << TTGDialect::kThreadsPerWarpAttrName << " = "
                         << threadsPerWarp;
    return success();
  };
  WalkResult result = module.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (failed(check(type, [&] { return op->emitOpError(); })))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(check(arg.getType(), [&] { return op->emitOpError(); })))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult verifyPositivePowerOfTwo(Operation *op, NamedAttribute attr) {
  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  if (!value || value.getInt() <= 0 || !llvm::isPowerOf2_64(value.getInt()))
    return op->emitError() << "'" << attr.getName().getValue()
                           << "' must be a positive power-of-two integer";
  return success();
}
} // namespace

LogicalResult TTGDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  auto module = dyn_cast<ModuleOp>(op);
  if (name == kNumWarpsAttrName || name == kThreadsPerWarpAttrName ||
      name == kNumCTAsAttrName || name == kTargetAttrName) {
    if (!module)
      return op->emitError() << "'" << name << "' belongs on a builtin.module";
  }
  if (name == kNumWarpsAttrName) {
    if (failed(verifyPositivePowerOfTwo(op, attr)))
      return failure();
    return verifyLayoutsFitModule(module, getNumWarps(module),
                                  getThreadsPerWarp(module));
  }
  if (name == kThreadsPerWarpAttrName || name == kNumCTAsAttrName)
    return verifyPositivePowerOfTwo(op, attr);
  if (name == kTargetAttrName) {
    auto target = dyn_cast<StringAttr>(attr.getValue());
    unsigned capability = 0;
    if (!target || !target.getValue().starts_with("cuda:") ||
        target.getValue().drop_front(5).getAsInteger(10, capability))
      return op->emitError() << "'" << name
                             << "' must be a string \"cuda:<compute "
                                "capability>\", e.g. \"cuda:90\"";
    return success();
  }
  return success();
}

int tritium::ttg::getNumWarps(ModuleOp module) {
  return getIntAttrOr(module, TTGDialect::kNumWarpsAttrName, kDefaultNumWarps);
}

int tritium::ttg::getThreadsPerWarp(ModuleOp module) {
  return getIntAttrOr(module, TTGDialect::kThreadsPerWarpAttrName,
                      kDefaultThreadsPerWarp);
}

DistributedEncodingAttr tritium::ttg::getDistributedEncoding(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return {};
  return dyn_cast_or_null<DistributedEncodingAttr>(tensor.getEncoding());
}
