//===- GatherHistogramOpToLLVM.cpp - tt.gather, tt.histogram to LLVM ---===//
//
// (being written)
//
//===----------------------------------------------------------------------===//
#include "tritium/Analysis/Allocation.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"

using namespace mlir;
using namespace tritium;

void tritium::populateGatherHistogramOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                             RewritePatternSet &patterns) {}

int64_t tritium::getGatherScratchBytes(Operation *op) { return 0; }

int64_t tritium::getHistogramScratchBytes(Operation *op) { return 0; }
