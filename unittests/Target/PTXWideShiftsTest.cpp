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
