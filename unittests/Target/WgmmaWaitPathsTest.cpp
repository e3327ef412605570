//===- WgmmaWaitPathsTest.cpp - Tests for wgmma waits moved onto paths ----===//
//
// waitOnlyOnMmaPaths on small LLVM IR functions: the wait after a loop that
// may run no iteration moves onto the loop's exit edge (split: the loop
// block has two successors), the constant path gets the constants; a wait
// on a loop's back edge, and one every path of which is waited, stay.
//
//===----------------------------------------------------------------------===//

#include "tritium/Target/NVIDIA/WgmmaWaitPaths.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <memory>

using namespace tritium::nvidia;

namespace {

std::unique_ptr<llvm::Module> parse(llvm::LLVMContext &context,
                                    const char *ir) {
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(ir, error, context);
  EXPECT_TRUE(module) << error.getMessage().str();
  return module;
}

/// The blocks of `function` holding a wgmma.wait_group, by name.
std::vector<std::string> waitBlocks(llvm::Function &function) {
  std::vector<std::string> names;
  for (llvm::BasicBlock &block : function)
    for (llvm::Instruction &inst : block)
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
        if (auto *code = llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand());
            code && llvm::StringRef(code->getAsmString()).starts_with("wgmma.wait_group"))
          names.push_back(block.getName().str());
  return names;
}

// A loop of asynchronous MMAs that may run no iteration; the wait after it
// takes the loop's accumulator, or 0.0 when the loop did not run.
const char *kLoopThatMayNotRun = R"(
define void @k(i1 %enter, i1 %again, ptr %out) {
entry:
  br i1 %enter, label %loop, label %exit
loop:
  %acc = phi { float, float } [ zeroinitializer, %entry ], [ %next, %loop ]
  %a = extractvalue { float, float } %acc, 0
  %b = extractvalue { float, float } %acc, 1
  %next = call { float, float } asm sideeffect "wgmma.mma_async.sync.aligned;", "=f,=f,0,1"(float %a, float %b)
  br i1 %again, label %loop, label %exit
exit:
  %res = phi { float, float } [ zeroinitializer, %entry ], [ %next, %loop ]
  %x = extractvalue { float, float } %res, 0
  %y = extractvalue { float, float } %res, 1
  %w = call { float, float } asm sideeffect "wgmma.wait_group.sync.aligned 0;", "=f,=f,0,1"(float %x, float %y)
  %v0 = extractvalue { float, float } %w, 0
  %v1 = extractvalue { float, float } %w, 1
  %s = fadd float %v0, %v1
  store float %s, ptr %out
  ret void
}
)";

TEST(WgmmaWaitPaths, TheWaitAfterALoopMovesOntoItsExitEdge) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = parse(context, kLoopThatMayNotRun);
  ASSERT_TRUE(module);
  llvm::Function &function = *module->getFunction("k");
  EXPECT_EQ(waitOnlyOnMmaPaths(*module), 1u);
  EXPECT_FALSE(llvm::verifyModule(*module, &llvm::errs()));
  // The wait sits in the block splitting loop -> exit, and exit merges its
  // fields with the constants of the path from entry.
  std::vector<std::string> blocks = waitBlocks(function);
  ASSERT_EQ(blocks.size(), 1u);
  llvm::BasicBlock *edge = nullptr;
  for (llvm::BasicBlock &block : function)
    if (block.getName() == blocks.front())
      edge = &block;
  ASSERT_TRUE(edge);
  EXPECT_EQ(edge->getSinglePredecessor()->getName(), "loop");
  EXPECT_EQ(edge->getSingleSuccessor()->getName(), "exit");
  llvm::BasicBlock *exit = edge->getSingleSuccessor();
  int fieldPhis = 0;
  for (llvm::PHINode &phi : exit->phis()) {
    ASSERT_TRUE(phi.getType()->isFloatTy());
    auto *fromEntry = llvm::dyn_cast<llvm::ConstantFP>(
        phi.getIncomingValueForBlock(&function.getEntryBlock()));
    ASSERT_TRUE(fromEntry);
    EXPECT_TRUE(fromEntry->isZero());
    EXPECT_TRUE(llvm::isa<llvm::ExtractValueInst>(phi.getIncomingValueForBlock(edge)));
    ++fieldPhis;
  }
  EXPECT_EQ(fieldPhis, 2);
}

TEST(WgmmaWaitPaths, AWaitOnABackEdgeStays) {
  // The wait inside the loop takes the previous iteration's MMAs: moved
  // onto the back edge it would wait at the end of that iteration.
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = parse(context, R"(
define void @k(i1 %again, ptr %out) {
entry:
  br label %loop
loop:
  %acc = phi float [ 0.0, %entry ], [ %next, %loop ]
  %w = call { float, float } asm sideeffect "wgmma.wait_group.sync.aligned 0;", "=f,=f,0,1"(float %acc, float 1.0)
  %v = extractvalue { float, float } %w, 0
  %next = call float asm sideeffect "wgmma.mma_async.sync.aligned;", "=f,0"(float %v)
  br i1 %again, label %loop, label %exit
exit:
  store float %next, ptr %out
  ret void
}
)");
  ASSERT_TRUE(module);
  EXPECT_EQ(waitOnlyOnMmaPaths(*module), 0u);
  EXPECT_EQ(waitBlocks(*module->getFunction("k")),
            std::vector<std::string>{"loop"});
}

TEST(WgmmaWaitPaths, AWaitEveryPathNeedsStays) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = parse(context, R"(
define void @k(i1 %c, float %p, float %q, ptr %out) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %exit
b:
  br label %exit
exit:
  %r = phi float [ %p, %a ], [ %q, %b ]
  %w = call { float, float } asm sideeffect "wgmma.wait_group.sync.aligned 0;", "=f,=f,0,1"(float %r, float 1.0)
  %v = extractvalue { float, float } %w, 0
  store float %v, ptr %out
  ret void
}
)");
  ASSERT_TRUE(module);
  EXPECT_EQ(waitOnlyOnMmaPaths(*module), 0u);
}

} // namespace
