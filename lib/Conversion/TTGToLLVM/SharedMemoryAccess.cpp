//===- SharedMemoryAccess.cpp - tiles in shared memory --------------------===//
//
// Element (c_0, ..., c_{n-1}) of a tile of shape (s_0, ..., s_{n-1}) lives at
// element offset sum_d c_d * stride_d, the strides of layout::PaddedTile
// (row-major, plus `pad` after each row of the last dimension).  A group of
// `vec` registers that LayoutIndices reports as consecutive and aligned
// along the last dimension starts at a multiple of `vec` within its row,
// and every row starts at a multiple of `vec` (vec divides the row length
// and the pad), so its vector access is aligned to vec * bytes.
//
// A swizzled tile (layout::ScratchTile, no pad) replaces the last
// coordinate col by col ^ (phase * chunk), phase = (row / perPhase) %
// maxPhase with row the coordinate before it: the chunk index XORed with
// the phase, as layout::swizzledColumn computes.  A vector of at most
// `chunk` elements keeps its low bits, so it stays contiguous and aligned.
//
// When the tile's offset is XOR-linear in the coordinate bits (no pad,
// power-of-two shape: layout::ScratchTile::xorLinearBitOffsets), so is the
// offset of register r in thread t: offset(r, t) = R[r] ^ T(t), with R[r]
// the offset of the register's own coordinates (a constant) and T(t) that
// of register 0 in this thread (computed once).  With B the bits any T(t)
// may have (the OR of the lane and warp bases' offsets),
//   R ^ T = (T ^ (R & B)) + (R & ~B)
// since the two terms share no bit: one XOR per distinct R & B, shared by
// its registers, and a constant that PTX folds into the instruction's
// immediate offset (registers with R & B = 0 use T itself).
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTGToLLVM/SharedMemoryAccess.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tritium/Analysis/Allocation.h"
#include "tritium/Conversion/TTGToLLVM/ModuleSymbols.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Layout/NvmmaShared.h"
#include "tritium/Layout/SharedSwizzle.h"
#include "tritium/Layout/SharedVectors.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tritium;
using layout::LinearLayout;

Value tritium::getBufferPointer(OpBuilder &builder, Operation *op) {
  std::optional<int64_t> offset = getAllocationOffset(op);
  if (!offset) {
    op->emitError("needs shared memory but has no '")
        << kAllocationOffsetAttrName
        << "'; run ttg-allocate-shared-memory before convert-ttg-to-llvm";
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
/// most 16 bytes, or the width `access` asks for.
static int64_t vectorWidth(const LinearLayout &layout, Type memoryType,
                           TileAccess access) {
  int64_t widest = layout::maxVectorWidth(layout, elementBytes(memoryType));
  if (access.vec == 0)
    return access.swizzle.chunk > 0 ? std::min(widest, access.swizzle.chunk)
                                    : widest;
  assert(widest % access.vec == 0 && access.pad % access.vec == 0 &&
         (access.swizzle.chunk == 0 || access.vec <= access.swizzle.chunk) &&
         "vector width must divide the widest access and the pad, and fit "
         "in a swizzle chunk");
  return access.vec;
}

/// Element strides of the tile `layout` is accessed in.
static std::vector<int64_t> tileStrides(const LinearLayout &layout,
                                        TileAccess access) {
  return layout::PaddedTile{layout.shape(), access.pad}.strides();
}

/// `coords` with the last one swizzled as `access` asks (unchanged without
/// a swizzle or for a single row).
static SmallVector<Value> swizzleCoords(OpBuilder &builder, Location loc,
                                        ArrayRef<Value> coords,
                                        const LinearLayout &layout,
                                        TileAccess access) {
  SmallVector<Value> result(coords.begin(), coords.end());
  const layout::TileSwizzle &swizzle = access.swizzle;
  size_t rank = coords.size();
  if (swizzle.chunk == 0 || rank < 2)
    return result;
  int64_t chunksPerRow = layout.shape().back() / swizzle.chunk;
  // swizzledColumn reduces the phase to the chunks of a row.
  int64_t maxPhase = std::min(swizzle.maxPhase, chunksPerRow);
  if (maxPhase <= 1)
    return result;
  Value phase = coords[rank - 2];
  if (swizzle.perPhase > 1)
    phase = LLVM::LShrOp::create(
        builder, loc, phase,
        emitI32Constant(builder, loc, llvm::Log2_64(swizzle.perPhase)));
  phase = LLVM::AndOp::create(builder, loc, phase,
                              emitI32Constant(builder, loc, maxPhase - 1));
  if (swizzle.chunk > 1)
    phase = LLVM::ShlOp::create(
        builder, loc, phase,
        emitI32Constant(builder, loc, llvm::Log2_64(swizzle.chunk)));
  result[rank - 1] = LLVM::XOrOp::create(builder, loc, coords[rank - 1], phase);
  return result;
}

namespace {
/// The registers' element pointers of one thread in a tile, computed per
/// register or, for an XOR-linear tile, from one thread offset (see the
/// file comment).
class TilePointers {
public:
  TilePointers(OpBuilder &builder, Location loc, Value base,
               const LinearLayout &layout, ThreadIndex thread, Type memoryType,
               TileAccess access)
      : builder(builder), loc(loc), base(base), layout(layout),
        memoryType(memoryType), access(access),
        strides(tileStrides(layout, access)),
        indices(emitIndices(builder, loc, layout, thread)) {
    layout::ScratchTile tile{layout.shape(), access.pad, access.swizzle};
    if (!tile.xorLinearBitOffsets())
      return;
    for (int64_t reg = 0; reg < layout.elemsPerThread(); ++reg)
      registerOffsets.push_back(tile.offset(layout.apply(reg, 0, 0)));
    for (layout::HwDim hw : {layout::HwDim::Lane, layout::HwDim::Warp})
      for (const std::vector<int64_t> &basis : layout.bases(hw))
        threadBits |= tile.offset(basis);
    threadOffset = elementOffset(0);
    pointersByOverlap[0] =
        LLVM::GEPOp::create(builder, loc, base.getType(), memoryType, base,
                            ValueRange{threadOffset});
  }

  /// The pointer to register `reg`'s element.
  Value operator[](int64_t reg) {
    if (registerOffsets.empty())
      return LLVM::GEPOp::create(builder, loc, base.getType(), memoryType, base,
                                 ValueRange{elementOffset(reg)});
    // T ^ R = (T ^ (R & threadBits)) + (R & ~threadBits): the first term
    // is shared by every register with the same overlap, the second is a
    // constant.
    int64_t offset = registerOffsets[reg];
    int64_t overlap = offset & threadBits;
    Value &pointer = pointersByOverlap[overlap];
    if (!pointer) {
      Value mixed = LLVM::XOrOp::create(builder, loc, threadOffset,
                                        emitI32Constant(builder, loc, overlap));
      pointer = LLVM::GEPOp::create(builder, loc, base.getType(), memoryType,
                                    base, ValueRange{mixed});
    }
    return LLVM::GEPOp::create(
        builder, loc, base.getType(), memoryType, pointer,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset & ~threadBits)});
  }

private:
  /// The element offset of register `reg` from its coordinates.
  Value elementOffset(int64_t reg) {
    SmallVector<Value> coords =
        swizzleCoords(builder, loc, indices[reg], layout, access);
    Value offset;
    for (int d = static_cast<int>(strides.size()) - 1; d >= 0; --d) {
      Value term = coords[d];
      if (strides[d] != 1)
        term = LLVM::MulOp::create(builder, loc, term,
                                   emitI32Constant(builder, loc, strides[d]));
      offset = offset
                   ? LLVM::AddOp::create(builder, loc, offset, term).getResult()
                   : term;
    }
    return offset;
  }

  OpBuilder &builder;
  Location loc;
  Value base;
  const LinearLayout &layout;
  Type memoryType;
  TileAccess access;
  std::vector<int64_t> strides;
  SmallVector<SmallVector<Value>> indices;
  std::vector<int64_t> registerOffsets; // empty: not XOR-linear
  int64_t threadBits = 0;
  Value threadOffset;
  /// base + (T ^ overlap) by overlap = R & threadBits.
  llvm::DenseMap<int64_t, Value> pointersByOverlap;
};
} // namespace

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

/// Stores `values` (consecutive registers, one vector of their count) at
/// `ptr` as elements of `memoryType`.
static void storeVector(OpBuilder &builder, Location loc, Value ptr,
                        ArrayRef<Value> values, Type memoryType) {
  int64_t vec = values.size(), bytes = elementBytes(memoryType);
  Value stored;
  if (vec == 1) {
    stored = toMemory(builder, loc, values[0], memoryType);
  } else {
    auto vectorType = VectorType::get({vec}, memoryType);
    stored = LLVM::UndefOp::create(builder, loc, vectorType);
    for (int64_t i = 0; i < vec; ++i)
      stored = LLVM::InsertElementOp::create(
          builder, loc, stored, toMemory(builder, loc, values[i], memoryType),
          LLVM::ConstantOp::create(builder, loc, builder.getI32Type(), i));
  }
  LLVM::StoreOp::create(builder, loc, stored, ptr, vec * bytes);
}

/// Loads `vec` consecutive elements of `memoryType` at `ptr` into `out`, as
/// values of `registerType`.
static void loadVector(OpBuilder &builder, Location loc, Value ptr, int64_t vec,
                       Type memoryType, Type registerType,
                       MutableArrayRef<Value> out) {
  int64_t bytes = elementBytes(memoryType);
  if (vec == 1) {
    Value loaded = LLVM::LoadOp::create(builder, loc, memoryType, ptr, bytes);
    out[0] = fromMemory(builder, loc, loaded, registerType);
    return;
  }
  auto vectorType = VectorType::get({vec}, memoryType);
  Value loaded = LLVM::LoadOp::create(builder, loc, vectorType, ptr, vec * bytes);
  for (int64_t i = 0; i < vec; ++i)
    out[i] = fromMemory(
        builder, loc,
        LLVM::ExtractElementOp::create(
            builder, loc, loaded,
            LLVM::ConstantOp::create(builder, loc, builder.getI32Type(), i)),
        registerType);
}

void tritium::storeTile(OpBuilder &builder, Location loc, Value base,
                        ArrayRef<Value> values, const LinearLayout &layout,
                        ThreadIndex thread, Type memoryType, Value predicate,
                        TileAccess access) {
  OpBuilder::InsertionGuard guard(builder);
  if (predicate) {
    auto ifOp = scf::IfOp::create(builder, loc, predicate,
                                  /*withElseRegion=*/false);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
  }
  TilePointers pointers(builder, loc, base, layout, thread, memoryType, access);
  SmallVector<int64_t> representative = getRepresentativeRegisters(layout);
  int64_t vec = vectorWidth(layout, memoryType, access);
  for (int64_t reg = 0; reg < layout.elemsPerThread(); reg += vec) {
    if (representative[reg] != reg)
      continue; // another register of this thread stores the same elements
    storeVector(builder, loc, pointers[reg], values.slice(reg, vec),
                memoryType);
  }
}

SmallVector<Value> tritium::loadTile(OpBuilder &builder, Location loc,
                                     Value base, const LinearLayout &layout,
                                     ThreadIndex thread, Type memoryType,
                                     Type registerType, TileAccess access) {
  TilePointers pointers(builder, loc, base, layout, thread, memoryType, access);
  SmallVector<int64_t> representative = getRepresentativeRegisters(layout);
  int64_t vec = vectorWidth(layout, memoryType, access);
  int64_t count = layout.elemsPerThread();
  SmallVector<Value> values(count);
  for (int64_t reg = 0; reg < count; reg += vec) {
    if (representative[reg] != reg) {
      for (int64_t i = 0; i < vec; ++i)
        values[reg + i] = values[representative[reg + i]];
      continue;
    }
    loadVector(builder, loc, pointers[reg], vec, memoryType, registerType,
               MutableArrayRef<Value>(values).slice(reg, vec));
  }
  return values;
}

//===----------------------------------------------------------------------===//
// XOR-linear tiles
//===----------------------------------------------------------------------===//

XorLinearTilePointers::XorLinearTilePointers(OpBuilder &builder, Location loc,
                                             Value base,
                                             const LinearLayout &layout,
                                             ThreadIndex thread,
                                             Type memoryType,
                                             const XorLinearOffset &offset,
                                             ArrayRef<int64_t> origin)
    : builder(builder), loc(loc), base(base), memoryType(memoryType) {
  // offset(reg, lane, warp) = R[reg] ^ T(lane, warp), as for ScratchTile;
  // a sub-tile's origin is part of every R.
  for (int64_t reg = 0; reg < layout.elemsPerThread(); ++reg) {
    std::vector<int64_t> coord = layout.apply(reg, 0, 0);
    for (size_t d = 0; d < origin.size() && d < coord.size(); ++d)
      coord[d] += origin[d];
    registerOffsets.push_back(offset(coord));
  }
  threadOffset = emitI32Constant(builder, loc, 0);
  for (auto [hw, index] : {std::pair{layout::HwDim::Lane, thread.lane},
                           std::pair{layout::HwDim::Warp, thread.warp}}) {
    const layout::BasisList &bases = layout.bases(hw);
    for (int bit = 0, e = static_cast<int>(bases.size()); bit < e; ++bit) {
      int64_t bitOffset = offset(bases[bit]);
      if (bitOffset == 0)
        continue;
      threadBits |= bitOffset;
      // T ^= bit ? bitOffset : 0, as (index >> bit & 1) * bitOffset.
      Value set = LLVM::AndOp::create(
          builder, loc,
          LLVM::LShrOp::create(builder, loc, index,
                               emitI32Constant(builder, loc, bit)),
          emitI32Constant(builder, loc, 1));
      Value term = LLVM::MulOp::create(builder, loc, set,
                                       emitI32Constant(builder, loc, bitOffset));
      threadOffset = LLVM::XOrOp::create(builder, loc, threadOffset, term);
    }
  }
}

int64_t XorLinearTilePointers::vectorWidth(int64_t maxElements) const {
  return layout::vectorWidth(registerOffsets, threadBits, maxElements);
}

SmallVector<SmallVector<int64_t, 4>>
XorLinearTilePointers::groupsByOffset(ArrayRef<int64_t> registers,
                                      int64_t maxElements) const {
  return layout::groupsByOffset(registerOffsets, threadBits, registers,
                                maxElements);
}

Value XorLinearTilePointers::pointer(int64_t reg) {
  int64_t overlap = registerOffsets[reg] & threadBits;
  Value &shared = pointersByOverlap[overlap];
  if (!shared) {
    Value mixed = overlap == 0
                      ? threadOffset
                      : LLVM::XOrOp::create(builder, loc, threadOffset,
                                            emitI32Constant(builder, loc, overlap))
                            .getResult();
    shared = LLVM::GEPOp::create(builder, loc, base.getType(), memoryType, base,
                                 ValueRange{mixed});
  }
  return LLVM::GEPOp::create(
      builder, loc, base.getType(), memoryType, shared,
      ArrayRef<LLVM::GEPArg>{
          static_cast<int32_t>(registerOffsets[reg] & ~threadBits)});
}

void tritium::storeXorLinearTile(OpBuilder &builder, Location loc, Value base,
                                 ArrayRef<Value> values,
                                 const LinearLayout &layout, ThreadIndex thread,
                                 Type memoryType,
                                 const XorLinearOffset &offset) {
  XorLinearTilePointers pointers(builder, loc, base, layout, thread,
                                 memoryType, offset);
  int64_t bytes = elementBytes(memoryType);
  int64_t vec = pointers.vectorWidth(16 / bytes);
  SmallVector<int64_t> representative = getRepresentativeRegisters(layout);
  for (int64_t reg = 0; reg < layout.elemsPerThread(); reg += vec) {
    if (representative[reg] != reg)
      continue;
    storeVector(builder, loc, pointers.pointer(reg), values.slice(reg, vec),
                memoryType);
  }
}

SmallVector<Value> tritium::loadXorLinearTile(OpBuilder &builder, Location loc,
                                              Value base,
                                              const LinearLayout &layout,
                                              ThreadIndex thread,
                                              Type memoryType,
                                              Type registerType,
                                              const XorLinearOffset &offset,
                                              ArrayRef<int64_t> origin) {
  XorLinearTilePointers pointers(builder, loc, base, layout, thread,
                                 memoryType, offset, origin);
  int64_t bytes = elementBytes(memoryType);
  int64_t maxVec = 16 / bytes;
  int64_t vec = pointers.vectorWidth(maxVec);
  SmallVector<int64_t> representative = getRepresentativeRegisters(layout);
  int64_t count = layout.elemsPerThread();
  SmallVector<Value> values(count);
  if (vec < maxVec) {
    // Consecutive elements that are not consecutive registers (a CUDA-core
    // dot operand's K values): one vector load for each group of registers
    // at consecutive aligned offsets, where its first register's load would
    // be: the loads NVPTX's load-store vectorizer would form from
    // per-register ones, without its search (Optimize.cpp).
    SmallVector<int64_t> registers;
    for (int64_t reg = 0; reg < count; ++reg)
      if (representative[reg] == reg)
        registers.push_back(reg);
    for (ArrayRef<int64_t> group : pointers.groupsByOffset(registers, maxVec)) {
      SmallVector<Value> loaded(group.size());
      loadVector(builder, loc, pointers.pointer(group.front()), group.size(),
                 memoryType, registerType, loaded);
      for (auto [reg, value] : llvm::zip(group, loaded))
        values[reg] = value;
    }
    for (int64_t reg = 0; reg < count; ++reg)
      if (representative[reg] != reg)
        values[reg] = values[representative[reg]];
    return values;
  }
  for (int64_t reg = 0; reg < count; reg += vec) {
    if (representative[reg] != reg) {
      for (int64_t i = 0; i < vec; ++i)
        values[reg + i] = values[representative[reg + i]];
      continue;
    }
    loadVector(builder, loc, pointers.pointer(reg), vec, memoryType,
               registerType, MutableArrayRef<Value>(values).slice(reg, vec));
  }
  return values;
}

bool tritium::subTileOriginIsAligned(ArrayRef<int64_t> shape,
                                     ArrayRef<int64_t> origin) {
  if (shape.size() != origin.size())
    return false;
  for (auto [extent, start] : llvm::zip(shape, origin))
    if (extent <= 0 || start < 0 ||
        start % static_cast<int64_t>(llvm::PowerOf2Ceil(extent)) != 0)
      return false;
  return true;
}

XorLinearOffset tritium::getSharedTileOffset(Attribute encoding,
                                             ArrayRef<int64_t> shape) {
  std::vector<int64_t> dims(shape.begin(), shape.end());
  if (auto nvmma = dyn_cast<ttg::NvmmaSharedEncodingAttr>(encoding)) {
    layout::NvmmaSharedSpec spec = nvmma.toSpec();
    return [spec, dims](const std::vector<int64_t> &coord) {
      return layout::nvmmaOffset(spec, dims, coord);
    };
  }
  if (auto swizzled = dyn_cast<ttg::SwizzledSharedEncodingAttr>(encoding)) {
    layout::SwizzleSpec spec = swizzled.toSpec();
    return [spec, dims](const std::vector<int64_t> &coord) {
      return layout::swizzledOffset(spec, dims, coord);
    };
  }
  return nullptr;
}
