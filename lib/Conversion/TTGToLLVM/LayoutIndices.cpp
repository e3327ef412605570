//===- LayoutIndices.cpp - which elements this thread holds ---------------===//
//
// The coordinates of register r of a thread are, per tensor dimension d,
//
//   coord_d = R_d(r) xor T_d(lane) xor T_d(warp)
//
// where R, T are the linear layout restricted to the register, lane and
// warp bits.  R_d(r) is a constant.  T_d(x) is the xor of the bases of the
// set bits of x; a basis that is a single power of two 2^k moves input bit i
// to output bit k, so all bits moving by the same amount k - i are handled
// by one mask and one shift: T_d(x) = xor_s shift(x & mask_s, s).  Bases of
// several bits (rare: swizzled or permuted layouts) are added bit by bit
// with a select.  The and/shift/xor chain is what the lit test
// make-range.mlir checks.
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTGToLLVM/LayoutIndices.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tritium/Conversion/TTGToLLVM/NVVMHelpers.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace tritium;
using layout::HwDim;
using layout::LinearLayout;

ThreadIndex tritium::emitThreadIndex(OpBuilder &builder, Location loc,
                                     int threadsPerWarp, int numWarps) {
  Value tid = nvvm::threadIdX(builder, loc, threadsPerWarp * numWarps);
  Value lane = LLVM::AndOp::create(
      builder, loc, tid,
      LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                               threadsPerWarp - 1));
  Value warp = LLVM::LShrOp::create(
      builder, loc, tid,
      LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                               llvm::Log2_64(threadsPerWarp)));
  return {lane, warp};
}

ThreadIndex tritium::emitThreadIndex(OpBuilder &builder, Location loc,
                                     ModuleOp module) {
  return emitThreadIndex(builder, loc, ttg::getThreadsPerWarp(module),
                         ttg::getNumWarps(module));
}

LinearLayout tritium::getLinearLayout(RankedTensorType type) {
  return ttg::getDistributedEncoding(type).toLinearLayout(type.getShape());
}

/// xor-accumulates `term` into `acc` (null = 0).
Value tritium::emitI32Constant(OpBuilder &builder, Location loc,
                               int64_t value) {
  return LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                  builder.getI32IntegerAttr(value));
}

Value tritium::emitPackedBits(OpBuilder &builder, Location loc, Value value,
                              ArrayRef<int> bits) {
  Value packed = emitI32Constant(builder, loc, 0);
  for (auto [position, bit] : llvm::enumerate(bits)) {
    Value one = LLVM::AndOp::create(
        builder, loc,
        LLVM::LShrOp::create(builder, loc, value,
                             emitI32Constant(builder, loc, bit)),
        emitI32Constant(builder, loc, 1));
    if (position != 0)
      one = LLVM::ShlOp::create(builder, loc, one,
                                emitI32Constant(builder, loc, position));
    packed = LLVM::OrOp::create(builder, loc, packed, one);
  }
  return packed;
}

static Value xorInto(OpBuilder &builder, Location loc, Value acc, Value term) {
  return acc ? LLVM::XOrOp::create(builder, loc, acc, term).getResult() : term;
}

/// T_d(x): the contribution of the bits of `x` through `bases` to dim `dim`.
static Value emitHardwarePart(OpBuilder &builder, Location loc,
                              const layout::BasisList &bases, int dim, Value x,
                              Value acc) {
  // shift amount (k - i) -> mask of the input bits that move by it.
  std::map<int, int64_t> masksByShift;
  for (size_t bit = 0; bit < bases.size(); ++bit) {
    int64_t basis = bases[bit][dim];
    if (basis == 0)
      continue;
    if (llvm::isPowerOf2_64(basis)) {
      int shift =
          static_cast<int>(llvm::Log2_64(basis)) - static_cast<int>(bit);
      masksByShift[shift] |= int64_t(1) << bit;
      continue;
    }
    // A basis of several bits: add it where the input bit is set.
    Value bitSet = LLVM::AndOp::create(
        builder, loc, x,
        LLVM::ConstantOp::create(builder, loc, builder.getI32Type(), 1 << bit));
    Value isSet = LLVM::ICmpOp::create(
        builder, loc, LLVM::ICmpPredicate::ne, bitSet,
        LLVM::ConstantOp::create(builder, loc, builder.getI32Type(), 0));
    Value term = LLVM::SelectOp::create(
        builder, loc, isSet,
        LLVM::ConstantOp::create(builder, loc, builder.getI32Type(), basis),
        LLVM::ConstantOp::create(builder, loc, builder.getI32Type(), 0));
    acc = xorInto(builder, loc, acc, term);
  }
  // `x` is below 2^bases.size() (a lane id, or a warp id of the module's
  // warps), so a mask of all its bits is left out.
  int64_t allBits = (int64_t(1) << bases.size()) - 1;
  for (auto [shift, mask] : masksByShift) {
    Value term =
        mask == allBits
            ? x
            : LLVM::AndOp::create(builder, loc, x,
                                  LLVM::ConstantOp::create(
                                      builder, loc, builder.getI32Type(), mask))
                  .getResult();
    if (shift > 0)
      term = LLVM::ShlOp::create(
          builder, loc, term,
          LLVM::ConstantOp::create(builder, loc, builder.getI32Type(), shift));
    else if (shift < 0)
      term = LLVM::LShrOp::create(
          builder, loc, term,
          LLVM::ConstantOp::create(builder, loc, builder.getI32Type(), -shift));
    acc = xorInto(builder, loc, acc, term);
  }
  return acc;
}

SmallVector<SmallVector<Value>> tritium::emitIndices(OpBuilder &builder,
                                                     Location loc,
                                                     const LinearLayout &layout,
                                                     ThreadIndex thread) {
  int rank = static_cast<int>(layout.rank());
  SmallVector<Value> threadPart(rank);
  for (int dim = 0; dim < rank; ++dim) {
    Value acc = emitHardwarePart(builder, loc, layout.bases(HwDim::Lane), dim,
                                 thread.lane, Value());
    acc = emitHardwarePart(builder, loc, layout.bases(HwDim::Warp), dim,
                           thread.warp, acc);
    threadPart[dim] =
        acc ? acc
            : LLVM::ConstantOp::create(builder, loc, builder.getI32Type(), 0);
  }
  SmallVector<SmallVector<Value>> indices;
  for (int64_t reg = 0; reg < layout.elemsPerThread(); ++reg) {
    std::vector<int64_t> constant = layout.apply(reg, 0, 0);
    SmallVector<Value> coords(rank);
    for (int dim = 0; dim < rank; ++dim)
      coords[dim] =
          constant[dim] == 0
              ? threadPart[dim]
              : LLVM::XOrOp::create(
                    builder, loc, threadPart[dim],
                    LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                             constant[dim]))
                    .getResult();
    indices.push_back(std::move(coords));
  }
  return indices;
}

Value tritium::emitRowMajorOffset(OpBuilder &builder, Location loc,
                                  ValueRange coords, ArrayRef<int64_t> shape) {
  Value offset;
  int64_t stride = 1;
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    Value term = coords[d];
    if (stride != 1)
      term = LLVM::MulOp::create(
          builder, loc, term,
          LLVM::ConstantOp::create(builder, loc, builder.getI32Type(), stride));
    offset = offset
                 ? LLVM::AddOp::create(builder, loc, offset, term).getResult()
                 : term;
    stride *= shape[d];
  }
  return offset;
}

static bool isZeroBasis(const std::vector<int64_t> &basis) {
  return llvm::all_of(basis, [](int64_t c) { return c == 0; });
}

Value tritium::emitUniqueThreadPredicate(OpBuilder &builder, Location loc,
                                         const LinearLayout &layout,
                                         ThreadIndex thread) {
  Value pred;
  for (auto [dim, id] : {std::pair(HwDim::Lane, thread.lane),
                         std::pair(HwDim::Warp, thread.warp)}) {
    int64_t mask = 0;
    const layout::BasisList &bases = layout.bases(dim);
    for (size_t bit = 0; bit < bases.size(); ++bit)
      if (isZeroBasis(bases[bit]))
        mask |= int64_t(1) << bit;
    if (!mask)
      continue;
    Value bits = LLVM::AndOp::create(
        builder, loc, id,
        LLVM::ConstantOp::create(builder, loc, builder.getI32Type(), mask));
    Value isZero = LLVM::ICmpOp::create(
        builder, loc, LLVM::ICmpPredicate::eq, bits,
        LLVM::ConstantOp::create(builder, loc, builder.getI32Type(), 0));
    pred = pred ? LLVM::AndOp::create(builder, loc, pred, isZero).getResult()
                : isZero;
  }
  return pred;
}

SmallVector<int64_t>
tritium::getRepresentativeRegisters(const LinearLayout &layout) {
  std::map<std::vector<int64_t>, int64_t> firstHolder;
  SmallVector<int64_t> representative;
  for (int64_t reg = 0; reg < layout.elemsPerThread(); ++reg)
    representative.push_back(
        firstHolder.try_emplace(layout.apply(reg, 0, 0), reg).first->second);
  return representative;
}

int64_t tritium::getContiguousRegisters(const LinearLayout &layout, int dim) {
  return layout::contiguousRegisters(layout, dim);
}

int tritium::getRegisterFastestDim(const LinearLayout &layout) {
  const layout::BasisList &regs = layout.bases(HwDim::Register);
  if (regs.empty())
    return -1;
  for (int dim = 0; dim < layout.rank(); ++dim)
    if (regs[0] == layout::unitBasis(layout.rank(), dim, 1))
      return dim;
  return -1;
}
