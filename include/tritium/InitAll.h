//===- InitAll.h - register Tritium's dialects and passes -------*- C++ -*-===//
//
// One place that says what a Tritium context knows: our dialects plus the
// upstream dialects kernels pass through (arith, math, scf, cf, func, gpu,
// llvm, nvvm), and every pass and pipeline tritium-opt can run.
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

/// Registers our passes, our named pipelines (tritium-make-ttir, ...) and the
/// upstream passes they use, so that tritium-opt and the C API can run each
/// by name.  Safe to call more than once.
void registerAllPasses();

} // namespace tritium

#endif // TRITIUM_INITALL_H
