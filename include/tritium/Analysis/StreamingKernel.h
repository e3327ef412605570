//===- StreamingKernel.h - kernels that only stream memory ------*- C++ -*-===//
//
// A streaming kernel reads each element of its inputs once, computes on it in
// registers and writes the result: vector add, fused element-wise chains,
// masked copies.  Nothing is shared between threads or programs, no address
// depends on loaded data, and there is no loop.  Such a kernel's speed is
// DRAM bandwidth alone, and on the H100 that bandwidth is higher with fewer
// programs resident per SM (fewer concurrent streams of DRAM pages), which
// the runtime arranges (see TargetInfo.h, streamingKernelWarpsPerSM).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_ANALYSIS_STREAMINGKERNEL_H
#define TRITIUM_ANALYSIS_STREAMINGKERNEL_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace tritium {

/// Why the TritonGPU IR `module` is not a streaming kernel ("'scf.for'",
/// "'tt.reduce'", "a load whose address, mask or other value depends on
/// loaded data", ...), or an
/// empty string when it is one: one kernel function without calls, loops or
/// branches, made only of element-wise ops, index computations, loads and
/// stores (no layout conversion, reduction, dot, atomic or shared memory),
/// with at least one tensor load, and no load or store whose pointer, mask
/// or `other` value depends on a loaded value (gathers and scatters are
/// latency-bound, not streams).  Store-only kernels (fills) are left out:
/// on the H100 a residency limit moves them by 0.15% at most (measured
/// 2026-11-21).
std::string whyNotStreamingKernel(mlir::ModuleOp module);

} // namespace tritium

#endif // TRITIUM_ANALYSIS_STREAMINGKERNEL_H
