//===- MemoryOpsToHost.cpp - pointers, loads, stores, gather, atomics ----===//
//
// convert-tt-to-host-llvm's patterns for memory: `tt.addptr` (a GEP),
// loads and stores (one masked vector access per contiguous row, else
// masked gathers and scatters; beyond 1024 lanes the rows, and beyond 64
// lanes the gathers in chunks of 16, in loops), `tt.gather` (from a stack
// copy of its source) and atomics (host atomics, element by element under
// the mask).
//
//===----------------------------------------------------------------------===//
#include "HostLowering.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"

using namespace mlir;
namespace tt = tritium::tt;
using namespace tritium::cpu;

namespace {

// -- memory -----------------------------------------------------------------

/// The element type a pointer to `pointee` reads and writes (i1 and fp8 as
/// bytes).
Type memoryType(Type pointee, OpBuilder &b) {
  auto fp = dyn_cast<FloatType>(pointee);
  return pointee.isInteger(1) || (fp && fp.getWidth() == 8) ? b.getI8Type() : pointee;
}

/// What a pointer, or a tensor of pointers, points to.
Type pointeeOf(Type ptrLike) {
  if (auto tensor = dyn_cast<RankedTensorType>(ptrLike))
    ptrLike = tensor.getElementType();
  return cast<tt::PointerType>(ptrLike).getPointeeType();
}

/// Gathers and scatters of more than this many elements run in a loop over
/// chunks of kGatherChunk lanes: a gather of 1024 halves is otherwise 1024
/// scalar loads in one block, which the host's code generator takes
/// seconds over.
constexpr int64_t kWholeGatherLimit = 64;
constexpr int64_t kGatherChunk = 16;

/// Stack copies of the pointers and the mask (as bytes) of an access of `n`
/// lanes, for chunked gathers and scatters.
struct LaneCopies {
  Value ptrs, mask;
};
LaneCopies copyLanes(OpBuilder &b, Location loc, Value ptrs, Value mask, int64_t n) {
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  Value zero = i32Constant(b, loc, 0);
  LaneCopies copies{entryAlloca(b, loc, ptr, n), entryAlloca(b, loc, b.getI8Type(), n)};
  storeElements(b, loc, ptrs, copies.ptrs, zero);
  storeElements(b, loc, arith::ExtUIOp::create(b, loc, VectorType::get({n}, b.getI8Type()), mask), copies.mask,
                zero);
  return copies;
}

/// Lanes [first, first + lanes) of a stack copy of a mask (bytes), as i1
/// lanes.
Value maskOf(OpBuilder &b, Location loc, Value maskCopy, Value first, int64_t lanes) {
  Value bytes = asVector(b, loc, loadElements(b, loc, maskCopy, b.getI8Type(), first, lanes));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, bytes, zeroOf(b, loc, bytes.getType()));
}

/// Lanes [first, first + kGatherChunk) of the copies: pointers and mask.
std::pair<Value, Value> chunkOf(OpBuilder &b, Location loc, const LaneCopies &copies, Value first) {
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  return {loadElements(b, loc, copies.ptrs, ptr, first, kGatherChunk), maskOf(b, loc, copies.mask, first, kGatherChunk)};
}

/// A masked load of `type`'s lanes in a loop over groups of `step` lanes,
/// through stack copies of the pointers, mask, `other` and the result:
/// `loadGroup` loads the group from lane `first` (its `other` lanes given).
Value loadInGroups(OpBuilder &b, Location loc, VectorType type, int64_t step, Value ptrs, Value mask, Value other,
                   llvm::function_ref<Value(OpBuilder &, const LaneCopies &, Value first, Value groupOther)> loadGroup) {
  int64_t n = type.getNumElements();
  Type element = type.getElementType();
  Value zero = i32Constant(b, loc, 0);
  LaneCopies copies = copyLanes(b, loc, ptrs, mask, n);
  Value others = entryAlloca(b, loc, element, n), result = entryAlloca(b, loc, element, n);
  storeElements(b, loc, other, others, zero);
  scf::ForOp::create(b, loc, zero, i32Constant(b, loc, n), i32Constant(b, loc, step), ValueRange{},
                     [&](OpBuilder &lb, Location, Value first, ValueRange) {
                       Value groupOther = asVector(lb, loc, loadElements(lb, loc, others, element, first, step));
                       storeElements(lb, loc, loadGroup(lb, copies, first, groupOther), result, first);
                       scf::YieldOp::create(lb, loc);
                     });
  Value loaded = loadElements(b, loc, result, element, zero, n);
  endLifetimes(b, loc, {copies.ptrs, copies.mask, others, result});
  return loaded;
}

/// A masked store of `value` in a loop over groups of `step` lanes, through
/// stack copies of the pointers, mask and value: `storeGroup` stores the
/// group from lane `first`.
void storeInGroups(OpBuilder &b, Location loc, Value value, int64_t step, Value ptrs, Value mask,
                   llvm::function_ref<void(OpBuilder &, const LaneCopies &, Value first, Value group)> storeGroup) {
  auto type = cast<VectorType>(value.getType());
  int64_t n = type.getNumElements();
  Type element = type.getElementType();
  Value zero = i32Constant(b, loc, 0);
  LaneCopies copies = copyLanes(b, loc, ptrs, mask, n);
  Value values = entryAlloca(b, loc, element, n);
  storeElements(b, loc, value, values, zero);
  scf::ForOp::create(b, loc, zero, i32Constant(b, loc, n), i32Constant(b, loc, step), ValueRange{},
                     [&](OpBuilder &lb, Location, Value first, ValueRange) {
                       Value group = asVector(lb, loc, loadElements(lb, loc, values, element, first, step));
                       storeGroup(lb, copies, first, group);
                       scf::YieldOp::create(lb, loc);
                     });
  endLifetimes(b, loc, {copies.ptrs, copies.mask, values});
}

/// A masked gather of `n` lanes (n a multiple of kGatherChunk) in a loop
/// over chunks.
Value chunkedGather(OpBuilder &b, Location loc, VectorType type, Value ptrs, Value mask, Value other,
                    unsigned align) {
  auto chunkType = VectorType::get({kGatherChunk}, type.getElementType());
  return loadInGroups(b, loc, type, kGatherChunk, ptrs, mask, other,
                      [&](OpBuilder &lb, const LaneCopies &copies, Value first, Value chunkOther) -> Value {
                        auto [chunkPtrs, chunkMask] = chunkOf(lb, loc, copies, first);
                        return LLVM::masked_gather::create(lb, loc, chunkType, chunkPtrs, chunkMask,
                                                           ValueRange{chunkOther}, lb.getI32IntegerAttr(align));
                      });
}

/// A masked scatter of `n` lanes (n a multiple of kGatherChunk) in a loop
/// over chunks.
void chunkedScatter(OpBuilder &b, Location loc, Value value, Value ptrs, Value mask, unsigned align) {
  storeInGroups(b, loc, value, kGatherChunk, ptrs, mask,
                [&](OpBuilder &lb, const LaneCopies &copies, Value first, Value chunk) {
                  auto [chunkPtrs, chunkMask] = chunkOf(lb, loc, copies, first);
                  LLVM::masked_scatter::create(lb, loc, chunk, chunkPtrs, chunkMask, lb.getI32IntegerAttr(align));
                });
}

/// Loads and stores of more than this many lanes by contiguous rows run in
/// a loop over the rows (through stack copies), not one access per row in
/// one block followed by the concatenation of the rows.
constexpr int64_t kWholeRowAccessLimit = 1024;

/// The first pointer of each row of `length` lanes of `ptrs` (`n` lanes):
/// one strided shufflevector, which LLVM narrows to the pointer arithmetic
/// of those lanes alone where `ptrs` is computed in the kernel.
Value rowBases(OpBuilder &b, Location loc, Value ptrs, int64_t n, int64_t length) {
  SmallVector<int32_t> firsts;
  for (int64_t first = 0; first < n; first += length)
    firsts.push_back(static_cast<int32_t>(first));
  return LLVM::ShuffleVectorOp::create(b, loc, ptrs, ptrs, firsts);
}

/// What an access by rows in a loop reads of its operands in each row:
/// the rows' first pointers (stack copy), and the mask and `other` lanes
/// from stack copies, or as constants when the whole mask is true and
/// `other` is zero (+0.0 for floats: an access without mask or `other`), so
/// that no copy of `n` lanes is made of those.
struct RowOperands {
  Value bases, masks, others; // (masks, others: null when constant)
  SmallVector<Value> copies;

  RowOperands(OpBuilder &b, Location loc, Value ptrs, Value mask, Value other, int64_t n, int64_t length) {
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    Value zero = i32Constant(b, loc, 0);
    bases = entryAlloca(b, loc, ptr, n / length);
    storeElements(b, loc, rowBases(b, loc, ptrs, n, length), bases, zero);
    copies.push_back(bases);
    if (!matchPattern(mask, m_One())) {
      masks = entryAlloca(b, loc, b.getI8Type(), n);
      storeElements(b, loc, arith::ExtUIOp::create(b, loc, VectorType::get({n}, b.getI8Type()), mask), masks, zero);
      copies.push_back(masks);
    }
    if (other && !matchPattern(other, m_Zero()) && !matchPattern(other, m_PosZeroFloat())) {
      Type element = getElementTypeOrSelf(other.getType());
      others = entryAlloca(b, loc, element, n);
      storeElements(b, loc, other, others, zero);
      copies.push_back(others);
    }
  }

  /// Row `row`'s first pointer, its lanes from `first`: mask and `other`.
  Value base(OpBuilder &b, Location loc, Value row) const {
    return loadElements(b, loc, bases, LLVM::LLVMPointerType::get(b.getContext()), row, 1);
  }
  Value mask(OpBuilder &b, Location loc, Value first, int64_t length) const {
    return masks ? maskOf(b, loc, masks, first, length) : allTrue(b, loc, length);
  }
  Value other(OpBuilder &b, Location loc, VectorType rowType, Value first) const {
    if (!others)
      return zeroOf(b, loc, rowType);
    return asVector(b, loc, loadElements(b, loc, others, rowType.getElementType(), first, rowType.getNumElements()));
  }
};

/// A loop over the rows of an access of `n` lanes by rows of `length`:
/// `body` gets the row's index and its first lane (i32 values).
void forEachRow(OpBuilder &b, Location loc, int64_t n, int64_t length,
                llvm::function_ref<void(OpBuilder &, Value row, Value first)> body) {
  Value lengthValue = i32Constant(b, loc, length);
  scf::ForOp::create(b, loc, i32Constant(b, loc, 0), i32Constant(b, loc, n / length), i32Constant(b, loc, 1),
                     ValueRange{}, [&](OpBuilder &lb, Location, Value row, ValueRange) {
                       body(lb, row, arith::MulIOp::create(lb, loc, row, lengthValue));
                       scf::YieldOp::create(lb, loc);
                     });
}

/// A load of `n` lanes as rows of `length` contiguous elements, in a loop
/// over the rows: each row one masked vector load from its first lane's
/// pointer.
Value rowLoadsInLoop(OpBuilder &b, Location loc, VectorType type, int64_t length, Value ptrs, Value mask,
                     Value other, unsigned align) {
  int64_t n = type.getNumElements();
  Type element = type.getElementType();
  auto rowType = VectorType::get({length}, element);
  RowOperands rows(b, loc, ptrs, mask, other, n, length);
  Value result = entryAlloca(b, loc, element, n);
  forEachRow(b, loc, n, length, [&](OpBuilder &lb, Value row, Value first) {
    Value loaded = LLVM::MaskedLoadOp::create(lb, loc, rowType, rows.base(lb, loc, row),
                                              rows.mask(lb, loc, first, length), rows.other(lb, loc, rowType, first),
                                              lb.getI32IntegerAttr(align));
    storeElements(lb, loc, loaded, result, first);
  });
  Value loaded = loadElements(b, loc, result, element, i32Constant(b, loc, 0), n);
  SmallVector<Value> copies = rows.copies;
  copies.push_back(result);
  endLifetimes(b, loc, copies);
  return loaded;
}

/// A store of `value` as rows of `length` contiguous elements, in a loop
/// over the rows: each row one masked vector store to its first lane's
/// pointer.
void rowStoresInLoop(OpBuilder &b, Location loc, Value value, int64_t length, Value ptrs, Value mask,
                     unsigned align) {
  auto type = cast<VectorType>(value.getType());
  int64_t n = type.getNumElements();
  Type element = type.getElementType();
  RowOperands rows(b, loc, ptrs, mask, Value(), n, length);
  Value values = entryAlloca(b, loc, element, n);
  storeElements(b, loc, value, values, i32Constant(b, loc, 0));
  forEachRow(b, loc, n, length, [&](OpBuilder &lb, Value row, Value first) {
    Value part = asVector(lb, loc, loadElements(lb, loc, values, element, first, length));
    LLVM::MaskedStoreOp::create(lb, loc, part, rows.base(lb, loc, row), rows.mask(lb, loc, first, length),
                                lb.getI32IntegerAttr(align));
  });
  SmallVector<Value> copies = rows.copies;
  copies.push_back(values);
  endLifetimes(b, loc, copies);
}

/// Whether an access of `n` lanes gathers or scatters in a loop over chunks.
bool gathersInChunks(int64_t n) { return n > kWholeGatherLimit && n % kGatherChunk == 0; }

struct AddPtrConversion : OpConversionPattern<tt::AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::AddPtrOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type result = getTypeConverter()->convertType(op.getType());
    Type element = memoryType(pointeeOf(op.getType()), rewriter);
    rewriter.replaceOpWithNewOp<LLVM::GEPOp>(op, result, element, adaptor.getPtr(),
                                             ValueRange{adaptor.getOffset()});
    return success();
  }
};

LogicalResult refuseBlockPointers(Operation *op, Value ptr, ConversionPatternRewriter &rewriter) {
  if (tt::isTensorPointerType(ptr.getType()))
    return rewriter.notifyMatchFailure(op, "block pointers reach the host lowering rewritten to pointers");
  return success();
}

struct LoadConversion : OpConversionPattern<tt::LoadOp> {
  LoadConversion(const TypeConverter &converter, MLIRContext *ctx, const ContiguousRows &rows)
      : OpConversionPattern(converter, ctx), rows(rows) {}
  const ContiguousRows &rows;
  LogicalResult matchAndRewrite(tt::LoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (failed(refuseBlockPointers(op, op.getPtr(), rewriter)))
      return failure();
    Location loc = op.getLoc();
    int64_t n = numElements(op.getType());
    Type pointee = pointeeOf(op.getPtr().getType());
    auto memType = VectorType::get({n}, memoryType(pointee, rewriter));
    Value ptrs = asVector(rewriter, loc, adaptor.getPtr());
    Value mask = adaptor.getMask() ? asVector(rewriter, loc, adaptor.getMask()) : allTrue(rewriter, loc, n);
    Value other = adaptor.getOther() ? asVector(rewriter, loc, adaptor.getOther()) : zeroOf(rewriter, loc, memType);
    if (pointee.isInteger(1) && adaptor.getOther())
      other = arith::ExtUIOp::create(rewriter, loc, memType, other);
    unsigned align = std::max(1u, memType.getElementType().getIntOrFloatBitWidth() / 8);
    Value loaded;
    if (auto row = rows.find(op); row != rows.end() && n > kWholeRowAccessLimit && n > row->second) {
      loaded = rowLoadsInLoop(rewriter, loc, memType, row->second, ptrs, mask, other, align);
    } else if (row != rows.end()) {
      int64_t length = row->second;
      auto rowType = VectorType::get({length}, memType.getElementType());
      SmallVector<Value> parts;
      for (int64_t first = 0; first < n; first += length) {
        Value address = LLVM::ExtractElementOp::create(rewriter, loc, ptrs, i32Constant(rewriter, loc, first));
        parts.push_back(LLVM::MaskedLoadOp::create(
            rewriter, loc, rowType, address, slice(rewriter, loc, mask, first, length),
            slice(rewriter, loc, other, first, length), rewriter.getI32IntegerAttr(align)));
      }
      loaded = concatenate(rewriter, loc, parts);
    } else if (gathersInChunks(n)) {
      loaded = chunkedGather(rewriter, loc, memType, ptrs, mask, other, align);
    } else {
      loaded = LLVM::masked_gather::create(rewriter, loc, memType, ptrs, mask, ValueRange{other},
                                           rewriter.getI32IntegerAttr(align));
    }
    if (pointee.isInteger(1))
      loaded = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, loaded,
                                     zeroOf(rewriter, loc, memType));
    rewriter.replaceOp(op, fromVector(rewriter, loc, loaded, getTypeConverter()->convertType(op.getType())));
    return success();
  }
};

struct StoreConversion : OpConversionPattern<tt::StoreOp> {
  StoreConversion(const TypeConverter &converter, MLIRContext *ctx, const ContiguousRows &rows)
      : OpConversionPattern(converter, ctx), rows(rows) {}
  const ContiguousRows &rows;
  LogicalResult matchAndRewrite(tt::StoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (failed(refuseBlockPointers(op, op.getPtr(), rewriter)))
      return failure();
    Location loc = op.getLoc();
    int64_t n = numElements(op.getValue().getType());
    Type pointee = pointeeOf(op.getPtr().getType());
    Value ptrs = asVector(rewriter, loc, adaptor.getPtr());
    Value value = asVector(rewriter, loc, adaptor.getValue());
    if (pointee.isInteger(1))
      value = arith::ExtUIOp::create(rewriter, loc, VectorType::get({n}, rewriter.getI8Type()), value);
    Value mask = adaptor.getMask() ? asVector(rewriter, loc, adaptor.getMask()) : allTrue(rewriter, loc, n);
    unsigned align = std::max(1u, cast<VectorType>(value.getType()).getElementType().getIntOrFloatBitWidth() / 8);
    if (auto row = rows.find(op); row != rows.end() && n > kWholeRowAccessLimit && n > row->second) {
      rowStoresInLoop(rewriter, loc, value, row->second, ptrs, mask, align);
    } else if (row != rows.end()) {
      int64_t length = row->second;
      for (int64_t first = 0; first < n; first += length) {
        Value address = LLVM::ExtractElementOp::create(rewriter, loc, ptrs, i32Constant(rewriter, loc, first));
        LLVM::MaskedStoreOp::create(rewriter, loc, slice(rewriter, loc, value, first, length), address,
                                    slice(rewriter, loc, mask, first, length), rewriter.getI32IntegerAttr(align));
      }
    } else if (gathersInChunks(n)) {
      chunkedScatter(rewriter, loc, value, ptrs, mask, align);
    } else {
      LLVM::masked_scatter::create(rewriter, loc, value, ptrs, mask, rewriter.getI32IntegerAttr(align));
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// tt.gather along `axis`: the source goes to a stack slot and each result
/// element loads src[..., indices[i], ...], one gather through pointers
/// base + indices * stride(axis) + (i's offset with its axis index zeroed).
struct GatherConversion : OpConversionPattern<tt::GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::GatherOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ArrayRef<int64_t> srcShape = op.getSrc().getType().getShape();
    ArrayRef<int64_t> shape = op.getType().getShape();
    unsigned axis = op.getAxis();
    SmallVector<int64_t> srcStrides = stridesOf(srcShape);
    int64_t n = op.getType().getNumElements();
    SmallVector<int32_t> base;
    for (int64_t i = 0; i < n; ++i) {
      SmallVector<int64_t> index = unflatten(i, shape);
      int64_t offset = 0;
      for (size_t d = 0; d < shape.size(); ++d)
        offset += (d == axis ? 0 : index[d]) * srcStrides[d];
      base.push_back(static_cast<int32_t>(offset));
    }
    auto srcType = cast<VectorType>(adaptor.getSrc().getType());
    auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
    Value slot = entryAlloca(rewriter, loc, srcType.getElementType(), srcType.getNumElements());
    storeElements(rewriter, loc, adaptor.getSrc(), slot, i32Constant(rewriter, loc, 0));
    auto i32s = VectorType::get({n}, rewriter.getI32Type());
    Value indices = adaptor.getIndices();
    if (getElementTypeOrSelf(indices.getType()) != rewriter.getI32Type())
      indices = arith::TruncIOp::create(rewriter, loc, i32s, indices);  // (an index is below the axis length)
    Value strideAxis = arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(i32s, static_cast<int32_t>(srcStrides[axis])));
    Value offsets = arith::AddIOp::create(
        rewriter, loc, arith::MulIOp::create(rewriter, loc, indices, strideAxis),
        arith::ConstantOp::create(rewriter, loc, DenseElementsAttr::get(i32s, ArrayRef<int32_t>(base))));
    Value ptrs = LLVM::GEPOp::create(rewriter, loc, VectorType::get({n}, ptr), srcType.getElementType(),
                                     splat(rewriter, loc, slot, n), ValueRange{offsets});
    auto resultType = VectorType::get({n}, srcType.getElementType());
    unsigned align = std::max(1u, srcType.getElementType().getIntOrFloatBitWidth() / 8);
    Value gathered = LLVM::masked_gather::create(rewriter, loc, resultType, ptrs, allTrue(rewriter, loc, n),
                                                 ValueRange{}, rewriter.getI32IntegerAttr(align));
    endLifetimes(rewriter, loc, {slot});
    rewriter.replaceOp(op, gathered);
    return success();
  }
};


// -- atomics ------------------------------------------------------------------

LLVM::AtomicOrdering ordering(tt::MemSemantic sem) {
  switch (sem) {
  case tt::MemSemantic::RELAXED:
    return LLVM::AtomicOrdering::monotonic;
  case tt::MemSemantic::ACQUIRE:
    return LLVM::AtomicOrdering::acquire;
  case tt::MemSemantic::RELEASE:
    return LLVM::AtomicOrdering::release;
  default:
    return LLVM::AtomicOrdering::acq_rel;
  }
}

/// The result of an atomic on `n` elements (a vector, or the scalar when
/// the op is scalar): element i is `atomic(b, i)` where `enabled(b, i)`
/// holds, else zero, one element after another in an scf.for (host atomics
/// are scalar).
Value perElement(ConversionPatternRewriter &rewriter, Location loc, int64_t n, Type element, bool scalar,
                 function_ref<Value(OpBuilder &, Value)> enabled, function_ref<Value(OpBuilder &, Value)> atomic) {
  auto one = [&](OpBuilder &b, Value index) -> Value {
    auto guarded = scf::IfOp::create(
        b, loc, enabled(b, index),
        [&](OpBuilder &t, Location) { scf::YieldOp::create(t, loc, atomic(t, index)); },
        [&](OpBuilder &e, Location) { scf::YieldOp::create(e, loc, zeroOf(e, loc, element)); });
    return guarded.getResult(0);
  };
  if (scalar)
    return one(rewriter, i32Constant(rewriter, loc, 0));
  auto type = VectorType::get({n}, element);
  Value init = LLVM::PoisonOp::create(rewriter, loc, type);
  auto loop = scf::ForOp::create(
      rewriter, loc, i32Constant(rewriter, loc, 0), i32Constant(rewriter, loc, n), i32Constant(rewriter, loc, 1),
      ValueRange{init}, [&](OpBuilder &b, Location, Value index, ValueRange carried) {
        Value value = one(b, index);
        scf::YieldOp::create(b, loc, Value(LLVM::InsertElementOp::create(b, loc, carried[0], value, index)));
      });
  return loop.getResult(0);
}

/// Element `index` of `v` (a vector), or `v` itself (a scalar).
Value elementAt(OpBuilder &b, Location loc, Value v, Value index) {
  return isa<VectorType>(v.getType()) ? Value(LLVM::ExtractElementOp::create(b, loc, v, index)) : v;
}

struct AtomicRMWConversion : OpConversionPattern<tt::AtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::AtomicRMWOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type element = getElementTypeOrSelf(op.getVal().getType());
    bool isFloat = isa<FloatType>(element);
    LLVM::AtomicBinOp kind;
    switch (op.getAtomicRmwOp()) {
    case tt::RMWOp::AND: kind = LLVM::AtomicBinOp::_and; break;
    case tt::RMWOp::OR: kind = LLVM::AtomicBinOp::_or; break;
    case tt::RMWOp::XOR: kind = LLVM::AtomicBinOp::_xor; break;
    case tt::RMWOp::ADD: kind = LLVM::AtomicBinOp::add; break;
    case tt::RMWOp::FADD: kind = LLVM::AtomicBinOp::fadd; break;
    case tt::RMWOp::MAX: kind = isFloat ? LLVM::AtomicBinOp::fmax : LLVM::AtomicBinOp::max; break;
    case tt::RMWOp::MIN: kind = isFloat ? LLVM::AtomicBinOp::fmin : LLVM::AtomicBinOp::min; break;
    case tt::RMWOp::UMAX: kind = LLVM::AtomicBinOp::umax; break;
    case tt::RMWOp::UMIN: kind = LLVM::AtomicBinOp::umin; break;
    case tt::RMWOp::XCHG: kind = LLVM::AtomicBinOp::xchg; break;
    }
    LLVM::AtomicOrdering order = ordering(op.getSem());
    Value ptr = adaptor.getPtr(), val = adaptor.getVal(), mask = adaptor.getMask();
    Value result = perElement(
        rewriter, loc, numElements(op.getType()), element, !isa<RankedTensorType>(op.getType()),
        [&](OpBuilder &b, Value i) -> Value {
          return mask ? elementAt(b, loc, mask, i) : Value(arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
        },
        [&](OpBuilder &b, Value i) -> Value {
          return LLVM::AtomicRMWOp::create(b, loc, kind, elementAt(b, loc, ptr, i), elementAt(b, loc, val, i),
                                           order);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct AtomicCASConversion : OpConversionPattern<tt::AtomicCASOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::AtomicCASOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type element = getElementTypeOrSelf(op.getVal().getType());
    if (!element.isIntOrIndex())
      return rewriter.notifyMatchFailure(op, "atomic compare-and-swap of integers only");
    LLVM::AtomicOrdering onSuccess = ordering(op.getSem());
    LLVM::AtomicOrdering onFailure = onSuccess == LLVM::AtomicOrdering::release   ? LLVM::AtomicOrdering::monotonic
                                     : onSuccess == LLVM::AtomicOrdering::acq_rel ? LLVM::AtomicOrdering::acquire
                                                                                  : onSuccess;
    Value ptr = adaptor.getPtr(), cmp = adaptor.getCmp(), val = adaptor.getVal();
    Value result = perElement(
        rewriter, loc, numElements(op.getType()), element, !isa<RankedTensorType>(op.getType()),
        [&](OpBuilder &b, Value) -> Value { return arith::ConstantOp::create(b, loc, b.getBoolAttr(true)); },
        [&](OpBuilder &b, Value i) -> Value {
          auto pair = LLVM::AtomicCmpXchgOp::create(b, loc, elementAt(b, loc, ptr, i), elementAt(b, loc, cmp, i),
                                                    elementAt(b, loc, val, i), onSuccess, onFailure);
          return LLVM::ExtractValueOp::create(b, loc, pair, ArrayRef<int64_t>{0});
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};


} // namespace

void tritium::cpu::populateMemoryOpsToHostPatterns(const TypeConverter &types, RewritePatternSet &patterns,
                                                   const ContiguousRows &rows) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<LoadConversion, StoreConversion>(types, ctx, rows);
  patterns.add<AddPtrConversion, GatherConversion, AtomicRMWConversion, AtomicCASConversion>(types, ctx);
}
