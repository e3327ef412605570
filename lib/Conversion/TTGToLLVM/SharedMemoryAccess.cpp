//===- SharedMemoryAccess.cpp - tiles in shared memory --------------------===//
//
// Element (c_0, ..., c_{n-1}) of a tile of shape (s_0, ..., s_{n-1}) lives at
// element offset sum_d c_d * prod_{e>d} s_e.  A group of `vec` registers
// that LayoutIndices reports as consecutive and aligned along the last
// dimension starts at a multiple of `vec`, so its vector access is aligned
// to vec * bytes.
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTGToLLVM/SharedMemoryAccess.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tritium/Analysis/Allocation.h"
#include "tritium/Conversion/TTGToLLVM/ModuleSymbols.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tritium;
using layout::LinearLayout;

Value tritium::getBufferPointer(OpBuilder &builder, Operation *op) {
  std::optional<int64_t> offset = getAllocationOffset(op);
  if (!offset) {
    op->emitError("needs shared memory but has no '")
        << kAllocationOffsetAttrName
        << "'; run allocate-shared-memory before convert-ttg-to-llvm";
    return {};
  }
  Location loc = op->getLoc();
  Value base =
      getSharedMemoryBase(builder, loc, op->getParentOfType<ModuleOp>());
  if (*offset == 0)
    return base;
  return LLVM::GEPOp::create(builder, loc, base.getType(), builder.getI8Type(),
                             base, ArrayRef<LLVM::GEPArg>{*offset});
}

/// Bytes of one element of `memoryType`.
static int64_t elementBytes(Type memoryType) {
  return TTGToLLVMTypeConverter::getMemoryBits(memoryType) / 8;
}

/// Registers per vector access: consecutive along the last dimension, at
/// most 16 bytes.
static int64_t vectorWidth(const LinearLayout &layout, Type memoryType) {
  int64_t contiguous =
      getContiguousRegisters(layout, static_cast<int>(layout.rank()) - 1);
  return std::max<int64_t>(
      1, std::min<int64_t>(contiguous, 16 / elementBytes(memoryType)));
}

/// The element pointer of coordinates `coords` in the tile at `base`.
static Value elementPointer(OpBuilder &builder, Location loc, Value base,
                            ArrayRef<Value> coords, ArrayRef<int64_t> shape,
                            Type memoryType) {
  Value offset = emitRowMajorOffset(builder, loc, coords, shape);
  return LLVM::GEPOp::create(builder, loc, base.getType(), memoryType, base,
                             ValueRange{offset});
}

static Value toMemory(OpBuilder &builder, Location loc, Value value,
                      Type memoryType) {
  if (value.getType() == memoryType)
    return value;
  return LLVM::ZExtOp::create(builder, loc, memoryType, value); // i1 -> i8
}

static Value fromMemory(OpBuilder &builder, Location loc, Value value,
                        Type registerType) {
  if (value.getType() == registerType)
    return value;
  return LLVM::TruncOp::create(builder, loc, registerType, value); // i8 -> i1
}

void tritium::storeTile(OpBuilder &builder, Location loc, Value base,
                        ArrayRef<Value> values, const LinearLayout &layout,
                        ThreadIndex thread, Type memoryType, Value predicate) {
  OpBuilder::InsertionGuard guard(builder);
  if (predicate) {
    auto ifOp = scf::IfOp::create(builder, loc, predicate,
                                  /*withElseRegion=*/false);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
  }
  auto indices = emitIndices(builder, loc, layout, thread);
  SmallVector<int64_t> representative = getRepresentativeRegisters(layout);
  int64_t vec = vectorWidth(layout, memoryType);
  int64_t bytes = elementBytes(memoryType);
  for (int64_t reg = 0; reg < layout.elemsPerThread(); reg += vec) {
    if (representative[reg] != reg)
      continue; // another register of this thread stores the same elements
    Value ptr = elementPointer(builder, loc, base, indices[reg], layout.shape(),
                               memoryType);
    Value stored;
    if (vec == 1) {
      stored = toMemory(builder, loc, values[reg], memoryType);
    } else {
      auto vectorType = VectorType::get({vec}, memoryType);
      stored = LLVM::UndefOp::create(builder, loc, vectorType);
      for (int64_t i = 0; i < vec; ++i)
        stored = LLVM::InsertElementOp::create(
            builder, loc, stored,
            toMemory(builder, loc, values[reg + i], memoryType),
            LLVM::ConstantOp::create(builder, loc, builder.getI32Type(), i));
    }
    LLVM::StoreOp::create(builder, loc, stored, ptr, vec * bytes);
  }
}

SmallVector<Value> tritium::loadTile(OpBuilder &builder, Location loc,
                                     Value base, const LinearLayout &layout,
                                     ThreadIndex thread, Type memoryType,
                                     Type registerType) {
  auto indices = emitIndices(builder, loc, layout, thread);
  SmallVector<int64_t> representative = getRepresentativeRegisters(layout);
  int64_t vec = vectorWidth(layout, memoryType);
  int64_t bytes = elementBytes(memoryType);
  int64_t count = layout.elemsPerThread();
  SmallVector<Value> values(count);
  for (int64_t reg = 0; reg < count; reg += vec) {
    if (representative[reg] != reg) {
      for (int64_t i = 0; i < vec; ++i)
        values[reg + i] = values[representative[reg + i]];
      continue;
    }
    Value ptr = elementPointer(builder, loc, base, indices[reg], layout.shape(),
                               memoryType);
    if (vec == 1) {
      Value loaded = LLVM::LoadOp::create(builder, loc, memoryType, ptr, bytes);
      values[reg] = fromMemory(builder, loc, loaded, registerType);
      continue;
    }
    auto vectorType = VectorType::get({vec}, memoryType);
    Value loaded =
        LLVM::LoadOp::create(builder, loc, vectorType, ptr, vec * bytes);
    for (int64_t i = 0; i < vec; ++i) {
      Value element = LLVM::ExtractElementOp::create(
          builder, loc, loaded,
          LLVM::ConstantOp::create(builder, loc, builder.getI32Type(), i));
      values[reg + i] = fromMemory(builder, loc, element, registerType);
    }
  }
  return values;
}
