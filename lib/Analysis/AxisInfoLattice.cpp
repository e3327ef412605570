//===- AxisInfoLattice.cpp - the axis-info lattice value -------------------===//
//
// The plain C++ half of axis info: constructing AxisInfo values, regrouping a
// divisibility to shorter runs, and the join.  Nothing here depends on MLIR,
// so tritium-unittests links this file alone.
//
//===----------------------------------------------------------------------===//
#include "tritium/Analysis/AxisInfo.h"

#include <algorithm>
#include <cassert>
#include <numeric>

using namespace tritium;

AxisInfo::AxisInfo(std::vector<int64_t> contiguity,
                   std::vector<int64_t> divisibility,
                   std::vector<int64_t> constancy,
                   std::optional<int64_t> constantValue)
    : contiguity(std::move(contiguity)), divisibility(std::move(divisibility)),
      constancy(std::move(constancy)), constantValue(constantValue) {
  assert(this->contiguity.size() == this->divisibility.size() &&
         this->contiguity.size() == this->constancy.size() &&
         "one entry per dimension in each vector");
}

AxisInfo AxisInfo::unknown(unsigned rank) {
  return AxisInfo(std::vector<int64_t>(rank, 1), std::vector<int64_t>(rank, 1),
                  std::vector<int64_t>(rank, 1));
}

AxisInfo AxisInfo::splatConstant(int64_t value, llvm::ArrayRef<int64_t> shape) {
  std::vector<int64_t> constancy(shape.begin(), shape.end());
  return AxisInfo(std::vector<int64_t>(shape.size(), 1),
                  std::vector<int64_t>(shape.size(),
                                       highestPowerOf2Divisor(value)),
                  std::move(constancy), value);
}

int64_t AxisInfo::getDivisibilityOfGroups(unsigned dim, int64_t length) const {
  // Groups made of whole runs start where runs start.  Otherwise a group
  // starts at offset k * length into the tensor, which is some multiple of
  // gcd(length, contiguity) past the start of the run it falls in.
  if (length % contiguity[dim] == 0)
    return divisibility[dim];
  return std::gcd(divisibility[dim], std::gcd(length, contiguity[dim]));
}

int64_t AxisInfo::getDivisibilityOfAllElements() const {
  // Along a dimension of contiguity 1 every element starts a group, so every
  // element is a multiple of that dimension's divisibility.
  int64_t best = 1;
  for (unsigned d = 0; d < getRank(); ++d)
    if (contiguity[d] == 1)
      best = std::max(best, divisibility[d]);
  if (constantValue)
    best = std::max(best, highestPowerOf2Divisor(*constantValue));
  return best;
}

AxisInfo AxisInfo::join(const AxisInfo &lhs, const AxisInfo &rhs) {
  if (!lhs.isInitialized())
    return rhs;
  if (!rhs.isInitialized())
    return lhs;
  assert(lhs.getRank() == rhs.getRank() && "joining values of different rank");
  unsigned rank = lhs.getRank();
  std::vector<int64_t> contiguity(rank), divisibility(rank), constancy(rank);
  for (unsigned d = 0; d < rank; ++d) {
    contiguity[d] = std::gcd(lhs.contiguity[d], rhs.contiguity[d]);
    divisibility[d] =
        std::gcd(lhs.getDivisibilityOfGroups(d, contiguity[d]),
                 rhs.getDivisibilityOfGroups(d, contiguity[d]));
    constancy[d] = std::gcd(lhs.constancy[d], rhs.constancy[d]);
  }
  std::optional<int64_t> constant;
  if (lhs.constantValue == rhs.constantValue)
    constant = lhs.constantValue;
  return AxisInfo(std::move(contiguity), std::move(divisibility),
                  std::move(constancy), constant);
}

int64_t tritium::highestPowerOf2Divisor(int64_t value) {
  if (value == 0)
    return AxisInfo::kMaxDivisibility;
  // The lowest set bit; computed on the unsigned value so INT64_MIN is fine.
  uint64_t bits = static_cast<uint64_t>(value);
  uint64_t lowest = bits & (~bits + 1);
  if (lowest >= static_cast<uint64_t>(AxisInfo::kMaxDivisibility))
    return AxisInfo::kMaxDivisibility;
  return static_cast<int64_t>(lowest);
}

int64_t tritium::multiplyDivisibility(int64_t lhs, int64_t rhs) {
  // Both are at most 2^30, so the product fits in int64_t.
  return std::min(lhs * rhs, AxisInfo::kMaxDivisibility);
}

std::vector<unsigned> tritium::orderByContiguity(
    llvm::ArrayRef<int64_t> contiguity) {
  std::vector<unsigned> order(contiguity.size());
  // Start from the row-major order (last dimension first) so that the stable
  // sort breaks ties towards it.
  for (unsigned i = 0; i < order.size(); ++i)
    order[i] = order.size() - 1 - i;
  // A stable insertion sort by decreasing contiguity (ranks are tiny).
  for (size_t i = 1; i < order.size(); ++i)
    for (size_t j = i; j > 0 && contiguity[order[j]] > contiguity[order[j - 1]];
         --j)
      std::swap(order[j], order[j - 1]);
  return order;
}
