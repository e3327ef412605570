//===- WarpSpecialize.cpp - ttg-warp-specialize ----------------------------===//
//
// `tl.range(..., warp_specialize=True)` on Hopper: one extra warp (the
// producer) issues the TMA copies of a matmul loop while the kernel's warps
// (the consumers) run its MMAs and epilogue, the two meeting on mbarriers
// instead of the CTA barrier of the software pipeline.
//
// Algorithm, for an scf.for L marked `tt.warp_specialize` (sm_90) directly
// in the kernel's body (not a device function's: the partition's warps
// would return into the caller):
//   1. The K loop: L itself when its body holds tt.descriptor_loads, else
//      the one scf.for of L's body that does.  Every descriptor load of the
//      K loop must feed, directly or through a 2-D tt.trans, a shared tile
//      in the layout TMA writes, read only by the loop's one warpgroup dot,
//      which accumulates into a carried value read by nothing else; the
//      descriptors are kernel arguments (host-encoded tensor maps) or made
//      before L (the producer acquires them first).  The ops before L run
//      on every warp, the producer's too: they may not touch memory with
//      tensors or go through shared memory (the layouts do not know the
//      producer's warp), and the kernel makes no calls.  The
//      producer's slice is what the loads' indices and the K loop's bounds
//      need, backward within L: pure ops without regions, over induction
//      variables and values defined above L (no other carried value).
//      Otherwise L is left alone (the hint is ignored, as on other targets).
//   2. Before L: a ring of numStages slots per load, and numStages "full"
//      mbarriers (one arrival: the producer's expect, plus the bytes) and
//      numStages "empty" ones (one arrival per consumer warp).
//   3. L and every op after it (up to the return) move into the default
//      region of a ttg.warp_specialize; its partition (one warp) gets a
//      copy of L's loop nest holding only the slice and the copies.  Both
//      sides carry the ring's slot and phase through the whole nest (the
//      slot steps every K iteration, the phase flips when it wraps), so the
//      ring runs on across tiles.
//        producer: wait on empty[slot] for parity phase ^ 1, polling (the consumers
//          released the slot's previous fill; a fresh barrier passes parity
//          1), expect the stage's bytes on full[slot], copy every tile into
//          ring[slot];
//        consumers: wait on full[slot] for parity phase; the
//          dot reads the slots (asynchronously); warpgroup-dot wait with
//          one group pending, so the previous iteration's MMAs are done:
//          each warp arrives on that iteration's empty barrier; after the
//          K loop, a wait for all and the arrival for the last iteration.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tritium/Analysis/Allocation.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "llvm/ADT/SetVector.h"

namespace tritium::ttg {
#define GEN_PASS_DEF_TTGWARPSPECIALIZEPASS
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"
} // namespace tritium::ttg

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

namespace {

/// A descriptor load of the K loop, streamed through a ring.
struct StreamedLoad {
  tt::DescriptorLoadOp load;
  tt::TransOp trans; // between the load and its tile, or null
  LocalAllocOp alloc;
  MemDescType slotType; // the tile as TMA writes it
  int64_t bytes = 0;
};

class WarpSpecializer {
public:
  WarpSpecializer(scf::ForOp loop, int numStages)
      : outer(loop), where(loop.getLoc()), numStages(numStages) {}

  bool run() {
    if (!analyze())
      return false;
    rewrite();
    return true;
  }

private:
  //===--------------------------------------------------------------------===//
  // 1. Whether the loop nest has the shape the rewrite handles
  //===--------------------------------------------------------------------===//

  bool analyze() {
    // The kernel itself: in a device function, the partition's warps would
    // return into the caller's code.
    auto func = dyn_cast<tt::FuncOp>(outer->getParentOp());
    if (!func || !func.isPublic() || func.isExternal() || numStages < 2)
      return false;
    auto module = outer->getParentOfType<ModuleOp>();
    if (getComputeCapability(module) != 90 || getNumWarps(module) % 4 != 0)
      return false;
    // Only a return may follow what moves into the default region: no
    // value defined from L on may be used after it.
    Operation *terminator = outer->getBlock()->getTerminator();
    if (terminator->getNumOperands() != 0)
      return false;
    if (!prologueRunsOnAnyWarp())
      return false;
    // A call's callee is neither checked before the split nor lowered
    // knowing its warps (its CTA barriers would wait for the producer too).
    bool calls = false;
    func.walk([&](tt::CallOp) { calls = true; });
    if (calls)
      return false;

    auto hasDescriptorLoads = [](scf::ForOp loop) {
      return llvm::any_of(loop.getBody()->getOperations(), [](Operation &op) {
        return isa<tt::DescriptorLoadOp>(op);
      });
    };
    // Both sides must count the same trips: signed bounds only (the
    // producer's copies of the loops compare signed).
    if (outer.getUnsignedCmp())
      return false;
    if (hasDescriptorLoads(outer)) {
      kLoop = outer;
    } else {
      for (Operation &op : *outer.getBody())
        if (auto inner = dyn_cast<scf::ForOp>(op); inner && hasDescriptorLoads(inner)) {
          if (kLoop)
            return false; // two K loops
          kLoop = inner;
        }
      if (!kLoop)
        return false;
    }
    // No descriptor load elsewhere in the nest.
    bool stray = false;
    outer.walk([&](tt::DescriptorLoadOp load) {
      stray |= load->getParentOp() != kLoop.getOperation();
    });
    if (stray)
      return false;
    if (kLoop.getUnsignedCmp())
      return false;
    return collectLoads() && collectDot() && collectSlices();
  }

  /// The ops before L run on every warp of the CTA, the partition's too,
  /// whose warp index the tensor layouts do not cover: only scalar work,
  /// tensor arithmetic in registers, and ops of the issuing thread alone
  /// (tensor maps) may be there.  A tensor load or store, or an op that
  /// goes through shared memory, would run with addresses of a warp the
  /// layout does not have.
  bool prologueRunsOnAnyWarp() {
    auto isTensor = [](Type type) { return isa<RankedTensorType>(type); };
    for (Operation *op = &outer->getBlock()->front(); op != outer.getOperation();
         op = op->getNextNode()) {
      WalkResult result = op->walk([&](Operation *inner) {
        bool tensors = llvm::any_of(inner->getOperandTypes(), isTensor) ||
                       llvm::any_of(inner->getResultTypes(), isTensor);
        if (!tensors)
          return WalkResult::advance();
        // Memory; a reduction or scan; or shared scratch (conversions,
        // gathers, histograms: pure ops lowered through shared memory).
        if (!isMemoryEffectFree(inner) || inner->getNumRegions() != 0 ||
            isa<ConvertLayoutOp>(inner) || getScratchBytes(inner) > 0)
          return WalkResult::interrupt();
        return WalkResult::advance();
      });
      if (result.wasInterrupted())
        return false;
    }
    return true;
  }

  bool collectLoads() {
    for (Operation &op : *kLoop.getBody()) {
      auto load = dyn_cast<tt::DescriptorLoadOp>(&op);
      if (!load)
        continue;
      // A host-encoded map (a kernel argument) or one the kernel made
      // before L: the producer acquires those before its first copy.
      Value desc = load.getDesc();
      auto arg = dyn_cast<BlockArgument>(desc);
      bool argument = arg && isa<tt::FuncOp>(arg.getOwner()->getParentOp());
      auto made = desc.getDefiningOp<tt::MakeTensorDescOp>();
      if (!argument && !(made && made->getBlock() == outer->getBlock()))
        return false;
      if (made && !llvm::is_contained(madeMaps, desc))
        madeMaps.push_back(desc);
      FailureOr<TensorDescriptorTile> tile =
          planTensorDescriptorTile(load, load.getDesc(), /*report=*/false);
      if (failed(tile) || !load->hasOneUse())
        return false;
      StreamedLoad s{load, tt::TransOp(), LocalAllocOp(), MemDescType(), tile->plan.tileBytes};
      Operation *user = *load->user_begin();
      if (auto trans = dyn_cast<tt::TransOp>(user)) {
        if (!trans->hasOneUse() || trans.getOrder() != ArrayRef<int32_t>{1, 0})
          return false;
        s.trans = trans;
        user = *trans->user_begin();
      }
      s.alloc = dyn_cast<LocalAllocOp>(user);
      if (!s.alloc || s.alloc->getBlock() != kLoop.getBody())
        return false;
      MemDescType type = s.alloc.getType();
      if (s.trans) {
        if (!isa<NvmmaSharedEncodingAttr>(type.getEncoding()))
          return false;
        type = getTransposedTileType(type);
      }
      if (tile->encoding != type.getEncoding())
        return false;
      s.slotType = type;
      loads.push_back(s);
    }
    return !loads.empty();
  }

  bool collectDot() {
    for (Operation &op : *kLoop.getBody()) {
      if (auto candidate = dyn_cast<WarpGroupDotOp>(&op)) {
        if (dot)
          return false;
        dot = candidate;
      }
    }
    if (!dot || dot.getIsAsync())
      return false;
    for (StreamedLoad &s : loads)
      if (!s.alloc->hasOneUse() || *s.alloc->user_begin() != dot.getOperation())
        return false;
    // Each shared operand is a streamed tile (a register A operand is
    // computed by the consumers, which is fine).
    for (Value operand : {Value(dot.getA()), Value(dot.getB())})
      if (isa<MemDescType>(operand.getType()) &&
          !llvm::any_of(loads, [&](StreamedLoad &s) { return s.alloc.getResult() == operand; }))
        return false;
    // The accumulator: carried, read by the dot alone, yielded as is.
    auto acc = dyn_cast<BlockArgument>(dot.getC());
    if (!acc || acc.getOwner() != kLoop.getBody() || acc == kLoop.getInductionVar() ||
        !acc.hasOneUse())
      return false;
    accIndex = acc.getArgNumber() - 1;
    auto yield = cast<scf::YieldOp>(kLoop.getBody()->getTerminator());
    return yield.getOperand(accIndex) == dot.getD() && dot.getD().hasOneUse();
  }

  /// The backward slice of `roots` inside `loop`'s body (ops of the body
  /// only; nested ops fail).  Fails on an op with effects or regions and
  /// on a carried value other than the induction variable.
  bool sliceIn(scf::ForOp loop, ValueRange roots, llvm::SetVector<Operation *> &slice,
               SmallVectorImpl<Value> &outside) {
    SmallVector<Value> worklist(roots.begin(), roots.end());
    DenseSet<Value> seen;
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      if (!seen.insert(value).second)
        continue;
      if (auto arg = dyn_cast<BlockArgument>(value)) {
        if (arg.getOwner() == loop.getBody()) {
          if (arg != loop.getInductionVar())
            return false;
          continue;
        }
        outside.push_back(value);
        continue;
      }
      Operation *def = value.getDefiningOp();
      if (def->getBlock() != loop.getBody()) {
        if (loop->isAncestor(def))
          return false;
        outside.push_back(value);
        continue;
      }
      if (def->getNumRegions() != 0 || !isMemoryEffectFree(def))
        return false;
      if (slice.insert(def))
        worklist.append(def->operand_begin(), def->operand_end());
    }
    return true;
  }

  bool collectSlices() {
    SmallVector<Value> roots;
    for (StreamedLoad &s : loads)
      roots.append(s.load.getIndices().begin(), s.load.getIndices().end());
    SmallVector<Value> needed;
    if (!sliceIn(kLoop, roots, kSlice, needed))
      return false;
    if (kLoop == outer)
      return true;
    // What the K loop's slice and bounds need from L's body.
    SmallVector<Value> outerRoots = {kLoop.getLowerBound(), kLoop.getUpperBound(),
                                     kLoop.getStep()};
    outerRoots.append(needed.begin(), needed.end());
    SmallVector<Value> above;
    return sliceIn(outer, outerRoots, outerSlice, above);
  }

  //===--------------------------------------------------------------------===//
  // 2-3. The rewrite
  //===--------------------------------------------------------------------===//

  Value constI32(OpBuilder &b, int64_t v) {
    return arith::ConstantOp::create(b, where, b.getI32IntegerAttr(v));
  }

  /// ring[slot] (or a barrier of a barrier array) as a view of one slot.
  Value slotOf(OpBuilder &b, Value ring, MemDescType slotType, Value slot) {
    auto ringType = cast<MemDescType>(ring.getType());
    auto viewType = MemDescType::get(b.getContext(), slotType.getShape(),
                                     slotType.getElementType(), slotType.getEncoding(),
                                     slotType.getMemorySpace(), /*mutableMemory=*/true,
                                     ringType.getShape());
    return MemDescIndexOp::create(b, where, viewType, ring, slot);
  }
  Value barrierOf(OpBuilder &b, Value barriers, Value slot) {
    auto type = cast<MemDescType>(barriers.getType());
    auto one = MemDescType::get(b.getContext(), {1}, type.getElementType(),
                                type.getEncoding(), type.getMemorySpace(),
                                /*mutableMemory=*/true, type.getShape());
    return MemDescIndexOp::create(b, where, one, barriers, slot);
  }

  /// The (slot, phase) after (slot, phase): the next slot, the phase
  /// flipped when the slot wraps to 0.
  std::pair<Value, Value> advance(OpBuilder &b, Value slot, Value phase) {
    Location loc = where;
    Value plus = arith::AddIOp::create(b, loc, slot, constI32(b, 1));
    Value wraps = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, plus,
                                        constI32(b, numStages));
    Value next = arith::SelectOp::create(b, loc, wraps, constI32(b, 0), plus);
    Value flipped = arith::XOrIOp::create(b, loc, phase, constI32(b, 1));
    return {next, arith::SelectOp::create(b, loc, wraps, flipped, phase).getResult()};
  }

  /// The slot before `slot` (the ring wraps).
  Value previousSlot(OpBuilder &b, Value slot) {
    Location loc = where;
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, slot,
                                        constI32(b, 0));
    Value minus = arith::SubIOp::create(b, loc, slot, constI32(b, 1));
    return arith::SelectOp::create(b, loc, first, constI32(b, numStages - 1), minus);
  }

  void rewrite() {
    Location loc = where;
    MLIRContext *context = outer.getContext();
    auto module = outer->getParentOfType<ModuleOp>();
    int numWarps = getNumWarps(module);
    OpBuilder b(outer);

    for (StreamedLoad &s : loads) {
      SmallVector<int64_t> shape = {numStages};
      shape.append(s.slotType.getShape().begin(), s.slotType.getShape().end());
      auto ringType = MemDescType::get(context, shape, s.slotType.getElementType(),
                                       s.slotType.getEncoding(),
                                       s.slotType.getMemorySpace(),
                                       /*mutableMemory=*/true, shape);
      rings.push_back(LocalAllocOp::create(b, loc, ringType, Value()));
    }
    full = LocalAllocOp::create(b, loc, barrierArrayType(context, {numStages, 1}), Value());
    empty = LocalAllocOp::create(b, loc, barrierArrayType(context, {numStages, 1}), Value());
    for (int64_t s = 0; s < numStages; ++s) {
      InitBarrierOp::create(b, loc, barrierOf(b, full, constI32(b, s)), 1);
      InitBarrierOp::create(b, loc, barrierOf(b, empty, constI32(b, s)), numWarps);
    }

    auto specialize = WarpSpecializeOp::create(b, loc, b.getI32IntegerAttr(1));
    Block *defaultBlock = b.createBlock(&specialize.getDefaultRegion());
    Block *partitionBlock = b.createBlock(&specialize.getPartitionRegion());

    buildProducer(partitionBlock);

    // L and what follows it, up to the return, run on the consumers.
    Block *block = specialize->getBlock();
    Operation *terminator = block->getTerminator();
    SmallVector<Operation *> moved;
    for (Operation *op = outer; op != terminator; op = op->getNextNode())
      moved.push_back(op);
    for (Operation *op : moved)
      op->moveBefore(defaultBlock, defaultBlock->end());
    b.setInsertionPointToEnd(defaultBlock);
    WarpYieldOp::create(b, loc);
    b.setInsertionPointToEnd(partitionBlock);
    WarpYieldOp::create(b, loc);
    specialize->moveBefore(terminator);

    rewriteConsumer();
    module->setAttr(TTGDialect::kTotalNumWarpsAttrName,
                    b.getI32IntegerAttr(numWarps + 1));
  }

  /// The producer: L's loop nest with the slices, the waits on the empty
  /// barriers and the copies.
  void buildProducer(Block *block) {
    Location loc = where;
    OpBuilder b = OpBuilder::atBlockEnd(block);
    IRMapping map;
    Value zero = constI32(b, 0);
    // Maps the kernel made (another warp wrote and released them).
    for (Value desc : madeMaps)
      FenceTensorMapAcquireOp::create(b, loc, desc);

    // The K loop with (slot, phase) carried; returns them after it.
    auto buildKLoop = [&](OpBuilder &ob, ValueRange ring) -> ValueRange {
      auto loop = scf::ForOp::create(ob, loc, map.lookupOrDefault(kLoop.getLowerBound()),
                                     map.lookupOrDefault(kLoop.getUpperBound()),
                                     map.lookupOrDefault(kLoop.getStep()), ring);
      OpBuilder ib = OpBuilder::atBlockBegin(loop.getBody());
      map.map(kLoop.getInductionVar(), loop.getInductionVar());
      for (Operation &op : *kLoop.getBody())
        if (kSlice.contains(&op))
          ib.clone(op, map);
      Value slot = loop.getRegionIterArg(0);
      Value phase = loop.getRegionIterArg(1);
      // Fill n of a slot waits for the consumers' release of fill n - 1,
      // which completed phase n - 1 of its empty barrier: parity phase ^ 1
      // (a fresh barrier passes parity 1).
      Value freed = arith::XOrIOp::create(ib, loc, phase, constI32(ib, 1));
      // Polled: the producer reacts sooner to a release than a suspended
      // try_wait (measured 1% faster on the persistent matmul).
      WaitBarrierOp::create(ib, loc, barrierOf(ib, empty, slot), freed)
          .setPoll(true);
      int64_t bytes = 0;
      for (StreamedLoad &s : loads)
        bytes += s.bytes;
      Value bar = barrierOf(ib, full, slot);
      Value yes = arith::ConstantOp::create(ib, loc, ib.getBoolAttr(true));
      BarrierExpectOp::create(ib, loc, bar, bytes, yes);
      for (auto [j, s] : llvm::enumerate(loads)) {
        SmallVector<Value> indices;
        for (Value index : s.load.getIndices())
          indices.push_back(map.lookupOrDefault(index));
        AsyncTMACopyGlobalToLocalOp::create(ib, loc, s.load.getDesc(), indices,
                                            slotOf(ib, rings[j], s.slotType, slot), bar, yes);
      }
      auto [nextSlot, nextPhase] = advance(ib, slot, phase);
      scf::YieldOp::create(ib, loc, ValueRange{nextSlot, nextPhase});
      return loop.getResults();
    };

    if (kLoop == outer) {
      buildKLoop(b, ValueRange{zero, zero});
      return;
    }
    auto loop = scf::ForOp::create(b, loc, outer.getLowerBound(), outer.getUpperBound(),
                                   outer.getStep(), ValueRange{zero, zero});
    OpBuilder ob = OpBuilder::atBlockBegin(loop.getBody());
    map.map(outer.getInductionVar(), loop.getInductionVar());
    for (Operation &op : *outer.getBody())
      if (outerSlice.contains(&op))
        ob.clone(op, map);
    ValueRange after = buildKLoop(ob, loop.getRegionIterArgs());
    scf::YieldOp::create(ob, loc, after);
  }

  /// The consumers: the loads become waits on the full barriers and views
  /// of the slots, the dot runs asynchronously and releases each slot.
  void rewriteConsumer() {
    Location loc = where;
    IRRewriter rewriter(outer.getContext());

    // (slot, phase) through L (when the K loop is nested) and the K loop.
    SmallVector<Value> ringInit;
    scf::ForOp newOuter;
    if (kLoop != outer) {
      rewriter.setInsertionPoint(outer);
      Value zero = constI32(rewriter, 0);
      auto result = outer.replaceWithAdditionalYields(
          rewriter, ValueRange{zero, zero}, /*replaceInitOperandUsesInLoop=*/false,
          [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
            return SmallVector<Value>{zero, zero}; // replaced below
          });
      newOuter = cast<scf::ForOp>(result->getOperation());
      ringInit.assign(newOuter.getRegionIterArgs().take_back(2).begin(),
                      newOuter.getRegionIterArgs().take_back(2).end());
    } else {
      rewriter.setInsertionPoint(kLoop);
      Value zero = constI32(rewriter, 0);
      ringInit = {zero, zero};
    }
    // kLoop may have been moved into newOuter's body: it is the same op.
    rewriter.setInsertionPoint(kLoop);
    auto kResult = kLoop.replaceWithAdditionalYields(
        rewriter, ringInit, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &yb, Location, ArrayRef<BlockArgument> args) {
          auto [nextSlot, nextPhase] = advance(yb, args[0], args[1]);
          return SmallVector<Value>{nextSlot, nextPhase};
        });
    scf::ForOp newK = cast<scf::ForOp>(kResult->getOperation());
    Value slot = newK.getRegionIterArgs().drop_back(1).back();
    Value phase = newK.getRegionIterArgs().back();

    // In the body: the wait and the slot views replace the loads.
    Block *body = newK.getBody();
    OpBuilder ib = OpBuilder::atBlockBegin(body);
    WaitBarrierOp::create(ib, loc, barrierOf(ib, full, slot), phase);
    for (auto [j, s] : llvm::enumerate(loads)) {
      Value view = slotOf(ib, rings[j], s.slotType, slot);
      if (s.trans)
        view = MemDescTransOp::create(
            ib, loc, getTransposedTileType(cast<MemDescType>(view.getType())), view);
      s.alloc.getResult().replaceAllUsesWith(view);
    }
    // Erased only now: the builder inserts before the body's first op,
    // which may be one of them.
    for (StreamedLoad &s : loads) {
      s.alloc->erase();
      if (s.trans)
        s.trans->erase();
      s.load->erase();
    }

    // The dot runs on; the previous iteration's is waited for, and its
    // slot released.
    auto newDot = cast<WarpGroupDotOp>(dot.getOperation());
    newDot.setIsAsync(true);
    ib.setInsertionPointAfter(newDot);
    auto wait = WarpGroupDotWaitOp::create(ib, loc, newDot.getD().getType(),
                                           ValueRange{newDot.getD()},
                                           ib.getI32IntegerAttr(1));
    newDot.getD().replaceAllUsesExcept(wait.getResult(0), wait);
    Value previous = previousSlot(ib, slot);
    Value notFirst = arith::CmpIOp::create(ib, loc, arith::CmpIPredicate::ne,
                                           newK.getInductionVar(), newK.getLowerBound());
    ArriveBarrierOp::create(ib, loc, barrierOf(ib, empty, previous), notFirst);

    // After the K loop: all MMAs done, the last slot released.
    OpBuilder after(newK->getBlock(), std::next(newK->getIterator()));
    Value acc = newK.getResult(accIndex);
    auto done = WarpGroupDotWaitOp::create(after, loc, acc.getType(), ValueRange{acc},
                                           after.getI32IntegerAttr(0));
    acc.replaceAllUsesExcept(done.getResult(0), done);
    ValueRange end = newK.getResults().take_back(2);
    Value last = previousSlot(after, end[0]);
    Value ran = arith::CmpIOp::create(after, loc, arith::CmpIPredicate::slt,
                                      newK.getLowerBound(), newK.getUpperBound());
    ArriveBarrierOp::create(after, loc, barrierOf(after, empty, last), ran);

    if (newOuter) {
      auto yield = cast<scf::YieldOp>(newOuter.getBody()->getTerminator());
      unsigned n = yield.getNumOperands();
      yield->setOperand(n - 2, end[0]);
      yield->setOperand(n - 1, end[1]);
    }
  }

  scf::ForOp outer; ///< L (replaced when the ring state is added to it)
  Location where;   ///< L's location
  scf::ForOp kLoop;
  int64_t numStages;
  SmallVector<StreamedLoad> loads;
  WarpGroupDotOp dot;
  unsigned accIndex = 0;
  llvm::SetVector<Operation *> kSlice;
  llvm::SetVector<Operation *> outerSlice;
  SmallVector<Value> rings;
  Value full, empty;
  SmallVector<Value> madeMaps; ///< descriptors of tt.make_tensor_descriptor
};

} // namespace

LogicalResult ttg::warpSpecializeLoops(ModuleOp module, int numStages) {
  SmallVector<scf::ForOp> loops;
  module.walk([&](scf::ForOp loop) {
    if (loop->hasAttr("tt.warp_specialize"))
      loops.push_back(loop);
  });
  int capability = getComputeCapability(module);
  if (!loops.empty() && capability != 0 && capability < 90)
    return loops.front().emitError()
           << "warp_specialize=True needs a Hopper GPU (sm_90) or later; the target is sm_"
           << capability;
  for (scf::ForOp loop : loops) {
    int stages = numStages;
    if (auto attr = loop->getAttrOfType<IntegerAttr>("tt.num_stages"))
      stages = attr.getInt();
    if (WarpSpecializer(loop, stages).run())
      break; // one partition per kernel
  }
  return success();
}

bool ttg::isWarpSpecializedTileLoop(scf::ForOp loop) {
  return loop->hasAttr("tt.warp_specialize") && !loop->hasAttr("tt.flatten") &&
         isa<WarpSpecializeOp>(loop->getParentOp());
}

namespace {
struct TTGWarpSpecializePass
    : public tritium::ttg::impl::TTGWarpSpecializePassBase<TTGWarpSpecializePass> {
  using TTGWarpSpecializePassBase::TTGWarpSpecializePassBase;
  void runOnOperation() override {
    if (failed(warpSpecializeLoops(getOperation(), numStages)))
      signalPassFailure();
  }
};
} // namespace
