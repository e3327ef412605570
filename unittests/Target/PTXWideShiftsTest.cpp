// Tests of splitWideningShifts (which PTX lines it rewrites and into what)
// and of copiesWithPerThreadAsyncCopies (which kernels it is for).
#include "tritium/Target/NVIDIA/PTXWideShifts.h"

#include <gtest/gtest.h>

using tritium::nvidia::copiesWithPerThreadAsyncCopies;
using tritium::nvidia::splitWideningShifts;

TEST(PTXWideShifts, SignedAndUnsignedPowersOfTwo) {
  std::string ptx = "\tadd.s32 \t%r1, %r2, 3;\n"
                    "\tmul.wide.s32 \t%rd2, %r137, 2;\n"
                    "\tmul.wide.u32 \t%rd7, %r9, 16;\n"
                    "\tret;\n";
  EXPECT_EQ(splitWideningShifts(ptx), 2u);
  EXPECT_EQ(ptx, "\tadd.s32 \t%r1, %r2, 3;\n"
                 "\tcvt.s64.s32 \t%rd2, %r137;\n"
                 "\tshl.b64 \t%rd2, %rd2, 1;\n"
                 "\tcvt.u64.u32 \t%rd7, %r9;\n"
                 "\tshl.b64 \t%rd7, %rd7, 4;\n"
                 "\tret;\n");
}

TEST(PTXWideShifts, LargestShiftAndLastLineWithoutNewline) {
  std::string ptx = "\tmul.wide.s32 \t%rd1, %r1, 2147483648;";
  EXPECT_EQ(splitWideningShifts(ptx), 1u);
  EXPECT_EQ(ptx, "\tcvt.s64.s32 \t%rd1, %r1;\n\tshl.b64 \t%rd1, %rd1, 31;");
}

TEST(PTXWideShifts, LeavesEverythingElse) {
  const std::string original =
      "\tmul.wide.s32 \t%rd2, %r1, 6;\n"           // not a power of two
      "\tmul.wide.s32 \t%rd2, %r1, 1;\n"           // no shift to make
      "\tmul.wide.s32 \t%rd2, %r1, %r3;\n"         // a register factor
      "\t@%p1 mul.wide.s32 \t%rd2, %r1, 4;\n"      // predicated
      "\tmul.wide.s16 \t%r2, %rs1, 4;\n"           // 16-bit
      "\tmul.wide.s32 \t%rd2, %r1, 4294967296;\n"  // out of range
      "\tmul.lo.s64 \t%rd2, %rd1, 4;\n"
      "\t// mul.wide.s32 \t%rd2, %r1, 4;\n";
  std::string ptx = original;
  EXPECT_EQ(splitWideningShifts(ptx), 0u);
  EXPECT_EQ(ptx, original);
}

TEST(PTXWideShifts, OnlyKernelsWithPerThreadAsyncCopies) {
  EXPECT_TRUE(copiesWithPerThreadAsyncCopies(
      "\tcp.async.cg.shared.global [ %r1 + 0 ], [ %rd2 + 0 ], 0x10, %r3;\n"));
  EXPECT_TRUE(copiesWithPerThreadAsyncCopies(
      "\tcp.async.ca.shared.global [ %r1 + 0 ], [ %rd2 + 0 ], 0x4, %r3;\n"));
  EXPECT_FALSE(copiesWithPerThreadAsyncCopies(
      "\tcp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%r1], [%rd1, {%r2, %r3}], [%r4];\n\tcp.async.bulk.commit_group;\n"));
  EXPECT_FALSE(copiesWithPerThreadAsyncCopies(
      "\tld.global.b16 \t%rs1, [%rd159];\n\tmul.wide.s32 \t%rd2, %r1, 2;\n"));
}

TEST(PTXWideShifts, FusesAMultiplyIntoItsOnlyAddInTheBlock) {
  std::string ptx = "$L__BB0_2:\n"
                    "\tmul.lo.s32 \t%r5, %r4, %r3;\n"
                    "\tmul.wide.s32 \t%rd10, %r5, 2;\n"
                    "\tmul.wide.u32 \t%rd11, %r6, 16;\n"
                    "\tadd.s32 \t%r7, %r5, 1;\n"
                    "\tadd.s64 \t%rd12, %rd2, %rd10;\n"
                    "\tadd.s64 \t%rd13, %rd11, %rd3;\n"
                    "\tcp.async.cg.shared.global [%r1], [%rd12], 16, %r2;\n"
                    "\tst.global.b64 \t[%rd13], %rd12;\n"
                    // %rd100 and %rd110 are other registers than %rd10, %rd11
                    "\tst.global.b64 \t[%rd100], %rd110;\n";
  EXPECT_EQ(tritium::nvidia::fuseWideningMultiplyAdds(ptx), 2u);
  EXPECT_EQ(ptx, "$L__BB0_2:\n"
                 "\tmul.lo.s32 \t%r5, %r4, %r3;\n"
                 "\tadd.s32 \t%r7, %r5, 1;\n"
                 "\tmad.wide.s32 \t%rd12, %r5, 2, %rd2;\n"
                 "\tmad.wide.u32 \t%rd13, %r6, 16, %rd3;\n"
                 "\tcp.async.cg.shared.global [%r1], [%rd12], 16, %r2;\n"
                 "\tst.global.b64 \t[%rd13], %rd12;\n"
                 "\tst.global.b64 \t[%rd100], %rd110;\n");
}

TEST(PTXWideShifts, LeavesMultipliesWhoseProductIsUsedElsewhere) {
  const std::string original =
      // used twice
      "\tmul.wide.s32 \t%rd10, %r5, 2;\n"
      "\tadd.s64 \t%rd12, %rd2, %rd10;\n"
      "\tadd.s64 \t%rd13, %rd3, %rd10;\n"
      // its add in the next block (an offset widened once before a loop),
      // the label with a comment after it
      "\tmul.wide.s32 \t%rd20, %r6, 4;\n"
      "$L__BB0_1:                              // %loop\n"
      "\tadd.s64 \t%rd21, %rd1, %rd20;\n"
      "\t@%p1 bra \t$L__BB0_1;\n"
      // its source redefined before the add, alone or in a vector
      "\tmul.wide.s32 \t%rd30, %r7, 4;\n"
      "\tmov.u32 \t%r7, %r8;\n"
      "\tadd.s64 \t%rd31, %rd1, %rd30;\n"
      "\tmul.wide.s32 \t%rd32, %r11, 4;\n"
      "\tld.global.v2.b32 \t{%r12, %r11}, [%rd1];\n"
      "\tadd.s64 \t%rd33, %rd1, %rd32;\n"
      // a signed factor beyond a signed 32-bit immediate
      "\tmul.wide.s32 \t%rd34, %r13, 2147483648;\n"
      "\tadd.s64 \t%rd35, %rd1, %rd34;\n"
      // used by something other than an add, and added to itself
      "\tmul.wide.s32 \t%rd40, %r9, 4;\n"
      "\tld.global.b32 \t%r10, [%rd40];\n"
      "\tmul.wide.s32 \t%rd41, %r9, 4;\n"
      "\tadd.s64 \t%rd42, %rd41, %rd41;\n"
      // a predicated add
      "\tmul.wide.s32 \t%rd50, %r9, 4;\n"
      "\t@%p2 add.s64 \t%rd51, %rd1, %rd50;\n";
  std::string ptx = original;
  EXPECT_EQ(tritium::nvidia::fuseWideningMultiplyAdds(ptx), 0u);
  EXPECT_EQ(ptx, original);
}

TEST(PTXWideShifts, FusesOneMultiplyOfAnAddOfTwoProducts) {
  // (the 64-bit offset of a tile row in flash-linear-attention's
  // chunk_gla_fwd_kernel_o: both products' only use is the add)
  std::string ptx = "\tmul.wide.u32 \t%rd42, %r28, 262144;\n"
                    "\tmul.wide.s32 \t%rd43, %r39, 4096;\n"
                    "\tadd.s64 \t%rd44, %rd42, %rd43;\n"
                    "\tld.global.b32 \t%r1, [%rd44];\n";
  EXPECT_EQ(tritium::nvidia::fuseWideningMultiplyAdds(ptx), 1u);
  EXPECT_EQ(ptx, "\tmul.wide.s32 \t%rd43, %r39, 4096;\n"
                 "\tmad.wide.u32 \t%rd44, %r28, 262144, %rd43;\n"
                 "\tld.global.b32 \t%r1, [%rd44];\n");
}

TEST(PTXWideShifts, FusesAcrossDebugLabelsAndLocations) {
  std::string ptx = "\tmul.wide.s32 \t%rd10, %r5, 2;\n"
                    "$L__tmp3:\n"
                    "\t.loc\t1 42 20\n"
                    "\tadd.s64 \t%rd12, %rd2, %rd10;\n";
  EXPECT_EQ(tritium::nvidia::fuseWideningMultiplyAdds(ptx), 1u);
  EXPECT_EQ(ptx, "$L__tmp3:\n"
                 "\t.loc\t1 42 20\n"
                 "\tmad.wide.s32 \t%rd12, %r5, 2, %rd2;\n");
}
