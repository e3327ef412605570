//===- FuncOpToLLVM.cpp - tt.func, tt.return, tt.call to LLVM -------------===//
//
// A public tt.func with a body is a kernel: an llvm.func with `nvvm.kernel`
// (the ptx_kernel calling convention once translated) and `nvvm.reqntid`
// = [warps * threads_per_warp, 1, 1] (warps: num_warps, plus a warp-
// specialized partition's): the block size the launcher uses, stated as
// exact (PTX .reqntid, as Triton's kernels state it), so ptxas budgets
// registers and schedules for that block and no smaller one (on Inductor's
// fp32 mm template at (64, 32, 128), 5 stages, 4 warps, .maxntid's schedule
// ran 12% slower; see docs/performance.md); and `nvvm.maxnreg` when the
// module caps registers (`ttg.maxnreg`, the maxnreg launch option; PTX
// .maxnreg, which ptxas honours by spilling).  Private functions stay
// device functions (internal linkage); bodiless ones are external
// declarations.  Several results are returned as one literal struct.
//
// Argument attributes: `tt.divisibility = n` on a pointer argument becomes
// `llvm.align = n` (the launcher only specializes on divisibility it
// checked).  A tensor descriptor argument is its 128-byte CUDA tensor map
// passed by value (`llvm.byval`, 64-byte aligned) as a `nvvm.grid_constant`,
// so the copy engine reads it where the launch put it, through its generic
// address.  `noalias` is never added: Triton kernels may alias their
// arguments.
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"
#include "tritium/Conversion/TTGToLLVM/NVVMHelpers.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

using namespace mlir;
using namespace tritium;

namespace {

struct FuncOpLowering : public ConvertOpToLLVMPattern<tt::FuncOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::FuncOp func, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const LLVMTypeConverter &converter = *getTypeConverter();
    TypeConverter::SignatureConversion signature(func.getNumArguments());
    auto type = dyn_cast_or_null<LLVM::LLVMFunctionType>(
        converter.convertFunctionSignature(func.getFunctionType(),
                                           /*isVariadic=*/false,
                                           /*useBarePtrCallConv=*/false,
                                           signature));
    if (!type)
      return func.emitError("cannot convert the signature of ")
             << func.getName() << " to LLVM types";

    bool isKernel = func.isPublic() && !func.isExternal();
    LLVM::Linkage linkage = func.isPublic() || func.isExternal()
                                ? LLVM::Linkage::External
                                : LLVM::Linkage::Internal;
    auto llvmFunc = LLVM::LLVMFuncOp::create(rewriter, func.getLoc(),
                                             func.getName(), type, linkage);

    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      auto divisibility =
          func.getArgAttrOfType<IntegerAttr>(i, "tt.divisibility");
      if (divisibility && isa<tt::PointerType>(func.getArgumentTypes()[i]) &&
          divisibility.getInt() > 1)
        llvmFunc.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                            rewriter.getI64IntegerAttr(divisibility.getInt()));
      if (isa<tt::TensorDescType>(func.getArgumentTypes()[i])) {
        if (!isKernel)
          return func.emitError("a tensor descriptor can only be passed to a "
                                "kernel, not to a device function");
        // The 128-byte tensor map, passed by value and read in place.
        llvmFunc.setArgAttr(
            i, LLVM::LLVMDialect::getByValAttrName(),
            TypeAttr::get(LLVM::LLVMArrayType::get(rewriter.getI8Type(), 128)));
        llvmFunc.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                            rewriter.getI64IntegerAttr(64));
        llvmFunc.setArgAttr(i, "nvvm.grid_constant", rewriter.getUnitAttr());
      }
    }

    if (isKernel) {
      auto module = func->getParentOfType<ModuleOp>();
      int threads = ttg::getTotalNumWarps(module) * ttg::getThreadsPerWarp(module);
      llvmFunc->setAttr(nvvm::kKernelAttrName, rewriter.getUnitAttr());
      llvmFunc->setAttr(nvvm::kReqNTidAttrName,
                        rewriter.getDenseI32ArrayAttr({threads, 1, 1}));
      if (auto maxnreg = module->getAttrOfType<IntegerAttr>(
              ttg::TTGDialect::kMaxNRegAttrName))
        llvmFunc->setAttr(nvvm::kMaxNRegAttrName,
                          rewriter.getI32IntegerAttr(maxnreg.getInt()));
    }

    rewriter.inlineRegionBefore(func.getBody(), llvmFunc.getBody(),
                                llvmFunc.end());
    if (failed(rewriter.convertRegionTypes(&llvmFunc.getBody(), converter,
                                           &signature)))
      return failure();
    rewriter.eraseOp(func);
    return success();
  }
};

struct ReturnOpLowering : public ConvertOpToLLVMPattern<tt::ReturnOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::ReturnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange operands = adaptor.getOperands();
    if (operands.size() <= 1) {
      rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, operands);
      return success();
    }
    Type packed = getTypeConverter()->packFunctionResults(op.getOperandTypes());
    if (!packed)
      return failure();
    Value result = packElements(rewriter, op.getLoc(), packed, operands);
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, result);
    return success();
  }
};

struct CallOpLowering : public ConvertOpToLLVMPattern<tt::CallOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> resultTypes;
    if (op.getNumResults() > 0) {
      Type packed =
          getTypeConverter()->packFunctionResults(op.getResultTypes());
      if (!packed)
        return failure();
      resultTypes.push_back(packed);
    }
    auto call = LLVM::CallOp::create(rewriter, op.getLoc(), resultTypes,
                                     op.getCalleeAttr(), adaptor.getOperands());
    if (op.getNumResults() <= 1) {
      rewriter.replaceOp(op, call->getResults());
      return success();
    }
    SmallVector<Value> results;
    for (unsigned i = 0; i < op.getNumResults(); ++i)
      results.push_back(LLVM::ExtractValueOp::create(rewriter, op.getLoc(),
                                                     call.getResult(), i));
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void tritium::populateFuncOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<FuncOpLowering, ReturnOpLowering, CallOpLowering>(
      converter, kTritiumPatternBenefit);
}
