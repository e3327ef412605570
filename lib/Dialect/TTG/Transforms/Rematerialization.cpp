//===- Rematerialization.cpp - steps 2 and 3 of remove-layout-conversions -===//
//
// Backward rewrites of conversions (one at a time, or a block's
// conversions to one layout together).  Step 1 gives each value one
// layout; what remains are conversions where one value is needed in two
// layouts, such as index ranges and masks shared by a load and a store that
// coalesced differently, or a loaded tensor that a store wants in its own
// layout.  Both steps walk back from a ttg.convert_layout (source x, target
// layout T) and redo the computation of x in T:
//
//   step 2, rematerialization: only when every leaf of that computation is
//     free (constants, splats, ranges, values already in the layout they are
//     needed in): the conversion goes away and nothing is converted instead;
//   step 3, hoisting: the leaves may be any values (loads, reductions, block
//     arguments, ...), which are converted instead, right after they are
//     defined.  So a conversion moves up an element-wise chain to the load it
//     starts from: before an fp16 -> fp32 extf it moves half the bytes, before
//     a broadcast it moves one row instead of a tile, and out of a loop it
//     runs once.
//
// Algorithm, for each ttg.convert_layout:
//   1. Plan, depth first from x, which layout each value must be recomputed
//      in (T for x; the slice at the axis for the operand of an
//      expand_dims).  A value stops the walk when it already has the layout
//      it is needed in (it is used as it is); a conversion is looked through
//      (its source is needed in the same layout); splat, make_range and dense
//      constants, element-wise ops, broadcasts, expand_dims and scans (their
//      region combines scalars; not into a layout that takes a scan along
//      registers or lanes across warps) are recomputed, and in step 3 so are
//      loads of at most as many elements as the block has threads (loaded
//      again in T).  Any other value (larger loads, block arguments,
//      reductions, more than kMaxRematerializedOps ops) abandons the plan in
//      step 2 and becomes a converted leaf in step 3.  A value needed in two
//      layouts abandons the plan in both.
//   2. Step 3 only: the recomputed ops other than producers, and than ops
//      computed from producers alone (ranges, masks and offsets: a few
//      integer instructions), must feed nothing but the plan (else their
//      computation would be done twice); a value that feeds something else
//      becomes a leaf and the plan is redone.  A conversion whose plan does
//      not pay alone is planned again together with the other conversions
//      of its block to the same layout (at most kMaxGroupedConversions): the
//      values on the way to one of them that feed another are then
//      recomputed for both rather than converted, so two results computed
//      from one loaded tile and stored in another layout take one conversion
//      of the tile.  The
//      recomputed ops and the leaves must sit in the conversion's block or in
//      blocks around it that only loops lie between (never leave an scf.if
//      branch: the conversion would run where it did not).  The plan is taken
//      only if it converts at most as many values, and at most as many bytes,
//      as the conversions it removes (the root and the conversions it looks
//      through that only it uses), or if it is one conversion to the register
//      operand layout of a tensor-core dot (mma.sync, or a wgmma's A, which
//      ttg-optimize-dot-operands hoists with hoistConversion) that follows it
//      in a loop body, all its leaves are loads, and the operand layout
//      holds each value no more often than the source layout does, or the
//      chain is casts alone: ttg-pipeline streams such loads through shared
//      memory and reads them back in any layout, so they cost nothing more
//      in the operand layout (Triton's rule, which also takes replicated
//      operand layouts whose every copy redoes more than a cast).  The root
//      itself is never a leaf.
//   3. Convert the leaves right after their definitions, clone the planned
//      ops, operands first, each right after its original (so it sees the
//      same operands and stays at the same loop depth), with result types in
//      the planned layouts.
//   4. Replace the conversion (each of a group's) by the copy of x.  The
//      originals stay for their other users; cleanup erases those left
//      unused.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "LayoutRoles.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Layout/ScanRule.h"

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;
using namespace tritium::ttg::detail;

namespace {
/// Plans larger than this are abandoned: duplicating them would cost more
/// than the conversion saves.
constexpr size_t kMaxRematerializedOps = 64;

/// Times a hoisting plan is redone after turning shared values into leaves.
constexpr int kMaxPlanAttempts = 8;

/// The most conversions one grouped hoisting plan takes.
constexpr size_t kMaxGroupedConversions = 4;

/// Bits a conversion of `value` moves (pointers count 64 bits).
int64_t bitsOf(Value value) {
  auto tensor = cast<RankedTensorType>(value.getType());
  Type element = tensor.getElementType();
  int64_t bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
  return tensor.getNumElements() * bits;
}

/// True for an op that only changes the element type of its one operand
/// (a float or integer cast, a bitcast): redone by every copy of a
/// replicated layout, it costs no more than reading the value back.
bool isElementCast(Operation *op) {
  return isa<arith::ExtFOp, arith::TruncFOp, arith::ExtSIOp, arith::ExtUIOp,
             arith::TruncIOp, arith::SIToFPOp, arith::UIToFPOp, arith::FPToSIOp,
             arith::FPToUIOp, arith::BitcastOp, tt::FpToFpOp, tt::BitcastOp>(op);
}

/// True if code in `from` may as well run in `to`, a block around it: only
/// loops lie between, so it runs at most as often there.
bool onlyLoopsBetween(Block *from, Block *to) {
  for (Block *block = from; block != to;) {
    Operation *parent = block->getParentOp();
    if (!parent || !isa<scf::ForOp, scf::WhileOp>(parent))
      return false;
    block = parent->getBlock();
    if (!block)
      return false;
  }
  return true;
}

class RematerializationPlan {
public:
  /// A plan for `group`, conversions of one block to one layout planned
  /// together (one, but for grouped hoisting); `hoist` allows converted
  /// leaves (step 3).
  RematerializationPlan(ArrayRef<ConvertLayoutOp> group, bool hoist)
      : conversion(group.front()), group(group.begin(), group.end()),
        hoist(hoist) {
    for (ConvertLayoutOp c : group)
      roots.push_back(c.getSrc());
  }

  /// Plans recomputing the conversions' sources in their target layout;
  /// false if it cannot be done (or, when hoisting, would not pay).
  bool build() {
    Attribute layout =
        cast<RankedTensorType>(conversion.getType()).getEncoding();
    auto needRoots = [&] {
      return llvm::all_of(roots, [&](Value root) { return need(root, layout); });
    };
    if (!hoist)
      return needRoots();
    for (int attempt = 0; attempt < kMaxPlanAttempts; ++attempt) {
      needed.clear();
      order.clear();
      leaves.clear();
      if (!needRoots())
        return false;
      if (!addSharedValuesAsLeaves())
        return pays();
    }
    return false;
  }

  /// Converts the leaves, clones the planned ops and returns the copy of
  /// each root (in the group's order).
  SmallVector<Value> apply() {
    IRMapping mapping;
    for (auto [leaf, layout] : leaves) {
      OpBuilder builder(conversion->getContext());
      if (Operation *def = leaf.getDefiningOp())
        builder.setInsertionPointAfter(def);
      else
        builder.setInsertionPointToStart(cast<BlockArgument>(leaf).getOwner());
      mapping.map(leaf, ConvertLayoutOp::create(builder, conversion.getLoc(),
                                                withEncoding(leaf.getType(),
                                                             layout),
                                                leaf));
    }
    for (Operation *op : order) {
      if (auto convert = dyn_cast<ConvertLayoutOp>(op)) {
        mapping.map(convert.getResult(),
                    mapping.lookupOrDefault(convert.getSrc()));
        continue;
      }
      OpBuilder builder(op->getContext());
      builder.setInsertionPointAfter(op);
      Operation *copy = builder.clone(*op, mapping);
      Value result = copy->getResult(0);
      auto type = withEncoding(result.getType(), needed.lookup(op->getResult(0)));
      result.setType(type);
      if (auto constant = dyn_cast<arith::ConstantOp>(copy))
        constant.setValueAttr(
            cast<DenseElementsAttr>(constant.getValue()).reshape(type));
      mapping.map(op->getResult(0), result);
    }
    return llvm::map_to_vector(roots, [&](Value root) { return mapping.lookupOrDefault(root); });
  }

private:
  /// Records that `value` is needed in `layout` and plans how.
  bool need(Value value, Attribute layout) {
    auto [it, inserted] = needed.insert({value, layout});
    if (!inserted)
      return it->second == layout;
    DistributedEncodingAttr current = getLayoutOf(value);
    if (!current || !layout)
      return false;
    if (current == layout)
      return true;
    if (sharedValues.contains(value))
      return addLeaf(value, layout);
    Operation *def = value.getDefiningOp();
    LayoutRole role = def ? getLayoutRole(def) : LayoutRole::Fixed;
    // A load of no more elements than the block has threads is loaded
    // again in the layout it is needed in, when hoisting: a conversion of it
    // costs a shared-memory round trip and a barrier for a few bytes a thread.
    if (hoist && isSmallLoad(def))
      role = LayoutRole::SameLayout;
    // (a scan, whose region combines scalars, is recomputed in any layout
    // like an element-wise op)
    bool recomputable = def && def->getNumResults() == 1 &&
                        (def->getNumRegions() == 0 || isa<tt::ScanOp>(def)) &&
                        (role == LayoutRole::Convert ||
                         role == LayoutRole::Producer ||
                         role == LayoutRole::SameLayout ||
                         role == LayoutRole::ExpandDims);
    if (auto scan = dyn_cast_or_null<tt::ScanOp>(def))
      recomputable = recomputable && scanStaysOffWarps(scan, layout);
    if (!recomputable)
      return addLeaf(value, layout);
    // Recomputed work (not producers, which cost nothing, nor conversions,
    // which are only looked through) must not leave an scf.if branch.
    if (hoist && role != LayoutRole::Producer && role != LayoutRole::Convert &&
        !onlyLoopsBetween(conversion->getBlock(), def->getBlock()))
      return false;
    switch (role) {
    case LayoutRole::Convert:
      if (!need(def->getOperand(0), layout))
        return false;
      break;
    case LayoutRole::Producer:
      break;
    case LayoutRole::SameLayout:
      for (Value operand : def->getOperands())
        if (getLayoutOf(operand) && !need(operand, layout))
          return false;
      break;
    case LayoutRole::ExpandDims: {
      auto expand = cast<tt::ExpandDimsOp>(def);
      if (!need(expand.getSrc(), getSlice(layout, expand.getAxis())))
        return false;
      break;
    }
    default:
      return false;
    }
    order.push_back(def);
    return order.size() <= kMaxRematerializedOps;
  }

  /// Whether `scan`, recomputed in `layout`, stays off the warps when it
  /// scans within them now.  Across warps a scan goes through shared memory
  /// and holds every line's partial sums at once: on a tile of many lines a
  /// thread that costs more than the conversion it saves (a 128x256 fp32
  /// tile on 4 warps scanned along its registers: 114 bytes of spills,
  /// scanned across the warps 700), where lanes shuffle registers.
  static bool scanStaysOffWarps(tt::ScanOp scan, Attribute layout) {
    auto acrossWarps = [&](RankedTensorType type) -> std::optional<bool> {
      auto distributed = getDistributedEncoding(type);
      if (!distributed)
        return std::nullopt;
      std::string why;
      std::optional<layout::ScanPlan> plan = layout::makeScanPlan(
          distributed.toLinearLayout(type.getShape()),
          static_cast<int>(scan.getAxis()), why);
      if (!plan)
        return std::nullopt;
      return plan->warpBits > 0;
    };
    auto type = cast<RankedTensorType>(scan->getResult(0).getType());
    std::optional<bool> now = acrossWarps(type);
    std::optional<bool> then = acrossWarps(withEncoding(type, layout));
    // (a layout the lowering cannot scan directly is converted before the
    // scan: never a target; as a source, nothing to keep)
    return then && (!now || *now || !*then);
  }

  /// Whether `op` is a tt.load of at most as many elements as the block
  /// has threads, from a tensor of pointers.
  bool isSmallLoad(Operation *op) const {
    auto load = dyn_cast_or_null<tt::LoadOp>(op);
    if (!load || load.getIsVolatile() ||
        !isa<RankedTensorType>(load.getPtr().getType()))
      return false;
    auto type = dyn_cast<RankedTensorType>(load.getType());
    auto module = op->getParentOfType<ModuleOp>();
    if (!type || !module)
      return false;
    auto warps = module->getAttrOfType<IntegerAttr>("ttg.num-warps");
    return warps && type.getNumElements() <= warps.getInt() * 32;
  }

  /// Plans converting `value` to `layout` where it is defined (hoisting
  /// only; never the root, whose conversion is what the plan replaces).
  bool addLeaf(Value value, Attribute layout) {
    if (!hoist || llvm::is_contained(roots, value))
      return false;
    Block *block = value.getParentBlock();
    if (!onlyLoopsBetween(conversion->getBlock(), block))
      return false;
    leaves.push_back({value, layout});
    return true;
  }

  /// The planned ops computed from producers alone (index ranges, masks
  /// and offsets made of them, through element-wise ops): done twice, they
  /// cost a few integer instructions, where converting them costs a
  /// shared-memory round trip.
  DenseSet<Operation *> producerComputed() const {
    DenseSet<Operation *> free;
    for (Operation *op : order) { // (operands first)
      if (getLayoutRole(op) == LayoutRole::Producer) {
        free.insert(op);
        continue;
      }
      if (isa<tt::LoadOp, tt::ScanOp>(op))
        continue;
      bool fromFree = llvm::all_of(op->getOperands(), [&](Value operand) {
        if (!isa<RankedTensorType>(operand.getType()))
          return true; // (a scalar operand)
        Operation *def = operand.getDefiningOp();
        return def && free.contains(def);
      });
      if (fromFree)
        free.insert(op);
    }
    return free;
  }

  /// Marks the recomputed values that also feed ops outside the plan (their
  /// computation would be done twice, unless producers alone compute it);
  /// true if there were new ones.
  bool addSharedValuesAsLeaves() {
    DenseSet<Operation *> planned(order.begin(), order.end());
    for (ConvertLayoutOp c : group)
      planned.insert(c);
    DenseSet<Operation *> free = producerComputed();
    bool added = false;
    for (Operation *op : order) {
      LayoutRole role = getLayoutRole(op);
      if (role == LayoutRole::Producer || role == LayoutRole::Convert ||
          free.contains(op))
        continue;
      Value result = op->getResult(0);
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !planned.contains(user);
          }))
        added |= sharedValues.insert(result).second;
    }
    return added;
  }

  /// True if the plan converts no more values and bytes than it removes,
  /// or if it feeds a tensor-core dot in a loop from loads alone.
  bool pays() const {
    if (feedsStreamedTensorCoreOperand())
      return true;
    DenseSet<Operation *> planned(order.begin(), order.end());
    int64_t removed = 0, removedBits = 0;
    for (auto [c, root] : llvm::zip(group, roots)) {
      planned.insert(c);
      ++removed;
      removedBits += bitsOf(root);
    }
    for (Operation *op : order) {
      auto convert = dyn_cast<ConvertLayoutOp>(op);
      if (!convert || !llvm::all_of(convert->getUsers(), [&](Operation *user) {
            return planned.contains(user);
          }))
        continue;
      ++removed;
      removedBits += bitsOf(convert.getResult());
    }
    int64_t addedBits = 0;
    for (auto [leaf, layout] : leaves)
      addedBits += bitsOf(leaf);
    return static_cast<int64_t>(leaves.size()) <= removed &&
           addedBits <= removedBits;
  }

  /// True for a plan of one conversion to the register operand layout of
  /// a tensor-core dot (an mma.sync operand, or a wgmma's A) that follows
  /// it in the body of a loop, whose leaves are all loads and whose operand
  /// layout holds each value as often as its source: ttg-pipeline streams
  /// those loads through shared memory and reads them back in the layout
  /// they are needed in, so the element-wise work runs in the operand
  /// layout and the conversion of its result, a round trip through shared
  /// memory each iteration, goes, whatever the bytes of the leaves.
  bool feedsStreamedTensorCoreOperand() const {
    ConvertLayoutOp root = conversion;
    auto target = dyn_cast<DotOperandEncodingAttr>(root.getType().getEncoding());
    if (group.size() != 1 || !target || leaves.empty())
      return false;
    auto mma = dyn_cast<NvidiaMmaEncodingAttr>(target.getParent());
    if (!mma || (mma.getVersionMajor() != 2 && mma.getVersionMajor() != 3) ||
        !isa_and_nonnull<scf::ForOp>(conversion->getParentOp()))
      return false;
    if (!llvm::all_of(leaves, [](const std::pair<Value, Attribute> &leaf) {
          return isa_and_nonnull<tt::LoadOp>(leaf.first.getDefiningOp());
        }))
      return false;
    // Not where the operand layout holds the values more times than the
    // layout they are computed in (an A operand on warps along N, a B
    // operand on warps along M) and the chain computes more than casts:
    // each copy would redo the element-wise work.  A chain of casts alone
    // (a loaded fp32 tile cast to the dot's fp16) costs each copy no more
    // than the round trip through shared memory it replaces.
    auto source = cast<RankedTensorType>(root.getSrc().getType());
    auto sourceLayout = dyn_cast<DistributedEncodingAttr>(source.getEncoding());
    if (!sourceLayout)
      return false;
    bool castsOnly = llvm::all_of(order, [](Operation *op) {
      LayoutRole role = getLayoutRole(op);
      return role == LayoutRole::Convert || role == LayoutRole::Producer ||
             isElementCast(op);
    });
    if (!castsOnly &&
        cast<DistributedEncodingAttr>(target).getElemsPerThread(source.getShape()) >
            sourceLayout.getElemsPerThread(source.getShape()))
      return false;
    for (Operation *op = conversion->getNextNode(); op; op = op->getNextNode())
      if (isa<tt::DotOp, WarpGroupDotOp>(op) &&
          getLayoutOf(op->getResult(0)) == mma)
        return true;
    return false;
  }

  /// The group's first conversion (its block and location serve the plan).
  ConvertLayoutOp conversion;
  SmallVector<ConvertLayoutOp> group;
  SmallVector<Value> roots;
  bool hoist;
  /// The layout each visited value is needed in.
  llvm::MapVector<Value, Attribute> needed;
  /// Ops to recompute (and conversions to look through), operands first.
  SmallVector<Operation *> order;
  /// Values converted where they are defined, and the layouts they go to.
  SmallVector<std::pair<Value, Attribute>> leaves;
  /// Values that feed ops outside the plan: leaves when met again.
  DenseSet<Value> sharedValues;
};

/// Runs a plan (hoisting or not) for every conversion of `funcOp`.
bool rewriteConversions(Operation *funcOp, bool hoist) {
  SmallVector<ConvertLayoutOp> conversions;
  funcOp->walk([&](ConvertLayoutOp op) { conversions.push_back(op); });
  DenseSet<Operation *> erased;
  bool changed = false;
  for (ConvertLayoutOp conversion : conversions) {
    if (erased.contains(conversion) || conversion->use_empty())
      continue;
    // A conversion to the CUDA-core dot operand layout (a dot operand on a
    // blocked parent) stays at the dot: ttg-accelerate-matmul moves most
    // such dots to tensor cores and reads the operand from the conversion's
    // source, while a chain recomputed in that layout (it holds a row's
    // whole K per thread) would stay in it.
    auto target = dyn_cast<DotOperandEncodingAttr>(
        conversion.getType().getEncoding());
    if (target && isa<BlockedEncodingAttr>(target.getParent()))
      continue;
    SmallVector<ConvertLayoutOp> group = {conversion};
    std::optional<RematerializationPlan> plan;
    plan.emplace(group, hoist);
    if (!plan->build()) {
      // Hoisting, a conversion that does not pay alone may pay with the
      // other conversions of its block to the same layout: values on the
      // way to one of them that also feed another are then recomputed for
      // both instead of being converted (two results of one loaded tile,
      // stored in another layout).
      if (!hoist)
        continue;
      for (ConvertLayoutOp other : conversions)
        if (other != conversion && !erased.contains(other) && !other->use_empty() &&
            other->getBlock() == conversion->getBlock() &&
            other.getType().getEncoding() == conversion.getType().getEncoding() &&
            group.size() < kMaxGroupedConversions)
          group.push_back(other);
      if (group.size() == 1)
        continue;
      plan.emplace(group, hoist);
      if (!plan->build())
        continue;
    }
    SmallVector<Value> copies = plan->apply();
    for (auto [c, copy] : llvm::zip(group, copies)) {
      c.getResult().replaceAllUsesWith(copy);
      erased.insert(c);
      c->erase();
    }
    changed = true;
  }
  return changed;
}
} // namespace

bool ttg::rematerializeConversions(Operation *funcOp) {
  return rewriteConversions(funcOp, /*hoist=*/false);
}

bool ttg::hoistConversions(Operation *funcOp) {
  return rewriteConversions(funcOp, /*hoist=*/true);
}

bool ttg::hoistConversion(ConvertLayoutOp conversion) {
  RematerializationPlan plan({conversion}, /*hoist=*/true);
  if (!plan.build())
    return false;
  Value copy = plan.apply().front();
  conversion.getResult().replaceAllUsesWith(copy);
  conversion->erase();
  return true;
}
