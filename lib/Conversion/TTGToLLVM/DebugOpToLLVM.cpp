//===- DebugOpToLLVM.cpp - tt.print and tt.assert to LLVM -----------------===//
//
// tt.print: one `vprintf` per element of each operand (every thread prints
// the elements it holds), with a format string built at compile time:
//   "pid (%u, %u, %u) idx (%u, %u)<prefix><value>\n"
// (no idx for scalars; "(operand k) " before the value when several are
// printed).  vprintf reads its arguments from a buffer: a struct alloca'd
// once in the function's entry block.  Floats print as doubles (%f),
// integers by width and signedness (%i, %u, %lli, %llu, or 0x%x / 0x%llx
// with hex), pointers with %p.
//
// tt.assert: when any element of the condition this thread holds is false,
// call `__assertfail(message, file, line, function, 1)` (inside an scf.if),
// which prints the message and traps.
//
// Both functions are PTX system calls that the CUDA driver provides.
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"
#include "tritium/Conversion/TTGToLLVM/LayoutIndices.h"
#include "tritium/Conversion/TTGToLLVM/ModuleSymbols.h"
#include "tritium/Conversion/TTGToLLVM/NVVMHelpers.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/PrintFormat.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"

using namespace mlir;
using namespace tritium;

namespace {

struct PrintLowering : public ConvertOpToLLVMPattern<tt::PrintOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    auto function = op->getParentOfType<LLVM::LLVMFuncOp>();
    if (!function)
      return failure();
    MLIRContext *ctx = getContext();
    Type ptrType = LLVM::LLVMPointerType::get(ctx);
    auto vprintf = getOrInsertFunction(
        rewriter, module, "vprintf",
        LLVM::LLVMFunctionType::get(rewriter.getI32Type(), {ptrType, ptrType}));
    if (!vprintf)
      return op.emitError("'vprintf' is declared with another type");
    SmallVector<Value> pid;
    for (int axis = 0; axis < 3; ++axis)
      pid.push_back(nvvm::blockId(rewriter, loc, axis));
    std::string prefix = escapePercent(op.getPrefix());
    ArrayRef<int32_t> isSigned = op.getIsSigned();

    // One argument buffer per distinct argument list type, reused by every
    // element this op prints.
    DenseMap<Type, Value> buffers;
    auto emitPrintf = [&](StringRef format, ArrayRef<Value> args) {
      Value formatPtr = getOrInsertStringConstant(rewriter, loc, module,
                                                  "printfFormat", format);
      SmallVector<Type> fieldTypes;
      for (Value arg : args)
        fieldTypes.push_back(arg.getType());
      auto bufferType = LLVM::LLVMStructType::getLiteral(ctx, fieldTypes);
      Value &buffer = buffers[bufferType];
      if (!buffer) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(&function.getBody().front());
        Value one =
            LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                     rewriter.getI64IntegerAttr(1));
        buffer = LLVM::AllocaOp::create(rewriter, loc, ptrType, bufferType, one,
                                        /*alignment=*/8);
      }
      for (auto [i, arg] : llvm::enumerate(args)) {
        Value field = LLVM::GEPOp::create(
            rewriter, loc, ptrType, bufferType, buffer,
            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
        LLVM::StoreOp::create(rewriter, loc, arg, field);
      }
      LLVM::CallOp::create(rewriter, loc, vprintf,
                           ValueRange{formatPtr, buffer});
    };

    if (op.getArgs().empty()) {
      emitPrintf("pid (%u, %u, %u)" + prefix + "\n", pid);
      rewriter.eraseOp(op);
      return success();
    }
    for (auto [k, arg, llArg] :
         llvm::enumerate(op.getArgs(), adaptor.getArgs())) {
      Type elementType = getElementTypeOrSelf(arg.getType());
      bool isSignedArg = k < isSigned.size() ? isSigned[k] != 0 : true;
      SmallVector<Value> elements = unpackElements(rewriter, loc, llArg);
      SmallVector<SmallVector<Value>> indices;
      if (auto tensorType = dyn_cast<RankedTensorType>(arg.getType())) {
        ThreadIndex thread = emitThreadIndex(rewriter, loc, module);
        indices =
            emitIndices(rewriter, loc, getLinearLayout(tensorType), thread);
      }
      std::string operandText =
          op.getArgs().size() > 1 ? "(operand " + std::to_string(k) + ") " : "";
      for (auto [i, element] : llvm::enumerate(elements)) {
        auto [spec, value] = formatPrintedValue(rewriter, loc, element, elementType,
                                         op.getHex(), isSignedArg);
        std::string format = "pid (%u, %u, %u)";
        SmallVector<Value> args(pid);
        if (!indices.empty()) {
          format += " idx (";
          for (auto [d, coord] : llvm::enumerate(indices[i])) {
            format += d ? ", %u" : "%u";
            args.push_back(coord);
          }
          format += ")";
        }
        format += prefix + operandText + spec + "\n";
        args.push_back(value);
        emitPrintf(format, args);
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AssertLowering : public ConvertOpToLLVMPattern<tt::AssertOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    MLIRContext *ctx = getContext();
    Type ptrType = LLVM::LLVMPointerType::get(ctx);
    auto assertFail = getOrInsertFunction(
        rewriter, module, "__assertfail",
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                    {ptrType, ptrType, rewriter.getI32Type(),
                                     ptrType, rewriter.getI64Type()}));
    if (!assertFail)
      return op.emitError("'__assertfail' is declared with another type");

    // Any element false?
    Value anyFalse;
    Value falseValue = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI1Type(), rewriter.getBoolAttr(false));
    for (Value element :
         unpackElements(rewriter, loc, adaptor.getCondition())) {
      Value isFalse = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::eq, element, falseValue);
      anyFalse =
          anyFalse
              ? LLVM::OrOp::create(rewriter, loc, anyFalse, isFalse).getResult()
              : isFalse;
    }

    auto [file, line] = fileAndLine(loc);
    std::string functionName = "unknown";
    if (auto function = op->getParentOfType<LLVM::LLVMFuncOp>())
      functionName = function.getName().str();
    auto ifOp = scf::IfOp::create(rewriter, loc, anyFalse,
                                  /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value message = getOrInsertStringConstant(rewriter, loc, module,
                                              "assertMessage", op.getMessage());
    Value fileName =
        getOrInsertStringConstant(rewriter, loc, module, "assertFile", file);
    Value funcName = getOrInsertStringConstant(rewriter, loc, module,
                                               "assertFunc", functionName);
    Value charSize = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI64Type(), rewriter.getI64IntegerAttr(1));
    LLVM::CallOp::create(
        rewriter, loc, assertFail,
        ValueRange{message, fileName,
                   LLVM::ConstantOp::create(rewriter, loc,
                                            rewriter.getI32Type(), line),
                   funcName, charSize});
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void tritium::populateDebugOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<PrintLowering, AssertLowering>(converter,
                                              kTritiumPatternBenefit);
}
