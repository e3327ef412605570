//===- Passes.h - Triton IR to LLVM IR for the host CPU ---------*- C++ -*-===//
//
// Declares convert-tt-to-host-llvm (from Passes.td).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_CPU_PASSES_H
#define TRITIUM_TARGET_CPU_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace tritium {

#define GEN_PASS_DECL
#include "tritium/Target/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tritium/Target/CPU/Passes.h.inc"

} // namespace tritium

#endif // TRITIUM_TARGET_CPU_PASSES_H
