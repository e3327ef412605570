//===- ConvertTTToHostLLVM.cpp - Triton IR to LLVM for the host CPU -------===//
//
// convert-tt-to-host-llvm: one program of a Triton IR kernel becomes one
// host function (Passes.td has the contract).  This file holds the pass,
// the kernel's signature and the entry the runtime calls; the op patterns
// are in TensorOpsToHost.cpp, MemoryOpsToHost.cpp, ReduceScanDotToHost.cpp
// and DebugOpsToHost.cpp, what they share in HostLowering.h.
//
// Algorithm:
//   0. Every tt op must have a host lowering; the first that has none is an
//      error at its location (the user's line).
//   1. Tensors to flat vectors (a dialect conversion).  A tensor of shape S
//      is one LLVM vector of prod(S) elements in row-major order, so the
//      element order never changes between ops and shape ops are index
//      maps: `tt.expand_dims` and `tt.reshape` are the value itself,
//      `tt.broadcast` and `tt.trans` one shufflevector whose mask sends
//      each result element to the source element it copies.  arith and
//      math ops are rebuilt on the vector types; scf ops convert
//      structurally.  Pointers become `!llvm.ptr` (address space 0):
//      `tt.addptr` is a GEP; a load or store whose pointers address each
//      row contiguously (by the axis analysis) is one masked vector load or
//      store per row, any other a masked gather or scatter.
//      `tt.reduce` over an axis of n elements (a power of two) takes
//      log2(n) steps, each splitting the axis into its two halves with two
//      shuffles and applying the combine region to them, element-wise, as
//      vector ops; `tt.scan` is the same with shifted operands (Hillis and
//      Steele).  `tt.dot` keeps the accumulator as its rows and adds, for
//      each k and row i, a[i][k] times row k of b with one vector FMA.
//      `tt.histogram` counts in a loop over its input.
//      `tt.gather` stores its source to a stack slot and gathers from it;
//      atomics run element by element (scf.for, scf.if on the mask) as
//      LLVM atomics.  `tt.print` is a printf per element, `tt.assert` a
//      call of the runtime's failure function when the condition has a
//      false element.  The kernel gains six i32 arguments: the program's
//      coordinates and the grid's size.  Then chains of element-wise ops on
//      vectors of many lanes become loops over 16-lane chunks
//      (StripMineElementwise.cpp).
//   2. Math functions LLVM would call one element at a time (expf, logf...)
//      become MLIR's polynomial approximations on whole vectors; then the
//      standard conversions to the LLVM dialect (scf to cf, then arith,
//      math, vector, func and cf to llvm).
//   3. The entry `<kernel>__program(ptr args, x, y, z, nx, ny, nz)`, which
//      loads each argument from the array of argument addresses and calls
//      the kernel; the kernel becomes internal (LLVM inlines it into the
//      entry and drops it).
//
//===----------------------------------------------------------------------===//
#include "HostLowering.h"
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"

namespace tritium {
#define GEN_PASS_DEF_CONVERTTTTOHOSTLLVMPASS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium

using namespace mlir;
namespace tt = tritium::tt;
using namespace tritium::cpu;

namespace {

func::FuncOp enclosingKernel(Operation *op) { return op->getParentOfType<func::FuncOp>(); }

// -- functions --------------------------------------------------------------

struct FuncOpConversion : OpConversionPattern<tt::FuncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::FuncOp op, OpAdaptor, ConversionPatternRewriter &rewriter) const override {
    if (op.isDeclaration())
      return rewriter.notifyMatchFailure(op, "declarations have no host lowering");
    FunctionType type = op.getFunctionType();
    TypeConverter::SignatureConversion signature(type.getNumInputs());
    for (auto [i, input] : llvm::enumerate(type.getInputs())) {
      Type converted = getTypeConverter()->convertType(input);
      if (!converted)
        return failure();
      signature.addInputs(i, converted);
    }
    SmallVector<Type> grid(kGridArgs, rewriter.getI32Type());
    signature.addInputs(grid);
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertTypes(type.getResults(), results)))
      return failure();
    auto func = func::FuncOp::create(rewriter, op.getLoc(), op.getName(),
                                     rewriter.getFunctionType(signature.getConvertedTypes(), results));
    func.setVisibility(op.getVisibility());
    rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
    if (!rewriter.applySignatureConversion(&func.getBody().front(), signature, getTypeConverter()))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct ReturnOpConversion : OpConversionPattern<tt::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::ReturnOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<func::ReturnOp>(op, adaptor.getOperands());
    return success();
  }
};

/// tt.get_program_id and tt.get_num_programs: the kernel's trailing
/// arguments (x, y, z, then nx, ny, nz).
template <typename OpTy, unsigned First>
struct GridQueryConversion : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    func::FuncOp func = enclosingKernel(op);
    if (!func)
      return failure();
    unsigned index = func.getNumArguments() - kGridArgs + First + op.getAxis();
    rewriter.replaceOp(op, func.getArgument(index));
    return success();
  }
};

// -- the entry the runtime calls ----------------------------------------------

/// `<kernel>__program(ptr args, i32 x, y, z, nx, ny, nz)`: loads argument i
/// from the address args[i] and calls the kernel.
void addProgramEntry(LLVM::LLVMFuncOp kernel) {
  OpBuilder b(kernel.getContext());
  b.setInsertionPointAfter(kernel);
  Location loc = kernel.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(kernel.getContext());
  Type i32 = b.getI32Type();
  SmallVector<Type> params{ptr};
  params.append(kGridArgs, i32);
  auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(kernel.getContext()), params);
  auto entry = LLVM::LLVMFuncOp::create(b, loc, (kernel.getName() + "__program").str(), type);
  Block *block = entry.addEntryBlock(b);
  b.setInsertionPointToStart(block);
  ArrayRef<Type> kernelParams = kernel.getFunctionType().getParams();
  unsigned userArgs = kernelParams.size() - kGridArgs;
  SmallVector<Value> args;
  for (unsigned i = 0; i < userArgs; ++i) {
    Value slot = LLVM::GEPOp::create(b, loc, ptr, ptr, block->getArgument(0),
                                     ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
    Value address = LLVM::LoadOp::create(b, loc, ptr, slot);
    args.push_back(LLVM::LoadOp::create(b, loc, kernelParams[i], address));
  }
  for (unsigned i = 0; i < kGridArgs; ++i)
    args.push_back(block->getArgument(1 + i));
  LLVM::CallOp::create(b, loc, kernel, args);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
}

/// The Triton IR ops this lowering handles.
bool hasHostLowering(Operation *op) {
  if (auto call = dyn_cast<tt::ExternElementwiseOp>(op)) // TensorOpsToHost.cpp
    return hasHostLibdevice(call);
  return isa<tt::FuncOp, tt::ReturnOp, tt::GetProgramIdOp, tt::GetNumProgramsOp>(op) ||
         // TensorOpsToHost.cpp
         isa<tt::MakeRangeOp, tt::SplatOp, tt::ExpandDimsOp, tt::ReshapeOp, tt::BroadcastOp, tt::TransOp,
             tt::JoinOp, tt::SplitOp, tt::CatOp, tt::ClampOp, tt::PreciseSqrtOp, tt::PreciseDivFOp, tt::BitcastOp,
             tt::IntToPtrOp, tt::PtrToIntOp, tt::FpToFpOp, tt::MulhiUIOp>(op) ||
         // MemoryOpsToHost.cpp
         isa<tt::AddPtrOp, tt::LoadOp, tt::StoreOp, tt::GatherOp, tt::AtomicRMWOp, tt::AtomicCASOp>(op) ||
         // ReduceScanDotToHost.cpp
         isa<tt::ReduceOp, tt::ReduceReturnOp, tt::ScanOp, tt::ScanReturnOp, tt::DotOp, tt::HistogramOp>(op) ||
         // DebugOpsToHost.cpp
         isa<tt::PrintOp, tt::AssertOp>(op);
}

struct ConvertTTToHostLLVMPass
    : tritium::impl::ConvertTTToHostLLVMPassBase<ConvertTTToHostLLVMPass> {
  using ConvertTTToHostLLVMPassBase::ConvertTTToHostLLVMPassBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    // An op with no lowering: an error at it (at the user's line), not a
    // failure to legalize somewhere in the module.
    WalkResult unsupported = module.walk([](Operation *op) {
      if (isa_and_present<tt::TTDialect>(op->getDialect()) && !hasHostLowering(op)) {
        InFlightDiagnostic error = op->emitError() << "'" << op->getName() << "'";
        if (auto call = dyn_cast<tt::ExternElementwiseOp>(op))
          error << " of " << call.getSymbol();
        error << " has no lowering for the CPU target yet";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (unsupported.wasInterrupted())
      return signalPassFailure();
    // A program runs on one host thread: a barrier among its threads
    // (tl.debug_barrier's gpu.barrier) has nothing to wait for.
    SmallVector<Operation *> barriers;
    module.walk([&](Operation *op) {
      if (op->getName().getStringRef() == "gpu.barrier")
        barriers.push_back(op);
    });
    for (Operation *op : barriers)
      op->erase();

    // 1. tensors to flat vectors
    HostTypeConverter types(ctx);
    ConversionTarget target(*ctx);
    target.addIllegalDialect<tt::TTDialect>();
    target.addLegalDialect<LLVM::LLVMDialect, func::FuncDialect, cf::ControlFlowDialect>();
    target.addLegalOp<UnrealizedConversionCastOp>();
    target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect>(
        [](Operation *op) { return !hasTensorType(op); });
    target.addDynamicallyLegalOp<func::FuncOp>(
        [&](func::FuncOp f) { return types.isSignatureLegal(f.getFunctionType()); });
    RewritePatternSet patterns(ctx);
    ContiguousRows rows = findContiguousRows(module);
    patterns.add<FuncOpConversion, ReturnOpConversion, GridQueryConversion<tt::GetProgramIdOp, 0>,
                 GridQueryConversion<tt::GetNumProgramsOp, 3>>(types, ctx);
    populateTensorOpsToHostPatterns(types, patterns);
    populateMemoryOpsToHostPatterns(types, patterns, rows);
    populateReduceScanDotToHostPatterns(types, patterns);
    populateDebugOpsToHostPatterns(types, patterns);
    scf::populateSCFStructuralTypeConversionsAndLegality(types, patterns, target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    stripMineElementwise(module, fastCompile);

    // 2. to the LLVM dialect; first the math functions LLVM would call one
    //    element at a time (expf, logf, ...) become polynomials on whole
    //    vectors (MLIR's approximations, f16 and bf16 through f32)
    {
      auto vectorizable = [](StringRef name) { // ("exp" or "math.exp", by MLIR version)
        name.consume_front("math.");
        return llvm::is_contained({"exp", "exp2", "expm1", "log", "log2", "log1p", "tanh", "erf", "sin", "cos",
                                   "atan", "atan2"},
                                  name);
      };
      RewritePatternSet approximations(ctx);
      populateMathF32ExpansionPatterns(approximations, vectorizable);
      populateMathPolynomialApproximationPatterns(approximations, vectorizable);
      // (the approximations splat their constants with vector.broadcast)
      vector::populateVectorBroadcastLoweringPatterns(approximations);
      if (failed(applyPatternsGreedily(module, std::move(approximations))))
        return signalPassFailure();
    }
    {
      ConversionTarget cfTarget(*ctx);
      cfTarget.addIllegalDialect<scf::SCFDialect>();
      cfTarget.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
      RewritePatternSet scfPatterns(ctx);
      populateSCFToControlFlowConversionPatterns(scfPatterns);
      if (failed(applyPartialConversion(module, cfTarget, std::move(scfPatterns))))
        return signalPassFailure();
    }
    LLVMTypeConverter llvmTypes(ctx);
    LLVMConversionTarget llvmTarget(*ctx);
    llvmTarget.addLegalOp<ModuleOp>();
    RewritePatternSet llvmPatterns(ctx);
    arith::populateArithToLLVMConversionPatterns(llvmTypes, llvmPatterns);
    populateMathToLLVMConversionPatterns(llvmTypes, llvmPatterns);
    populateFuncToLLVMConversionPatterns(llvmTypes, llvmPatterns);
    cf::populateControlFlowToLLVMConversionPatterns(llvmTypes, llvmPatterns);
    populateVectorToLLVMConversionPatterns(llvmTypes, llvmPatterns);
    if (failed(applyFullConversion(module, llvmTarget, std::move(llvmPatterns))))
      return signalPassFailure();

    // 3. the entries
    SmallVector<LLVM::LLVMFuncOp> kernels;
    for (auto f : module.getOps<LLVM::LLVMFuncOp>())
      if (!f.isExternal() && f.getFunctionType().getNumParams() >= kGridArgs)
        kernels.push_back(f);
    for (LLVM::LLVMFuncOp kernel : kernels) {
      addProgramEntry(kernel);
      // Only the entry is called from outside: internal, the kernel is
      // inlined into it and dropped, not compiled a second time.
      kernel.setLinkage(LLVM::Linkage::Internal);
    }
  }
};

} // namespace
