//===- LdMatrix.cpp - tensor-core register operands from shared memory ----===//
//
// ldmatrix.sync.aligned.m8n8.x{4,2}{.trans}.shared.b16: lane t names the
// address of row t % 8 of matrix t / 8; afterwards register j of lane t
// holds elements (t / 4, 2 (t % 4) + {0, 1}) of matrix j (with .trans, of
// its transpose).  Those are exactly mma.sync m16n8k16's fragments:
//
//   A (16 x 16): matrices (rows 0-7 | 8-15) x (K 0-7 | 8-15), in the order
//                a0a1, a2a3, a4a5, a6a7: rows first, then K;
//   B (16 x 8):  matrices K 0-7 and K 8-15 (b0b1, b2b3).
//
// A tile contiguous along K gives the fragments as stored; one contiguous
// along M (for A) or N (for B) stores their transposes, so .trans.  A
// wgmma's register A holds the same A fragments (warps along M fastest).
//
// 32-bit elements (tf32, m16n8k8, kWidth 1) read as pairs of b16: a matrix
// row of 16 bytes holds 4 elements and lane t receives element (t / 4,
// t % 4) of each matrix, which is fragment a0..a3 (rows 0-7 | 8-15 by K
// 0-3 | 4-7) of A and b0, b1 (K 0-3 | 4-7) of B.  Only a tile contiguous
// along K reads that way (.trans would swap the halves of an element).  Per
// instruction tile (repetition along M or N, and along K) one x4 (A) or
// x2 (B); the tile's #ttg.nvmma_shared swizzle is applied to each lane's
// row address at run time (layout/NvmmaShared.h), and warps start at
// their 16-row (A) or 8-column (B) block of the mma's warp grid, wrapped
// to the tile as the dot_op layout wraps.
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTGToLLVM/LdMatrix.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tritium/Conversion/TTGToLLVM/ElementPacking.h"
#include "tritium/Layout/MmaLayout.h"
#include "tritium/Target/NVIDIA/PTXBuilder.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tritium;

namespace {

/// i32 helpers.
struct I32Ops {
  OpBuilder &b;
  Location loc;
  Value c(int64_t v) { return emitI32Constant(b, loc, v); }
  Value add(Value x, Value y) { return LLVM::AddOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t k) { return LLVM::MulOp::create(b, loc, x, c(k)); }
  Value shr(Value x, int64_t k) {
    return k == 0 ? x : LLVM::LShrOp::create(b, loc, x, c(k)).getResult();
  }
  Value shl(Value x, int64_t k) {
    return k == 0 ? x : LLVM::ShlOp::create(b, loc, x, c(k)).getResult();
  }
  Value andc(Value x, int64_t k) { return LLVM::AndOp::create(b, loc, x, c(k)); }
  Value xorv(Value x, Value y) { return LLVM::XOrOp::create(b, loc, x, y); }
};

} // namespace

std::optional<SmallVector<Value>> tritium::loadDotOperandWithLdMatrix(
    OpBuilder &builder, Location loc, Value base, ttg::MemDescType srcType,
    RankedTensorType dstType, ThreadIndex thread, Type elementType,
    ArrayRef<int64_t> offsets) {
  auto dot = dyn_cast<ttg::DotOperandEncodingAttr>(dstType.getEncoding());
  auto nvmma = dyn_cast<ttg::NvmmaSharedEncodingAttr>(srcType.getEncoding());
  if (!dot || !nvmma || dstType.getRank() != 2 || srcType.getRank() != 2)
    return std::nullopt;
  // 16-bit elements two a register (kWidth 2) or 32-bit ones one a
  // register (kWidth 1); a matrix row of 16 bytes holds `rowElements`.
  int64_t bits = dstType.getElementTypeBitWidth();
  if (!((bits == 16 && dot.getKWidth() == 2) ||
        (bits == 32 && dot.getKWidth() == 1)))
    return std::nullopt;
  int64_t elementBytes = bits / 8, rowElements = 16 / elementBytes;
  int64_t kWidth = dot.getKWidth();
  // K of one instruction: two matrix rows.
  int64_t instrK = 2 * rowElements;
  auto mma = dyn_cast<ttg::NvidiaMmaEncodingAttr>(dot.getParent());
  int opIdx = dot.getOpIdx();
  // wgmma takes only A from registers, in mma.sync's A fragments.
  if (!mma || !(mma.isAmpere() || (mma.isHopper() && opIdx == 0)))
    return std::nullopt;
  int64_t wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  ArrayRef<int64_t> shape = dstType.getShape();
  int kDim = opIdx == 0 ? 1 : 0, otherDim = 1 - kDim;
  // The whole tile, or a K slice of it at a multiple of instrK.
  int64_t kOffset = offsets.empty() ? 0 : offsets[kDim];
  if ((!offsets.empty() && offsets[otherDim] != 0) ||
      shape[otherDim] != srcType.getDimSize(otherDim) ||
      kOffset % instrK != 0 ||
      kOffset + shape[kDim] > srcType.getDimSize(kDim) ||
      (offsets.empty() && shape[kDim] != srcType.getDimSize(kDim)))
    return std::nullopt;
  int64_t k = shape[kDim], other = shape[otherDim];
  int64_t perWarp = opIdx == 0 ? 16 : 8;
  int64_t warpsAlong = opIdx == 0 ? wm : wn;
  if (k % instrK != 0 || other % perWarp != 0)
    return std::nullopt;
  layout::MmaV2Repetitions reps;
  reps.k = k / instrK;
  int64_t repsOther = std::max<int64_t>(1, other / (perWarp * warpsAlong));
  (opIdx == 0 ? reps.m : reps.n) = repsOther;
  int64_t count = (opIdx == 0 ? 4 : 2) * kWidth * reps.k * repsOther;
  if (count != cast<ttg::DistributedEncodingAttr>(dstType.getEncoding())
                   .getElemsPerThread(shape))
    return std::nullopt;

  layout::NvmmaSharedSpec spec = nvmma.toSpec();
  bool kContiguous = spec.order[0] == kDim;
  if (!kContiguous && bits != 16)
    return std::nullopt;
  int64_t perSlab = spec.swizzleBytes / elementBytes,
          rows = srcType.getDimSize(spec.order[1]);
  I32Ops ops{builder, loc};
  // The warp's first row (A) or column (B), wrapped to the tile: version 2
  // numbers warps N fastest, version 3 M fastest (warpgroups stack along M).
  Value warpIndex;
  if (opIdx == 1)
    warpIndex = ops.andc(thread.warp, wn - 1);
  else if (mma.isHopper())
    warpIndex = ops.andc(thread.warp, wm - 1);
  else
    warpIndex = ops.andc(ops.shr(thread.warp, llvm::Log2_64(wn)), wm - 1);
  Value lane = thread.lane;
  Value rowInMatrix = ops.andc(lane, 7);
  Value matrix = ops.andc(ops.shr(lane, 3), opIdx == 0 ? 3 : 1);
  Value baseAddress = LLVM::PtrToIntOp::create(builder, loc,
                                               builder.getI32Type(), base);

  // The byte address of element (r, c) (r along order[1], c along order[0],
  // c a multiple of rowElements) of the swizzled tile.
  int64_t rowShift = llvm::Log2_64(rowElements);
  auto address = [&](Value r, Value c) {
    Value slab = ops.shr(c, llvm::Log2_64(perSlab));
    Value chunk = ops.shr(ops.andc(c, perSlab - 1), rowShift);
    Value phase = ops.andc(ops.shr(r, llvm::Log2_64(128 / spec.swizzleBytes)),
                           spec.swizzleBytes / 16 - 1);
    Value elements = ops.add(ops.add(ops.mul(slab, rows * perSlab),
                                     ops.mul(r, perSlab)),
                             ops.shl(ops.xorv(chunk, phase), rowShift));
    return ops.add(baseAddress, ops.mul(elements, elementBytes));
  };

  SmallVector<Value> values(count);
  int numMatrices = opIdx == 0 ? 4 : 2;
  for (int64_t rep = 0; rep < repsOther; ++rep) {
    // First row (A: M) or column (B: N) of this instruction tile.
    Value start = ops.andc(
        ops.add(ops.mul(warpIndex, perWarp), ops.c(rep * perWarp * warpsAlong)),
        other - 1);
    for (int64_t kRep = 0; kRep < reps.k; ++kRep) {
      // Matrix j covers [otherOff, +8) x [kOff, +8) of the instruction tile.
      Value otherOff = opIdx == 0 ? ops.shl(ops.andc(matrix, 1), 3) : ops.c(0);
      Value kOff = ops.add(ops.c(kOffset + kRep * instrK),
                           opIdx == 0 ? ops.shl(ops.shr(matrix, 1), rowShift)
                                      : ops.shl(matrix, rowShift));
      Value otherCoord = ops.add(start, otherOff);
      // K-contiguous: lane rows run along M/N; otherwise (stored
      // transposed) along K.
      Value addr = kContiguous
                       ? address(ops.add(otherCoord, rowInMatrix), kOff)
                       : address(ops.add(kOff, rowInMatrix), otherCoord);
      nvidia::PTXBuilder ptx;
      auto outs = ptx.outputs(numMatrices, "=r");
      std::string opcode = std::string("ldmatrix.sync.aligned.m8n8.x") +
                           (numMatrices == 4 ? "4" : "2") +
                           (kContiguous ? "" : ".trans") + ".shared.b16";
      ptx.instr(opcode).args({nvidia::PTXBuilder::list(outs),
                              nvidia::PTXBuilder::address(ptx.input(addr, "r"))});
      SmallVector<Type> types(numMatrices, builder.getI32Type());
      Value result = ptx.launch(
          builder, loc,
          LLVM::LLVMStructType::getLiteral(builder.getContext(), types),
          /*hasSideEffects=*/true);
      for (int j = 0; j < numMatrices; ++j) {
        SmallVector<Value> elements = unpackFromI32(
            builder, loc, LLVM::ExtractValueOp::create(builder, loc, result, j),
            elementType, kWidth);
        for (int64_t e = 0; e < kWidth; ++e)
          values[layout::mmaV2OperandRegister(reps, opIdx, kWidth, rep, kRep,
                                              kWidth * j + e)] = elements[e];
      }
    }
  }
  return values;
}
