//===- BarrierOpToLLVM.cpp - ttg.barrier to LLVM --------------------------===//
//
// ttg.barrier, which the ttg-membar pass places between conflicting
// shared-memory accesses, and gpu.barrier, which `tl.debug_barrier()`
// writes, become `bar.sync 0` (nvvm.barrier0): every thread of the CTA
// waits, and shared memory written before is visible after.  Inside a
// region of ttg.warp_specialize they wait for that region's warps alone
// (a named barrier, nvvm::barrier).
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "tritium/Conversion/TTGToLLVM/NVVMHelpers.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

using namespace mlir;
using namespace tritium;

namespace {
template <typename BarrierOpT>
struct BarrierLowering : public ConvertOpToLLVMPattern<BarrierOpT> {
  using ConvertOpToLLVMPattern<BarrierOpT>::ConvertOpToLLVMPattern;
  using OpAdaptor = typename BarrierOpT::Adaptor;

  LogicalResult
  matchAndRewrite(BarrierOpT op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    nvvm::barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void tritium::populateBarrierOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                             RewritePatternSet &patterns) {
  patterns.add<BarrierLowering<ttg::BarrierOp>, BarrierLowering<gpu::BarrierOp>>(
      converter, kTritiumPatternBenefit);
}
