//===- PTXWideShifts.cpp - widening multiplies by 2^k as sign-extend + shift ----===//
//
// A line-by-line rewrite of the PTX text that NVPTX emitted (see the header
// for why).  Only the exact shape LLVM prints is matched: an optional tab,
// `mul.wide.s32` or `mul.wide.u32`, whitespace, a 64-bit destination, a
// 32-bit source and a decimal power of two; anything else (a predicated
// multiply, a register or non-power-of-two factor) is left as it is.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/NVIDIA/PTXWideShifts.h"

#include <cctype>
#include <cstdint>
#include <string_view>

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

/// The replacement of one line, or an empty string when it is not a
/// widening multiply by a power of two.
std::string rewriteLine(std::string_view line) {
  std::string_view rest = trimLeft(line);
  bool isSigned;
  if (rest.substr(0, 13) == "mul.wide.s32 " || rest.substr(0, 13) == "mul.wide.s32\t")
    isSigned = true;
  else if (rest.substr(0, 13) == "mul.wide.u32 " || rest.substr(0, 13) == "mul.wide.u32\t")
    isSigned = false;
  else
    return {};
  rest.remove_prefix(13);
  std::string_view dst, src;
  if (!takeRegister(rest, "%rd", dst) || !takeChar(rest, ',') ||
      !takeRegister(rest, "%r", src) || !takeChar(rest, ','))
    return {};
  int shift = takePowerOfTwo(rest);
  if (shift < 0 || !takeChar(rest, ';') || !trimLeft(rest).empty())
    return {};
  std::string out;
  out += isSigned ? "\tcvt.s64.s32 \t" : "\tcvt.u64.u32 \t";
  out.append(dst).append(", ").append(src).append(";\n\tshl.b64 \t");
  out.append(dst).append(", ").append(dst).append(", ").append(std::to_string(shift));
  out += ";";
  return out;
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
