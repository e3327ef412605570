//===- Passes.h - TTGIR to LLVM dialect lowering ----------------*- C++ -*-===//
//
// Declares the passes of Passes.td (ttg-legalize-reduction-layouts,
// ttg-allocate-shared-memory, ttg-membar, convert-ttg-to-llvm,
// lower-loops-to-llvm and llvm-hoist-before-barrier-waits): their create
// functions, option structs and registration.  The lowering itself is
// callable without a pass through Patterns.h.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CONVERSION_TTGTOLLVM_PASSES_H
#define TRITIUM_CONVERSION_TTGTOLLVM_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
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
