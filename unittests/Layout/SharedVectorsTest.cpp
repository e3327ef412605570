//===- SharedVectorsTest.cpp - Tests for shared-memory vector groups -------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// Which of a thread's registers one vector access of an XOR-linear shared
// tile can move: runs of consecutive registers (vectorWidth), and registers
// grouped by address when consecutive elements are not consecutive
// registers (groupsByOffset: a CUDA-core dot's B operand, registers along
// K first).
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/SharedVectors.h"

#include <gtest/gtest.h>

#include <vector>

using namespace tritium::layout;

namespace {

using Groups = std::vector<std::vector<int64_t>>;

Groups groups(llvm::ArrayRef<int64_t> offsets, int64_t threadBits,
              llvm::ArrayRef<int64_t> registers, int64_t maxElements) {
  Groups out;
  for (const auto &group : groupsByOffset(offsets, threadBits, registers, maxElements))
    out.emplace_back(group.begin(), group.end());
  return out;
}

/// A thread's 4x4 registers of a B operand in a row-major tile of rows of
/// 64 elements: register k + 4 * n holds (k, n), at offset 64 k + n.
std::vector<int64_t> kFirstOffsets() {
  std::vector<int64_t> offsets;
  for (int64_t reg = 0; reg < 16; ++reg)
    offsets.push_back(64 * (reg % 4) + reg / 4);
  return offsets;
}

std::vector<int64_t> allRegisters(int64_t count) {
  std::vector<int64_t> registers;
  for (int64_t reg = 0; reg < count; ++reg)
    registers.push_back(reg);
  return registers;
}

TEST(SharedVectors, ConsecutiveRegistersMakeOneVector) {
  std::vector<int64_t> offsets = {0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(vectorWidth(offsets, /*threadBits=*/0x40, 4), 4);
  EXPECT_EQ(vectorWidth(offsets, 0x40, 8), 8);
  // a thread bit inside the vector splits it
  EXPECT_EQ(vectorWidth(offsets, 0x2, 8), 2);
  EXPECT_EQ(vectorWidth(offsets, 0x1, 8), 1);
  // runs must start at multiples of their width
  EXPECT_EQ(vectorWidth({2, 3, 4, 5}, 0, 4), 2);
}

TEST(SharedVectors, RegistersAlongKHaveNoConsecutiveRun) {
  EXPECT_EQ(vectorWidth(kFirstOffsets(), 0x100, 4), 1);
}

TEST(SharedVectors, RegistersAlongKGroupByAddress) {
  // each K row's four N values: registers r, r+4, r+8, r+12 in memory order
  EXPECT_EQ(groups(kFirstOffsets(), 0x100, allRegisters(16), 4),
            (Groups{{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}}));
  // at most two elements a vector (8-byte elements)
  EXPECT_EQ(groups(kFirstOffsets(), 0x100, allRegisters(16), 2),
            (Groups{{0, 4}, {1, 5}, {2, 6}, {3, 7}, {8, 12}, {9, 13}, {10, 14}, {11, 15}}));
}

TEST(SharedVectors, AThreadBitLimitsTheGroups) {
  // lanes differ in offset bit 1: a 4-wide vector would span two lanes' data
  EXPECT_EQ(groups(kFirstOffsets(), 0x2, allRegisters(16), 4),
            (Groups{{0, 4}, {1, 5}, {2, 6}, {3, 7}, {8, 12}, {9, 13}, {10, 14}, {11, 15}}));
  EXPECT_EQ(groups(kFirstOffsets(), 0x1, allRegisters(16), 4).size(), 16u);
}

TEST(SharedVectors, OnlyTheListedRegistersAreGrouped) {
  // register 8 is not listed (a duplicate of another one elsewhere): its
  // K row takes a vector of two and a single load, the others one of four
  std::vector<int64_t> registers = {0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15};
  EXPECT_EQ(groups(kFirstOffsets(), 0x100, registers, 4),
            (Groups{{0, 4}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}, {12}}));
}

TEST(SharedVectors, ARepeatedOffsetStandsAlone) {
  // registers 0 and 1 read the same element; 2 the next one
  EXPECT_EQ(groups({0, 0, 1}, 0, {0, 1, 2}, 2), (Groups{{0, 2}, {1}}));
}

} // namespace
