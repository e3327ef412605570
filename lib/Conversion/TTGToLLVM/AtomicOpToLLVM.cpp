//===- AtomicOpToLLVM.cpp - tt.atomic_rmw / tt.atomic_cas to PTX ----------===//
//
// Each element is one `atom{.sem}{.scope}.global.<op>.<type>` executed by
// exactly one thread: among threads holding the same element only the one
// emitUniqueThreadPredicate picks, for a scalar only thread 0, and only
// where the mask holds (`@$p` guard).  A duplicate register of a thread is
// not executed twice: it takes the result of the register it duplicates.
//
// The old value is each executing thread's result.  When the result is
// used and other threads hold the same elements (always for a scalar),
// it is broadcast through the op's scratch buffer: barrier, the executing
// threads store their results, barrier, every thread loads its elements.
//
// Types: add on integers is .u32/.u64, fadd is .f32/.f64 or .noftz.f16/
// .noftz.bf16, and/or/xor/exch are .b32/.b64, max/min .s32/.s64,
// umax/umin .u32/.u64, cas .b16/.b32/.b64.  PTX has no float min/max
// atomics; those are reported as unsupported.
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"
#include "tritium/Conversion/TTGToLLVM/LayoutIndices.h"
#include "tritium/Conversion/TTGToLLVM/NVVMHelpers.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/SharedMemoryAccess.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Target/NVIDIA/PTXBuilder.h"

using namespace mlir;
using namespace tritium;
using nvidia::PTXBuilder;

namespace {

StringRef semanticQualifier(tt::MemSemantic sem) {
  switch (sem) {
  case tt::MemSemantic::RELAXED:
    return "relaxed";
  case tt::MemSemantic::ACQUIRE:
    return "acquire";
  case tt::MemSemantic::RELEASE:
    return "release";
  case tt::MemSemantic::ACQUIRE_RELEASE:
    return "acq_rel";
  }
  return "";
}

StringRef scopeQualifier(tt::MemSyncScope scope) {
  switch (scope) {
  case tt::MemSyncScope::GPU:
    return "gpu";
  case tt::MemSyncScope::CTA:
    return "cta";
  case tt::MemSyncScope::SYSTEM:
    return "sys";
  }
  return "";
}

/// How the elements of one atomic are passed to PTX.
struct AtomicTyping {
  std::string suffix;   // "add.f32", "cas.b32", ...
  Type asmType;         // the register type of operands and result
  StringRef constraint; // its constraint
};

/// The operation and type suffix of `kind` (null for cas) on `type`.
FailureOr<AtomicTyping> getTyping(std::optional<tt::RMWOp> kind, Type type,
                                  Operation *op) {
  MLIRContext *ctx = type.getContext();
  unsigned bits = type.getIntOrFloatBitWidth();
  Type intType = IntegerType::get(ctx, bits);
  StringRef intConstraint = bits == 64 ? "l" : bits == 16 ? "h" : "r";
  std::string b = "b" + std::to_string(bits);
  std::string u = "u" + std::to_string(bits);
  std::string s = "s" + std::to_string(bits);
  auto fail = [&]() -> FailureOr<AtomicTyping> {
    return op->emitError("no PTX atomic for this operation on ") << type;
  };
  if (!kind) {
    if (bits != 16 && bits != 32 && bits != 64)
      return fail();
    return AtomicTyping{"cas." + b, intType, intConstraint};
  }
  if (*kind == tt::RMWOp::FADD) {
    if (type.isF32())
      return AtomicTyping{"add.f32", type, "f"};
    if (type.isF64())
      return AtomicTyping{"add.f64", type, "d"};
    if (type.isF16())
      return AtomicTyping{"add.noftz.f16", intType, "h"};
    if (type.isBF16())
      return AtomicTyping{"add.noftz.bf16", intType, "h"};
    return fail();
  }
  if (bits != 32 && bits != 64)
    return fail();
  bool isFloat = isa<FloatType>(type);
  switch (*kind) {
  case tt::RMWOp::ADD:
    return isFloat ? fail() : AtomicTyping{"add." + u, intType, intConstraint};
  case tt::RMWOp::AND:
    return AtomicTyping{"and." + b, intType, intConstraint};
  case tt::RMWOp::OR:
    return AtomicTyping{"or." + b, intType, intConstraint};
  case tt::RMWOp::XOR:
    return AtomicTyping{"xor." + b, intType, intConstraint};
  case tt::RMWOp::XCHG:
    return AtomicTyping{"exch." + b, intType, intConstraint};
  case tt::RMWOp::MAX:
    return isFloat ? fail() : AtomicTyping{"max." + s, intType, intConstraint};
  case tt::RMWOp::MIN:
    return isFloat ? fail() : AtomicTyping{"min." + s, intType, intConstraint};
  case tt::RMWOp::UMAX:
    return AtomicTyping{"max." + u, intType, intConstraint};
  case tt::RMWOp::UMIN:
    return AtomicTyping{"min." + u, intType, intConstraint};
  default:
    return fail();
  }
}

Value bitcastIfNeeded(OpBuilder &b, Location loc, Value value, Type type) {
  return value.getType() == type
             ? value
             : LLVM::BitcastOp::create(b, loc, type, value).getResult();
}

/// Shared lowering of both atomics: `operands` are the per-element value
/// operands (val, or cmp and val) after the pointer.
LogicalResult lowerAtomic(Operation *op, Value llPtr, Value llMask,
                          ArrayRef<Value> llOperands,
                          std::optional<tt::RMWOp> kind, tt::MemSemantic sem,
                          tt::MemSyncScope scope,
                          const TTGToLLVMTypeConverter &converter,
                          ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  Value result = op->getResult(0);
  Type elementType = getElementTypeOrSelf(result.getType());
  Type registerType = converter.convertElementType(elementType);
  FailureOr<AtomicTyping> typing = getTyping(kind, elementType, op);
  if (failed(typing))
    return failure();

  SmallVector<Value> ptrs = unpackElements(rewriter, loc, llPtr);
  SmallVector<Value> masks;
  if (llMask)
    masks = unpackElements(rewriter, loc, llMask);
  SmallVector<SmallVector<Value>> operands;
  for (Value operand : llOperands)
    operands.push_back(unpackElements(rewriter, loc, operand));

  auto module = op->getParentOfType<ModuleOp>();
  ThreadIndex thread = emitThreadIndex(rewriter, loc, module);
  auto tensorType = dyn_cast<RankedTensorType>(result.getType());
  std::optional<layout::LinearLayout> layout;
  Value threadPred;
  SmallVector<int64_t> representative = {0};
  if (tensorType) {
    layout = getLinearLayout(tensorType);
    threadPred = emitUniqueThreadPredicate(rewriter, loc, *layout, thread);
    representative = getRepresentativeRegisters(*layout);
  } else {
    Value either = LLVM::OrOp::create(rewriter, loc, thread.lane, thread.warp);
    threadPred = LLVM::ICmpOp::create(
        rewriter, loc, LLVM::ICmpPredicate::eq, either,
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(), 0));
  }

  std::string opcode = ("atom." + semanticQualifier(sem) + "." +
                        scopeQualifier(scope) + ".global." + typing->suffix)
                           .str();
  SmallVector<Value> results(ptrs.size());
  for (size_t reg = 0; reg < ptrs.size(); ++reg) {
    if (representative[reg] != static_cast<int64_t>(reg)) {
      results[reg] = results[representative[reg]];
      continue;
    }
    Value pred = threadPred;
    if (!masks.empty())
      pred =
          pred
              ? LLVM::AndOp::create(rewriter, loc, pred, masks[reg]).getResult()
              : masks[reg];
    PTXBuilder ptx;
    auto *old = ptx.output(("=" + typing->constraint).str());
    auto *predOperand = pred ? ptx.input(pred, "b") : nullptr;
    SmallVector<PTXBuilder::Arg> args = {
        old, PTXBuilder::address(ptx.input(ptrs[reg], "l"), 0)};
    for (auto &column : operands)
      args.push_back(ptx.input(
          bitcastIfNeeded(rewriter, loc, column[reg], typing->asmType),
          typing->constraint));
    ptx.instr(opcode).guard(predOperand).args(args);
    Value value = ptx.launch(rewriter, loc, typing->asmType);
    results[reg] = bitcastIfNeeded(rewriter, loc, value, registerType);
  }

  // Threads that did not execute (duplicates, or all but thread 0 for a
  // scalar) get the result from the executing one.
  if (!result.use_empty() && threadPred) {
    Value buffer = getBufferPointer(rewriter, op);
    if (!buffer)
      return failure();
    Type memoryType = converter.convertMemoryElementType(elementType);
    nvvm::barrier(rewriter, loc);
    if (tensorType) {
      storeTile(rewriter, loc, buffer, results, *layout, thread, memoryType,
                threadPred);
      nvvm::barrier(rewriter, loc);
      results = loadTile(rewriter, loc, buffer, *layout, thread, memoryType,
                         registerType);
    } else {
      auto ifOp = scf::IfOp::create(rewriter, loc, threadPred,
                                    /*withElseRegion=*/false);
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
        LLVM::StoreOp::create(rewriter, loc, results[0], buffer);
      }
      nvvm::barrier(rewriter, loc);
      results[0] = LLVM::LoadOp::create(rewriter, loc, registerType, buffer);
    }
  }
  rewriter.replaceOp(op, packElements(rewriter, loc,
                                      converter.convertType(result.getType()),
                                      results));
  return success();
}

struct AtomicRMWLowering : public ConvertOpToLLVMPattern<tt::AtomicRMWOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return lowerAtomic(
        op, adaptor.getPtr(), adaptor.getMask(), {adaptor.getVal()},
        op.getAtomicRmwOp(), op.getSem(), op.getScope(),
        TTGToLLVMTypeConverter::of(getTypeConverter()), rewriter);
  }
};

struct AtomicCASLowering : public ConvertOpToLLVMPattern<tt::AtomicCASOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return lowerAtomic(
        op, adaptor.getPtr(), Value(), {adaptor.getCmp(), adaptor.getVal()},
        std::nullopt, op.getSem(), op.getScope(),
        TTGToLLVMTypeConverter::of(getTypeConverter()), rewriter);
  }
};

} // namespace

void tritium::populateAtomicOpToLLVMPatterns(TTGToLLVMTypeConverter &converter,
                                             RewritePatternSet &patterns) {
  patterns.add<AtomicRMWLowering, AtomicCASLowering>(converter,
                                                     kTritiumPatternBenefit);
}
