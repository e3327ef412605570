//===- HostLowering.h - shared by the CPU target's lowering ----*- C++ -*-===//
//
// What the files of convert-tt-to-host-llvm share: the type conversion
// (tensors to flat vectors), flat-vector helpers, and the functions that
// add each file's patterns.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_LIB_TARGET_CPU_HOSTLOWERING_H
#define TRITIUM_LIB_TARGET_CPU_HOSTLOWERING_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>

namespace tritium::tt {
class ExternElementwiseOp;
} // namespace tritium::tt

namespace tritium::cpu {

/// The i32 arguments every kernel gains after its own: the program's
/// coordinates x, y, z, then the grid's size nx, ny, nz.
inline constexpr unsigned kGridArgs = 6;

/// The number of elements of a tensor type, 1 for a scalar.
int64_t numElements(mlir::Type type);

/// Row-major strides of `shape`.
llvm::SmallVector<int64_t> stridesOf(llvm::ArrayRef<int64_t> shape);

/// The multi-index of flat position `flat` in `shape`.
llvm::SmallVector<int64_t> unflatten(int64_t flat, llvm::ArrayRef<int64_t> shape);

/// Tensors to flat vectors, Triton pointers to LLVM pointers, tensor
/// descriptor arguments to (unused) pointers.
class HostTypeConverter : public mlir::TypeConverter {
public:
  explicit HostTypeConverter(mlir::MLIRContext *ctx);
};

/// Whether `op` has a tensor or an fp8 operand or result (what the type
/// conversion changes).
bool hasTensorType(mlir::Operation *op);
/// Whether decodeFp8 and encodeFp8 handle `type`: the 8-bit float formats
/// with a sign bit (f8E8M0FNU, an unsigned scale format, is not one).
bool isFp8OnHost(mlir::FloatType type);
/// f32 values of fp8 bits (i8, or vectors of i8) of the fp8 type `format`.
mlir::Value decodeFp8(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bits, mlir::FloatType format);
/// fp8 bits of `value` (f32, or vectors of f32) in the fp8 type `format`,
/// rounded to nearest even (or toward zero), finite values beyond the
/// format's largest saturating to it (as sm_90's cvt.rn.satfinite).
mlir::Value encodeFp8(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value, mlir::FloatType format,
                      bool towardZero = false);
mlir::Value i32Constant(mlir::OpBuilder &b, mlir::Location loc, int64_t v);
/// `src` (a flat vector) rearranged by `mask`: result[i] = src[mask[i]].
mlir::Value shuffle(mlir::OpBuilder &b, mlir::Location loc, mlir::Value src, llvm::ArrayRef<int64_t> mask);
/// A vector of `count` copies of scalar `value`.
mlir::Value splat(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value, int64_t count);
mlir::Value allTrue(mlir::OpBuilder &b, mlir::Location loc, int64_t count);
mlir::Value zeroOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type);
/// Elements [first, first + count) of flat vector `v`.
mlir::Value slice(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v, int64_t first, int64_t count);
/// The vectors `parts` one after another.
mlir::Value concatenate(mlir::OpBuilder &b, mlir::Location loc, llvm::SmallVector<mlir::Value> parts);
/// A scalar as a one-element vector, or the vector itself.
mlir::Value asVector(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v);
/// Element 0 of `v` when `want` is a scalar type, else `v`.
mlir::Value fromVector(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v, mlir::Type want);

/// Stack memory for `count` elements of `element` (64-byte aligned),
/// allocated in the entry block of the function holding the insertion
/// point (an alloca inside a loop would take new stack every iteration),
/// its lifetime starting at the insertion point.  endLifetimes ends it once
/// the lowering is done with it, so that LLVM can give the stack of copies
/// whose lifetimes do not overlap to one another.
mlir::Value entryAlloca(mlir::OpBuilder &b, mlir::Location loc, mlir::Type element, int64_t count);
/// Ends the lifetimes of stack memory from entryAlloca.
void endLifetimes(mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange allocas);
/// The address of element `index` (an i32 value) of the array of `element`
/// at `base`.
mlir::Value elementAddress(mlir::OpBuilder &b, mlir::Location loc, mlir::Value base, mlir::Type element,
                           mlir::Value index);
/// Loads `count` elements of `element` from `base` + `index` elements (a
/// vector of `count`, aligned to one element).
mlir::Value loadElements(mlir::OpBuilder &b, mlir::Location loc, mlir::Value base, mlir::Type element,
                         mlir::Value index, int64_t count);
/// Stores `value` (a vector, or a scalar) at `base` + `index` elements,
/// aligned to one element.
void storeElements(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value, mlir::Value base,
                   mlir::Value index);
/// Vectors of `resultTypes` (`n` lanes each) computed by `compute` on chunks
/// of `chunk` lanes in a loop: `inputs` (vectors of `n` lanes) go to stack
/// slots, each chunk of them is loaded and given to `compute` (with the
/// chunk types of the results), its results are stored to the results'
/// slots, which are loaded whole after the loop.  Vectors of i1 go through
/// memory as bytes.  `n` is a multiple of `chunk`.
llvm::SmallVector<mlir::Value>
inChunks(mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange inputs, mlir::TypeRange resultTypes, int64_t n,
         int64_t chunk,
         llvm::function_ref<llvm::SmallVector<mlir::Value>(mlir::OpBuilder &, mlir::ValueRange chunks,
                                                           mlir::TypeRange chunkTypes)>
             compute);

/// Loads and stores whose pointers address each row (the innermost
/// dimension) contiguously, by the axis analysis of the Triton IR: the
/// length of a row.  Such an access is one masked vector load or store per
/// row instead of a gather or scatter.
using ContiguousRows = llvm::DenseMap<mlir::Operation *, int64_t>;
ContiguousRows findContiguousRows(mlir::ModuleOp module);

/// The C library function that computes what `op` (a libdevice call,
/// `__nv_expf`) does, by the same name (`expf`), or else the native
/// library's own (`tritium_host_erfinvf` for `__nv_erfinvf`, HostMath.h),
/// when there is one and the op's types are its (f32 for the float
/// versions, f64 for the others).
std::optional<std::string> hostLibraryFunction(tritium::tt::ExternElementwiseOp op);
/// Whether the CPU target computes `op` (a libdevice call): by MLIR ops
/// (rsqrt, the isnan/isinf/signbit tests, integer min and max...) or by its
/// C library twin.
bool hasHostLibdevice(tritium::tt::ExternElementwiseOp op);

/// Patterns of TensorOpsToHost.cpp: tensor creation, shape ops, element-wise ops.
void populateTensorOpsToHostPatterns(const mlir::TypeConverter &types, mlir::RewritePatternSet &patterns);
/// Patterns of MemoryOpsToHost.cpp: pointers, loads, stores, gather, atomics.
void populateMemoryOpsToHostPatterns(const mlir::TypeConverter &types, mlir::RewritePatternSet &patterns,
                                     const ContiguousRows &rows);
/// Patterns of ReduceScanDotToHost.cpp.
void populateReduceScanDotToHostPatterns(const mlir::TypeConverter &types, mlir::RewritePatternSet &patterns);
/// Patterns of DebugOpsToHost.cpp: tt.print and tt.assert.
void populateDebugOpsToHostPatterns(const mlir::TypeConverter &types, mlir::RewritePatternSet &patterns);

/// StripMineElementwise.cpp: chains of element-wise ops on vectors of many
/// lanes, in every block under `root`, become loops over 16-lane chunks;
/// `fastCompile` also takes short chains on wide vectors.
void stripMineElementwise(mlir::Operation *root, bool fastCompile);

} // namespace tritium::cpu

#endif // TRITIUM_LIB_TARGET_CPU_HOSTLOWERING_H
