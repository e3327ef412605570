//===- GatherHistogramOpToLLVM.cpp - tt.gather, tt.histogram to LLVM ---===//
//
// (being written)
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTGToLLVM/Patterns.h"

using namespace mlir;
using namespace tritium;

void tritium::populateGatherHistogramOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                             RewritePatternSet &patterns) {}
