//===- LinearLayout.h - Distributed layouts as GF(2) maps -------*- C++ -*-===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// Every distributed tensor layout in Tritium (blocked, slice, MMA accumulator,
// dot operand) is described by one common object: a linear map over GF(2)
// from a hardware index (register, lane, warp) to tensor coordinates.
//
// Because every size involved is a power of two, each input dimension can be
// described by a list of bases: basis i of dimension D is the coordinate
// vector reached when only bit i of D's index is set.  The image of an
// arbitrary index is the per-coordinate XOR of the bases of its set bits.
// A zero basis means broadcast (several registers or threads hold the same
// element); register bases past the first CTA tile describe how a tensor
// larger than the layout's tile repeats.
//
// This file only depends on the C++ standard library.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_LAYOUT_LINEARLAYOUT_H
#define TRITIUM_LAYOUT_LINEARLAYOUT_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// Marks accessors returning references into the object, so that keeping such
// a reference past a temporary's lifetime (`const auto &b =
// makeLayout().bases(...)`) is a compile-time warning.
#if defined(__has_cpp_attribute)
#if __has_cpp_attribute(clang::lifetimebound)
#define TRITIUM_LIFETIME_BOUND [[clang::lifetimebound]]
#endif
#endif
#ifndef TRITIUM_LIFETIME_BOUND
#define TRITIUM_LIFETIME_BOUND
#endif

namespace tritium {
namespace layout {

/// Returns true if `value` is a positive power of two.
inline bool isPowerOf2(int64_t value) {
  return value > 0 && (value & (value - 1)) == 0;
}

/// Returns log2(value); `value` must be a positive power of two.
int log2Exact(int64_t value);

/// Formats a vector as "[a,b,c]" (used by printers and verifier messages).
std::string formatVector(const std::vector<int64_t> &values);

/// Verifier helper shared by the layout checkers: returns an error naming
/// `field` unless every entry of `values` is a positive power of two.
std::optional<std::string>
checkPowersOfTwo(const std::string &field, const std::vector<int64_t> &values);

/// Verifier helper: returns an error naming `field` unless `values` is a
/// permutation of 0..size-1.
std::optional<std::string>
checkPermutation(const std::string &field, const std::vector<int64_t> &values);

/// The hardware input dimensions of a distributed layout.
enum class HwDim { Register = 0, Lane = 1, Warp = 2 };

/// Number of hardware input dimensions.
constexpr int kNumHwDims = 3;

/// A list of bases of one input dimension; each basis is a coordinate vector
/// with one entry per tensor dimension.
using BasisList = std::vector<std::vector<int64_t>>;

/// Bases of all three input dimensions, indexed by HwDim.
using LayoutBases = std::array<BasisList, kNumHwDims>;

/// Returns the coordinate vector of `rank` entries that is `value` in `dim`
/// and zero elsewhere.
std::vector<int64_t> unitBasis(int64_t rank, int dim, int64_t value);

/// The coordinates in a tensor of `toShape` of the element at `coord` in a
/// tensor of `fromShape` with the same row-major index (a row-major reshape;
/// with power-of-two sizes, a relabelling of index bits, hence GF(2)-linear).
std::vector<int64_t> reshapeCoordinate(const std::vector<int64_t> &coord,
                                       const std::vector<int64_t> &fromShape,
                                       const std::vector<int64_t> &toShape);

/// Appends to `registerBases` the bases that repeat a tile of `tileShape`
/// over a tensor of `shape`: for each dimension d taken in `dimOrder`, the
/// bases tile[d], 2*tile[d], ... while they are smaller than shape[d].
void appendTileRepetitions(BasisList &registerBases,
                           const std::vector<int64_t> &tileShape,
                           const std::vector<int64_t> &shape,
                           const std::vector<int64_t> &dimOrder);

/// A distributed layout: a GF(2)-linear map from (register, lane, warp) to
/// the coordinates of a tensor of power-of-two shape.
class LinearLayout {
public:
  /// One hardware index: register within the thread, lane, warp.
  struct HwIndex {
    int64_t reg = 0;
    int64_t lane = 0;
    int64_t warp = 0;

    bool operator==(const HwIndex &other) const {
      return reg == other.reg && lane == other.lane && warp == other.warp;
    }
    bool operator!=(const HwIndex &other) const { return !(*this == other); }
  };

  /// Builds a layout from explicit bases.  Every shape entry must be a power
  /// of two and every basis coordinate d must lie in [0, shape[d]).
  LinearLayout(LayoutBases bases, std::vector<int64_t> shape);

  /// Builds a layout from bases whose coordinates may exceed the shape: each
  /// coordinate is reduced modulo shape[d] (for a single-bit basis, a value
  /// >= shape[d] becomes 0, i.e. the layout wraps around and broadcasts).
  static LinearLayout wrapped(LayoutBases bases, std::vector<int64_t> shape);

  /// Number of tensor dimensions.
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }

  /// The tensor shape this layout covers.
  const std::vector<int64_t> &shape() const TRITIUM_LIFETIME_BOUND {
    return shape_;
  }

  /// The bases of one input dimension.
  const BasisList &bases(HwDim dim) const TRITIUM_LIFETIME_BOUND {
    return bases_[static_cast<int>(dim)];
  }

  /// Number of bases (index bits) of one input dimension.
  int numBases(HwDim dim) const {
    return static_cast<int>(bases(dim).size());
  }

  /// Number of distinct indices of one input dimension (1 << numBases).
  int64_t inDimSize(HwDim dim) const { return int64_t(1) << numBases(dim); }

  /// Number of registers each thread holds.
  int64_t elemsPerThread() const { return inDimSize(HwDim::Register); }

  /// The tensor coordinates held by register `reg` of lane `lane` in warp
  /// `warp`.
  std::vector<int64_t> apply(int64_t reg, int64_t lane, int64_t warp) const;

  /// Every hardware index whose image is `coord`, sorted by (warp, lane,
  /// reg).  Solved by Gaussian elimination over GF(2): one particular
  /// solution combined with every element of the kernel.
  std::vector<HwIndex> holders(const std::vector<int64_t> &coord) const;

  /// True if every element of the tensor is held by some hardware index.
  bool isSurjective() const;

  /// Removes tensor dimension `dim` from the output.  When
  /// `dropZeroRegisterBases` is set, register bases that become all-zero are
  /// dropped (a thread does not need duplicate registers); zero lane and
  /// warp bases are always kept (they broadcast across threads).
  LinearLayout removeOutDim(int dim, bool dropZeroRegisterBases) const;

  /// The same map onto the tensor with its dimensions reordered: dimension
  /// i of the result is dimension order[i] of this one (a permutation).
  LinearLayout permuteOutDims(const std::vector<int64_t> &order) const;

  /// The bases of each input dimension and the shape, as text.
  std::string toString() const;

  /// For rank-2 layouts: one text row per tensor row; each cell lists the
  /// thread ids (lane + inDimSize(Lane) * warp) holding that element, joined
  /// by '/' when there are several ("-" when none), cells separated by
  /// single spaces.  Every row ends with '\n'.
  std::string threadTable() const;

  bool operator==(const LinearLayout &other) const {
    return shape_ == other.shape_ && bases_ == other.bases_;
  }
  bool operator!=(const LinearLayout &other) const {
    return !(*this == other);
  }

private:
  /// Packs a coordinate into a bit vector: dimension d occupies
  /// log2(shape[d]) bits starting at bitOffset_[d].
  uint64_t packCoord(const std::vector<int64_t> &coord) const;
  /// Inverse of packCoord.
  std::vector<int64_t> unpackCoord(uint64_t bits) const;
  /// Total number of output bits (sum of log2(shape[d])).
  int numOutBits() const;
  /// Total number of input bits (sum of numBases over all input dims).
  int numInBits() const;
  /// The packed image of input bit `bit` (bits are numbered register bits
  /// first, then lane bits, then warp bits).
  uint64_t packedBasis(int bit) const;

  LayoutBases bases_;
  std::vector<int64_t> shape_;
  std::vector<int> bitOffset_;
};

/// The largest power of two n such that registers [k*n, (k+1)*n) of
/// `layout` hold n consecutive elements along tensor dimension `dim`,
/// starting at a multiple of n, for every k and in every thread (1 when
/// `dim` is out of range).  The widest vector memory access along `dim`.
int64_t contiguousRegisters(const LinearLayout &layout, int dim);

/// The register-index bits of `layout` that never move an element out of
/// its aligned block of `blockShape` (powers of two, one per dimension): the
/// bits whose basis is below the block size in every dimension.  Registers
/// i and i & ~mask of any thread then lie in the same block, so a tensor
/// constant on such blocks holds equal values in them.
uint64_t registerBitsInsideBlocks(const LinearLayout &layout,
                                  const std::vector<int64_t> &blockShape);

} // namespace layout
} // namespace tritium

#endif // TRITIUM_LAYOUT_LINEARLAYOUT_H
