//===- BlockedEncodings.cpp - building layout attributes -------------------===//
//
// Turns the plain C++ layout rules (BlockedLayoutRules.h) into #ttg.blocked
// attributes and tensor types, for the passes that pick layouts.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "tritium/Dialect/TTG/Transforms/BlockedLayoutRules.h"

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

namespace {
SmallVector<unsigned> toUnsigned(const std::vector<int64_t> &values) {
  return SmallVector<unsigned>(values.begin(), values.end());
}
} // namespace

BlockedEncodingAttr ttg::getBlockedEncoding(MLIRContext *context,
                                            const layout::BlockedSpec &spec) {
  return BlockedEncodingAttr::get(context, toUnsigned(spec.sizePerThread),
                                  toUnsigned(spec.threadsPerWarp),
                                  toUnsigned(spec.warpsPerCTA),
                                  toUnsigned(spec.order));
}

BlockedEncodingAttr ttg::getDefaultBlockedEncoding(MLIRContext *context,
                                                   ArrayRef<int64_t> shape,
                                                   int numWarps,
                                                   int threadsPerWarp) {
  return getBlockedEncoding(
      context, defaultBlockedLayout(std::vector<int64_t>(shape.begin(),
                                                         shape.end()),
                                    numWarps, threadsPerWarp));
}

RankedTensorType ttg::withEncoding(Type type, Attribute encoding) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               encoding);
}
