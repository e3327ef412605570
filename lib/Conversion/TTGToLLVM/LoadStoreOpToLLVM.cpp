//===- LoadStoreOpToLLVM.cpp - tt.load / tt.store to PTX ------------------===//
//
// Each thread accesses its registers in groups of `vec` elements, where
//   vec = min(registers consecutive along the layout's fastest dimension,
//             LoweringAxisInfo's limit (contiguity, alignment, mask
//             constancy), 128 bits / element bits)
// so that one PTX instruction moves a group: its elements are packed into
// `nWords` words of `width` = min(vec * bits, max(32, bits)) bits, and the
// instruction is `ld.global[.qualifiers][.vN].bW` with N = nWords.
//
// Loads:  @!$p mov.uW $w, <other>;   (each word, with a mask and `other`)
//         mov.uW $w, 0x0;            (each word, with a mask, no `other`)
//         @$p ld.global.v4.b32 { $0, $1, $2, $3 }, [ $addr + 0 ];
// Without `other`, a word written only under the predicate would look to
// ptxas live from the kernel's entry: the zero defines it first (transpose
// benchmark: 48 -> 38 registers, 10 -> 12 CTAs per SM).  With `other`, the
// two complementary writes are kept: an unconditional mov there lowered
// the layer-norm benchmark from 48 to 40 registers and 2490 to 2310 GB/s
// on the H100 (6 instead of 5 CTAs per SM, same SASS schedule otherwise).
// Stores: @$p  st.global.v4.b32 [ $addr + 0 ], { $a, $b, $c, $d };
// with $p the mask of the group's first element (the analysis guarantees
// it is the mask of the whole group).  A store also runs in one thread only
// among threads holding the same elements, and a duplicate register is not
// stored twice; a scalar store runs in thread 0.
//
// Accesses without mask, cache modifier, eviction hint or thread predicate
// are plain llvm.load / llvm.store of a vector with the group's alignment,
// which LLVM optimizes and NVPTX selects as the same vector instructions.
//
// Cache modifiers become .ca/.cg/.cs/.cv (loads) and .wb/.cg/.cs/.wt
// (stores); eviction policies .L1::evict_first/.L1::evict_last (PTX allows
// them only without a cache modifier), and on loads from sm_80 on also the
// same priority in L2, through a cache policy made before the load
// (createpolicy.fractional.L2::evict_*.b64 p, 1.0, .L2::cache_hint), as
// Triton's loads carry it; volatile loads are ld.volatile.
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tritium/Analysis/Allocation.h"
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"
#include "tritium/Conversion/TTGToLLVM/LayoutIndices.h"
#include "tritium/Conversion/TTGToLLVM/LoweringAxisInfo.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Target/NVIDIA/PTXBuilder.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tritium;
using nvidia::PTXBuilder;

namespace {

/// How one group of `vec` elements is moved.
struct AccessShape {
  int64_t vec;       // elements per group
  int64_t bits;      // bits per element in memory
  int64_t width;     // bits per word
  int64_t words;     // words per group
  int64_t wordElems; // elements per word

  AccessShape(int64_t vec, int64_t bits)
      : vec(vec), bits(bits),
        width(std::min(vec * bits, std::max<int64_t>(32, bits))),
        words(vec * bits / width), wordElems(width / bits) {}

  StringRef constraint() const {
    switch (width) {
    case 8:
      return "c";
    case 16:
      return "h";
    case 64:
      return "l";
    default:
      return "r";
    }
  }
};

/// Pieces shared by loads and stores.
class AccessLowering {
public:
  AccessLowering(const TTGToLLVMTypeConverter &converter,
                 const LoweringAxisInfo &access)
      : converter(converter), access(access) {}

protected:
  /// Elements per group for `op` accessing `ptr` with elements of `bits`.
  int64_t getVectorWidth(Operation *op, Value ptr, int64_t bits) const {
    auto type = dyn_cast<RankedTensorType>(ptr.getType());
    if (!type)
      return 1;
    layout::LinearLayout layout = getLinearLayout(type);
    int dim = getRegisterFastestDim(layout);
    if (dim < 0)
      return 1;
    int64_t vec =
        std::min({getContiguousRegisters(layout, dim),
                  access.getVectorLimit(op), std::max<int64_t>(1, 128 / bits)});
    return std::max<int64_t>(1, llvm::bit_floor(static_cast<uint64_t>(vec)));
  }

  /// The memory type of the elements accessed through `ptr`.
  Type getMemoryType(Value ptr) const {
    auto pointer = cast<tt::PointerType>(getElementTypeOrSelf(ptr.getType()));
    return converter.convertMemoryElementType(pointer.getPointeeType());
  }

  /// An element as the bits of its memory type.
  static Value toBits(OpBuilder &b, Location loc, Value element,
                      Type memoryType) {
    Type bitsType =
        b.getIntegerType(TTGToLLVMTypeConverter::getMemoryBits(memoryType));
    if (isa<LLVM::LLVMPointerType>(element.getType()))
      return LLVM::PtrToIntOp::create(b, loc, bitsType, element);
    if (element.getType() != memoryType) // i1 -> i8
      element = LLVM::ZExtOp::create(b, loc, memoryType, element);
    if (element.getType() == bitsType)
      return element;
    return LLVM::BitcastOp::create(b, loc, bitsType, element);
  }

  /// The inverse of toBits, to the register type.
  static Value fromBits(OpBuilder &b, Location loc, Value bits, Type memoryType,
                        Type registerType) {
    if (isa<LLVM::LLVMPointerType>(registerType))
      return LLVM::IntToPtrOp::create(b, loc, registerType, bits);
    Value element =
        bits.getType() == memoryType
            ? bits
            : LLVM::BitcastOp::create(b, loc, memoryType, bits).getResult();
    if (registerType != memoryType) // i8 -> i1
      element = LLVM::TruncOp::create(b, loc, registerType, element);
    return element;
  }

  /// Whether elements of `memoryType` travel in a word of `wordBits` bits as
  /// the lanes of a vector (`<2 x half>` in an i32): 16-bit floats, whose
  /// packing and unpacking LLVM then selects as pair conversions and pair
  /// arithmetic (two fptruncs into one `cvt.rn.f16x2.f32`, two fadds into
  /// one `add.f16x2`, an i32 read as two halves by one `mov.b32 {%rs, %rs}`)
  /// where shifts and masks keep each lane in a register of its own.
  /// 8-bit integers stay packed by shifts and masks, which LLVM folds into
  /// 32-bit arithmetic (as `<4 x i8>` lanes they take byte permutes and
  /// 16-bit adds: a masked int8 add of 16 elements a thread, 134 PTX
  /// instructions against 82).
  static bool packsAsVector(Type memoryType, int64_t wordBits) {
    if (!isa<FloatType>(memoryType))
      return false;
    int64_t bits = TTGToLLVMTypeConverter::getMemoryBits(memoryType);
    return bits == 16 && wordBits % bits == 0 && bits < wordBits;
  }

  /// Packs `elements` (wordElems of them) into one word of `width` bits.
  static Value packWord(OpBuilder &b, Location loc, ArrayRef<Value> elements,
                        Type memoryType, int64_t width) {
    Type wordType = b.getIntegerType(width);
    int64_t bits = TTGToLLVMTypeConverter::getMemoryBits(memoryType);
    if (packsAsVector(memoryType, width)) {
      auto lanes = VectorType::get({width / bits}, memoryType);
      Value word = static_cast<int64_t>(elements.size()) * bits == width
                       ? LLVM::PoisonOp::create(b, loc, lanes).getResult()
                       : LLVM::ZeroOp::create(b, loc, lanes).getResult();
      for (auto [i, element] : llvm::enumerate(elements))
        word = LLVM::InsertElementOp::create(
            b, loc, word, element,
            LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                     static_cast<int32_t>(i)));
      return LLVM::BitcastOp::create(b, loc, wordType, word);
    }
    Value word;
    for (auto [i, element] : llvm::enumerate(elements)) {
      Value part = toBits(b, loc, element, memoryType);
      if (bits < width) {
        part = LLVM::ZExtOp::create(b, loc, wordType, part);
        if (i > 0)
          part = LLVM::ShlOp::create(
              b, loc, part,
              LLVM::ConstantOp::create(b, loc, wordType,
                                       b.getIntegerAttr(wordType, i * bits)));
      }
      word = word ? LLVM::OrOp::create(b, loc, word, part).getResult() : part;
    }
    return word;
  }

  /// The elements of one word.
  static void unpackWord(OpBuilder &b, Location loc, Value word,
                         int64_t wordElems, Type memoryType, Type registerType,
                         SmallVectorImpl<Value> &out) {
    int64_t bits = TTGToLLVMTypeConverter::getMemoryBits(memoryType);
    Type wordType = word.getType();
    int64_t wordBits = TTGToLLVMTypeConverter::getMemoryBits(wordType);
    if (packsAsVector(memoryType, wordBits)) {
      auto lanes = VectorType::get({wordBits / bits}, memoryType);
      Value vector = LLVM::BitcastOp::create(b, loc, lanes, word);
      for (int64_t i = 0; i < wordElems; ++i)
        out.push_back(LLVM::ExtractElementOp::create(
            b, loc, vector,
            LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                     static_cast<int32_t>(i))));
      return;
    }
    Type bitsType = b.getIntegerType(bits);
    for (int64_t i = 0; i < wordElems; ++i) {
      Value part = word;
      if (i > 0)
        part = LLVM::LShrOp::create(
            b, loc, part,
            LLVM::ConstantOp::create(b, loc, wordType,
                                     b.getIntegerAttr(wordType, i * bits)));
      if (bits < wordBits)
        part = LLVM::TruncOp::create(b, loc, bitsType, part);
      out.push_back(fromBits(b, loc, part, memoryType, registerType));
    }
  }

  static Type vectorOrScalar(Type element, int64_t vec) {
    return vec == 1 ? element : VectorType::get({vec}, element);
  }

  const TTGToLLVMTypeConverter &converter;
  const LoweringAxisInfo &access;
};

StringRef loadCacheQualifier(tt::CacheModifier modifier) {
  switch (modifier) {
  case tt::CacheModifier::CA:
    return "ca";
  case tt::CacheModifier::CG:
    return "cg";
  case tt::CacheModifier::CS:
    return "cs";
  case tt::CacheModifier::CV:
    return "cv";
  default:
    return "";
  }
}

StringRef storeCacheQualifier(tt::CacheModifier modifier) {
  switch (modifier) {
  case tt::CacheModifier::WB:
    return "wb";
  case tt::CacheModifier::CG:
    return "cg";
  case tt::CacheModifier::CS:
    return "cs";
  case tt::CacheModifier::WT:
    return "wt";
  default:
    return "";
  }
}

enum class CacheLevel { L1, L2 };

/// The priority `policy` gives an access's lines in cache `level`
/// ("L1::evict_first", "L2::evict_last"), or "" for the default.
StringRef evictionQualifier(tt::EvictionPolicy policy,
                            CacheLevel level = CacheLevel::L1) {
  bool l2 = level == CacheLevel::L2;
  switch (policy) {
  case tt::EvictionPolicy::EVICT_FIRST:
    return l2 ? "L2::evict_first" : "L1::evict_first";
  case tt::EvictionPolicy::EVICT_LAST:
    return l2 ? "L2::evict_last" : "L1::evict_last";
  default:
    return "";
  }
}

/// A cache policy giving every line the access touches `priority` in L2
/// (an operand for .L2::cache_hint).
Value createL2Policy(ConversionPatternRewriter &rewriter, Location loc,
                     StringRef priority) {
  PTXBuilder ptx;
  PTXBuilder::Operand *policy = ptx.output("=l");
  ptx.instr(("createpolicy.fractional." + priority + ".b64").str())
      .args({policy, ptx.literal("1.0")});
  return ptx.launch(rewriter, loc, rewriter.getI64Type());
}

/// The splat value of `other` as bits, when it is a constant.
std::optional<APInt> getConstantBits(Value other) {
  if (!other)
    return std::nullopt;
  Attribute value;
  if (auto constant = other.getDefiningOp<arith::ConstantOp>())
    value = constant.getValue();
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(value)) {
    if (!dense.isSplat())
      return std::nullopt;
    value = dense.getSplatValue<Attribute>();
  }
  if (auto integer = dyn_cast_or_null<IntegerAttr>(value))
    return integer.getValue();
  if (auto real = dyn_cast_or_null<FloatAttr>(value))
    return real.getValue().bitcastToAPInt();
  return std::nullopt;
}

struct LoadLowering : public ConvertOpToLLVMPattern<tt::LoadOp>,
                      public AccessLowering {
  LoadLowering(TTGToLLVMTypeConverter &converter,
               const LoweringAxisInfo &access)
      : ConvertOpToLLVMPattern(converter, kTritiumPatternBenefit),
        AccessLowering(converter, access) {}

  LogicalResult
  matchAndRewrite(tt::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (tt::isTensorPointerType(op.getPtr().getType()))
      return op.emitError("block-pointer loads must be rewritten first "
                          "(tt-rewrite-tensor-pointer)");
    Location loc = op.getLoc();
    Type memoryType = getMemoryType(op.getPtr());
    Type resultType = converter.convertType(op.getType());
    auto resultStruct = dyn_cast<LLVM::LLVMStructType>(resultType);
    Type registerType =
        resultStruct ? resultStruct.getBody().front() : resultType;
    AccessShape shape(
        getVectorWidth(op, op.getPtr(),
                       TTGToLLVMTypeConverter::getMemoryBits(memoryType)),
        TTGToLLVMTypeConverter::getMemoryBits(memoryType));

    SmallVector<Value> ptrs = unpackElements(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks, others;
    if (adaptor.getMask())
      masks = unpackElements(rewriter, loc, adaptor.getMask());
    if (adaptor.getOther())
      others = unpackElements(rewriter, loc, adaptor.getOther());
    std::optional<APInt> otherBits = getConstantBits(op.getOther());

    StringRef cache =
        op.getIsVolatile() ? "" : loadCacheQualifier(op.getCache());
    StringRef evict = op.getIsVolatile() || !cache.empty()
                          ? ""
                          : evictionQualifier(op.getEvict());
    bool native = masks.empty() && cache.empty() && evict.empty();
    StringRef l2Priority =
        evict.empty() ? "" : evictionQualifier(op.getEvict(), CacheLevel::L2);
    Value l2Policy;
    if (!l2Priority.empty() &&
        ttg::getComputeCapability(op->getParentOfType<ModuleOp>()) >= 80)
      l2Policy = createL2Policy(rewriter, loc, l2Priority);

    SmallVector<Value> loaded;
    for (int64_t start = 0, e = ptrs.size(); start < e; start += shape.vec) {
      if (native) {
        Type type = vectorOrScalar(memoryType, shape.vec);
        Value value = LLVM::LoadOp::create(
            rewriter, loc, type, ptrs[start],
            shape.vec * std::max<int64_t>(1, shape.bits / 8),
            op.getIsVolatile());
        for (int64_t i = 0; i < shape.vec; ++i) {
          Value element =
              shape.vec == 1 ? value
                             : LLVM::ExtractElementOp::create(
                                   rewriter, loc, value,
                                   LLVM::ConstantOp::create(
                                       rewriter, loc, rewriter.getI32Type(), i))
                                   .getResult();
          if (element.getType() != registerType)
            element =
                LLVM::TruncOp::create(rewriter, loc, registerType, element);
          loaded.push_back(element);
        }
        continue;
      }

      PTXBuilder ptx;
      std::string out = ("=" + shape.constraint()).str();
      auto words = ptx.outputs(shape.words, out);
      PTXBuilder::Operand *pred =
          masks.empty() ? nullptr : ptx.input(masks[start], "b");
      PTXBuilder::Operand *addr = ptx.input(ptrs[start], "l");
      PTXBuilder::Operand *policy = l2Policy ? ptx.input(l2Policy, "l") : nullptr;
      if (pred) {
        std::string mov =
            "mov.u" + std::to_string(std::max<int64_t>(16, shape.width));
        for (int64_t w = 0; w < shape.words; ++w) {
          PTXBuilder::Operand *value;
          if (others.empty()) {
            value = ptx.literal("0x0");
          } else if (otherBits) {
            APInt bits = otherBits->zextOrTrunc(shape.bits);
            APInt word = APInt::getSplat(shape.width, bits);
            value = ptx.literal("0x" + llvm::toString(word, 16, false));
          } else {
            ArrayRef<Value> elements(others);
            value =
                ptx.input(packWord(rewriter, loc,
                                   elements.slice(start + w * shape.wordElems,
                                                  shape.wordElems),
                                   memoryType, shape.width),
                          shape.constraint());
          }
          auto &instr = ptx.instr(mov);
          if (!others.empty())
            instr.guard(pred, /*negate=*/true);
          instr.args({words[w], value});
        }
      }
      PTXBuilder::Instr &load = ptx.instr("ld")
          .q("volatile", op.getIsVolatile())
          .q("global")
          .q(cache)
          .q(evict)
          .q("L2::cache_hint", policy != nullptr)
          .q("v" + std::to_string(shape.words), shape.words > 1)
          .q("b" + std::to_string(shape.width))
          .guard(pred);
      SmallVector<PTXBuilder::Arg, 3> loadArgs = {
          shape.words > 1 ? PTXBuilder::list(words) : PTXBuilder::Arg(words[0]),
          PTXBuilder::address(addr, 0)};
      if (policy)
        loadArgs.push_back(policy);
      load.args(loadArgs);
      Type wordType = rewriter.getIntegerType(shape.width);
      Type asmType =
          shape.words == 1
              ? wordType
              : LLVM::LLVMStructType::getLiteral(
                    getContext(), SmallVector<Type>(shape.words, wordType));
      Value result = ptx.launch(rewriter, loc, asmType);
      for (int64_t w = 0; w < shape.words; ++w) {
        Value word =
            shape.words == 1
                ? result
                : LLVM::ExtractValueOp::create(rewriter, loc, result, w)
                      .getResult();
        unpackWord(rewriter, loc, word, shape.wordElems, memoryType,
                   registerType, loaded);
      }
    }
    rewriter.replaceOp(op, packElements(rewriter, loc, resultType, loaded));
    return success();
  }
};

struct StoreLowering : public ConvertOpToLLVMPattern<tt::StoreOp>,
                       public AccessLowering {
  StoreLowering(TTGToLLVMTypeConverter &converter,
                const LoweringAxisInfo &access)
      : ConvertOpToLLVMPattern(converter, kTritiumPatternBenefit),
        AccessLowering(converter, access) {}

  LogicalResult
  matchAndRewrite(tt::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (tt::isTensorPointerType(op.getPtr().getType()))
      return op.emitError("block-pointer stores must be rewritten first "
                          "(tt-rewrite-tensor-pointer)");
    Location loc = op.getLoc();
    Type memoryType = getMemoryType(op.getPtr());
    AccessShape shape(
        getVectorWidth(op, op.getPtr(),
                       TTGToLLVMTypeConverter::getMemoryBits(memoryType)),
        TTGToLLVMTypeConverter::getMemoryBits(memoryType));

    SmallVector<Value> ptrs = unpackElements(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> values =
        unpackElements(rewriter, loc, adaptor.getValue());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackElements(rewriter, loc, adaptor.getMask());

    // One thread per element: the unique holder, or thread 0 for a scalar.
    ThreadIndex thread =
        emitThreadIndex(rewriter, loc, op->getParentOfType<ModuleOp>());
    Value threadPred;
    SmallVector<int64_t> representative = {0};
    if (auto type = dyn_cast<RankedTensorType>(op.getPtr().getType())) {
      layout::LinearLayout layout = getLinearLayout(type);
      threadPred = emitUniqueThreadPredicate(rewriter, loc, layout, thread);
      representative = getRepresentativeRegisters(layout);
    } else {
      Value either =
          LLVM::OrOp::create(rewriter, loc, thread.lane, thread.warp);
      threadPred = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::eq, either,
          LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(), 0));
    }

    StringRef cache = storeCacheQualifier(op.getCache());
    StringRef evict = cache.empty() ? evictionQualifier(op.getEvict()) : "";
    // (An explicit .wb, PTX's default, stays visible as st.global.wb, as
    // Triton emits it.)
    bool native = masks.empty() && !threadPred && evict.empty() &&
                  cache.empty();

    for (int64_t start = 0, e = ptrs.size(); start < e; start += shape.vec) {
      if (representative[start] != start)
        continue; // a duplicate of an earlier register
      ArrayRef<Value> group = ArrayRef<Value>(values).slice(start, shape.vec);
      if (native) {
        Value stored;
        if (shape.vec == 1) {
          stored =
              group[0].getType() == memoryType
                  ? group[0]
                  : LLVM::ZExtOp::create(rewriter, loc, memoryType, group[0])
                        .getResult();
        } else {
          stored = LLVM::UndefOp::create(rewriter, loc,
                                         vectorOrScalar(memoryType, shape.vec));
          for (auto [i, element] : llvm::enumerate(group)) {
            Value inMemory =
                element.getType() == memoryType
                    ? element
                    : LLVM::ZExtOp::create(rewriter, loc, memoryType, element)
                          .getResult();
            stored = LLVM::InsertElementOp::create(
                rewriter, loc, stored, inMemory,
                LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                         i));
          }
        }
        LLVM::StoreOp::create(rewriter, loc, stored, ptrs[start],
                              shape.vec * std::max<int64_t>(1, shape.bits / 8));
        continue;
      }

      Value pred = threadPred;
      if (!masks.empty())
        pred = pred ? LLVM::AndOp::create(rewriter, loc, pred, masks[start])
                          .getResult()
                    : masks[start];
      PTXBuilder ptx;
      PTXBuilder::Operand *predOperand = pred ? ptx.input(pred, "b") : nullptr;
      PTXBuilder::Operand *addr = ptx.input(ptrs[start], "l");
      SmallVector<PTXBuilder::Operand *> words;
      for (int64_t w = 0; w < shape.words; ++w)
        words.push_back(ptx.input(
            packWord(rewriter, loc,
                     group.slice(w * shape.wordElems, shape.wordElems),
                     memoryType, shape.width),
            shape.constraint()));
      ptx.instr("st")
          .q("global")
          .q(cache)
          .q(evict)
          .q("v" + std::to_string(shape.words), shape.words > 1)
          .q("b" + std::to_string(shape.width))
          .guard(predOperand)
          .args({PTXBuilder::address(addr, 0),
                 shape.words > 1 ? PTXBuilder::list(words)
                                 : PTXBuilder::Arg(words[0])});
      ptx.launch(rewriter, loc, Type());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void tritium::populateLoadStoreOpToLLVMPatterns(
    TTGToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringAxisInfo &access) {
  patterns.add<LoadLowering, StoreLowering>(converter, access);
}
