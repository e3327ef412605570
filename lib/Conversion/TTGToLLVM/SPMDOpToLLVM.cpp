//===- SPMDOpToLLVM.cpp - program ids to special registers ----------------===//
//
// One program instance is one CTA: tt.get_program_id reads %ctaid.{x,y,z}
// and tt.get_num_programs reads %nctaid.{x,y,z}.
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tritium/Conversion/TTGToLLVM/NVVMHelpers.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"

using namespace mlir;
using namespace tritium;

namespace {
struct GetProgramIdLowering
    : public ConvertOpToLLVMPattern<tt::GetProgramIdOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::GetProgramIdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, nvvm::blockId(rewriter, op.getLoc(), op.getAxis()));
    return success();
  }
};

struct GetNumProgramsLowering
    : public ConvertOpToLLVMPattern<tt::GetNumProgramsOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::GetNumProgramsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, nvvm::gridDim(rewriter, op.getLoc(), op.getAxis()));
    return success();
  }
};
} // namespace

void tritium::populateSPMDOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<GetProgramIdLowering, GetNumProgramsLowering>(
      converter, kTritiumPatternBenefit);
}
