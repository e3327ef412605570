//===- Patterns.h - the patterns of convert-ttg-to-llvm ---------*- C++ -*-===//
//
// One populate function per family of ops, each implemented in its own
// file of lib/Conversion/TTGToLLVM (named after the family), and the whole
// conversion as one function.  Patterns get a benefit above the upstream
// arith/math patterns, which would otherwise also match ops on tensors.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CONVERSION_TTGTOLLVM_PATTERNS_H
#define TRITIUM_CONVERSION_TTGTOLLVM_PATTERNS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

#include <string>

namespace tritium {
namespace layout {
class LinearLayout;
} // namespace layout

class TTGToLLVMTypeConverter;
class LoweringAxisInfo;

/// What the generated code may use.
struct TargetConfig {
  /// Compute capability times ten: 80, 89, 90.
  int computeCapability = 90;
  /// PTX ISA version times ten: 84 is 8.4.
  int ptxVersion = 84;
};

/// The benefit of Tritium's patterns (upstream ones have 1).
inline constexpr int kTritiumPatternBenefit = 10;

/// tt.func (kernels and device functions), tt.return, tt.call.
void populateFuncOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);

/// tt.get_program_id, tt.get_num_programs.
void populateSPMDOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);

/// tt.make_range, tt.splat, arith.constant on tensors.
void populateTensorCreationOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                            mlir::RewritePatternSet &patterns);

/// tt.broadcast, tt.expand_dims, tt.trans, tt.reshape, tt.join, tt.split,
/// tt.cat: ops whose layouts keep every element in its thread.
void populateTensorShapeOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                         mlir::RewritePatternSet &patterns);

/// arith and math ops on tensors (applied per element), tt.addptr,
/// tt.bitcast, tt.int_to_ptr, tt.ptr_to_int, tt.clamp, tt.precise_sqrt,
/// tt.precise_divf, tt.mulhiui, tt.extern_elementwise,
/// tt.elementwise_inline_asm; `access` says which arith/math results repeat
/// across runs of registers (computed once per run).
void populateElementwiseOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                         mlir::RewritePatternSet &patterns,
                                         const LoweringAxisInfo &access);

/// Scalar math ops the NVPTX backend cannot expand: libdevice calls (and
/// ex2.approx for f32 exp2).
void populateLibdeviceOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns);

/// Scalar f32 (and f16/bf16) exp, exp2 and arith.divf as PTX's
/// approximate instructions, as Triton compiles them.
void populateApproxMathOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                        mlir::RewritePatternSet &patterns);
/// tt.fp_to_fp (fp8, rounding modes).
void populateFpToFpOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns,
                                    const TargetConfig &target);

/// tt.load, tt.store.
void populateLoadStoreOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns,
                                       const LoweringAxisInfo &access);

/// tt.atomic_rmw, tt.atomic_cas (float adds packed per `access`).
void populateAtomicOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns,
                                    const LoweringAxisInfo &access,
                                    const TargetConfig &target);

/// ttg.convert_layout between distributed layouts.
void populateConvertLayoutOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                           mlir::RewritePatternSet &patterns);

/// tt.dot with a blocked accumulator: one FMA per product
/// (DotOpToLLVM/FMA.cpp).
void populateFmaDotOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);
/// tt.dot with an mma v2 accumulator: mma.sync (DotOpToLLVM/MMAv2.cpp).
void populateMmaV2DotOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);

/// tt.dot on Hopper: ttg.warp_group_dot as wgmma (DotOpToLLVM/WGMMA.cpp).
void populateWgmmaDotOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);
/// ttg.local_alloc (with a source: stored from registers), ttg.local_dealloc.
void populateLocalMemoryOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                         mlir::RewritePatternSet &patterns);

/// ttg.async_copy_global_to_local (cp.async), ttg.async_commit_group,
/// ttg.async_wait.
void populateAsyncCopyOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns,
                                       const LoweringAxisInfo &access);

/// mbarriers (ttg.init_barrier, inval_barrier, barrier_expect,
/// wait_barrier), TMA copies in and out, their waits and the proxy fence.
void populateTMAOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);

/// tt.reduce: within threads, across lanes by shuffles, across warps
/// through shared memory.
void populateReduceOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);
/// tt.scan: within threads, across lanes by shuffles, across warps through
/// shared memory.
void populateScanOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
/// tt.gather, tt.histogram.
void populateGatherHistogramOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                             mlir::RewritePatternSet &patterns);
/// ttg.barrier (inserted by the membar analysis).
void populateBarrierOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                     mlir::RewritePatternSet &patterns);
/// tt.print, tt.assert.
void populateDebugOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                   mlir::RewritePatternSet &patterns);

/// The whole conversion of `module` to the LLVM and NVVM dialects (scf ops
/// stay, with converted types).  Fails after reporting an error at the op
/// that could not be lowered.
/// Turns each ttg.warp_specialize, whose regions are already lowered, into
/// a branch on the warp index (WarpSpecializeOpToLLVM.cpp).
void lowerWarpSpecializeOps(mlir::ModuleOp module);

mlir::LogicalResult convertTTGToLLVM(mlir::ModuleOp module,
                                     const TargetConfig &target);

} // namespace tritium

#endif // TRITIUM_CONVERSION_TTGTOLLVM_PATTERNS_H
