//===- PTXWideShifts.cpp - widening multiplies by 2^k in the PTX ---------===//
//
// Line-by-line rewrites of the PTX text that NVPTX emitted (see the header
// for why).  Only the exact shape LLVM prints is matched: an optional tab,
// `mul.wide.s32` or `mul.wide.u32`, whitespace, a 64-bit destination, a
// 32-bit source and a decimal power of two; anything else (a predicated
// multiply, a register or non-power-of-two factor) is left as it is.  The
// fusion into mad.wide looks from the multiply down its block for the
// first line that names the product: an unpredicated `add.s64` of it and
// another register, the product's only other occurrence in the PTX; a
// label (but a debug label `$L__tmpN`), branch, return or brace, or a line
// that writes the multiply's source (its first operand or braced
// destination list names it), before it stops the search.  An add of two
// such products takes the first; the second stays a multiply, the addend.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/NVIDIA/PTXWideShifts.h"

#include <cctype>
#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

std::string_view trimLeft(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  return text;
}

/// A register name at the front of `text` ("%rd12"), removed from it.
bool takeRegister(std::string_view &text, std::string_view prefix,
                  std::string_view &name) {
  text = trimLeft(text);
  if (text.substr(0, prefix.size()) != prefix)
    return false;
  size_t end = prefix.size();
  while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
    ++end;
  if (end == prefix.size())
    return false;
  name = text.substr(0, end);
  text.remove_prefix(end);
  return true;
}

bool takeChar(std::string_view &text, char c) {
  text = trimLeft(text);
  if (text.empty() || text.front() != c)
    return false;
  text.remove_prefix(1);
  return true;
}

/// log2 of a decimal power of two in 2..2^31 at the front of `text`, or -1.
int takePowerOfTwo(std::string_view &text) {
  text = trimLeft(text);
  uint64_t value = 0;
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])) &&
         digits < 11)
    value = value * 10 + (text[digits++] - '0');
  if (digits == 0 || value < 2 || value > (uint64_t(1) << 31) || (value & (value - 1)))
    return -1;
  text.remove_prefix(digits);
  int log = 0;
  while ((uint64_t(1) << log) != value)
    ++log;
  return log;
}

/// A widening multiply by a power of two: `mul.wide.{s,u}32 %rdD, %rS, 2^k;`.
struct WideningShift {
  bool isSigned;
  std::string_view dst, src;
  int shift;
};

/// `line` as a widening multiply by a power of two (unpredicated, in the exact
/// shape LLVM prints), or nullopt.
std::optional<WideningShift> parseWideningShift(std::string_view line) {
  std::string_view rest = trimLeft(line);
  WideningShift multiply;
  if (rest.substr(0, 13) == "mul.wide.s32 " || rest.substr(0, 13) == "mul.wide.s32\t")
    multiply.isSigned = true;
  else if (rest.substr(0, 13) == "mul.wide.u32 " || rest.substr(0, 13) == "mul.wide.u32\t")
    multiply.isSigned = false;
  else
    return std::nullopt;
  rest.remove_prefix(13);
  if (!takeRegister(rest, "%rd", multiply.dst) || !takeChar(rest, ',') ||
      !takeRegister(rest, "%r", multiply.src) || !takeChar(rest, ','))
    return std::nullopt;
  multiply.shift = takePowerOfTwo(rest);
  if (multiply.shift < 0 || !takeChar(rest, ';') || !trimLeft(rest).empty())
    return std::nullopt;
  return multiply;
}

/// The replacement of one line, or an empty string when it is not a
/// widening multiply by a power of two.
std::string rewriteLine(std::string_view line) {
  std::optional<WideningShift> multiply = parseWideningShift(line);
  if (!multiply)
    return {};
  std::string out;
  out += multiply->isSigned ? "\tcvt.s64.s32 \t" : "\tcvt.u64.u32 \t";
  out.append(multiply->dst).append(", ").append(multiply->src).append(";\n\tshl.b64 \t");
  out.append(multiply->dst).append(", ").append(multiply->dst).append(", ");
  out += std::to_string(multiply->shift);
  out += ";";
  return out;
}

/// The lines of `text`, without their newlines.
std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      if (start < text.size())
        lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

bool isRegisterChar(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

/// How many times each 64-bit register ("%rd12") occurs in `text`.
std::unordered_map<std::string_view, unsigned> registerOccurrences(std::string_view text) {
  std::unordered_map<std::string_view, unsigned> count;
  for (size_t at = text.find("%rd"); at != std::string_view::npos;
       at = text.find("%rd", at + 3)) {
    size_t end = at + 3;
    while (end < text.size() && isRegisterChar(text[end]))
      ++end;
    if (end > at + 3)
      ++count[text.substr(at, end - at)];
  }
  return count;
}

/// Whether the register `name` ("%rd12", not "%rd123") occurs in `line`.
bool occursIn(std::string_view line, std::string_view name) {
  for (size_t at = line.find(name); at != std::string_view::npos;
       at = line.find(name, at + 1)) {
    size_t after = at + name.size();
    if (after >= line.size() || !isRegisterChar(line[after]))
      return true;
  }
  return false;
}

/// Whether an instruction line writes the register `name`: whether its
/// first operand (its destination, or the braced list of a vector's) names
/// it.
bool writesRegister(std::string_view line, std::string_view name) {
  std::string_view rest = trimLeft(line);
  size_t space = rest.find_first_of(" \t");
  if (space == std::string_view::npos)
    return false;
  rest = trimLeft(rest.substr(space));
  size_t end = rest.find(rest.substr(0, 1) == "{" ? '}' : ',');
  if (end == std::string_view::npos)
    end = rest.find(';');
  return occursIn(rest.substr(0, end == std::string_view::npos ? rest.size() : end), name);
}

/// Whether `line` ends a basic block or starts one: a label (but the
/// debug labels `$L__tmpN`, which no branch targets), a branch, a return or
/// a brace.  A trailing comment is not part of the line.
bool isBlockBoundary(std::string_view line) {
  std::string_view rest = trimLeft(line.substr(0, line.find("//")));
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t' || rest.back() == '\r'))
    rest.remove_suffix(1);
  if (rest.empty())
    return false;
  if (rest.front() == '{' || rest.front() == '}')
    return true;
  if (rest.back() == ':')
    return rest.substr(0, 7) != "$L__tmp";
  if (rest.front() == '@') { // a predicated instruction: a branch ends the block
    size_t space = rest.find_first_of(" \t");
    rest = space == std::string_view::npos ? std::string_view() : trimLeft(rest.substr(space));
  }
  return rest.substr(0, 3) == "bra" || rest.substr(0, 3) == "ret" || rest.substr(0, 4) == "exit";
}

/// `line` as `add.s64 %rdX, %rdA, %rdB;` with `operand` one of A and B (not
/// both): the destination and the other addend, or nullopt.
std::optional<std::pair<std::string_view, std::string_view>>
parseAddOf(std::string_view line, std::string_view operand) {
  std::string_view rest = trimLeft(line);
  if (rest.substr(0, 8) != "add.s64 " && rest.substr(0, 8) != "add.s64\t")
    return std::nullopt;
  rest.remove_prefix(8);
  std::string_view dst, a, b;
  if (!takeRegister(rest, "%rd", dst) || !takeChar(rest, ',') ||
      !takeRegister(rest, "%rd", a) || !takeChar(rest, ',') ||
      !takeRegister(rest, "%rd", b) || !takeChar(rest, ';') ||
      !trimLeft(rest).empty())
    return std::nullopt;
  if ((a == operand) == (b == operand))
    return std::nullopt;
  return std::make_pair(dst, a == operand ? b : a);
}

} // namespace

bool tritium::nvidia::copiesWithPerThreadAsyncCopies(std::string_view ptx) {
  return ptx.find("cp.async.ca.") != std::string_view::npos ||
         ptx.find("cp.async.cg.") != std::string_view::npos;
}

unsigned tritium::nvidia::splitWideningShifts(std::string &ptx) {
  std::string out;
  out.reserve(ptx.size() + ptx.size() / 16);
  unsigned rewritten = 0;
  size_t start = 0;
  while (start < ptx.size()) {
    size_t end = ptx.find('\n', start);
    size_t next = end == std::string::npos ? ptx.size() : end + 1;
    std::string_view line(ptx.data() + start,
                          (end == std::string::npos ? ptx.size() : end) - start);
    std::string replacement = rewriteLine(line);
    if (replacement.empty()) {
      out.append(ptx, start, next - start);
    } else {
      out += replacement;
      if (end != std::string::npos)
        out += '\n';
      ++rewritten;
    }
    start = next;
  }
  if (rewritten)
    ptx = std::move(out);
  return rewritten;
}

unsigned tritium::nvidia::fuseWideningMultiplyAdds(std::string &ptx) {
  std::vector<std::string_view> lines = splitLines(ptx);
  std::unordered_map<std::string_view, unsigned> uses = registerOccurrences(ptx);
  // Per line: kept as it is, dropped (a multiply fused into its add), or
  // replaced (the add, now a mad.wide).
  std::vector<std::string> replaced(lines.size());
  std::vector<bool> dropped(lines.size(), false);
  unsigned fused = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::optional<WideningShift> multiply = parseWideningShift(lines[i]);
    // The product must have no other use than the add (its definition and
    // that use are its only occurrences).
    auto count = multiply ? uses.find(multiply->dst) : uses.end();
    if (count == uses.end() || count->second != 2)
      continue;
    // mad.wide.s32 takes its factor as a signed 32-bit immediate.
    if (multiply->isSigned && multiply->shift > 30)
      continue;
    for (size_t j = i + 1; j < lines.size(); ++j) {
      if (isBlockBoundary(lines[j]) || writesRegister(lines[j], multiply->src))
        break;
      if (!occursIn(lines[j], multiply->dst))
        continue;
      // An add of two products takes the first of them: the second stays a
      // multiply, whose product the mad.wide then adds.
      if (!replaced[j].empty())
        break;
      if (auto add = parseAddOf(lines[j], multiply->dst)) {
        std::string mad = multiply->isSigned ? "\tmad.wide.s32 \t" : "\tmad.wide.u32 \t";
        mad.append(add->first).append(", ").append(multiply->src).append(", ");
        mad += std::to_string(uint64_t(1) << multiply->shift);
        mad.append(", ").append(add->second).append(";");
        replaced[j] = std::move(mad);
        dropped[i] = true;
        ++fused;
      }
      break;
    }
  }
  if (!fused)
    return 0;
  std::string out;
  out.reserve(ptx.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    if (dropped[i])
      continue;
    if (!replaced[i].empty())
      out += replaced[i];
    else
      out.append(lines[i]);
    if (i + 1 < lines.size() || (!ptx.empty() && ptx.back() == '\n'))
      out += '\n';
  }
  ptx = std::move(out);
  return fused;
}
