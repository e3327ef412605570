//===- TTGAttrs.cpp - ttg layout attributes -------------------------------===//
//
// Assembly, verification and linear-layout conversion of the layout
// attributes.  Every layout prints as a dictionary, e.g.
//   #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8],
//                 warpsPerCTA = [4, 1], order = [1, 0]}>
// The layout math itself lives in plain C++ (tritium/Layout); this file only
// translates between attributes and those specs.  The parsers also read the
// IR Triton prints: its CTA-group fields (one CTA per group only) and
// `transposed` in #ttg.nvmma_shared.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "tritium/Layout/FmaDotLayout.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

#include "tritium/Dialect/TTG/IR/TTGAttrInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tritium/Dialect/TTG/IR/TTGAttrs.cpp.inc"

void TTGDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tritium/Dialect/TTG/IR/TTGAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// `<{key = value, ...}>` parameter dictionaries
//===----------------------------------------------------------------------===//

namespace {
/// Reads the named fields of a layout's parameter dictionary, reporting
/// missing, unknown and ill-typed fields at the attribute's location.
class LayoutFields {
public:
  /// Parses `<{...}>`; check `parsed()` before reading fields.  Errors
  /// point at the opening `<`.
  LayoutFields(AsmParser &parser, StringRef layoutName)
      : parser(parser), layoutName(layoutName),
        loc(parser.getCurrentLocation()) {
    if (parser.parseLess() || parser.parseAttribute(dict) ||
        parser.parseGreater())
      dict = {};
  }

  bool parsed() const { return static_cast<bool>(dict); }

  bool getUnsigned(StringRef name, unsigned &out) {
    auto attr = get<IntegerAttr>(name, "an integer");
    if (!attr)
      return false;
    if (attr.getValue().isNegative())
      return error(name, "must be non-negative");
    if (attr.getValue().getActiveBits() > 32)
      return error(name, "is too large");
    out = attr.getValue().getZExtValue();
    return true;
  }

  bool getUnsignedArray(StringRef name, SmallVectorImpl<unsigned> &out) {
    auto attr = get<ArrayAttr>(name, "an integer array");
    if (!attr)
      return false;
    for (Attribute element : attr) {
      auto value = dyn_cast<IntegerAttr>(element);
      if (!value || value.getValue().isNegative())
        return error(name, "must hold non-negative integers");
      if (value.getValue().getActiveBits() > 32)
        return error(name, "holds a value that is too large");
      out.push_back(value.getValue().getZExtValue());
    }
    return true;
  }

  /// Reads a list of bases `[[c0, c1, ...], ...]` into `flat` (`rank`
  /// coordinates each), taking `rank` from the first basis when unset.
  bool getBases(StringRef name, std::optional<unsigned> &rank,
                SmallVectorImpl<int64_t> &flat) {
    auto list = get<ArrayAttr>(name, "a list of bases (coordinate lists)");
    if (!list)
      return false;
    for (Attribute basisAttr : list) {
      auto basis = dyn_cast<ArrayAttr>(basisAttr);
      if (!basis)
        return error(name, "must be a list of bases (coordinate lists)");
      if (!rank)
        rank = basis.size();
      if (basis.size() != *rank)
        return error(name, (Twine("has a basis of ") + Twine(basis.size()) +
                            " coordinates where the layout has rank " + Twine(*rank))
                               .str());
      for (Attribute c : basis) {
        auto value = dyn_cast<IntegerAttr>(c);
        if (!value || value.getValue().isNegative() || value.getValue().getActiveBits() > 32)
          return error(name, "must hold non-negative 32-bit coordinates");
        flat.push_back(value.getValue().getZExtValue());
      }
    }
    return true;
  }

  bool has(StringRef name) const { return static_cast<bool>(dict.get(name)); }

  bool getBool(StringRef name, bool &out) {
    auto attr = get<BoolAttr>(name, "true or false");
    if (!attr)
      return false;
    out = attr.getValue();
    return true;
  }

  bool getAttribute(StringRef name, Attribute &out) {
    out = dict.get(name);
    if (!out)
      return error(name, "is missing");
    return true;
  }

  /// Reads Triton's CTA-group fields (`CTAsPerCGA`, `CTASplitNum`,
  /// `CTAOrder`), which Triton prints in every layout and Tritium keeps
  /// none of: Tritium runs one CTA per group (num_ctas = 1), so the first
  /// two must be all ones when present.
  bool singleCTA() {
    for (StringRef name : {"CTAsPerCGA", "CTASplitNum", "CTAOrder"}) {
      if (!dict.get(name))
        continue;
      SmallVector<unsigned> values;
      if (!getUnsignedArray(name, values))
        return false;
      if (name != "CTAOrder" && llvm::any_of(values, [](unsigned v) { return v != 1; }))
        return error(name, "must be all ones: Tritium runs one CTA per CTA group (num_ctas = 1)");
    }
    return true;
  }

  /// Fails on any field not in `known` (Triton's CTA-group fields are
  /// always known; see singleCTA).
  bool onlyFields(ArrayRef<StringRef> known) {
    for (NamedAttribute field : dict)
      if (!llvm::is_contained(known, field.getName().getValue()) &&
          !llvm::is_contained({"CTAsPerCGA", "CTASplitNum", "CTAOrder"},
                              field.getName().getValue())) {
        parser.emitError(loc) << "unknown field '" << field.getName().getValue()
                              << "' in #ttg." << layoutName;
        return false;
      }
    return true;
  }

  /// Reports `message` about field `name` at the layout; returns false.
  bool error(StringRef name, StringRef message) {
    parser.emitError(loc) << "#ttg." << layoutName << " field '" << name
                          << "' " << message;
    return false;
  }

private:
  template <typename AttrT>
  AttrT get(StringRef name, StringRef what) {
    Attribute attr = dict.get(name);
    if (!attr) {
      error(name, "is missing");
      return {};
    }
    auto typed = dyn_cast<AttrT>(attr);
    if (!typed)
      error(name, (Twine("must be ") + what).str());
    return typed;
  }

  AsmParser &parser;
  DictionaryAttr dict;
  StringRef layoutName;
  SMLoc loc;
};

void printArray(AsmPrinter &printer, ArrayRef<unsigned> values) {
  printer << "[";
  llvm::interleaveComma(values, printer);
  printer << "]";
}

std::vector<int64_t> toInt64(ArrayRef<unsigned> values) {
  return std::vector<int64_t>(values.begin(), values.end());
}

std::vector<int64_t> toInt64(ArrayRef<int64_t> values) {
  return std::vector<int64_t>(values.begin(), values.end());
}

int64_t product(ArrayRef<unsigned> values) {
  int64_t p = 1;
  for (unsigned v : values)
    p *= v;
  return p;
}

/// Shape rules shared by all distributed layouts: the layout's rank, and
/// power-of-two sizes (every layout is a linear map over bits).
LogicalResult verifyDistributedShape(ArrayRef<int64_t> shape, unsigned rank,
                                     Attribute layout,
                                     function_ref<InFlightDiagnostic()> emitError) {
  if (shape.size() != rank)
    return emitError() << "layout " << layout << " is for rank " << rank
                       << " tensors, not rank " << shape.size();
  for (int64_t d : shape) {
    if (ShapedType::isDynamic(d))
      return emitError() << "a tensor with a distributed layout must have a "
                            "static shape";
    if (!layout::isPowerOf2(d))
      return emitError() << "tensor dimensions must be powers of two to carry "
                            "a distributed layout, got "
                         << d;
  }
  return success();
}
} // namespace

//===----------------------------------------------------------------------===//
// #ttg.blocked
//===----------------------------------------------------------------------===//

Attribute BlockedEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutFields fields(parser, "blocked");
  if (!fields.parsed())
    return {};
  SmallVector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, order;
  if (!fields.onlyFields({"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"}) ||
      !fields.singleCTA() ||
      !fields.getUnsignedArray("sizePerThread", sizePerThread) ||
      !fields.getUnsignedArray("threadsPerWarp", threadsPerWarp) ||
      !fields.getUnsignedArray("warpsPerCTA", warpsPerCTA) ||
      !fields.getUnsignedArray("order", order))
    return {};
  return parser.getChecked<BlockedEncodingAttr>(
      parser.getContext(), sizePerThread, threadsPerWarp, warpsPerCTA, order);
}

void BlockedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{sizePerThread = ";
  printArray(printer, getSizePerThread());
  printer << ", threadsPerWarp = ";
  printArray(printer, getThreadsPerWarp());
  printer << ", warpsPerCTA = ";
  printArray(printer, getWarpsPerCTA());
  printer << ", order = ";
  printArray(printer, getOrder());
  printer << "}>";
}

LogicalResult
BlockedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            ArrayRef<unsigned> sizePerThread,
                            ArrayRef<unsigned> threadsPerWarp,
                            ArrayRef<unsigned> warpsPerCTA,
                            ArrayRef<unsigned> order) {
  layout::BlockedSpec spec{toInt64(sizePerThread), toInt64(threadsPerWarp),
                           toInt64(warpsPerCTA), toInt64(order)};
  if (auto message = layout::verifyBlocked(spec, 0, 0))
    return emitError() << "invalid #ttg.blocked: " << *message;
  return success();
}

layout::BlockedSpec BlockedEncodingAttr::toSpec() const {
  return {toInt64(getSizePerThread()), toInt64(getThreadsPerWarp()),
          toInt64(getWarpsPerCTA()), toInt64(getOrder())};
}

layout::LinearLayout BlockedEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  return layout::blockedToLinear(toSpec(), toInt64(shape));
}

unsigned BlockedEncodingAttr::getRank() const { return getOrder().size(); }
int64_t BlockedEncodingAttr::getNumWarps() const { return product(getWarpsPerCTA()); }
int64_t BlockedEncodingAttr::getWarpSize() const {
  return product(getThreadsPerWarp());
}

LogicalResult BlockedEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type, function_ref<InFlightDiagnostic()> emitError) const {
  return verifyDistributedShape(shape, getRank(), *this, emitError);
}

//===----------------------------------------------------------------------===//
// #ttg.slice
//===----------------------------------------------------------------------===//

Attribute SliceEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutFields fields(parser, "slice");
  if (!fields.parsed())
    return {};
  unsigned dim;
  Attribute parent;
  if (!fields.onlyFields({"dim", "parent"}) || !fields.getUnsigned("dim", dim) ||
      !fields.getAttribute("parent", parent))
    return {};
  return parser.getChecked<SliceEncodingAttr>(parser.getContext(), dim, parent);
}

void SliceEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{dim = " << getDim() << ", parent = " << getParent() << "}>";
}

LogicalResult
SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          unsigned dim, Attribute parent) {
  auto distributed = dyn_cast<DistributedEncodingAttr>(parent);
  if (!distributed)
    return emitError() << "#ttg.slice parent must be a distributed layout, got "
                       << parent;
  if (dim >= distributed.getRank())
    return emitError() << "#ttg.slice dim " << dim
                       << " is out of range for a rank-" << distributed.getRank()
                       << " parent";
  return success();
}

DistributedEncodingAttr SliceEncodingAttr::getDistributedParent() const {
  return cast<DistributedEncodingAttr>(getParent());
}

layout::LinearLayout SliceEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t> expanded(shape);
  expanded.insert(expanded.begin() + getDim(), 1);
  return layout::sliceToLinear(getDistributedParent().toLinearLayout(expanded),
                               getDim());
}

unsigned SliceEncodingAttr::getRank() const {
  return getDistributedParent().getRank() - 1;
}
int64_t SliceEncodingAttr::getNumWarps() const {
  return getDistributedParent().getNumWarps();
}
int64_t SliceEncodingAttr::getWarpSize() const {
  return getDistributedParent().getWarpSize();
}

LogicalResult SliceEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type, function_ref<InFlightDiagnostic()> emitError) const {
  return verifyDistributedShape(shape, getRank(), *this, emitError);
}

//===----------------------------------------------------------------------===//
// #ttg.nvidia_mma
//===----------------------------------------------------------------------===//

Attribute NvidiaMmaEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutFields fields(parser, "nvidia_mma");
  if (!fields.parsed())
    return {};
  unsigned versionMajor, versionMinor;
  SmallVector<unsigned> warpsPerCTA, instrShape;
  if (!fields.onlyFields({"versionMajor", "versionMinor", "warpsPerCTA", "instrShape"}) ||
      !fields.singleCTA() ||
      !fields.getUnsigned("versionMajor", versionMajor) ||
      !fields.getUnsigned("versionMinor", versionMinor) ||
      !fields.getUnsignedArray("warpsPerCTA", warpsPerCTA) ||
      !fields.getUnsignedArray("instrShape", instrShape))
    return {};
  // Triton writes a batched (rank-3) mma v2 tile as [1, 16, 8]; Tritium
  // keeps the instruction's own [16, 8] and takes the batch from the warps.
  if (versionMajor == 2 && warpsPerCTA.size() == 3 && instrShape.size() == 3 &&
      instrShape[0] == 1)
    instrShape.erase(instrShape.begin());
  return parser.getChecked<NvidiaMmaEncodingAttr>(
      parser.getContext(), versionMajor, versionMinor, warpsPerCTA, instrShape);
}

void NvidiaMmaEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{versionMajor = " << getVersionMajor()
          << ", versionMinor = " << getVersionMinor() << ", warpsPerCTA = ";
  printArray(printer, getWarpsPerCTA());
  printer << ", instrShape = ";
  printArray(printer, getInstrShape());
  printer << "}>";
}

namespace {
layout::MmaSpec makeMmaSpec(unsigned versionMajor, unsigned versionMinor,
                            ArrayRef<unsigned> warpsPerCTA,
                            ArrayRef<unsigned> instrShape) {
  layout::MmaSpec spec;
  spec.versionMajor = versionMajor;
  spec.versionMinor = versionMinor;
  spec.warpsPerCTA = toInt64(warpsPerCTA);
  spec.instrShape = toInt64(instrShape);
  return spec;
}
} // namespace

LogicalResult
NvidiaMmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              unsigned versionMajor, unsigned versionMinor,
                              ArrayRef<unsigned> warpsPerCTA,
                              ArrayRef<unsigned> instrShape) {
  if (auto message = layout::verifyMma(
          makeMmaSpec(versionMajor, versionMinor, warpsPerCTA, instrShape), 0))
    return emitError() << "invalid #ttg.nvidia_mma: " << *message;
  return success();
}

layout::MmaSpec NvidiaMmaEncodingAttr::toSpec() const {
  return makeMmaSpec(getVersionMajor(), getVersionMinor(), getWarpsPerCTA(),
                     getInstrShape());
}

layout::LinearLayout NvidiaMmaEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  return layout::mmaToLinear(toSpec(), toInt64(shape));
}

unsigned NvidiaMmaEncodingAttr::getRank() const { return getWarpsPerCTA().size(); }
int64_t NvidiaMmaEncodingAttr::getNumWarps() const { return product(getWarpsPerCTA()); }
int64_t NvidiaMmaEncodingAttr::getWarpSize() const { return 32; }

LogicalResult NvidiaMmaEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type, function_ref<InFlightDiagnostic()> emitError) const {
  return verifyDistributedShape(shape, getRank(), *this, emitError);
}

//===----------------------------------------------------------------------===//
// #ttg.dot_op
//===----------------------------------------------------------------------===//

Attribute DotOperandEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutFields fields(parser, "dot_op");
  if (!fields.parsed())
    return {};
  unsigned opIdx, kWidth;
  Attribute parent;
  if (!fields.onlyFields({"opIdx", "parent", "kWidth"}) ||
      !fields.getUnsigned("opIdx", opIdx) ||
      !fields.getAttribute("parent", parent) ||
      !fields.getUnsigned("kWidth", kWidth))
    return {};
  return parser.getChecked<DotOperandEncodingAttr>(parser.getContext(), opIdx,
                                                   parent, kWidth);
}

void DotOperandEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{opIdx = " << getOpIdx() << ", parent = " << getParent()
          << ", kWidth = " << getKWidth() << "}>";
}

LogicalResult
DotOperandEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               unsigned opIdx, Attribute parent,
                               unsigned kWidth) {
  if (isa<BlockedEncodingAttr>(parent)) {
    // A CUDA-core (FMA) dot: operands follow the blocked accumulator.
    if (opIdx > 1)
      return emitError() << "invalid #ttg.dot_op: opIdx is " << opIdx
                         << ", expected 0 or 1";
    if (kWidth != 1)
      return emitError() << "invalid #ttg.dot_op: kWidth must be 1 with a "
                            "#ttg.blocked parent, got "
                         << kWidth;
    return success();
  }
  auto mma = dyn_cast<NvidiaMmaEncodingAttr>(parent);
  if (!mma)
    return emitError() << "#ttg.dot_op parent must be a #ttg.nvidia_mma or "
                          "#ttg.blocked layout, got "
                       << parent;
  if (auto message = layout::verifyDotOperand(mma.toSpec(), opIdx, kWidth))
    return emitError() << "invalid #ttg.dot_op: " << *message;
  return success();
}

layout::LinearLayout DotOperandEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(getParent())) {
    // The accumulator's shape is the operand's with K standing in for the
    // accumulator dimension the operand lacks: fmaOperandToLinear drops
    // that dimension, and a blocked layout's bases along one dimension do
    // not depend on the sizes of the others.
    SmallVector<int64_t> accShape(shape);
    return layout::fmaOperandToLinear(
        blocked.toLinearLayout(accShape), getOpIdx(), toInt64(shape));
  }
  auto mma = cast<NvidiaMmaEncodingAttr>(getParent());
  return layout::dotOperandToLinear(mma.toSpec(), getOpIdx(), getKWidth(),
                                    toInt64(shape));
}

unsigned DotOperandEncodingAttr::getRank() const {
  return cast<DistributedEncodingAttr>(getParent()).getRank();
}
int64_t DotOperandEncodingAttr::getNumWarps() const {
  return cast<DistributedEncodingAttr>(getParent()).getNumWarps();
}
int64_t DotOperandEncodingAttr::getWarpSize() const {
  return cast<DistributedEncodingAttr>(getParent()).getWarpSize();
}

LogicalResult DotOperandEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type, function_ref<InFlightDiagnostic()> emitError) const {
  return verifyDistributedShape(shape, getRank(), *this, emitError);
}

//===----------------------------------------------------------------------===//
// #ttg.linear
//===----------------------------------------------------------------------===//

namespace {
void printBases(AsmPrinter &printer, ArrayRef<int64_t> flat, unsigned rank) {
  printer << "[";
  for (size_t i = 0; rank && i < flat.size(); i += rank) {
    if (i)
      printer << ", ";
    printer << "[";
    llvm::interleaveComma(flat.slice(i, rank), printer);
    printer << "]";
  }
  printer << "]";
}
} // namespace

Attribute LinearEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutFields fields(parser, "linear");
  if (!fields.parsed())
    return {};
  std::optional<unsigned> rank;
  SmallVector<int64_t> registers, lanes, warps, blocks;
  if (!fields.onlyFields({"register", "lane", "warp", "block"}) || !fields.singleCTA() ||
      !fields.getBases("register", rank, registers) ||
      !fields.getBases("lane", rank, lanes) || !fields.getBases("warp", rank, warps))
    return {};
  if (fields.has("block") && !fields.getBases("block", rank, blocks))
    return {};
  if (!blocks.empty()) {
    fields.error("block", "must be empty: Tritium runs one CTA per CTA group (num_ctas = 1)");
    return {};
  }
  if (!rank) {
    fields.error("register", "and the other fields hold no basis to give the layout's rank");
    return {};
  }
  return parser.getChecked<LinearEncodingAttr>(parser.getContext(), *rank, registers, lanes, warps);
}

void LinearEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{register = ";
  printBases(printer, getRegisterBases(), getRank());
  printer << ", lane = ";
  printBases(printer, getLaneBases(), getRank());
  printer << ", warp = ";
  printBases(printer, getWarpBases(), getRank());
  printer << ", block = []}>";
}

LogicalResult LinearEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError, unsigned rank,
                                         ArrayRef<int64_t> registerBases, ArrayRef<int64_t> laneBases,
                                         ArrayRef<int64_t> warpBases) {
  if (rank == 0)
    return emitError() << "#ttg.linear must have rank 1 or more";
  for (ArrayRef<int64_t> flat : {registerBases, laneBases, warpBases}) {
    if (flat.size() % rank)
      return emitError() << "#ttg.linear bases must have " << rank << " coordinates each";
    for (int64_t c : flat)
      if (c < 0 || c > (int64_t(1) << 30))
        return emitError() << "#ttg.linear coordinate " << c << " is out of range";
  }
  if (laneBases.size() / rank > 5 || warpBases.size() / rank > 5)
    return emitError() << "#ttg.linear has more than 32 lanes or 32 warps";
  return success();
}

layout::BasisList LinearEncodingAttr::toBasisList(ArrayRef<int64_t> flat, unsigned rank) {
  layout::BasisList list;
  for (size_t i = 0; i < flat.size(); i += rank)
    list.emplace_back(flat.begin() + i, flat.begin() + i + rank);
  return list;
}

SmallVector<int64_t> LinearEncodingAttr::getTileShape() const {
  SmallVector<int64_t> tile(getRank(), 1);
  for (ArrayRef<int64_t> flat : {getRegisterBases(), getLaneBases(), getWarpBases()})
    for (size_t i = 0; i < flat.size(); ++i) {
      int64_t &size = tile[i % getRank()];
      while (size <= flat[i])
        size *= 2;
    }
  return tile;
}

layout::LinearLayout LinearEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  layout::LayoutBases bases = {toBasisList(getRegisterBases(), getRank()),
                               toBasisList(getLaneBases(), getRank()),
                               toBasisList(getWarpBases(), getRank())};
  // A tensor larger than the tile repeats it in more registers, the last
  // dimension first; coordinates past a smaller tensor wrap (`wrapped`).
  std::vector<int64_t> tile = toInt64(getTileShape());
  std::vector<int64_t> order;
  for (int64_t d = getRank() - 1; d >= 0; --d)
    order.push_back(d);
  layout::appendTileRepetitions(bases[static_cast<int>(layout::HwDim::Register)], tile, toInt64(shape), order);
  return layout::LinearLayout::wrapped(std::move(bases), toInt64(shape));
}

int64_t LinearEncodingAttr::getNumWarps() const {
  return int64_t(1) << (getWarpBases().size() / getRank());
}
int64_t LinearEncodingAttr::getWarpSize() const {
  return int64_t(1) << (getLaneBases().size() / getRank());
}

LogicalResult LinearEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type, function_ref<InFlightDiagnostic()> emitError) const {
  return verifyDistributedShape(shape, getRank(), *this, emitError);
}

//===----------------------------------------------------------------------===//
// #ttg.swizzled_shared
//===----------------------------------------------------------------------===//

Attribute SwizzledSharedEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutFields fields(parser, "swizzled_shared");
  if (!fields.parsed())
    return {};
  unsigned vec, perPhase, maxPhase;
  SmallVector<unsigned> order;
  if (!fields.onlyFields({"vec", "perPhase", "maxPhase", "order"}) || !fields.singleCTA() ||
      !fields.getUnsigned("vec", vec) || !fields.getUnsigned("perPhase", perPhase) ||
      !fields.getUnsigned("maxPhase", maxPhase) ||
      !fields.getUnsignedArray("order", order))
    return {};
  return parser.getChecked<SwizzledSharedEncodingAttr>(
      parser.getContext(), vec, perPhase, maxPhase, order);
}

void SwizzledSharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{vec = " << getVec() << ", perPhase = " << getPerPhase()
          << ", maxPhase = " << getMaxPhase() << ", order = ";
  printArray(printer, getOrder());
  printer << "}>";
}

LogicalResult SwizzledSharedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, unsigned vec,
    unsigned perPhase, unsigned maxPhase, ArrayRef<unsigned> order) {
  layout::SwizzleSpec spec{vec, perPhase, maxPhase, toInt64(order)};
  if (auto message = layout::verifySwizzle(spec))
    return emitError() << "invalid #ttg.swizzled_shared: " << *message;
  return success();
}

layout::SwizzleSpec SwizzledSharedEncodingAttr::toSpec() const {
  return {getVec(), getPerPhase(), getMaxPhase(), toInt64(getOrder())};
}

//===----------------------------------------------------------------------===//
// #ttg.nvmma_shared
//===----------------------------------------------------------------------===//

Attribute NvmmaSharedEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutFields fields(parser, "nvmma_shared");
  if (!fields.parsed())
    return {};
  unsigned swizzle, bits;
  SmallVector<unsigned> order;
  if (!fields.onlyFields({"swizzlingByteWidth", "elementBitWidth", "order", "transposed"}) ||
      !fields.singleCTA() || !fields.getUnsigned("swizzlingByteWidth", swizzle) ||
      !fields.getUnsigned("elementBitWidth", bits))
    return {};
  // Triton writes `transposed = false | true` where Tritium writes the
  // order of a 2-D tile: [1, 0] (rows contiguous along the last dimension)
  // or [0, 1].
  if (fields.has("transposed")) {
    bool transposed;
    if (fields.has("order")) {
      fields.error("transposed", "cannot be given with 'order'");
      return {};
    }
    if (!fields.getBool("transposed", transposed))
      return {};
    order = transposed ? SmallVector<unsigned>{0, 1} : SmallVector<unsigned>{1, 0};
  } else if (!fields.getUnsignedArray("order", order)) {
    return {};
  }
  return parser.getChecked<NvmmaSharedEncodingAttr>(parser.getContext(),
                                                    swizzle, bits, order);
}

void NvmmaSharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{swizzlingByteWidth = " << getSwizzlingByteWidth()
          << ", elementBitWidth = " << getElementBitWidth() << ", order = ";
  printArray(printer, getOrder());
  printer << "}>";
}

LogicalResult NvmmaSharedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, unsigned swizzle,
    unsigned bits, ArrayRef<unsigned> order) {
  layout::NvmmaSharedSpec spec{swizzle, bits, toInt64(order)};
  if (auto message = layout::verifyNvmmaShared(spec))
    return emitError() << "invalid #ttg.nvmma_shared: " << *message;
  return success();
}

layout::NvmmaSharedSpec NvmmaSharedEncodingAttr::toSpec() const {
  return {getSwizzlingByteWidth(), getElementBitWidth(), toInt64(getOrder())};
}
