//===- ReduceOpToLLVM.cpp - tt.reduce to LLVM ---===//
//
// (being written)
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTGToLLVM/Patterns.h"

using namespace mlir;
using namespace tritium;

void tritium::populateReduceOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                             RewritePatternSet &patterns) {}
