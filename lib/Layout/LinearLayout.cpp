//===- LinearLayout.cpp - Distributed layouts as GF(2)-linear maps --------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// Implementation of LinearLayout.  Coordinates are packed into a single
// 64-bit vector over GF(2) (each tensor dimension owns a contiguous range of
// bits), so applying a layout is a XOR of packed bases and inverting it is
// ordinary Gaussian elimination on 64-bit words.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/LinearLayout.h"

#include <algorithm>
#include <cassert>
#include <set>
#include <sstream>
#include <utility>

namespace tritium {
namespace layout {

int log2Exact(int64_t value) {
  assert(isPowerOf2(value) && "log2Exact needs a positive power of two");
  int result = 0;
  while ((int64_t(1) << result) < value)
    ++result;
  return result;
}

std::string formatVector(const std::vector<int64_t> &values) {
  std::ostringstream os;
  os << '[';
  for (size_t i = 0; i < values.size(); ++i)
    os << (i ? "," : "") << values[i];
  os << ']';
  return os.str();
}

std::optional<std::string>
checkPowersOfTwo(const std::string &field, const std::vector<int64_t> &values) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (!isPowerOf2(values[i]))
      return field + "[" + std::to_string(i) + "] is " +
             std::to_string(values[i]) + ", expected a positive power of two";
  }
  return std::nullopt;
}

std::optional<std::string>
checkPermutation(const std::string &field, const std::vector<int64_t> &values) {
  std::vector<bool> seen(values.size(), false);
  for (int64_t v : values) {
    if (v < 0 || v >= static_cast<int64_t>(values.size()) || seen[v])
      return field + " " + formatVector(values) +
             " is not a permutation of 0.." +
             std::to_string(static_cast<int64_t>(values.size()) - 1);
    seen[v] = true;
  }
  return std::nullopt;
}

std::vector<int64_t> unitBasis(int64_t rank, int dim, int64_t value) {
  assert(dim >= 0 && dim < rank && "dimension out of range");
  std::vector<int64_t> basis(static_cast<size_t>(rank), 0);
  basis[dim] = value;
  return basis;
}

std::vector<int64_t> reshapeCoordinate(const std::vector<int64_t> &coord,
                                       const std::vector<int64_t> &fromShape,
                                       const std::vector<int64_t> &toShape) {
  assert(coord.size() == fromShape.size() && "rank mismatch");
  int64_t index = 0;
  for (size_t d = 0; d < coord.size(); ++d)
    index = index * fromShape[d] + coord[d];
  std::vector<int64_t> result(toShape.size());
  for (int d = static_cast<int>(toShape.size()) - 1; d >= 0; --d) {
    result[d] = index % toShape[d];
    index /= toShape[d];
  }
  return result;
}

void appendTileRepetitions(BasisList &registerBases,
                           const std::vector<int64_t> &tileShape,
                           const std::vector<int64_t> &shape,
                           const std::vector<int64_t> &dimOrder) {
  assert(tileShape.size() == shape.size() && dimOrder.size() == shape.size() &&
         "rank mismatch");
  int64_t rank = static_cast<int64_t>(shape.size());
  for (int64_t d : dimOrder)
    for (int64_t step = tileShape[d]; step < shape[d]; step *= 2)
      registerBases.push_back(unitBasis(rank, static_cast<int>(d), step));
}

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

LinearLayout::LinearLayout(LayoutBases bases, std::vector<int64_t> shape)
    : bases_(std::move(bases)), shape_(std::move(shape)) {
  int offset = 0;
  for (int64_t size : shape_) {
    assert(isPowerOf2(size) && "layout shapes must be powers of two");
    bitOffset_.push_back(offset);
    offset += log2Exact(size);
  }
  assert(offset <= 64 && "tensor too large for a packed coordinate");
  for (const BasisList &list : bases_) {
    for (const std::vector<int64_t> &basis : list) {
      assert(basis.size() == shape_.size() && "basis rank mismatch");
      for (size_t d = 0; d < basis.size(); ++d) {
        assert(basis[d] >= 0 && basis[d] < shape_[d] &&
               "basis coordinate out of the tensor");
      }
    }
  }
  assert(numInBits() <= 62 && "too many hardware index bits");
}

LinearLayout LinearLayout::wrapped(LayoutBases bases,
                                   std::vector<int64_t> shape) {
  for (BasisList &list : bases) {
    for (std::vector<int64_t> &basis : list) {
      assert(basis.size() == shape.size() && "basis rank mismatch");
      for (size_t d = 0; d < basis.size(); ++d) {
        assert(basis[d] >= 0 && "negative basis coordinate");
        // Power-of-two modulus: a mask, which keeps the map GF(2)-linear.
        basis[d] &= shape[d] - 1;
      }
    }
  }
  return LinearLayout(std::move(bases), std::move(shape));
}

//===----------------------------------------------------------------------===//
// Packing helpers
//===----------------------------------------------------------------------===//

int LinearLayout::numOutBits() const {
  int total = 0;
  for (int64_t size : shape_)
    total += log2Exact(size);
  return total;
}

int LinearLayout::numInBits() const {
  int total = 0;
  for (const BasisList &list : bases_)
    total += static_cast<int>(list.size());
  return total;
}

uint64_t LinearLayout::packCoord(const std::vector<int64_t> &coord) const {
  assert(coord.size() == shape_.size() && "coordinate rank mismatch");
  uint64_t bits = 0;
  for (size_t d = 0; d < coord.size(); ++d) {
    assert(coord[d] >= 0 && coord[d] < shape_[d] && "coordinate out of range");
    bits |= static_cast<uint64_t>(coord[d]) << bitOffset_[d];
  }
  return bits;
}

std::vector<int64_t> LinearLayout::unpackCoord(uint64_t bits) const {
  std::vector<int64_t> coord(shape_.size());
  for (size_t d = 0; d < shape_.size(); ++d)
    coord[d] = static_cast<int64_t>((bits >> bitOffset_[d]) &
                                    static_cast<uint64_t>(shape_[d] - 1));
  return coord;
}

uint64_t LinearLayout::packedBasis(int bit) const {
  for (const BasisList &list : bases_) {
    if (bit < static_cast<int>(list.size()))
      return packCoord(list[bit]);
    bit -= static_cast<int>(list.size());
  }
  assert(false && "input bit out of range");
  return 0;
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

std::vector<int64_t> LinearLayout::apply(int64_t reg, int64_t lane,
                                         int64_t warp) const {
  const int64_t index[kNumHwDims] = {reg, lane, warp};
  std::vector<int64_t> coord(shape_.size(), 0);
  for (int dim = 0; dim < kNumHwDims; ++dim) {
    const BasisList &list = bases_[dim];
    assert(index[dim] >= 0 &&
           index[dim] < inDimSize(static_cast<HwDim>(dim)) &&
           "hardware index out of range");
    for (size_t bit = 0; bit < list.size(); ++bit) {
      if (!((index[dim] >> bit) & 1))
        continue;
      for (size_t d = 0; d < coord.size(); ++d)
        coord[d] ^= list[bit][d];
    }
  }
  return coord;
}

namespace {

/// Row-echelon form of the layout's columns.  pivots[b] (if present) is a
/// reduced image whose highest set bit is b, together with the set of input
/// bits (as a mask) whose images XOR to it.
struct Elimination {
  std::vector<std::pair<uint64_t, uint64_t>> pivots; // (image, inputMask)
  std::vector<bool> hasPivot;
  std::vector<uint64_t> kernel; // input masks that map to zero

  explicit Elimination(int numOutBits)
      : pivots(numOutBits), hasPivot(numOutBits, false) {}

  /// Reduces `image` (produced by `inputMask`) against the current pivots.
  /// Returns the reduced image and updates `inputMask` accordingly.
  uint64_t reduce(uint64_t image, uint64_t &inputMask) const {
    for (int b = static_cast<int>(pivots.size()) - 1; b >= 0 && image; --b) {
      if (!((image >> b) & 1) || !hasPivot[b])
        continue;
      image ^= pivots[b].first;
      inputMask ^= pivots[b].second;
    }
    return image;
  }

  /// Adds one column; it either becomes a new pivot or yields a kernel
  /// vector.
  void addColumn(uint64_t image, uint64_t inputMask) {
    image = reduce(image, inputMask);
    if (image == 0) {
      kernel.push_back(inputMask);
      return;
    }
    int top = 63;
    while (!((image >> top) & 1))
      --top;
    pivots[top] = {image, inputMask};
    hasPivot[top] = true;
  }

  int rank() const {
    return static_cast<int>(std::count(hasPivot.begin(), hasPivot.end(), true));
  }
};

Elimination eliminate(int numOutBits, int numInBits,
                      const std::vector<uint64_t> &columns) {
  Elimination elim(numOutBits);
  for (int bit = 0; bit < numInBits; ++bit)
    elim.addColumn(columns[bit], uint64_t(1) << bit);
  return elim;
}

} // namespace

std::vector<LinearLayout::HwIndex>
LinearLayout::holders(const std::vector<int64_t> &coord) const {
  const int inBits = numInBits();
  std::vector<uint64_t> columns(inBits);
  for (int bit = 0; bit < inBits; ++bit)
    columns[bit] = packedBasis(bit);
  Elimination elim = eliminate(numOutBits(), inBits, columns);

  uint64_t particular = 0;
  if (elim.reduce(packCoord(coord), particular) != 0)
    return {}; // Nobody holds this element.

  assert(elim.kernel.size() < 32 && "too many holders to enumerate");
  const int regBits = numBases(HwDim::Register);
  const int laneBits = numBases(HwDim::Lane);
  std::vector<HwIndex> result;
  const uint64_t numCombos = uint64_t(1) << elim.kernel.size();
  result.reserve(static_cast<size_t>(numCombos));
  for (uint64_t combo = 0; combo < numCombos; ++combo) {
    uint64_t mask = particular;
    for (size_t k = 0; k < elim.kernel.size(); ++k)
      if ((combo >> k) & 1)
        mask ^= elim.kernel[k];
    HwIndex index;
    index.reg = static_cast<int64_t>(mask & ((uint64_t(1) << regBits) - 1));
    index.lane = static_cast<int64_t>((mask >> regBits) &
                                      ((uint64_t(1) << laneBits) - 1));
    index.warp = static_cast<int64_t>(mask >> (regBits + laneBits));
    result.push_back(index);
  }
  std::sort(result.begin(), result.end(),
            [](const HwIndex &a, const HwIndex &b) {
              if (a.warp != b.warp)
                return a.warp < b.warp;
              if (a.lane != b.lane)
                return a.lane < b.lane;
              return a.reg < b.reg;
            });
  return result;
}

bool LinearLayout::isSurjective() const {
  const int inBits = numInBits();
  std::vector<uint64_t> columns(inBits);
  for (int bit = 0; bit < inBits; ++bit)
    columns[bit] = packedBasis(bit);
  return eliminate(numOutBits(), inBits, columns).rank() == numOutBits();
}

//===----------------------------------------------------------------------===//
// Transformations
//===----------------------------------------------------------------------===//

LinearLayout LinearLayout::removeOutDim(int dim,
                                        bool dropZeroRegisterBases) const {
  assert(dim >= 0 && dim < rank() && "dimension out of range");
  LayoutBases newBases;
  for (int in = 0; in < kNumHwDims; ++in) {
    for (const std::vector<int64_t> &basis : bases_[in]) {
      std::vector<int64_t> reduced = basis;
      reduced.erase(reduced.begin() + dim);
      bool isZero = std::all_of(reduced.begin(), reduced.end(),
                                [](int64_t v) { return v == 0; });
      if (isZero && dropZeroRegisterBases &&
          in == static_cast<int>(HwDim::Register))
        continue;
      newBases[in].push_back(std::move(reduced));
    }
  }
  std::vector<int64_t> newShape = shape_;
  newShape.erase(newShape.begin() + dim);
  return LinearLayout(std::move(newBases), std::move(newShape));
}

LinearLayout LinearLayout::permuteOutDims(const std::vector<int64_t> &order) const {
  assert(static_cast<int64_t>(order.size()) == rank() && "one entry per dimension");
  LayoutBases newBases;
  for (int in = 0; in < kNumHwDims; ++in)
    for (const std::vector<int64_t> &basis : bases_[in]) {
      std::vector<int64_t> permuted;
      for (int64_t d : order)
        permuted.push_back(basis[d]);
      newBases[in].push_back(std::move(permuted));
    }
  std::vector<int64_t> newShape;
  for (int64_t d : order)
    newShape.push_back(shape_[d]);
  return LinearLayout(std::move(newBases), std::move(newShape));
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

std::string LinearLayout::toString() const {
  static const char *const names[kNumHwDims] = {"register", "lane", "warp"};
  std::ostringstream os;
  for (int in = 0; in < kNumHwDims; ++in) {
    os << names[in] << ": [";
    for (size_t i = 0; i < bases_[in].size(); ++i) {
      if (i)
        os << ", ";
      os << formatVector(bases_[in][i]);
    }
    os << "]\n";
  }
  os << "shape: ";
  os << formatVector(shape_);
  os << '\n';
  return os.str();
}

std::string LinearLayout::threadTable() const {
  assert(rank() == 2 && "thread tables are only printed for rank 2");
  const int64_t threadsPerWarp = inDimSize(HwDim::Lane);
  std::ostringstream os;
  for (int64_t row = 0; row < shape_[0]; ++row) {
    for (int64_t col = 0; col < shape_[1]; ++col) {
      std::set<int64_t> threads;
      for (const HwIndex &index : holders({row, col}))
        threads.insert(index.lane + threadsPerWarp * index.warp);
      if (col)
        os << ' ';
      if (threads.empty())
        os << '-';
      bool first = true;
      for (int64_t thread : threads) {
        os << (first ? "" : "/") << thread;
        first = false;
      }
    }
    os << '\n';
  }
  return os.str();
}

uint64_t registerBitsInsideBlocks(const LinearLayout &layout,
                                  const std::vector<int64_t> &blockShape) {
  const BasisList &regs = layout.bases(HwDim::Register);
  uint64_t mask = 0;
  for (size_t bit = 0; bit < regs.size() && bit < 64; ++bit) {
    bool inside = true;
    for (int dim = 0; dim < layout.rank() && inside; ++dim)
      inside = dim < static_cast<int>(blockShape.size()) &&
               regs[bit][dim] < blockShape[dim];
    if (inside)
      mask |= uint64_t(1) << bit;
  }
  return mask;
}

int64_t contiguousRegisters(const LinearLayout &layout, int dim) {
  if (dim < 0 || dim >= layout.rank())
    return 1;
  const BasisList &regs = layout.bases(HwDim::Register);
  int64_t n = 1;
  for (size_t bit = 0; bit < regs.size(); ++bit) {
    if (regs[bit] != unitBasis(layout.rank(), dim, int64_t(1) << bit))
      break;
    n = int64_t(1) << (bit + 1);
  }
  // Every other basis must keep runs aligned: a multiple of n along `dim`.
  auto aligned = [&](int64_t size) {
    for (HwDim hw : {HwDim::Register, HwDim::Lane, HwDim::Warp}) {
      const BasisList &bases = layout.bases(hw);
      size_t skip = hw == HwDim::Register ? log2Exact(size) : 0;
      for (size_t bit = skip; bit < bases.size(); ++bit)
        if (bases[bit][dim] % size != 0)
          return false;
    }
    return true;
  };
  while (n > 1 && !aligned(n))
    n /= 2;
  return n;
}

} // namespace layout
} // namespace tritium
