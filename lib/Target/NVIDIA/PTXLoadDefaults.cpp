//===- PTXLoadDefaults.cpp - masked loads' defaults in PTX text ------------===//
//
// One pass over the lines: a run of `@!%pN mov.u...` lines is held until
// the next line that is not such a move; when that line is a load under
// `@%pN` (the same predicate, not negated) into every register the run
// writes, and not reading one of them in its address, the run's guards are
// dropped.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/NVIDIA/PTXLoadDefaults.h"

#include <vector>

namespace tritium::nvidia {

namespace {

std::string_view trimLeft(std::string_view s) {
  size_t i = s.find_first_not_of(" \t");
  return i == std::string_view::npos ? std::string_view() : s.substr(i);
}

/// The predicate register of `@!%pN mov.u...` (with the `!`), or empty.
std::string_view negatedMovePredicate(std::string_view line) {
  std::string_view s = trimLeft(line);
  if (s.substr(0, 3) != "@!%")
    return {};
  size_t space = s.find_first_of(" \t");
  if (space == std::string_view::npos)
    return {};
  std::string_view rest = trimLeft(s.substr(space));
  if (rest.substr(0, 5) != "mov.u")
    return {};
  return s.substr(2, space - 2);
}

/// A load guarded by `@pred` (not negated): its destination operands (the
/// text between the opcode and the address: `{ %r1, %r2 }` or `%r1`) and
/// its address (`[ %rd3 + 0 ]`); both empty for any other line.
struct GuardedLoad {
  std::string_view destinations, address;
};
GuardedLoad loadUnder(std::string_view line, std::string_view pred) {
  std::string_view s = trimLeft(line);
  if (s.size() < pred.size() + 2 || s[0] != '@' || s.substr(1, pred.size()) != pred)
    return {};
  std::string_view rest = s.substr(1 + pred.size());
  if (rest.empty() || (rest[0] != ' ' && rest[0] != '\t'))
    return {};
  rest = trimLeft(rest);
  if (rest.substr(0, 3) != "ld.")
    return {};
  size_t opcodeEnd = rest.find_first_of(" \t");
  size_t address = rest.find('[');
  if (opcodeEnd == std::string_view::npos || address == std::string_view::npos ||
      address < opcodeEnd)
    return {};
  size_t addressEnd = rest.find(']', address);
  if (addressEnd == std::string_view::npos)
    return {};
  return {rest.substr(opcodeEnd, address - opcodeEnd),
          rest.substr(address, addressEnd + 1 - address)};
}

/// The destination register of a `mov.u... %rX, v;` line (guard included).
std::string_view moveDestination(std::string_view line) {
  size_t reg = line.find('%', line.find("mov."));
  if (reg == std::string_view::npos)
    return {};
  size_t end = line.find_first_of(", \t", reg);
  return line.substr(reg, end == std::string_view::npos ? std::string_view::npos : end - reg);
}

/// Whether `registers` (a load's destinations or address) names `reg` as a
/// whole operand.
bool namesRegister(std::string_view registers, std::string_view reg) {
  for (size_t at = registers.find(reg); at != std::string_view::npos;
       at = registers.find(reg, at + 1)) {
    size_t after = at + reg.size();
    if (after == registers.size() ||
        std::string_view(", \t}]+").find(registers[after]) != std::string_view::npos)
      return true;
  }
  return false;
}

/// Whether the load may take the held moves' guards: it writes every
/// register they write and does not read one of them in its address.
bool takesGuardsOf(const std::vector<std::string_view> &held, GuardedLoad load) {
  if (load.destinations.empty())
    return false;
  for (std::string_view line : held) {
    std::string_view reg = moveDestination(line);
    if (!namesRegister(load.destinations, reg) || namesRegister(load.address, reg))
      return false;
  }
  return true;
}

} // namespace

std::string withUnconditionalLoadDefaults(std::string_view ptx, unsigned &changed) {
  changed = 0;
  std::string out;
  out.reserve(ptx.size());
  std::vector<std::string_view> held; // a run of negated moves
  std::string_view heldPred;
  // The held moves are unguarded when the load after them takes their
  // guards (takesGuardsOf).
  auto flush = [&](GuardedLoad load) {
    bool unguard = takesGuardsOf(held, load);
    for (std::string_view line : held) {
      if (unguard) {
        size_t at = line.find('@');
        size_t space = line.find_first_of(" \t", at);
        out.append(line.substr(0, at));
        out.append(trimLeft(line.substr(space)));
        ++changed;
      } else {
        out.append(line);
      }
      out.push_back('\n');
    }
    held.clear();
  };
  size_t start = 0;
  while (start < ptx.size()) {
    size_t end = ptx.find('\n', start);
    if (end == std::string_view::npos)
      end = ptx.size();
    std::string_view line = ptx.substr(start, end - start);
    start = end + 1;
    std::string_view pred = negatedMovePredicate(line);
    if (!pred.empty() && (held.empty() || pred == heldPred)) {
      heldPred = pred;
      held.push_back(line);
      continue;
    }
    flush(held.empty() ? GuardedLoad() : loadUnder(line, heldPred));
    if (!pred.empty()) { // a run under another predicate starts
      heldPred = pred;
      held.push_back(line);
      continue;
    }
    out.append(line);
    if (end < ptx.size())
      out.push_back('\n');
  }
  flush(GuardedLoad());
  return out;
}

} // namespace tritium::nvidia
