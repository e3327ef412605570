//===- NvmmaShared.cpp - Shared tiles that tensor cores read --------------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// Offsets and checks of the NVMMA shared layout (see NvmmaShared.h).
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/NvmmaShared.h"

#include <cassert>

namespace tritium {
namespace layout {

std::optional<std::string> verifyNvmmaShared(const NvmmaSharedSpec &spec) {
  if (spec.swizzleBytes != 32 && spec.swizzleBytes != 64 &&
      spec.swizzleBytes != 128)
    return "swizzlingByteWidth is " + std::to_string(spec.swizzleBytes) +
           ", expected 32, 64 or 128";
  if (spec.elementBits != 8 && spec.elementBits != 16 && spec.elementBits != 32)
    return "elementBitWidth is " + std::to_string(spec.elementBits) +
           ", expected 8, 16 or 32";
  if (spec.order.size() != 2 ||
      !((spec.order[0] == 0 && spec.order[1] == 1) ||
        (spec.order[0] == 1 && spec.order[1] == 0)))
    return std::string("order must be [1, 0] or [0, 1]");
  return std::nullopt;
}

std::optional<std::string> verifyNvmmaTile(const NvmmaSharedSpec &spec,
                                           const std::vector<int64_t> &shape) {
  if (shape.size() != 2)
    return "an NVMMA shared tile has rank 2, got " +
           std::to_string(shape.size());
  int64_t perSlab = spec.swizzleBytes * 8 / spec.elementBits;
  int64_t rows = shape[spec.order[1]], cols = shape[spec.order[0]];
  if (rows % 8 != 0)
    return "an NVMMA shared tile needs a multiple of 8 rows, got " +
           std::to_string(rows);
  if (cols % perSlab != 0)
    return "the contiguous dimension (" + std::to_string(cols) +
           ") must be a multiple of the " + std::to_string(perSlab) +
           "-element swizzle row";
  return std::nullopt;
}

namespace {
int64_t offsetWithPhase(const NvmmaSharedSpec &spec,
                        const std::vector<int64_t> &shape,
                        const std::vector<int64_t> &coord, bool swizzle) {
  int64_t elementBytes = spec.elementBits / 8;
  int64_t perSlab = spec.swizzleBytes / elementBytes;
  int64_t chunk = 16 / elementBytes;
  int64_t rows = shape[spec.order[1]];
  int64_t r = coord[spec.order[1]], c = coord[spec.order[0]];
  int64_t slab = c / perSlab, cc = c % perSlab;
  int64_t phase = swizzle ? (r / (128 / spec.swizzleBytes)) %
                                (spec.swizzleBytes / 16)
                          : 0;
  return slab * rows * perSlab + r * perSlab + ((cc / chunk) ^ phase) * chunk +
         cc % chunk;
}
} // namespace

int64_t nvmmaOffset(const NvmmaSharedSpec &spec,
                    const std::vector<int64_t> &shape,
                    const std::vector<int64_t> &coord) {
  return offsetWithPhase(spec, shape, coord, /*swizzle=*/true);
}

int64_t nvmmaUnswizzledOffset(const NvmmaSharedSpec &spec,
                              const std::vector<int64_t> &shape,
                              const std::vector<int64_t> &coord) {
  return offsetWithPhase(spec, shape, coord, /*swizzle=*/false);
}

int64_t chooseNvmmaSwizzle(int64_t contiguousElements, int64_t elementBits) {
  int64_t bytes = contiguousElements * elementBits / 8;
  for (int64_t swizzle : {128, 64, 32})
    if (bytes >= swizzle)
      return swizzle;
  return 0;
}

} // namespace layout
} // namespace tritium
