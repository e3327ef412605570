//===- Passes.h - Triton IR to TritonGPU IR ---------------------*- C++ -*-===//
//
// Declares convert-tt-to-ttg (from Passes.td): its create function, option
// struct and registration.  The conversion itself is callable without a
// pass through TTToTTG.h.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CONVERSION_TTTOTTG_PASSES_H
#define TRITIUM_CONVERSION_TTTOTTG_PASSES_H

#include "mlir/Pass/Pass.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

namespace tritium {

#define GEN_PASS_DECL
#include "tritium/Conversion/TTToTTG/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tritium/Conversion/TTToTTG/Passes.h.inc"

} // namespace tritium

#endif // TRITIUM_CONVERSION_TTTOTTG_PASSES_H
