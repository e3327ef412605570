//===- InitAll.h - register Tritium's dialects and passes -------*- C++ -*-===//
//
// One place that says what a Tritium context knows: our dialects plus the
// upstream dialects kernels pass through (arith, math, scf, cf, func, llvm,
// nvvm), and every pass tritium-opt can run.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_INITALL_H
#define TRITIUM_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace tritium {

/// Adds every dialect (and dialect extension) a Tritium compile uses.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Registers our passes and the upstream ones our pipelines use, so that
/// tritium-opt can run each alone.
void registerAllPasses();

} // namespace tritium

#endif // TRITIUM_INITALL_H
