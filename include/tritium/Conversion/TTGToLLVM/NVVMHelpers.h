//===- NVVMHelpers.h - the NVVM ops the lowering emits ----------*- C++ -*-===//
//
// Plain functions that create NVVM dialect ops.  NVVMDialect.h costs ~15 s
// of compile time per translation unit, so only NVVMHelpers.cpp includes
// it; every lowering calls these instead.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CONVERSION_TTGTOLLVM_NVVMHELPERS_H
#define TRITIUM_CONVERSION_TTGTOLLVM_NVVMHELPERS_H

#include "mlir/IR/Builders.h"

#include <string>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace tritium::nvvm {

/// The attribute names the NVVM-to-LLVM-IR translation reads on llvm.func.
inline constexpr llvm::StringLiteral kKernelAttrName = "nvvm.kernel";
inline constexpr llvm::StringLiteral kReqNTidAttrName = "nvvm.reqntid";
inline constexpr llvm::StringLiteral kMaxNRegAttrName = "nvvm.maxnreg";

/// Adds the NVVM dialect to `registry` (for getDependentDialects).
void insertNVVMDialect(mlir::DialectRegistry &registry);

/// tid.x as i32, annotated with the range [0, numThreads).
mlir::Value threadIdX(mlir::OpBuilder &builder, mlir::Location loc,
                      int64_t numThreads);

/// i1: true in the one lane elect.sync picks among the warp's (all of them
/// must reach it together).
mlir::Value electOneLane(mlir::OpBuilder &builder, mlir::Location loc);

/// i1: true in one lane of each warp, the same lane wherever `op`'s function
/// runs: the result of one elect.sync, the first op of the function's entry
/// block (made there on first use; every lane of every warp runs it).
/// ptxas still knows that it picks one lane, so the TMA instructions it
/// guards stay single uniform-datapath instructions, and a K loop does not
/// elect again for each copy.  (Outside an llvm.func: electOneLane here.)
mlir::Value electedLane(mlir::OpBuilder &builder, mlir::Location loc,
                        mlir::Operation *op);

/// Sets `builder` to the start of the entry block of `op`'s llvm.func, after
/// electedLane's elect.sync, for values computed once per thread and read
/// anywhere in the function; false (the builder untouched) outside one.
bool setInsertionPointToFunctionEntry(mlir::OpBuilder &builder,
                                      mlir::Operation *op);

/// ctaid.{x,y,z} (the program id) for axis 0, 1, 2, as i32.
mlir::Value blockId(mlir::OpBuilder &builder, mlir::Location loc, int axis);

/// nctaid.{x,y,z} (the number of programs) for axis 0, 1, 2, as i32.
mlir::Value gridDim(mlir::OpBuilder &builder, mlir::Location loc, int axis);

/// The warps that run code placed in `block`: all of the CTA's, or in a
/// warp-specialized kernel (ttg.warp_specialize) those of the region that
/// holds the block: the default region's warps 0 .. num-warps - 1, or the
/// partition's, numbered after them.
struct RunningWarps {
  int first = 0;
  int count = 0;
  bool specialized = false; ///< inside a region of ttg.warp_specialize
};
RunningWarps runningWarps(mlir::Block *block);

/// Every thread that runs the code at the builder's insertion point waits
/// for the others, and shared memory written before is visible after: bar.sync
/// 0 for the whole CTA, or, in a region of ttg.warp_specialize, a named
/// barrier for the region's warps alone (1 for the default region, 2 for the
/// partition).
void barrier(mlir::OpBuilder &builder, mlir::Location loc);

/// The four shfl.sync modes: which lane each lane reads.
enum class ShuffleMode {
  Idx,  // lane `operand`
  Up,   // lane - operand (lanes below `operand` keep their own value)
  Down, // lane + operand (lanes that would read past 31 keep their own)
  Xor,  // lane ^ operand (butterfly)
};
/// The PTX type name of a tensor-core operand or accumulator element type
/// (f16, bf16, f32, s8, s32, e4m3, e5m2), or "" for other types.  An f32
/// operand is read as tf32; the callers say so.
std::string ptxMmaTypeName(mlir::Type type);

/// shfl.sync.{mode}.b32 over the full warp on the i32 `value`; `operand` is
/// an i32 lane, delta or xor mask.  WarpShuffle.h wraps it for other types.
mlir::Value shuffle(mlir::OpBuilder &builder, mlir::Location loc,
                    ShuffleMode mode, mlir::Value value, mlir::Value operand);
/// shfl.sync.idx.b32 over the full warp: the i32 `value` of lane `srcLane`.
mlir::Value shuffleIdx(mlir::OpBuilder &builder, mlir::Location loc,
                       mlir::Value value, mlir::Value srcLane);

} // namespace tritium::nvvm

#endif // TRITIUM_CONVERSION_TTGTOLLVM_NVVMHELPERS_H
