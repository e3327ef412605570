//===- TestAxisInfo.cpp - print axis info as remarks ------------------------===//
//
// Test-only pass `test-print-axis-info`: runs the axis-info analysis over the
// module and emits, at every op, one remark per tensor result:
//   contiguity = [..], divisibility = [..], constancy = [..]
// lit tests check the remarks with -verify-diagnostics.
//
//===----------------------------------------------------------------------===//
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "tritium/Analysis/AxisInfo.h"

using namespace mlir;

namespace {
struct TestPrintAxisInfoPass
    : public PassWrapper<TestPrintAxisInfoPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintAxisInfoPass)

  StringRef getArgument() const final { return "test-print-axis-info"; }
  StringRef getDescription() const final {
    return "Emit the contiguity, divisibility and constancy of every tensor "
           "result as a remark";
  }

  void runOnOperation() override {
    tritium::ModuleAxisInfo axisInfo(getOperation());
    if (!axisInfo.succeeded()) {
      getOperation().emitError("axis-info analysis failed");
      return signalPassFailure();
    }
    getOperation().walk([&](Operation *op) {
      for (Value result : op->getResults()) {
        if (!isa<RankedTensorType>(result.getType()))
          continue;
        std::string text;
        llvm::raw_string_ostream os(text);
        axisInfo.getAxisInfo(result).print(os);
        op->emitRemark(text);
      }
    });
  }
};
} // namespace

namespace tritium::test {
void registerTestAxisInfoPass() { PassRegistration<TestPrintAxisInfoPass>(); }
} // namespace tritium::test
