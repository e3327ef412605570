//===- AccelerateMatmul.cpp - ttg-accelerate-matmul ------------------------===//
//
// Moves tt.dot onto tensor cores where an instruction fits, and prepares the
// rest for the CUDA cores.
//
// Algorithm, for every tt.dot whose accumulator is blocked (as
// convert-tt-to-ttg leaves it):
//   0. On sm_90, Hopper's wgmma when it fits (chooseMmaV3): 2-D, warps in
//      whole warpgroups, M a multiple of 64, K of one instruction (32
//      bytes), no tf32x3.  The warpgroups stack along M while M has room,
//      then spread along N; instrShape is [16, min(256, N per warp
//      column), 32 bytes of K].  Each operand is stored from the layout it
//      was loaded in into a ttg.local_alloc with an #ttg.nvmma_shared
//      layout (the widest swizzle its contiguous dimension allows; K-major
//      unless a 16-bit operand is contiguous along M or N), and the dot
//      becomes a ttg.warp_group_dot on the two buffers.  Otherwise:
//   1. Pick the tensor-core instruction from the operand and accumulator
//      element types, the input precision and the module's compute
//      capability (chooseMmaV2):
//        fp16 x fp16 -> f32 or f16     m16n8k16   kWidth 2
//        bf16 x bf16 -> f32            m16n8k16   kWidth 2
//        f32 x f32, tf32 / tf32x3      m16n8k8    kWidth 1
//        f32 x f32, bf16x3 / bf16x6    m16n8k16   kWidth 2 (bf16 parts)
//        i8 x i8 -> i32                m16n8k32   kWidth 4
//        fp8 x fp8 -> f32              m16n8k16   kWidth 2, operands
//                                      converted to fp16 (exact)
//      An accumulator the instruction cannot hold (f16 for bf16 or fp8
//      operands) is widened to f32 for the dot and narrowed after it.  The
//      tile must be a multiple of the instruction: M of 16, N of 8, K of
//      8 * kWidth.
//   2. Spread the warps over the tile (warpsPerTileV2): double the warps
//      along the dimension with more instruction tiles left per warp, M
//      counted in 16-row and N in 8-column steps (the instruction's tile;
//      ties go to M), while the tile still holds the doubled warp grid.
//      This is Triton's grid: a 32x32 tile over 2 warps is 1 x 2, so a warp
//      reads all of A's 32 rows (ldmatrix) and half of B's columns, the
//      operand a tf32 mma.sync reads element by element when it is stored
//      contiguous along N (Inductor's tf32 template at (32, 32, 16), 1
//      stage, 2 warps: 44.9 TFLOP/s with 2 x 1, 49.4 with 1 x 2, H200).
//      A dot chained with another (on its full slice: attention's two dots,
//      or dots that read one tile) takes every warp along its longer
//      dimension, or the other's grid once that is an mma
//      (chainedDotWarps), so that P reaches the second dot in registers.
//   3. Rebuild the dot in #ttg.nvidia_mma (version 2): A and B converted
//      to #ttg.dot_op of it (ttg-reduce-data-duplication, after the next
//      ttg-remove-layout-conversions, routes those conversions through swizzled shared tiles read with
//      ldmatrix); the accumulator converted in, the result converted back
//      to the blocked layout its users expect.  A following
//      ttg-remove-layout-conversions carries the mma layout through the loop
//      that accumulates and places the one conversion to blocked at the
//      epilogue.
// Batched (3-D) dots take version 2 on every target from sm_80 (wgmma is
// 2-D): the warps go to the batch first, the rest over M x N, and the
// operands are converted (no shared tile: the NVMMA tiles are 2-D).
// A dot no instruction fits (ieee fp32, fp64, shapes under one instruction,
// targets before sm_80) stays a CUDA-core dot: its
// operands, already in the #ttg.dot_op layouts of the blocked accumulator,
// are cast to the accumulator's element type so that the lowering is one
// fused multiply-add per product.
//
//===----------------------------------------------------------------------===//
#include "tritium/Dialect/TTG/Transforms/Passes.h"
#include "tritium/Dialect/TTG/Transforms/Transforms.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"

namespace tritium::ttg {
#define GEN_PASS_DEF_TTGACCELERATEMATMULPASS
#include "tritium/Dialect/TTG/Transforms/Passes.h.inc"
} // namespace tritium::ttg

using namespace mlir;
using namespace tritium;
using namespace tritium::ttg;

namespace {

/// What a version-2 mma computes for one dot.
struct MmaV2Choice {
  /// Consecutive K elements per thread and register group.
  unsigned kWidth;
  /// The element type the instruction accumulates in.
  Type accElem;
  /// The type the operands are converted to first, if any (fp8 runs on the
  /// fp16 instruction: every fp8 value is exact in fp16, and sm_80 has no
  /// fp8 mma.sync).
  Type operandElem = {};
};

bool isFp8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

Type elementOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getElementType();
}

/// The mma.sync variant for `dot`, or nothing when none fits.
std::optional<MmaV2Choice> chooseMmaV2(tt::DotOp dot, int computeCapability) {
  auto cType = cast<RankedTensorType>(dot.getType());
  if ((cType.getRank() != 2 && cType.getRank() != 3) || computeCapability < 80)
    return std::nullopt;
  Type ea = elementOf(dot.getA()), eb = elementOf(dot.getB());
  Type ec = cType.getElementType();
  MLIRContext *context = dot.getContext();
  Type f32 = Float32Type::get(context);
  std::optional<MmaV2Choice> choice;
  if (ea.isF16() && eb.isF16() && (ec.isF16() || ec.isF32()))
    choice = MmaV2Choice{2, ec};
  else if (ea.isBF16() && eb.isBF16() && (ec.isF32() || ec.isF16() || ec.isBF16()))
    choice = MmaV2Choice{2, f32};
  else if (ea.isF32() && eb.isF32() && ec.isF32() &&
           (dot.getInputPrecision() == tt::InputPrecision::TF32 ||
            dot.getInputPrecision() == tt::InputPrecision::TF32x3))
    choice = MmaV2Choice{1, f32};
  else if (ea.isF32() && eb.isF32() && ec.isF32() &&
           (dot.getInputPrecision() == tt::InputPrecision::BF16x3 ||
            dot.getInputPrecision() == tt::InputPrecision::BF16x6))
    choice = MmaV2Choice{2, f32}; // split into bf16 parts in the lowering
  else if (ea.isInteger(8) && eb.isInteger(8) && ec.isInteger(32))
    choice = MmaV2Choice{4, ec};
  else if (isFp8(ea) && isFp8(eb) && (ec.isF32() || ec.isF16() || ec.isBF16()))
    choice = MmaV2Choice{2, f32, Float16Type::get(context)};
  if (!choice)
    return std::nullopt;
  int64_t rank = cType.getRank();
  int64_t m = cType.getDimSize(rank - 2), n = cType.getDimSize(rank - 1);
  int64_t k = cast<RankedTensorType>(dot.getA().getType()).getDimSize(rank - 1);
  if (m % 16 != 0 || n % 8 != 0 || k % (8 * choice->kWidth) != 0)
    return std::nullopt;
  return choice;
}

/// The warp grid of a version-2 mma over an m x n tile.
SmallVector<unsigned> warpsPerTileV2(int64_t m, int64_t n, int numWarps) {
  unsigned wm = 1, wn = 1;
  while (int64_t(wm) * wn < numWarps) {
    bool roomM = m >= 16 * 2 * int64_t(wm);
    bool roomN = n >= 8 * 2 * int64_t(wn);
    bool moreAlongM = m / (16 * int64_t(wm)) >= n / (8 * int64_t(wn));
    if (roomM && (moreAlongM || !roomN))
      wm *= 2;
    else if (roomN)
      wn *= 2;
    else
      wm *= 2; // the tile is too small for the warps: they duplicate
  }
  return {wm, wn};
}

/// The warp grid of a 2-D dot chained with another (the two reach each
/// other through ops of their region, not through a tt.trans, by uses and
/// definitions in any order: attention's two dots, where one feeds the
/// other, or dots that share an operand or whose results meet, as in
/// flash-linear-attention's WY-representation backward, where eight dots of
/// one loop nest reach each other through the tiles they share): the
/// other's grid when it is an mma already, else every warp along the longer
/// of M and N, so that one dot's result reaches the next as its A operand
/// in registers and no accumulator changes grid between them (Triton's
/// rule, on the full slice).  nullopt for a dot that is not chained.
std::optional<SmallVector<unsigned>> chainedDotWarps(tt::DotOp dot,
                                                     int numWarps) {
  Region *region = dot->getParentRegion();
  auto inRegion = [&](Operation *op) {
    return op->getParentRegion() == region && !isa<tt::TransOp>(op);
  };
  BackwardSliceOptions backward;
  backward.filter = inRegion;
  backward.omitBlockArguments = true;
  ForwardSliceOptions forward;
  forward.filter = inRegion;
  // Backward and forward slices taken in turn until neither grows.
  SetVector<Operation *> slice = getSlice(dot, backward, forward);
  bool chained = false;
  for (Operation *op : slice) {
    auto other = dyn_cast<tt::DotOp>(op);
    if (!other || other == dot)
      continue;
    auto type = cast<RankedTensorType>(other.getType());
    if (type.getRank() != 2)
      continue;
    if (auto mma = dyn_cast<NvidiaMmaEncodingAttr>(type.getEncoding()))
      return SmallVector<unsigned>(mma.getWarpsPerCTA());
    chained = true;
  }
  if (!chained)
    return std::nullopt;
  auto shape = cast<RankedTensorType>(dot.getType()).getShape();
  if (shape[0] >= shape[1])
    return SmallVector<unsigned>{unsigned(numWarps), 1};
  return SmallVector<unsigned>{1, unsigned(numWarps)};
}

/// `value` without the ttg.convert_layout that produced it, if any.
Value lookThroughConversion(Value value) {
  if (auto convert = value.getDefiningOp<ConvertLayoutOp>())
    return convert.getSrc();
  return value;
}

/// `value` converted (layout and, for element types, cast) to `type`.
Value castElements(OpBuilder &builder, Location loc, Value value,
                   RankedTensorType type) {
  Type from = elementOf(value), to = type.getElementType();
  if (from == to)
    return value;
  if (isa<IntegerType>(to))
    return arith::ExtSIOp::create(builder, loc, type, value);
  if (isFp8(from) || isFp8(to))
    return tt::FpToFpOp::create(builder, loc, type, value,
                                tt::RoundingModeAttr::get(
                                    builder.getContext(),
                                    tt::RoundingMode::RTNE));
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return arith::ExtFOp::create(builder, loc, type, value);
  return arith::TruncFOp::create(builder, loc, type, value);
}

/// Replaces `dot` by the tensor-core dot `build(c, accType)` makes on the
/// accumulator layout `mma`: the accumulator is converted into `mma` and cast
/// to `accElem` (what the instruction accumulates in) first, the result
/// cast back and converted to the layout the dot's users expect.
template <typename BuildDot>
void replaceOnAccumulatorLayout(OpBuilder &builder, tt::DotOp dot,
                                Attribute mma, Type accElem, BuildDot build) {
  Location loc = dot.getLoc();
  auto cType = cast<RankedTensorType>(dot.getType());
  auto accType = RankedTensorType::get(cType.getShape(), accElem, mma);
  Value c = ConvertLayoutOp::create(builder, loc,
                                    withEncoding(dot.getC().getType(), mma),
                                    dot.getC());
  c = castElements(builder, loc, c, accType);
  Value result = castElements(builder, loc, build(c, accType),
                              withEncoding(cType, mma));
  result = ConvertLayoutOp::create(builder, loc, cType, result);
  dot.replaceAllUsesWith(result);
  dot.erase();
}

void rewriteToMmaV2(tt::DotOp dot, const MmaV2Choice &choice, int numWarps) {
  OpBuilder builder(dot);
  Location loc = dot.getLoc();
  MLIRContext *context = dot.getContext();
  auto cType = cast<RankedTensorType>(dot.getType());
  // Batched dots: warps go to the batch first (each batch is an
  // independent product), as many as it has, the rest over M x N.
  int64_t rank = cType.getRank();
  unsigned batchWarps = 1;
  if (rank == 3)
    while (int64_t(batchWarps) * 2 <= std::min<int64_t>(cType.getDimSize(0),
                                                        numWarps))
      batchWarps *= 2;
  std::optional<SmallVector<unsigned>> chained;
  if (rank == 2)
    chained = chainedDotWarps(dot, numWarps);
  SmallVector<unsigned> warps =
      chained ? *chained
              : warpsPerTileV2(cType.getDimSize(rank - 2),
                               cType.getDimSize(rank - 1),
                               numWarps / batchWarps);
  if (rank == 3)
    warps.insert(warps.begin(), batchWarps);
  auto mma = NvidiaMmaEncodingAttr::get(context, 2, 0, warps,
                                        ArrayRef<unsigned>{16, 8});
  // Operands are converted to their #ttg.dot_op layouts;
  // ttg-reduce-data-duplication then routes those conversions through
  // swizzled shared tiles (ldmatrix, and tiles ttg-pipeline can fill ahead).
  auto operand = [&](Value value, unsigned opIdx) {
    Value source = lookThroughConversion(value);
    if (choice.operandElem) {
      auto type = cast<RankedTensorType>(source.getType());
      source = castElements(builder, loc, source, type.clone(choice.operandElem));
    }
    auto layout = DotOperandEncodingAttr::get(context, opIdx, mma, choice.kWidth);
    RankedTensorType type = withEncoding(source.getType(), layout);
    return ConvertLayoutOp::create(builder, loc, type, source).getResult();
  };
  Value a = operand(dot.getA(), 0), b = operand(dot.getB(), 1);
  replaceOnAccumulatorLayout(
      builder, dot, mma, choice.accElem, [&](Value c, RankedTensorType type) {
        return tt::DotOp::create(builder, loc, type, a, b, c,
                                 dot.getInputPrecision(),
                                 dot.getMaxNumImpreciseAcc())
            .getResult();
      });
}

/// What a version-3 mma (wgmma) computes for one dot.
struct MmaV3Choice {
  SmallVector<unsigned> warps;
  unsigned instrN, instrK;
  Type accElem;
};

/// The wgmma variant for `dot` on sm_90, or nothing when none fits: 2-D,
/// a multiple of 4 warps, M a multiple of 64, N of 8 per warp column, K of
/// one instruction (32 bytes), and no tf32x3 (whose split operands would
/// need more buffers; mma.sync does it).
std::optional<MmaV3Choice> chooseMmaV3(tt::DotOp dot, int computeCapability,
                                       int numWarps) {
  auto cType = cast<RankedTensorType>(dot.getType());
  if (cType.getRank() != 2 || computeCapability != 90 || numWarps % 4 != 0)
    return std::nullopt;
  Type ea = elementOf(dot.getA()), eb = elementOf(dot.getB());
  Type ec = cType.getElementType();
  Type f32 = Float32Type::get(dot.getContext());
  std::optional<MmaV3Choice> choice;
  if (ea.isF16() && eb.isF16() && (ec.isF16() || ec.isF32()))
    choice = MmaV3Choice{{}, 0, 16, ec};
  else if (ea.isBF16() && eb.isBF16() && (ec.isF32() || ec.isF16() || ec.isBF16()))
    choice = MmaV3Choice{{}, 0, 16, f32};
  else if (ea.isF32() && eb.isF32() && ec.isF32() &&
           dot.getInputPrecision() == tt::InputPrecision::TF32)
    choice = MmaV3Choice{{}, 0, 8, f32};
  else if (ea.isInteger(8) && eb.isInteger(8) && ec.isInteger(32))
    choice = MmaV3Choice{{}, 0, 32, ec};
  else if (isFp8(ea) && isFp8(eb) && (ec.isF32() || ec.isF16() || ec.isBF16()))
    choice = MmaV3Choice{{}, 0, 32, f32};
  if (!choice)
    return std::nullopt;
  int64_t m = cType.getDimSize(0), n = cType.getDimSize(1);
  int64_t k = cast<RankedTensorType>(dot.getA().getType()).getDimSize(1);
  if (m % 64 != 0 || k % choice->instrK != 0)
    return std::nullopt;
  // Warpgroups stack along M while M has room, then spread along N.
  unsigned wm = 4, wn = 1;
  while (int64_t(wm) * wn < numWarps) {
    if (m > 16 * int64_t(wm))
      wm *= 2;
    else
      wn *= 2;
  }
  int64_t perColumn = n / wn;
  if (perColumn < 8)
    return std::nullopt;
  choice->warps = {wm, wn};
  choice->instrN = static_cast<unsigned>(std::min<int64_t>(256, perColumn));
  return choice;
}

/// Rebuilds `dot` as a ttg.warp_group_dot on shared copies of its operands;
/// false (nothing changed) when an operand has no NVMMA layout.
bool rewriteToMmaV3(tt::DotOp dot, const MmaV3Choice &choice) {
  Value aSource = lookThroughConversion(dot.getA());
  Value bSource = lookThroughConversion(dot.getB());
  NvmmaSharedEncodingAttr aLayout =
      chooseDotOperandSharedLayout(aSource, 0, /*anyMajor=*/false);
  NvmmaSharedEncodingAttr bLayout =
      chooseDotOperandSharedLayout(bSource, 1, /*anyMajor=*/false);
  if (!aLayout || !bLayout)
    return false;
  OpBuilder builder(dot);
  Location loc = dot.getLoc();
  MLIRContext *context = dot.getContext();
  auto mma = NvidiaMmaEncodingAttr::get(
      context, 3, 0, choice.warps,
      ArrayRef<unsigned>{16, choice.instrN, choice.instrK});
  Value a = storeToSharedTile(builder, loc, aSource, aLayout);
  Value b = storeToSharedTile(builder, loc, bSource, bLayout);
  replaceOnAccumulatorLayout(
      builder, dot, mma, choice.accElem, [&](Value c, RankedTensorType type) {
        return WarpGroupDotOp::create(builder, loc, type, a, b, c,
                                      dot.getInputPrecision(),
                                      dot.getMaxNumImpreciseAcc())
            .getResult();
      });
  return true;
}

/// A CUDA-core dot: casts A and B to the type it accumulates in, which is
/// the accumulator's, except that fp16 and bf16 accumulators sum in f32
/// (a chain of K fp16 additions would lose the low bits that tensor cores
/// keep) and are rounded once at the end.
void prepareFmaDot(tt::DotOp dot) {
  auto cType = cast<RankedTensorType>(dot.getType());
  Type accElem = cType.getElementType();
  OpBuilder builder(dot);
  Location loc = dot.getLoc();
  Type sumElem = accElem;
  if (accElem.isF16() || accElem.isBF16())
    sumElem = Float32Type::get(dot.getContext());
  for (OpOperand *operand : {&dot.getAMutable(), &dot.getBMutable()}) {
    auto type = cast<RankedTensorType>(operand->get().getType());
    if (type.getElementType() == sumElem)
      continue;
    operand->set(castElements(builder, loc, operand->get(),
                              type.clone(sumElem)));
  }
  if (sumElem == accElem)
    return;
  dot.getCMutable().set(
      castElements(builder, loc, dot.getC(), cType.clone(sumElem)));
  builder.setInsertionPointAfter(dot);
  auto wide = cType.clone(sumElem);
  dot.getResult().setType(wide);
  Value narrow = castElements(builder, loc, dot.getResult(), cType);
  dot.getResult().replaceAllUsesExcept(narrow, narrow.getDefiningOp());
}

} // namespace

SmallVector<tt::DotOp> ttg::blockedAccumulatorDots(ModuleOp module) {
  SmallVector<tt::DotOp> dots;
  module.walk([&](tt::DotOp dot) {
    if (isa<BlockedEncodingAttr>(
            cast<RankedTensorType>(dot.getType()).getEncoding()))
      dots.push_back(dot);
  });
  return dots;
}

LogicalResult ttg::accelerateMatmul(ModuleOp module) {
  int computeCapability = getComputeCapability(module);
  int numWarps = getNumWarps(module);
  SmallVector<tt::DotOp> dots = blockedAccumulatorDots(module);
  for (tt::DotOp dot : dots) {
    // fp8e4nv exists from sm_89 on, as in Triton (fp8e5 converts anywhere).
    for (Value operand : {dot.getA(), dot.getB()})
      if (isa<Float8E4M3FNType>(elementOf(operand)) && computeCapability < 89)
        return dot.emitError()
               << "dot operands of type fp8e4nv need compute capability 89 "
                  "or newer, the target has "
               << computeCapability;
  }
  for (tt::DotOp dot : dots) {
    if (auto choice = chooseMmaV3(dot, computeCapability, numWarps))
      if (rewriteToMmaV3(dot, *choice))
        continue;
    if (auto choice = chooseMmaV2(dot, computeCapability))
      rewriteToMmaV2(dot, *choice, numWarps);
    else
      prepareFmaDot(dot);
  }
  return success();
}

namespace {
struct TTGAccelerateMatmulPass
    : public tritium::ttg::impl::TTGAccelerateMatmulPassBase<
          TTGAccelerateMatmulPass> {
  void runOnOperation() override {
    if (failed(accelerateMatmul(getOperation())))
      signalPassFailure();
  }
};
} // namespace
