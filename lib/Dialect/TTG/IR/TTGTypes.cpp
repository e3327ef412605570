//===- TTGTypes.cpp - ttg types --------------------------------------------===//
//
// Assembly and verification of `!ttg.memdesc` and `!ttg.async.token`:
//   !ttg.memdesc<64x32xf16, #shared, #ttg.shared_memory[, mutable][, 3x64x32]>
// where the trailing shape is the allocation's, printed only for views.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "tritium/Layout/NvmmaShared.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tritium::ttg;

#define GET_TYPEDEF_CLASSES
#include "tritium/Dialect/TTG/IR/TTGTypes.cpp.inc"

void TTGDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tritium/Dialect/TTG/IR/TTGTypes.cpp.inc"
      >();
}

Type MemDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape, allocShape;
  Type elementType;
  Attribute encoding, memorySpace;
  bool isMutable = false;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseAttribute(encoding) || parser.parseComma() ||
      parser.parseAttribute(memorySpace))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    if (succeeded(parser.parseOptionalKeyword("mutable"))) {
      if (isMutable) {
        parser.emitError(parser.getCurrentLocation(),
                         "'mutable' given twice");
        return {};
      }
      isMutable = true;
      continue;
    }
    if (!allocShape.empty()) {
      parser.emitError(parser.getCurrentLocation(),
                       "expected at most one allocation shape");
      return {};
    }
    if (parser.parseDimensionList(allocShape, /*allowDynamic=*/false,
                                  /*withTrailingX=*/false))
      return {};
  }
  if (parser.parseGreater())
    return {};
  if (allocShape.empty())
    allocShape = shape;
  return parser.getChecked<MemDescType>(parser.getContext(), shape, elementType,
                                        encoding, memorySpace, isMutable,
                                        allocShape);
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t d : getShape())
    printer << d << "x";
  printer << getElementType() << ", " << getEncoding() << ", "
          << getMemorySpace();
  if (getMutableMemory())
    printer << ", mutable";
  if (getAllocShape() != getShape()) {
    printer << ", ";
    llvm::interleave(getAllocShape(), printer, "x");
  }
  printer << ">";
}

LogicalResult
MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                    ArrayRef<int64_t> shape, Type elementType,
                    Attribute encoding, Attribute memorySpace,
                    bool mutableMemory, ArrayRef<int64_t> allocShape) {
  if (shape.empty())
    return emitError() << "memdesc must have rank >= 1";
  for (int64_t d : shape)
    if (d <= 0)
      return emitError() << "memdesc dimensions must be positive";
  if (!elementType.isIntOrFloat() && !isa<tritium::tt::PointerType>(elementType))
    return emitError() << "memdesc element type must be an integer, float or "
                          "pointer, got "
                       << elementType;
  auto shared = dyn_cast<SharedEncodingAttr>(encoding);
  if (!shared)
    return emitError() << "memdesc encoding must be a shared layout, got "
                       << encoding;
  // A shared layout of tiles also describes a buffer of several such tiles
  // (a pipelining ring: of 2-D operand tiles, or of the 1-D vectors a loop
  // loads, as per-row statistics) stacked along leading dimensions.
  // (ops that move data between registers and shared memory take one slot
  // of such a ring, TTGOps.cpp's verifyWholeTiles)
  bool stackedTiles = shared.getOrder().size() < shape.size();
  // A view (ttg.memdesc_index of one slot) keeps the layout of the
  // allocation it indexes: a ring of barriers [n x 1] has views [1].
  bool viewOfAllocation = allocShape.size() > shape.size() &&
                          shared.getOrder().size() == allocShape.size();
  if (shared.getOrder().size() != shape.size() && !stackedTiles &&
      !viewOfAllocation)
    return emitError() << "shared layout order has " << shared.getOrder().size()
                       << " entries for a rank-" << shape.size() << " memdesc";
  if (!isa<SharedMemorySpaceAttr>(memorySpace))
    return emitError() << "memdesc memory space must be #ttg.shared_memory";
  if (allocShape.size() < shape.size())
    return emitError() << "allocation shape must have at least the view's rank";
  // (a ttg.memdesc_trans view of a 2-D tile has its two dimensions swapped)
  bool transposedTile = isa<NvmmaSharedEncodingAttr>(encoding) &&
                        shape.size() == 2 &&
                        shape[0] <= allocShape[allocShape.size() - 1] &&
                        shape[1] <= allocShape[allocShape.size() - 2];
  for (auto [view, alloc] :
       llvm::zip(llvm::reverse(shape), llvm::reverse(allocShape)))
    if (view > alloc && !transposedTile)
      return emitError() << "view dimension " << view
                         << " exceeds the allocation's " << alloc;
  // A 2-D #ttg.nvmma_shared allocation must hold whole swizzle rows and
  // whole 8-row swizzle periods: a smaller tile's offsets would leave the
  // buffer (views of a tile, e.g. K slices, may be smaller).
  if (auto nvmma = dyn_cast<NvmmaSharedEncodingAttr>(encoding);
      nvmma && shape.size() == 2 && llvm::equal(shape, allocShape))
    if (auto message = layout::verifyNvmmaTile(
            nvmma.toSpec(), std::vector<int64_t>(shape.begin(), shape.end())))
      return emitError() << "invalid #ttg.nvmma_shared tile " << shape[0] << "x"
                         << shape[1] << ": " << *message;
  return success();
}

MemDescType MemDescType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                   Type elementType) const {
  return MemDescType::get(getContext(), shape ? *shape : getShape(),
                          elementType, getEncoding(), getMemorySpace(),
                          getMutableMemory(), getAllocShape());
}
