//===- Pipeline.cpp - ttg-pipeline ------------------------------------------===//
//
// Software pipelining of the loads that feed tensor-core dots: loads move
// numStages - 1 iterations ahead and land in a ring of shared buffers (by
// cp.async, or by TMA copies completing on mbarriers), so that global-memory
// latency overlaps the MMAs of the iterations in between.  The ring has
// numStages slots when a warpgroup dot may still read a slot while the next
// copies are issued (it runs asynchronously) or when TMA copies fill it
// (their mbarriers are re-armed); otherwise every reader of a slot is done
// with it when its iteration issues the next copies, which may then take
// the same slot, and the ring has numStages - 1 (Triton's count, one stage
// of shared memory less).
//
// Algorithm, for each scf.for (innermost first, constant positive step)
// with numStages >= 2, the kernel's or the loop's own (tt.num_stages, from
// `tl.range(..., num_stages=k)`: it replaces the kernel's for that loop, and
// such a loop streams its loads whether or not they feed a dot, as Triton
// does: every load below that qualifies for the read-back case):
//   1. Streamed loads, each with a user that is a ttg.local_alloc in the
//      body (the slot replaces that tile):
//        * tt.descriptor_load whose tile is in the layout TMA writes
//          (planTensorDescriptorTile), directly or through a 2-D tt.trans
//          (the dot then reads the slot through ttg.memdesc_trans), of a
//          descriptor from outside the loop (a tensor map made in the body
//          is rewritten in place every iteration);
//        * tt.load on a tensor of pointers, the tile contiguous along the
//          load's contiguous dimension (or a wide NVMMA tile of 4-byte
//          elements contiguous along another one, a transposed tf32
//          operand, copied an element at a time: streamsTransposedElements),
//          masked-out values zero (cp.async zero-fills), vectors of at
//          least 4 bytes a thread (the axis facts of pointer and mask, as
//          the lowering will vectorize); the tile an #ttg.nvmma_shared
//          one (a tensor-core operand) or a
//          #ttg.swizzled_shared one whose swizzle chunk holds 4 bytes (an
//          mma.sync operand read element by element, or a CUDA-core dot's
//          operand, staged by ttg-cuda-core-dot-operands; a loop with
//          staged tiles takes fewer stages where numStages slots of its
//          rings would not fit in a block's shared memory, and none of
//          them below 2);
//        * such a tt.load of a small tile (at most 1 KiB) without a
//          shared-tile user, in a loop that holds a dot or asked for its
//          stages (Triton streams nothing in other loops; a row loop of a
//          recurrence reads its rows where it loads them),
//          when every user is a ttg.convert_layout that
//          would go through shared memory (a row statistic read in a slice
//          of an MMA layout): its slots are plain #ttg.swizzled_shared
//          tiles and each conversion becomes a ttg.local_load of the slot in
//          its target layout, so the conversion's store and its barriers
//          go (the ring's wait and barrier serve it);
//        * such a small tt.load in a layout that holds each element in
//          several threads (a row statistic loaded straight in a slice of
//          an MMA layout): when the body computes its address element-wise
//          it is loaded again in the default blocked layout and converted
//          back, which the previous case streams; otherwise one thread per
//          element copies it in its own layout and its users read the slot
//          back in that layout;
//        * such a tt.load (blocked, of any size, without a shared-tile
//          user) whose value reaches an operand of a dot of the body through
//          an op that computes with it (a cast, a scaling, a
//          dequantization; layout conversions alone do not count:
//          feedsDotInBody): its slots are plain #ttg.swizzled_shared tiles
//          in its own order, and its users read the slot back in its
//          layout, so each lane reads the words it copied, except that a
//          conversion of it through shared memory (a packed weight tile
//          dequantized in its scales' layout) becomes a read of the slot in
//          the conversion's target layout where the bank model
//          (BankConflicts.h) gives that read no more wavefronts than the
//          conversion's store and read; left synchronous
//          when the rings of all loads and the function's other shared
//          tiles would not fit in a block's shared memory.
//      The value's other shared tiles in the slot's layout, or in its
//      transposed layout after register layout changes, become views of
//      the slot (any NVMMA layout will do for a 16-bit wgmma operand); its
//      remaining users read the slot back (ttg.local_load) right before the
//      first of them.
//      First, a carried counter that steps by an invariant (x' = x + c) is
//      rewritten inside the body from the induction variable.
//   2. Stage 0: the body ops the loads depend on, found backward from their
//      operands; a loop-carried value they read pulls in the op that
//      yields it (the pointer increments), and the induction variable is
//      read as it is.  Small tt.loads kept in registers (at most 16 bytes a
//      thread) whose addresses come from the induction variable and
//      invariants join stage 0 too, their values carried through
//      numStages - 1 iter_args (a queue shifted every iteration).  Every
//      other op of the body is stage 1.  A stage-0 op that stage 1 also
//      uses is copied into stage 1 too, unless it reads a loop-carried
//      stage-0 value (then the loop is left alone, as it is when such a
//      value is used after the loop or by stage 1).
//   3. Rewrite, with S ring slots (numStages, or numStages - 1 as above):
//        ring_j = local_alloc [S x shape_j] (mutable); with TMA
//          loads also S mbarriers for each group of TMA loads, each
//          initialized for one arrival (the expect that precedes a
//          stage's copies).  With 2 stages (copies issued one iteration
//          ahead), TMA loads whose tiles the body first reads at the same
//          op form one group, and a loop whose loads are read at different
//          points (attention: K by the first dot, V by the second) gets one
//          barrier ring per group, so the first dot waits only for its own
//          tiles while the later ones land (H200, 2026-12-01: tutorial 06's
//          descriptor forward, head dim 128, (128, 128), 2 stages, 8 warps,
//          445 -> 474 TFLOP/s).  With more stages the copies were issued
//          two or more iterations ahead and have landed by the top of the
//          body: there one group (a second wait and expect per iteration
//          cost 1-5% on the same kernels at 3 stages);
//        prologue, s = 0 .. numStages-2: stage 0 at iv = lb + s * step,
//          each load as an async copy into ring_j[s] masked by its mask
//          and iv < ub (TMA loads: one expect of the group's bytes on the
//          group's barrier s and a TMA copy each, predicated on iv < ub);
//          one commit group; carried stage-0 values advance;
//        loop over the same range, carrying the stage-1 values, the
//          stage-0 values of iteration i + numStages - 1, and the ring
//          slots to fill (insert) and to read (extract):
//          async_wait {num = numStages - 2}: iteration i's group is done
//          (TMA: wait on the first group's barrier[extract] for the phase
//          carried with the slots, which flips each time extract wraps;
//          each later group's wait goes right before the first op that
//          reads one of its slots);
//          stage 1 with each local_alloc replaced by ring_j[extract];
//          stage 0 of iteration i + numStages - 1 into ring_j[insert],
//          masked by iv + (numStages - 1) * step < ub; one commit group
//          (with S = numStages - 1, insert is the slot stage 1 just read:
//          the membar pass puts a barrier between those reads and the
//          copies);
//        async_wait {num = 0} after the loop, and the barriers'
//        invalidation.
//   4. The warpgroup dots of the new loop whose result only the next
//      iteration reads run asynchronously (makeDotsAsync, AsyncDots.cpp).
//      The membar pass adds the barriers between the copies and the reads
//      of the ring.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tritium/Analysis/Allocation.h"
#include "tritium/Analysis/AxisInfo.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Layout/BankConflicts.h"

namespace tritium::ttg {
#define GEN_PASS_DEF_TTGPIPELINEPASS
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"
} // namespace tritium::ttg

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

namespace {

/// The attribute a loop's own stage count comes in (`tl.range(...,
/// num_stages=k)`).
constexpr llvm::StringLiteral kLoopNumStagesAttr = "tt.num_stages";

/// The largest converted load (bytes of the tile): numStages of them share
/// shared memory with the dot operands' rings.
constexpr int64_t kMaxConvertedLoadBytes = 1024;

/// How many ops a loaded tile may pass through on its way to a dot operand
/// and still be streamed as feeding the dot (LoopPipeliner::feedsDotInBody).
constexpr int kMaxDotFeedDepth = 16;

/// The smallest extent along the load's contiguous dimension at which a
/// transposed tile of 4-byte elements streams (streamsTransposedElements).
constexpr int64_t kMinStreamedTransposedExtent = 128;

/// A load of the loop body streamed through a ring: a tt.load copied by
/// cp.async, or a tt.descriptor_load copied by TMA (`tma`).
struct PipelinedLoad {
  Operation *load;
  LocalAllocOp alloc; // null for a converted load (below)
  bool tma = false;
  int64_t tmaBytes = 0;
  /// A tt.trans between a TMA load and its tile: the ring holds the tile as
  /// loaded and the dot reads it through ttg.memdesc_trans.
  Operation *trans = nullptr;

  /// Other shared tiles of the loaded value that the slot itself serves:
  /// stored as loaded (a view of the slot) or through a 2-D transpose,
  /// possibly after register layout changes (a transposed view).
  SmallVector<std::pair<LocalAllocOp, bool>> slotViews; // (tile, transposed)
  /// The ops between the load and those tiles, which disappear with them.
  DenseSet<Operation *> folded;
  /// A converted load: a small tile whose every user converts it to a layout
  /// that a conversion would reach through shared memory.  Its slot has
  /// this plain layout, and each conversion becomes a read of the slot in
  /// its target layout (so the conversion's store and barriers go away).
  MemDescType plainSlot;
  SmallVector<ConvertLayoutOp> slotReads;
  /// A tile that feeds a dot through other ops, in a plain slot read back
  /// in the load's own layout (LoopPipeliner::readBackLoad).
  bool readBack = false;

  /// The type of one slot of the ring.
  MemDescType slotType() {
    if (!alloc)
      return plainSlot;
    MemDescType type = alloc.getType();
    return trans ? getTransposedTileType(type) : type;
  }

  /// Finds slotViews among the load's users in `body`.
  void collectSlotViews(Block *body) {
    if (!alloc)
      return;
    MemDescType slot = slotType();
    bool nvmma2D = isa<NvmmaSharedEncodingAttr>(slot.getEncoding()) && slot.getRank() == 2;
    for (Operation *user : load->getUsers()) {
      if (user == alloc || user == trans)
        continue;
      SmallVector<Operation *> chain;
      Operation *op = user;
      while (isa<ConvertLayoutOp>(op) && op->hasOneUse()) {
        chain.push_back(op);
        op = *op->user_begin();
      }
      bool transposed = false;
      if (auto transOp = dyn_cast<tt::TransOp>(op)) {
        if (!nvmma2D || !transOp->hasOneUse() ||
            transOp.getOrder() != ArrayRef<int32_t>{1, 0})
          continue;
        chain.push_back(op);
        op = *op->user_begin();
        transposed = true;
      }
      auto tile = dyn_cast<LocalAllocOp>(op);
      if (!tile || tile->getBlock() != body || tile.getType().getMutableMemory())
        continue;
      Attribute want = transposed ? getTransposedTileType(slot).getEncoding()
                                  : slot.getEncoding();
      // A 16-bit wgmma operand reads either majorness (the instruction's
      // transpose flags follow the view's layout): any NVMMA layout will do.
      auto onlyWgmma16 = [&](LocalAllocOp t) {
        return t.getType().getElementTypeBitWidth() == 16 &&
               isa<NvmmaSharedEncodingAttr>(t.getType().getEncoding()) &&
               llvm::all_of(t->getUsers(), [](Operation *u) {
                 return isa<WarpGroupDotOp>(u);
               });
      };
      if (tile.getType().getEncoding() != want && !onlyWgmma16(tile))
        continue;
      slotViews.push_back({tile, transposed});
      folded.insert(chain.begin(), chain.end());
      folded.insert(tile);
    }
  }

  /// Whether a user of the loaded value still needs it in registers.
  bool readsRegisters(Operation *user) {
    return user != alloc && user != trans && !folded.contains(user);
  }
};

/// Whether `value` is absent or a zero constant (splat or scalar).
bool isZeroOrAbsent(Value value) {
  if (!value)
    return true;
  return matchPattern(value, m_Zero()) || matchPattern(value, m_AnyZeroFloat());
}

/// The dimension along which a thread's registers of `type` run contiguous:
/// a blocked layout's order's first; another layout's, the one its registers
/// run along longest (the last on a tie).
int contiguousDimension(RankedTensorType type) {
  auto encoding = cast<DistributedEncodingAttr>(type.getEncoding());
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(encoding))
    return blocked.getOrder()[0];
  layout::LinearLayout layout = encoding.toLinearLayout(type.getShape());
  int dim = type.getRank() - 1;
  for (int d = dim - 1; d >= 0; --d)
    if (layout::contiguousRegisters(layout, d) >
        layout::contiguousRegisters(layout, dim))
      dim = d;
  return dim;
}

/// Bytes each thread moves per vector for `load`, as the lowering would
/// vectorize it: registers consecutive along the layout's contiguous
/// dimension, limited by pointer contiguity, alignment and mask constancy.
int64_t vectorBytes(tt::LoadOp load, const ModuleAxisInfo &axisInfo) {
  auto ptrType = cast<RankedTensorType>(load.getPtr().getType());
  auto encoding = dyn_cast<DistributedEncodingAttr>(ptrType.getEncoding());
  if (!encoding)
    return 0;
  layout::LinearLayout layout = encoding.toLinearLayout(ptrType.getShape());
  int dim = contiguousDimension(ptrType);
  int64_t bytes =
      cast<RankedTensorType>(load.getType()).getElementTypeBitWidth() / 8;
  AxisInfo info = axisInfo.getAxisInfo(load.getPtr());
  int64_t vec = std::min({layout::contiguousRegisters(layout, dim),
                          info.getContiguity(dim),
                          std::max<int64_t>(1, info.getDivisibility(dim) / bytes),
                          std::max<int64_t>(1, 16 / bytes)});
  if (Value mask = load.getMask())
    vec = std::min(vec, axisInfo.getAxisInfo(mask).getConstancy(dim));
  return llvm::bit_floor(static_cast<uint64_t>(std::max<int64_t>(vec, 1))) *
         bytes;
}

class LoopPipeliner {
public:
  /// `streamEveryLoad`: the loop asked for its stages itself, and its loads
  /// stream whether or not they feed a dot.
  LoopPipeliner(scf::ForOp loop, int numStages, bool streamEveryLoad,
                const ModuleAxisInfo &axisInfo)
      : loop(loop), numStages(numStages), streamEveryLoad(streamEveryLoad),
        axisInfo(axisInfo) {}

  /// Pipelines the loop; false (nothing changed) when it does not qualify.
  bool run() {
    if (!collectLoads())
      return false;
    rewriteCountersAsInductions();
    if (!collectStages())
      return false;
    rewrite();
    return true;
  }

private:
  bool collectLoads() {
    // Iteration i + k exists when iv + k * step < ub: a positive step.
    APInt step;
    if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
        !step.isStrictlyPositive())
      return false;
    // (over a copy of the op list: a converted load may be made again in
    // another layout, see reloadInDefaultLayout)
    SmallVector<Operation *> body = llvm::map_to_vector(
        loop.getBody()->getOperations(), [](Operation &op) { return &op; });
    // A loop without a dot that did not ask for its stages streams only the
    // loads a shared tile takes (Triton streams nothing there): its small
    // converted loads stay synchronous, read where they are used.
    bool streamsConvertedLoads = streamEveryLoad || containsDot(loop);
    for (Operation *op : body) {
      if (auto descLoad = dyn_cast<tt::DescriptorLoadOp>(op)) {
        collectDescriptorLoad(descLoad);
        continue;
      }
      auto load = dyn_cast<tt::LoadOp>(op);
      if (!load || !isa<RankedTensorType>(load.getPtr().getType()) ||
          !isZeroOrAbsent(load.getOther()) || load.getIsVolatile())
        continue;
      // The copies move the load's vectors whole: the tile must be
      // contiguous along the same dimension (an operand that wgmma needs
      // K-major but that is loaded along M or N is transposed by the
      // synchronous store instead, unless it is a wide tile of 4-byte
      // elements).  The load's other users read the slot back
      // (ttg.local_load).
      auto blocked = dyn_cast<BlockedEncodingAttr>(
          cast<RankedTensorType>(load.getType()).getEncoding());
      int64_t copyBytes = vectorBytes(load, axisInfo);
      LocalAllocOp alloc;
      for (Operation *user : load->getUsers()) {
        auto candidate = dyn_cast<LocalAllocOp>(user);
        if (candidate && candidate->getBlock() == loop.getBody() && blocked &&
            (slotTakesCopies(candidate.getType(), blocked, copyBytes) ||
             streamsTransposedElements(candidate.getType(), blocked))) {
          alloc = candidate;
          break;
        }
      }
      if (copyBytes < 4)
        continue;
      if (!alloc) {
        if (!streamsConvertedLoads)
          continue;
        size_t before = loads.size();
        collectConvertedLoad(load);
        if (loads.size() == before && blocked &&
            (streamEveryLoad ? !hasSharedTileUser(load) : feedsDotInBody(load)))
          loads.push_back(readBackLoad(load, blocked));
        continue;
      }
      loads.push_back({load, alloc});
    }
    slotReadersAreSynchronous =
        !hasTmaLoads() &&
        !loop.getBody()
             ->walk([](WarpGroupDotOp) { return WalkResult::interrupt(); })
             .wasInterrupted();
    dropReadBackLoadsOverBudget();
    dropStagedOperandsOverBudget();
    for (PipelinedLoad &p : loads)
      p.collectSlotViews(loop.getBody());
    return !loads.empty();
  }

  /// Whether the loop holds a dot (in its body or a loop nested in it).
  static bool containsDot(scf::ForOp loop) {
    return loop.getBody()
        ->walk([](Operation *op) {
          return isa<tt::DotOp, WarpGroupDotOp>(op) ? WalkResult::interrupt()
                                                     : WalkResult::advance();
        })
        .wasInterrupted();
  }

  /// Whether cp.async vectors of `copyBytes` from a load in `blocked` land
  /// whole, at least 4 bytes at a time, in a shared tile of `type`: an NVMMA
  /// tile (a tensor-core operand) or a #ttg.swizzled_shared one (a CUDA-core
  /// dot's operand staged by ttg-cuda-core-dot-operands, or an mma.sync
  /// operand read element by element) contiguous along the load's
  /// contiguous dimension, whose swizzle chunk holds 4 bytes.
  static bool slotTakesCopies(MemDescType type, BlockedEncodingAttr blocked,
                              int64_t copyBytes) {
    unsigned contiguous = blocked.getOrder()[0];
    if (auto nvmma = dyn_cast<NvmmaSharedEncodingAttr>(type.getEncoding()))
      return nvmma.getOrder()[0] == contiguous;
    auto swizzled = dyn_cast<SwizzledSharedEncodingAttr>(type.getEncoding());
    if (!swizzled || swizzled.getOrder()[0] != contiguous)
      return false;
    int64_t chunkBytes = swizzled.getMaxPhase() > 1
                             ? swizzled.getVec() * type.getElementTypeBitWidth() / 8
                             : copyBytes;
    return std::min(copyBytes, chunkBytes) >= 4;
  }

  /// Whether a wide NVMMA tile of 4-byte elements contiguous along another
  /// dimension than a load in `blocked` (a tf32 operand that wgmma needs
  /// K-major, loaded along M or N) streams through a ring of copies, one
  /// 4-byte cp.async an element (the async-copy lowering places each
  /// element by the tile's layout), rather than being stored in its
  /// iteration.  Wide means at least kMinStreamedTransposedExtent elements
  /// along the load's contiguous dimension (the dot's M or N): the copies
  /// then cost less than the latency the store leaves exposed; narrower
  /// tiles keep the store, whose lower shared-memory and register use
  /// leaves room for more blocks on a multiprocessor (measured config by
  /// config on Inductor's tf32 mm template, docs/performance.md).
  static bool streamsTransposedElements(MemDescType type,
                                        BlockedEncodingAttr blocked) {
    auto nvmma = dyn_cast<NvmmaSharedEncodingAttr>(type.getEncoding());
    unsigned contiguous = blocked.getOrder()[0];
    return nvmma && type.getElementTypeBitWidth() == 32 &&
           nvmma.getOrder()[0] != contiguous &&
           type.getShape()[contiguous] >= kMinStreamedTransposedExtent;
  }

  /// A CUDA-core dot's staged operands were sized for one copy each
  /// (ttg-cuda-core-dot-operands keeps them within half of a block's shared
  /// memory).  When the slots of every ring would not fit in a block, a
  /// loop with such operands streams through fewer stages, as many as
  /// their slots fit; below 2 stages, those loads stay synchronous and only
  /// the other rings are made.
  void dropStagedOperandsOverBudget() {
    // Staged: a #ttg.swizzled_shared tile that no mma.sync reads (an
    // mma.sync operand's swizzled tile is a tensor-core operand, like an
    // NVMMA one, and keeps its stages).
    auto isStaged = [](PipelinedLoad &p) {
      if (!p.alloc ||
          !isa<SwizzledSharedEncodingAttr>(p.alloc.getType().getEncoding()))
        return false;
      return llvm::none_of(p.alloc->getUsers(), [](Operation *user) {
        auto read = dyn_cast<LocalLoadOp>(user);
        auto dot = read ? dyn_cast<DotOperandEncodingAttr>(
                              read.getType().getEncoding())
                        : nullptr;
        return dot && isa<NvidiaMmaEncodingAttr>(dot.getParent());
      });
    };
    if (llvm::none_of(loads, isStaged))
      return;
    int64_t slotBytes = 0;
    for (PipelinedLoad &p : loads)
      slotBytes += sharedBytesOf(p.slotType());
    auto module = loop->getParentOfType<ModuleOp>();
    int64_t fittingSlots =
        getSharedMemoryPerBlock(getComputeCapability(module)) / slotBytes;
    int64_t spareStages = numStages - numSlots();
    if (fittingSlots >= numSlots())
      return;
    if (fittingSlots + spareStages >= 2)
      numStages = fittingSlots + spareStages;
    else
      llvm::erase_if(loads, isStaged);
  }

  /// Whether the value `load` yields reaches an operand of a dot of the
  /// loop body through ops of the body that compute with it (casts,
  /// scaling, dequantization), besides layout conversions and the shared
  /// tile the dot reads, at most kMaxDotFeedDepth ops deep: a tile whose
  /// latency the dot waits for, as much as for the operands loaded straight
  /// into shared tiles.  A load with a shared-tile user is not one: its
  /// tile is an operand as loaded, streamed by the rules above or kept
  /// synchronous by them.
  static bool hasSharedTileUser(tt::LoadOp load) {
    return llvm::any_of(load->getUsers(),
                        [](Operation *user) { return isa<LocalAllocOp>(user); });
  }

  bool feedsDotInBody(tt::LoadOp load) {
    Block *body = loop.getBody();
    if (hasSharedTileUser(load))
      return false;
    struct Step {
      Operation *op;
      int depth;
      bool computed; // a computing op lies between the load and `op`
    };
    SmallVector<Step> worklist;
    DenseSet<Operation *> seen[2]; // reached without, with a computing op
    for (Operation *user : load->getUsers())
      worklist.push_back({user, 1, false});
    while (!worklist.empty()) {
      Step step = worklist.pop_back_val();
      Operation *op = step.op;
      if (op->getBlock() != body || !seen[step.computed].insert(op).second)
        continue;
      if (isa<tt::DotOp, WarpGroupDotOp>(op)) {
        if (step.computed)
          return true;
        continue;
      }
      if (step.depth >= kMaxDotFeedDepth || op->getNumRegions() != 0 ||
          isa<scf::YieldOp>(op))
        continue;
      bool computed = step.computed ||
                      !isa<ConvertLayoutOp, LocalAllocOp, LocalLoadOp, tt::TransOp>(op);
      for (Value result : op->getResults())
        for (Operation *user : result.getUsers())
          worklist.push_back({user, step.depth + 1, computed});
    }
    return false;
  }

  /// A load that feeds a dot through other ops (feedsDotInBody) streams
  /// through a ring of plain slots in its own layout: each thread copies
  /// the vectors it would have loaded and its users read the slot back in
  /// that layout (ttg.local_load), so every lane reads the words it wrote.
  ///
  /// A user that converts the value through shared memory (a dequantized
  /// weight tile computed in its scales' layout, say) reads the slot in the
  /// conversion's target layout instead, when that read is modelled to take
  /// no more wavefronts than the conversion's store and read together: the
  /// conversion's scratch, its store and its barriers go, and the ring's
  /// wait and barrier serve the read (slotReadCostsNoMore).
  PipelinedLoad readBackLoad(tt::LoadOp load, BlockedEncodingAttr blocked) {
    PipelinedLoad p{load, LocalAllocOp()};
    SmallVector<unsigned> order(blocked.getOrder().begin(), blocked.getOrder().end());
    auto type = cast<RankedTensorType>(load.getType());
    p.plainSlot = plainSlotType(type, order);
    p.readBack = true;
    for (Operation *user : load->getUsers()) {
      auto convert = dyn_cast<ConvertLayoutOp>(user);
      if (convert && convert->getBlock() == loop.getBody() &&
          slotReadCostsNoMore(type, convert.getType(), order)) {
        p.slotReads.push_back(convert);
        p.folded.insert(convert);
      }
    }
    return p;
  }

  /// Whether reading a plain slot of `type` (unswizzled, dimensions in
  /// `order`, fastest first) straight into `target`'s layout takes no more
  /// modelled wavefronts than the conversion from `type` to `target` does
  /// through shared memory (its store and load phases, every part).  False
  /// when the conversion does not go through shared memory.
  static bool slotReadCostsNoMore(RankedTensorType type, RankedTensorType target,
                                  ArrayRef<unsigned> order) {
    std::optional<layout::ConvertScratchPlan> plan =
        getConvertScratchPlan(type, target);
    auto encoding = dyn_cast<DistributedEncodingAttr>(target.getEncoding());
    if (!plan || !encoding || type.getElementTypeBitWidth() < 8)
      return false;
    int64_t elementBytes = type.getElementTypeBitWidth() / 8;
    // The slot is row-major over the dimensions from the slowest to the
    // fastest of `order`.
    int64_t rank = type.getRank();
    std::vector<int64_t> rowMajor, shape;
    for (int64_t i = rank; i-- > 0;) {
      rowMajor.push_back(order[i]);
      shape.push_back(type.getShape()[order[i]]);
    }
    layout::LinearLayout read =
        encoding.toLinearLayout(target.getShape()).permuteOutDims(rowMajor);
    layout::PaddedTile slot{shape, 0};
    int64_t vec = layout::maxVectorWidth(read, elementBytes);
    layout::AccessCost direct =
        layout::modelTileAccess(read, slot, elementBytes, vec);
    int64_t parts = plan->parts ? plan->parts->numParts() : 1;
    return direct.wavefronts <=
           parts * (plan->store.wavefronts + plan->load.wavefronts);
  }

  /// Read-back loads are left synchronous when the rings of all the loads,
  /// with the function's other shared tiles, would not fit in a block's
  /// shared memory (the loads that are dot operands themselves keep theirs).
  /// A tile a ring replaces is counted once, as its ring; conversion scratch
  /// is not counted, so a kernel the estimate passes may still exceed the
  /// block, which its launch reports as OutOfResources (an autotuner then
  /// drops that config, as Triton's does).
  void dropReadBackLoadsOverBudget() {
    if (llvm::none_of(loads, [](PipelinedLoad &p) { return p.readBack; }))
      return;
    int64_t bytes = 0;
    DenseSet<Operation *> replaced; // the tiles ring slots replace
    for (PipelinedLoad &p : loads) {
      bytes += sharedBytesOf(p.slotType()) * numSlots();
      if (p.alloc)
        replaced.insert(p.alloc);
    }
    if (auto func = loop->getParentOfType<tt::FuncOp>())
      func.walk([&](LocalAllocOp alloc) {
        if (!replaced.contains(alloc))
          bytes += sharedBytesOf(alloc.getType());
      });
    auto module = loop->getParentOfType<ModuleOp>();
    if (bytes > getSharedMemoryPerBlock(getComputeCapability(module)))
      llvm::erase_if(loads, [](PipelinedLoad &p) { return p.readBack; });
  }

  /// A small tile (at most kMaxConvertedLoadBytes) without a shared-tile
  /// user streams through a ring of plain shared slots when
  ///   * it is blocked and its users are all conversions through shared
  ///     memory in the body (a row statistic read in an MMA's slice
  ///     layout, say): the slot is read in each conversion's target layout;
  ///   * or its layout holds each element in several threads (a row
  ///     statistic loaded straight in an MMA's slice layout): loaded again
  ///     in the default blocked layout and converted back when it can be
  ///     (reloadInDefaultLayout; then as above), else one thread per
  ///     element copies it (the lowering's unique-thread predicate) and the
  ///     users read the slot back in that layout.
  void collectConvertedLoad(tt::LoadOp load) {
    auto type = cast<RankedTensorType>(load.getType());
    if (load->use_empty() ||
        type.getNumElements() * type.getElementTypeBitWidth() / 8 >
            kMaxConvertedLoadBytes)
      return;
    auto blocked = dyn_cast<BlockedEncodingAttr>(type.getEncoding());
    if (!blocked) {
      auto encoding = dyn_cast<DistributedEncodingAttr>(type.getEncoding());
      if (!encoding || !isReplicatedOverThreads(encoding.toLinearLayout(type.getShape())))
        return;
      if (tt::LoadOp compact = reloadInDefaultLayout(load)) {
        load = compact;
        type = cast<RankedTensorType>(load.getType());
        blocked = cast<BlockedEncodingAttr>(type.getEncoding());
      } else {
        // The slot runs along the registers' contiguous dimension, so that
        // each copy moves the vector vectorBytes counted (a dot operand
        // loaded in its own layout holds its K pairs along K).
        SmallVector<unsigned> order{unsigned(contiguousDimension(type))};
        for (unsigned d = type.getRank(); d-- > 0;)
          if (d != order.front())
            order.push_back(d);
        loads.push_back({load, LocalAllocOp()});
        loads.back().plainSlot = plainSlotType(type, order);
        return;
      }
    }
    PipelinedLoad p{load, LocalAllocOp()};
    for (Operation *user : load->getUsers()) {
      auto convert = dyn_cast<ConvertLayoutOp>(user);
      if (!convert || convert->getBlock() != loop.getBody() ||
          getConvertLayoutPath(type, convert.getType()) !=
              ConvertLayoutPath::SharedMemory)
        return;
      p.slotReads.push_back(convert);
      p.folded.insert(convert);
    }
    SmallVector<unsigned> order(blocked.getOrder().begin(), blocked.getOrder().end());
    p.plainSlot = plainSlotType(type, order);
    loads.push_back(std::move(p));
  }

  /// A load in a layout that holds each element in several threads, made
  /// again in the default blocked layout (fewer registers and copies a
  /// thread) and converted back, when its operands are computed in the body
  /// only by element-wise ops, splats, ranges and splat constants (values
  /// from outside the loop copied the same way, or else converted before
  /// the loop) and the conversion goes
  /// through shared memory (so the ring's read replaces it).  Elements of
  /// 4 bytes or more (one cp.async each).  Null, with the body unchanged,
  /// otherwise.
  tt::LoadOp reloadInDefaultLayout(tt::LoadOp load) {
    auto type = cast<RankedTensorType>(load.getType());
    if (type.getElementTypeBitWidth() < 32)
      return {};
    auto module = loop->getParentOfType<ModuleOp>();
    Attribute compact =
        getDefaultBlockedEncoding(loop.getContext(), type.getShape(),
                                  getNumWarps(module), getThreadsPerWarp(module));
    RankedTensorType compactType = withEncoding(type, compact);
    if (getConvertLayoutPath(compactType, type) != ConvertLayoutPath::SharedMemory)
      return {};
    SmallVector<Operation *> created;
    IRMapping mapping;
    OpBuilder builder(load);
    bool ok = true;
    for (Value operand : load->getOperands())
      ok = ok && relayout(operand, compact, builder, mapping, created);
    if (!ok) {
      for (Operation *op : llvm::reverse(created))
        op->erase();
      return {};
    }
    Operation *reload = builder.clone(*load, mapping);
    reload->getResult(0).setType(compactType);
    auto back = ConvertLayoutOp::create(builder, load.getLoc(), type, reload->getResult(0));
    SmallVector<Operation *> chain;
    for (Value operand : load->getOperands())
      if (Operation *def = operand.getDefiningOp(); def && def->getBlock() == loop.getBody())
        chain.push_back(def);
    load.getResult().replaceAllUsesWith(back.getResult());
    load->erase();
    // The old address ops that nothing reads any more.
    while (!chain.empty()) {
      Operation *op = chain.pop_back_val();
      if (!isOpTriviallyDead(op))
        continue;
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp(); def && def->getBlock() == loop.getBody())
          chain.push_back(def);
      op->erase();
    }
    return cast<tt::LoadOp>(reload);
  }

  /// Maps `value` to the same values laid out in `encoding` (see
  /// reloadInDefaultLayout), creating the ops that compute them (listed in
  /// `created`): copies of the body's ops at `bodyBuilder`, copies of ops
  /// outside the loop right after them, and a conversion before the loop of
  /// a value from outside that no such copy computes.  False when the body
  /// computes it otherwise.
  bool relayout(Value value, Attribute encoding, OpBuilder &bodyBuilder,
                IRMapping &mapping, SmallVector<Operation *> &created) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || mapping.contains(value))
      return true; // scalars serve any layout
    RankedTensorType wanted = withEncoding(type, encoding);
    Operation *def = value.getDefiningOp();
    bool inBody = def ? def->getBlock() == loop.getBody()
                      : cast<BlockArgument>(value).getOwner() == loop.getBody();
    if (def && !inBody && loop->isProperAncestor(def))
      return false; // computed in a nested region of the body
    if (def && isRelayoutable(def)) {
      OpBuilder afterDef(def->getContext());
      afterDef.setInsertionPointAfter(def);
      OpBuilder &builder = inBody ? bodyBuilder : afterDef;
      for (Value operand : def->getOperands())
        if (!relayout(operand, encoding, bodyBuilder, mapping, created))
          return false;
      Operation *copy;
      if (auto constant = dyn_cast<arith::ConstantOp>(def))
        copy = arith::ConstantOp::create(
            builder, def->getLoc(), wanted,
            SplatElementsAttr::get(wanted, cast<SplatElementsAttr>(constant.getValue())
                                               .getSplatValue<Attribute>()));
      else
        copy = builder.clone(*def, mapping);
      copy->getResult(0).setType(wanted);
      created.push_back(copy);
      mapping.map(value, copy->getResult(0));
      return true;
    }
    if (inBody)
      return false; // a carried tensor, or an op with its own layout rules
    OpBuilder before(loop);
    auto convert = ConvertLayoutOp::create(before, value.getLoc(), wanted, value);
    created.push_back(convert);
    mapping.map(value, convert.getResult());
    return true;
  }

  /// Ops whose one result may take any layout its operands take: element-
  /// wise ops, splats, ranges and splat constants, without side effects.
  static bool isRelayoutable(Operation *op) {
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      return isa<SplatElementsAttr>(constant.getValue());
    return (op->hasTrait<OpTrait::Elementwise>() ||
            isa<tt::SplatOp, tt::MakeRangeOp, tt::AddPtrOp>(op)) &&
           op->getNumResults() == 1 && op->getNumRegions() == 0 &&
           isMemoryEffectFree(op);
  }

  /// Whether some lane or warp of `layout` holds the same elements as
  /// another (a zero basis: more threads than elements along the way).
  static bool isReplicatedOverThreads(const layout::LinearLayout &layout) {
    for (layout::HwDim dim : {layout::HwDim::Lane, layout::HwDim::Warp})
      for (const std::vector<int64_t> &basis : layout.bases(dim))
        if (llvm::all_of(basis, [](int64_t c) { return c == 0; }))
          return true;
    return false;
  }

  /// An unswizzled mutable shared slot for a tile of `type`.
  MemDescType plainSlotType(RankedTensorType type, ArrayRef<unsigned> order) {
    MLIRContext *context = loop.getContext();
    return MemDescType::get(type.getShape(), type.getElementType(),
                            SwizzledSharedEncodingAttr::get(context, 1, 1, 1, order),
                            SharedMemorySpaceAttr::get(context), /*mutableMemory=*/true);
  }

  /// A descriptor load with a user that is a shared tile in the layout TMA
  /// writes (a dot operand's) streams through a TMA ring.
  void collectDescriptorLoad(tt::DescriptorLoadOp load) {
    // A tensor map made in the loop is rewritten in place every iteration:
    // copies issued stages ahead would read the next iteration's.
    if (!loop.isDefinedOutsideOfLoop(load.getDesc()))
      return;
    FailureOr<TensorDescriptorTile> tile =
        planTensorDescriptorTile(load, load.getDesc(), /*report=*/false);
    if (failed(tile))
      return;
    // A user that stores the tile in the layout TMA writes (directly or
    // through a 2-D transpose) reads the slot instead; the others read it
    // back (ttg.local_load).
    for (Operation *user : load->getUsers()) {
      auto trans = dyn_cast<tt::TransOp>(user);
      if (trans) {
        if (!trans->hasOneUse() || trans.getOrder() != ArrayRef<int32_t>{1, 0})
          continue;
        user = *trans->user_begin();
      }
      auto alloc = dyn_cast<LocalAllocOp>(user);
      if (!alloc || alloc->getBlock() != loop.getBody())
        continue;
      MemDescType want = alloc.getType();
      if (trans) {
        if (!isa<NvmmaSharedEncodingAttr>(want.getEncoding()))
          continue;
        want = getTransposedTileType(want);
      }
      if (tile->encoding != want.getEncoding())
        continue;
      loads.push_back({load, alloc, /*tma=*/true, tile->plan.tileBytes, trans});
      return;
    }
  }

  bool isPipelinedLoad(Operation *op) const {
    return llvm::any_of(loads, [&](const PipelinedLoad &p) { return p.load == op; });
  }
  bool hasTmaLoads() const {
    return llvm::any_of(loads, [](const PipelinedLoad &p) { return p.tma; });
  }
  bool hasAsyncCopies() const {
    return llvm::any_of(loads, [](const PipelinedLoad &p) { return !p.tma; });
  }

  bool collectStages() {
    Block *body = loop.getBody();
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    SmallVector<Value> worklist;
    for (const PipelinedLoad &p : loads) {
      stage0.insert(p.load);
      worklist.append(p.load->operand_begin(), p.load->operand_end());
    }
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      if (auto arg = dyn_cast<BlockArgument>(value)) {
        if (arg.getOwner() != body || arg == loop.getInductionVar())
          continue;
        unsigned index = arg.getArgNumber() - 1;
        if (carried0.insert(index))
          worklist.push_back(yield.getOperand(index));
        continue;
      }
      Operation *def = value.getDefiningOp();
      if (def->getBlock() != body) {
        if (loop->isAncestor(def))
          return false; // defined inside a nested region of the body
        continue;       // loop-invariant
      }
      if (!stage0.insert(def).second)
        continue;
      if (def->getNumRegions() != 0 || !isMemoryEffectFree(def))
        if (!isPipelinedLoad(def))
          return false;
      worklist.append(def->operand_begin(), def->operand_end());
    }
    collectRegisterLoads();
    // A loaded tile arrives asynchronously: nothing that stage 0 computes
    // may read it (an address computed from loaded data).
    for (const PipelinedLoad &p : loads)
      for (Operation *user : p.load->getUsers())
        if (stage0.contains(user))
          return false;
    // Loop-carried stage-0 values: read only by stage 0, unused after.
    for (unsigned index : carried0) {
      if (!loop.getResult(index).use_empty())
        return false;
      for (Operation *user : loop.getRegionIterArg(index).getUsers())
        if (!stage0.contains(user))
          return false;
    }
    // Stage-0 ops that stage 1 also needs are recomputed there.
    for (Operation &op : *body) {
      if (!stage0.contains(&op) || isPipelinedLoad(&op) || isRegisterLoad(&op))
        continue;
      bool usedByStage1 = llvm::any_of(op.getUsers(), [&](Operation *user) {
        return !stage0.contains(user) &&
               !(isa<scf::YieldOp>(user) && yieldsOnlyCarried0(&op));
      });
      if (!usedByStage1)
        continue;
      if (readsCarried0(&op))
        return false;
      shared.insert(&op);
    }
    // What a recomputed op reads from stage 0 is recomputed too.
    SmallVector<Operation *> worklist2(shared.begin(), shared.end());
    while (!worklist2.empty()) {
      Operation *op = worklist2.pop_back_val();
      for (Value operand : op->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (def && def->getBlock() == loop.getBody() && stage0.contains(def) &&
            !isPipelinedLoad(def) && !isRegisterLoad(def) && shared.insert(def).second)
          worklist2.push_back(def);
      }
    }
    return true;
  }

  /// A carried integer that only steps by a loop-invariant amount each
  /// iteration (x' = x + c) is, inside the body, init + ((iv - lb) / step)
  /// * c: computed from the induction variable, stage 0 can compute it for
  /// any iteration ahead without carrying it (attention backward's row
  /// offset, from which its per-row loads are addressed).  The carried
  /// value itself is kept for its increment and the loop's result.
  void rewriteCountersAsInductions() {
    Block *body = loop.getBody();
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    Value iv = loop.getInductionVar();
    for (unsigned i = 0, e = loop.getNumRegionIterArgs(); i < e; ++i) {
      Value arg = loop.getRegionIterArg(i);
      if (arg.getType() != iv.getType())
        continue;
      auto add = yield.getOperand(i).getDefiningOp<arith::AddIOp>();
      if (!add || add->getBlock() != body)
        continue;
      Value step = add.getLhs() == arg ? add.getRhs() : add.getRhs() == arg ? add.getLhs() : Value();
      if (!step || (step.getDefiningOp() && loop->isAncestor(step.getDefiningOp())) ||
          (isa<BlockArgument>(step) && cast<BlockArgument>(step).getOwner() == body))
        continue;
      if (llvm::all_of(arg.getUsers(), [&](Operation *user) { return user == add; }))
        continue;
      OpBuilder builder = OpBuilder::atBlockBegin(body);
      Location loc = add.getLoc();
      Value trip = arith::DivSIOp::create(
          builder, loc, arith::SubIOp::create(builder, loc, iv, loop.getLowerBound()),
          loop.getStep());
      Value value = arith::AddIOp::create(
          builder, loc, loop.getInitArgs()[i],
          arith::MulIOp::create(builder, loc, trip, step));
      arg.replaceUsesWithIf(value, [&](OpOperand &use) { return use.getOwner() != add; });
    }
  }

  /// Small tt.loads of the body that stay in registers (per-row values such
  /// as attention's log-sum-exp) join stage 0 when their addresses are
  /// computed from what stage 0 already computes: they are issued
  /// numStages - 1 iterations ahead and their values carried to the
  /// iteration that reads them.
  void collectRegisterLoads() {
    Block *body = loop.getBody();
    for (Operation &op : *body) {
      auto load = dyn_cast<tt::LoadOp>(&op);
      if (!load || isPipelinedLoad(load) || load.getIsVolatile())
        continue;
      auto type = dyn_cast<RankedTensorType>(load.getType());
      if (!type || type.getNumElements() * type.getElementTypeBitWidth() / 8 >
                       16 * 32 * getNumWarps(loop->getParentOfType<ModuleOp>()))
        continue; // more than 16 bytes a thread: too many registers to carry
      // The address slice: pure ops of the body over the induction
      // variable, loop invariants and values stage 0 already computes
      // (but no carried stage-0 value: stage 1 may need the same ops, and
      // a recomputed op must not read one, see collectStages).
      SmallVector<Operation *> slice;
      DenseSet<Operation *> seen;
      SmallVector<Value> worklist(load->operand_begin(), load->operand_end());
      bool ok = true;
      while (ok && !worklist.empty()) {
        Value value = worklist.pop_back_val();
        if (auto arg = dyn_cast<BlockArgument>(value)) {
          ok = arg.getOwner() != body || arg == loop.getInductionVar();
          continue;
        }
        Operation *def = value.getDefiningOp();
        if (def->getBlock() != body) {
          ok = !loop->isAncestor(def);
          continue;
        }
        if (!seen.insert(def).second)
          continue;
        if (stage0.contains(def) && readsCarried0(def)) {
          ok = false;
          continue;
        }
        if (stage0.contains(def))
          continue;
        if (def->getNumRegions() != 0 || !isMemoryEffectFree(def)) {
          ok = false;
          continue;
        }
        slice.push_back(def);
        worklist.append(def->operand_begin(), def->operand_end());
      }
      if (!ok)
        continue;
      stage0.insert(slice.begin(), slice.end());
      stage0.insert(load);
      registerLoads.push_back(load);
    }
  }

  bool isRegisterLoad(Operation *op) const {
    return llvm::is_contained(registerLoads, op);
  }

  /// Whether every use of `op`'s results by the yield is a carried stage-0
  /// value.
  bool yieldsOnlyCarried0(Operation *op) {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (OpOperand &use : yield->getOpOperands())
      if (use.get().getDefiningOp() == op &&
          !carried0.contains(use.getOperandNumber()))
        return false;
    return true;
  }

  /// Whether `op` depends, within the body, on a carried stage-0 value.
  bool readsCarried0(Operation *op) {
    SmallVector<Value> worklist(op->operand_begin(), op->operand_end());
    DenseSet<Value> seen;
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      if (!seen.insert(value).second)
        continue;
      if (auto arg = dyn_cast<BlockArgument>(value)) {
        if (arg.getOwner() == loop.getBody() &&
            arg != loop.getInductionVar() &&
            carried0.contains(arg.getArgNumber() - 1))
          return true;
        continue;
      }
      Operation *def = value.getDefiningOp();
      if (def->getBlock() == loop.getBody())
        worklist.append(def->operand_begin(), def->operand_end());
    }
    return false;
  }

  /// Emits stage 0 with `mapping` (induction variable and carried stage-0
  /// values already mapped): each load becomes an async copy into
  /// ring[slot] masked by `valid`; then one commit group.
  void emitStage0(OpBuilder &builder, IRMapping &mapping, Value slot,
                  Value valid) {
    Location loc = loop.getLoc();
    // One arrival per stage on each group's barrier, expecting the bytes
    // of the group's TMA copies.
    SmallVector<Value> groupBarriers;
    for (size_t g = 0; g < barriers.size(); ++g) {
      int64_t tmaBytes = 0;
      for (auto [j, p] : llvm::enumerate(loads))
        tmaBytes += tmaGroup[j] == static_cast<int>(g) ? p.tmaBytes : 0;
      groupBarriers.push_back(barrierOf(builder, g, slot));
      BarrierExpectOp::create(builder, loc, groupBarriers.back(), tmaBytes, valid);
    }
    for (Operation &op : *loop.getBody()) {
      if (!stage0.contains(&op))
        continue;
      if (isRegisterLoad(&op)) {
        // Issued ahead: masked off past the loop's end.
        auto load = cast<tt::LoadOp>(&op);
        auto maskType = tt::getI1SameShape(load.getPtr().getType());
        Value mask = tt::SplatOp::create(builder, loc, maskType, valid);
        if (Value own = load.getMask())
          mask = arith::AndIOp::create(builder, loc, mapping.lookupOrDefault(own), mask);
        auto cloned = cast<tt::LoadOp>(builder.clone(op, mapping));
        cloned.getMaskMutable().assign(mask);
        continue;
      }
      if (!isPipelinedLoad(&op)) {
        builder.clone(op, mapping);
        continue;
      }
      unsigned j = llvm::find_if(loads, [&](auto &p) { return p.load == &op; }) -
                   loads.begin();
      if (auto descLoad = dyn_cast<tt::DescriptorLoadOp>(&op)) {
        SmallVector<Value> indices;
        for (Value index : descLoad.getIndices())
          indices.push_back(mapping.lookupOrDefault(index));
        AsyncTMACopyGlobalToLocalOp::create(
            builder, loc, mapping.lookupOrDefault(descLoad.getDesc()), indices,
            viewOf(builder, j, slot), groupBarriers[tmaGroup[j]], valid);
        continue;
      }
      auto load = cast<tt::LoadOp>(&op);
      auto maskType = tt::getI1SameShape(load.getPtr().getType());
      Value mask = tt::SplatOp::create(builder, loc, maskType, valid);
      if (Value own = load.getMask())
        mask = arith::AndIOp::create(builder, loc, mapping.lookupOrDefault(own), mask);
      Value view = viewOf(builder, j, slot);
      AsyncCopyGlobalToLocalOp::create(
          builder, loc, tokenType(), mapping.lookupOrDefault(load.getPtr()), view, mask,
          Value(), load.getCache(), load.getEvict(), /*isVolatile=*/false);
    }
    if (hasAsyncCopies())
      AsyncCommitGroupOp::create(builder, loc, tokenType(), ValueRange{});
  }

  /// The mbarrier of ring slot `slot` for TMA group `group`.
  Value barrierOf(OpBuilder &builder, size_t group, Value slot) {
    Value ring = barriers[group];
    auto ringType = cast<MemDescType>(ring.getType());
    auto viewType = MemDescType::get(
        builder.getContext(), {1}, ringType.getElementType(),
        ringType.getEncoding(), ringType.getMemorySpace(),
        /*mutableMemory=*/true, ringType.getShape());
    return MemDescIndexOp::create(builder, loop.getLoc(), viewType, ring,
                                  slot);
  }

  Type tokenType() { return AsyncTokenType::get(loop.getContext()); }

  void emitWait(OpBuilder &builder, int64_t pending) {
    if (!hasAsyncCopies())
      return;
    AsyncWaitOp::create(builder, loop.getLoc(), tokenType(), ValueRange{},
                        builder.getI32IntegerAttr(pending));
  }

  /// ring_j[slot] as a view of one stage.
  Value viewOf(OpBuilder &builder, unsigned j, Value slot) {
    MemDescType ringType = cast<MemDescType>(rings[j].getType());
    MemDescType allocType = loads[j].slotType();
    auto viewType = MemDescType::get(
        builder.getContext(), allocType.getShape(), allocType.getElementType(),
        allocType.getEncoding(), allocType.getMemorySpace(),
        /*mutableMemory=*/true, ringType.getShape());
    return MemDescIndexOp::create(builder, loop.getLoc(), viewType, rings[j],
                                  slot);
  }

  /// `iv + k * step` and whether it is below the upper bound.
  std::pair<Value, Value> iterationAhead(OpBuilder &builder, Value iv,
                                         int64_t k) {
    Location loc = loop.getLoc();
    Type type = iv.getType();
    Value offset = arith::MulIOp::create(
        builder, loc, loop.getStep(),
        arith::ConstantOp::create(builder, loc, builder.getIntegerAttr(type, k)));
    Value ahead = k == 0 ? iv : arith::AddIOp::create(builder, loc, iv, offset).getResult();
    Value valid = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                        ahead, loop.getUpperBound());
    return {ahead, valid};
  }

  void rewrite() {
    Location loc = loop.getLoc();
    OpBuilder builder(loop);
    Block *body = loop.getBody();
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    MLIRContext *context = loop.getContext();
    auto constI32 = [&](OpBuilder &b, int64_t v) {
      return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v)).getResult();
    };

    // The rings.
    for (PipelinedLoad &p : loads) {
      MemDescType type = p.slotType();
      SmallVector<int64_t> shape = {numSlots()};
      shape.append(type.getShape().begin(), type.getShape().end());
      auto ringType = MemDescType::get(context, shape, type.getElementType(),
                                       type.getEncoding(), type.getMemorySpace(),
                                       /*mutableMemory=*/true, shape);
      rings.push_back(LocalAllocOp::create(builder, loc, ringType, Value()));
    }
    // The TMA copies' barriers, one per slot and group, each expecting one
    // arrival.
    int numGroups = groupTmaLoads();
    for (int g = 0; g < numGroups; ++g) {
      barriers.push_back(LocalAllocOp::create(
          builder, loc, barrierArrayType(context, {numSlots(), 1}), Value()));
      for (int64_t s = 0; s < numSlots(); ++s)
        InitBarrierOp::create(builder, loc, barrierOf(builder, g, constI32(builder, s)), 1);
    }

    // Prologue: iterations 0 .. numStages - 2, into slots 0 .. numStages - 2
    // (S >= numStages - 1).
    IRMapping ahead;
    for (unsigned index : carried0)
      ahead.map(loop.getRegionIterArg(index), loop.getInitArgs()[index]);
    for (int64_t s = 0; s < numStages - 1; ++s) {
      auto [iv, valid] = iterationAhead(builder, loop.getLowerBound(), s);
      ahead.map(loop.getInductionVar(), iv);
      emitStage0(builder, ahead, constI32(builder, s), valid);
      for (Operation *load : registerLoads)
        prologueValues[load].push_back(ahead.lookup(load->getResult(0)));
      advanceCarried(ahead, yield);
    }

    // The new loop.
    SmallVector<Value> inits(loop.getInitArgs());
    for (unsigned index : carried0)
      inits[index] = ahead.lookup(loop.getRegionIterArg(index));
    inits.push_back(constI32(builder, (numStages - 1) % numSlots())); // insert slot
    inits.push_back(constI32(builder, 0));             // extract slot
    if (hasTmaLoads())
      inits.push_back(constI32(builder, 0)); // extract slot's barrier phase
    // Register loads: the values of the next numStages - 1 iterations.
    unsigned registerBase = inits.size();
    for (Operation *load : registerLoads)
      inits.append(prologueValues[load].begin(), prologueValues[load].end());
    auto newLoop = scf::ForOp::create(builder, loc, loop.getLowerBound(),
                                      loop.getUpperBound(), loop.getStep(),
                                      inits);
    Block *newBody = newLoop.getBody();
    OpBuilder inner = OpBuilder::atBlockBegin(newBody);
    unsigned numCarried = loop.getNumRegionIterArgs();
    Value insert = newLoop.getRegionIterArg(numCarried);
    Value extract = newLoop.getRegionIterArg(numCarried + 1);
    Value phase = hasTmaLoads() ? newLoop.getRegionIterArg(numCarried + 2) : Value();
    auto registerValue = [&](unsigned j, int64_t ahead) {
      return newLoop.getRegionIterArg(registerBase + j * (numStages - 1) + ahead);
    };

    emitWait(inner, numStages - 2);
    if (hasTmaLoads())
      WaitBarrierOp::create(inner, loc, barrierOf(inner, 0, extract), phase);
    IRMapping current;
    current.map(loop.getInductionVar(), newLoop.getInductionVar());
    for (unsigned i = 0; i < numCarried; ++i)
      if (!carried0.contains(i))
        current.map(loop.getRegionIterArg(i), newLoop.getRegionIterArg(i));
    for (auto [j, load] : llvm::enumerate(registerLoads))
      current.map(load->getResult(0), registerValue(j, 0));
    SmallVector<Operation *> readBacks;
    SmallVector<Value> extractSlots;
    for (auto [j, p] : llvm::enumerate(loads)) {
      Value slot = viewOf(inner, j, extract);
      extractSlots.push_back(slot);
      Value view = slot;
      if (p.trans)
        view = MemDescTransOp::create(
            inner, loc, getTransposedTileType(cast<MemDescType>(view.getType())),
            view);
      if (p.alloc)
        current.map(p.alloc.getResult(), view);
      for (ConvertLayoutOp convert : p.slotReads) {
        auto read = LocalLoadOp::create(inner, loc, convert.getType(), slot, Value());
        current.map(convert.getResult(), read.getResult());
        readBacks.push_back(read);
      }
      for (auto [tile, transposed] : p.slotViews) {
        Value other = slot;
        if (transposed)
          other = MemDescTransOp::create(
              inner, loc, getTransposedTileType(cast<MemDescType>(slot.getType())),
              slot);
        current.map(tile.getResult(), other);
      }
      // The load's other users read the slot back.
      Value loaded = p.load->getResult(0);
      auto &pipelined = p;
      if (llvm::any_of(loaded.getUsers(), [&](Operation *user) {
            return pipelined.readsRegisters(user);
          })) {
        auto readBack = LocalLoadOp::create(inner, loc, loaded.getType(), slot, Value());
        current.map(loaded, readBack.getResult());
        readBacks.push_back(readBack);
      }
    }
    for (Operation &op : body->without_terminator()) {
      if (isPipelinedLoad(&op))
        continue;
      if (llvm::any_of(loads, [&](auto &p) {
            return p.alloc == &op || p.trans == &op || p.folded.contains(&op);
          }))
        continue;
      if (stage0.contains(&op) && !shared.contains(&op))
        continue;
      inner.clone(op, current);
    }

    // Each read-back goes right before its first reader, so the tile is
    // not held in registers across the iteration.
    for (Operation *readBack : readBacks)
      if (Operation *first = firstUserIn(newBody, readBack->getResults(),
                                         [](Operation *) { return false; }))
        readBack->moveBefore(first);
    // Each later TMA group waits right before the first op that reads one
    // of its slots (through views), or at the end of the body if none does.
    for (int g = 1; g < numGroups; ++g) {
      Operation *first = nullptr;
      for (auto [j, slot] : llvm::enumerate(extractSlots))
        if (tmaGroup[j] == g)
          if (Operation *reader = firstUserIn(newBody, slot, isSharedView))
            if (!first || reader->isBeforeInBlock(first))
              first = reader;
      OpBuilder at = first ? OpBuilder(first) : OpBuilder::atBlockEnd(newBody);
      WaitBarrierOp::create(at, loc, barrierOf(at, g, extract), phase);
    }

    IRMapping next;
    for (unsigned index : carried0)
      next.map(loop.getRegionIterArg(index), newLoop.getRegionIterArg(index));
    auto [ivAhead, valid] =
        iterationAhead(inner, newLoop.getInductionVar(), numStages - 1);
    next.map(loop.getInductionVar(), ivAhead);
    emitStage0(inner, next, insert, valid);
    advanceCarried(next, yield);

    SmallVector<Value> yielded;
    for (unsigned i = 0; i < numCarried; ++i)
      yielded.push_back(carried0.contains(i)
                            ? next.lookup(loop.getRegionIterArg(i))
                            : current.lookupOrDefault(yield.getOperand(i)));
    auto wrap = [&](Value slot) {
      Value plus = arith::AddIOp::create(inner, loc, slot, constI32(inner, 1));
      Value full = arith::CmpIOp::create(inner, loc, arith::CmpIPredicate::eq,
                                         plus, constI32(inner, numSlots()));
      return arith::SelectOp::create(inner, loc, full, constI32(inner, 0), plus)
          .getResult();
    };
    yielded.push_back(wrap(insert));
    Value nextExtract = wrap(extract);
    yielded.push_back(nextExtract);
    if (phase) {
      // The barrier phase flips each time the extract slot wraps to 0.
      Value wrapped = arith::CmpIOp::create(inner, loc, arith::CmpIPredicate::eq,
                                            nextExtract, constI32(inner, 0));
      Value flipped = arith::XOrIOp::create(inner, loc, phase, constI32(inner, 1));
      yielded.push_back(
          arith::SelectOp::create(inner, loc, wrapped, flipped, phase).getResult());
    }
    for (auto [j, load] : llvm::enumerate(registerLoads)) {
      for (int64_t k = 1; k < numStages - 1; ++k)
        yielded.push_back(registerValue(j, k));
      yielded.push_back(next.lookup(load->getResult(0)));
    }
    scf::YieldOp::create(inner, loc, yielded);

    builder.setInsertionPointAfter(newLoop);
    emitWait(builder, 0);
    for (int g = 0; g < numGroups; ++g)
      for (int64_t s = 0; s < numSlots(); ++s)
        InvalBarrierOp::create(builder, loc, barrierOf(builder, g, constI32(builder, s)));
    for (unsigned i = 0; i < numCarried; ++i)
      loop.getResult(i).replaceAllUsesWith(newLoop.getResult(i));
    loop.erase();
    // After the uses moved to the new loop: its results are then read
    // through the final waits.
    makeDotsAsync(newLoop);
  }

  /// Groups the TMA loads by the op of the original body that first reads
  /// their tiles (through the ops that become the slot: the tile's
  /// local_alloc, a tt.trans, the folded register-layout changes, and
  /// shared-memory views); loads without a reader join the first group,
  /// and with more than 2 stages every load does (see the overview).
  /// Groups are numbered in the order of their readers; returns how many
  /// (0 without TMA loads).
  int groupTmaLoads() {
    Block *body = loop.getBody();
    SmallVector<Operation *> readers; // per load, null when none
    for (PipelinedLoad &p : loads) {
      if (!p.tma || numStages > 2) {
        readers.push_back(nullptr);
        continue;
      }
      readers.push_back(firstUserIn(body, p.load->getResults(), [&](Operation *op) {
        return op == p.alloc.getOperation() || op == p.trans ||
               p.folded.contains(op) || isSharedView(op);
      }));
    }
    SmallVector<Operation *> order; // distinct readers, in body order
    for (Operation *reader : readers)
      if (reader && !llvm::is_contained(order, reader))
        order.push_back(reader);
    llvm::sort(order, [](Operation *a, Operation *b) {
      return a != b && a->isBeforeInBlock(b);
    });
    tmaGroup.clear();
    for (auto [j, p] : llvm::enumerate(loads))
      tmaGroup.push_back(!p.tma ? -1
                         : readers[j] ? llvm::find(order, readers[j]) - order.begin()
                                      : 0);
    if (!hasTmaLoads())
      return 0;
    return std::max<int>(1, order.size());
  }

  /// Whether `op` only makes a view of shared memory (a memdesc of its
  /// operand, no memory access).
  static bool isSharedView(Operation *op) {
    return op->getNumResults() == 1 &&
           isa<MemDescType>(op->getResult(0).getType()) &&
           isMemoryEffectFree(op);
  }

  /// The op of `block` (or holding one, for users nested in it) that first
  /// uses one of `roots`, looking through the users `passesOn` accepts to
  /// the users of their results; null when none does.
  static Operation *firstUserIn(Block *block, ValueRange roots,
                                llvm::function_ref<bool(Operation *)> passesOn) {
    Operation *first = nullptr;
    SmallVector<Value> work(roots.begin(), roots.end());
    DenseSet<Value> seen;
    while (!work.empty()) {
      Value value = work.pop_back_val();
      if (!seen.insert(value).second)
        continue;
      for (Operation *user : value.getUsers()) {
        if (passesOn(user)) {
          work.append(user->result_begin(), user->result_end());
          continue;
        }
        Operation *inBlock = block->findAncestorOpInBlock(*user);
        if (inBlock && (!first || inBlock->isBeforeInBlock(first)))
          first = inBlock;
      }
    }
    return first;
  }

  /// Maps each carried stage-0 value to what the just-emitted stage 0
  /// yields for it (the next iteration's value).
  void advanceCarried(IRMapping &mapping, scf::YieldOp yield) {
    SmallVector<std::pair<Value, Value>> updates;
    for (unsigned index : carried0)
      updates.push_back({loop.getRegionIterArg(index),
                         mapping.lookupOrDefault(yield.getOperand(index))});
    for (auto [from, to] : updates)
      mapping.map(from, to);
  }

  /// Ring slots: numStages - 1 when every reader of a slot is done with it
  /// before its iteration issues the next copies (no warpgroup dot, which
  /// may run asynchronously, and no TMA copy, whose mbarrier would be
  /// re-armed), else numStages.
  int64_t numSlots() const {
    return slotReadersAreSynchronous ? numStages - 1 : numStages;
  }

  scf::ForOp loop;
  int64_t numStages;
  bool streamEveryLoad;
  bool slotReadersAreSynchronous = false;
  const ModuleAxisInfo &axisInfo;
  SmallVector<PipelinedLoad> loads;
  DenseSet<Operation *> stage0;
  DenseSet<Operation *> shared;
  llvm::SetVector<unsigned> carried0;
  SmallVector<Value> rings;
  /// [numSlots() x 1] mbarriers of each group of TMA copies, if any.
  SmallVector<Value> barriers;
  /// Each load's TMA group (groupTmaLoads), -1 for a cp.async load.
  SmallVector<int> tmaGroup;
  /// Small loads kept in registers, issued numStages - 1 iterations ahead.
  SmallVector<Operation *> registerLoads;
  DenseMap<Operation *, SmallVector<Value>> prologueValues;
};

} // namespace

void ttg::pipelineLoops(ModuleOp module, int numStages) {
  // Each loop with its stages: its own tt.num_stages, else the kernel's.
  SmallVector<std::tuple<scf::ForOp, int, bool>> loops;
  module.walk([&](scf::ForOp loop) { // innermost first
    auto own = loop->getAttrOfType<IntegerAttr>(kLoopNumStagesAttr);
    int stages = own ? static_cast<int>(own.getInt()) : numStages;
    if (stages >= 2)
      loops.push_back({loop, stages, own != nullptr});
  });
  if (loops.empty())
    return;
  ModuleAxisInfo axisInfo(module);
  for (auto [loop, stages, own] : loops)
    LoopPipeliner(loop, stages, /*streamEveryLoad=*/own, axisInfo).run();
}

namespace {
struct TTGPipelinePass
    : public tritium::ttg::impl::TTGPipelinePassBase<TTGPipelinePass> {
  using TTGPipelinePassBase::TTGPipelinePassBase;
  void runOnOperation() override { pipelineLoops(getOperation(), numStages); }
};
} // namespace
