//===- BankConflicts.cpp - Shared-memory bank conflicts -------------------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// The bank model and the scratch-tile search of BankConflicts.h.  The search
// gathers the coordinates warp 0 accesses once per layout and vector width
// and then only recomputes offsets for each candidate pad; the store and
// load phases are independent for a given tile, so each picks its own best
// vector width.  Padded tiles are searched first, then swizzled ones.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/BankConflicts.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace tritium {
namespace layout {

/// Lanes served together by one access of `accessBytes` per lane.
static int64_t lanesPerGroup(int64_t accessBytes) {
  return kNumBanks * kBankBytes / std::max(kBankBytes, accessBytes);
}

int64_t countWavefronts(const std::vector<int64_t> &laneByteOffsets,
                        int64_t accessBytes) {
  assert(isPowerOf2(accessBytes) && accessBytes <= 16 &&
         "accesses are 1 to 16 bytes, a power of two");
  int64_t groupSize = lanesPerGroup(accessBytes);
  int64_t total = 0;
  int64_t numLanes = static_cast<int64_t>(laneByteOffsets.size());
  // Per group, the distinct words it touches (at most 32 lanes x 4 words)
  // counted per bank as they are first seen, through a small open-address
  // set: the conversion planner runs this for every access of every
  // candidate tile, so no maps and no sorting.
  constexpr uint64_t kSlots = 256; // > 2 x the most words a group touches
  int64_t slotWord[kSlots];
  bool slotUsed[kSlots];
  for (int64_t first = 0; first < numLanes; first += groupSize) {
    std::fill(std::begin(slotUsed), std::end(slotUsed), false);
    int64_t perBank[kNumBanks] = {};
    int64_t worst = 0;
    for (int64_t lane = first; lane < std::min(numLanes, first + groupSize);
         ++lane) {
      int64_t start = laneByteOffsets[lane];
      if (start < 0)
        continue;
      for (int64_t word = start / kBankBytes;
           word <= (start + accessBytes - 1) / kBankBytes; ++word) {
        uint64_t slot =
            (static_cast<uint64_t>(word) * 0x9E3779B97F4A7C15ull) >> 56;
        while (slotUsed[slot] && slotWord[slot] != word)
          slot = (slot + 1) % kSlots;
        if (slotUsed[slot])
          continue; // a word already counted: lanes share it
        slotUsed[slot] = true;
        slotWord[slot] = word;
        worst = std::max(worst, ++perBank[word % kNumBanks]);
      }
    }
    total += worst;
  }
  return total;
}

int64_t idealWavefronts(const std::vector<int64_t> &laneByteOffsets,
                        int64_t accessBytes) {
  int64_t groupSize = lanesPerGroup(accessBytes);
  int64_t numLanes = static_cast<int64_t>(laneByteOffsets.size());
  int64_t groups = 0;
  for (int64_t first = 0; first < numLanes; first += groupSize)
    for (int64_t lane = first; lane < std::min(numLanes, first + groupSize);
         ++lane)
      if (laneByteOffsets[lane] >= 0) {
        ++groups;
        break;
      }
  return groups;
}

std::vector<int64_t> PaddedTile::strides() const {
  int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<int64_t> result(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    result[d] = result[d + 1] * shape[d + 1] + (d == rank - 2 ? pad : 0);
  return result;
}

int64_t PaddedTile::offset(const std::vector<int64_t> &coord) const {
  std::vector<int64_t> stride = strides();
  int64_t result = 0;
  for (size_t d = 0; d < coord.size(); ++d)
    result += coord[d] * stride[d];
  return result;
}

int64_t PaddedTile::numElements() const {
  if (shape.empty())
    return 1;
  return shape[0] * strides()[0];
}

SwizzleSpec ScratchTile::swizzleSpec() const {
  SwizzleSpec spec{swizzle.chunk, swizzle.perPhase, swizzle.maxPhase, {}};
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d)
    spec.order.push_back(d);
  return spec;
}

int64_t ScratchTile::offset(const std::vector<int64_t> &coord) const {
  if (isSwizzled())
    return swizzledOffset(swizzleSpec(), shape, coord);
  return PaddedTile{shape, pad}.offset(coord);
}

int64_t ScratchTile::numElements() const {
  return PaddedTile{shape, isSwizzled() ? 0 : pad}.numElements();
}

std::optional<std::vector<int64_t>> ScratchTile::xorLinearBitOffsets() const {
  if (shape.empty())
    return std::nullopt;
  for (int64_t size : shape)
    if (!isPowerOf2(size))
      return std::nullopt;
  // Offsets of the single-bit coordinates.
  std::vector<int64_t> bitOffsets;
  std::vector<int64_t> zero(shape.size(), 0);
  if (offset(zero) != 0)
    return std::nullopt;
  for (size_t d = 0; d < shape.size(); ++d)
    for (int64_t bit = 1; bit < shape[d]; bit <<= 1) {
      std::vector<int64_t> coord = zero;
      coord[d] = bit;
      bitOffsets.push_back(offset(coord));
    }
  // Every element must be the XOR of its bits' offsets.
  int64_t elements = 1;
  for (int64_t size : shape)
    elements *= size;
  for (int64_t flat = 0; flat < elements; ++flat) {
    std::vector<int64_t> coord(shape.size());
    int64_t rest = flat, expected = 0;
    size_t index = 0;
    for (size_t d = 0; d < shape.size(); ++d) {
      coord[d] = rest % shape[d];
      rest /= shape[d];
      for (int64_t bit = 1; bit < shape[d]; bit <<= 1, ++index)
        if (coord[d] & bit)
          expected ^= bitOffsets[index];
    }
    if (offset(coord) != expected)
      return std::nullopt;
  }
  return bitOffsets;
}

bool ScratchTile::keepsVectorsWhole(int64_t vec) const {
  if (isSwizzled())
    return vec <= swizzle.chunk;
  return pad % vec == 0;
}

namespace {
/// The coordinates warp 0 accesses: one list of per-lane coordinates per
/// access instruction.
using AccessPattern = std::vector<std::vector<std::vector<int64_t>>>;
} // namespace

static AccessPattern collectAccesses(const LinearLayout &layout, int64_t vec) {
  std::map<std::vector<int64_t>, int64_t> firstHolder;
  std::vector<int64_t> representative;
  for (int64_t reg = 0; reg < layout.elemsPerThread(); ++reg)
    representative.push_back(
        firstHolder.try_emplace(layout.apply(reg, 0, 0), reg).first->second);
  AccessPattern pattern;
  for (int64_t reg = 0; reg < layout.elemsPerThread(); reg += vec) {
    if (representative[reg] != reg)
      continue;
    std::vector<std::vector<int64_t>> lanes;
    for (int64_t lane = 0; lane < layout.inDimSize(HwDim::Lane); ++lane)
      lanes.push_back(layout.apply(reg, lane, 0));
    pattern.push_back(std::move(lanes));
  }
  return pattern;
}

/// The cost of `pattern` on `tile`.  With `limit` set, counting stops once
/// the wavefronts pass it: the result then only says "more than `limit`"
/// (wavefronts == limit + 1), which is all a search that already holds a
/// candidate that good needs to know.
static AccessCost costOf(const AccessPattern &pattern,
                         const ScratchTile &tile, int64_t elementBytes,
                         int64_t vec,
                         std::optional<int64_t> limit = std::nullopt) {
  AccessCost cost;
  std::vector<int64_t> stride = PaddedTile{tile.shape, tile.pad}.strides();
  std::optional<SwizzledTile> swizzled;
  if (tile.isSwizzled())
    swizzled.emplace(tile.swizzleSpec(), tile.shape);
  std::vector<int64_t> offsets;
  for (const auto &lanes : pattern) {
    offsets.clear();
    for (const std::vector<int64_t> &coord : lanes) {
      int64_t offset = 0;
      if (swizzled) {
        offset = swizzled->offset(coord);
      } else {
        for (size_t d = 0; d < coord.size(); ++d)
          offset += coord[d] * stride[d];
      }
      offsets.push_back(offset * elementBytes);
    }
    ++cost.instructions;
    cost.wavefronts += countWavefronts(offsets, vec * elementBytes);
    cost.ideal += idealWavefronts(offsets, vec * elementBytes);
    if (limit && cost.wavefronts > *limit) {
      cost.wavefronts = *limit + 1;
      return cost;
    }
  }
  return cost;
}

AccessCost modelTileAccess(const LinearLayout &layout, const PaddedTile &tile,
                           int64_t elementBytes, int64_t vec) {
  return costOf(collectAccesses(layout, vec), ScratchTile{tile.shape, tile.pad},
                elementBytes, vec);
}

AccessCost modelTileAccess(const LinearLayout &layout, const ScratchTile &tile,
                           int64_t elementBytes, int64_t vec) {
  return costOf(collectAccesses(layout, vec), tile, elementBytes, vec);
}

int64_t maxVectorWidth(const LinearLayout &layout, int64_t elementBytes) {
  int64_t contiguous =
      contiguousRegisters(layout, static_cast<int>(layout.rank()) - 1);
  return std::max<int64_t>(
      1, std::min<int64_t>(contiguous, 16 / std::max<int64_t>(1, elementBytes)));
}

namespace {
/// One phase's candidate vector widths, widest first, with their accesses.
struct PhaseCandidates {
  std::vector<std::pair<int64_t, AccessPattern>> byVec;

  PhaseCandidates(const LinearLayout &layout, int64_t elementBytes) {
    for (int64_t vec = maxVectorWidth(layout, elementBytes); vec >= 1;
         vec /= 2)
      byVec.emplace_back(vec, collectAccesses(layout, vec));
  }

  /// The best vector width for `tile` among those it keeps whole, or
  /// {0, {}} when none; with `limit` set, widths costing more than `limit`
  /// wavefronts count as none.
  std::pair<int64_t, AccessCost>
  best(const ScratchTile &tile, int64_t elementBytes,
       std::optional<int64_t> limit = std::nullopt) const {
    std::pair<int64_t, AccessCost> result{0, {}};
    for (const auto &[vec, pattern] : byVec) {
      if (!tile.keepsVectorsWhole(vec))
        continue;
      // Ties keep the wider vector (seen first): a later width must do
      // strictly better than the best so far.
      std::optional<int64_t> bound = limit;
      if (result.first != 0)
        bound = std::min(bound.value_or(result.second.wavefronts),
                         result.second.wavefronts - 1);
      AccessCost cost = costOf(pattern, tile, elementBytes, vec, bound);
      if (bound && cost.wavefronts > *bound)
        continue;
      result = {vec, cost};
    }
    return result;
  }
};
} // namespace

/// The plan of a row-major tile over `src` and `dst`'s own dimension order.
static ConvertScratchPlan planRowMajorScratch(const LinearLayout &src,
                                              const LinearLayout &dst,
                                              int64_t elementBytes) {
  PhaseCandidates stores(src, elementBytes);
  PhaseCandidates loads(dst, elementBytes);
  int64_t maxPad = kNumBanks * kBankBytes / std::max<int64_t>(1, elementBytes);
  if (src.rank() < 2)
    maxPad = 0; // a single row: nothing to shift
  ConvertScratchPlan plan;
  bool found = false;
  // Keeps `tile` when it beats the plan so far: fewer wavefronts, then
  // fewer instructions, then less memory; ties keep the earlier candidate.
  // Branch and bound: once a plan is held, a candidate's phases are only
  // counted while they can still tie with it (equal wavefronts may win on
  // instructions or memory), so most candidates stop after a few accesses.
  auto consider = [&](const ScratchTile &tile) {
    std::optional<int64_t> storeLimit, loadLimit;
    int64_t held = plan.store.wavefronts + plan.load.wavefronts;
    if (found)
      storeLimit = held;
    auto [storeVec, storeCost] = stores.best(tile, elementBytes, storeLimit);
    if (storeVec == 0)
      return;
    if (found)
      loadLimit = held - storeCost.wavefronts;
    auto [loadVec, loadCost] = loads.best(tile, elementBytes, loadLimit);
    if (loadVec == 0)
      return;
    auto key = [](const AccessCost &store, const AccessCost &load,
                  const ScratchTile &t) {
      return std::make_tuple(store.wavefronts + load.wavefronts,
                             store.instructions + load.instructions,
                             t.numElements());
    };
    if (found &&
        key(storeCost, loadCost, tile) >= key(plan.store, plan.load, plan.tile))
      return;
    plan = {tile, storeVec, loadVec, storeCost, loadCost};
    found = true;
  };
  for (int64_t pad = 0; pad <= maxPad; ++pad)
    consider(ScratchTile{src.shape(), pad, {}});

  // Swizzled tiles: rank >= 2 and a power-of-two row (swizzledColumn's
  // requirement).  The chunk must hold the widest vector the plan may use
  // in either phase only for that width to be allowed, so every chunk from
  // one element up is tried.
  int64_t rowLength = src.rank() >= 2 ? src.shape().back() : 0;
  if (src.rank() < 2 || !isPowerOf2(rowLength))
    return plan;
  int64_t maxChunk = std::max(maxVectorWidth(src, elementBytes),
                              maxVectorWidth(dst, elementBytes));
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < src.shape().size(); ++d)
    rows *= src.shape()[d];
  for (int64_t chunk = 1; chunk <= std::min(maxChunk, rowLength); chunk *= 2) {
    // Phases beyond one bank cycle of chunks, or rows per phase beyond one
    // per bank, only repeat bank patterns already tried.
    int64_t chunksPerCycle = std::max<int64_t>(
        1, kNumBanks * kBankBytes / (chunk * std::max<int64_t>(1, elementBytes)));
    int64_t phaseLimit = std::min(rowLength / chunk, chunksPerCycle);
    for (int64_t maxPhase = 2; maxPhase <= phaseLimit; maxPhase *= 2)
      for (int64_t perPhase = 1; perPhase <= std::min(rows, kNumBanks);
           perPhase *= 2)
        consider(ScratchTile{src.shape(), 0, {chunk, perPhase, maxPhase}});
  }
  return plan;
}

ConvertScratchPlan planConvertScratchContiguousAlong(const LinearLayout &src,
                                                     const LinearLayout &dst,
                                                     int64_t elementBytes,
                                                     int64_t dim) {
  assert(src.shape() == dst.shape() && "a conversion keeps the shape");
  int64_t rank = src.rank();
  if (dim == rank - 1)
    return planRowMajorScratch(src, dst, elementBytes);
  std::vector<int64_t> order;
  for (int64_t d = 0; d < rank; ++d)
    if (d != dim)
      order.push_back(d);
  order.push_back(dim);
  ConvertScratchPlan plan = planRowMajorScratch(
      src.permuteOutDims(order), dst.permuteOutDims(order), elementBytes);
  plan.order = std::move(order);
  return plan;
}

ConvertScratchPlan planConvertScratch(const LinearLayout &src,
                                      const LinearLayout &dst,
                                      int64_t elementBytes) {
  assert(src.shape() == dst.shape() && "a conversion keeps the shape");
  ConvertScratchPlan best = planRowMajorScratch(src, dst, elementBytes);
  int64_t rank = src.rank();
  if (rank < 2)
    return best;
  auto widest = [&](int dim) {
    return std::max(contiguousRegisters(src, dim), contiguousRegisters(dst, dim));
  };
  auto key = [](const ConvertScratchPlan &plan) {
    return std::make_tuple(plan.store.wavefronts + plan.load.wavefronts,
                           plan.store.instructions + plan.load.instructions,
                           plan.tile.numElements());
  };
  for (int64_t dim = 0; dim + 1 < rank; ++dim) {
    // Only a dimension some phase's registers run along further than the
    // last one can give wider vectors.
    if (widest(static_cast<int>(dim)) <= widest(static_cast<int>(rank - 1)))
      continue;
    ConvertScratchPlan candidate =
        planConvertScratchContiguousAlong(src, dst, elementBytes, dim);
    if (key(candidate) < key(best))
      best = std::move(candidate);
  }
  return best;
}

} // namespace layout
} // namespace tritium
