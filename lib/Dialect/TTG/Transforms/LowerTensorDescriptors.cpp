//===- LowerTensorDescriptors.cpp - ttg-lower-tensor-descriptors ----------===//
//
// Tensor-descriptor loads and stores become copies of the tensor memory
// accelerator (TMA) through shared memory, on Hopper and later.
//
// Algorithm:
//   1. For every tt.descriptor_load and tt.descriptor_store, find the kernel
//      argument the descriptor is (the host encodes its tensor map) or
//      accept one made in the kernel, check that TMA can move its block
//      (layout::whyNotTmaTile; the front end sends other blocks through
//      pointers) and plan the tile (layout::planTmaTile): its shared layout
//      (#ttg.nvmma_shared of the chosen swizzle, or a plain row-major
//      #ttg.swizzled_shared) and its boxes.  The argument records the swizzle
//      and the box (tt.tma_swizzle, tt.tma_box); two uses of one descriptor
//      always agree, because the plan depends only on the block type (a
//      map made in the kernel is encoded from the same plan).
//   2. A load becomes: a tile and an 8-byte mbarrier (ttg.local_alloc), the
//      barrier's initialization for one arrival, one thread's expect of the
//      tile's bytes and its copies (ttg.async_tma_copy_global_to_local), a
//      wait for phase 0 by every thread, the barrier's invalidation, and a
//      ttg.local_load into the load's layout; a load read back only to be
//      stored to an immutable shared tile of the same layout (a dot
//      operand) uses the copy's tile instead.  (Loads that feed dots in
//      loops were already streamed through TMA rings by ttg-pipeline.)
//   3. A store becomes: the tile stored from registers (ttg.local_alloc of
//      the value), a proxy fence so the copy engine sees those writes (the
//      local_alloc of an NVMMA tile emits its own), the
//      copies out (ttg.async_tma_copy_local_to_global), and a wait until
//      they have read the tile (ttg.async_tma_store_wait 0).
//   4. Then the ops that issue each load's copy (its allocations, the
//      barrier's initialization, the expect and the copy) move up their
//      block as far as they may: below the ops that define their operands,
//      the previous copy, the ops that make or acquire the copy's tensor
//      map, and any op that may write global memory.  The wait and the read
//      stay at the load: the copies of a block are in flight together, and
//      with the work in front of each load.  (Loads ttg-pipeline streamed
//      are not here; these are the ones of loops of one stage and outside
//      loops.)
//   The CTA barriers between these steps are the membar pass's.
//   0. First (assignTensorMapScratch): the tensor maps the kernel makes
//      (tt.make_tensor_descriptor still used) get 128-byte slots of the
//      kernel's global scratch memory, one per op, numbered in program
//      order (scratch_offset); the kernel gets the scratch base as a new
//      last argument (tt.global_scratch) and the module the size of one
//      program's scratch (ttg.global_scratch_size), which the launcher
//      allocates for every program of the grid (from the runtime's own
//      memory, ttg.global_scratch_internal, when every map was made for a
//      block pointer; else from triton.set_allocator's).  Unused ones are
//      erased.
//      A stride of all but the innermost dimension that the axis
//      information does not prove a multiple of 16 bytes and that is a
//      kernel argument is marked for the launcher to check
//      (tt.multiple_at_launch); any other such stride, and such a base
//      address, gets a tt.assert before the op (the copy engine would fault
//      on it).
//      Maps made in a block whose operands are ready at its first map move
//      up to it; then maps made one after another in a block (no op
//      between them reads one or holds a region) are acquired together
//      (TensorMapFences.h): each but the last is marked
//      ttg.tensormap_fences_deferred and acquired
//      (ttg.fence_tensormap_acquire) right after the last.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "tritium/Analysis/AxisInfo.h"
#include "tritium/Analysis/GlobalMemoryAccess.h"
#include "tritium/Conversion/TTGToLLVM/PrintFormat.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TT/Transforms/Transforms.h"
#include "tritium/Dialect/TTG/TensorMapFences.h"
#include "tritium/Layout/TmaTile.h"

#include <numeric>

namespace tritium::ttg {
#define GEN_PASS_DEF_TTGLOWERTENSORDESCRIPTORSPASS
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"
} // namespace tritium::ttg

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

FailureOr<TensorDescriptorTile>
ttg::planTensorDescriptorTile(Operation *user, Value desc, bool report) {
  auto fail = [&](const Twine &message) -> FailureOr<TensorDescriptorTile> {
    if (report)
      user->emitError(message);
    return failure();
  };
  if (getComputeCapability(user->getParentOfType<ModuleOp>()) < 90)
    return fail("tensor descriptors move tiles with the copy engine (TMA), "
                "which needs Hopper (cuda:90) or later");
  // A kernel argument (the host encodes its map from the plan recorded on
  // it), or a tensor map made in the kernel, possibly through the results
  // and arguments of scf ops (its plan depends only on the block type).
  auto blockArg = dyn_cast<BlockArgument>(desc);
  auto func = blockArg ? dyn_cast<tt::FuncOp>(blockArg.getOwner()->getParentOp())
                       : tt::FuncOp();
  bool kernelArgument = func && func.isPublic() &&
                        blockArg.getOwner() == &func.getBody().front();
  if (func && !kernelArgument)
    return fail("a tensor descriptor used here must be a kernel argument (a "
                "host TensorDescriptor) or made in the kernel");
  RankedTensorType block = cast<tt::TensorDescType>(desc.getType()).getBlockType();
  std::vector<int64_t> shape(block.getShape().begin(), block.getShape().end());
  int64_t bits = block.getElementTypeBitWidth();
  if (std::optional<std::string> why = layout::whyNotTmaTile(shape, bits)) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "the copy engine cannot move blocks of '" << block << "': " << *why;
    return fail(text);
  }
  MLIRContext *context = user->getContext();
  int64_t swizzle = layout::chooseTmaSwizzle(shape, bits);
  TensorDescriptorTile tile;
  tile.plan = layout::planTmaTile(shape, bits, swizzle);
  if (swizzle) {
    tile.encoding = NvmmaSharedEncodingAttr::get(context, swizzle, bits, {1, 0});
  } else {
    SmallVector<unsigned> order;
    for (int64_t d = block.getRank() - 1; d >= 0; --d)
      order.push_back(d);
    tile.encoding = SwizzledSharedEncodingAttr::get(context, 1, 1, 1, order);
  }
  if (kernelArgument) {
    Builder builder(context);
    unsigned index = blockArg.getArgNumber();
    func.setArgAttr(index, "tt.tma_swizzle", builder.getI32IntegerAttr(swizzle));
    SmallVector<int32_t> box(tile.plan.box.begin(), tile.plan.box.end());
    func.setArgAttr(index, "tt.tma_box", builder.getDenseI32ArrayAttr(box));
  }
  return tile;
}

namespace {

/// The kernel argument `value` is, through sign and zero extensions, if any.
BlockArgument kernelArgumentOf(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<arith::ExtSIOp, arith::ExtUIOp>(def))
      return {};
    value = def->getOperand(0);
  }
  auto arg = cast<BlockArgument>(value);
  auto func = dyn_cast<tt::FuncOp>(arg.getOwner()->getParentOp());
  if (!func || !func.isPublic() || !arg.getOwner()->isEntryBlock() ||
      !isa<IntegerType>(arg.getType()))
    return {};
  return arg;
}

/// The copy engine needs a tensor map's base address and the byte strides
/// of all but its innermost dimension to be multiples of 16 bytes (else the
/// copies fault).  Where the axis information does not prove that (the
/// kernel's specialization makes pointer and integer arguments divisible by
/// 16 known):
///  - a stride that is a kernel argument is checked by the launcher: the
///    argument gets kMultipleAtLaunchArgAttrName (the elements it must be a
///    multiple of) and its reason, and tt.divisibility of as much, so that
///    what the kernel computes from it (a base moved by rows) is known too;
///  - any other value gets a tt.assert before the op, which stops the kernel
///    with the rule and the user's line.  (A kernel that calls the assertion
///    handler has its warp-group dots serialized by ptxas, C7510: the
///    launcher's check keeps them asynchronous.)
void guardTensorMapAlignment(ModuleOp module, ArrayRef<tt::MakeTensorDescOp> makes) {
  struct Check {
    Value bytes; // i64
    std::string what;
  };
  {
    ModuleAxisInfo axisInfo(module);
    Builder builder(module.getContext());
    for (tt::MakeTensorDescOp make : makes) {
      RankedTensorType block = make.getType().getBlockType();
      int64_t elementBytes = std::max<int64_t>(block.getElementTypeBitWidth() / 8, 1);
      auto strides = make.getStrides();
      for (size_t d = 0; d + 1 < strides.size(); ++d) {
        BlockArgument arg = kernelArgumentOf(strides[d]);
        if (!arg || axisInfo.isTensorMapAligned(strides[d], elementBytes))
          continue;
        auto func = cast<tt::FuncOp>(arg.getOwner()->getParentOp());
        unsigned index = arg.getArgNumber();
        int64_t multiple = 16 / std::gcd<int64_t>(16, elementBytes);
        if (auto known = func.getArgAttrOfType<IntegerAttr>(index, tt::kMultipleAtLaunchArgAttrName))
          if (known.getInt() >= multiple)
            continue;
        auto [file, line] = fileAndLine(make.getLoc());
        std::string position = line ? file + ":" + std::to_string(line) : std::string();
        func.setArgAttr(index, tt::kMultipleAtLaunchArgAttrName, builder.getI32IntegerAttr(multiple));
        func.setArgAttr(index, tt::kMultipleAtLaunchWhyArgAttrName,
                        builder.getStringAttr(
                            "tensor descriptor made in the kernel" +
                            (position.empty() ? std::string() : " at " + position) +
                            ": its stride " + std::to_string(d) + " (" +
                            std::to_string(elementBytes) +
                            "-byte elements) must be a multiple of 16 bytes (the copy "
                            "engine's rule)"));
        int64_t divisibility = 1;
        if (auto hint = func.getArgAttrOfType<IntegerAttr>(index, "tt.divisibility"))
          divisibility = hint.getInt();
        func.setArgAttr(index, "tt.divisibility",
                        builder.getI32IntegerAttr(std::max(divisibility, multiple)));
      }
    }
  }
  SmallVector<std::pair<tt::MakeTensorDescOp, SmallVector<Check>>> guards;
  {
    ModuleAxisInfo axisInfo(module);
    for (tt::MakeTensorDescOp make : makes) {
      RankedTensorType block = make.getType().getBlockType();
      int64_t elementBytes = std::max<int64_t>(block.getElementTypeBitWidth() / 8, 1);
      SmallVector<Check> checks;
      if (!axisInfo.isTensorMapAligned(make.getBase(), 1))
        checks.push_back({make.getBase(), "its base address"});
      auto strides = make.getStrides();
      for (size_t d = 0; d + 1 < strides.size(); ++d)
        if (!axisInfo.isTensorMapAligned(strides[d], elementBytes))
          checks.push_back({strides[d], "its stride " + std::to_string(d) + " (" +
                                            std::to_string(elementBytes) +
                                            "-byte elements)"});
      if (!checks.empty())
        guards.push_back({make, checks});
    }
  }
  for (auto &[make, checks] : guards) {
    OpBuilder builder(make);
    Location loc = make.getLoc();
    RankedTensorType block = make.getType().getBlockType();
    int64_t elementBytes = std::max<int64_t>(block.getElementTypeBitWidth() / 8, 1);
    Type i64 = builder.getI64Type();
    auto constant = [&](int64_t v) {
      return arith::ConstantIntOp::create(builder, loc, v, 64).getResult();
    };
    for (Check &check : checks) {
      Value bytes = check.bytes;
      if (isa<tt::PointerType>(bytes.getType()))
        bytes = tt::PtrToIntOp::create(builder, loc, i64, bytes);
      else
        bytes = arith::MulIOp::create(builder, loc, bytes, constant(elementBytes));
      Value low = arith::AndIOp::create(builder, loc, bytes, constant(15));
      Value aligned = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                            low, constant(0));
      tt::AssertOp::create(builder, loc, aligned,
                           builder.getStringAttr(
                               "tensor descriptor made in the kernel: " + check.what +
                               " must be a multiple of 16 bytes (the copy engine's rule)"));
    }
  }
}

/// Whether `op`, between two maps made in a row, ends the row: it holds a
/// region or reads one of the row's maps.
bool endsRow(Operation *op, ArrayRef<tt::MakeTensorDescOp> row) {
  if (op->getNumRegions() != 0)
    return true;
  return llvm::any_of(op->getOperands(), [&](Value operand) {
    return llvm::any_of(row, [&](tt::MakeTensorDescOp make) {
      return operand == make.getResult();
    });
  });
}

/// Whether `value` is available right after `point` (an op of `block`).
bool availableAfter(Value value, Operation *point) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return true; // a block argument of this block or of an enclosing one
  if (def->getBlock() != point->getBlock())
    return true; // defined in an enclosing block (it dominates the make)
  return def == point || def->isBeforeInBlock(point);
}

/// Moves every map made in a block whose operands are ready by then up to
/// the block's first map: the maps a kernel makes between its loops (a
/// block pointer made again for a loop of other tiles) join the ones made
/// at its start, and all are acquired together.
void gatherTensorMaps(ModuleOp module) {
  DenseMap<Block *, Operation *> rowEnd; // the last map gathered, per block
  module.walk([&](tt::MakeTensorDescOp make) {
    if (!make.getScratch())
      return;
    auto [it, first] = rowEnd.try_emplace(make->getBlock(), make);
    if (first)
      return;
    if (llvm::all_of(make->getOperands(), [&](Value operand) {
          return availableAfter(operand, it->second);
        })) {
      make->moveAfter(it->second);
      it->second = make;
    }
  });
}

/// Acquires maps made in a row together (TensorMapFences.h), after moving
/// the maps of a block that can be made earlier up to its first one.
void shareTensorMapFences(ModuleOp module) {
  gatherTensorMaps(module);
  SmallVector<tt::MakeTensorDescOp> makes; // in program order
  module.walk([&](tt::MakeTensorDescOp make) {
    if (make.getScratch())
      makes.push_back(make);
  });
  SmallVector<tt::MakeTensorDescOp> row;
  auto close = [&] {
    if (row.size() >= 2) {
      OpBuilder builder(row.back());
      builder.setInsertionPointAfter(row.back());
      for (tt::MakeTensorDescOp make : ArrayRef(row).drop_back()) {
        make->setAttr(ttg::kTensorMapFencesDeferredAttrName, builder.getUnitAttr());
        ttg::FenceTensorMapAcquireOp::create(builder, make.getLoc(), make.getResult());
      }
    }
    row.clear();
  };
  for (tt::MakeTensorDescOp make : makes) {
    if (!row.empty()) {
      bool inRow = make->getBlock() == row.back()->getBlock() &&
                   row.back()->isBeforeInBlock(make);
      for (Operation *op = row.back()->getNextNode(); inRow && op != make;
           op = op->getNextNode())
        inRow = !endsRow(op, row);
      if (!inRow)
        close();
    }
    row.push_back(make);
  }
  close();
}

} // namespace

LogicalResult ttg::assignTensorMapScratch(ModuleOp module) {
  SmallVector<tt::MakeTensorDescOp> makes;
  module.walk([&](tt::MakeTensorDescOp make) {
    if (make.getResult().use_empty())
      make.erase(); // its users went through pointers
    else if (!make.getScratch())
      makes.push_back(make);
  });
  if (makes.empty())
    return success();
  auto kernel = makes.front()->getParentOfType<tt::FuncOp>();
  for (tt::MakeTensorDescOp make : makes)
    if (make->getParentOfType<tt::FuncOp>() != kernel || !kernel.isPublic())
      return make.emitError("a tensor map made in the kernel needs the "
                            "kernel's scratch memory: make the descriptor "
                            "in the kernel, not in a noinline function");
  guardTensorMapAlignment(module, makes);
  MLIRContext *context = module.getContext();
  Builder builder(context);
  auto pointer = tt::PointerType::get(IntegerType::get(context, 8), 1);
  unsigned index = kernel.getNumArguments();
  if (failed(kernel.insertArgument(index, pointer,
                                   builder.getDictionaryAttr(builder.getNamedAttr(
                                       TTGDialect::kGlobalScratchArgAttrName, builder.getUnitAttr())),
                                   kernel.getLoc())))
    return kernel.emitError("cannot add the global scratch argument");
  Value scratch = kernel.getArgument(index);
  int64_t offset = 0;
  for (tt::MakeTensorDescOp make : makes) {
    make.getScratchMutable().assign(scratch);
    make.setScratchOffset(static_cast<int32_t>(offset));
    offset += TTGDialect::kTensorMapBytes;
  }
  module->setAttr(TTGDialect::kGlobalScratchSizeAttrName, builder.getI32IntegerAttr(offset));
  shareTensorMapFences(module);
  if (llvm::all_of(makes, [](tt::MakeTensorDescOp make) {
        return make->hasAttr(tt::kFromBlockPointerAttrName);
      }))
    module->setAttr(TTGDialect::kGlobalScratchInternalAttrName, builder.getUnitAttr());
  return success();
}

namespace {

MemDescType tileType(RankedTensorType block, Attribute encoding, bool mutableMemory) {
  return MemDescType::get(block.getShape(), block.getElementType(), encoding,
                          SharedMemorySpaceAttr::get(block.getContext()),
                          mutableMemory);
}

} // namespace

MemDescType ttg::barrierArrayType(MLIRContext *context,
                                  ArrayRef<int64_t> shape) {
  SmallVector<unsigned> order;
  for (int64_t d = shape.size() - 1; d >= 0; --d)
    order.push_back(d);
  return MemDescType::get(shape, IntegerType::get(context, 64),
                          SwizzledSharedEncodingAttr::get(context, 1, 1, 1, order),
                          SharedMemorySpaceAttr::get(context),
                          /*mutableMemory=*/true);
}

namespace {

/// The ops that issue one lowered load's copy, in program order: the
/// tile's and the barrier's allocations, the barrier's initialization, the
/// expect and the copy (and the constant they use).
using CopyIssue = SmallVector<Operation *, 8>;

LogicalResult lowerLoad(tt::DescriptorLoadOp load, CopyIssue &issue) {
  FailureOr<TensorDescriptorTile> tile =
      planTensorDescriptorTile(load, load.getDesc(), /*report=*/true);
  if (failed(tile))
    return failure();
  OpBuilder builder(load);
  Operation *before = load->getPrevNode();
  Location loc = load.getLoc();
  MLIRContext *context = load.getContext();
  RankedTensorType block = load.getDesc().getType().getBlockType();
  Value buffer = LocalAllocOp::create(
      builder, loc, tileType(block, tile->encoding, /*mutableMemory=*/true), Value());
  Value barrier = LocalAllocOp::create(
      builder, loc, barrierArrayType(context, {1}), Value());
  InitBarrierOp::create(builder, loc, barrier, 1);
  Value always = arith::ConstantOp::create(builder, loc, builder.getBoolAttr(true));
  BarrierExpectOp::create(builder, loc, barrier, tile->plan.tileBytes, always);
  Operation *copy = AsyncTMACopyGlobalToLocalOp::create(
      builder, loc, load.getDesc(), load.getIndices(), buffer, barrier, always);
  for (Operation *op = before ? before->getNextNode() : &load->getBlock()->front();
       op != copy->getNextNode(); op = op->getNextNode())
    issue.push_back(op);
  Value phase = arith::ConstantOp::create(builder, loc, builder.getI32IntegerAttr(0));
  WaitBarrierOp::create(builder, loc, barrier, phase);
  InvalBarrierOp::create(builder, loc, barrier);
  // Read back only to be stored in a shared tile of the same layout (an
  // operand of a dot): that tile is the one the copy wrote.
  // (Also through a 2-D tt.trans: the tile's transposed view.)
  if (load->hasOneUse()) {
    Operation *user = *load->user_begin();
    auto trans = dyn_cast<tt::TransOp>(user);
    if (trans && trans->hasOneUse() && isa<NvmmaSharedEncodingAttr>(tile->encoding))
      user = *trans->user_begin();
    else
      trans = {};
    auto alloc = dyn_cast<LocalAllocOp>(user);
    Value view = buffer;
    if (alloc && trans)
      view = MemDescTransOp::create(
          builder, loc, getTransposedTileType(cast<MemDescType>(buffer.getType())),
          buffer);
    if (alloc && !alloc.getType().getMutableMemory() &&
        alloc.getType().getEncoding() ==
            cast<MemDescType>(view.getType()).getEncoding()) {
      alloc.replaceAllUsesWith(view);
      alloc.erase();
      if (trans)
        trans->erase();
      load.erase();
      return success();
    }
    if (view != buffer)
      view.getDefiningOp()->erase();
  }
  Value loaded = LocalLoadOp::create(builder, loc, load.getType(), buffer, Value());
  load.replaceAllUsesWith(loaded);
  load.erase();
  return success();
}

LogicalResult lowerStore(tt::DescriptorStoreOp store) {
  FailureOr<TensorDescriptorTile> tile =
      planTensorDescriptorTile(store, store.getDesc(), /*report=*/true);
  if (failed(tile))
    return failure();
  OpBuilder builder(store);
  Location loc = store.getLoc();
  RankedTensorType block = store.getDesc().getType().getBlockType();
  // The tile is written from the registers it was computed in: a layout
  // conversion in front of the store (a matmul epilogue's, from the
  // accumulator's layout) would only add a round trip through shared memory.
  Value source = store.getSrc();
  if (auto convert = source.getDefiningOp<ConvertLayoutOp>())
    source = convert.getSrc();
  Value buffer = LocalAllocOp::create(
      builder, loc, tileType(block, tile->encoding, /*mutableMemory=*/false),
      source);
  // (an NVMMA tile's local_alloc fences its own writes on Hopper)
  if (!isa<NvmmaSharedEncodingAttr>(tile->encoding))
    FenceAsyncSharedOp::create(builder, loc);
  AsyncTMACopyLocalToGlobalOp::create(builder, loc, store.getDesc(),
                                      store.getIndices(), buffer);
  AsyncTMAStoreWaitOp::create(builder, loc, 0);
  store.erase();
  return success();
}

/// Moves the ops that issue `issue`'s copy up its block, past the ops in
/// front of them that need not come first: it stops below an op that
/// defines a value they use, another load's copy (copies stay in program
/// order), an op that reads or makes the copy's tensor map (its acquire)
/// and an op that may write global memory (the copy would read what came
/// before the write).  The wait and the read of the tile stay where the
/// load was.
void issueEarly(const CopyIssue &issue) {
  llvm::SmallPtrSet<Operation *, 8> group(issue.begin(), issue.end());
  auto copy = cast<AsyncTMACopyGlobalToLocalOp>(issue.back());
  llvm::SmallPtrSet<Operation *, 8> producers;
  for (Operation *op : issue)
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp(); def && !group.contains(def))
        producers.insert(def);
  auto stops = [&](Operation *op) {
    return producers.contains(op) || isa<AsyncTMACopyGlobalToLocalOp>(op) ||
           llvm::is_contained(op->getOperands(), copy.getDesc()) ||
           mayWriteGlobalMemoryWithin(op);
  };
  Operation *above = issue.front()->getPrevNode();
  while (above && !stops(above))
    above = above->getPrevNode();
  Operation *anchor = above ? above->getNextNode() : &issue.front()->getBlock()->front();
  if (anchor == issue.front())
    return;
  for (Operation *op : issue)
    op->moveBefore(anchor);
}

} // namespace

static LogicalResult lowerAll(ModuleOp module) {
  if (failed(assignTensorMapScratch(module)))
    return failure();
  SmallVector<Operation *> accesses;
  module.walk([&](Operation *op) {
    if (isa<tt::DescriptorLoadOp, tt::DescriptorStoreOp>(op))
      accesses.push_back(op);
  });
  SmallVector<CopyIssue> issues; // in program order
  for (Operation *op : accesses) {
    LogicalResult result = success();
    if (auto load = dyn_cast<tt::DescriptorLoadOp>(op))
      result = lowerLoad(load, issues.emplace_back());
    else
      result = lowerStore(cast<tt::DescriptorStoreOp>(op));
    if (failed(result))
      return failure();
  }
  for (const CopyIssue &issue : issues)
    issueEarly(issue);
  return success();
}

void ttg::lowerTensorDescriptors(ModuleOp module) { (void)lowerAll(module); }

namespace {
struct TTGLowerTensorDescriptorsPass
    : public ttg::impl::TTGLowerTensorDescriptorsPassBase<
          TTGLowerTensorDescriptorsPass> {
  void runOnOperation() override {
    if (failed(lowerAll(getOperation())))
      signalPassFailure();
  }
};
} // namespace
