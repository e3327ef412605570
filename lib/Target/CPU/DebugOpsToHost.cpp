//===- DebugOpsToHost.cpp - tt.print and tt.assert for the host -----------===//
//
// tt.print: per operand, one printf per element (a loop over a tensor's
// flat vector), in the format of the GPU lowering (DebugOpToLLVM.cpp):
//   "pid (%u, %u, %u) idx (%u, %u)<prefix><value>\n"
// (no idx for scalars; "(operand k) " before the value when several are
// printed), then fflush(NULL), so that the lines reach the process's
// stdout in order with its other output.  Floats print as doubles (%f),
// integers by width and signedness (%i, %u, %lli, %llu; 0x%x, 0x%llx with
// hex), pointers with %p.  Programs run on several threads: their lines
// interleave, as the GPU's blocks' do.
//
// tt.assert: when an element of the condition is false, a call of the
// runtime's tritium_cpu_assert_fail(message, file, line, function, x, y,
// z) (HostProgram.cpp), which records the first failure and leaves the
// program; the grid's programs that have not started yet do not run, and
// the launch reports the failure to its caller.
//
//===----------------------------------------------------------------------===//
#include "HostLowering.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tritium/Conversion/TTGToLLVM/ModuleSymbols.h"
#include "tritium/Conversion/TTGToLLVM/PrintFormat.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"

using namespace mlir;
namespace tt = tritium::tt;
using namespace tritium::cpu;

namespace {

/// The program's coordinates x, y, z: the enclosing kernel's trailing
/// arguments.
SmallVector<Value> programId(Operation *op) {
  auto func = op->getParentOfType<func::FuncOp>();
  SmallVector<Value> pid;
  if (!func)
    return pid;
  unsigned first = func.getNumArguments() - kGridArgs;
  for (unsigned axis = 0; axis < 3; ++axis)
    pid.push_back(func.getArgument(first + axis));
  return pid;
}

struct PrintConversion : OpConversionPattern<tt::PrintOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::PrintOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    SmallVector<Value> pid = programId(op);
    if (pid.empty())
      return rewriter.notifyMatchFailure(op, "not in a kernel");
    MLIRContext *ctx = getContext();
    Type ptr = LLVM::LLVMPointerType::get(ctx), i32 = rewriter.getI32Type();
    auto printf = tritium::getOrInsertFunction(rewriter, module, "printf",
                                               LLVM::LLVMFunctionType::get(i32, {ptr}, /*isVarArg=*/true));
    auto fflush = tritium::getOrInsertFunction(rewriter, module, "fflush", LLVM::LLVMFunctionType::get(i32, {ptr}));
    if (!printf || !fflush)
      return op.emitError("'printf' or 'fflush' is declared with another type");
    auto emitPrintf = [&](OpBuilder &b, StringRef format, ArrayRef<Value> args) {
      SmallVector<Value> operands{tritium::getOrInsertStringConstant(b, loc, module, "printFormat", format)};
      operands.append(args.begin(), args.end());
      LLVM::CallOp::create(b, loc, printf, operands);
    };
    std::string prefix = tritium::escapePercent(op.getPrefix());
    ArrayRef<int32_t> isSigned = op.getIsSigned();
    if (op.getArgs().empty())
      emitPrintf(rewriter, "pid (%u, %u, %u)" + prefix + "\n", pid);
    for (auto [k, arg, converted] : llvm::enumerate(op.getArgs(), adaptor.getArgs())) {
      Value value = converted; // (captured by the loop body below)
      Type element = getElementTypeOrSelf(arg.getType());
      bool isSignedArg = k < isSigned.size() ? isSigned[k] != 0 : true;
      std::string operand = op.getArgs().size() > 1 ? "(operand " + std::to_string(k) + ") " : "";
      auto tensor = dyn_cast<RankedTensorType>(arg.getType());
      if (!tensor) {
        auto [spec, printed] = tritium::formatPrintedValue(rewriter, loc, value, element, op.getHex(), isSignedArg);
        SmallVector<Value> args(pid);
        args.push_back(printed);
        emitPrintf(rewriter, "pid (%u, %u, %u)" + prefix + operand + spec + "\n", args);
        continue;
      }
      // A loop over the flat vector; the index of element i in row-major order.
      ArrayRef<int64_t> shape = tensor.getShape();
      SmallVector<int64_t> strides = stridesOf(shape);
      scf::ForOp::create(
          rewriter, loc, i32Constant(rewriter, loc, 0), i32Constant(rewriter, loc, numElements(tensor)),
          i32Constant(rewriter, loc, 1), ValueRange{}, [&](OpBuilder &b, Location, Value i, ValueRange) {
            SmallVector<Value> args(pid);
            std::string format = "pid (%u, %u, %u) idx (";
            for (auto [d, size] : llvm::enumerate(shape)) {
              Value coord = arith::DivUIOp::create(b, loc, i, i32Constant(b, loc, strides[d]));
              coord = arith::RemUIOp::create(b, loc, coord, i32Constant(b, loc, size));
              args.push_back(coord);
              format += d ? ", %u" : "%u";
            }
            Value e = LLVM::ExtractElementOp::create(b, loc, value, i);
            auto [spec, printed] = tritium::formatPrintedValue(b, loc, e, element, op.getHex(), isSignedArg);
            args.push_back(printed);
            emitPrintf(b, format + ")" + prefix + operand + spec + "\n", args);
            scf::YieldOp::create(b, loc);
          });
    }
    Value null = LLVM::ZeroOp::create(rewriter, loc, ptr);
    LLVM::CallOp::create(rewriter, loc, fflush, ValueRange{null});
    rewriter.eraseOp(op);
    return success();
  }
};

struct AssertConversion : OpConversionPattern<tt::AssertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::AssertOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    SmallVector<Value> pid = programId(op);
    if (pid.empty())
      return rewriter.notifyMatchFailure(op, "not in a kernel");
    MLIRContext *ctx = getContext();
    Type ptr = LLVM::LLVMPointerType::get(ctx), i32 = rewriter.getI32Type();
    auto fail = tritium::getOrInsertFunction(
        rewriter, module, "tritium_cpu_assert_fail",
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr, ptr, i32, ptr, i32, i32, i32}));
    if (!fail)
      return op.emitError("'tritium_cpu_assert_fail' is declared with another type");
    // Any element false: the and-reduction of the condition is false.
    Value condition = adaptor.getCondition();
    Value allTrue = isa<VectorType>(condition.getType())
                        ? LLVM::vector_reduce_and::create(rewriter, loc, rewriter.getI1Type(), condition).getResult()
                        : condition;
    Value failed = arith::XOrIOp::create(rewriter, loc, allTrue,
                                         arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true)));
    std::pair<std::string, int> where = tritium::fileAndLine(loc);
    const std::string &file = where.first;
    int line = where.second;
    std::string function = "unknown";
    if (auto func = op->getParentOfType<func::FuncOp>())
      function = func.getName().str();
    scf::IfOp::create(rewriter, loc, failed, [&](OpBuilder &b, Location) {
      SmallVector<Value> args{tritium::getOrInsertStringConstant(b, loc, module, "assertMessage", op.getMessage()),
                              tritium::getOrInsertStringConstant(b, loc, module, "assertFile", file),
                              i32Constant(b, loc, line),
                              tritium::getOrInsertStringConstant(b, loc, module, "assertFunction", function)};
      args.append(pid.begin(), pid.end());
      LLVM::CallOp::create(b, loc, fail, args);
      scf::YieldOp::create(b, loc);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void tritium::cpu::populateDebugOpsToHostPatterns(const TypeConverter &types, RewritePatternSet &patterns) {
  patterns.add<PrintConversion, AssertConversion>(types, patterns.getContext());
}
