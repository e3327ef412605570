//===- TTOps.cpp - tt dialect op semantics --------------------------------===//
//
// Verifiers, folders and custom assembly of the `tt` ops.  A verifier states
// each rule it checks in its diagnostic, naming the offending sizes, so that
// a bad kernel reads as an error about the kernel, not about the compiler.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TT/IR/TTDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tritium::tt;

#define GET_OP_CLASSES
#include "tritium/Dialect/TT/IR/TTOps.cpp.inc"

namespace {
/// Shape of a tensor type; empty for scalars.
ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  llvm::interleave(
      shape, [&](int64_t d) { s += std::to_string(d); }, [&] { s += ", "; });
  return s + "]";
}

/// True if `order` is a permutation of 0..rank-1.
bool isPermutation(ArrayRef<int32_t> order, size_t rank) {
  if (order.size() != rank)
    return false;
  SmallVector<bool> seen(rank, false);
  for (int32_t i : order) {
    if (i < 0 || static_cast<size_t>(i) >= rank || seen[i])
      return false;
    seen[i] = true;
  }
  return true;
}

/// Value of a tensor-or-scalar constant that is the same everywhere.
std::optional<Attribute> getSplatValue(Attribute attr) {
  if (auto dense = dyn_cast_or_null<SplatElementsAttr>(attr))
    return dense.getSplatValue<Attribute>();
  if (isa_and_nonnull<IntegerAttr, FloatAttr>(attr))
    return attr;
  return std::nullopt;
}

/// Checks the combine region of tt.reduce / tt.scan: 2N scalar arguments
/// whose types are the element types of the N operands (twice), and a
/// terminator yielding N values of those types.
LogicalResult verifyCombineRegion(Operation *op, Region &region,
                                  ValueRange srcs) {
  Block &block = region.front();
  unsigned n = srcs.size();
  if (block.getNumArguments() != 2 * n)
    return op->emitOpError() << "combine region must take " << 2 * n
                             << " arguments (two per operand), got "
                             << block.getNumArguments();
  for (unsigned i = 0; i < 2 * n; ++i) {
    Type expected = getElementTypeOrSelf(srcs[i % n].getType());
    if (block.getArgument(i).getType() != expected)
      return op->emitOpError() << "combine region argument #" << i
                               << " has type " << block.getArgument(i).getType()
                               << ", expected " << expected;
  }
  Operation *terminator = block.getTerminator();
  if (terminator->getNumOperands() != n)
    return op->emitOpError() << "combine region must yield " << n
                             << " values, got "
                             << terminator->getNumOperands();
  for (unsigned i = 0; i < n; ++i) {
    Type expected = getElementTypeOrSelf(srcs[i].getType());
    if (terminator->getOperand(i).getType() != expected)
      return op->emitOpError() << "combine region yields "
                               << terminator->getOperand(i).getType()
                               << " for operand #" << i << ", expected "
                               << expected;
  }
  return success();
}

/// All operands of a multi-operand reduce/scan share one shape.
LogicalResult verifySameShapes(Operation *op, ValueRange srcs, int32_t axis) {
  if (srcs.empty())
    return op->emitOpError("needs at least one operand");
  auto shape = shapeOf(srcs.front().getType());
  for (Value src : srcs.drop_front())
    if (shapeOf(src.getType()) != shape)
      return op->emitOpError("operands must all have the same shape");
  if (axis < 0 || axis >= static_cast<int32_t>(shape.size()))
    return op->emitOpError() << "axis " << axis << " is out of range for rank "
                             << shape.size();
  return success();
}
} // namespace

//===----------------------------------------------------------------------===//
// Functions and calls
//===----------------------------------------------------------------------===//

void FuncOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   FunctionType type, ArrayRef<NamedAttribute> attrs) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.attributes.append(attrs.begin(), attrs.end());
  state.addRegion();
}

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType = [](Builder &builder, ArrayRef<Type> argTypes,
                          ArrayRef<Type> results,
                          function_interface_impl::VariadicFlag,
                          std::string &) {
    return builder.getFunctionType(argTypes, results);
  };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &printer) {
  function_interface_impl::printFunctionOp(
      printer, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult FuncOp::verify() {
  if (isExternal())
    return success();
  auto inputs = getFunctionType().getInputs();
  Block &entry = getBody().front();
  if (entry.getNumArguments() != inputs.size())
    return emitOpError("entry block must have one argument per input");
  return success();
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee = getCalleeAttr();
  auto fn = symbolTable.lookupNearestSymbolFrom<FuncOp>(*this, callee);
  if (!fn)
    return emitOpError() << "'" << callee.getValue()
                         << "' does not reference a valid tt.func";
  auto type = fn.getFunctionType();
  if (type.getNumInputs() != getNumOperands())
    return emitOpError() << "passes " << getNumOperands() << " operands to '"
                         << callee.getValue() << "', which takes "
                         << type.getNumInputs();
  for (unsigned i = 0, e = type.getNumInputs(); i != e; ++i)
    if (getOperand(i).getType() != type.getInput(i))
      return emitOpError() << "operand #" << i << " has type "
                           << getOperand(i).getType() << ", callee expects "
                           << type.getInput(i);
  if (type.getNumResults() != getNumResults())
    return emitOpError("result count does not match the callee");
  for (unsigned i = 0, e = type.getNumResults(); i != e; ++i)
    if (getResult(i).getType() != type.getResult(i))
      return emitOpError() << "result #" << i << " has type "
                           << getResult(i).getType() << ", callee returns "
                           << type.getResult(i);
  return success();
}

LogicalResult ReturnOp::verify() {
  auto fn = cast<FuncOp>((*this)->getParentOp());
  auto results = fn.getFunctionType().getResults();
  if (getNumOperands() != results.size())
    return emitOpError() << "returns " << getNumOperands()
                         << " values but the function returns "
                         << results.size();
  for (unsigned i = 0, e = results.size(); i != e; ++i)
    if (getOperand(i).getType() != results[i])
      return emitOpError() << "value #" << i << " has type "
                           << getOperand(i).getType()
                           << ", the function returns " << results[i];
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor creation and shape manipulation
//===----------------------------------------------------------------------===//

LogicalResult MakeRangeOp::verify() {
  int64_t start = getStartAttr().getInt(), end = getEndAttr().getInt();
  if (end <= start)
    return emitOpError() << "end (" << end << ") must be greater than start ("
                         << start << ")";
  int64_t length = end - start;
  if (!llvm::isPowerOf2_64(length))
    return emitOpError() << "length end - start = " << length
                         << " must be a power of two";
  auto type = getType();
  if (type.getRank() != 1 || type.getShape()[0] != length)
    return emitOpError() << "result must be a 1-D tensor of " << length
                         << " elements, got " << type;
  return success();
}

LogicalResult SplatOp::verify() {
  auto result = cast<RankedTensorType>(getType());
  if (result.getElementType() != getSrc().getType())
    return emitOpError() << "result element type " << result.getElementType()
                         << " must equal the operand type "
                         << getSrc().getType();
  return success();
}

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  auto value = adaptor.getSrc();
  if (!isa_and_nonnull<IntegerAttr, FloatAttr>(value))
    return {};
  return SplatElementsAttr::get(cast<ShapedType>(getType()), value);
}

LogicalResult BroadcastOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getType());
  if (src.getElementType() != dst.getElementType())
    return emitOpError("source and result element types must match");
  if (src.getRank() != dst.getRank())
    return emitOpError() << "source rank " << src.getRank()
                         << " differs from result rank " << dst.getRank()
                         << "; insert dimensions with tt.expand_dims first";
  for (int64_t d = 0; d < src.getRank(); ++d)
    if (src.getDimSize(d) != dst.getDimSize(d) && src.getDimSize(d) != 1)
      return emitOpError() << "cannot broadcast dimension " << d << " from "
                           << src.getDimSize(d) << " to " << dst.getDimSize(d)
                           << ": only size-1 dimensions broadcast";
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto value = getSplatValue(adaptor.getSrc()))
    return SplatElementsAttr::get(cast<ShapedType>(getType()), *value);
  return {};
}

LogicalResult ExpandDimsOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getType());
  int32_t axis = getAxis();
  if (axis < 0 || axis > src.getRank())
    return emitOpError() << "axis " << axis << " is out of range [0, "
                         << src.getRank() << "]";
  SmallVector<int64_t> expected(src.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (dst.getShape() != ArrayRef<int64_t>(expected) ||
      src.getElementType() != dst.getElementType())
    return emitOpError() << "result must have shape " << shapeString(expected)
                         << " and element type " << src.getElementType();
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getType());
  if (src.getElementType() != dst.getElementType())
    return emitOpError("source and result element types must match");
  if (src.getNumElements() != dst.getNumElements())
    return emitOpError() << "cannot reshape " << src.getNumElements()
                         << " elements into " << dst.getNumElements();
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto value = getSplatValue(adaptor.getSrc()))
    return SplatElementsAttr::get(cast<ShapedType>(getType()), *value);
  return {};
}

LogicalResult TransOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getType());
  ArrayRef<int32_t> order = getOrder();
  if (!isPermutation(order, src.getRank()))
    return emitOpError() << "order must be a permutation of 0.."
                         << src.getRank() - 1;
  for (int64_t i = 0; i < src.getRank(); ++i)
    if (dst.getDimSize(i) != src.getDimSize(order[i]))
      return emitOpError() << "result dimension " << i << " must be "
                           << src.getDimSize(order[i]) << " (source dimension "
                           << order[i] << "), got " << dst.getDimSize(i);
  if (src.getElementType() != dst.getElementType())
    return emitOpError("source and result element types must match");
  return success();
}

OpFoldResult TransOp::fold(FoldAdaptor adaptor) {
  if (llvm::equal(getOrder(), llvm::seq<int32_t>(0, getOrder().size())))
    return getSrc();
  // trans(trans(x)): one permutation, result dimension i being x's dimension
  // inner[outer[i]]; none when they cancel (tl.trans of a transposed load,
  // as the backward attention kernels write it).
  if (auto inner = getSrc().getDefiningOp<TransOp>()) {
    SmallVector<int32_t> composed;
    for (int32_t dim : getOrder())
      composed.push_back(inner.getOrder()[dim]);
    if (llvm::equal(composed, llvm::seq<int32_t>(0, composed.size()))) {
      // (with layouts, only when the round trip lands on the source's)
      if (inner.getSrc().getType() != getType())
        return {};
      return inner.getSrc();
    }
    // (with layouts the result's would have to be re-derived: left as is)
    if (cast<RankedTensorType>(getType()).getEncoding())
      return {};
    getSrcMutable().assign(inner.getSrc());
    setOrder(composed);
    return getResult();
  }
  if (auto value = getSplatValue(adaptor.getSrc()))
    return SplatElementsAttr::get(cast<ShapedType>(getType()), *value);
  return {};
}

LogicalResult JoinOp::verify() {
  auto lhs = cast<RankedTensorType>(getLhs().getType());
  if (lhs != getRhs().getType())
    return emitOpError("both operands must have the same type");
  SmallVector<int64_t> expected(lhs.getShape());
  expected.push_back(2);
  auto dst = cast<RankedTensorType>(getType());
  if (dst.getShape() != ArrayRef<int64_t>(expected) ||
      dst.getElementType() != lhs.getElementType())
    return emitOpError() << "result must have shape " << shapeString(expected)
                         << " and element type " << lhs.getElementType();
  return success();
}

LogicalResult SplitOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  if (src.getShape().back() != 2)
    return emitOpError() << "the last dimension must be 2, got "
                         << src.getShape().back();
  auto expected = RankedTensorType::get(src.getShape().drop_back(),
                                        src.getElementType());
  for (Value out : {getOutLHS(), getOutRHS()}) {
    auto type = cast<RankedTensorType>(out.getType());
    if (type.getShape() != expected.getShape() ||
        type.getElementType() != expected.getElementType())
      return emitOpError() << "results must have shape "
                           << shapeString(expected.getShape());
  }
  return success();
}

LogicalResult CatOp::verify() {
  auto lhs = cast<RankedTensorType>(getLhs().getType());
  if (lhs != getRhs().getType())
    return emitOpError("both operands must have the same type");
  auto dst = cast<RankedTensorType>(getType());
  if (dst.getRank() != lhs.getRank() ||
      dst.getElementType() != lhs.getElementType())
    return emitOpError("result must have the operands' rank and element type");
  SmallVector<int64_t> expected(lhs.getShape());
  expected[0] *= 2;
  if (dst.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "result must have shape " << shapeString(expected);
  return success();
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  if (auto offset = getSplatValue(adaptor.getOffset()))
    if (auto intAttr = dyn_cast<IntegerAttr>(*offset); intAttr && intAttr.getValue().isZero())
      return getPtr();
  return {};
}

namespace {
/// Rules shared by loads and stores through block pointers.
LogicalResult verifyBoundaryCheck(Operation *op, Type ptrType,
                                  ArrayRef<int32_t> boundaryCheck) {
  if (boundaryCheck.empty())
    return success();
  auto ptr = dyn_cast<PointerType>(ptrType);
  auto tile = ptr ? dyn_cast<RankedTensorType>(ptr.getPointeeType()) : nullptr;
  if (!tile)
    return op->emitOpError("boundaryCheck needs a block pointer");
  for (int32_t d : boundaryCheck)
    if (d < 0 || d >= tile.getRank())
      return op->emitOpError() << "boundaryCheck dimension " << d
                               << " is out of range for rank "
                               << tile.getRank();
  return success();
}
} // namespace

LogicalResult LoadOp::verify() {
  bool blockPtr = isTensorPointerType(getPtr().getType());
  if (blockPtr && getMask())
    return emitOpError("a load through a block pointer takes no mask; use "
                       "boundaryCheck");
  if (!blockPtr && getPadding())
    return emitOpError("padding needs a block pointer");
  if (getOther() && !getMask())
    return emitOpError("'other' needs a mask");
  return verifyBoundaryCheck(*this, getPtr().getType(), getBoundaryCheck());
}

LogicalResult StoreOp::verify() {
  if (isTensorPointerType(getPtr().getType()) && getMask())
    return emitOpError("a store through a block pointer takes no mask; use "
                       "boundaryCheck");
  return verifyBoundaryCheck(*this, getPtr().getType(), getBoundaryCheck());
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

namespace {
/// `val` (and the result) must be what `ptr` points to; `mask` is i1 of
/// ptr's shape.
LogicalResult verifyAtomicTypes(Operation *op, Type ptrType, Type valType,
                                Type resultType, Value mask) {
  Type pointee = getPointeeType(ptrType);
  if (valType != pointee)
    return op->emitOpError() << "value type " << valType
                             << " must be the pointee type " << pointee;
  if (resultType != pointee)
    return op->emitOpError() << "result type " << resultType
                             << " must be the pointee type " << pointee;
  if (mask && mask.getType() != getI1SameShape(pointee))
    return op->emitOpError() << "mask must be " << getI1SameShape(pointee);
  return success();
}
} // namespace

LogicalResult AtomicRMWOp::verify() {
  if (failed(verifyAtomicTypes(*this, getPtr().getType(), getVal().getType(),
                               getType(), getMask())))
    return failure();
  Type elem = getElementTypeOrSelf(getVal().getType());
  bool isFloat = isa<FloatType>(elem);
  switch (getAtomicRmwOp()) {
  case RMWOp::FADD:
    if (!isFloat)
      return emitOpError() << "fadd needs a float element type, got " << elem;
    break;
  case RMWOp::AND:
  case RMWOp::OR:
  case RMWOp::XOR:
  case RMWOp::ADD:
  case RMWOp::UMAX:
  case RMWOp::UMIN:
    if (!elem.isInteger())
      return emitOpError() << stringifyRMWOp(getAtomicRmwOp())
                           << " needs an integer element type, got " << elem;
    break;
  case RMWOp::MAX:
  case RMWOp::MIN:
  case RMWOp::XCHG:
    break;
  }
  return success();
}

LogicalResult AtomicCASOp::verify() {
  if (getCmp().getType() != getVal().getType())
    return emitOpError("cmp and val must have the same type");
  return verifyAtomicTypes(*this, getPtr().getType(), getVal().getType(),
                           getType(), Value());
}

//===----------------------------------------------------------------------===//
// Dot, reductions and scans
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  auto c = cast<RankedTensorType>(getC().getType());
  if (a.getRank() != b.getRank() || a.getRank() != c.getRank() ||
      (a.getRank() != 2 && a.getRank() != 3))
    return emitOpError("operands must all be 2-D, or all 3-D with a batch "
                       "dimension");
  int64_t r = a.getRank();
  int64_t m = a.getDimSize(r - 2), k = a.getDimSize(r - 1);
  int64_t kb = b.getDimSize(r - 2), n = b.getDimSize(r - 1);
  if (k != kb)
    return emitOpError() << "a is " << m << "x" << k << " and b is " << kb
                         << "x" << n << ": inner dimensions must agree";
  if (c.getDimSize(r - 2) != m || c.getDimSize(r - 1) != n)
    return emitOpError() << "accumulator must be " << m << "x" << n << ", got "
                         << c.getDimSize(r - 2) << "x" << c.getDimSize(r - 1);
  if (r == 3 && (a.getDimSize(0) != b.getDimSize(0) ||
                 a.getDimSize(0) != c.getDimSize(0)))
    return emitOpError("batch dimensions must agree");
  Type ea = a.getElementType(), eb = b.getElementType();
  bool bothFp8 = ea.getIntOrFloatBitWidth() == 8 && isa<FloatType>(ea) &&
                 eb.getIntOrFloatBitWidth() == 8 && isa<FloatType>(eb);
  if (ea != eb && !bothFp8)
    return emitOpError() << "a and b element types differ (" << ea << " vs "
                         << eb << ")";
  if (ea.isInteger() != c.getElementType().isInteger())
    return emitOpError() << "accumulator type " << c.getElementType()
                         << " does not suit operands of type " << ea;
  return success();
}

LogicalResult ReduceOp::verify() {
  if (failed(verifySameShapes(*this, getSrcs(), getAxis())))
    return failure();
  if (getNumResults() != getSrcs().size())
    return emitOpError("must have one result per operand");
  auto shape = shapeOf(getSrcs().front().getType());
  SmallVector<int64_t> expected(shape);
  expected.erase(expected.begin() + getAxis());
  for (auto [src, result] : llvm::zip(getSrcs(), getResults())) {
    Type elem = getElementTypeOrSelf(src.getType());
    if (expected.empty() ? result.getType() != elem
                         : (shapeOf(result.getType()) != ArrayRef<int64_t>(expected) ||
                            getElementTypeOrSelf(result.getType()) != elem))
      return emitOpError() << "result type " << result.getType()
                           << " must be " << elem
                           << (expected.empty() ? "" : " with shape ")
                           << (expected.empty() ? "" : shapeString(expected));
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombineRegion(*this, getCombineOp(), getSrcs());
}

LogicalResult ScanOp::verify() {
  if (failed(verifySameShapes(*this, getSrcs(), getAxis())))
    return failure();
  if (getNumResults() != getSrcs().size())
    return emitOpError("must have one result per operand");
  for (auto [src, result] : llvm::zip(getSrcs(), getResults()))
    if (src.getType() != result.getType())
      return emitOpError("results must have the operands' types");
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  return verifyCombineRegion(*this, getCombineOp(), getSrcs());
}

LogicalResult HistogramOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getType());
  if (src.getRank() != 1 || dst.getRank() != 1)
    return emitOpError("input and result must be 1-D");
  if (!llvm::isPowerOf2_64(dst.getDimSize(0)))
    return emitOpError() << "the number of bins (" << dst.getDimSize(0)
                         << ") must be a power of two";
  return success();
}

LogicalResult GatherOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto idx = cast<RankedTensorType>(getIndices().getType());
  auto dst = cast<RankedTensorType>(getType());
  int32_t axis = getAxis();
  if (axis < 0 || axis >= src.getRank())
    return emitOpError() << "axis " << axis << " is out of range for rank "
                         << src.getRank();
  if (idx.getRank() != src.getRank())
    return emitOpError("indices must have the source's rank");
  if (dst.getShape() != idx.getShape())
    return emitOpError("result must have the shape of the indices");
  if (dst.getElementType() != src.getElementType())
    return emitOpError("result must have the source's element type");
  for (int64_t d = 0; d < src.getRank(); ++d)
    if (d != axis && idx.getDimSize(d) != src.getDimSize(d))
      return emitOpError() << "indices dimension " << d << " is "
                           << idx.getDimSize(d) << " but the source's is "
                           << src.getDimSize(d);
  return success();
}

//===----------------------------------------------------------------------===//
// Casts and special arithmetic
//===----------------------------------------------------------------------===//

LogicalResult FpToFpOp::verify() {
  auto srcBits = getElementTypeOrSelf(getSrc().getType()).getIntOrFloatBitWidth();
  auto dstBits = getElementTypeOrSelf(getType()).getIntOrFloatBitWidth();
  if (dstBits < srcBits && !getRounding())
    return emitOpError("a conversion to a narrower type needs a rounding mode");
  return success();
}

namespace {
unsigned bitWidthOf(Type type) {
  Type elem = getElementTypeOrSelf(type);
  if (isa<PointerType>(elem))
    return 64;
  return elem.getIntOrFloatBitWidth();
}
} // namespace

LogicalResult BitcastOp::verify() {
  unsigned from = bitWidthOf(getSrc().getType());
  unsigned to = bitWidthOf(getType());
  if (from != to)
    return emitOpError() << "cannot bitcast " << from << "-bit values to "
                         << to << "-bit values";
  return success();
}

OpFoldResult BitcastOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return {};
}

LogicalResult MulhiUIOp::verify() {
  unsigned bits = getElementTypeOrSelf(getType()).getIntOrFloatBitWidth();
  if (bits != 32 && bits != 64)
    return emitOpError() << "needs 32- or 64-bit integers, got " << bits
                         << " bits";
  return success();
}

//===----------------------------------------------------------------------===//
// Loads
//===----------------------------------------------------------------------===//

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), GlobalMemory::get());
  // A volatile load (a flag spun on) must stay where it is and stay at all,
  // as if it wrote: a read alone would let a loop of nothing but it be
  // erased and the read be hoisted out of its loop.
  if (getIsVolatile())
    effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

//===----------------------------------------------------------------------===//
// External and inline-asm element-wise functions
//===----------------------------------------------------------------------===//

void ExternElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Read::get(), GlobalMemory::get());
  effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

void ElementwiseInlineAsmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Read::get(), GlobalMemory::get());
  effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

LogicalResult ElementwiseInlineAsmOp::verify() {
  // (the Elementwise trait checks that operands and results share a shape;
  // there may be no operands)
  if (getResultTypes().empty())
    return emitOpError() << "needs at least one result";
  if (getPackedElement() < 1 || !llvm::isPowerOf2_32(getPackedElement()))
    return emitOpError() << "packed_element must be a positive power of two, got "
                         << getPackedElement();
  if (getPackedElement() > 1)
    for (Value v : getOperation()->getOpResults())
      if (auto t = dyn_cast<RankedTensorType>(v.getType());
          t && t.getNumElements() % getPackedElement() != 0)
        return emitOpError() << "tensor of " << t.getNumElements()
                             << " elements is not a multiple of packed_element";
  return success();
}

//===----------------------------------------------------------------------===//
// Block pointers
//===----------------------------------------------------------------------===//

LogicalResult MakeTensorPtrOp::verify() {
  auto tile = cast<RankedTensorType>(
      cast<PointerType>(getType()).getPointeeType());
  size_t rank = tile.getRank();
  if (getShape().size() != rank || getStrides().size() != rank ||
      getOffsets().size() != rank)
    return emitOpError() << "shape, strides and offsets need one value per "
                            "tile dimension ("
                         << rank << ")";
  if (!isPermutation(getOrder(), rank))
    return emitOpError() << "order must be a permutation of 0.." << rank - 1;
  auto base = cast<PointerType>(getBase().getType());
  if (base.getPointeeType() != tile.getElementType())
    return emitOpError() << "base points to " << base.getPointeeType()
                         << " but the tile holds " << tile.getElementType();
  return success();
}

LogicalResult AdvanceOp::verify() {
  auto tile = cast<RankedTensorType>(
      cast<PointerType>(getPtr().getType()).getPointeeType());
  if (static_cast<int64_t>(getOffsets().size()) != tile.getRank())
    return emitOpError() << "needs " << tile.getRank()
                         << " offsets (one per tile dimension), got "
                         << getOffsets().size();
  return success();
}

OpFoldResult AdvanceOp::fold(FoldAdaptor adaptor) {
  for (Attribute offset : adaptor.getOffsets()) {
    auto value = dyn_cast_or_null<IntegerAttr>(offset);
    if (!value || !value.getValue().isZero())
      return {};
  }
  return getPtr();
}

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

/// The checks shared by descriptor loads and stores: one index per block
/// dimension, and a tile of the block's shape and element type (any
/// layout).
static LogicalResult verifyDescriptorAccess(Operation *op, TensorDescType desc,
                                            size_t numIndices, Type tile) {
  RankedTensorType block = desc.getBlockType();
  if (static_cast<int64_t>(numIndices) != block.getRank())
    return op->emitOpError() << "needs " << block.getRank()
                             << " indices (one per block dimension), got "
                             << numIndices;
  auto tileType = cast<RankedTensorType>(tile);
  if (tileType.getShape() != block.getShape() ||
      tileType.getElementType() != block.getElementType())
    return op->emitOpError() << "moves tiles of type " << block
                             << ", got " << tileType;
  return success();
}

LogicalResult MakeTensorDescOp::verify() {
  RankedTensorType block = getType().getBlockType();
  if (static_cast<int64_t>(getShape().size()) != block.getRank() ||
      getStrides().size() != getShape().size())
    return emitOpError() << "needs " << block.getRank()
                         << " shape and stride entries (one per block "
                            "dimension), got "
                         << getShape().size() << " and " << getStrides().size();
  if (getScratch() && !getScratchOffset())
    return emitOpError() << "has a scratch pointer but no scratch_offset";
  auto base = cast<PointerType>(getBase().getType());
  if (base.getPointeeType() != block.getElementType())
    return emitOpError() << "base points to " << base.getPointeeType()
                         << " but the block holds " << block.getElementType();
  if (getPadding() != 1 && getPadding() != 2)
    return emitOpError() << "padding is 1 (zero) or 2 (NaN), got "
                         << getPadding();
  return success();
}

LogicalResult DescriptorLoadOp::verify() {
  return verifyDescriptorAccess(*this, getDesc().getType(), getIndices().size(),
                                getType());
}

LogicalResult DescriptorStoreOp::verify() {
  return verifyDescriptorAccess(*this, getDesc().getType(), getIndices().size(),
                                getSrc().getType());
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

LogicalResult PrintOp::verify() {
  if (getIsSigned().size() != getArgs().size())
    return emitOpError() << "isSigned needs one flag per operand ("
                         << getArgs().size() << "), got "
                         << getIsSigned().size();
  return success();
}
