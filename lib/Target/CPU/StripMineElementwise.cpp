//===- StripMineElementwise.cpp - element-wise chains in 16-lane loops ----===//
//
// After the tensors of a CPU kernel became flat vectors, a chain of
// element-wise arith and math ops on vectors of thousands of lanes costs
// LLVM's code generator time in proportion to lanes times ops (a philox
// round over 1024 lanes: seconds), though each lane only needs its own
// lanes.  Such chains become one loop over chunks of kChunk lanes:
//
//   1. In each block, in order, the element-wise ops (the Elementwise trait,
//      every vector operand and result of the same lane count n, above
//      kMinLanes and a multiple of kChunk) gather into a cluster; an op
//      that is not element-wise, or has another lane count, and uses a
//      value of the cluster closes it (right before that op), as does the
//      end of the block.
//   2. A closed cluster of at least kMinOps ops (kFastMinOps on wide
//      vectors under fast-compile, one on the widest) becomes, where it
//      closed, a loop over the chunks (inChunks, HostLowering.h): its vector inputs
//      (values from outside, but splats and splat constants) go through
//      stack slots, the splats' scalars and the splat constants are splatted
//      to kChunk lanes in the loop, the cluster's ops are cloned on
//      kChunk-lane types, and the values used outside come back whole after
//      the loop.  The cluster's ops are then erased.
//
// Scalar operands stay as they are (loop-invariant).  The ops of the
// cluster keep their order, so every value a clone reads is cloned,
// loaded or splatted before it.
//
//===----------------------------------------------------------------------===//
#include "HostLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace tritium::cpu;

namespace {

constexpr int64_t kChunk = 16;
/// Clusters on fewer lanes are left whole (LLVM's code generator is fast
/// enough on them), as are clusters of fewer ops: a chain of 10 fp32 ops
/// over 1024 lanes compiles in 60 ms whole and runs 45% longer through the
/// stack (2-core host), a philox over 1024 lanes (about 90 ops) compiles in
/// 0.95 s whole and 0.16 s in chunks, and runs 25% faster in chunks.
constexpr int64_t kMinLanes = 256;
constexpr int64_t kMinOps = 16;
/// With fast-compile (code made to compile sooner, run by LLVM's fast code
/// generator), chains of kFastMinOps or more on kFastMinLanes or more also
/// run in chunks: an 8x512 tl.sort network (about 10 element-wise ops per
/// step on 4096 lanes) compiles in 3.9-5.7 s instead of 6.9-9.7 with
/// HostLowering's wide broadcasts through memory (interleaved runs, 2-core
/// host) and runs no slower.
constexpr int64_t kFastMinLanes = 1024;
constexpr int64_t kFastMinOps = 2;
/// With fast-compile, a single op on kFastSingleOpLanes or more runs in
/// chunks too: a 128x128 tile loaded, doubled and stored (one fmul on 16384
/// lanes between the row loops' stack copies) compiles in 197-212 ms
/// against 427-499 as one vector op (interleaved runs, 2-core host,
/// 2026-11-30).
constexpr int64_t kFastSingleOpLanes = 4096;

/// The lane count of `type` when it is a 1-D vector, else 0.
int64_t lanesOf(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  return vector && vector.getRank() == 1 && !vector.isScalable() ? vector.getNumElements() : 0;
}

/// The lane count of an element-wise arith or math op whose vector
/// operands and results all have it (0 when `op` is not one).
int64_t elementwiseLanes(Operation *op) {
  if (!op->hasTrait<OpTrait::Elementwise>() || !isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
      op->getNumRegions() != 0 || op->getNumResults() == 0)
    return 0;
  int64_t n = 0;
  for (Type type : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes())) {
    if (!isa<VectorType>(type))
      continue;
    int64_t lanes = lanesOf(type);
    if (lanes == 0 || (n != 0 && lanes != n) || !getElementTypeOrSelf(type).isIntOrFloat())
      return 0;
    n = lanes;
  }
  for (Type type : op->getResultTypes())
    if (!isa<VectorType>(type))
      return 0;
  return n;
}

/// The scalar a value splats (a splat shuffle of a one-element insert, as
/// HostLowering's splat() makes it), or null.
Value splattedScalar(Value v) {
  auto shuffle = v.getDefiningOp<LLVM::ShuffleVectorOp>();
  if (!shuffle || !llvm::all_of(shuffle.getMask(), [](int32_t i) { return i == 0; }))
    return Value();
  auto insert = shuffle.getV1().getDefiningOp<LLVM::InsertElementOp>();
  if (!insert || !matchPattern(insert.getPosition(), m_Zero()))
    return Value();
  return insert.getValue();
}

/// The splat constant a value is (arith.constant of a splat vector), or null.
DenseElementsAttr splatConstant(Value v) {
  DenseElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense)) && dense.isSplat())
    return dense;
  return DenseElementsAttr();
}

/// `cluster` (element-wise ops on `n` lanes, in block order) rebuilt as a
/// loop over chunks right before `before` (inChunks).
void stripMine(ArrayRef<Operation *> cluster, int64_t n, Operation *before) {
  llvm::SmallPtrSet<Operation *, 16> members(cluster.begin(), cluster.end());
  Location loc = cluster.front()->getLoc();

  // Inputs from outside the cluster, and values used outside it.
  llvm::SetVector<Value> inputs, outputs;
  for (Operation *op : cluster) {
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (isa<VectorType>(operand.getType()) && !(def && members.contains(def)) && !splattedScalar(operand) &&
          !splatConstant(operand))
        inputs.insert(operand);
    }
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) { return !members.contains(user); }))
        outputs.insert(result);
  }

  auto chunkOf = [](Type type) -> Type {
    auto vector = dyn_cast<VectorType>(type);
    return vector ? Type(VectorType::get({kChunk}, vector.getElementType())) : type;
  };
  OpBuilder b(before);
  SmallVector<Type> outputTypes = llvm::map_to_vector(outputs, [](Value v) { return v.getType(); });
  SmallVector<Value> wholes = inChunks(
      b, loc, inputs.getArrayRef(), outputTypes, n, kChunk,
      [&](OpBuilder &lb, ValueRange inputChunks, TypeRange) {
        IRMapping chunks;
        chunks.map(inputs.getArrayRef(), inputChunks);
        for (Operation *op : cluster) {
          SmallVector<Value> operands;
          for (Value operand : op->getOperands()) {
            if (Value mapped = chunks.lookupOrNull(operand)) {
              operands.push_back(mapped);
            } else if (Value scalar = splattedScalar(operand)) {
              operands.push_back(splat(lb, loc, scalar, kChunk));
            } else if (DenseElementsAttr dense = splatConstant(operand)) {
              operands.push_back(arith::ConstantOp::create(
                  lb, loc, dense.resizeSplat(cast<ShapedType>(chunkOf(operand.getType())))));
            } else {
              operands.push_back(operand); // a scalar from outside
            }
          }
          SmallVector<Type> types = llvm::map_to_vector(op->getResultTypes(), chunkOf);
          OperationState state(op->getLoc(), op->getName(), operands, types, op->getAttrs());
          Operation *clone = lb.create(state);
          chunks.map(op->getResults(), clone->getResults());
        }
        return llvm::map_to_vector(outputs, [&](Value output) { return chunks.lookup(output); });
      });

  for (auto [output, whole] : llvm::zip(outputs, wholes))
    Value(output).replaceUsesWithIf(whole, [&](OpOperand &use) { return !members.contains(use.getOwner()); });
  for (Operation *op : llvm::reverse(cluster))
    op->erase();
}

/// Step 1 and 2 of the overview over one block.
void stripMineBlock(Block &block, bool fastCompile) {
  SmallVector<Operation *> cluster;
  llvm::SmallPtrSet<Operation *, 16> members;
  int64_t lanes = 0;
  auto close = [&](Operation *before) {
    int64_t minOps = kMinOps;
    if (fastCompile && lanes >= kFastMinLanes)
      minOps = lanes >= kFastSingleOpLanes ? 1 : kFastMinOps;
    if (static_cast<int64_t>(cluster.size()) >= minOps)
      stripMine(cluster, lanes, before);
    cluster.clear();
    members.clear();
    lanes = 0;
  };
  auto usesCluster = [&](Operation *op) {
    bool uses = false;
    op->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        if (Operation *def = operand.getDefiningOp(); def && members.contains(def))
          uses = true;
    });
    return uses;
  };
  // (the next op is taken before a cluster closing at this one is rebuilt
  // and erased before it)
  for (Operation *op = block.empty() ? nullptr : &block.front(), *next; op; op = next) {
    next = op->getNextNode();
    int64_t n = elementwiseLanes(op);
    bool joins = n > kMinLanes && n % kChunk == 0;
    if (joins && lanes != 0 && n != lanes)
      close(op);
    if (joins) {
      cluster.push_back(op);
      members.insert(op);
      lanes = n;
      continue;
    }
    if (!cluster.empty() && usesCluster(op))
      close(op);
  }
  // (every block ends with a terminator, which closed any cluster it uses;
  // a cluster nothing uses is dead code, left as it is)
}

} // namespace

void tritium::cpu::stripMineElementwise(Operation *root, bool fastCompile) {
  SmallVector<Block *> blocks;
  root->walk([&](Block *block) { blocks.push_back(block); });
  for (Block *block : blocks)
    stripMineBlock(*block, fastCompile);
}
