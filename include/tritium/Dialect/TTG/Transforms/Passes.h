//===- Passes.h - ttg dialect transformations -------------------*- C++ -*-===//
//
// Declares the ttg passes (from Passes.td): their create functions and
// registration.  The transformations themselves are callable without a pass
// through Transforms.h.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_DIALECT_TTG_TRANSFORMS_PASSES_H
#define TRITIUM_DIALECT_TTG_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

namespace tritium::ttg {

#define GEN_PASS_DECL
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"

} // namespace tritium::ttg

#endif // TRITIUM_DIALECT_TTG_TRANSFORMS_PASSES_H
