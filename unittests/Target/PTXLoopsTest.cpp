// Tests of addressesLoopsAdvance: which lines make a loop and which
// additions count as an advanced address.
#include "tritium/Target/NVIDIA/PTXLoops.h"

#include <gtest/gtest.h>

using tritium::nvidia::addressesLoopsAdvance;

TEST(PTXLoops, CountsEachSelfAddedRegisterOncePerLoop) {
  const char *ptx = "\tmov.u64 \t%rd1, %rd9;\n"
                    "$L__BB0_2:\n"
                    "\tld.global.v4.b32 \t{%r1, %r2, %r3, %r4}, [%rd1];\n"
                    "\tadd.s64 \t%rd1, %rd1, 128;\n"
                    "\tadd.s64 \t%rd2, %rd2, %rd7;\n"
                    "\tadd.s64 \t%rd1, %rd1, 64;\n"
                    "\tsetp.ne.b32 \t%p1, %r5, 0;\n"
                    "\t@%p1 bra \t$L__BB0_2;\n"
                    "\tret;\n";
  EXPECT_EQ(addressesLoopsAdvance(ptx), 2u);
}

TEST(PTXLoops, OtherAdditionsAndCodeOutsideLoopsDoNotCount) {
  const char *ptx = "\tadd.s64 \t%rd5, %rd5, 8;\n"      // before any loop
                    "$L__BB0_1:\n"
                    "\tadd.s64 \t%rd3, %rd4, 8;\n"      // not to itself
                    "\tadd.s32 \t%r1, %r1, 1;\n"        // 32 bits
                    "\tadd.s64 \t%rd6, %rd6, %rd6;\n"
                    "\tbra.uni \t$L__BB0_1;\n"
                    "$L__BB0_3:\n"                      // branched to forward only
                    "\tadd.s64 \t%rd7, %rd7, 8;\n"
                    "\tret;\n";
  EXPECT_EQ(addressesLoopsAdvance(ptx), 1u);
}

TEST(PTXLoops, ForwardBranchesMakeNoLoopAndLoopsAdd) {
  const char *ptx = "\t@%p1 bra \t$L__BB0_4;\n"
                    "$L__BB0_2:\n"
                    "\tadd.s64 \t%rd1, %rd1, 32;\n"
                    "\t@%p2 bra \t$L__BB0_2;\n"
                    "$L__BB0_4:\n"
                    "$L__BB0_5:\n"
                    "\tadd.s64 \t%rd2, %rd2, 32;\n"
                    "\tadd.s64 \t%rd3, %rd3, 32;\n"
                    "\t@%p3 bra.uni \t$L__BB0_5;\n"
                    "\tret;";
  EXPECT_EQ(addressesLoopsAdvance(ptx), 3u);
  EXPECT_EQ(addressesLoopsAdvance(""), 0u);
}
