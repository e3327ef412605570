//===- Passes.h - tt dialect transformations --------------------*- C++ -*-===//
//
// Declares the tt passes (from Passes.td): their create functions, option
// structs and registration.  The rewrites themselves are callable without a
// pass through Transforms.h.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_DIALECT_TT_TRANSFORMS_PASSES_H
#define TRITIUM_DIALECT_TT_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"

namespace tritium::tt {

#define GEN_PASS_DECL
#include "tritium/Dialect/TT/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tritium/Dialect/TT/Transforms/Passes.h.inc"

} // namespace tritium::tt

#endif // TRITIUM_DIALECT_TT_TRANSFORMS_PASSES_H
