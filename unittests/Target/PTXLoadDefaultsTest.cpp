//===- PTXLoadDefaultsTest.cpp - Tests for masked loads' defaults ---------===//
//
// withUnconditionalLoadDefaults on PTX as the load lowering writes it: the
// guards of a load's default moves go, other negated moves stay.
//
//===----------------------------------------------------------------------===//

#include "tritium/Target/NVIDIA/PTXLoadDefaults.h"

#include <gtest/gtest.h>

using namespace tritium::nvidia;

namespace {
/// `ptx` comes back as it is, no move unguarded.
void expectUnchanged(const std::string &ptx) {
  unsigned changed = 0;
  EXPECT_EQ(withUnconditionalLoadDefaults(ptx, changed), ptx);
  EXPECT_EQ(changed, 0u);
}
} // namespace

TEST(PTXLoadDefaults, ADefaultBeforeItsLoadIsWrittenUnconditionally) {
  std::string ptx = "\t// begin inline asm\n"
                    "\t@!%p4 mov.u32 %r230, 0x0;\n"
                    "@!%p4 mov.u32 %r231, %r9;\n"
                    "@%p4 ld.global.v2.b32 { %r230, %r231 }, [ %rd61 + 0 ];\n"
                    "\t// end inline asm\n";
  unsigned changed = 0;
  std::string out = withUnconditionalLoadDefaults(ptx, changed);
  EXPECT_EQ(changed, 2u);
  EXPECT_EQ(out, "\t// begin inline asm\n"
                 "\tmov.u32 %r230, 0x0;\n"
                 "mov.u32 %r231, %r9;\n"
                 "@%p4 ld.global.v2.b32 { %r230, %r231 }, [ %rd61 + 0 ];\n"
                 "\t// end inline asm\n");
}

TEST(PTXLoadDefaults, OtherNegatedMovesStay) {
  // a move under another predicate than the load's, and one before a
  // store: both keep their guards
  std::string ptx = "@!%p1 mov.u32 %r1, 0x0;\n"
                    "@%p2 ld.global.b32 %r1, [ %rd1 + 0 ];\n"
                    "@!%p3 mov.u32 %r2, 0x0;\n"
                    "@%p3 st.global.b32 [ %rd2 + 0 ], %r2;\n";
  expectUnchanged(ptx);
}

TEST(PTXLoadDefaults, AMoveIntoARegisterTheLoadDoesNotWriteStays) {
  // unguarded, the move would overwrite %r7 where the load runs
  expectUnchanged("@!%p1 mov.u32 %r7, 0x0;\n"
                  "@%p1 ld.global.b32 %r70, [ %rd1 + 0 ];\n");
}

TEST(PTXLoadDefaults, AMoveIntoARegisterTheAddressReadsStays) {
  // unguarded, the move would change the address the load reads
  expectUnchanged("@!%p1 mov.u64 %rd1, 0x0;\n"
                  "@%p1 ld.global.b64 %rd1, [%rd1];\n");
}
