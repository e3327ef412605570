//===- HostLowering.cpp - shared by the CPU target's lowering -------------===//
//
// The type conversion, the flat-vector helpers (shuffles, splats, slices,
// concatenation) and the contiguous-row analysis (HostLowering.h).
//
//===----------------------------------------------------------------------===//
#include "HostLowering.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringExtras.h"

#include "tritium/Analysis/AxisInfo.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"

using namespace mlir;
namespace tt = tritium::tt;
using namespace tritium::cpu;

int64_t tritium::cpu::numElements(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getNumElements();
  return 1;
}

/// Row-major strides of `shape`.
SmallVector<int64_t> tritium::cpu::stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

/// The multi-index of flat position `flat` in `shape`.
SmallVector<int64_t> tritium::cpu::unflatten(int64_t flat, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> index(shape.size());
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    index[i] = flat % shape[i];
    flat /= shape[i];
  }
  return index;
}

/// Tensors to flat vectors, Triton pointers to LLVM pointers; a pointer to
/// i1 reads and writes bytes, as Triton's `*i1` does.
HostTypeConverter::HostTypeConverter(MLIRContext *ctx) {
    addConversion([](Type type) { return type; });
    // fp8 values are their bits (LLVM has no fp8 type): conversions decode
    // and encode them (TensorOpsToHost.cpp)
    addConversion([ctx](FloatType type) -> Type {
      return type.getWidth() == 8 ? Type(IntegerType::get(ctx, 8)) : Type(type);
    });
    addConversion([ctx](tt::PointerType) -> Type { return LLVM::LLVMPointerType::get(ctx); });
    // A host tensor descriptor argument: Triton IR passes its base, shape
    // and strides as arguments of their own, and the front end reaches the
    // blocks through pointers on targets without a copy engine, so the
    // descriptor itself is an unused (null) pointer here.
    addConversion([ctx](tt::TensorDescType) -> Type { return LLVM::LLVMPointerType::get(ctx); });
    addConversion([this](RankedTensorType type) -> std::optional<Type> {
      Type element = convertType(type.getElementType());
      if (!element)
        return std::nullopt;
      return VectorType::get({type.getNumElements()}, element);
    });
    auto materialize = [](OpBuilder &b, Type type, ValueRange inputs, Location loc) -> Value {
      return UnrealizedConversionCastOp::create(b, loc, type, inputs).getResult(0);
    };
    addSourceMaterialization(materialize);
    addTargetMaterialization(materialize);
}

bool tritium::cpu::hasTensorType(Operation *op) {
  auto converted = [](Type t) {
    auto fp = dyn_cast<FloatType>(getElementTypeOrSelf(t));
    return isa<RankedTensorType>(t) || (fp && fp.getWidth() == 8);
  };
  return llvm::any_of(op->getOperandTypes(), converted) || llvm::any_of(op->getResultTypes(), converted);
}

Value tritium::cpu::i32Constant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(static_cast<int32_t>(v)));
}

/// The alignment of one element of `element` in host memory.
static unsigned elementAlignment(Type element) {
  if (isa<LLVM::LLVMPointerType>(element))
    return 8; // (a 64-bit host)
  return std::max(1u, element.getIntOrFloatBitWidth() / 8);
}

/// Shuffles of more than this many result lanes (not runs of consecutive
/// lanes, nor splats) go through memory in a loop (shuffleThroughMemory)
/// when they read more than kWholeShuffleSource lanes too: the host's code
/// generator splits a shufflevector into register-sized pieces, each
/// looking at every register of the source, and takes seconds over one of
/// 4096 lanes from 2048 (a sort network's broadcasts) or a permutation of
/// 4096 lanes.  Broadcasts from fewer lanes stay one shufflevector, which
/// runs faster (a [1, 128] bias over [64, 128] tiles: half the time).
static constexpr int64_t kWholeShuffleLimit = 1024;
static constexpr int64_t kWholeShuffleSource = 1024;
static constexpr int64_t kShuffleChunk = 16;

/// The address of a constant i32 array holding `mask`, a module global
/// named by the mask's hash (equal masks share it).
static Value maskTable(OpBuilder &b, Location loc, ArrayRef<int32_t> mask) {
  auto module = b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  auto type = RankedTensorType::get({static_cast<int64_t>(mask.size())}, b.getI32Type());
  auto value = DenseElementsAttr::get(type, mask);
  uint64_t hash = llvm::hash_combine_range(mask.begin(), mask.end());
  LLVM::GlobalOp global;
  for (int suffix = 0;; ++suffix) {
    std::string name = "__tritium_shuffle_" + llvm::utohexstr(hash) + "_" + std::to_string(suffix);
    global = module.lookupSymbol<LLVM::GlobalOp>(name);
    if (!global) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      global = LLVM::GlobalOp::create(b, loc, LLVM::LLVMArrayType::get(b.getI32Type(), mask.size()),
                                      /*isConstant=*/true, LLVM::Linkage::Internal, name, value,
                                      /*alignment=*/64);
      break;
    }
    if (global.getValueAttr() == value)
      break;
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}

/// result[i] = src[mask[i]] through memory: `src` is stored to the stack,
/// and a loop gathers kShuffleChunk lanes at a time by the indices of a
/// constant table into a stack result, loaded whole at the end.
static Value shuffleThroughMemory(OpBuilder &b, Location loc, Value src, ArrayRef<int32_t> mask) {
  auto srcType = cast<VectorType>(src.getType());
  Type element = srcType.getElementType();
  bool bits = element.isInteger(1); // (vectors of i1 go through memory as bytes)
  if (bits) {
    element = b.getI8Type();
    src = arith::ExtUIOp::create(b, loc, VectorType::get(srcType.getShape(), element), src);
  }
  int64_t n = static_cast<int64_t>(mask.size());
  Value zero = i32Constant(b, loc, 0);
  Value srcMem = entryAlloca(b, loc, element, srcType.getNumElements());
  Value result = entryAlloca(b, loc, element, n);
  storeElements(b, loc, src, srcMem, zero);
  Value table = maskTable(b, loc, mask);
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  unsigned align = elementAlignment(element);
  scf::ForOp::create(b, loc, zero, i32Constant(b, loc, n), i32Constant(b, loc, kShuffleChunk), ValueRange{},
                     [&](OpBuilder &lb, Location, Value first, ValueRange) {
                       Value indices = loadElements(lb, loc, table, lb.getI32Type(), first, kShuffleChunk);
                       Value ptrs = LLVM::GEPOp::create(lb, loc, VectorType::get({kShuffleChunk}, ptr), element,
                                                        splat(lb, loc, srcMem, kShuffleChunk),
                                                        ValueRange{indices});
                       auto chunkType = VectorType::get({kShuffleChunk}, element);
                       Value lanes = LLVM::masked_gather::create(lb, loc, chunkType, ptrs,
                                                                 allTrue(lb, loc, kShuffleChunk),
                                                                 ValueRange{LLVM::PoisonOp::create(lb, loc, chunkType)},
                                                                 lb.getI32IntegerAttr(align));
                       storeElements(lb, loc, lanes, result, first);
                       scf::YieldOp::create(lb, loc);
                     });
  Value shuffled = loadElements(b, loc, result, element, zero, n);
  endLifetimes(b, loc, {srcMem, result});
  if (bits)
    shuffled = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, shuffled, zeroOf(b, loc, shuffled.getType()));
  return shuffled;
}

/// `src` (a flat vector) rearranged by `mask`: result[i] = src[mask[i]].
Value tritium::cpu::shuffle(OpBuilder &b, Location loc, Value src, ArrayRef<int64_t> mask) {
  SmallVector<int32_t> m(mask.begin(), mask.end());
  int64_t n = static_cast<int64_t>(m.size());
  bool splatMask = llvm::all_equal(m);
  bool consecutive = true;
  for (int64_t i = 1; i < n && consecutive; ++i)
    consecutive = m[i] == m[i - 1] + 1;
  bool wideSource = cast<VectorType>(src.getType()).getNumElements() > kWholeShuffleSource;
  if (n > kWholeShuffleLimit && n % kShuffleChunk == 0 && wideSource && !splatMask && !consecutive &&
      b.getInsertionBlock() && b.getInsertionBlock()->getParentOp())
    return shuffleThroughMemory(b, loc, src, m);
  return LLVM::ShuffleVectorOp::create(b, loc, src, src, m);
}

/// A vector of `count` copies of scalar `value`.
Value tritium::cpu::splat(OpBuilder &b, Location loc, Value value, int64_t count) {
  auto type = VectorType::get({count}, value.getType());
  Value poison = LLVM::PoisonOp::create(b, loc, type);
  Value zero = i32Constant(b, loc, 0);
  Value one = LLVM::InsertElementOp::create(b, loc, poison, value, zero);
  return shuffle(b, loc, one, SmallVector<int64_t>(count, 0));
}

Value tritium::cpu::allTrue(OpBuilder &b, Location loc, int64_t count) {
  auto type = VectorType::get({count}, b.getI1Type());
  return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, true));
}

Value tritium::cpu::zeroOf(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
}


/// Elements [first, first + count) of flat vector `v`.
Value tritium::cpu::slice(OpBuilder &b, Location loc, Value v, int64_t first, int64_t count) {
  SmallVector<int64_t> mask;
  for (int64_t i = 0; i < count; ++i)
    mask.push_back(first + i);
  return shuffle(b, loc, v, mask);
}

/// The vectors `parts` (of equal length) one after another.
Value tritium::cpu::concatenate(OpBuilder &b, Location loc, SmallVector<Value> parts) {
  while (parts.size() > 1) {
    SmallVector<Value> joined;
    for (size_t i = 0; i + 1 < parts.size(); i += 2) {
      int64_t left = cast<VectorType>(parts[i].getType()).getNumElements();
      int64_t right = cast<VectorType>(parts[i + 1].getType()).getNumElements();
      SmallVector<int32_t> mask;
      for (int64_t k = 0; k < left + right; ++k)
        mask.push_back(static_cast<int32_t>(k));
      joined.push_back(LLVM::ShuffleVectorOp::create(b, loc, parts[i], parts[i + 1], mask));
    }
    if (parts.size() % 2)
      joined.push_back(parts.back());
    parts = std::move(joined);
  }
  return parts.front();
}

/// A scalar pointer or value as a one-element vector, or the vector itself.
Value tritium::cpu::asVector(OpBuilder &b, Location loc, Value v) {
  return isa<VectorType>(v.getType()) ? v : splat(b, loc, v, 1);
}

Value tritium::cpu::fromVector(OpBuilder &b, Location loc, Value v, Type want) {
  if (isa<VectorType>(want))
    return v;
  return LLVM::ExtractElementOp::create(b, loc, v, i32Constant(b, loc, 0));
}

Value tritium::cpu::entryAlloca(OpBuilder &b, Location loc, Type element, int64_t count) {
  Operation *function = b.getInsertionBlock()->getParentOp();
  while (function && !isa<FunctionOpInterface>(function))
    function = function->getParentOp();
  assert(function && "stack memory is allocated inside a function");
  Value alloca;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&function->getRegion(0).front());
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    alloca = LLVM::AllocaOp::create(b, loc, ptr, element, i32Constant(b, loc, count), /*alignment=*/64);
  }
  LLVM::LifetimeStartOp::create(b, loc, alloca);
  return alloca;
}

void tritium::cpu::endLifetimes(OpBuilder &b, Location loc, ValueRange allocas) {
  for (Value alloca : allocas)
    LLVM::LifetimeEndOp::create(b, loc, alloca);
}

Value tritium::cpu::elementAddress(OpBuilder &b, Location loc, Value base, Type element, Value index) {
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  return LLVM::GEPOp::create(b, loc, ptr, element, base, ValueRange{index});
}

Value tritium::cpu::loadElements(OpBuilder &b, Location loc, Value base, Type element, Value index,
                                 int64_t count) {
  Type type = count == 1 ? element : Type(VectorType::get({count}, element));
  return LLVM::LoadOp::create(b, loc, type, elementAddress(b, loc, base, element, index),
                              elementAlignment(element));
}

/// Stores of zero vectors of this many lanes or more are memsets: a store of
/// a 16384-lane zero vector (a 128x128 dot's accumulator) is otherwise
/// 2048 vector stores for the host's code generator to legalize.
static constexpr int64_t kMemsetLanes = 1024;

void tritium::cpu::storeElements(OpBuilder &b, Location loc, Value value, Value base, Value index) {
  Type element = getElementTypeOrSelf(value.getType());
  Value address = elementAddress(b, loc, base, element, index);
  auto vector = dyn_cast<VectorType>(value.getType());
  if (vector && vector.getNumElements() >= kMemsetLanes && element.isIntOrFloat() &&
      element.getIntOrFloatBitWidth() % 8 == 0 &&
      (matchPattern(value, m_Zero()) || matchPattern(value, m_PosZeroFloat()))) {
    int64_t bytes = vector.getNumElements() * (element.getIntOrFloatBitWidth() / 8);
    LLVM::MemsetOp::create(b, loc, address, LLVM::ConstantOp::create(b, loc, b.getI8Type(), 0),
                           LLVM::ConstantOp::create(b, loc, b.getI64Type(), bytes), /*isVolatile=*/false);
    return;
  }
  LLVM::StoreOp::create(b, loc, value, address, elementAlignment(element));
}

SmallVector<Value> tritium::cpu::inChunks(
    OpBuilder &b, Location loc, ValueRange inputs, TypeRange resultTypes, int64_t n, int64_t chunk,
    function_ref<SmallVector<Value>(OpBuilder &, ValueRange, TypeRange)> compute) {
  Type i8 = b.getI8Type();
  auto isBits = [](Type t) { return getElementTypeOrSelf(t).isInteger(1); };
  auto memElement = [&](Type t) { return isBits(t) ? i8 : getElementTypeOrSelf(t); };
  auto lanesOf = [&](Type t, int64_t lanes) -> Type { return VectorType::get({lanes}, getElementTypeOrSelf(t)); };
  Value zero = i32Constant(b, loc, 0);
  SmallVector<Value> inputMem, resultMem;
  for (Value input : inputs) {
    Value stored = isBits(input.getType()) ? arith::ExtUIOp::create(b, loc, lanesOf(i8, n), input) : input;
    inputMem.push_back(entryAlloca(b, loc, memElement(input.getType()), n));
    storeElements(b, loc, stored, inputMem.back(), zero);
  }
  for (Type t : resultTypes)
    resultMem.push_back(entryAlloca(b, loc, memElement(t), n));
  scf::ForOp::create(b, loc, zero, i32Constant(b, loc, n), i32Constant(b, loc, chunk), ValueRange{},
                     [&](OpBuilder &lb, Location, Value first, ValueRange) {
                       SmallVector<Value> chunks;
                       for (auto [input, mem] : llvm::zip(inputs, inputMem)) {
                         Value part = loadElements(lb, loc, mem, memElement(input.getType()), first, chunk);
                         if (isBits(input.getType()))
                           part = arith::TruncIOp::create(lb, loc, lanesOf(input.getType(), chunk), part);
                         chunks.push_back(part);
                       }
                       SmallVector<Type> chunkTypes;
                       for (Type t : resultTypes)
                         chunkTypes.push_back(lanesOf(t, chunk));
                       for (auto [result, mem] : llvm::zip(compute(lb, chunks, chunkTypes), resultMem)) {
                         if (isBits(result.getType()))
                           result = arith::ExtUIOp::create(lb, loc, lanesOf(i8, chunk), result);
                         storeElements(lb, loc, result, mem, first);
                       }
                       scf::YieldOp::create(lb, loc);
                     });
  SmallVector<Value> results;
  for (auto [mem, t] : llvm::zip(resultMem, resultTypes)) {
    Value whole = loadElements(b, loc, mem, memElement(t), zero, n);
    results.push_back(isBits(t) ? arith::TruncIOp::create(b, loc, t, whole).getResult() : whole);
  }
  endLifetimes(b, loc, inputMem);
  endLifetimes(b, loc, resultMem);
  return results;
}

ContiguousRows tritium::cpu::findContiguousRows(ModuleOp module) {
  ContiguousRows rows;
  tritium::ModuleAxisInfo axis(module);
  if (!axis.succeeded())
    return rows;
  module.walk([&](Operation *op) {
    Value ptr;
    if (auto load = dyn_cast<tt::LoadOp>(op))
      ptr = load.getPtr();
    else if (auto store = dyn_cast<tt::StoreOp>(op))
      ptr = store.getPtr();
    auto type = ptr ? dyn_cast<RankedTensorType>(ptr.getType()) : RankedTensorType();
    if (!type)
      return;
    unsigned last = type.getRank() - 1;
    int64_t length = type.getShape()[last];
    if (length > 1 && axis.getAxisInfo(ptr).getContiguity(last) >= length)
      rows[op] = length;
  });
  return rows;
}
