//===- AxisInfoAnalysis.cpp - axis-info transfer functions -----------------===//
//
// The transfer functions of AxisInfoAnalysis: for each op kind, the
// contiguity, divisibility and constancy of its result from those of its
// operands, one dimension at a time.
//
// Algorithm: MLIR's sparse forward data-flow framework visits every op whose
// operands changed until nothing changes.  An op is visited only once all
// its operands have a value (the framework starts every value at "not yet
// known"); its result is then computed by the rule for its kind, overridden
// by any tt.contiguity / tt.divisibility / tt.constancy hint on the op,
// clamped to the tensor's shape, and joined into the result's lattice.
// Region control flow (scf.for/if/while, tt.call) is the framework's: loop
// arguments are the join of the initial and the yielded values; the
// induction variable of scf.for is set here from its bounds.  Function
// arguments start from their tt.* attributes.
//
// Notation in the comments below: per dimension d, C = contiguity,
// D = divisibility, K = constancy; L and R are the operands.  Rules for
// division, remainder and comparisons assume non-negative operands, as
// index arithmetic has them (Triton makes the same assumption).
//
//===----------------------------------------------------------------------===//
#include "tritium/Analysis/AxisInfo.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

#include <numeric>

using namespace mlir;
using namespace tritium;
namespace tt = tritium::tt;

void AxisInfo::print(llvm::raw_ostream &os) const {
  if (!isInitialized()) {
    os << "<uninitialized>";
    return;
  }
  auto printVector = [&](StringRef name, ArrayRef<int64_t> values) {
    os << name << " = [";
    llvm::interleaveComma(values, os);
    os << "]";
  };
  printVector("contiguity", contiguity);
  os << ", ";
  printVector("divisibility", divisibility);
  os << ", ";
  printVector("constancy", constancy);
}

namespace {

//===----------------------------------------------------------------------===//
// Types and attributes
//===----------------------------------------------------------------------===//

/// The shape axis info works on: a tensor's, or [1] for a scalar.
SmallVector<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return SmallVector<int64_t>(tensor.getShape());
  return {1};
}

/// Bytes of what a pointer (or tensor of pointers) points to; at least 1.
int64_t pointeeBytes(Type ptrLike) {
  auto ptr = dyn_cast<tt::PointerType>(getElementTypeOrSelf(ptrLike));
  if (!ptr)
    return 1;
  Type pointee = ptr.getPointeeType();
  if (isa<tt::PointerType>(pointee))
    return 8;
  if (pointee.isIntOrFloat())
    return std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
  return 1;
}

/// `value` wrapped to the bit width of integer type `type` (sign-extended),
/// as the hardware computes it; unchanged for index and 64-bit types.
int64_t wrapToType(int64_t value, Type type) {
  auto intType = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
  if (!intType || intType.getWidth() >= 64)
    return value;
  unsigned width = intType.getWidth();
  uint64_t mask = (uint64_t(1) << width) - 1;
  uint64_t bits = static_cast<uint64_t>(value) & mask;
  // i1 stays 0 or 1 (true is 1, as a boolean); wider types sign-extend.
  if (width > 1 && (bits >> (width - 1)) & 1)
    bits |= ~mask;
  return static_cast<int64_t>(bits);
}

/// The value of an integer constant element: booleans read as 0 or 1.
int64_t constantValueOf(const APInt &value) {
  return value.getBitWidth() == 1 ? static_cast<int64_t>(value.getZExtValue())
                                  : value.getSExtValue();
}

/// The entries of a tt.* hint attribute: an integer, or one integer per
/// dimension as a dense i32 (or any integer) tensor or array.
std::optional<std::vector<int64_t>> readHint(Attribute attr, unsigned rank) {
  std::vector<int64_t> values;
  if (auto integer = dyn_cast_or_null<IntegerAttr>(attr)) {
    values.assign(rank, integer.getInt());
  } else if (auto dense = dyn_cast_or_null<DenseIntElementsAttr>(attr)) {
    for (const APInt &v : dense.getValues<APInt>())
      values.push_back(v.getSExtValue());
  } else if (auto array = dyn_cast_or_null<DenseI32ArrayAttr>(attr)) {
    values.assign(array.asArrayRef().begin(), array.asArrayRef().end());
  } else {
    return std::nullopt;
  }
  if (values.size() != rank ||
      llvm::any_of(values, [](int64_t v) { return v <= 0; }))
    return std::nullopt;
  return values;
}

/// `info` with the hints found by `lookup(name)` replacing its entries.
AxisInfo applyHints(const AxisInfo &info,
                    function_ref<Attribute(StringRef)> lookup) {
  unsigned rank = info.getRank();
  std::vector<int64_t> contiguity(info.getContiguity().begin(),
                                  info.getContiguity().end());
  std::vector<int64_t> divisibility(info.getDivisibility().begin(),
                                    info.getDivisibility().end());
  std::vector<int64_t> constancy(info.getConstancy().begin(),
                                 info.getConstancy().end());
  bool changed = false;
  if (auto hint = readHint(lookup(kContiguityAttrName), rank)) {
    contiguity = *hint;
    changed = true;
  }
  if (auto hint = readHint(lookup(kDivisibilityAttrName), rank)) {
    divisibility = *hint;
    for (int64_t &d : divisibility)
      d = std::min(highestPowerOf2Divisor(d), AxisInfo::kMaxDivisibility);
    changed = true;
  }
  if (auto hint = readHint(lookup(kConstancyAttrName), rank)) {
    constancy = *hint;
    changed = true;
  }
  if (!changed)
    return info;
  return AxisInfo(contiguity, divisibility, constancy,
                  info.getConstantValue());
}

/// Caps run lengths at the dimension sizes: a run never spans more than the
/// tensor.
AxisInfo clampToShape(const AxisInfo &info, ArrayRef<int64_t> shape) {
  std::vector<int64_t> contiguity(info.getContiguity().begin(),
                                  info.getContiguity().end());
  std::vector<int64_t> constancy(info.getConstancy().begin(),
                                 info.getConstancy().end());
  for (unsigned d = 0; d < shape.size(); ++d) {
    contiguity[d] = std::max<int64_t>(1, std::min(contiguity[d], shape[d]));
    constancy[d] = std::max<int64_t>(1, std::min(constancy[d], shape[d]));
  }
  std::vector<int64_t> divisibility(info.getDivisibility().begin(),
                                    info.getDivisibility().end());
  return AxisInfo(contiguity, divisibility, constancy,
                  info.getConstantValue());
}

//===----------------------------------------------------------------------===//
// Per-dimension builders
//===----------------------------------------------------------------------===//

/// Accumulates one result dimension at a time.
struct InfoBuilder {
  explicit InfoBuilder(unsigned rank) {
    contiguity.reserve(rank);
    divisibility.reserve(rank);
    constancy.reserve(rank);
  }
  void add(int64_t c, int64_t d, int64_t k) {
    contiguity.push_back(std::max<int64_t>(1, c));
    divisibility.push_back(
        std::clamp<int64_t>(d, 1, AxisInfo::kMaxDivisibility));
    constancy.push_back(std::max<int64_t>(1, k));
  }
  AxisInfo build(std::optional<int64_t> constant = std::nullopt) {
    return AxisInfo(contiguity, divisibility, constancy, constant);
  }
  std::vector<int64_t> contiguity, divisibility, constancy;
};

/// True if `info` is known to be the constant `value` everywhere.
bool isConstant(const AxisInfo &info, int64_t value) {
  return info.getConstantValue() == value;
}

/// A splat of L's constant and R's constant combined by `fold`, when both
/// are constant and `fold` succeeds.
std::optional<AxisInfo>
foldConstants(const AxisInfo &lhs, const AxisInfo &rhs, ArrayRef<int64_t> shape,
              Type resultType,
              function_ref<std::optional<int64_t>(int64_t, int64_t)> fold) {
  if (!lhs.getConstantValue() || !rhs.getConstantValue())
    return std::nullopt;
  std::optional<int64_t> value =
      fold(*lhs.getConstantValue(), *rhs.getConstantValue());
  if (!value)
    return std::nullopt;
  return AxisInfo::splatConstant(wrapToType(*value, resultType), shape);
}

/// gcd over several run lengths.
int64_t gcdOf(std::initializer_list<int64_t> values) {
  int64_t result = 0;
  for (int64_t v : values)
    result = std::gcd(result, v);
  return result;
}

/// Runs of L / R (or L >> k, or comparisons of L with R) that cannot change
/// value: when L holds runs v, v+1, ... whose starts are multiples of g and R
/// is constant over aligned blocks of g elements that are multiples of g,
/// the quotient only changes where L crosses a multiple of R, i.e. at block
/// starts.  Returns g = gcd(C_L, D_L, D_R(elements), K_R), or 1.
int64_t blocksAlignedToDivisor(const AxisInfo &lhs, const AxisInfo &rhs,
                               unsigned d) {
  if (lhs.getContiguity(d) == 1 || rhs.getConstancy(d) == 1)
    return 1;
  return gcdOf({lhs.getContiguity(d), lhs.getDivisibility(d),
                rhs.getElementDivisibility(d), rhs.getConstancy(d)});
}

//===----------------------------------------------------------------------===//
// Transfer functions
//===----------------------------------------------------------------------===//

/// arith.constant: integer scalars and splats know their value; other
/// splats are constant; anything else is unknown.
AxisInfo visitConstant(arith::ConstantOp op, ArrayRef<int64_t> shape) {
  Attribute value = op.getValue();
  if (auto integer = dyn_cast<IntegerAttr>(value))
    return AxisInfo::splatConstant(constantValueOf(integer.getValue()), shape);
  if (auto splat = dyn_cast<SplatElementsAttr>(value)) {
    if (splat.getElementType().isIntOrIndex())
      return AxisInfo::splatConstant(
          constantValueOf(splat.getSplatValue<APInt>()), shape);
    InfoBuilder builder(shape.size());
    for (int64_t size : shape)
      builder.add(1, 1, size);
    return builder.build();
  }
  return AxisInfo::unknown(shape.size());
}

/// tt.make_range [start, end): one run of end - start values from start.
AxisInfo visitMakeRange(tt::MakeRangeOp op) {
  int64_t start = op.getStart(), end = op.getEnd();
  return AxisInfo({end - start}, {highestPowerOf2Divisor(start)}, {1});
}

/// tt.splat: every element is the scalar; constant along every dimension.
AxisInfo visitSplat(const AxisInfo &src, ArrayRef<int64_t> shape) {
  InfoBuilder builder(shape.size());
  int64_t div = src.getDivisibilityOfAllElements();
  for (int64_t size : shape)
    builder.add(1, div, size);
  return builder.build(src.getConstantValue());
}

/// tt.broadcast: a dimension of size 1 repeated is constant along it.
AxisInfo visitBroadcast(const AxisInfo &src, ArrayRef<int64_t> srcShape,
                        ArrayRef<int64_t> shape) {
  InfoBuilder builder(shape.size());
  for (unsigned d = 0; d < shape.size(); ++d) {
    if (srcShape[d] == 1 && shape[d] != 1)
      builder.add(1, src.getElementDivisibility(d), shape[d]);
    else
      builder.add(src.getContiguity(d), src.getDivisibility(d),
                  src.getConstancy(d));
  }
  return builder.build(src.getConstantValue());
}

/// tt.expand_dims: the new dimension has size 1, so each element is a group
/// of its own: its divisibility is what every element is divisible by.
AxisInfo visitExpandDims(const AxisInfo &src, unsigned axis) {
  std::vector<int64_t> contiguity(src.getContiguity().begin(),
                                  src.getContiguity().end());
  std::vector<int64_t> divisibility(src.getDivisibility().begin(),
                                    src.getDivisibility().end());
  std::vector<int64_t> constancy(src.getConstancy().begin(),
                                 src.getConstancy().end());
  contiguity.insert(contiguity.begin() + axis, 1);
  divisibility.insert(divisibility.begin() + axis,
                      src.getDivisibilityOfAllElements());
  constancy.insert(constancy.begin() + axis, 1);
  return AxisInfo(contiguity, divisibility, constancy, src.getConstantValue());
}

/// tt.trans: the facts move with their dimensions.
AxisInfo visitTrans(const AxisInfo &src, ArrayRef<int32_t> order) {
  InfoBuilder builder(order.size());
  for (int32_t from : order)
    builder.add(src.getContiguity(from), src.getDivisibility(from),
                src.getConstancy(from));
  return builder.build(src.getConstantValue());
}

/// arith.addi / arith.subi / tt.addptr (`rhsScale` = bytes per pointee for
/// addptr, whose offsets count elements while pointer divisibility counts
/// bytes).
///   C: runs of L plus constant blocks of R stay runs: gcd(C_L, K_R); for
///      addition also gcd(K_L, C_R).  The longer of the two.
///   D: the gcd of both operands' divisibility at the starts of those runs.
///   K: gcd(K_L, K_R).
AxisInfo visitAddSub(const AxisInfo &lhs, const AxisInfo &rhs,
                     ArrayRef<int64_t> shape, bool isSub, int64_t rhsScale) {
  InfoBuilder builder(shape.size());
  for (unsigned d = 0; d < shape.size(); ++d) {
    int64_t contiguity = std::max(
        std::gcd(lhs.getContiguity(d), rhs.getConstancy(d)),
        isSub ? int64_t(1) : std::gcd(lhs.getConstancy(d), rhs.getContiguity(d)));
    int64_t divisibility = std::gcd(
        lhs.getDivisibilityOfGroups(d, contiguity),
        multiplyDivisibility(rhs.getDivisibilityOfGroups(d, contiguity),
                             rhsScale));
    builder.add(contiguity, divisibility,
                std::gcd(lhs.getConstancy(d), rhs.getConstancy(d)));
  }
  return builder.build();
}

/// arith.muli: x * 1 is x; x * 0 is 0; otherwise element divisibilities
/// multiply and only constancy survives.
AxisInfo visitMul(const AxisInfo &lhs, const AxisInfo &rhs,
                  ArrayRef<int64_t> shape) {
  if (isConstant(rhs, 1))
    return lhs;
  if (isConstant(lhs, 1))
    return rhs;
  if (isConstant(lhs, 0) || isConstant(rhs, 0))
    return AxisInfo::splatConstant(0, shape);
  InfoBuilder builder(shape.size());
  for (unsigned d = 0; d < shape.size(); ++d)
    builder.add(1,
                multiplyDivisibility(lhs.getElementDivisibility(d),
                                     rhs.getElementDivisibility(d)),
                std::gcd(lhs.getConstancy(d), rhs.getConstancy(d)));
  return builder.build();
}

/// arith.divsi / arith.divui, and right shifts by `rhs` = log2 of the
/// divisor (`divisor` is then its value).
///   K: gcd(K_L, K_R), or the blocks of blocksAlignedToDivisor when L runs.
///   D: an exact division by a power of two p divides D_L by p.
AxisInfo visitDiv(const AxisInfo &lhs, const AxisInfo &rhs,
                  std::optional<int64_t> divisor, ArrayRef<int64_t> shape) {
  if (divisor == 1)
    return lhs;
  if (isConstant(lhs, 0))
    return lhs;
  InfoBuilder builder(shape.size());
  for (unsigned d = 0; d < shape.size(); ++d) {
    int64_t constancy =
        std::max(std::gcd(lhs.getConstancy(d), rhs.getConstancy(d)),
                 blocksAlignedToDivisor(lhs, rhs, d));
    int64_t divisibility = 1;
    int64_t elementDiv = lhs.getElementDivisibility(d);
    if (divisor && *divisor > 0 && highestPowerOf2Divisor(*divisor) == *divisor &&
        elementDiv % *divisor == 0)
      divisibility = elementDiv / *divisor;
    builder.add(1, divisibility, constancy);
  }
  return builder.build();
}

/// arith.remsi / arith.remui, and x & (2^k - 1) as x rem 2^k.
///   C: within the blocks of blocksAlignedToDivisor the remainder counts up
///      without wrapping, so runs of L stay runs of that length.
///   D: r = x - q * (x / q) is divisible by gcd(D_x, D_q).
///   K: gcd(K_L, K_R).
AxisInfo visitRem(const AxisInfo &lhs, const AxisInfo &rhs,
                  ArrayRef<int64_t> shape) {
  if (isConstant(rhs, 1))
    return AxisInfo::splatConstant(0, shape);
  InfoBuilder builder(shape.size());
  for (unsigned d = 0; d < shape.size(); ++d) {
    int64_t constancy = std::gcd(lhs.getConstancy(d), rhs.getConstancy(d));
    int64_t contiguity = blocksAlignedToDivisor(lhs, rhs, d);
    int64_t divisibility =
        std::gcd(lhs.getDivisibilityOfGroups(d, contiguity),
                 rhs.getElementDivisibility(d));
    builder.add(contiguity, divisibility, constancy);
  }
  return builder.build();
}

/// arith.shli: x << k is x * 2^k.  With an unknown shift amount the
/// trailing zeros of x are still kept.
AxisInfo visitShl(const AxisInfo &lhs, const AxisInfo &rhs,
                  ArrayRef<int64_t> shape) {
  std::optional<int64_t> amount = rhs.getConstantValue();
  if (amount == 0)
    return lhs;
  InfoBuilder builder(shape.size());
  for (unsigned d = 0; d < shape.size(); ++d) {
    int64_t divisibility = lhs.getElementDivisibility(d);
    if (amount && *amount > 0)
      divisibility = multiplyDivisibility(
          divisibility, *amount >= 30 ? AxisInfo::kMaxDivisibility
                                      : int64_t(1) << *amount);
    builder.add(1, divisibility,
                std::gcd(lhs.getConstancy(d), rhs.getConstancy(d)));
  }
  return builder.build();
}

/// arith.andi: a bit clear in either operand is clear in the result, so the
/// larger element divisibility holds; masks 2^k - 1 are remainders; -1 is
/// the identity and 0 absorbs.
AxisInfo visitAnd(const AxisInfo &lhs, const AxisInfo &rhs,
                  ArrayRef<int64_t> shape) {
  for (auto [value, mask] : {std::pair(&lhs, &rhs), std::pair(&rhs, &lhs)}) {
    std::optional<int64_t> m = mask->getConstantValue();
    if (!m)
      continue;
    if (*m == -1)
      return *value;
    if (*m == 0)
      return AxisInfo::splatConstant(0, shape);
    if (*m > 0 && highestPowerOf2Divisor(*m + 1) == *m + 1)
      return visitRem(*value,
                      AxisInfo::splatConstant(*m + 1, shape), shape);
  }
  InfoBuilder builder(shape.size());
  for (unsigned d = 0; d < shape.size(); ++d)
    builder.add(1,
                std::max(lhs.getElementDivisibility(d),
                         rhs.getElementDivisibility(d)),
                std::gcd(lhs.getConstancy(d), rhs.getConstancy(d)));
  return builder.build();
}

/// arith.ori / arith.xori: trailing zeros common to both survive; 0 is the
/// identity.
AxisInfo visitOrXor(const AxisInfo &lhs, const AxisInfo &rhs,
                    ArrayRef<int64_t> shape) {
  if (isConstant(rhs, 0))
    return lhs;
  if (isConstant(lhs, 0))
    return rhs;
  InfoBuilder builder(shape.size());
  for (unsigned d = 0; d < shape.size(); ++d)
    builder.add(1,
                std::gcd(lhs.getElementDivisibility(d),
                         rhs.getElementDivisibility(d)),
                std::gcd(lhs.getConstancy(d), rhs.getConstancy(d)));
  return builder.build();
}

/// arith.cmpi: constant where both operands are, and also where a run of L
/// is compared with a constant block of R for `L < R` or `L >= R` (and
/// symmetrically `L > R`, `L <= R` with the run on the right): the outcome
/// flips only when the run reaches R's value, a multiple of the block
/// length, i.e. at a block start.
AxisInfo visitCmp(arith::CmpIPredicate predicate, const AxisInfo &lhs,
                  const AxisInfo &rhs, ArrayRef<int64_t> shape) {
  using P = arith::CmpIPredicate;
  bool runOnLeft = predicate == P::slt || predicate == P::ult ||
                   predicate == P::sge || predicate == P::uge;
  bool runOnRight = predicate == P::sgt || predicate == P::ugt ||
                    predicate == P::sle || predicate == P::ule;
  InfoBuilder builder(shape.size());
  for (unsigned d = 0; d < shape.size(); ++d) {
    int64_t constancy = std::gcd(lhs.getConstancy(d), rhs.getConstancy(d));
    if (runOnLeft)
      constancy = std::max(constancy, blocksAlignedToDivisor(lhs, rhs, d));
    if (runOnRight)
      constancy = std::max(constancy, blocksAlignedToDivisor(rhs, lhs, d));
    builder.add(1, 1, constancy);
  }
  return builder.build();
}

/// arith.select: a run survives where the condition is constant over it and
/// both sides run; constancy needs all three constant.
AxisInfo visitSelect(const AxisInfo &cond, bool scalarCond, const AxisInfo &lhs,
                     const AxisInfo &rhs, ArrayRef<int64_t> shape) {
  if (std::optional<int64_t> c = cond.getConstantValue())
    return *c ? lhs : rhs;
  InfoBuilder builder(shape.size());
  for (unsigned d = 0; d < shape.size(); ++d) {
    int64_t condConstancy = scalarCond ? shape[d] : cond.getConstancy(d);
    int64_t contiguity =
        gcdOf({lhs.getContiguity(d), rhs.getContiguity(d), condConstancy});
    int64_t divisibility = std::gcd(lhs.getDivisibilityOfGroups(d, contiguity),
                                    rhs.getDivisibilityOfGroups(d, contiguity));
    builder.add(contiguity, divisibility,
                gcdOf({lhs.getConstancy(d), rhs.getConstancy(d), condConstancy}));
  }
  std::optional<int64_t> constant;
  if (lhs.getConstantValue() && lhs.getConstantValue() == rhs.getConstantValue())
    constant = lhs.getConstantValue();
  return builder.build(constant);
}

/// min / max: each element is one of its operands', so the result is
/// divisible by what both are, constant where both are, and contiguous where
/// both are (two runs of step 1 keep their difference, so one of them is
/// the smaller over a whole run).
AxisInfo visitMinMax(const AxisInfo &lhs, const AxisInfo &rhs,
                     ArrayRef<int64_t> shape) {
  InfoBuilder builder(shape.size());
  for (unsigned d = 0; d < shape.size(); ++d) {
    int64_t contiguity = std::gcd(lhs.getContiguity(d), rhs.getContiguity(d));
    builder.add(contiguity,
                std::gcd(lhs.getDivisibilityOfGroups(d, contiguity),
                         rhs.getDivisibilityOfGroups(d, contiguity)),
                std::gcd(lhs.getConstancy(d), rhs.getConstancy(d)));
  }
  return builder.build();
}

/// Any other element-wise op (floats, math, casts we do not model): equal
/// inputs give equal outputs, nothing more.
AxisInfo visitElementwise(ArrayRef<AxisInfo> operands, ValueRange values,
                          ArrayRef<int64_t> shape) {
  InfoBuilder builder(shape.size());
  for (unsigned d = 0; d < shape.size(); ++d) {
    int64_t constancy = 0;
    for (auto [info, value] : llvm::zip(operands, values))
      constancy = std::gcd(constancy, isa<RankedTensorType>(value.getType())
                                          ? info.getConstancy(d)
                                          : shape[d]);
    builder.add(1, 1, constancy == 0 ? 1 : constancy);
  }
  return builder.build();
}

/// Folds of the binary integer ops whose constants we track.
std::optional<int64_t> foldBinary(Operation *op, int64_t a, int64_t b) {
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
      .Case<arith::AddIOp>([&](auto) { return a + b; })
      .Case<arith::SubIOp>([&](auto) { return a - b; })
      .Case<arith::MulIOp>([&](auto) { return a * b; })
      .Case<arith::DivSIOp, arith::DivUIOp>([&](auto) -> std::optional<int64_t> {
        if (b == 0)
          return std::nullopt;
        return a / b;
      })
      .Case<arith::RemSIOp, arith::RemUIOp>([&](auto) -> std::optional<int64_t> {
        if (b == 0)
          return std::nullopt;
        return a % b;
      })
      .Case<arith::MinSIOp>([&](auto) { return std::min(a, b); })
      .Case<arith::MaxSIOp>([&](auto) { return std::max(a, b); })
      .Case<arith::MinUIOp, arith::MaxUIOp>([&](auto) -> std::optional<int64_t> {
        if (a < 0 || b < 0) // (an unsigned comparison of negative values)
          return std::nullopt;
        return isa<arith::MinUIOp>(op) ? std::min(a, b) : std::max(a, b);
      })
      .Case<arith::AndIOp>([&](auto) { return a & b; })
      .Case<arith::OrIOp>([&](auto) { return a | b; })
      .Case<arith::XOrIOp>([&](auto) { return a ^ b; })
      .Case<arith::ShLIOp>([&](auto) -> std::optional<int64_t> {
        if (b < 0 || b >= 63)
          return std::nullopt;
        return static_cast<int64_t>(static_cast<uint64_t>(a) << b);
      })
      .Case<arith::ShRSIOp>([&](auto) -> std::optional<int64_t> {
        if (b < 0 || b >= 63)
          return std::nullopt;
        return a >> b;
      })
      .Case<arith::CmpIOp>([&](arith::CmpIOp cmp) -> std::optional<int64_t> {
        using P = arith::CmpIPredicate;
        auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
        switch (cmp.getPredicate()) {
        case P::eq: return a == b;
        case P::ne: return a != b;
        case P::slt: return a < b;
        case P::sle: return a <= b;
        case P::sgt: return a > b;
        case P::sge: return a >= b;
        case P::ult: return ua < ub;
        case P::ule: return ua <= ub;
        case P::ugt: return ua > ub;
        case P::uge: return ua >= ub;
        }
        return std::nullopt;
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// True for the tt ops that work element by element but do not carry the
/// Elementwise trait.
bool isTTElementwise(Operation *op) {
  return isa<tt::FpToFpOp, tt::ClampOp, tt::PreciseSqrtOp, tt::PreciseDivFOp,
             tt::MulhiUIOp, tt::ExternElementwiseOp>(op);
}

/// The rule for result `index` of `op`, before hints.
AxisInfo computeResult(Operation *op, unsigned index,
                       ArrayRef<AxisInfo> operands) {
  Value result = op->getResult(index);
  SmallVector<int64_t> shape = shapeOf(result.getType());
  unsigned rank = shape.size();
  if (op->getNumResults() != 1)
    return AxisInfo::unknown(rank);

  // Binary integer ops first fold constants.
  if (operands.size() == 2 &&
      isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivSIOp,
          arith::DivUIOp, arith::RemSIOp, arith::RemUIOp, arith::AndIOp,
          arith::OrIOp, arith::XOrIOp, arith::ShLIOp, arith::ShRSIOp,
          arith::CmpIOp, arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp,
          arith::MaxUIOp>(op))
    if (auto folded =
            foldConstants(operands[0], operands[1], shape, result.getType(),
                          [&](int64_t a, int64_t b) {
                            return foldBinary(op, a, b);
                          }))
      return *folded;

  return llvm::TypeSwitch<Operation *, AxisInfo>(op)
      .Case<arith::ConstantOp>(
          [&](arith::ConstantOp c) { return visitConstant(c, shape); })
      .Case<tt::MakeRangeOp>([&](tt::MakeRangeOp r) { return visitMakeRange(r); })
      .Case<tt::SplatOp>([&](auto) { return visitSplat(operands[0], shape); })
      .Case<tt::BroadcastOp>([&](tt::BroadcastOp b) {
        return visitBroadcast(operands[0], shapeOf(b.getSrc().getType()), shape);
      })
      .Case<tt::ExpandDimsOp>([&](tt::ExpandDimsOp e) {
        return visitExpandDims(operands[0], e.getAxis());
      })
      .Case<tt::TransOp>(
          [&](tt::TransOp t) { return visitTrans(operands[0], t.getOrder()); })
      // A layout conversion moves values between threads, not their values.
      .Case<ttg::ConvertLayoutOp>([&](auto) { return operands[0]; })
      .Case<arith::AddIOp>([&](auto) {
        return visitAddSub(operands[0], operands[1], shape, false, 1);
      })
      .Case<arith::SubIOp>([&](auto) {
        return visitAddSub(operands[0], operands[1], shape, true, 1);
      })
      .Case<tt::AddPtrOp>([&](tt::AddPtrOp a) {
        return visitAddSub(operands[0], operands[1], shape, false,
                           pointeeBytes(a.getPtr().getType()));
      })
      .Case<arith::MulIOp>(
          [&](auto) { return visitMul(operands[0], operands[1], shape); })
      .Case<arith::DivSIOp, arith::DivUIOp>([&](auto) {
        return visitDiv(operands[0], operands[1],
                        operands[1].getConstantValue(), shape);
      })
      .Case<arith::ShRSIOp, arith::ShRUIOp>([&](auto) {
        std::optional<int64_t> amount = operands[1].getConstantValue();
        std::optional<int64_t> divisor;
        AxisInfo rhs = AxisInfo::unknown(rank);
        if (amount && *amount >= 0 && *amount < 30) {
          divisor = int64_t(1) << *amount;
          rhs = AxisInfo::splatConstant(*divisor, shape);
        }
        return visitDiv(operands[0], rhs, divisor, shape);
      })
      .Case<arith::RemSIOp, arith::RemUIOp>(
          [&](auto) { return visitRem(operands[0], operands[1], shape); })
      .Case<arith::ShLIOp>(
          [&](auto) { return visitShl(operands[0], operands[1], shape); })
      .Case<arith::AndIOp>(
          [&](auto) { return visitAnd(operands[0], operands[1], shape); })
      .Case<arith::OrIOp, arith::XOrIOp>(
          [&](auto) { return visitOrXor(operands[0], operands[1], shape); })
      .Case<arith::CmpIOp>([&](arith::CmpIOp c) {
        return visitCmp(c.getPredicate(), operands[0], operands[1], shape);
      })
      .Case<tt::LoadOp>([&](tt::LoadOp load) {
        // Elements loaded through equal pointers under an equal mask (and
        // equal `other`) are equal: a row index loaded once per row of a
        // tile is constant along the row, so the gather it addresses stays
        // contiguous there.  Nothing more is known of loaded values; a
        // volatile load may see another thread's write in between.
        if (load.getIsVolatile() || !isa<RankedTensorType>(load.getPtr().getType()))
          return AxisInfo::unknown(rank);
        InfoBuilder builder(rank);
        for (unsigned d = 0; d < rank; ++d) {
          int64_t constancy = operands[0].getConstancy(d);
          unsigned next = 1;
          if (load.getMask())
            constancy = std::gcd(constancy, operands[next++].getConstancy(d));
          if (load.getOther())
            constancy = std::gcd(constancy, operands[next].getConstancy(d));
          builder.add(1, 1, constancy);
        }
        return builder.build();
      })
      .Case<arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp>(
          [&](auto) { return visitMinMax(operands[0], operands[1], shape); })
      .Case<arith::SelectOp>([&](arith::SelectOp s) {
        return visitSelect(operands[0],
                           !isa<RankedTensorType>(s.getCondition().getType()),
                           operands[1], operands[2], shape);
      })
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp,
            tt::IntToPtrOp, tt::PtrToIntOp, tt::BitcastOp>([&](auto) {
        const AxisInfo &src = operands[0];
        std::optional<int64_t> constant = src.getConstantValue();
        if (constant && isa<arith::ExtUIOp>(op) && *constant < 0)
          constant.reset();
        if (constant && isa<IntegerType>(getElementTypeOrSelf(result.getType())))
          constant = wrapToType(*constant, result.getType());
        if (!isa<IntegerType, IndexType>(getElementTypeOrSelf(result.getType())))
          constant.reset();
        return AxisInfo(std::vector<int64_t>(src.getContiguity().begin(),
                                             src.getContiguity().end()),
                        std::vector<int64_t>(src.getDivisibility().begin(),
                                             src.getDivisibility().end()),
                        std::vector<int64_t>(src.getConstancy().begin(),
                                             src.getConstancy().end()),
                        constant);
      })
      .Default([&](Operation *other) {
        if ((other->hasTrait<OpTrait::Elementwise>() || isTTElementwise(other)) &&
            !isa<tt::ElementwiseInlineAsmOp>(other))
          return visitElementwise(operands, other->getOperands(), shape);
        return AxisInfo::unknown(rank);
      });
}

} // namespace

AxisInfo tritium::getEntryAxisInfo(Value value) {
  AxisInfo info = AxisInfo::unknown(shapeOf(value.getType()).size());
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || !arg.getOwner()->isEntryBlock())
    return info;
  auto fn = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
  if (!fn || fn.isExternal() || &fn.getFunctionBody() != arg.getParentRegion())
    return info;
  unsigned index = arg.getArgNumber();
  return applyHints(info, [&](StringRef name) {
    return fn.getArgAttr(index, name);
  });
}

LogicalResult
AxisInfoAnalysis::visitOperation(Operation *op,
                                 ArrayRef<const AxisInfoLattice *> operands,
                                 ArrayRef<AxisInfoLattice *> results) {
  // Wait until every operand is known; the framework revisits the op when
  // they change.
  SmallVector<AxisInfo> infos;
  infos.reserve(operands.size());
  for (const AxisInfoLattice *operand : operands) {
    if (!operand->getValue().isInitialized())
      return success();
    infos.push_back(operand->getValue());
  }
  for (unsigned i = 0; i < results.size(); ++i) {
    AxisInfo info = computeResult(op, i, infos);
    info = applyHints(info, [&](StringRef name) {
      return op->getDiscardableAttr(name);
    });
    info = clampToShape(info, shapeOf(op->getResult(i).getType()));
    propagateIfChanged(results[i], results[i]->join(info));
  }
  return success();
}

void AxisInfoAnalysis::visitNonControlFlowArguments(
    Operation *op, const RegionSuccessor &successor,
    ArrayRef<AxisInfoLattice *> argLattices, unsigned firstIndex) {
  auto forOp = dyn_cast<scf::ForOp>(op);
  // The body's first argument is the induction variable, also when the loop
  // carries nothing (then the framework passes firstIndex 0 and no inputs).
  if (!forOp || successor.getSuccessor() != &forOp.getRegion()) {
    SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(
        op, successor, argLattices, firstIndex);
    return;
  }
  // The induction variable lb + i * step: every value is a multiple of
  // gcd(D_lb, D_step); it is a scalar, so contiguity and constancy are 1.
  ProgramPoint *point = getProgramPointBefore(forOp.getBody());
  const AxisInfoLattice *lb = getLatticeElementFor(point, forOp.getLowerBound());
  const AxisInfoLattice *step = getLatticeElementFor(point, forOp.getStep());
  if (!lb->getValue().isInitialized() || !step->getValue().isInitialized())
    return;
  int64_t divisibility =
      std::gcd(lb->getValue().getElementDivisibility(0),
               step->getValue().getElementDivisibility(0));
  AxisInfoLattice *iv = argLattices.front();
  propagateIfChanged(iv, iv->join(AxisInfo({1}, {divisibility}, {1})));
}

void AxisInfoAnalysis::setToEntryState(AxisInfoLattice *lattice) {
  propagateIfChanged(lattice,
                     lattice->join(getEntryAxisInfo(lattice->getAnchor())));
}
