//===- tritium-opt.cpp - mlir-opt for Tritium ------------------------------===//
//
// Parses, verifies and prints IR of Tritium's dialects (and the upstream ones
// kernels use) and runs any registered pass or pipeline on it, exactly as the
// compiler does.  Every pass is tested through this tool with lit.
//
//===----------------------------------------------------------------------===//
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "tritium/InitAll.h"

namespace tritium::test {
void registerTestPasses();
void registerTestAxisInfoPass();
} // namespace tritium::test

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  tritium::registerAllDialects(registry);
  tritium::registerAllPasses();
  tritium::test::registerTestPasses();
  tritium::test::registerTestAxisInfoPass();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Tritium optimizer driver\n", registry));
}
