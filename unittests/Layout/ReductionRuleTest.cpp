//===- ReductionRuleTest.cpp - Tests for the reduce lowering's layout rule ===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// reductionLayoutProblem against a brute-force model of the reduce
// lowering (ReduceOpToLLVM.cpp): a thread folds its distinct register
// images grouped by their coordinates off the axis, then lanes and warps are
// combined over the bits whose bases move along the axis.  The model counts
// how often each element enters each thread's result; the rule must accept
// exactly the layouts on which every count is 1 for the elements of that
// result and 0 elsewhere (checked on blocked layouts, on hand-picked linear
// layouts the layout fuzzer found wrong, and on 3000 random ones).
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/ReductionRule.h"
#include "tritium/Layout/BlockedLayout.h"

#include "TestBases.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

using namespace tritium::layout;

namespace {

std::vector<int64_t> withoutAxis(std::vector<int64_t> coord, int axis) {
  coord.erase(coord.begin() + axis);
  return coord;
}

/// True when the modelled lowering gives every thread's every result the
/// sum of exactly the elements off-axis-equal to it.  The model can count
/// wrongly only where the real lowering would; it does not model the lowering's
/// refusal of mixed lane bases, which it simply follows (a butterfly over
/// every lane or warp bit with an axis component).
bool modelReducesExactly(const LinearLayout &layout, int axis) {
  using Counts = std::map<std::vector<int64_t>, int>;
  int64_t lanes = layout.inDimSize(HwDim::Lane);
  int64_t warps = layout.inDimSize(HwDim::Warp);
  // Step 1 for every thread: groups keyed by the register image off the
  // axis (the lowering keys them by register 0 of lane 0, warp 0).
  std::vector<std::vector<int64_t>> groupKeys;
  std::map<std::vector<int64_t>, size_t> groupOf;
  std::vector<size_t> registerGroup(layout.elemsPerThread(), SIZE_MAX);
  std::map<std::vector<int64_t>, int64_t> firstHolder;
  for (int64_t reg = 0; reg < layout.elemsPerThread(); ++reg) {
    std::vector<int64_t> image = layout.apply(reg, 0, 0);
    if (!firstHolder.try_emplace(image, reg).second)
      continue;
    auto [it, inserted] =
        groupOf.try_emplace(withoutAxis(image, axis), groupKeys.size());
    if (inserted)
      groupKeys.push_back(withoutAxis(image, axis));
    registerGroup[reg] = it->second;
  }
  // partial[warp][lane][group]: how often each element was added in.
  std::vector<std::vector<std::vector<Counts>>> partial(
      warps, std::vector<std::vector<Counts>>(
                 lanes, std::vector<Counts>(groupKeys.size())));
  for (int64_t w = 0; w < warps; ++w)
    for (int64_t l = 0; l < lanes; ++l)
      for (int64_t reg = 0; reg < layout.elemsPerThread(); ++reg)
        if (registerGroup[reg] != SIZE_MAX)
          ++partial[w][l][registerGroup[reg]][layout.apply(reg, l, w)];
  auto combine = [](Counts a, const Counts &b) {
    for (const auto &[coord, n] : b)
      a[coord] += n;
    return a;
  };
  // Steps 2 and 3: butterflies over the bits with an axis component.
  for (HwDim dim : {HwDim::Lane, HwDim::Warp}) {
    const BasisList &bases = layout.bases(dim);
    for (size_t bit = 0; bit < bases.size(); ++bit) {
      if (bases[bit][axis] == 0)
        continue;
      auto before = partial;
      for (int64_t w = 0; w < warps; ++w)
        for (int64_t l = 0; l < lanes; ++l)
          for (size_t g = 0; g < groupKeys.size(); ++g) {
            int64_t pw = dim == HwDim::Warp ? w ^ (int64_t(1) << bit) : w;
            int64_t pl = dim == HwDim::Lane ? l ^ (int64_t(1) << bit) : l;
            partial[w][l][g] = combine(before[w][l][g], before[pw][pl][g]);
          }
    }
  }
  // Every element whose off-axis coordinates are the result's, once.
  std::map<std::vector<int64_t>, std::vector<std::vector<int64_t>>> line;
  std::vector<int64_t> coord(layout.rank(), 0);
  int64_t total = 1;
  for (int64_t size : layout.shape())
    total *= size;
  for (int64_t index = 0; index < total; ++index) {
    int64_t rest = index;
    for (int d = static_cast<int>(layout.rank()) - 1; d >= 0; --d) {
      coord[d] = rest % layout.shape()[d];
      rest /= layout.shape()[d];
    }
    line[withoutAxis(coord, axis)].push_back(coord);
  }
  for (int64_t w = 0; w < warps; ++w)
    for (int64_t l = 0; l < lanes; ++l)
      for (size_t g = 0; g < groupKeys.size(); ++g) {
        // The result's off-axis coordinates in this thread.
        int64_t reg = 0;
        while (registerGroup[reg] != g)
          ++reg;
        Counts want;
        for (const std::vector<int64_t> &c :
             line[withoutAxis(layout.apply(reg, l, w), axis)])
          want[c] = 1;
        if (partial[w][l][g] != want)
          return false;
      }
  return true;
}

void expectRuleMatchesModel(const LinearLayout &layout, int axis) {
  std::string problem = reductionLayoutProblem(layout, axis);
  EXPECT_EQ(problem.empty(), modelReducesExactly(layout, axis))
      << layout.toString() << " axis " << axis << ": " << problem;
}

TEST(ReductionRuleTest, BlockedLayoutsReduceDirectly) {
  BlockedSpec spec{{2, 2}, {8, 4}, {1, 2}, {1, 0}};
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{16, 16}, {4, 8}, {64, 2}, {1, 32}})
    for (int axis : {0, 1}) {
      LinearLayout layout = blockedToLinear(spec, shape);
      EXPECT_EQ(reductionLayoutProblem(layout, axis), "");
      expectRuleMatchesModel(layout, axis);
    }
}

TEST(ReductionRuleTest, FuzzerFoundLayoutsAreRefused) {
  // A register basis and a lane basis reach the same rows (seed 1585).
  LinearLayout repeated(
      makeBases({{8, 0}}, {{2, 0}, {0, 0}, {8, 0}, {4, 0}, {16, 0}},
                {{0, 0}, {0, 0}, {1, 0}}),
      {32, 1});
  EXPECT_NE(reductionLayoutProblem(repeated, 0), "");
  expectRuleMatchesModel(repeated, 0);
  // A lane basis moves along the axis and across it (seed 43).
  LinearLayout mixed(
      makeBases({{0, 1}}, {{2, 0}, {0, 2}, {4, 0}, {8, 0}, {1, 1}}, {}),
      {16, 4});
  EXPECT_NE(reductionLayoutProblem(mixed, 1).find("moves along"),
            std::string::npos);
  // Two lane bases for one position (seed 218).
  LinearLayout twice(makeBases({{0, 0}}, {{2, 0}, {2, 0}, {0, 0}, {0, 0}, {1, 0}},
                               {{0, 1}, {0, 0}}),
                     {4, 2});
  EXPECT_NE(reductionLayoutProblem(twice, 0), "");
  expectRuleMatchesModel(twice, 0);
  // Rows reached only by a register basis combined with a lane basis.
  LinearLayout combined(makeBases({{1, 1}}, {{0, 1}}, {}), {2, 2});
  EXPECT_NE(reductionLayoutProblem(combined, 0), "");
  expectRuleMatchesModel(combined, 0);
}

TEST(ReductionRuleTest, RandomLinearLayoutsMatchTheModel) {
  std::mt19937 random(7);
  auto below = [&](int64_t n) {
    return static_cast<int64_t>(random() % static_cast<uint64_t>(n));
  };
  int accepted = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<int64_t> shape = {int64_t(1) << below(4),
                                  int64_t(1) << below(4)};
    LayoutBases bases;
    int counts[3] = {static_cast<int>(below(4)), static_cast<int>(below(4)),
                     static_cast<int>(below(3))};
    for (int hw = 0; hw < 3; ++hw)
      for (int k = 0; k < counts[hw]; ++k) {
        // Mostly single bits (as blocked layouts have), sometimes any value.
        std::vector<int64_t> basis = {0, 0};
        if (below(3) == 0) {
          basis = {below(shape[0]), below(shape[1])};
        } else {
          int d = static_cast<int>(below(2));
          if (shape[d] > 1)
            basis[d] = int64_t(1) << below(log2Exact(shape[d]));
        }
        bases[hw].push_back(basis);
      }
    LinearLayout layout(bases, shape);
    if (!layout.isSurjective())
      continue; // not a layout of the tensor
    for (int axis : {0, 1}) {
      if (!reductionLayoutProblem(layout, axis).empty() &&
          reductionLayoutProblem(layout, axis).find("moves along") !=
              std::string::npos)
        continue; // the lowering refuses these; the model would butterfly
      expectRuleMatchesModel(layout, axis);
      accepted += reductionLayoutProblem(layout, axis).empty();
    }
  }
  EXPECT_GT(accepted, 1000);
}

} // namespace
