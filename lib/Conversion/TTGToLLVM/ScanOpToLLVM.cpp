//===- ScanOpToLLVM.cpp - tt.scan to LLVM ---===//
//
// (being written)
//
//===----------------------------------------------------------------------===//
#include "tritium/Analysis/Allocation.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"

using namespace mlir;
using namespace tritium;

void tritium::populateScanOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                             RewritePatternSet &patterns) {}

int64_t tritium::getScanScratchBytes(Operation *op) { return 0; }
