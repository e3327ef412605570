//===- BlockPointerTma.cpp - which block pointers the copy engine moves ---===//
//
// The decisions of BlockPointerTma.h.  Algorithm, per function:
//   1. Origins: a fixed point over the block-pointer values, each mapped to
//      the tt.make_tensor_ptr it comes from (make: itself; advance: its
//      source's; an scf.for iteration argument: the join of its init and
//      what the body yields; loop and scf.if results likewise), where two
//      different origins join to "several" (null).  Two passes over a
//      function usually settle it; the lattice has three levels, so it ends.
//   2. Eligibility of each tt.make_tensor_ptr: the static rules of the
//      header, the alignment ones on the module's axis information.
//   3. Per access, decided before the rewrite changes anything: a load
//      reads by TMA if its origin is eligible, its value reaches an operand
//      of a tt.dot through layout-neutral ops (transposes, reshapes,
//      element type conversions), the innermost loop around it is an
//      scf.for with a constant positive step, and no global write can come
//      before it;
//      a store writes by TMA if its origin is eligible, it is in no loop,
//      the value it stores is computed from a tt.dot's result (a walk up
//      the value's definitions, through loop and branch results to what
//      their bodies yield), no global access can come after it, and no
//      write, nor a read the stored value does not depend on, before it.
//      "Before" and "after" are program order (a pre-order walk), where
//      everything in a loop around the access counts as both (a volatile
//      load declares a write: a flag spun on).  The copy engine's accesses
//      are not ordered with the threads' own (a TMA store is only waited
//      for until it has read shared memory), so a pointer access to the
//      same memory on the wrong side could see or leave stale data.
//
//===----------------------------------------------------------------------===//
#include "BlockPointerTma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tritium/Analysis/AxisInfo.h"
#include "tritium/Analysis/GlobalMemoryAccess.h"
#include "tritium/Layout/TmaTile.h"

using namespace mlir;
using namespace tritium;
using namespace tritium::tt;

namespace {

/// Joins `from`'s origin into `into`'s; returns whether `into` changed.
bool joinOrigin(DenseMap<Value, Operation *> &origins, Value into, Value from) {
  auto source = origins.find(from);
  if (source == origins.end())
    return false; // not known yet
  auto [it, inserted] = origins.try_emplace(into, source->second);
  if (inserted)
    return true;
  if (it->second && it->second != source->second) {
    it->second = nullptr;
    return true;
  }
  return false;
}

DenseMap<Value, Operation *> computeOrigins(FuncOp func) {
  DenseMap<Value, Operation *> origins;
  bool changed = true;
  while (changed) {
    changed = false;
    func.walk([&](Operation *op) {
      if (auto make = dyn_cast<MakeTensorPtrOp>(op)) {
        changed |= origins.try_emplace(make.getResult(), make).second;
      } else if (auto advance = dyn_cast<AdvanceOp>(op)) {
        changed |= joinOrigin(origins, advance.getResult(), advance.getPtr());
      } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
        auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
        for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
          if (!isTensorPointerType(arg.getType()))
            continue;
          changed |= joinOrigin(origins, arg, loop.getInitArgs()[i]);
          changed |= joinOrigin(origins, arg, yield.getOperand(i));
          changed |= joinOrigin(origins, loop.getResult(i), arg);
        }
      } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
        for (auto [i, result] : llvm::enumerate(ifOp.getResults())) {
          if (!isTensorPointerType(result.getType()))
            continue;
          changed |= joinOrigin(origins, result, ifOp.thenYield().getOperand(i));
          if (!ifOp.getElseRegion().empty())
            changed |= joinOrigin(origins, result, ifOp.elseYield().getOperand(i));
        }
      }
    });
  }
  return origins;
}

/// Whether `make`'s tile and tensor meet the copy engine's rules.
bool isTmaEligible(MakeTensorPtrOp make, const ModuleAxisInfo &axisInfo) {
  if (!isa<FuncOp>(make->getParentOp()))
    return false;
  auto tile = cast<RankedTensorType>(
      cast<PointerType>(make.getResult().getType()).getPointeeType());
  if (tile.getEncoding())
    return false;
  Type element = tile.getElementType();
  if (!element.isIntOrFloat())
    return false;
  // (whyNotTmaTile checks the rank, the element width and the block sizes.)
  int64_t bits = element.getIntOrFloatBitWidth();
  SmallVector<int32_t> dims = BlockPointerTmaPlan::descriptorDims(make);
  std::vector<int64_t> block;
  for (int32_t d : dims)
    block.push_back(tile.getDimSize(d));
  if (layout::whyNotTmaTile(block, bits))
    return false;

  // A descriptor's shape is i32: each dimension must be known to fit (an
  // i32 value widened, or a constant), where a block pointer's is i64.
  for (Value size : make.getShape()) {
    APInt constant;
    if (matchPattern(size, m_ConstantInt(&constant))) {
      if (!constant.isSignedIntN(32) || !constant.isStrictlyPositive())
        return false;
      continue;
    }
    auto widened = size.getDefiningOp<arith::ExtSIOp>();
    if (!widened || !widened.getIn().getType().isInteger(32))
      return false;
  }
  int32_t fastest = dims.back();
  std::optional<int64_t> unit =
      axisInfo.getAxisInfo(make.getStrides()[fastest]).getConstantValue();
  if (!matchPattern(make.getStrides()[fastest], m_One()) && unit != 1)
    return false;
  if (!axisInfo.isTensorMapAligned(make.getBase(), 1))
    return false;
  int64_t elementBytes = bits / 8;
  for (auto [d, stride] : llvm::enumerate(make.getStrides())) {
    if (static_cast<int32_t>(d) == fastest)
      continue;
    if (!axisInfo.isTensorMapAligned(stride, elementBytes))
      return false;
    // (A negative run-time one is refused by the launcher or checked in the
    // kernel: see the rewrite's descriptorFor.)
    APInt constant;
    if (matchPattern(stride, m_ConstantInt(&constant)) && constant.isNegative())
      return false;
  }
  return true;
}

/// Program order of a function's ops, and which of them touch tensors.
class AccessOrder {
public:
  explicit AccessOrder(FuncOp func) {
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == func)
        return;
      position[op] = position.size();
      if (mayAccessGlobalMemory(op, /*writesOnly=*/false))
        accesses.push_back({op, mayAccessGlobalMemory(op, /*writesOnly=*/true)});
    });
  }

  /// Whether an access other than `op` for which `matters(access, writes)`
  /// holds may run before `op` (`before`) or after it: earlier (later) in
  /// program order, or anywhere in a loop around both.
  bool conflicts(Operation *op, bool before,
                 llvm::function_ref<bool(Operation *, bool)> matters) const {
    unsigned at = position.lookup(op);
    for (auto [other, writes] : accesses) {
      if (other == op || !matters(other, writes))
        continue;
      unsigned there = position.lookup(other);
      if ((before ? there < at : there > at) || shareLoop(op, other))
        return true;
    }
    return false;
  }

  /// Whether `op` is inside a loop (its later iterations come after it).
  static bool inLoop(Operation *op) {
    return op->getParentOfType<scf::ForOp>() || op->getParentOfType<scf::WhileOp>();
  }

private:
  static bool shareLoop(Operation *a, Operation *b) {
    for (Operation *loop = a->getParentOp(); loop; loop = loop->getParentOp())
      if (isa<scf::ForOp, scf::WhileOp>(loop) && loop->isAncestor(b))
        return true;
    return false;
  }

  DenseMap<Operation *, unsigned> position;
  SmallVector<std::pair<Operation *, bool>> accesses; // (op, writes)
};

/// Ops a loaded tile passes through on its way to a dot without changing
/// what the copy engine must read.
bool isLayoutNeutral(Operation *op) {
  return isa<TransOp, ReshapeOp, FpToFpOp, BitcastOp, arith::ExtFOp,
             arith::TruncFOp, arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
             arith::SIToFPOp, arith::UIToFPOp, arith::BitcastOp>(op);
}

bool feedsDot(Value value, unsigned depth = 0) {
  if (depth > 4)
    return false;
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (isa<DotOp>(user) && use.getOperandNumber() < 2)
      return true;
    if (isLayoutNeutral(user) && feedsDot(user->getResult(0), depth + 1))
      return true;
  }
  return false;
}

/// Whether the innermost loop around `load` is an scf.for with a constant
/// positive step: the loop ttg-pipeline streams (with two stages or more),
/// or whose unpipelined copies ttg-lower-tensor-descriptors issues ahead
/// of their waits (with one).
bool inSteppedLoop(Operation *load) {
  Operation *loop = load->getParentOp();
  while (loop && !isa<scf::ForOp, scf::WhileOp, FuncOp>(loop))
    loop = loop->getParentOp();
  auto forOp = dyn_cast_or_null<scf::ForOp>(loop);
  if (!forOp)
    return false;
  APInt step;
  return matchPattern(forOp.getStep(), m_ConstantInt(&step)) &&
         step.isStrictlyPositive();
}

/// What a stored value is computed from: the ops defining it, through the
/// results and iteration arguments of loops and branches to what their
/// bodies yield (at most 1024 of them: `complete` says whether all were
/// seen), and whether a tt.dot is among them.
struct Provenance {
  llvm::SmallPtrSet<Operation *, 32> ops;
  bool fromDot = false;
  bool complete = true;
};

Provenance provenanceOf(Value value) {
  Provenance result;
  SmallVector<Value> work{value};
  llvm::SmallPtrSet<void *, 32> seen; // values, as opaque pointers
  auto yielded = [&](Region &region, unsigned index) {
    if (region.empty())
      return;
    Operation *terminator = region.front().getTerminator();
    if (index < terminator->getNumOperands())
      work.push_back(terminator->getOperand(index));
  };
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v.getAsOpaquePointer()).second)
      continue;
    if (result.ops.size() >= 1024) {
      result.complete = false;
      break;
    }
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
          loop && arg.getArgNumber() > 0) {
        yielded(loop.getRegion(), arg.getArgNumber() - 1);
        work.push_back(loop.getInitArgs()[arg.getArgNumber() - 1]);
      }
      continue;
    }
    Operation *def = v.getDefiningOp();
    result.ops.insert(def);
    result.fromDot |= isa<DotOp>(def);
    unsigned index = cast<OpResult>(v).getResultNumber();
    if (auto loop = dyn_cast<scf::ForOp>(def)) {
      yielded(loop.getRegion(), index);
      work.push_back(loop.getInitArgs()[index]);
    } else if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
      yielded(ifOp.getThenRegion(), index);
      yielded(ifOp.getElseRegion(), index);
    } else {
      // Other ops, tt.reduce and tt.scan included: their operands.
      llvm::append_range(work, def->getOperands());
    }
  }
  return result;
}

} // namespace

BlockPointerTmaPlan::BlockPointerTmaPlan(ModuleOp module, FuncOp func,
                                         unsigned computeCapability) {
  if (computeCapability < 90 || !func.isPublic())
    return; // (a private function is inlined and about to be removed)
  bool any = false;
  func.walk([&](MakeTensorPtrOp) { any = true; });
  if (!any)
    return;
  origins = computeOrigins(func);
  ModuleAxisInfo axisInfo(module);
  func.walk([&](MakeTensorPtrOp make) {
    if (isTmaEligible(make, axisInfo))
      eligible.insert(make);
  });
  if (eligible.empty())
    return;
  AccessOrder order(func);
  // A load by TMA must not follow a write to global memory (a volatile
  // load, a flag spun on, declares one: the synchronization the copy engine
  // would not see).  A store by TMA must precede every other access (its
  // own later iterations included) and follow no write, nor a read its
  // value does not depend on (a read it depends on has been performed).
  func.walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      if (isTensorPointerType(load.getPtr().getType()) && tmaOrigin(load.getPtr()) &&
          !load.getIsVolatile() &&
          !(load.getPadding() == PaddingOption::PAD_NAN && !load.getBoundaryCheck().empty()) &&
          feedsDot(load.getResult()) && inSteppedLoop(load) &&
          !order.conflicts(load, /*before=*/true, [](Operation *, bool writes) { return writes; }))
        tmaAccesses.insert(load);
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      if (!isTensorPointerType(store.getPtr().getType()) || !tmaOrigin(store.getPtr()) ||
          AccessOrder::inLoop(store))
        return;
      Provenance provenance = provenanceOf(store.getValue());
      if (provenance.fromDot &&
          !order.conflicts(store, /*before=*/false, [](Operation *, bool) { return true; }) &&
          !order.conflicts(store, /*before=*/true, [&](Operation *other, bool writes) {
            return writes || !provenance.complete || !provenance.ops.contains(other);
          }))
        tmaAccesses.insert(store);
    }
  });
}

SmallVector<int32_t> BlockPointerTmaPlan::descriptorDims(MakeTensorPtrOp make) {
  ArrayRef<int32_t> order = make.getOrder();
  return SmallVector<int32_t>(order.rbegin(), order.rend());
}

MakeTensorPtrOp BlockPointerTmaPlan::tmaOrigin(Value ptr) const {
  auto it = origins.find(ptr);
  if (it == origins.end() || !it->second || !eligible.contains(it->second))
    return {};
  return cast<MakeTensorPtrOp>(it->second);
}

bool BlockPointerTmaPlan::useTma(Operation *access) const {
  return tmaAccesses.contains(access);
}
