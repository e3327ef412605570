//===- Passes.h - TTGIR to LLVM dialect lowering ----------------*- C++ -*-===//
//
// Declares the passes of Passes.td (ttg-legalize-reduction-layouts,
// ttg-allocate-shared-memory, ttg-membar and
// convert-ttg-to-llvm): their create functions, option structs and
// registration.  The lowering itself is callable without a pass through
// Patterns.h.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CONVERSION_TTGTOLLVM_PASSES_H
#define TRITIUM_CONVERSION_TTGTOLLVM_PASSES_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tritium {

#define GEN_PASS_DECL
#include "tritium/Conversion/TTGToLLVM/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tritium/Conversion/TTGToLLVM/Passes.h.inc"

} // namespace tritium

#endif // TRITIUM_CONVERSION_TTGTOLLVM_PASSES_H
