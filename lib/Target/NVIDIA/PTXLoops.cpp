//===- PTXLoops.cpp - what the loops of PTX text advance -------------------===//
//
// One pass over the lines records each label's line; a branch to a label
// seen before closes a loop from that label's line to the branch.  Each
// loop's lines are then read for self-additions of 64-bit registers.
// Nested loops are counted each on its own (an inner loop's registers count
// for the outer loop too when the outer body contains them).
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/NVIDIA/PTXLoops.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <utility>
#include <vector>

namespace {

/// The label a branch line jumps to (`bra $L..;`, `@%p bra.uni $L..;`), or
/// an empty string for any other line.
llvm::StringRef branchTarget(llvm::StringRef line) {
  if (line.starts_with("@")) {
    size_t space = line.find_first_of(" \t");
    if (space == llvm::StringRef::npos)
      return {};
    line = line.drop_front(space).ltrim();
  }
  if (!line.consume_front("bra"))
    return {};
  line.consume_front(".uni");
  if (line.empty() || (line.front() != ' ' && line.front() != '\t'))
    return {};
  return line.ltrim().take_until([](char c) { return c == ';'; }).rtrim();
}

/// The register `line` advances (`add.s64 %rdN, %rdN, x;`), or an empty
/// string.
llvm::StringRef selfAddedRegister(llvm::StringRef line) {
  if (!line.consume_front("add.s64"))
    return {};
  llvm::SmallVector<llvm::StringRef, 3> operands;
  line.take_until([](char c) { return c == ';'; }).split(operands, ',');
  if (operands.size() != 3)
    return {};
  llvm::StringRef destination = operands[0].trim(), source = operands[1].trim();
  if (!destination.starts_with("%rd") || destination != source)
    return {};
  return destination;
}

} // namespace

unsigned tritium::nvidia::addressesLoopsAdvance(std::string_view ptx) {
  llvm::SmallVector<llvm::StringRef, 0> lines;
  llvm::StringRef(ptx.data(), ptx.size()).split(lines, '\n');
  llvm::StringMap<size_t> labels;
  std::vector<std::pair<size_t, size_t>> loops;
  for (size_t i = 0; i < lines.size(); ++i) {
    llvm::StringRef line = lines[i].trim();
    if (line.ends_with(":") && line.starts_with("$")) {
      labels[line.drop_back()] = i;
      continue;
    }
    llvm::StringRef target = branchTarget(line);
    if (target.empty())
      continue;
    if (auto it = labels.find(target); it != labels.end())
      loops.push_back({it->second, i});
  }
  unsigned total = 0;
  for (auto [first, last] : loops) {
    llvm::StringSet<> advanced;
    for (size_t i = first; i < last; ++i)
      if (llvm::StringRef reg = selfAddedRegister(lines[i].trim()); !reg.empty())
        advanced.insert(reg);
    total += advanced.size();
  }
  return total;
}
