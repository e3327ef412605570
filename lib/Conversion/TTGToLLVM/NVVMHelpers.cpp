//===- NVVMHelpers.cpp - the NVVM ops the lowering emits ------------------===//
//
// The only translation unit of the lowering that includes NVVMDialect.h
// (see NVVMHelpers.h).
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTGToLLVM/NVVMHelpers.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

using namespace mlir;

void tritium::nvvm::insertNVVMDialect(DialectRegistry &registry) {
  registry.insert<NVVM::NVVMDialect>();
}

Value tritium::nvvm::threadIdX(OpBuilder &builder, Location loc,
                               int64_t numThreads) {
  auto range =
      LLVM::ConstantRangeAttr::get(builder.getContext(), 32, 0, numThreads);
  return NVVM::ThreadIdXOp::create(builder, loc, builder.getI32Type(), range);
}

Value tritium::nvvm::electOneLane(OpBuilder &builder, Location loc) {
  return NVVM::ElectSyncOp::create(builder, loc, builder.getI1Type(), Value());
}

Value tritium::nvvm::electedLane(OpBuilder &builder, Location loc,
                                 Operation *op) {
  auto function = op->getParentOfType<LLVM::LLVMFuncOp>();
  if (!function || function.getBody().empty())
    return electOneLane(builder, loc);
  Block &entry = function.getBody().front();
  if (auto elect = dyn_cast_or_null<NVVM::ElectSyncOp>(
          entry.empty() ? nullptr : &entry.front()))
    return elect.getResult();
  OpBuilder::InsertionGuard atEntry(builder);
  builder.setInsertionPointToStart(&entry);
  return electOneLane(builder, function.getLoc());
}

bool tritium::nvvm::setInsertionPointToFunctionEntry(OpBuilder &builder,
                                                     Operation *op) {
  auto function = op->getParentOfType<LLVM::LLVMFuncOp>();
  if (!function || function.getBody().empty())
    return false;
  Block &entry = function.getBody().front();
  if (!entry.empty() && isa<NVVM::ElectSyncOp>(entry.front()))
    builder.setInsertionPointAfter(&entry.front());
  else
    builder.setInsertionPointToStart(&entry);
  return true;
}

Value tritium::nvvm::blockId(OpBuilder &builder, Location loc, int axis) {
  Type i32 = builder.getI32Type();
  switch (axis) {
  case 0:
    return NVVM::BlockIdXOp::create(builder, loc, i32);
  case 1:
    return NVVM::BlockIdYOp::create(builder, loc, i32);
  default:
    return NVVM::BlockIdZOp::create(builder, loc, i32);
  }
}

Value tritium::nvvm::gridDim(OpBuilder &builder, Location loc, int axis) {
  Type i32 = builder.getI32Type();
  switch (axis) {
  case 0:
    return NVVM::GridDimXOp::create(builder, loc, i32);
  case 1:
    return NVVM::GridDimYOp::create(builder, loc, i32);
  default:
    return NVVM::GridDimZOp::create(builder, loc, i32);
  }
}

tritium::nvvm::RunningWarps tritium::nvvm::runningWarps(Block *block) {
  Operation *parent = block ? block->getParentOp() : nullptr;
  auto module = parent ? (isa<ModuleOp>(parent) ? cast<ModuleOp>(parent)
                                                : parent->getParentOfType<ModuleOp>())
                       : ModuleOp();
  RunningWarps warps;
  warps.count = module ? ttg::getTotalNumWarps(module) : 0;
  for (Region *region = block ? block->getParent() : nullptr; region;
       region = region->getParentRegion()) {
    auto specialize = dyn_cast<ttg::WarpSpecializeOp>(region->getParentOp());
    if (!specialize)
      continue;
    warps.specialized = true;
    int numWarps = ttg::getNumWarps(module);
    if (region == &specialize.getDefaultRegion()) {
      warps.first = 0;
      warps.count = numWarps;
    } else {
      warps.first = numWarps;
      warps.count = specialize.getPartitionNumWarps();
    }
    break;
  }
  return warps;
}

void tritium::nvvm::barrier(OpBuilder &builder, Location loc) {
  RunningWarps warps = runningWarps(builder.getInsertionBlock());
  if (!warps.specialized) {
    NVVM::Barrier0Op::create(builder, loc);
    return;
  }
  Type i32 = builder.getI32Type();
  Value id = LLVM::ConstantOp::create(builder, loc, i32,
                                      builder.getI32IntegerAttr(warps.first == 0 ? 1 : 2));
  Value threads = LLVM::ConstantOp::create(
      builder, loc, i32, builder.getI32IntegerAttr(warps.count * 32));
  NVVM::BarrierOp::create(builder, loc, Type(), id, threads,
                          NVVM::BarrierReductionAttr(), Value());
}

Value tritium::nvvm::shuffle(OpBuilder &builder, Location loc,
                             ShuffleMode mode, Value value, Value operand) {
  Type i32 = builder.getI32Type();
  auto constant = [&](int32_t v) {
    return LLVM::ConstantOp::create(builder, loc, i32,
                                    builder.getI32IntegerAttr(v));
  };
  // The c operand of shfl: segment mask 0 (the whole warp) and the clamp
  // lane, which is 0 for up and 31 for the other modes.
  NVVM::ShflKind kind = NVVM::ShflKind::idx;
  int32_t clamp = 0x1f;
  switch (mode) {
  case ShuffleMode::Idx:
    break;
  case ShuffleMode::Up:
    kind = NVVM::ShflKind::up;
    clamp = 0;
    break;
  case ShuffleMode::Down:
    kind = NVVM::ShflKind::down;
    break;
  case ShuffleMode::Xor:
    kind = NVVM::ShflKind::bfly;
    break;
  }
  return NVVM::ShflOp::create(builder, loc, i32, constant(-1), value, operand,
                              constant(clamp), kind, UnitAttr());
}

Value tritium::nvvm::shuffleIdx(OpBuilder &builder, Location loc, Value value,
                                Value srcLane) {
  return shuffle(builder, loc, ShuffleMode::Idx, value, srcLane);
}

std::string tritium::nvvm::ptxMmaTypeName(Type type) {
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "f32";
  if (type.isInteger(8))
    return "s8";
  if (type.isInteger(32))
    return "s32";
  if (isa<Float8E4M3FNType>(type))
    return "e4m3";
  if (isa<Float8E5M2Type>(type))
    return "e5m2";
  return "";
}
