//===- Allocation.cpp - shared-memory buffers and their offsets -----------===//
//
// Algorithm:
//   1. Number the ops of each function in pre-order ("program order"); an op
//      with regions covers the positions of everything nested in it.
//   2. Collect buffers with live ranges: a scratch buffer lives at its op's
//      position only; a ttg.local_alloc lives from its position to the last
//      position of any (transitive, through memdesc views) user, where a use
//      inside a loop that does not contain the allocation extends to the end
//      of that loop (the next iteration uses the buffer again).
//   3. Place buffers largest first: each takes the lowest 16-byte aligned
//      offset that does not overlap, in bytes, a placed buffer whose live
//      range overlaps its own.  Scratch buffers of different ops never live
//      at the same time, so they all share the bytes at the bottom.
//   4. Functions are laid out one after the other: a device function's
//      buffers never overlap its caller's.
//
//===----------------------------------------------------------------------===//
#include "tritium/Analysis/Allocation.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Layout/TileWindow.h"
#include "tritium/Layout/WarpShufflePlan.h"
#include "llvm/Support/MathExtras.h"

#include <mutex>
#include <string>
#include <unordered_map>

#include <algorithm>
#include <map>

using namespace mlir;
using namespace tritium;
using layout::HwDim;
using layout::LinearLayout;

std::optional<SmallVector<int64_t>> tritium::getRegisterPermutation(
    const LinearLayout &src, const LinearLayout &dst,
    llvm::function_ref<std::vector<int64_t>(const std::vector<int64_t> &)>
        dstToSrc) {
  if (!dstToSrc && src.shape() != dst.shape())
    return std::nullopt;
  std::function<std::vector<int64_t>(const std::vector<int64_t> &)> project;
  if (dstToSrc)
    project = [&](const std::vector<int64_t> &coord) { return dstToSrc(coord); };
  std::optional<std::vector<int64_t>> mapping =
      layout::sameThreadRegisters(src, dst, project, /*shift=*/{});
  if (!mapping)
    return std::nullopt;
  return SmallVector<int64_t>(mapping->begin(), mapping->end());
}

int64_t tritium::getElementBytes(Type elementType) {
  if (isa<tt::PointerType>(elementType))
    return 8;
  if (elementType.isIntOrFloat())
    return std::max<int64_t>(1, elementType.getIntOrFloatBitWidth() / 8);
  return 8;
}

/// The most shared memory one thread block can have on any target
/// (sm_90's 227 KB): a conversion whose whole tile needs more runs in parts.
/// Smaller ones keep the whole tile (one barrier pair); a target with less
/// memory then reports the kernel as out of resources.
static constexpr int64_t kMaxConvertScratchBytes = 232448;

using ConvertDecision =
    std::pair<ConvertLayoutPath, std::optional<layout::ConvertScratchPlan>>;

/// The path of a conversion and, for the SharedMemory path, its scratch
/// plan (computed anyway to compare costs).
static ConvertDecision planConvertLayout(RankedTensorType srcType,
                                         RankedTensorType dstType) {
  auto srcLayout = ttg::getDistributedEncoding(srcType);
  auto dstLayout = ttg::getDistributedEncoding(dstType);
  if (!srcLayout || !dstLayout)
    return {ConvertLayoutPath::Registers, std::nullopt}; // not lowered here
  LinearLayout src = srcLayout.toLinearLayout(srcType.getShape());
  LinearLayout dst = dstLayout.toLinearLayout(dstType.getShape());
  if (getRegisterPermutation(src, dst))
    return {ConvertLayoutPath::Registers, std::nullopt};
  int64_t elementBytes = getElementBytes(srcType.getElementType());
  layout::ConvertScratchPlan plan =
      layout::planConvertScratch(src, dst, elementBytes);
  if (std::optional<layout::WarpShufflePlan> shuffles =
          layout::planWarpShuffle(src, dst)) {
    int64_t words = llvm::divideCeil(elementBytes, 4);
    int64_t shuffleCost = shuffles->numShuffles(dst) * words;
    if (shuffleCost <= plan.store.wavefronts + plan.load.wavefronts)
      return {ConvertLayoutPath::WarpShuffle, std::nullopt};
  }
  // A conversion that keeps every element in its warp and trades one
  // register bit for a lane bit goes by shuffles too, as Triton's does: no
  // scratch and no barrier, whatever the bank model says of the round trip.
  // Trading more (an mma accumulator at one warp into a blocked layout) it
  // goes through shared memory, as under Triton: each further bit doubles
  // the choices made by selects around every shuffle.
  if (std::optional<layout::WarpTransferPlan> transfer =
          layout::planWarpTransfer(src, dst);
      transfer && transfer->numTradedBits <= 1)
    return {ConvertLayoutPath::WarpTransfer, std::nullopt};
  // A tile larger than any GPU's shared memory goes in parts, when the
  // layouts repeat along some dimension in registers (ConvertParts.h).
  auto fits = [&](const layout::ConvertScratchPlan &candidate) {
    return candidate.tile.numElements() * elementBytes <=
           kMaxConvertScratchBytes;
  };
  if (!fits(plan)) {
    std::optional<layout::ConvertScratchPlan> partPlan;
    std::optional<layout::ConvertParts> parts = layout::splitConversion(
        src, dst,
        [&](const LinearLayout &srcPart, const LinearLayout &dstPart) {
          partPlan = layout::planConvertScratch(srcPart, dstPart, elementBytes);
          return fits(*partPlan);
        });
    if (parts) {
      plan = *partPlan;
      plan.parts = std::move(parts);
    }
  }
  return {ConvertLayoutPath::SharedMemory, plan};
}

/// planConvertLayout, remembered per pair of types: allocation, the membar
/// pass and the lowering all ask, and modelling the bank conflicts of every
/// candidate tile is the costliest step of a large conversion.  Keyed by
/// the printed types (layouts included), so the memo is exact across
/// contexts; bounded, and shared by concurrent compiles under a lock.
static ConvertDecision decideConvertLayout(RankedTensorType srcType,
                                           RankedTensorType dstType) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << srcType << " -> " << dstType;
  static std::mutex mutex;
  static std::unordered_map<std::string, ConvertDecision> memo;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = memo.find(key);
    if (it != memo.end())
      return it->second;
  }
  ConvertDecision decision = planConvertLayout(srcType, dstType);
  std::lock_guard<std::mutex> lock(mutex);
  if (memo.size() >= 4096)
    memo.clear();
  memo.emplace(std::move(key), decision);
  return decision;
}

ConvertLayoutPath tritium::getConvertLayoutPath(RankedTensorType srcType,
                                                RankedTensorType dstType) {
  return decideConvertLayout(srcType, dstType).first;
}

std::optional<layout::ConvertScratchPlan>
tritium::getConvertScratchPlan(RankedTensorType srcType,
                               RankedTensorType dstType) {
  return decideConvertLayout(srcType, dstType).second;
}

/// Scratch of a layout conversion: the whole tile, padded as
/// getConvertScratchPlan chose, when elements move between threads.
static int64_t getConvertLayoutScratch(ttg::ConvertLayoutOp op) {
  auto srcType = cast<RankedTensorType>(op.getSrc().getType());
  auto plan = getConvertScratchPlan(srcType,
                                    cast<RankedTensorType>(op.getType()));
  if (!plan)
    return 0;
  return plan->tile.numElements() * getElementBytes(srcType.getElementType());
}

/// True when some element of a tensor of `type` is held by several threads.
static bool hasThreadDuplicates(RankedTensorType type) {
  auto layout = ttg::getDistributedEncoding(type);
  if (!layout)
    return false;
  LinearLayout ll = layout.toLinearLayout(type.getShape());
  for (HwDim dim : {HwDim::Lane, HwDim::Warp})
    for (const std::vector<int64_t> &basis : ll.bases(dim))
      if (llvm::all_of(basis, [](int64_t c) { return c == 0; }))
        return true;
  return false;
}

/// Scratch of an atomic: one thread (scalar) or one of several duplicate
/// threads (tensor) performs it, so a used result is broadcast through
/// shared memory.
static int64_t getAtomicScratch(Operation *op) {
  Value result = op->getResult(0);
  if (result.use_empty())
    return 0;
  auto tensorType = dyn_cast<RankedTensorType>(result.getType());
  if (!tensorType)
    return getElementBytes(result.getType());
  if (!hasThreadDuplicates(tensorType))
    return 0;
  return tensorType.getNumElements() *
         getElementBytes(tensorType.getElementType());
}

int64_t tritium::getScratchBytes(Operation *op) {
  if (auto cvt = dyn_cast<ttg::ConvertLayoutOp>(op))
    return getConvertLayoutScratch(cvt);
  if (isa<tt::AtomicRMWOp, tt::AtomicCASOp>(op))
    return getAtomicScratch(op);
  if (isa<tt::ReduceOp>(op))
    return getReduceScratchBytes(op);
  if (isa<tt::ScanOp>(op))
    return getScanScratchBytes(op);
  if (isa<tt::GatherOp>(op))
    return getGatherScratchBytes(op);
  if (isa<tt::HistogramOp>(op))
    return getHistogramScratchBytes(op);
  // A tensor map made in the kernel is encoded in shared memory, then
  // copied to its slot of the global scratch (TMAOpToLLVM.cpp).
  if (auto make = dyn_cast<tt::MakeTensorDescOp>(op); make && make.getScratch())
    return ttg::TTGDialect::kTensorMapBytes;
  return 0;
}

int64_t tritium::getScratchAlignment(Operation *op) {
  // tensormap.replace takes a 128-byte aligned map.
  if (isa<tt::MakeTensorDescOp>(op))
    return ttg::TTGDialect::kTensorMapBytes;
  return Allocation::kAlignment;
}

std::optional<int64_t> tritium::getAllocationOffset(Operation *op) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(kAllocationOffsetAttrName))
    return attr.getInt();
  return std::nullopt;
}

namespace {
/// Program-order positions of the ops of one function.
struct ProgramOrder {
  DenseMap<Operation *, int64_t> first; // the op's own position
  DenseMap<Operation *, int64_t> last;  // last position nested in the op

  explicit ProgramOrder(Operation *function) {
    int64_t next = 0;
    function->walk<WalkOrder::PreOrder>(
        [&](Operation *op) { first[op] = next++; });
    function->walk<WalkOrder::PostOrder>([&](Operation *op) {
      int64_t end = first[op];
      for (Region &region : op->getRegions())
        for (Block &block : region)
          if (!block.empty())
            end = std::max(end, last[&block.back()]);
      last[op] = end;
    });
  }
};
} // namespace

int64_t tritium::getLocalAllocBytes(Operation *localAlloc) {
  auto type = cast<ttg::MemDescType>(localAlloc->getResult(0).getType());
  int64_t elements = 1;
  for (int64_t size : type.getAllocShape())
    elements *= size;
  return elements * getElementBytes(type.getElementType());
}

int64_t tritium::getLocalAllocAlignment(Operation *localAlloc) {
  auto type = cast<ttg::MemDescType>(localAlloc->getResult(0).getType());
  if (auto nvmma = dyn_cast<ttg::NvmmaSharedEncodingAttr>(type.getEncoding()))
    return 8 * int64_t(nvmma.getSwizzlingByteWidth());
  // The copy engine reads and writes 128-byte aligned tiles.
  Value tile = localAlloc->getResult(0);
  for (Operation *user : tile.getUsers()) {
    auto load = dyn_cast<ttg::AsyncTMACopyGlobalToLocalOp>(user);
    if ((load && load.getResult() == tile) ||
        isa<ttg::AsyncTMACopyLocalToGlobalOp>(user))
      return 128;
  }
  return Allocation::kAlignment;
}

/// The last position at which the buffer made by `alloc` is used: users are
/// followed through view ops, and a use in a loop that does not contain the
/// allocation counts at the end of the outermost such loop.
static int64_t getLastUse(Operation *alloc, const ProgramOrder &order) {
  int64_t end = order.first.lookup(alloc);
  SmallVector<Value> worklist(alloc->getResults());
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      Operation *point = user;
      for (Operation *parent = user->getParentOp(); parent;
           parent = parent->getParentOp()) {
        if (parent->isAncestor(alloc))
          break;
        if (isa<LoopLikeOpInterface>(parent))
          point = parent;
      }
      end = std::max(end, order.last.lookup(point));
      if (isa<ttg::MemDescIndexOp, ttg::MemDescSubsliceOp, ttg::MemDescTransOp>(user))
        worklist.append(user->result_begin(), user->result_end());
    }
  }
  return end;
}

Allocation::Allocation(ModuleOp module) {
  module.walk([&](FunctionOpInterface function) {
    if (!function.isExternal())
      allocateFunction(function);
  });
}

void Allocation::allocateFunction(Operation *function) {
  ProgramOrder order(function);
  SmallVector<Buffer> local;
  function->walk([&](Operation *op) {
    if (int64_t bytes = getScratchBytes(op)) {
      int64_t at = order.first.lookup(op);
      local.push_back({op, bytes, -1, at, at, getScratchAlignment(op)});
    } else if (auto alloc = dyn_cast<ttg::LocalAllocOp>(op)) {
      local.push_back({op, getLocalAllocBytes(alloc), -1,
                       order.first.lookup(op), getLastUse(op, order),
                       getLocalAllocAlignment(alloc)});
    }
  });
  if (local.empty())
    return;

  // Largest first; ties in program order, for a deterministic result.
  SmallVector<Buffer *> byBytes;
  for (Buffer &buffer : local)
    byBytes.push_back(&buffer);
  llvm::stable_sort(byBytes, [](const Buffer *a, const Buffer *b) {
    return a->bytes > b->bytes;
  });
  SmallVector<Buffer *> placed;
  int64_t functionBytes = 0;
  for (Buffer *buffer : byBytes) {
    auto livesWith = [&](const Buffer *other) {
      return other->liveStart <= buffer->liveEnd &&
             buffer->liveStart <= other->liveEnd;
    };
    // Candidate offsets: the bottom, and just above each placed buffer.
    SmallVector<int64_t> candidates = {0};
    for (const Buffer *other : placed)
      if (livesWith(other))
        candidates.push_back(
            llvm::alignTo(other->offset + other->bytes, buffer->alignment));
    llvm::sort(candidates);
    for (int64_t offset : candidates) {
      bool collides = llvm::any_of(placed, [&](const Buffer *other) {
        return livesWith(other) && offset < other->offset + other->bytes &&
               other->offset < offset + buffer->bytes;
      });
      if (!collides) {
        buffer->offset = offset;
        break;
      }
    }
    placed.push_back(buffer);
    functionBytes = std::max(functionBytes, buffer->offset + buffer->bytes);
  }

  int64_t maxAlignment = kAlignment;
  for (Buffer &buffer : local)
    maxAlignment = std::max(maxAlignment, buffer.alignment);
  totalBytes_ = llvm::alignTo(totalBytes_, maxAlignment);
  for (Buffer &buffer : local) {
    buffer.offset += totalBytes_;
    buffers_.push_back(buffer);
  }
  totalBytes_ += llvm::alignTo(functionBytes, kAlignment);
}

void tritium::allocateSharedMemory(ModuleOp module) {
  Allocation allocation(module);
  Builder builder(module.getContext());
  for (const Allocation::Buffer &buffer : allocation.getBuffers())
    buffer.owner->setAttr(kAllocationOffsetAttrName,
                          builder.getI32IntegerAttr(buffer.offset));
  module->setAttr(kSharedMemorySizeAttrName,
                  builder.getI32IntegerAttr(allocation.getTotalBytes()));
}
