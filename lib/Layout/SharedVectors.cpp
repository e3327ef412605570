//===- SharedVectors.cpp - Registers one shared-memory vector access moves ===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//

#include "tritium/Layout/SharedVectors.h"

#include "llvm/ADT/DenseMap.h"

using namespace tritium;
using llvm::ArrayRef;
using llvm::SmallVector;

int64_t layout::vectorWidth(ArrayRef<int64_t> registerOffsets, int64_t threadBits,
                            int64_t maxElements) {
  // Registers reg..reg+vec-1 at consecutive offsets from a multiple of vec,
  // which no thread bit disturbs.
  int64_t count = registerOffsets.size();
  int64_t vec = 1;
  for (int64_t candidate = 2; candidate <= maxElements && candidate <= count;
       candidate *= 2) {
    bool contiguous = (threadBits & (candidate - 1)) == 0;
    for (int64_t reg = 0; contiguous && reg < count; reg += candidate)
      for (int64_t i = 0; contiguous && i < candidate; ++i)
        contiguous = registerOffsets[reg + i] == (registerOffsets[reg] | i) &&
                     (registerOffsets[reg] & (candidate - 1)) == 0;
    if (!contiguous)
      break;
    vec = candidate;
  }
  return vec;
}

SmallVector<SmallVector<int64_t, 4>>
layout::groupsByOffset(ArrayRef<int64_t> registerOffsets, int64_t threadBits,
                       ArrayRef<int64_t> registers, int64_t maxElements) {
  llvm::DenseMap<int64_t, int64_t> registerAt; // offset -> first register
  for (int64_t reg : registers)
    registerAt.try_emplace(registerOffsets[reg], reg);
  llvm::DenseMap<int64_t, int64_t> groupOf; // register -> group index
  SmallVector<SmallVector<int64_t, 4>> groups;
  for (int64_t reg : registers) {
    if (groupOf.count(reg))
      continue;
    int64_t at = registerOffsets[reg];
    SmallVector<int64_t, 4> group = {reg};
    // The widest aligned run of offsets around `at` whose registers are all
    // ungrouped (a register repeating an earlier one's offset stands alone).
    for (int64_t width = maxElements; width >= 2 && registerAt.lookup(at) == reg;
         width /= 2) {
      if ((threadBits & (width - 1)) != 0)
        continue;
      int64_t head = at & ~(width - 1);
      SmallVector<int64_t, 4> members;
      for (int64_t i = 0; i < width; ++i) {
        auto found = registerAt.find(head + i);
        if (found == registerAt.end() || groupOf.count(found->second))
          break;
        members.push_back(found->second);
      }
      if (static_cast<int64_t>(members.size()) == width) {
        group = std::move(members);
        break;
      }
    }
    for (int64_t member : group)
      groupOf[member] = groups.size();
    groups.push_back(std::move(group));
  }
  return groups;
}
