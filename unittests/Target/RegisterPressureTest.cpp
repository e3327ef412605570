// Tests of maxLiveWords: what a value weighs, liveness across blocks and
// phis, and loads from shared memory counted from their first use.
#include "tritium/Target/NVIDIA/RegisterPressure.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <memory>

using tritium::nvidia::maxLiveWords;

namespace {
unsigned wordsOf(const char *ir) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(ir, error, context);
  EXPECT_TRUE(module) << error.getMessage().str();
  if (!module)
    return 0;
  return maxLiveWords(*module->getFunction("f"));
}
} // namespace

TEST(RegisterPressure, ValuesWeighTheRegistersNVPTXGivesThem) {
  // Live together before the store: %a (i64, 2), %b (<2 x half>, 1),
  // %c (<4 x float>, 4), %d ({i32, i32}, 2), %p (ptr, 2); %q (i1) none.
  const char *ir = R"(
    define void @f(ptr %p, i64 %x, <2 x half> %h, <4 x float> %v, i32 %i) {
      %a = add i64 %x, 1
      %b = fadd <2 x half> %h, %h
      %c = fadd <4 x float> %v, %v
      %d0 = insertvalue {i32, i32} undef, i32 %i, 0
      %d = insertvalue {i32, i32} %d0, i32 %i, 1
      %q = icmp eq i64 %a, 0
      call void @use(i64 %a, <2 x half> %b, <4 x float> %c, {i32, i32} %d, i1 %q, ptr %p)
      ret void
    }
    declare void @use(i64, <2 x half>, <4 x float>, {i32, i32}, i1, ptr)
  )";
  // At the call: a 2 + b 1 + c 4 + d 2 + p 2 = 11; before %d the
  // arguments x, h, v, i and p are live with a, b, c and d0 (12 at most).
  EXPECT_EQ(wordsOf(ir), 12u);
}

TEST(RegisterPressure, LoopCarriedValuesStayLiveAcrossTheLoop) {
  // The two accumulators and the pointer are live through the loop body;
  // the loaded values die at their add.
  const char *ir = R"(
    define void @f(ptr addrspace(1) %p, i32 %n) {
    entry:
      br label %loop
    loop:
      %i = phi i32 [ 0, %entry ], [ %next, %loop ]
      %s = phi <4 x float> [ zeroinitializer, %entry ], [ %s1, %loop ]
      %t = phi <4 x float> [ zeroinitializer, %entry ], [ %t1, %loop ]
      %x = load <4 x float>, ptr addrspace(1) %p
      %s1 = fadd <4 x float> %s, %x
      %t1 = fmul <4 x float> %t, %x
      %next = add i32 %i, 1
      %done = icmp eq i32 %next, %n
      br i1 %done, label %exit, label %loop
    exit:
      %r = fadd <4 x float> %s1, %t1
      store <4 x float> %r, ptr addrspace(1) %p
      ret void
    }
  )";
  // Before %s1: s 4 + t 4 + x 4 + p 2 + n 1 + i 1 = 16.
  EXPECT_EQ(wordsOf(ir), 16u);
}

TEST(RegisterPressure, ConstantOffsetsFromAnAddressAreThatAddress) {
  // Four loads at constant offsets from %p: ptxas reads them as [%p+4k],
  // so the addresses take no register of their own; an offset the kernel
  // computes (%q) takes two.
  const char *constant = R"(
    define float @f(ptr addrspace(1) %p) {
      %a = load float, ptr addrspace(1) %p
      %p1 = getelementptr float, ptr addrspace(1) %p, i32 1
      %b = load float, ptr addrspace(1) %p1
      %p2 = getelementptr float, ptr addrspace(1) %p, i32 2
      %c = load float, ptr addrspace(1) %p2
      %p3 = getelementptr float, ptr addrspace(1) %p, i32 3
      %d = load float, ptr addrspace(1) %p3
      %s1 = fadd float %a, %b
      %s2 = fadd float %s1, %c
      %s3 = fadd float %s2, %d
      ret float %s3
    }
  )";
  const char *computed = R"(
    define float @f(ptr addrspace(1) %p, i32 %i) {
      %a = load float, ptr addrspace(1) %p
      %q = getelementptr float, ptr addrspace(1) %p, i32 %i
      %b = load float, ptr addrspace(1) %q
      %c = load float, ptr addrspace(1) %p
      %s1 = fadd float %a, %b
      %s2 = fadd float %s1, %c
      ret float %s2
    }
  )";
  // At %d's load: a, b and c with p (2): 5.  With %q: before its load,
  // a, p and q (1 + 2 + 2).
  EXPECT_EQ(wordsOf(constant), 5u);
  EXPECT_EQ(wordsOf(computed), 5u);
}
