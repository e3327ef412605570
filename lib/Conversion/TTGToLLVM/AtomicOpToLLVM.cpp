//===- AtomicOpToLLVM.cpp - tt.atomic_rmw / tt.atomic_cas to PTX ----------===//
//
// Each element is updated by one `atom.global.<scope>.<sem>.<op>.<type>`
// (the qualifier order Triton writes, which ptxas accepts as it accepts the
// ISA's `.sem.scope.space`; tools that read PTX look for this spelling)
// executed by exactly one thread: among threads holding the same element
// only the one emitUniqueThreadPredicate picks, for a scalar only thread 0,
// and only where the mask holds (`@$p` guard).  A duplicate register of a
// thread is not executed twice: it takes the result of the register it
// duplicates.
//
// Several elements per instruction ("packing") for float adds, when the
// registers of a group are consecutive elements, their pointers contiguous
// and aligned to the group and their mask uniform (LoweringAxisInfo):
//
//   f16 / bf16, 2 elements:  add.noftz.f16x2 / .bf16x2 on one b32 register
//   f16 / bf16, 4 or 8 (sm_90): add.noftz.v2/.v4.f16x2 (bf16x2)
//   f32, 2 or 4 (sm_90):      add.v2.f32 / add.v4.f32
//
// Types otherwise: add on integers is .u32/.u64, fadd .f32/.f64 or
// .noftz.f16/.noftz.bf16 (bf16 needs sm_90), and/or/xor/exch .b32/.b64,
// max/min .s32/.s64, umax/umin .u32/.u64, cas .b16/.b32/.b64.  PTX has no
// scalar float min/max: the front end turns those into integer atomics on
// the float's bits (semantic.py), so here they are errors.
//
// The result is each executing thread's old value, and 0 where the mask is
// off.  When the result is used and other threads hold the same elements
// (always for a scalar), it is broadcast through the op's scratch buffer:
// the executing threads store their results, barrier, every thread loads
// its elements.  No barrier is emitted before the store: ordering against
// earlier users of the same shared memory is the membar pass's business.
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"
#include "tritium/Conversion/TTGToLLVM/LayoutIndices.h"
#include "tritium/Conversion/TTGToLLVM/LoweringAxisInfo.h"
#include "tritium/Conversion/TTGToLLVM/NVVMHelpers.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/SharedMemoryAccess.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Target/NVIDIA/PTXBuilder.h"
#include "llvm/ADT/bit.h"

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

/// How the elements of one atom instruction are passed to PTX: `words`
/// registers of `wordType` (a `{ ... }` list when more than one), each
/// holding `elemsPerWord` elements.
struct AtomicTyping {
  std::string suffix;   // "add.f32", "cas.b32", "add.noftz.v2.f16x2", ...
  Type wordType;        // the register type of operands and results
  StringRef constraint; // its constraint letter
  int64_t elemsPerWord = 1;
  int64_t words = 1;

  int64_t elements() const { return elemsPerWord * words; }
};

/// The typing of `kind` (null for cas) on elements of `type`, `vec`
/// elements per instruction (a power of two the caller checked is
/// contiguous, aligned and under one mask).  Fails with an error at `op`.
FailureOr<AtomicTyping> getTyping(std::optional<tt::RMWOp> kind, Type type,
                                  int64_t vec, const TargetConfig &target,
                                  Operation *op) {
  MLIRContext *ctx = type.getContext();
  unsigned bits = type.getIntOrFloatBitWidth();
  Type intType = IntegerType::get(ctx, bits);
  Type i32 = IntegerType::get(ctx, 32);
  StringRef intConstraint = bits == 64 ? "l" : bits == 16 ? "h" : "r";
  std::string b = "b" + std::to_string(bits);
  std::string u = "u" + std::to_string(bits);
  std::string s = "s" + std::to_string(bits);
  auto fail = [&]() -> FailureOr<AtomicTyping> {
    StringRef name = kind ? tt::stringifyRMWOp(*kind) : StringRef("cas");
    return op->emitError("no PTX atomic for this operation on ")
           << type << " (" << name << ")";
  };
  bool hopper = target.computeCapability >= 90;
  if (!kind) {
    if (bits != 16 && bits != 32 && bits != 64)
      return fail();
    return AtomicTyping{"cas." + b, intType, intConstraint};
  }
  if (*kind == tt::RMWOp::FADD) {
    bool half = type.isF16() || type.isBF16();
    if (type.isBF16() && !hopper)
      return op->emitError("atomic add of bf16 needs sm_90 or newer (target "
                           "is sm_")
             << target.computeCapability << ")";
    if (half) {
      StringRef name = type.isF16() ? "f16" : "bf16";
      if (vec < 2)
        return AtomicTyping{("add.noftz." + name).str(), intType, "h"};
      // f16x2 words, up to 4 of them (128 bits) as a vector on sm_90.
      int64_t words = hopper ? std::min<int64_t>(vec / 2, 4) : 1;
      std::string vecQual = words > 1 ? "v" + std::to_string(words) + "." : "";
      return AtomicTyping{("add.noftz." + vecQual + name + "x2").str(), i32,
                          "r", 2, words};
    }
    if (type.isF32()) {
      int64_t words = hopper ? std::min<int64_t>(vec, 4) : 1;
      if (words > 1)
        return AtomicTyping{"add.v" + std::to_string(words) + ".f32", type, "f",
                            1, words};
      return AtomicTyping{"add.f32", type, "f"};
    }
    if (type.isF64())
      return AtomicTyping{"add.f64", type, "d"};
    return fail();
  }
  if (bits != 32 && bits != 64)
    return fail();
  bool isFloat = isa<FloatType>(type);
  switch (*kind) {
  case tt::RMWOp::ADD:
    return isFloat ? fail() : AtomicTyping{"add." + u, intType, intConstraint};
  case tt::RMWOp::AND:
    return isFloat ? fail() : AtomicTyping{"and." + b, intType, intConstraint};
  case tt::RMWOp::OR:
    return isFloat ? fail() : AtomicTyping{"or." + b, intType, intConstraint};
  case tt::RMWOp::XOR:
    return isFloat ? fail() : AtomicTyping{"xor." + b, intType, intConstraint};
  case tt::RMWOp::XCHG:
    return AtomicTyping{"exch." + b, intType, intConstraint};
  case tt::RMWOp::MAX:
    return isFloat ? fail() : AtomicTyping{"max." + s, intType, intConstraint};
  case tt::RMWOp::MIN:
    return isFloat ? fail() : AtomicTyping{"min." + s, intType, intConstraint};
  case tt::RMWOp::UMAX:
    return isFloat ? fail() : AtomicTyping{"max." + u, intType, intConstraint};
  case tt::RMWOp::UMIN:
    return isFloat ? fail() : AtomicTyping{"min." + u, intType, intConstraint};
  default:
    return fail();
  }
}

Value bitcastIfNeeded(OpBuilder &b, Location loc, Value value, Type type) {
  return value.getType() == type
             ? value
             : LLVM::BitcastOp::create(b, loc, type, value).getResult();
}

/// `elements` (of `typing.elemsPerWord` each) as one word register.
Value packWord(OpBuilder &b, Location loc, ArrayRef<Value> elements,
               const AtomicTyping &typing) {
  if (typing.elemsPerWord == 1)
    return bitcastIfNeeded(b, loc, elements[0], typing.wordType);
  auto vecType =
      VectorType::get({typing.elemsPerWord}, elements[0].getType());
  Value vec = LLVM::PoisonOp::create(b, loc, vecType);
  for (auto [i, element] : llvm::enumerate(elements)) {
    Value index = LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                           static_cast<int32_t>(i));
    vec = LLVM::InsertElementOp::create(b, loc, vec, element, index);
  }
  return LLVM::BitcastOp::create(b, loc, typing.wordType, vec);
}

/// The inverse of packWord: the elements (of `elementType`) of `word`.
SmallVector<Value> unpackWord(OpBuilder &b, Location loc, Value word,
                              const AtomicTyping &typing, Type elementType) {
  if (typing.elemsPerWord == 1)
    return {bitcastIfNeeded(b, loc, word, elementType)};
  auto vecType = VectorType::get({typing.elemsPerWord}, elementType);
  Value vec = LLVM::BitcastOp::create(b, loc, vecType, word);
  SmallVector<Value> elements;
  for (int64_t i = 0; i < typing.elemsPerWord; ++i) {
    Value index = LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                           static_cast<int32_t>(i));
    elements.push_back(LLVM::ExtractElementOp::create(b, loc, vec, index));
  }
  return elements;
}

/// A zero of `type` (an integer or float register type).
Value zeroOf(OpBuilder &b, Location loc, Type type) {
  return LLVM::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
}

/// Elements per atom instruction for a tensor op: the layout's run of
/// consecutive registers capped by what LoweringAxisInfo proved about
/// the pointers and the mask.
int64_t getVectorWidth(Operation *op, const layout::LinearLayout &layout,
                       const LoweringAxisInfo &access) {
  int dim = getRegisterFastestDim(layout);
  if (dim < 0)
    return 1;
  int64_t vec = std::min(getContiguousRegisters(layout, dim),
                         access.getVectorLimit(op));
  return std::max<int64_t>(1, llvm::bit_floor(static_cast<uint64_t>(vec)));
}

/// Shared lowering of both atomics: `llOperands` are the per-element value
/// operands (val, or cmp and val) after the pointer.
LogicalResult lowerAtomic(Operation *op, Value llPtr, Value llMask,
                          ArrayRef<Value> llOperands,
                          std::optional<tt::RMWOp> kind, tt::MemSemantic sem,
                          tt::MemSyncScope scope,
                          const TTGToLLVMTypeConverter &converter,
                          const LoweringAxisInfo &access,
                          const TargetConfig &target,
                          ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  Value result = op->getResult(0);
  Type elementType = getElementTypeOrSelf(result.getType());
  Type registerType = converter.convertElementType(elementType);
  if (!elementType.isIntOrFloat())
    return op->emitError("no PTX atomic for this operation on ")
           << elementType;

  auto module = op->getParentOfType<ModuleOp>();
  auto tensorType = dyn_cast<RankedTensorType>(result.getType());
  std::optional<layout::LinearLayout> layout;
  if (tensorType)
    layout = getLinearLayout(tensorType);
  int64_t vec = 1;
  if (tensorType && kind == tt::RMWOp::FADD)
    vec = getVectorWidth(op, *layout, access);
  FailureOr<AtomicTyping> typing =
      getTyping(kind, elementType, vec, target, op);
  if (failed(typing))
    return failure();

  SmallVector<Value> ptrs = unpackElements(rewriter, loc, llPtr);
  SmallVector<Value> masks;
  if (llMask)
    masks = unpackElements(rewriter, loc, llMask);
  SmallVector<SmallVector<Value>> operands;
  for (Value operand : llOperands)
    operands.push_back(unpackElements(rewriter, loc, operand));

  ThreadIndex thread = emitThreadIndex(rewriter, loc, module);
  Value threadPred;
  SmallVector<int64_t> representative = {0};
  if (tensorType) {
    threadPred = emitUniqueThreadPredicate(rewriter, loc, *layout, thread);
    representative = getRepresentativeRegisters(*layout);
  } else {
    Value either = LLVM::OrOp::create(rewriter, loc, thread.lane, thread.warp);
    threadPred = LLVM::ICmpOp::create(
        rewriter, loc, LLVM::ICmpPredicate::eq, either,
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(), 0));
  }

  // A compare-and-swap at .gpu scope leaves the scope out (it is atom's
  // default), as Triton writes it: `atom.global.acq_rel.cas.b32`.
  bool defaultScope = !kind && scope == tt::MemSyncScope::GPU;
  std::string opcode =
      ("atom.global." +
       (defaultScope ? std::string() : scopeQualifier(scope).str() + ".") +
       semanticQualifier(sem) + "." + typing->suffix)
          .str();
  int64_t numRegs = static_cast<int64_t>(ptrs.size());
  int64_t group = typing->elements();
  SmallVector<Value> results(numRegs);
  for (int64_t start = 0; start < numRegs; start += group) {
    // A group is executed once, by its representative registers.  Groups
    // are aligned runs of consecutive elements, so a group either
    // duplicates another group wholly or not at all.
    int64_t width = std::min(group, numRegs - start);
    if (representative[start] != start) {
      for (int64_t i = 0; i < width; ++i)
        results[start + i] = results[representative[start + i]];
      continue;
    }
    Value mask = masks.empty() ? Value() : masks[start];
    Value pred = threadPred;
    if (mask)
      pred = pred ? LLVM::AndOp::create(rewriter, loc, pred, mask).getResult()
                  : mask;

    PTXBuilder ptx;
    auto olds = ptx.outputs(typing->words, ("=" + typing->constraint).str());
    auto *predOperand = pred ? ptx.input(pred, "b") : nullptr;
    auto asList = [&](ArrayRef<PTXBuilder::Operand *> words) {
      return words.size() == 1 ? PTXBuilder::Arg(words[0])
                               : PTXBuilder::list(words);
    };
    SmallVector<PTXBuilder::Arg> args = {
        asList(olds), PTXBuilder::address(ptx.input(ptrs[start], "l"), 0)};
    for (auto &column : operands) {
      SmallVector<PTXBuilder::Operand *, 4> words;
      for (int64_t w = 0; w < typing->words; ++w) {
        ArrayRef<Value> elements = ArrayRef<Value>(column).slice(
            start + w * typing->elemsPerWord, typing->elemsPerWord);
        words.push_back(ptx.input(packWord(rewriter, loc, elements, *typing),
                                  typing->constraint));
      }
      args.push_back(asList(words));
    }
    ptx.instr(opcode).guard(predOperand).args(args);

    Type resultType = typing->wordType;
    if (typing->words > 1)
      resultType = LLVM::LLVMStructType::getLiteral(
          rewriter.getContext(),
          SmallVector<Type>(typing->words, typing->wordType));
    Value out = ptx.launch(rewriter, loc, resultType);
    for (int64_t w = 0; w < typing->words; ++w) {
      Value word = typing->words == 1
                       ? out
                       : LLVM::ExtractValueOp::create(rewriter, loc, out, w)
                             .getResult();
      SmallVector<Value> elements =
          unpackWord(rewriter, loc, word, *typing, registerType);
      for (auto [i, element] : llvm::enumerate(elements)) {
        // A masked-off element did nothing; its result is 0.
        if (mask)
          element = LLVM::SelectOp::create(rewriter, loc, mask, element,
                                           zeroOf(rewriter, loc, registerType));
        results[start + w * typing->elemsPerWord + i] = element;
      }
    }
  }

  // Threads that did not execute (duplicates, or all but thread 0 for a
  // scalar) get the result from the executing one.
  if (!result.use_empty() && threadPred) {
    Value buffer = getBufferPointer(rewriter, op);
    if (!buffer)
      return failure();
    Type memoryType = converter.convertMemoryElementType(elementType);
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
  AtomicRMWLowering(TTGToLLVMTypeConverter &converter,
                    const LoweringAxisInfo &access,
                    const TargetConfig &target, PatternBenefit benefit)
      : ConvertOpToLLVMPattern(converter, benefit), access(access),
        target(target) {}

  LogicalResult
  matchAndRewrite(tt::AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return lowerAtomic(op, adaptor.getPtr(), adaptor.getMask(),
                       {adaptor.getVal()}, op.getAtomicRmwOp(), op.getSem(),
                       op.getScope(),
                       TTGToLLVMTypeConverter::of(getTypeConverter()), access,
                       target, rewriter);
  }

  const LoweringAxisInfo &access;
  TargetConfig target;
};

struct AtomicCASLowering : public ConvertOpToLLVMPattern<tt::AtomicCASOp> {
  AtomicCASLowering(TTGToLLVMTypeConverter &converter,
                    const LoweringAxisInfo &access,
                    const TargetConfig &target, PatternBenefit benefit)
      : ConvertOpToLLVMPattern(converter, benefit), access(access),
        target(target) {}

  LogicalResult
  matchAndRewrite(tt::AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return lowerAtomic(op, adaptor.getPtr(), Value(),
                       {adaptor.getCmp(), adaptor.getVal()}, std::nullopt,
                       op.getSem(), op.getScope(),
                       TTGToLLVMTypeConverter::of(getTypeConverter()), access,
                       target, rewriter);
  }

  const LoweringAxisInfo &access;
  TargetConfig target;
};

} // namespace

void tritium::populateAtomicOpToLLVMPatterns(
    TTGToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringAxisInfo &access, const TargetConfig &target) {
  patterns.add<AtomicRMWLowering, AtomicCASLowering>(
      converter, access, target, kTritiumPatternBenefit);
}
