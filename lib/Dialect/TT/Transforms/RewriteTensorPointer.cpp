//===- RewriteTensorPointer.cpp - tt-rewrite-tensor-pointer ---------------===//
//
// Replaces block pointers (`!tt.ptr<tensor<...>>`, made by
// tt.make_tensor_ptr and moved by tt.advance) with what the rest of the
// compiler understands: tensors of pointers, masks and `other` values.
//
// Algorithm.  A block pointer is fully described by its parts:
//   base (!tt.ptr<T>), shape[r] (i64), strides[r] (i64), offsets[r] (i32)
// for a tile of rank r.  Each function body is walked once, in dominance
// order, keeping a map from every block-pointer value to its parts:
//
//   make_tensor_ptr  records its operands as the parts.
//   advance          records the source's parts with offsets_d + delta_d.
//   load / store     build, at the op, for each dimension d
//                      idx_d = ext(offset_d) + ext(make_range(0, S_d))   (i64)
//                    the pointers  splat(base) + sum_d bcast(idx_d * stride_d)
//                    and, for each d in boundaryCheck, the mask term
//                      0 <= idx_d < shape_d
//                    (1-D per dimension, then expand_dims + broadcast to the
//                    tile); `padding` becomes `other` (zero or NaN).
//   scf.for          is rebuilt with every block-pointer iteration argument
//                    expanded into its 1 + 3r parts (the body moves into the
//                    new loop); its scf.yield is expanded the same way.
//                    Parts that do not change become iteration arguments
//                    yielded unchanged, which canonicalize removes.
//   scf.if           is rebuilt likewise with expanded result types.
//
// On Hopper (compute-capability >= 90) some loads and stores go through the
// copy engine instead (BlockPointerTma.h decides which, on the IR before the
// rewrite): their block pointer's tt.make_tensor_ptr gets a
// tt.make_tensor_descriptor beside it, over the tensor's dimensions from
// slowest to fastest, and the access becomes
//   tt.descriptor_load %desc[offsets in that order]   (+ tt.trans back to
//   tt.descriptor_store %desc[...], tt.trans(value)      the tile's order)
// The descriptor is made on the first such access.  The block pointer's
// parts are carried all the same; canonicalize drops the ones no access uses.
//
// The ops that produced block pointers are erased at the end, users first.
// Anything else that touches a block pointer (function arguments and
// results, tt.call, cf branches, scf.while, select) is reported as an error
// at that op instead of being lowered wrongly.
//
//===----------------------------------------------------------------------===//
#include "BlockPointerTma.h"
#include "tritium/Dialect/TT/Transforms/Passes.h"
#include "tritium/Dialect/TT/Transforms/Transforms.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/RegionGraphTraits.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace tritium::tt {
#define GEN_PASS_DEF_TTREWRITETENSORPOINTERPASS
#include "tritium/Dialect/TT/Transforms/Passes.h.inc"
} // namespace tritium::tt

using namespace mlir;
using namespace tritium::tt;

namespace {
/// The tile type a block-pointer type points to.
RankedTensorType getTileType(Type blockPtr) {
  return cast<RankedTensorType>(cast<PointerType>(blockPtr).getPointeeType());
}

bool hasBlockPointer(TypeRange types) {
  return llvm::any_of(types, isTensorPointerType);
}

/// What a block pointer stands for.
struct BlockPointerParts {
  Value base;
  SmallVector<Value> shape;   // i64, one per tile dimension
  SmallVector<Value> strides; // i64
  SmallVector<Value> offsets; // i32

  /// The parts in the order loops and branches carry them.
  SmallVector<Value> flatten() const {
    SmallVector<Value> values{base};
    llvm::append_range(values, shape);
    llvm::append_range(values, strides);
    llvm::append_range(values, offsets);
    return values;
  }

  /// The inverse of flatten() for a tile of rank `rank`.
  static BlockPointerParts unflatten(ValueRange values, unsigned rank) {
    BlockPointerParts parts;
    parts.base = values[0];
    parts.shape.assign(values.begin() + 1, values.begin() + 1 + rank);
    parts.strides.assign(values.begin() + 1 + rank,
                         values.begin() + 1 + 2 * rank);
    parts.offsets.assign(values.begin() + 1 + 2 * rank,
                         values.begin() + 1 + 3 * rank);
    return parts;
  }

  /// The types of flatten() for a block pointer of type `type`.
  static SmallVector<Type> flatTypes(Type type) {
    RankedTensorType tile = getTileType(type);
    MLIRContext *context = type.getContext();
    SmallVector<Type> types{getBlockPointerBaseType(type)};
    types.append(2 * tile.getRank(), IntegerType::get(context, 64));
    types.append(tile.getRank(), IntegerType::get(context, 32));
    return types;
  }

  static unsigned flatSize(Type type) {
    return 1 + 3 * getTileType(type).getRank();
  }
};

/// Rewrites the block pointers of one function body.
class TensorPointerRewriter {
public:
  explicit TensorPointerRewriter(const BlockPointerTmaPlan &tma) : tma(tma) {}
  LogicalResult rewriteRegion(Region &region);
  /// Erases the ops that produced block pointers (all now unused).
  void eraseDeadOps();

private:
  LogicalResult rewriteOp(Operation *op);
  LogicalResult rewriteMakeTensorPtr(MakeTensorPtrOp op);
  LogicalResult rewriteAdvance(AdvanceOp op);
  LogicalResult rewriteLoad(LoadOp op);
  LogicalResult rewriteStore(StoreOp op);
  LogicalResult rewriteFor(scf::ForOp loop);
  LogicalResult rewriteIf(scf::IfOp ifOp);
  LogicalResult rewriteYield(scf::YieldOp yield);

  /// The parts of block pointer `value`, or an error at `user`.
  FailureOr<BlockPointerParts> lookup(Value value, Operation *user);
  /// `values` with every block pointer replaced by its parts.
  FailureOr<SmallVector<Value>> expand(ValueRange values, Operation *user);
  /// Records the parts of each block pointer in `oldValues`, taken from
  /// `newValues` (expanded as by expand()); other values are replaced.
  void mapExpanded(ValueRange oldValues, ValueRange newValues);

  /// Checks that a load/store's tile can be addressed element by element.
  LogicalResult checkTile(Operation *op, RankedTensorType tile);
  /// idx_d = offset_d + [0, S_d) in i64, one 1-D tensor per dimension.
  SmallVector<Value> buildIndices(OpBuilder &b, Location loc,
                                  const BlockPointerParts &parts,
                                  RankedTensorType tile);
  /// The tensor of element pointers of the tile.
  Value buildPointers(OpBuilder &b, Location loc,
                      const BlockPointerParts &parts, RankedTensorType tile,
                      ArrayRef<Value> indices);
  /// The in-bounds mask of the checked dimensions, or null if none.
  Value buildMask(OpBuilder &b, Location loc, const BlockPointerParts &parts,
                  RankedTensorType tile, ArrayRef<Value> indices,
                  ArrayRef<int32_t> boundaryCheck);

  /// The tensor descriptor of `op`'s block pointers, made beside it on
  /// first use.
  Value descriptorFor(MakeTensorPtrOp op);
  /// The TMA forms of a load and a store the plan sends to the copy engine.
  void rewriteLoadByTma(LoadOp op, MakeTensorPtrOp origin);
  void rewriteStoreByTma(StoreOp op, MakeTensorPtrOp origin);

  const BlockPointerTmaPlan &tma;
  DenseMap<Value, BlockPointerParts> pointers;
  /// tt.make_tensor_ptr -> the tensor descriptor made beside it.
  DenseMap<Operation *, Value> descriptors;
  SmallVector<Operation *> deadOps;
};

/// Widens 1-D `value` (dimension `dim` of the tile) to the tile's shape:
/// expand_dims to [1, .., S_dim, .., 1], then broadcast.
Value broadcastToTile(OpBuilder &b, Location loc, Value value, unsigned dim,
                      RankedTensorType tile) {
  unsigned rank = tile.getRank();
  if (rank == 1)
    return value;
  Type elem = cast<RankedTensorType>(value.getType()).getElementType();
  SmallVector<int64_t> shape{tile.getDimSize(dim)};
  for (unsigned i = 0; i < dim; ++i) {
    shape.insert(shape.begin(), 1);
    value = ExpandDimsOp::create(b, loc, RankedTensorType::get(shape, elem),
                                 value, 0u);
  }
  for (unsigned i = dim + 1; i < rank; ++i) {
    unsigned axis = shape.size();
    shape.push_back(1);
    value = ExpandDimsOp::create(b, loc, RankedTensorType::get(shape, elem),
                                 value, axis);
  }
  return BroadcastOp::create(b, loc, tile.clone(elem), value);
}
} // namespace

//===----------------------------------------------------------------------===//
// Walking
//===----------------------------------------------------------------------===//

LogicalResult TensorPointerRewriter::rewriteRegion(Region &region) {
  if (region.empty())
    return success();
  // Definitions before uses: reachable blocks in reverse post-order, then any
  // unreachable ones.
  SmallVector<Block *> blocks;
  llvm::SmallPtrSet<Block *, 8> seen;
  for (Block *block : llvm::ReversePostOrderTraversal<Block *>(&region.front()))
    if (seen.insert(block).second)
      blocks.push_back(block);
  for (Block &block : region)
    if (seen.insert(&block).second)
      blocks.push_back(&block);

  for (Block *block : blocks) {
    // Loops carrying block pointers were rebuilt before we get here, so a
    // block-pointer argument means an unstructured branch or a loop kind we
    // do not rewrite.
    for (BlockArgument arg : block->getArguments())
      if (isTensorPointerType(arg.getType()))
        return emitError(arg.getLoc())
               << "block pointers cannot be block arguments here; only "
                  "scf.for iteration arguments and scf.if results may "
                  "carry them";
    for (Operation &op : llvm::make_early_inc_range(*block))
      if (failed(rewriteOp(&op)))
        return failure();
  }
  return success();
}

LogicalResult TensorPointerRewriter::rewriteOp(Operation *op) {
  if (auto make = dyn_cast<MakeTensorPtrOp>(op))
    return rewriteMakeTensorPtr(make);
  if (auto advance = dyn_cast<AdvanceOp>(op))
    return rewriteAdvance(advance);
  if (auto load = dyn_cast<LoadOp>(op);
      load && isTensorPointerType(load.getPtr().getType()))
    return rewriteLoad(load);
  if (auto store = dyn_cast<StoreOp>(op);
      store && isTensorPointerType(store.getPtr().getType()))
    return rewriteStore(store);
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return rewriteFor(loop);
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return rewriteIf(ifOp);
  if (auto yield = dyn_cast<scf::YieldOp>(op))
    return rewriteYield(yield);

  if (hasBlockPointer(op->getOperandTypes()) ||
      hasBlockPointer(op->getResultTypes()))
    return op->emitError() << "'" << op->getName()
                           << "' on a block pointer is not supported by "
                              "tt-rewrite-tensor-pointer";
  for (Region &region : op->getRegions())
    if (failed(rewriteRegion(region)))
      return failure();
  return success();
}

void TensorPointerRewriter::eraseDeadOps() {
  // Every use of a dead op's results is by another dead op: drop those uses
  // first, then the order of erasure does not matter.
  for (Operation *op : deadOps)
    op->dropAllReferences();
  for (Operation *op : llvm::reverse(deadOps))
    op->erase();
  deadOps.clear();
}

FailureOr<BlockPointerParts> TensorPointerRewriter::lookup(Value value,
                                                           Operation *user) {
  auto it = pointers.find(value);
  if (it != pointers.end())
    return it->second;
  return user->emitError()
         << "cannot trace this block pointer back to tt.make_tensor_ptr";
}

FailureOr<SmallVector<Value>> TensorPointerRewriter::expand(ValueRange values,
                                                            Operation *user) {
  SmallVector<Value> expanded;
  for (Value value : values) {
    if (!isTensorPointerType(value.getType())) {
      expanded.push_back(value);
      continue;
    }
    FailureOr<BlockPointerParts> parts = lookup(value, user);
    if (failed(parts))
      return failure();
    llvm::append_range(expanded, parts->flatten());
  }
  return expanded;
}

void TensorPointerRewriter::mapExpanded(ValueRange oldValues,
                                        ValueRange newValues) {
  unsigned next = 0;
  for (Value old : oldValues) {
    if (!isTensorPointerType(old.getType())) {
      old.replaceAllUsesWith(newValues[next++]);
      continue;
    }
    unsigned size = BlockPointerParts::flatSize(old.getType());
    pointers[old] = BlockPointerParts::unflatten(
        newValues.slice(next, size), getTileType(old.getType()).getRank());
    next += size;
  }
}

//===----------------------------------------------------------------------===//
// Producers of block pointers
//===----------------------------------------------------------------------===//

LogicalResult TensorPointerRewriter::rewriteMakeTensorPtr(MakeTensorPtrOp op) {
  BlockPointerParts parts;
  parts.base = op.getBase();
  parts.shape.assign(op.getShape().begin(), op.getShape().end());
  parts.strides.assign(op.getStrides().begin(), op.getStrides().end());
  parts.offsets.assign(op.getOffsets().begin(), op.getOffsets().end());
  pointers[op.getResult()] = std::move(parts);
  deadOps.push_back(op);
  return success();
}

namespace {
/// Who makes sure a map's dimension or stride `value` is not negative (the
/// map's fields are unsigned): nobody needs to (a constant, which the plan
/// refused if negative, or a value zero-extended from a narrower type), the
/// launcher (a kernel argument, through sign extensions and truncations
/// that only undo them), or a check in the kernel (anything else).
struct SignGuard {
  enum { None, Launcher, Kernel } by;
  BlockArgument argument; // for Launcher
};

SignGuard signGuardOf(Value value) {
  while (true) {
    if (matchPattern(value, m_Constant()))
      return {SignGuard::None, {}};
    Operation *def = value.getDefiningOp();
    if (!def)
      break;
    if (isa<arith::ExtUIOp>(def))
      return {SignGuard::None, {}};
    if (auto ext = dyn_cast<arith::ExtSIOp>(def)) {
      value = ext.getIn();
      continue;
    }
    auto trunc = dyn_cast<arith::TruncIOp>(def);
    if (!trunc)
      return {SignGuard::Kernel, {}};
    // Only a truncation of a widened value of no more bits keeps its sign.
    unsigned bits = trunc.getType().getIntOrFloatBitWidth();
    Operation *widened = trunc.getIn().getDefiningOp();
    if (auto ext = dyn_cast_or_null<arith::ExtSIOp>(widened);
        ext && ext.getIn().getType().getIntOrFloatBitWidth() <= bits) {
      value = ext.getIn();
      continue;
    }
    if (auto ext = dyn_cast_or_null<arith::ExtUIOp>(widened);
        ext && ext.getIn().getType().getIntOrFloatBitWidth() < bits)
      return {SignGuard::None, {}};
    return {SignGuard::Kernel, {}};
  }
  auto arg = cast<BlockArgument>(value);
  if (!isa<FuncOp>(arg.getOwner()->getParentOp()) || !arg.getOwner()->isEntryBlock())
    return {SignGuard::Kernel, {}};
  return {SignGuard::Launcher, arg};
}
} // namespace

Value TensorPointerRewriter::descriptorFor(MakeTensorPtrOp op) {
  if (Value made = descriptors.lookup(op))
    return made;
  // The descriptor: the tensor's dimensions slowest first, its block the
  // tile's dimensions in that order; shapes are i32 in a descriptor.
  OpBuilder b(op);
  b.setInsertionPointAfter(op);
  Location loc = op.getLoc();
  RankedTensorType tile = getTileType(op.getResult().getType());
  SmallVector<int64_t> blockShape;
  SmallVector<Value> shape, strides;
  for (int32_t d : BlockPointerTmaPlan::descriptorDims(op)) {
    blockShape.push_back(tile.getDimSize(d));
    APInt size;
    if (matchPattern(op.getShape()[d], m_ConstantInt(&size)))
      shape.push_back(arith::ConstantIntOp::create(b, loc, size.getSExtValue(), 32));
    else
      shape.push_back(
          arith::TruncIOp::create(b, loc, b.getI32Type(), op.getShape()[d]));
    strides.push_back(op.getStrides()[d]);
  }
  auto descType = TensorDescType::get(
      op.getContext(),
      RankedTensorType::get(blockShape, tile.getElementType()));
  // The map holds dimensions and strides unsigned, where the pointer
  // lowering follows negative ones.  A kernel argument used as one is
  // marked (kNonNegativeArgAttrName) and checked by the launcher; any other
  // run-time value is checked in the kernel, which then stops with the rule
  // at the user's line rather than moving the wrong bytes.
  Value nonNegative;
  auto func = op->getParentOfType<FuncOp>();
  auto check = [&](Value v) {
    SignGuard guard = signGuardOf(v);
    if (guard.by == SignGuard::None)
      return;
    if (guard.by == SignGuard::Launcher) {
      func.setArgAttr(guard.argument.getArgNumber(), kNonNegativeArgAttrName, b.getUnitAttr());
      return;
    }
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(v.getType()));
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, v, zero);
    nonNegative = nonNegative ? arith::AndIOp::create(b, loc, nonNegative, ok) : ok;
  };
  llvm::for_each(shape, check);
  llvm::for_each(ArrayRef<Value>(strides).drop_back(), check);
  if (nonNegative)
    AssertOp::create(b, loc, nonNegative,
                     b.getStringAttr("block pointer moved by the copy engine (TMA): its shape "
                                     "and strides must not be negative"));
  auto make = MakeTensorDescOp::create(
      b, loc, descType, op.getBase(), shape, strides, /*scratch=*/Value(),
      /*padding=*/b.getI32IntegerAttr(1), /*scratch_offset=*/IntegerAttr());
  make->setAttr(kFromBlockPointerAttrName, b.getUnitAttr());
  descriptors[op] = make.getResult();
  return make.getResult();
}

LogicalResult TensorPointerRewriter::rewriteAdvance(AdvanceOp op) {
  FailureOr<BlockPointerParts> parts = lookup(op.getPtr(), op);
  if (failed(parts))
    return failure();
  OpBuilder b(op);
  for (auto [offset, delta] : llvm::zip(parts->offsets, op.getOffsets()))
    offset = arith::AddIOp::create(b, op.getLoc(), offset, delta);
  pointers[op.getResult()] = std::move(*parts);
  deadOps.push_back(op);
  return success();
}

//===----------------------------------------------------------------------===//
// Loads and stores
//===----------------------------------------------------------------------===//

LogicalResult TensorPointerRewriter::checkTile(Operation *op,
                                               RankedTensorType tile) {
  if (tile.getEncoding())
    return op->emitError("block pointers to tiles with a layout encoding are "
                         "not supported; rewrite them before layouts are "
                         "assigned");
  for (int64_t size : tile.getShape())
    if (size <= 0 || !llvm::isPowerOf2_64(size))
      return op->emitError()
             << "block pointer tile " << tile << " has a dimension of size "
             << size << ", which is not a power of two";
  return success();
}

SmallVector<Value>
TensorPointerRewriter::buildIndices(OpBuilder &b, Location loc,
                                    const BlockPointerParts &parts,
                                    RankedTensorType tile) {
  SmallVector<Value> indices;
  for (unsigned d = 0; d < tile.getRank(); ++d) {
    int64_t size = tile.getDimSize(d);
    auto i32Range = RankedTensorType::get({size}, b.getI32Type());
    auto i64Range = RankedTensorType::get({size}, b.getI64Type());
    Value range =
        MakeRangeOp::create(b, loc, i32Range, 0u, static_cast<uint32_t>(size));
    Value range64 = arith::ExtSIOp::create(b, loc, i64Range, range);
    Value offset64 =
        arith::ExtSIOp::create(b, loc, b.getI64Type(), parts.offsets[d]);
    Value offsets = SplatOp::create(b, loc, i64Range, offset64);
    indices.push_back(arith::AddIOp::create(b, loc, offsets, range64));
  }
  return indices;
}

Value TensorPointerRewriter::buildPointers(OpBuilder &b, Location loc,
                                           const BlockPointerParts &parts,
                                           RankedTensorType tile,
                                           ArrayRef<Value> indices) {
  Value pointers =
      SplatOp::create(b, loc, tile.clone(parts.base.getType()), parts.base);
  for (unsigned d = 0; d < tile.getRank(); ++d) {
    Type rangeType = indices[d].getType();
    Value stride = SplatOp::create(b, loc, rangeType, parts.strides[d]);
    Value distance = arith::MulIOp::create(b, loc, indices[d], stride);
    pointers = AddPtrOp::create(b, loc, pointers.getType(), pointers,
                                broadcastToTile(b, loc, distance, d, tile));
  }
  return pointers;
}

Value TensorPointerRewriter::buildMask(OpBuilder &b, Location loc,
                                       const BlockPointerParts &parts,
                                       RankedTensorType tile,
                                       ArrayRef<Value> indices,
                                       ArrayRef<int32_t> boundaryCheck) {
  SmallVector<int32_t> dims(boundaryCheck);
  llvm::sort(dims);
  dims.erase(llvm::unique(dims), dims.end());
  Value mask;
  for (int32_t d : dims) {
    auto rangeType = cast<RankedTensorType>(indices[d].getType());
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(rangeType));
    Value bound = SplatOp::create(b, loc, rangeType, parts.shape[d]);
    Value notBelow = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                           indices[d], zero);
    Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                        indices[d], bound);
    Value inside = arith::AndIOp::create(b, loc, notBelow, below);
    inside = broadcastToTile(b, loc, inside, d, tile);
    mask =
        mask ? arith::AndIOp::create(b, loc, mask, inside).getResult() : inside;
  }
  return mask;
}

LogicalResult TensorPointerRewriter::rewriteLoad(LoadOp op) {
  RankedTensorType tile = getTileType(op.getPtr().getType());
  FailureOr<BlockPointerParts> parts = lookup(op.getPtr(), op);
  if (failed(parts) || failed(checkTile(op, tile)))
    return failure();
  if (tma.useTma(op)) {
    rewriteLoadByTma(op, tma.tmaOrigin(op.getPtr()));
    return success();
  }

  OpBuilder b(op);
  Location loc = op.getLoc();
  Value other;
  std::optional<PaddingOption> padding = op.getPadding();
  if (padding && !op.getBoundaryCheck().empty()) {
    Type elem = tile.getElementType();
    TypedAttr fill;
    if (*padding == PaddingOption::PAD_ZERO) {
      fill = b.getZeroAttr(tile);
    } else if (auto floatType = dyn_cast<FloatType>(elem)) {
      Attribute nan = FloatAttr::get(
          floatType, APFloat::getNaN(floatType.getFloatSemantics()));
      fill = DenseElementsAttr::get(tile, nan);
    } else {
      return op.emitError()
             << "padding = nan needs a floating-point tile, got " << elem;
    }
    other = arith::ConstantOp::create(b, loc, fill);
  }

  SmallVector<Value> indices = buildIndices(b, loc, *parts, tile);
  Value pointers = buildPointers(b, loc, *parts, tile, indices);
  Value mask = buildMask(b, loc, *parts, tile, indices, op.getBoundaryCheck());
  auto load = LoadOp::create(b, loc, pointers, mask, mask ? other : Value(),
                             ArrayRef<int32_t>{}, PaddingOptionAttr(),
                             op.getCache(), op.getEvict(), op.getIsVolatile());
  op.getResult().replaceAllUsesWith(load.getResult());
  op.erase();
  return success();
}

LogicalResult TensorPointerRewriter::rewriteStore(StoreOp op) {
  RankedTensorType tile = getTileType(op.getPtr().getType());
  FailureOr<BlockPointerParts> parts = lookup(op.getPtr(), op);
  if (failed(parts) || failed(checkTile(op, tile)))
    return failure();
  if (tma.useTma(op)) {
    rewriteStoreByTma(op, tma.tmaOrigin(op.getPtr()));
    return success();
  }
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> indices = buildIndices(b, loc, *parts, tile);
  Value pointers = buildPointers(b, loc, *parts, tile, indices);
  Value mask = buildMask(b, loc, *parts, tile, indices, op.getBoundaryCheck());
  StoreOp::create(b, loc, pointers, op.getValue(), mask, ArrayRef<int32_t>{},
                  op.getCache(), op.getEvict());
  op.erase();
  return success();
}

namespace {
/// The descriptor's offsets: the block pointer's, slowest dimension first.
SmallVector<Value> descriptorOffsets(const BlockPointerParts &parts,
                                     ArrayRef<int32_t> dims) {
  SmallVector<Value> offsets;
  for (int32_t d : dims)
    offsets.push_back(parts.offsets[d]);
  return offsets;
}

bool isIdentity(ArrayRef<int32_t> permutation) {
  for (auto [i, d] : llvm::enumerate(permutation))
    if (d != static_cast<int32_t>(i))
      return false;
  return true;
}
} // namespace

void TensorPointerRewriter::rewriteLoadByTma(LoadOp op,
                                             MakeTensorPtrOp origin) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<int32_t> dims = BlockPointerTmaPlan::descriptorDims(origin);
  Value desc = descriptorFor(origin);
  RankedTensorType block = cast<TensorDescType>(desc.getType()).getBlockType();
  Value value = DescriptorLoadOp::create(
      b, loc, block, desc, descriptorOffsets(pointers[op.getPtr()], dims));
  if (!isIdentity(dims)) {
    // Tile dimension d is block dimension (position of d in dims).
    SmallVector<int32_t> back(dims.size());
    for (auto [i, d] : llvm::enumerate(dims))
      back[d] = static_cast<int32_t>(i);
    value = TransOp::create(b, loc, op.getType(), value,
                            b.getDenseI32ArrayAttr(back));
  }
  op.getResult().replaceAllUsesWith(value);
  op.erase();
}

void TensorPointerRewriter::rewriteStoreByTma(StoreOp op,
                                              MakeTensorPtrOp origin) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<int32_t> dims = BlockPointerTmaPlan::descriptorDims(origin);
  Value desc = descriptorFor(origin);
  RankedTensorType block = cast<TensorDescType>(desc.getType()).getBlockType();
  Value value = op.getValue();
  if (!isIdentity(dims))
    value = TransOp::create(b, loc, block, value, b.getDenseI32ArrayAttr(dims));
  DescriptorStoreOp::create(b, loc, desc,
                            descriptorOffsets(pointers[op.getPtr()], dims),
                            value);
  op.erase();
}

//===----------------------------------------------------------------------===//
// Structured control flow
//===----------------------------------------------------------------------===//

LogicalResult TensorPointerRewriter::rewriteFor(scf::ForOp loop) {
  if (!hasBlockPointer(loop.getInitArgs().getTypes()))
    return rewriteRegion(loop.getRegion());

  FailureOr<SmallVector<Value>> inits = expand(loop.getInitArgs(), loop);
  if (failed(inits))
    return failure();
  OpBuilder b(loop);
  auto newLoop = scf::ForOp::create(
      b, loop.getLoc(), loop.getLowerBound(), loop.getUpperBound(),
      loop.getStep(), *inits, /*bodyBuilder=*/nullptr, loop.getUnsignedCmp());
  newLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  // The old loop dies after everything that used its values.
  deadOps.push_back(loop);

  Block *oldBody = loop.getBody();
  Block *newBody = newLoop.getBody();
  newBody->getOperations().splice(newBody->end(), oldBody->getOperations());
  loop.getInductionVar().replaceAllUsesWith(newLoop.getInductionVar());
  mapExpanded(loop.getRegionIterArgs(), newLoop.getRegionIterArgs());

  if (failed(rewriteRegion(newLoop.getRegion())))
    return failure();
  mapExpanded(loop.getResults(), newLoop.getResults());
  return success();
}

LogicalResult TensorPointerRewriter::rewriteIf(scf::IfOp ifOp) {
  if (!hasBlockPointer(ifOp.getResultTypes())) {
    if (failed(rewriteRegion(ifOp.getThenRegion())))
      return failure();
    return rewriteRegion(ifOp.getElseRegion());
  }

  SmallVector<Type> types;
  for (Type type : ifOp.getResultTypes()) {
    if (isTensorPointerType(type))
      llvm::append_range(types, BlockPointerParts::flatTypes(type));
    else
      types.push_back(type);
  }
  OpBuilder b(ifOp);
  auto newIf = scf::IfOp::create(b, ifOp.getLoc(), types, ifOp.getCondition(),
                                 /*addThenBlock=*/false,
                                 /*addElseBlock=*/false);
  newIf->setDiscardableAttrs(ifOp->getDiscardableAttrDictionary());
  newIf.getThenRegion().takeBody(ifOp.getThenRegion());
  newIf.getElseRegion().takeBody(ifOp.getElseRegion());
  deadOps.push_back(ifOp);

  if (failed(rewriteRegion(newIf.getThenRegion())) ||
      failed(rewriteRegion(newIf.getElseRegion())))
    return failure();
  mapExpanded(ifOp.getResults(), newIf.getResults());
  return success();
}

LogicalResult TensorPointerRewriter::rewriteYield(scf::YieldOp yield) {
  if (!hasBlockPointer(yield.getOperandTypes()))
    return success();
  if (!isa<scf::ForOp, scf::IfOp>(yield->getParentOp()))
    return yield.emitError()
           << "block pointers yielded by '" << yield->getParentOp()->getName()
           << "' are not supported";
  FailureOr<SmallVector<Value>> operands = expand(yield.getOperands(), yield);
  if (failed(operands))
    return failure();
  OpBuilder b(yield);
  scf::YieldOp::create(b, yield.getLoc(), *operands);
  yield.erase();
  return success();
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

LogicalResult tritium::tt::rewriteTensorPointers(ModuleOp module,
                                                unsigned computeCapability) {
  bool ok = true;
  for (auto func : module.getOps<FuncOp>()) {
    if (hasBlockPointer(func.getArgumentTypes()) ||
        hasBlockPointer(func.getResultTypes())) {
      // Already inlined everywhere and about to be removed by symbol-dce.
      if (func.isPrivate() && SymbolTable::symbolKnownUseEmpty(func, module))
        continue;
      func.emitError() << "block pointers cannot be passed to or returned "
                          "from a function; '"
                       << func.getName() << "' must be inlined first";
      ok = false;
      continue;
    }
    BlockPointerTmaPlan plan(module, func, computeCapability);
    TensorPointerRewriter rewriter(plan);
    if (failed(rewriter.rewriteRegion(func.getBody()))) {
      ok = false;
      continue;
    }
    rewriter.eraseDeadOps();
  }
  return success(ok);
}

namespace {
struct TTRewriteTensorPointerPass
    : public tritium::tt::impl::TTRewriteTensorPointerPassBase<
          TTRewriteTensorPointerPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(rewriteTensorPointers(getOperation(), computeCapability)))
      signalPassFailure();
  }
};
} // namespace
