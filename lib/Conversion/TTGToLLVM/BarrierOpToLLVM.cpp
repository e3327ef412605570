//===- BarrierOpToLLVM.cpp - ttg.barrier to LLVM ---===//
//
// (being written)
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTGToLLVM/Patterns.h"

using namespace mlir;
using namespace tritium;

void tritium::populateBarrierOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                             RewritePatternSet &patterns) {}
