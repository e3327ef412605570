//===- TmaTileTest.cpp - Tests for descriptor tiles and their boxes -------===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// Places every element of every box the way the copy engine does (row-major
// inside the box, then the hardware's address swizzle) and checks that the
// copies of a plan land each element of the block exactly once, at the
// offset the tile's layout (NVMMA or row-major) gives it; and the rules that
// refuse blocks TMA cannot move.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/NvmmaShared.h"
#include "tritium/Layout/TmaTile.h"

#include <gtest/gtest.h>

#include <functional>
#include <set>

using namespace tritium::layout;

namespace {

/// The copy engine's swizzle of a byte address (bits [4, 4 + n) XOR bits
/// [7, 7 + n), n = log2(swizzle / 16)); none for swizzle 0.
int64_t hardwareSwizzle(int64_t address, int64_t swizzleBytes) {
  if (swizzleBytes == 0)
    return address;
  int64_t bits = swizzleBytes == 128 ? 3 : swizzleBytes == 64 ? 2 : 1;
  int64_t mask = ((int64_t(1) << bits) - 1) << 4;
  return address ^ ((address >> 3) & mask);
}

/// Calls `visit(coordinate)` for every coordinate of `shape`.
void forEachCoord(const std::vector<int64_t> &shape,
                  const std::function<void(const std::vector<int64_t> &)> &visit) {
  std::vector<int64_t> coord(shape.size(), 0);
  while (true) {
    visit(coord);
    size_t d = shape.size();
    while (d > 0 && ++coord[d - 1] == shape[d - 1])
      coord[--d] = 0;
    if (d == 0)
      return;
  }
}

/// Checks the plan of one block against its tile layout.
void checkPlan(const std::vector<int64_t> &shape, int64_t elementBits) {
  SCOPED_TRACE("block of " + std::to_string(shape.size()) + " dims, " +
               std::to_string(elementBits) + "-bit");
  ASSERT_FALSE(whyNotTmaTile(shape, elementBits).has_value());
  int64_t swizzle = chooseTmaSwizzle(shape, elementBits);
  TmaTilePlan plan = planTmaTile(shape, elementBits, swizzle);
  int64_t elementBytes = elementBits / 8;
  for (int64_t size : plan.box)
    EXPECT_LE(size, 256);
  EXPECT_EQ(plan.box.back() * elementBytes % 16, 0);
  if (swizzle)
    EXPECT_LE(plan.box.back() * elementBytes, swizzle);

  auto expectedOffset = [&](const std::vector<int64_t> &coord) -> int64_t {
    if (swizzle) {
      NvmmaSharedSpec spec{swizzle, elementBits, {1, 0}};
      return nvmmaOffset(spec, shape, coord) * elementBytes;
    }
    int64_t offset = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      offset = offset * shape[d] + coord[d];
    return offset * elementBytes;
  };

  std::set<int64_t> landed;
  for (const TmaTilePlan::Copy &copy : plan.copies) {
    // The copy engine needs a 128-byte aligned destination, and the
    // swizzle pattern must start at a multiple of its period.
    EXPECT_EQ(copy.sharedByteOffset % 128, 0);
    if (swizzle)
      EXPECT_EQ(copy.sharedByteOffset % (8 * swizzle), 0);
    forEachCoord(plan.box, [&](const std::vector<int64_t> &inBox) {
      int64_t linear = 0;
      for (size_t d = 0; d < plan.box.size(); ++d)
        linear = linear * plan.box[d] + inBox[d];
      int64_t address = hardwareSwizzle(
          copy.sharedByteOffset + linear * elementBytes, swizzle);
      std::vector<int64_t> coord(shape.size());
      for (size_t d = 0; d < shape.size(); ++d)
        coord[d] = copy.blockOffset[d] + inBox[d];
      ASSERT_EQ(address, expectedOffset(coord));
      EXPECT_TRUE(landed.insert(address).second);
    });
  }
  EXPECT_EQ(int64_t(landed.size()) * elementBytes, plan.tileBytes);
}

TEST(TmaTileTest, SwizzledTilesLandInTheNvmmaLayout) {
  for (int64_t bits : {8, 16, 32})
    for (std::vector<int64_t> shape :
         {std::vector<int64_t>{64, 64}, {128, 64}, {8, 256}, {512, 32},
          {64, 16}, {16, 128}})
      if (shape[1] * bits / 8 >= 32)
        checkPlan(shape, bits);
  EXPECT_EQ(chooseTmaSwizzle({64, 64}, 16), 128);
  EXPECT_EQ(chooseTmaSwizzle({64, 32}, 16), 64);
  EXPECT_EQ(chooseTmaSwizzle({64, 16}, 16), 32);
  EXPECT_EQ(planTmaTile({64, 128}, 16, 128).copies.size(), 2u);
  EXPECT_EQ(planTmaTile({512, 64}, 16, 128).copies.size(), 2u);
}

TEST(TmaTileTest, PlainTilesAreRowMajor) {
  checkPlan({1024}, 32);
  checkPlan({16}, 8);
  checkPlan({4, 32}, 16);  // rows not a multiple of 8: no swizzle
  checkPlan({64, 8}, 16);  // 16-byte rows: no swizzle
  checkPlan({512, 4}, 64);
  checkPlan({2, 4, 8}, 32);
  checkPlan({2, 2, 2, 2, 8}, 16);
  checkPlan({1, 64, 64}, 16);
  EXPECT_EQ(chooseTmaSwizzle({2, 4, 8}, 32), 0);
}

TEST(TmaTileTest, RefusesWhatTheCopyEngineCannotMove) {
  EXPECT_TRUE(whyNotTmaTile({64, 4}, 16).has_value());     // 8-byte rows
  EXPECT_TRUE(whyNotTmaTile({8}, 8).has_value());          // 8 bytes
  EXPECT_TRUE(whyNotTmaTile({4, 512}, 8).has_value());     // unswizzled, 512 wide
  EXPECT_TRUE(whyNotTmaTile({2, 512, 8}, 16).has_value()); // middle dim 512
  EXPECT_TRUE(whyNotTmaTile({1, 1, 1, 1, 1, 16}, 16).has_value()); // rank 6
  EXPECT_TRUE(whyNotTmaTile({64, 64}, 4).has_value());
  EXPECT_FALSE(whyNotTmaTile({64, 512}, 16).has_value()); // 8 slabs
}

} // namespace
