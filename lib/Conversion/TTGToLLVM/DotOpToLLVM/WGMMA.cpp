//===- WGMMA.cpp - ttg.warp_group_dot as wgmma ----------------------------===//
//
// Hopper's warpgroup MMA: the four warps of a warpgroup together compute a
// 64 x instrN block of the accumulator from A and B tiles in shared
// memory, which each wgmma.mma_async names by 64-bit matrix descriptors:
//
//   bits  0-13  (address & 0x3ffff) >> 4 of the sub-tile's first element,
//               unswizzled (layout/NvmmaShared.h: nvmmaUnswizzledOffset)
//   bits 16-29  leading byte offset >> 4: for an MN-major operand the
//               distance between slabs along M or N (rows * swizzle bytes);
//               unused (1) for K-major operands, whose K step of one
//               instruction stays inside one slab row
//   bits 32-45  stride byte offset >> 4: 8 rows of the swizzle width, the
//               distance between groups of core matrices
//   bits 62-63  swizzle: 1 = 128 bytes, 2 = 64, 3 = 32
//
// A 16-bit or 8-bit A may instead be a tensor in the #ttg.dot_op layout of
// the accumulator (kWidth 2 or 4): each wgmma then takes four registers of
// A, this warp's 16 x 32-byte slab in mma.sync's m16n8k16 or m16n8k32 A
// fragment, in place of its descriptor (no imm-trans-a).
//
// Per warp_group_dot:
//   wgmma.fence                      (the accumulator and A registers are
//                                    ready: it takes and returns them)
//   for mRep, nRep, kRep:  acc[mRep, nRep] = wgmma.mma_async(descA, descB, acc)
//   wgmma.commit_group; wgmma.wait_group 0 (not for an isAsync dot)
// The wait takes and returns every accumulator register, so nothing reads
// one before the asynchronous MMAs are done; ttg.warp_group_dot_wait
// {pendings = n} is the same wait on its own, for asynchronous dots.  Warpgroup g of the grid
// (warpsPerCTA [wm, wn], warps M-fastest) covers rows 64 * ((w % wm) / 4)
// and columns instrN * (w / wm) of each repetition of the CTA tile.
// MN-major operands (order [0, 1] for A, [1, 0] for B; 16-bit types only)
// set the instruction's transpose flags.  With max_num_imprecise_acc = n
// (fp8, 0 < n <= K), each n of K accumulate into zeroed registers, which are
// waited for and added to the accumulator in f32 (Hopper's fp8 MMAs add at
// reduced precision).
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"
#include "tritium/Conversion/TTGToLLVM/LayoutIndices.h"
#include "tritium/Conversion/TTGToLLVM/NVVMHelpers.h"
#include "tritium/Conversion/TTGToLLVM/Patterns.h"
#include "tritium/Conversion/TTGToLLVM/TypeConverter.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Layout/MmaLayout.h"
#include "tritium/Target/NVIDIA/PTXBuilder.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tritium;

namespace {

/// One operand's tile in shared memory and how descriptors address it.
struct OperandTile {
  Value base; // i32 shared address of element (0, 0)
  layout::NvmmaSharedSpec spec;
  std::vector<int64_t> shape;
  int64_t elementBytes;
  bool kMajor;
  int64_t fixedFields; // LBO, SBO and swizzle bits of the descriptor

  OperandTile(Value base, ttg::MemDescType type, int kDim)
      : base(base),
        spec(cast<ttg::NvmmaSharedEncodingAttr>(type.getEncoding()).toSpec()),
        shape(type.getShape().begin(), type.getShape().end()),
        elementBytes(spec.elementBits / 8), kMajor(spec.order[0] == kDim) {
    int64_t rows = shape[spec.order[1]];
    int64_t lbo = kMajor ? 16 : rows * spec.swizzleBytes;
    int64_t sbo = 8 * spec.swizzleBytes;
    int64_t mode = spec.swizzleBytes == 128 ? 1 : spec.swizzleBytes == 64 ? 2 : 3;
    fixedFields = ((lbo >> 4) << 16) | ((sbo >> 4) << 32) | (mode << 62);
  }

  /// The address field (bits 0-13, the shared address / 16) of element
  /// (0, 0) moved by `dynamic` elements along dimension `dynamicDim` (a
  /// warpgroup's offset), as an i64, computed once per dot; descriptorAt()
  /// makes every sub-tile's descriptor from it (through descriptorOrigin).
  Value baseAddressField(OpBuilder &builder, Location loc, int dynamicDim,
                         Value dynamic) const {
    // The unswizzled offset is r * perSlab + (c / perSlab) * rows * perSlab
    // + c % perSlab; every warpgroup offset is a multiple of 64 rows or of
    // instrN columns, so split it into the same terms at run time.
    int64_t perSlab = spec.swizzleBytes / elementBytes;
    int64_t rows = shape[spec.order[1]];
    Value elements;
    if (dynamicDim == spec.order[1]) {
      elements = LLVM::MulOp::create(builder, loc, dynamic,
                                     emitI32Constant(builder, loc, perSlab));
    } else {
      Value slab = LLVM::LShrOp::create(
          builder, loc, dynamic,
          emitI32Constant(builder, loc, llvm::Log2_64(perSlab)));
      Value inSlab = LLVM::AndOp::create(
          builder, loc, dynamic, emitI32Constant(builder, loc, perSlab - 1));
      elements = LLVM::AddOp::create(
          builder, loc,
          LLVM::MulOp::create(builder, loc, slab,
                              emitI32Constant(builder, loc, rows * perSlab)),
          inSlab);
    }
    Value address = LLVM::AddOp::create(
        builder, loc, base,
        LLVM::MulOp::create(builder, loc, elements,
                            emitI32Constant(builder, loc, elementBytes)));
    Value field = LLVM::LShrOp::create(
        builder, loc,
        LLVM::AndOp::create(builder, loc, address,
                            emitI32Constant(builder, loc, 0x3ffff)),
        emitI32Constant(builder, loc, 4));
    return LLVM::ZExtOp::create(builder, loc, builder.getI64Type(), field);
  }

  /// What a dot's descriptors of this tile are added to: the base address
  /// field itself (flat), or the base descriptor, field plus fixed fields,
  /// made once per dot (chained); and whether the adds stay at the dot
  /// (pinned: LLVM neither hoists nor merges them).
  struct Origin {
    Value value;
    bool flat;
    bool pinned;
  };

  /// The origin of a dot's descriptors from its base address field.  Flat,
  /// every descriptor is one add from the field, never from another
  /// descriptor: ptxas rebuilds such adds in uniform registers where it
  /// needs them, while a chain (base descriptor, then a sub-tile's add to
  /// it) it keeps live in vector registers and moves with R2UR before each
  /// wgmma (tutorial 06's backward at head dim 128, causal, 4 warps: 188
  /// R2UR against 20, 1,816 bytes of spill stores against 1,524; ptxas of
  /// CUDA 13.0).  `flat` is for CTAs of one warpgroup, whose base field is
  /// the tile's address alone: there it times 1.15-1.24x on that backward
  /// and 1.07-1.08x on tutorial 03's (64, 256, 32, 4 warps).  With the
  /// base field moved by a warpgroup's offset (two warpgroups or more) the
  /// flat form times 0.92x on tutorial 06's forward on tensor descriptors
  /// (head dim 128, (128, 128), 3 stages, 8 warps) and, with the warp
  /// index masked to give LLVM its range, 0.95x on its causal form; the
  /// chain is kept there.  (H200, 2026-11-30, against the chained form.)
  /// There the adds are pinned: a tile that does not change in a loop has
  /// loop-invariant descriptors, which LLVM would hoist out of the loop and
  /// merge across loops, each 64-bit value then live in vector registers
  /// and moved into uniform ones (R2UR) before each wgmma; pinned, only the
  /// base field lives across the loop (tutorial 06's backward at head dim
  /// 128, (32, 128, 128, 32, 3, 8) on block pointers: 82 R2UR -> 1, loops
  /// of 348 and 242 SASS instructions -> 263 and 206, Triton's 248 and
  /// 207; its forward on block pointers at (128, 128, 2, 8): 501 -> 487,
  /// Triton's 492; ptxas of CUDA 13.0; with the warp index read in the loop
  /// as well, as the lowering below does for these kernels: 274 and 216,
  /// 493).
  Origin descriptorOrigin(OpBuilder &builder, Location loc, Value baseField,
                          bool oneWarpgroup) const {
    if (oneWarpgroup)
      return {baseField, /*flat=*/true, /*pinned=*/false};
    return {addToDescriptor(builder, loc, baseField, fixedFields, /*pinned=*/true),
            /*flat=*/false, /*pinned=*/true};
  }

  /// The descriptor of the sub-tile at `coord` (plus the base's warpgroup
  /// offset): the origin plus one constant, the sub-tile's byte offset / 16
  /// (with the fixed fields when the origin is flat), one 64-bit add per
  /// wgmma.  Adding to the address field directly is exact: static and
  /// dynamic parts never carry into each other's terms (the static
  /// coordinate along the dynamic dimension is a multiple of the whole warp
  /// grid's extent there, a multiple of a slab), sub-tiles start on 16-byte
  /// boundaries, and shared addresses stay below 2^18, so the 14-bit field
  /// never overflows.
  Value descriptorAt(OpBuilder &builder, Location loc, const Origin &origin,
                     std::vector<int64_t> coord) const {
    int64_t bytes = layout::nvmmaUnswizzledOffset(spec, shape, coord) *
                    elementBytes;
    assert(bytes % 16 == 0 && "wgmma sub-tiles start on 16-byte boundaries");
    if (origin.flat)
      return addToDescriptor(builder, loc, origin.value,
                             fixedFields + (bytes >> 4), origin.pinned);
    if (bytes == 0)
      return origin.value;
    return addToDescriptor(builder, loc, origin.value, bytes >> 4,
                           origin.pinned);
  }

  /// `descriptor + constant` as a PTX add.s64 that LLVM cannot see into.
  /// LLVM would turn the add of disjoint bits into an or of each
  /// descriptor's own constant; ptxas then builds every descriptor's low
  /// word apart (a ULOP3 each) and moves both words into place (two UMOVs
  /// a wgmma), where from adds it derives them with 64-bit uniform adds:
  /// tutorial 09's K step is 97 SASS instructions a warp with the adds and
  /// 103 with the ors (4 stages; measured 2026-11-28 on the H200).  Pure
  /// unless `pinned`: LLVM may then hoist and merge it.
  static Value addToDescriptor(OpBuilder &builder, Location loc,
                               Value descriptor, int64_t constant, bool pinned) {
    nvidia::PTXBuilder ptx;
    auto *out = ptx.outputs(1, "=l").front();
    auto *in = ptx.input(descriptor, "l");
    ptx.verbatim("add.s64 %0, %1, " + std::to_string(constant) + ";", {out, in});
    return ptx.launch(builder, loc, builder.getI64Type(),
                      /*hasSideEffects=*/pinned);
  }
};

/// `instruction`, taking and returning `values` (tied): every later read
/// of them is ordered after it, every computation of them before it.
SmallVector<Value> emitTiedWgmmaSync(OpBuilder &builder, Location loc,
                                     ArrayRef<Value> values,
                                     const std::string &instruction);

/// wgmma.wait_group `pendings`, taking and returning `values` (tied), so
/// that every later read of them is ordered after the wait.
SmallVector<Value> emitWgmmaWait(OpBuilder &builder, Location loc,
                                 ArrayRef<Value> values, int64_t pendings) {
  return emitTiedWgmmaSync(builder, loc, values,
                           "wgmma.wait_group.sync.aligned " +
                               std::to_string(pendings) + ";");
}

SmallVector<Value> emitTiedWgmmaSync(OpBuilder &builder, Location loc,
                                     ArrayRef<Value> values,
                                     const std::string &instruction) {
  nvidia::PTXBuilder ptx;
  SmallVector<Type> types;
  for (auto [i, value] : llvm::enumerate(values)) {
    Type type = value.getType();
    ptx.output(type.isF32() ? "=f" : type.isInteger(64) ? "=l" : "=r");
    types.push_back(type);
  }
  for (auto [i, value] : llvm::enumerate(values))
    ptx.input(value, std::to_string(i));
  ptx.verbatim(instruction, {});
  if (values.empty()) {
    ptx.launch(builder, loc, Type());
    return {};
  }
  Value result = ptx.launch(
      builder, loc,
      LLVM::LLVMStructType::getLiteral(builder.getContext(), types));
  SmallVector<Value> outputs;
  for (size_t i = 0; i < values.size(); ++i)
    outputs.push_back(LLVM::ExtractValueOp::create(builder, loc, result, i));
  return outputs;
}

/// Whether `dot` is in a loop and reads a shared-memory operand defined
/// above that loop (innermost), whose descriptors are then loop-invariant.
bool readsTileDefinedAboveItsLoop(ttg::WarpGroupDotOp dot) {
  auto loop = dot->getParentOfType<LoopLikeOpInterface>();
  if (!loop)
    return false;
  for (Value operand : {Value(dot.getA()), Value(dot.getB())})
    if (isa<ttg::MemDescType>(operand.getType()) &&
        !loop->isAncestor(operand.getParentRegion()->getParentOp()))
      return true;
  return false;
}

struct WgmmaDotLowering : public ConvertOpToLLVMPattern<ttg::WarpGroupDotOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ttg::WarpGroupDotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto cType = cast<RankedTensorType>(op.getType());
    auto mma = cast<ttg::NvidiaMmaEncodingAttr>(cType.getEncoding());
    // A is a shared tile (a descriptor) or a tensor in the #ttg.dot_op
    // layout of the accumulator (four registers per wgmma).
    bool aInRegisters = isa<RankedTensorType>(op.getA().getType());
    auto aType = cast<ShapedType>(op.getA().getType());
    ttg::MemDescType bType = op.getB().getType();
    Type ea = aType.getElementType(), eb = bType.getElementType();
    Type ec = cType.getElementType();
    ArrayRef<unsigned> instr = mma.getInstrShape();
    int64_t instrN = instr[1], instrK = instr[2];
    int64_t wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
    int64_t m = cType.getDimSize(0), n = cType.getDimSize(1);
    int64_t k = aType.getDimSize(1);
    int64_t repM = std::max<int64_t>(1, m / (16 * wm));
    int64_t repN = std::max<int64_t>(1, n / (instrN * wn));
    int64_t repK = k / instrK;

    Type i32 = rewriter.getI32Type();
    auto address = [&](Value ptr) {
      return LLVM::PtrToIntOp::create(rewriter, loc, i32, ptr).getResult();
    };
    std::optional<OperandTile> a;
    SmallVector<Value> aElements;
    if (aInRegisters)
      aElements = unpackElements(rewriter, loc, adaptor.getA());
    else
      a.emplace(address(adaptor.getA()), cast<ttg::MemDescType>(aType),
                /*kDim=*/1);
    OperandTile b(address(adaptor.getB()), bType, /*kDim=*/0);
    bool is16Bit = ea.getIntOrFloatBitWidth() == 16;
    bool aKMajor = !a || a->kMajor;
    if ((!aKMajor || !b.kMajor) && !is16Bit)
      return op.emitError("wgmma reads MN-major operands only of 16-bit types");

    // fp32 operands are read as tf32.
    auto operandName = [](Type type) {
      return type.isF32() ? std::string("tf32") : nvvm::ptxMmaTypeName(type);
    };
    std::string ta = operandName(ea), tb = operandName(eb),
                tc = nvvm::ptxMmaTypeName(ec);
    if (ta.empty() || tb.empty() || tc.empty())
      return op.emitError() << "no wgmma multiplies " << ea << " by " << eb
                            << " into " << ec;
    bool halfAcc = ec.isF16();
    bool intAcc = ec.isInteger(32);
    int64_t accRegs = halfAcc ? instrN / 4 : instrN / 2;
    std::string opcode = "wgmma.mma_async.sync.aligned.m64n" +
                         std::to_string(instrN) + "k" +
                         std::to_string(instrK) + "." + tc + "." + ta + "." + tb;
    std::string tail;
    if (!intAcc)
      tail += ", 1, 1"; // imm-scale-a, imm-scale-b
    if (is16Bit) // imm-trans-a (descriptor A only), imm-trans-b
      tail += std::string(aInRegisters ? "" : (aKMajor ? ", 0" : ", 1")) +
              ", " + (b.kMajor ? "0" : "1");

    auto module = op->getParentOfType<ModuleOp>();
    // The warp index made warp-uniform by a shfl from lane 0, as Triton
    // does: ptxas then keeps the descriptors in uniform registers.  Taken
    // straight from %tid, they are built in vector registers and moved
    // with R2UR before every wgmma: tutorial 09's persistent K loop runs 12
    // more vector instructions a step per warp, 8.3 M more in all at
    // 8192^3 (ncu), and times 0.4-1.0% behind the uniform build under one
    // launcher (measured 2026-11-28 on the H200): under the power cap,
    // instructions are clock.
    // Where it is read matters for a dot in a loop that reads a tile which
    // does not change in the loop (one defined above it: K and V in
    // tutorial 06's dK/dV loop), whose base field is then loop-invariant:
    //  - read once at the function's entry, that field lives across the
    //    loop in vector registers, and each descriptor is built from it
    //    there and moved with R2UR: the backward on plain pointers at head
    //    dim 64, causal, (32, 128, 128, 32, 3, 8) 120 R2UR and 178
    //    registers; at head dim 128, (64, 128, 128, 64, 3, 8), 166 R2UR and
    //    76 bytes of spills (ptxas of CUDA 13.0, descriptors pinned);
    //  - read at the dot, the shfl stays in the loop (convergent, LLVM does
    //    not hoist it) and so does the field; ptxas rebuilds both in
    //    uniform registers each turn, as Triton's, which reads it there
    //    too: 4 R2UR and 128 registers; 4 R2UR, 253 registers, no spills.
    //    But where the dot's tiles are the loop's ring slots, nothing is
    //    saved and the index's uniform arithmetic is redone each turn
    //    (tutorial 03 at (128, 256, 64, 3, 8): a K step of 114 SASS
    //    instructions against 109).
    // So the index is read at the dot where the dot reads a tile defined
    // above its loop, at the function's entry otherwise.
    // A CTA of one warpgroup (not warp-specialized) has no warpgroup
    // offsets and reads no warp index: its descriptors are the tile's
    // address plus constants, as Triton's are, made flat (descriptorOrigin).
    nvvm::RunningWarps running = nvvm::runningWarps(op->getBlock());
    bool oneWarpgroup = !running.specialized && running.count == 4;
    Value rowBlock, colBlock;
    if (oneWarpgroup) {
      rowBlock = emitI32Constant(rewriter, loc, 0);
      colBlock = rowBlock;
    } else {
      Value warp;
      {
        OpBuilder::InsertionGuard atEntry(rewriter);
        if (!readsTileDefinedAboveItsLoop(op))
          nvvm::setInsertionPointToFunctionEntry(rewriter, op);
        warp = nvvm::shuffleIdx(rewriter, loc,
                                emitThreadIndex(rewriter, loc, module).warp,
                                emitI32Constant(rewriter, loc, 0));
      }
      // Warpgroup offsets: rows 64 * ((w % wm) / 4), columns instrN * (w / wm).
      Value wmValue = emitI32Constant(rewriter, loc, wm);
      rowBlock = LLVM::MulOp::create(
          rewriter, loc,
          LLVM::UDivOp::create(
              rewriter, loc, LLVM::URemOp::create(rewriter, loc, warp, wmValue),
              emitI32Constant(rewriter, loc, 4)),
          emitI32Constant(rewriter, loc, 64));
      colBlock = LLVM::MulOp::create(
          rewriter, loc, LLVM::UDivOp::create(rewriter, loc, warp, wmValue),
          emitI32Constant(rewriter, loc, instrN));
    }

    SmallVector<Value> d = unpackElements(rewriter, loc, adaptor.getC());
    if (int64_t(d.size()) != (instrN / 2) * repM * repN)
      return op.emitError("wgmma accumulator registers do not match its layout");
    Type accType = halfAcc ? i32 : intAcc ? i32 : rewriter.getF32Type();
    // max_num_imprecise_acc (fp8 only, 0 < n <= K): Hopper's fp8 MMAs add
    // at reduced precision, so every n of K go to a zeroed partial
    // accumulator that is then waited for and added to the real one in f32.
    int64_t imprecise = op.getMaxNumImpreciseAcc();
    bool partial = isa<Float8E4M3FNType, Float8E5M2Type>(ea) && ec.isF32() &&
                   imprecise > 0 && imprecise <= k;
    // A zero C is not materialized: the first wgmma of each tile does not
    // read its accumulator (scale-d = 0) and the registers start undefined.
    // Zeros moved into them while an earlier asynchronous wgmma is still in
    // flight would make ptxas serialize every wgmma of the kernel (C7515).
    // (Partial sums are still added to a zero C, as Triton does.)
    bool zeroC = !partial && (matchPattern(op.getC(), m_Zero()) ||
                              matchPattern(op.getC(), m_AnyZeroFloat()));
    if (zeroC)
      for (Value &value : d)
        value = LLVM::UndefOp::create(rewriter, loc, value.getType());
    StringRef accConstraint = (halfAcc || intAcc) ? "r" : "f";

    // Accumulator registers of each instruction tile, as wgmma holds them.
    SmallVector<SmallVector<Value>> acc;
    for (int64_t mr = 0; mr < repM; ++mr)
      for (int64_t nr = 0; nr < repN; ++nr) {
        int64_t first = (instrN / 2) * (nr + repN * mr);
        SmallVector<Value> regs;
        for (int64_t i = 0; i < instrN / 2; i += halfAcc ? 2 : 1)
          regs.push_back(halfAcc ? packToI32(rewriter, loc,
                                             {d[first + i], d[first + i + 1]})
                                 : d[first + i]);
        acc.push_back(regs);
      }

    auto fence = [&](StringRef text) {
      nvidia::PTXBuilder ptx;
      ptx.instr(text);
      ptx.launch(rewriter, loc, Type());
    };
    OperandTile::Origin originA;
    if (a)
      originA = a->descriptorOrigin(
          rewriter, loc,
          a->baseAddressField(rewriter, loc, /*dynamicDim=*/0, rowBlock),
          oneWarpgroup);
    OperandTile::Origin originB = b.descriptorOrigin(
        rewriter, loc,
        b.baseAddressField(rewriter, loc, /*dynamicDim=*/1, colBlock),
        oneWarpgroup);
    // The A registers of instruction tile (mr, kr): its 16 x 32-byte slab
    // of this warp's rows, as mma.sync's A fragment of the same K bytes
    // (m16n8k16 for 16-bit types, m16n8k32 for 8-bit ones: kWidth elements
    // per register; layout/MmaLayout.h: mmaV2OperandRegister).
    layout::MmaV2Repetitions aReps;
    aReps.m = repM;
    aReps.k = repK;
    int64_t kWidth = 32 / ea.getIntOrFloatBitWidth();
    if (aInRegisters &&
        int64_t(aElements.size()) != 4 * kWidth * repM * repK)
      return op.emitError("wgmma register operand does not match its layout");
    SmallVector<Value> aRegisters; // 4 per (mr, kr), kr fastest
    if (aInRegisters)
      for (int64_t mr = 0; mr < repM; ++mr)
        for (int64_t kr = 0; kr < repK; ++kr)
          for (int64_t r = 0; r < 4; ++r) {
            SmallVector<Value> packed;
            for (int64_t i = 0; i < kWidth; ++i)
              packed.push_back(aElements[layout::mmaV2OperandRegister(
                  aReps, 0, kWidth, mr, kr, kWidth * r + i)]);
            aRegisters.push_back(packToI32(rewriter, loc, packed));
          }
    // The fence takes and returns the accumulator and A registers: whatever
    // computes them (an accumulator rescaled in registers, probabilities
    // converted for a register A) is then done before it in the PTX, and
    // ptxas issues the wgmmas back to back instead of fencing each one.
    {
      SmallVector<Value> ready;
      for (auto &regs : acc)
        ready.append(regs.begin(), regs.end());
      ready.append(aRegisters.begin(), aRegisters.end());
      ready = emitTiedWgmmaSync(rewriter, loc, ready, "wgmma.fence.sync.aligned;");
      size_t i = 0;
      for (auto &regs : acc)
        for (Value &reg : regs)
          reg = ready[i++];
      for (Value &reg : aRegisters)
        reg = ready[i++];
    }
    auto aFragment = [&](int64_t mr, int64_t kr) {
      auto first = aRegisters.begin() + 4 * (kr + repK * mr);
      return SmallVector<Value>(first, first + 4);
    };
    // One wgmma on `regs`: D = A * B + D, or D = A * B when !accumulate.
    auto emitWgmma = [&](SmallVector<Value> &regs, int64_t mr, int64_t nr,
                         int64_t kr, bool accumulate) {
      Value descB = b.descriptorAt(rewriter, loc, originB,
                                   {kr * instrK, nr * instrN * wn});
      nvidia::PTXBuilder ptx;
      auto outs = ptx.outputs(accRegs, ("=" + accConstraint).str());
      SmallVector<nvidia::PTXBuilder::Operand *> refs(outs.begin(), outs.end());
      for (int64_t i = 0; i < accRegs; ++i)
        ptx.input(regs[i], std::to_string(i)); // tied to output i
      std::string aText;
      int64_t next = accRegs;
      if (aInRegisters) {
        aText = "{";
        for (Value reg : aFragment(mr, kr)) {
          refs.push_back(ptx.input(reg, "r"));
          aText += (next == accRegs ? "%" : ", %") + std::to_string(next);
          ++next;
        }
        aText += "}";
      } else {
        Value descA = a->descriptorAt(rewriter, loc, originA,
                                      {mr * 16 * wm, kr * instrK});
        refs.push_back(ptx.input(descA, "l"));
        aText = "%" + std::to_string(next++);
      }
      refs.push_back(ptx.input(descB, "l"));
      std::string bText = "%" + std::to_string(next++);
      refs.push_back(ptx.input(emitI32Constant(rewriter, loc, accumulate), "r"));
      std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, %" +
                         std::to_string(next) + ", 0;\n" + opcode + " {";
      for (int64_t i = 0; i < accRegs; ++i)
        text += (i ? ", %" : "%") + std::to_string(i);
      text += "}, " + aText + ", " + bText + ", p" + tail + ";\n}";
      ptx.verbatim(text, refs);
      SmallVector<Type> types(accRegs, accType);
      Value result = ptx.launch(
          rewriter, loc, LLVM::LLVMStructType::getLiteral(getContext(), types));
      for (int64_t i = 0; i < accRegs; ++i)
        regs[i] = LLVM::ExtractValueOp::create(rewriter, loc, result, i);
    };
    int64_t group = partial ? std::max<int64_t>(1, imprecise / instrK) : repK;
    for (int64_t mr = 0; mr < repM; ++mr)
      for (int64_t nr = 0; nr < repN; ++nr) {
        SmallVector<Value> &regs = acc[nr + repN * mr];
        if (!partial) {
          for (int64_t kr = 0; kr < repK; ++kr)
            emitWgmma(regs, mr, nr, kr, /*accumulate=*/kr != 0 || !zeroC);
          continue;
        }
        for (int64_t first = 0; first < repK; first += group) {
          SmallVector<Value> sum(accRegs, LLVM::ConstantOp::create(
                                              rewriter, loc, accType,
                                              rewriter.getF32FloatAttr(0)));
          for (int64_t kr = first; kr < std::min(repK, first + group); ++kr)
            emitWgmma(sum, mr, nr, kr, /*accumulate=*/kr != first);
          fence("wgmma.commit_group.sync.aligned");
          sum = emitWgmmaWait(rewriter, loc, sum, 0);
          for (int64_t i = 0; i < accRegs; ++i)
            regs[i] = LLVM::FAddOp::create(rewriter, loc, regs[i], sum[i]);
        }
      }
    fence("wgmma.commit_group.sync.aligned");
    // A synchronous dot waits here; an asynchronous one leaves that to a
    // ttg.warp_group_dot_wait.
    if (!op.getIsAsync()) {
      SmallVector<Value> all;
      for (auto &regs : acc)
        all.append(regs.begin(), regs.end());
      all = emitWgmmaWait(rewriter, loc, all, 0);
      size_t i = 0;
      for (auto &regs : acc)
        for (Value &reg : regs)
          reg = all[i++];
    }

    for (int64_t mr = 0; mr < repM; ++mr)
      for (int64_t nr = 0; nr < repN; ++nr) {
        int64_t first = (instrN / 2) * (nr + repN * mr);
        SmallVector<Value> &regs = acc[nr + repN * mr];
        for (int64_t i = 0, r = 0; i < instrN / 2; ++r) {
          if (halfAcc) {
            SmallVector<Value> pair =
                unpackFromI32(rewriter, loc, regs[r], rewriter.getF16Type(), 2);
            d[first + i] = pair[0];
            d[first + i + 1] = pair[1];
            i += 2;
          } else {
            d[first + i] = regs[r];
            i += 1;
          }
        }
      }
    rewriter.replaceOp(op, packElements(rewriter, loc,
                                        adaptor.getC().getType(), d));
    return success();
  }
};
/// ttg.warp_group_dot_wait: one wait over the registers of all operands.
struct WgmmaWaitLowering
    : public ConvertOpToLLVMPattern<ttg::WarpGroupDotWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ttg::WarpGroupDotWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> all;
    SmallVector<size_t> counts;
    for (Value input : adaptor.getInputs()) {
      SmallVector<Value> elements = unpackElements(rewriter, loc, input);
      counts.push_back(elements.size());
      all.append(elements.begin(), elements.end());
    }
    all = emitWgmmaWait(rewriter, loc, all, op.getPendings());
    SmallVector<Value> results;
    size_t next = 0;
    for (auto [input, count] : llvm::zip(adaptor.getInputs(), counts)) {
      results.push_back(packElements(
          rewriter, loc, input.getType(),
          ArrayRef<Value>(all).slice(next, count)));
      next += count;
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};
} // namespace

void tritium::populateWgmmaDotOpToLLVMPatterns(
    TTGToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<WgmmaDotLowering, WgmmaWaitLowering>(converter,
                                                     kTritiumPatternBenefit);
}
