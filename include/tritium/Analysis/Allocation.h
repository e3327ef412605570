//===- Allocation.h - shared-memory buffers and their offsets ---*- C++ -*-===//
//
// Which ops of a TTGIR module need shared memory when lowered, how much, and
// at which byte offset of the kernel's (dynamic) shared memory each buffer
// lives.  Two kinds of buffers exist:
//   * scratch: used only while one op executes (a ttg.convert_layout that
//     moves elements through shared memory, a scalar atomic whose result
//     every thread needs);
//   * explicit: a ttg.local_alloc, live from its definition to its last use
//     (through views), whole loops included when used inside one.
// Buffers whose live ranges overlap get disjoint bytes.  The result is
// written into the IR by the ttg-allocate-shared-memory pass and read back by
// the lowering through getAllocationOffset().
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_ANALYSIS_ALLOCATION_H
#define TRITIUM_ANALYSIS_ALLOCATION_H

#include "mlir/IR/BuiltinOps.h"
#include "tritium/Layout/BankConflicts.h"
#include "tritium/Layout/LinearLayout.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace tritium {

/// The op attribute holding a buffer's byte offset (i32).
inline constexpr llvm::StringLiteral kAllocationOffsetAttrName =
    "allocation.offset";
/// The module attribute holding the shared memory a kernel needs (i32 bytes).
inline constexpr llvm::StringLiteral kSharedMemorySizeAttrName = "ttg.shared";

/// For a tensor moving from layout `src` to layout `dst`: the source
/// register each destination register can copy, in the same thread, or
/// nullopt when some element has to move between threads.  `dstToSrc` maps
/// destination coordinates to source coordinates (a linear projection, e.g.
/// dropping a dimension for tt.expand_dims or zeroing broadcast ones); by
/// default the shapes are equal and coordinates map to themselves.  This
/// decides whether a ttg.convert_layout needs shared memory; the lowerings
/// use the mapping for the register-only cases.
std::optional<llvm::SmallVector<int64_t>> getRegisterPermutation(
    const layout::LinearLayout &src, const layout::LinearLayout &dst,
    llvm::function_ref<std::vector<int64_t>(const std::vector<int64_t> &)>
        dstToSrc = nullptr);

/// Bytes one element of `elementType` occupies in memory: i1 and 8-bit
/// floats take a byte, pointers 8 bytes.
int64_t getElementBytes(mlir::Type elementType);

/// How a ttg.convert_layout between distributed layouts is lowered.
enum class ConvertLayoutPath {
  Registers,    // every element stays in its thread: registers are renamed
  WarpShuffle,  // elements stay in their warp: shfl.sync.idx per register
  WarpTransfer, // elements stay in their warp, register bits traded for lane
                // bits: selects around a shfl.sync.idx per register
  SharedMemory, // through the op's scratch buffer
};

/// The path of a conversion from `srcType` to `dstType` (both distributed).
/// The one decision both the allocation (only SharedMemory gets scratch)
/// and the lowering follow: registers when getRegisterPermutation finds a
/// mapping; warp shuffles when layout::planWarpShuffle finds a plan and its
/// shuffles (one per 32 bits of each destination register that is not
/// local) cost no more than the wavefronts of the shared-memory plan's
/// store and load phases (a 32-bit shuffle moves 128 bytes per warp, as one
/// conflict-free wavefront does, and needs no barrier); else shared memory.
ConvertLayoutPath getConvertLayoutPath(mlir::RankedTensorType srcType,
                                       mlir::RankedTensorType dstType);

/// The scratch tile of a ttg.convert_layout from `srcType` to `dstType`
/// (distributed layouts) and the vector width of its store and load phases,
/// or nullopt when the conversion does not take the SharedMemory path.  The
/// allocation sizes the buffer from it and the lowering addresses it with
/// it.
std::optional<layout::ConvertScratchPlan>
getConvertScratchPlan(mlir::RankedTensorType srcType,
                      mlir::RankedTensorType dstType);

/// Bytes of the whole buffer a ttg.local_alloc creates (its allocShape).
int64_t getLocalAllocBytes(mlir::Operation *localAlloc);

/// The alignment the buffer of a ttg.local_alloc needs (see
/// Allocation::kAlignment).
int64_t getLocalAllocAlignment(mlir::Operation *localAlloc);

/// Bytes of scratch `op` uses while it executes (0 when it needs none).
int64_t getScratchBytes(mlir::Operation *op);
/// The alignment of that scratch: Allocation::kAlignment, or 128 for a
/// tensor map a tt.make_tensor_descriptor encodes there.
int64_t getScratchAlignment(mlir::Operation *op);
/// The scratch of the ops whose lowering decides how it is laid out; each is
/// defined next to its lowering (lib/Conversion/TTGToLLVM/<Op>OpToLLVM.cpp)
/// so that the size and the addressing cannot drift apart.
int64_t getReduceScratchBytes(mlir::Operation *reduceOp);
int64_t getScanScratchBytes(mlir::Operation *scanOp);
int64_t getGatherScratchBytes(mlir::Operation *gatherOp);
int64_t getHistogramScratchBytes(mlir::Operation *histogramOp);

/// The buffers of a module and their offsets.
class Allocation {
public:
  struct Buffer {
    mlir::Operation *owner; // the op the buffer belongs to
    int64_t bytes;
    int64_t offset = -1;
    int64_t liveStart = 0; // program-order positions, inclusive
    int64_t liveEnd = 0;
    int64_t alignment = kAlignment;
  };

  /// Buffers are 16-byte aligned (vectorized 128-bit accesses); tiles in a
  /// #ttg.nvmma_shared layout to a whole swizzle pattern (8 rows of the
  /// swizzle width: 1024 bytes for 128-byte swizzling), since the hardware
  /// swizzles absolute address bits.
  static constexpr int64_t kAlignment = 16;

  /// Finds and places every buffer of `module`.  Functions get disjoint
  /// ranges (a device function may run while its caller's buffers live).
  explicit Allocation(mlir::ModuleOp module);

  llvm::ArrayRef<Buffer> getBuffers() const { return buffers_; }
  /// Bytes of shared memory the module needs.
  int64_t getTotalBytes() const { return totalBytes_; }

private:
  void allocateFunction(mlir::Operation *function);

  llvm::SmallVector<Buffer> buffers_;
  int64_t totalBytes_ = 0;
};

/// The offset that ttg-allocate-shared-memory recorded on `op`, if any.
std::optional<int64_t> getAllocationOffset(mlir::Operation *op);

/// Runs the analysis and records its result in the IR (the
/// ttg-allocate-shared-memory pass).
void allocateSharedMemory(mlir::ModuleOp module);

} // namespace tritium

#endif // TRITIUM_ANALYSIS_ALLOCATION_H
