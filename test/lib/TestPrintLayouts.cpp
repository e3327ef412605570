//===- TestPrintLayouts.cpp - print the thread map of every layout ---------===//
//
// Test-only pass `tritium-test-print-layouts`: for every op result that is a
// tensor with a distributed layout, prints to stdout the result's type, the
// values each thread holds, and (for rank <= 2) the table of thread ids
// holding each element, as the layout algebra computes them.  lit tests check
// the layout attributes end to end with it.
//
//===----------------------------------------------------------------------===//
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

using namespace mlir;

namespace {
struct TestPrintLayoutsPass
    : public PassWrapper<TestPrintLayoutsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintLayoutsPass)

  StringRef getArgument() const final { return "tritium-test-print-layouts"; }
  StringRef getDescription() const final {
    return "Print which threads hold each element of every distributed tensor";
  }

  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      for (OpResult result : op->getResults()) {
        auto layout = tritium::ttg::getDistributedEncoding(result.getType());
        if (!layout)
          continue;
        auto tensor = cast<RankedTensorType>(result.getType());
        tritium::layout::LinearLayout linear =
            layout.toLinearLayout(tensor.getShape());
        llvm::outs() << "layout of " << op->getName() << " result #"
                     << result.getResultNumber() << ": " << tensor << "\n"
                     << "elems per thread: " << linear.elemsPerThread() << "\n"
                     << "bases: " << linear.toString() << "\n";
        if (tensor.getRank() == 2)
          llvm::outs() << linear.threadTable();
      }
    });
  }
};
} // namespace

namespace tritium::test {
void registerTestPasses() { PassRegistration<TestPrintLayoutsPass>(); }
} // namespace tritium::test
