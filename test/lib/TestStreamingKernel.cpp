//===- TestStreamingKernel.cpp - print the streaming-kernel verdict ---------===//
//
// Test-only pass `test-print-streaming-kernel`: runs whyNotStreamingKernel on
// the module and emits a remark at the module: "streaming kernel" or
// "not a streaming kernel: <reason>".  lit tests check it with
// -verify-diagnostics.
//
//===----------------------------------------------------------------------===//
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "tritium/Analysis/StreamingKernel.h"

using namespace mlir;

namespace {
struct TestPrintStreamingKernelPass
    : public PassWrapper<TestPrintStreamingKernelPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintStreamingKernelPass)

  StringRef getArgument() const final { return "test-print-streaming-kernel"; }
  StringRef getDescription() const final {
    return "Emit whether the module is a streaming kernel, and if not why, as a remark";
  }

  void runOnOperation() override {
    std::string why = tritium::whyNotStreamingKernel(getOperation());
    getOperation().emitRemark(why.empty() ? "streaming kernel" : "not a streaming kernel: " + why);
  }
};
} // namespace

namespace tritium::test {
void registerTestStreamingKernelPass() { PassRegistration<TestPrintStreamingKernelPass>(); }
} // namespace tritium::test
