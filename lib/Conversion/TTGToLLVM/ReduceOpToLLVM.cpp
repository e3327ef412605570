//===- ReduceOpToLLVM.cpp - tt.reduce to LLVM ---===//
//
// (being written)
//
//===----------------------------------------------------------------------===//
#include "tritium/Analysis/Allocation.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"

using namespace mlir;
using namespace tritium;

void tritium::populateReduceOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                             RewritePatternSet &patterns) {}

int64_t tritium::getReduceScratchBytes(Operation *op) { return 0; }
