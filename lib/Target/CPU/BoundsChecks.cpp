//===- BoundsChecks.cpp - tritium-cpu-bounds-checks ------------------------===//
//
// Debug mode of the CPU target: every load, store and atomic through
// pointers of one pointer argument asserts that what it touches lies in
// that argument's buffer, so that an access its mask does not cover fails
// at the user's line instead of reading or overwriting host memory.
//
// Algorithm, per public tt.func:
//   1. For each pointer argument (scalar !tt.ptr), in order, two i64
//      arguments are appended: the buffer's first address and the address
//      one past its end (the launcher passes them; HostKernel.launch).
//   2. Each access's pointers are traced back to their origin
//      (pointerOrigin): through tt.addptr's base, tt.splat, tt.broadcast,
//      tt.expand_dims, tt.reshape, tt.trans, tt.bitcast and the values
//      scf.for carries (the initial value and the yielded one must come
//      from the same origin).  An access whose pointers trace to a pointer
//      argument gets, right before it and at its location:
//        address = tt.ptr_to_int(ptrs); end = address + element bytes
//        ok = (address >= first) & (end <= past_end) | !mask
//        tt.assert ok, "out-of-bounds <access> through argument '<name>'"
//      Other pointers (loaded from memory, selected between arguments)
//      are not checked.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

namespace tritium {
#define GEN_PASS_DEF_ADDBOUNDSCHECKSPASS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium

using namespace mlir;
namespace tt = tritium::tt;

namespace {

/// The origin of a pointer value: the function argument it derives from,
/// or none.
class PointerOrigins {
public:
  explicit PointerOrigins(Block &entry) : entry(entry) {}

  /// The entry-block argument `value` derives from, or null.
  BlockArgument of(Value value) {
    if (unknown.contains(value))
      return {};
    auto it = memo.find(value);
    if (it != memo.end())
      return it->second;
    memo[value] = BlockArgument(); // (a cycle through a loop: no origin yet)
    BlockArgument origin = trace(value);
    memo[value] = origin;
    return origin;
  }

private:
  BlockArgument trace(Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == &entry)
        return isa<tt::PointerType>(arg.getType()) ? arg : BlockArgument();
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg.getArgNumber() == 0)
        return {};
      unsigned index = arg.getArgNumber() - 1;
      BlockArgument initial = of(loop.getInitArgs()[index]);
      Value yielded = loop.getBody()->getTerminator()->getOperand(index);
      // (the yielded value derives from this carried value, whose origin is
      // being traced, or from the same argument)
      memo[value] = initial;
      BlockArgument next = of(yielded);
      if (next == initial)
        return initial;
      // The carried value may hold other pointers: no origin, and the
      // origins found meanwhile from the guess are forgotten.
      unknown.insert(value);
      memo.clear();
      return {};
    }
    Operation *def = value.getDefiningOp();
    if (auto result = dyn_cast<OpResult>(value)) {
      if (auto loop = dyn_cast<scf::ForOp>(def)) {
        BlockArgument carried = loop.getRegionIterArgs()[result.getResultNumber()];
        return of(carried);
      }
    }
    return llvm::TypeSwitch<Operation *, BlockArgument>(def)
        .Case<tt::AddPtrOp>([&](tt::AddPtrOp op) { return of(op.getPtr()); })
        .Case<tt::SplatOp, tt::BroadcastOp, tt::ExpandDimsOp, tt::ReshapeOp, tt::TransOp,
              tt::BitcastOp>([&](Operation *op) { return of(op->getOperand(0)); })
        .Default([](Operation *) { return BlockArgument(); });
  }

  Block &entry;
  llvm::DenseMap<Value, BlockArgument> memo;
  llvm::DenseSet<Value> unknown; ///< carried values of no single origin
};

/// Bytes of one element `pointers` address (i1 is stored as a byte).
int64_t elementBytes(Value pointers) {
  Type pointee = tt::getPointeeType(getElementTypeOrSelf(pointers.getType()));
  if (isa<tt::PointerType>(pointee))
    return 8;
  return std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
}

/// `value` (scalar) as a value of `like`'s shape.
Value shapedLike(OpBuilder &b, Location loc, Value value, Type like) {
  auto tensor = dyn_cast<RankedTensorType>(like);
  if (!tensor)
    return value;
  return tt::SplatOp::create(b, loc, RankedTensorType::get(tensor.getShape(), value.getType()), value);
}

/// The name of function argument `arg` (its NameLoc), or "#<index>".
std::string argumentName(BlockArgument arg) {
  Location loc = arg.getLoc();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (auto name = dyn_cast<NameLoc>(inner))
        return name.getName().str();
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  return "#" + std::to_string(arg.getArgNumber());
}

/// Inserts the check of one access (`what`: "load", "store", "atomic").
void checkAccess(Operation *access, Value pointers, Value mask, BlockArgument origin, Value first,
                 Value pastEnd, StringRef what) {
  OpBuilder b(access);
  Location loc = access->getLoc();
  Type ptrType = pointers.getType();
  Type i64Like = isa<RankedTensorType>(ptrType)
                     ? Type(RankedTensorType::get(cast<RankedTensorType>(ptrType).getShape(), b.getI64Type()))
                     : Type(b.getI64Type());
  Value address = tt::PtrToIntOp::create(b, loc, i64Like, pointers);
  Value bytes = shapedLike(b, loc, arith::ConstantIntOp::create(b, loc, elementBytes(pointers), 64), i64Like);
  Value end = arith::AddIOp::create(b, loc, address, bytes);
  Value atOrAfterFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, address,
                                               shapedLike(b, loc, first, i64Like));
  Value atOrBeforeEnd = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, end,
                                              shapedLike(b, loc, pastEnd, i64Like));
  Value ok = arith::AndIOp::create(b, loc, atOrAfterFirst, atOrBeforeEnd);
  if (mask) {
    Value on = shapedLike(b, loc, arith::ConstantIntOp::create(b, loc, 1, 1), mask.getType());
    Value off = arith::XOrIOp::create(b, loc, mask, on);
    ok = arith::OrIOp::create(b, loc, ok, off);
  }
  tt::AssertOp::create(b, loc, ok,
                       b.getStringAttr("out-of-bounds " + what.str() + " through argument '" +
                                       argumentName(origin) + "'"));
}

void addBoundsChecks(tt::FuncOp func) {
  Block &entry = func.getBody().front();
  SmallVector<BlockArgument> pointerArgs;
  for (BlockArgument arg : entry.getArguments())
    if (isa<tt::PointerType>(arg.getType()))
      pointerArgs.push_back(arg);
  if (pointerArgs.empty())
    return;
  // 1. first address and past-the-end address per pointer argument
  llvm::DenseMap<BlockArgument, std::pair<Value, Value>> extents;
  Type i64 = IntegerType::get(func.getContext(), 64);
  for (BlockArgument arg : pointerArgs) {
    unsigned index = func.getNumArguments();
    (void)func.insertArgument(index, i64, DictionaryAttr(), arg.getLoc());
    (void)func.insertArgument(index + 1, i64, DictionaryAttr(), arg.getLoc());
    extents[arg] = {entry.getArgument(index), entry.getArgument(index + 1)};
  }
  // 2. the checks
  PointerOrigins origins(entry);
  SmallVector<std::tuple<Operation *, Value, Value, StringRef>> accesses;
  func.walk([&](Operation *op) {
    llvm::TypeSwitch<Operation *>(op)
        .Case<tt::LoadOp>([&](tt::LoadOp load) {
          accesses.emplace_back(op, load.getPtr(), load.getMask(), "load");
        })
        .Case<tt::StoreOp>([&](tt::StoreOp store) {
          accesses.emplace_back(op, store.getPtr(), store.getMask(), "store");
        })
        .Case<tt::AtomicRMWOp>([&](tt::AtomicRMWOp atomic) {
          accesses.emplace_back(op, atomic.getPtr(), atomic.getMask(), "atomic");
        })
        .Case<tt::AtomicCASOp>([&](tt::AtomicCASOp atomic) {
          accesses.emplace_back(op, atomic.getPtr(), Value(), "atomic");
        });
  });
  for (auto [op, pointers, mask, what] : accesses) {
    // (block pointers and tensor descriptors check their own bounds)
    if (!isa<tt::PointerType>(getElementTypeOrSelf(pointers.getType())) ||
        isa<RankedTensorType>(cast<tt::PointerType>(getElementTypeOrSelf(pointers.getType())).getPointeeType()))
      continue;
    BlockArgument origin = origins.of(pointers);
    if (!origin)
      continue;
    auto [first, pastEnd] = extents.lookup(origin);
    checkAccess(op, pointers, mask, origin, first, pastEnd, what);
  }
}

struct AddBoundsChecksPass : tritium::impl::AddBoundsChecksPassBase<AddBoundsChecksPass> {
  void runOnOperation() override {
    getOperation().walk([](tt::FuncOp func) {
      if (func.isPublic() && !func.isExternal())
        addBoundsChecks(func);
    });
  }
};

} // namespace
