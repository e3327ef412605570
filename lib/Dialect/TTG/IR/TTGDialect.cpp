//===- TTGDialect.cpp - the TritonGPU dialect -----------------------------===//
//
// Registers the `ttg` dialect and verifies its module attributes.  The launch
// shape lives on the module (ttg.num-warps, ttg.threads-per-warp,
// ttg.num-ctas, ttg.target); when ttg.num-warps (or, alone,
// ttg.threads-per-warp) is verified, every tensor in the module is checked
// against them, because a layout's warps and lanes must add up to exactly the
// threads the kernel is launched with.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tritium::ttg;

#include "tritium/Dialect/TTG/IR/TTGDialect.cpp.inc"

Operation *TTGDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

namespace {
/// Prints layouts as aliases (#blocked, #blocked1, #mma, #shared, ...) at the
/// top of a module instead of in full in every type.
struct TTGOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr))
      os << "blocked";
    else if (isa<SliceEncodingAttr>(attr))
      os << "slice";
    else if (isa<NvidiaMmaEncodingAttr>(attr))
      os << "mma";
    else if (isa<DotOperandEncodingAttr>(attr))
      os << "dot_op";
    else if (isa<SwizzledSharedEncodingAttr>(attr))
      os << "shared";
    else if (isa<NvmmaSharedEncodingAttr>(attr))
      os << "nvmma";
    else if (isa<SharedMemorySpaceAttr>(attr))
      os << "smem";
    else
      return AliasResult::NoAlias;
    return AliasResult::FinalAlias;
  }
};
} // namespace

void TTGDialect::initialize() {
  registerTypes();
  registerAttributes();
  addInterfaces<TTGOpAsmInterface>();
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

/// Checks every distributed tensor type in `module` (op results, block
/// arguments and function signatures, declarations included) against the
/// module's lane count and, when the module states one, its warp count.
/// Nested modules carry their own attributes and are checked on their own.
LogicalResult verifyLayoutsFitModule(ModuleOp module,
                                     std::optional<int64_t> numWarps,
                                     int64_t threadsPerWarp) {
  auto check = [&](Type type, Operation *op) -> LogicalResult {
    DistributedEncodingAttr layout = getDistributedEncoding(type);
    if (!layout)
      return success();
    Attribute encoding = cast<RankedTensorType>(type).getEncoding();
    if (numWarps && layout.getNumWarps() != *numWarps)
      return op->emitOpError() << "layout " << encoding << " spans "
                               << layout.getNumWarps()
                               << " warps, but the module has "
                               << TTGDialect::kNumWarpsAttrName << " = "
                               << *numWarps;
    if (layout.getWarpSize() != threadsPerWarp)
      return op->emitOpError() << "layout " << encoding << " uses "
                               << layout.getWarpSize()
                               << " threads per warp, but the module has "
                               << TTGDialect::kThreadsPerWarpAttrName << " = "
                               << threadsPerWarp;
    return success();
  };
  auto checkAll = [&](TypeRange types, Operation *op) {
    return llvm::all_of(types, [&](Type t) { return succeeded(check(t, op)); });
  };
  WalkResult result = module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != module.getOperation() && isa<ModuleOp>(op))
      return WalkResult::skip();
    bool ok = checkAll(op->getResultTypes(), op);
    if (auto fn = dyn_cast<FunctionOpInterface>(op))
      ok = ok && checkAll(fn.getArgumentTypes(), op) &&
           checkAll(fn.getResultTypes(), op);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        ok = ok && checkAll(block.getArgumentTypes(), op);
    return ok ? WalkResult::advance() : WalkResult::interrupt();
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
      name == kNumCTAsAttrName || name == kTargetAttrName ||
      name == kMaxNRegAttrName) {
    if (!module)
      return op->emitError() << "'" << name << "' belongs on a builtin.module";
  }
  if (name == kNumWarpsAttrName || name == kThreadsPerWarpAttrName) {
    if (failed(verifyPositivePowerOfTwo(op, attr)))
      return failure();
    // The layouts are checked once per module: when its warp count is
    // verified, or when it states only a lane count.
    bool hasNumWarps = module->hasAttr(kNumWarpsAttrName);
    if (name == kThreadsPerWarpAttrName && hasNumWarps)
      return success();
    std::optional<int64_t> numWarps;
    if (hasNumWarps)
      numWarps = getNumWarps(module);
    return verifyLayoutsFitModule(module, numWarps, getThreadsPerWarp(module));
  }
  if (name == kNumCTAsAttrName)
    return verifyPositivePowerOfTwo(op, attr);
  if (name == kMaxNRegAttrName) {
    // A thread addresses at most 255 registers (PTX .maxnreg).
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value || value.getInt() < 1 || value.getInt() > 255)
      return op->emitError() << "'" << name
                             << "' must be an integer from 1 to 255";
    return success();
  }
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

int tritium::ttg::getTotalNumWarps(ModuleOp module) {
  return getIntAttrOr(module, TTGDialect::kTotalNumWarpsAttrName,
                      getNumWarps(module));
}

int tritium::ttg::getThreadsPerWarp(ModuleOp module) {
  return getIntAttrOr(module, TTGDialect::kThreadsPerWarpAttrName,
                      kDefaultThreadsPerWarp);
}

int tritium::ttg::getComputeCapability(ModuleOp module) {
  auto target = module->getAttrOfType<StringAttr>(TTGDialect::kTargetAttrName);
  int capability = 0;
  if (!target || !target.getValue().starts_with("cuda:") ||
      target.getValue().drop_front(5).getAsInteger(10, capability))
    return 0;
  return capability;
}

int64_t tritium::ttg::getSharedMemoryPerBlock(int computeCapability) {
  return computeCapability >= 90   ? 232448
         : computeCapability == 80 ? 166912
                                   : 101376;
}

LocalAllocOp tritium::ttg::getViewedAllocation(Value memdesc) {
  Operation *def = memdesc.getDefiningOp();
  while (def && isa<MemDescIndexOp, MemDescSubsliceOp, MemDescTransOp>(def))
    def = def->getOperand(0).getDefiningOp();
  return dyn_cast_or_null<LocalAllocOp>(def);
}

DistributedEncodingAttr tritium::ttg::getDistributedEncoding(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return {};
  return dyn_cast_or_null<DistributedEncodingAttr>(tensor.getEncoding());
}
