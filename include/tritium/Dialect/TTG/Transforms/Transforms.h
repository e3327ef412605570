//===- Transforms.h - ttg transformations callable without a pass -*- C++ -*-===//
//
// The functions behind the ttg passes of Passes.td, and the small layout
// builders they (and convert-tt-to-ttg) share.  Each pass is a thin wrapper
// that calls one of these on its module; pipelines and tests may call them
// directly.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_DIALECT_TTG_TRANSFORMS_TRANSFORMS_H
#define TRITIUM_DIALECT_TTG_TRANSFORMS_TRANSFORMS_H

#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Layout/TmaTile.h"

#include <optional>

namespace mlir::scf {
class ForOp;
} // namespace mlir::scf

namespace tritium::tt {
class DotOp;
} // namespace tritium::tt

namespace tritium::ttg {

//===----------------------------------------------------------------------===//
// Layout builders (BlockedEncodings.cpp)
//===----------------------------------------------------------------------===//

/// The #ttg.blocked attribute of `spec`.
BlockedEncodingAttr getBlockedEncoding(mlir::MLIRContext *context,
                                       const layout::BlockedSpec &spec);

/// The default layout of a tensor of `shape` (ttg::defaultBlockedLayout).
BlockedEncodingAttr getDefaultBlockedEncoding(mlir::MLIRContext *context,
                                              llvm::ArrayRef<int64_t> shape,
                                              int numWarps, int threadsPerWarp);

/// `type` with layout `encoding` (same shape and element type).
mlir::RankedTensorType withEncoding(mlir::Type type, mlir::Attribute encoding);

//===----------------------------------------------------------------------===//
// ttg-coalesce (Coalesce.cpp)
//===----------------------------------------------------------------------===//

/// The pointer operand of a global-memory access (tt.load, tt.store,
/// tt.atomic_rmw, tt.atomic_cas) when it is a tensor of pointers with a
/// distributed layout; null for any other op.
mlir::Value getCoalescablePointer(mlir::Operation *op);

/// ttg-coalesce: rebuilds every global-memory access of `module` in its
/// coalesced layout, converting operands in and results out.
void coalesceMemoryAccesses(mlir::ModuleOp module);

//===----------------------------------------------------------------------===//
// ttg-remove-layout-conversions (LayoutPropagation.cpp,
// Rematerialization.cpp, ConversionCleanup.cpp, RemoveLayoutConversions.cpp)
//===----------------------------------------------------------------------===//

/// Step 1: floods the layouts of anchored ops through layout-agnostic ops in
/// `funcOp` and rewrites types in place, inserting conversions only where
/// two layouts meet.
void propagateLayouts(mlir::Operation *funcOp);

/// Step 2: replaces each conversion in `funcOp` whose operand is computed by
/// cheap layout-agnostic ops from free leaves by that computation redone in
/// the target layout.  Returns true if anything changed.
bool rematerializeConversions(mlir::Operation *funcOp);

/// Step 3: moves each conversion in `funcOp` up the chain of cheap
/// layout-agnostic ops that computes its operand, to right after the values
/// (loads, reductions, ...) that chain starts from, where that converts no
/// more values and no more bytes.  Returns true if anything changed.
bool hoistConversions(mlir::Operation *funcOp);

/// Step 3 for one conversion: hoists it where that pays (as above, or where
/// it feeds a tensor-core operand in a loop from streamed loads).  Returns
/// true if it was rewritten (the conversion is then erased).
bool hoistConversion(ConvertLayoutOp conversion);

/// Cleanup (after each step): folds no-op conversions and chains, merges
/// conversions of one value to one type, erases dead pure ops and
/// loop-carried values that nothing reads.
void cleanupConversions(mlir::Operation *funcOp);

//===----------------------------------------------------------------------===//
// Dot operands in shared memory (ReduceDataDuplication.cpp)
//===----------------------------------------------------------------------===//

/// The #ttg.nvmma_shared layout for operand `opIdx` (A: 0, B: 1) of a 2-D
/// dot stored from `source`: the widest swizzle its contiguous dimension
/// allows, keeping the contiguous dimension of a blocked source where the
/// reader allows it (`anyMajor`: mma.sync reads any tile; wgmma reads
/// MN-major tiles of 16-bit types only, others K-major); null when no
/// swizzle fits.
NvmmaSharedEncodingAttr chooseDotOperandSharedLayout(mlir::Value source,
                                                     int opIdx, bool anyMajor);

/// `source` stored to an immutable shared tile of `layout` (a shared
/// encoding; ttg.local_alloc); returns the !ttg.memdesc.
mlir::Value storeToSharedTile(mlir::OpBuilder &builder, mlir::Location loc,
                              mlir::Value source, mlir::Attribute layout);

/// `convert`, into the #ttg.dot_op layout of a tensor-core operand, made a
/// store of its source to a shared tile and a read of that tile in the
/// operand layout (ldmatrix for 16-bit operands); false, and nothing
/// changed, where no tile fits.
bool readOperandFromSharedTile(ConvertLayoutOp convert);

/// ttg-reduce-data-duplication: every conversion of `module` into a
/// #ttg.dot_op of a version-2 mma becomes a store to a swizzled shared tile
/// and a load from it, where a swizzle fits.
void reduceDataDuplication(mlir::ModuleOp module);

/// The dots of `module` with a blocked accumulator (before
/// ttg-accelerate-matmul, every dot; after it, the CUDA-core ones), in walk
/// order, collected before a pass rewrites them.
llvm::SmallVector<tt::DotOp> blockedAccumulatorDots(mlir::ModuleOp module);

/// ttg-cuda-core-dot-operands: the operands of every dot of `module` with a
/// blocked accumulator that are shared-memory conversions become stores to
/// shared tiles at the conversions and loads right before the dot
/// (CudaCoreDotOperands.cpp).
void stageCudaCoreDotOperands(mlir::ModuleOp module);

/// ttg-optimize-dot-operands: every ttg.warp_group_dot of `module` whose A
/// is a shared tile stored from a 16-bit tensor computed in registers (not
/// loaded), which converts to the dot's register operand layout without
/// shared memory, takes A from registers instead.
void optimizeDotOperands(mlir::ModuleOp module);

/// ttg-prefetch: splits every mma.sync dot of a pipelined loop in `module`
/// whose operands are read from ring slots into 16-wide K slices, each read
/// right before its MMAs, and reads the next iteration's first slice at the
/// end of the current one (carried in registers).
void prefetchDotOperands(mlir::ModuleOp module);

/// ttg-slice-cuda-core-dots: rewrites every CUDA-core dot in `module` whose
/// operands are loaded from shared tiles as a chain of dots over slices of
/// K, each slice's operands loaded right before its FMAs, if those operands
/// take a thread at least `minOperandRegisters` 32-bit registers.
void sliceCudaCoreDots(mlir::ModuleOp module, int64_t minOperandRegisters);

/// ttg-reorder-instructions: hoists every ttg.local_alloc of a tensor in
/// `module` to right after the tensor's definition, and sinks every
/// ttg.convert_layout and ttg.local_load to right before its first user in
/// its block (a local_load not past a possible memory write).
void reorderInstructions(mlir::ModuleOp module);

/// Drops every carried value of an scf.for in `funcOp` whose result is
/// unused and whose iteration argument flows, through pure ops of the body,
/// only into its own yield (the loop is rebuilt without it).  Returns true
/// if a loop changed.
bool dropDeadCarriedValues(mlir::Operation *funcOp);

/// ttg-loop-aware-cse: merges the carried values of every scf.for in
/// `module` that provably hold equal values in every iteration, then
/// shares the computations that became common.
void loopAwareCSE(mlir::ModuleOp module);

/// ttg-remove-layout-conversions: the three steps, each followed by cleanup,
/// on every function of `module`.
void removeLayoutConversions(mlir::ModuleOp module);

//===----------------------------------------------------------------------===//
// ttg-accelerate-matmul (AccelerateMatmul.cpp)
//===----------------------------------------------------------------------===//

/// ttg-accelerate-matmul: rebuilds every blocked tt.dot of `module` that a
/// tensor-core instruction of the module's target fits in #ttg.nvidia_mma
/// layouts, and casts the operands of the others (CUDA-core dots) to their
/// accumulator's element type.  Fails, with an error at the dot, on fp8e4nv
/// operands for a target before sm_89.
mlir::LogicalResult accelerateMatmul(mlir::ModuleOp module);

//===----------------------------------------------------------------------===//
// ttg-pipeline (Pipeline.cpp)
//===----------------------------------------------------------------------===//

/// ttg-pipeline: runs the loads that feed shared-memory operands of dots
/// numStages - 1 iterations ahead through rings of shared buffers.
void pipelineLoops(mlir::ModuleOp module, int numStages);

/// ttg-pipeline's last step (AsyncDots.cpp): the warpgroup dots of a loop
/// it rebuilt whose result only the next iteration reads run
/// asynchronously, each waited for where its MMAs have overlapped the most.
void makeDotsAsync(mlir::scf::ForOp loop);

//===----------------------------------------------------------------------===//
// ttg-warp-specialize (WarpSpecialize.cpp)
//===----------------------------------------------------------------------===//

/// ttg-warp-specialize: a matmul loop nest marked tt.warp_specialize gets a
/// producer warp that issues its TMA copies into a ring of numStages slots
/// (or the loop's tt.num_stages) while the kernel's warps run its MMAs.
/// Fails, with an error at the loop, for a target before Hopper.
mlir::LogicalResult warpSpecializeLoops(mlir::ModuleOp module, int numStages);

//===----------------------------------------------------------------------===//
// The persistent tile-loop passes, in pipeline order: ttg-subtile-tma-store
// (SubtiledTMAStore.cpp), ttg-prefetch-next-tile (PrefetchNextTile.cpp),
// ttg-defer-tma-store-wait (DeferTMAStoreWait.cpp),
// ttg-continue-ring-across-tiles (ContinueRingAcrossTiles.cpp),
// ttg-defer-tile-store (DeferTileStore.cpp)
//===----------------------------------------------------------------------===//

/// Marks a tile loop that ttg-prefetch-next-tile rewrote (the next tile's
/// ring prologue runs before this tile's epilogue).
inline constexpr llvm::StringLiteral kPrefetchedNextTileAttr =
    "ttg.prefetched_next_tile";
/// Marks a tile loop whose K loops share one TMA ring
/// (ttg-continue-ring-across-tiles).
inline constexpr llvm::StringLiteral kRingAcrossTilesAttr =
    "ttg.ring_across_tiles";

/// Hopper's shared memory per block (227 KiB), less what the lowering adds:
/// what the tile-loop passes keep a loop's buffers within.
inline constexpr int64_t kTileLoopSharedBudget = 232448 - 1024;

/// The bytes of a shared buffer (memdesc) or of a tensor's elements
/// (sub-byte elements count a byte each); 0 for other types.
int64_t sharedBytesOf(mlir::Type type);

/// A tile loop of a warp-specialized kernel: marked tt.warp_specialize (not
/// tt.flatten), in the default region of a ttg.warp_specialize.
bool isWarpSpecializedTileLoop(mlir::scf::ForOp loop);

/// ttg-prefetch-next-tile: in a tile loop marked tt.flatten, issues the
/// next tile's K-loop prologue (ring copies) before the current tile's
/// epilogue.  Returns the rewritten loop, marked kPrefetchedNextTileAttr,
/// or null, changing nothing, when the loop does not have that form or its
/// buffers would not fit in shared memory at once.
mlir::scf::ForOp prefetchNextTile(mlir::scf::ForOp tileLoop);

/// ttg-defer-tma-store-wait: a tile loop whose epilogue stores its tile
/// with TMA and waits until the copy has read it out of shared memory:
/// when that tile is the only buffer of the loop body, the wait moves to
/// just before the next tile's epilogue writes the tile again (with a CTA
/// barrier after it), and one more follows the loop; the copy reads shared
/// memory while the next tile's K loop runs.
void deferTMAStoreWait(mlir::scf::ForOp loop);

/// ttg-continue-ring-across-tiles: makes the K loops of a tile loop that
/// prefetchNextTile rewrote share one TMA ring, the K loop's last
/// iterations issuing the next tile's first copies and the slot indices and
/// phases carrying from tile to tile.  Returns the rewritten tile loop (it
/// carries the ring's state), or null, changing nothing, when the loop does
/// not have that form.
mlir::scf::ForOp continueRingAcrossTiles(mlir::scf::ForOp tileLoop);

/// ttg-defer-tile-store: in a tile loop that continueRingAcrossTiles
/// rewrote, the epilogue's TMA store of a tile is issued in the next
/// tile's K loop, after its first iteration's ring copies, instead of
/// before them, and, within a register budget, the tile's write to shared
/// memory moves into that iteration too; a tile the store moves as several
/// boxes is written and stored one box-wide slab per iteration.  Returns
/// false, changing nothing, when the loop does not have that form.
bool deferTileStore(mlir::scf::ForOp tileLoop);

//===----------------------------------------------------------------------===//
// Subtiled TMA stores (SubtiledTMAStore.cpp)
//===----------------------------------------------------------------------===//

/// A wgmma accumulator tile stored by TMA, cut into slabs one box wide
/// (64 fp16 columns for the 128-byte swizzle): each slab's registers are a
/// subset of the tile's (ttg.extract_tile), in the accumulator's layout
/// with a slab-wide instruction.
struct TileSlabs {
  mlir::RankedTensorType slabType; ///< one slab, in registers
  int64_t width = 0;               ///< its columns
  int64_t count = 0;               ///< slabs in the tile (at least two)
};

/// How `source` (a wgmma accumulator layout, warps along M only), written
/// into `tileType` and stored by TMA as blocks of type `block`, is cut into
/// slabs; none when its rows take several boxes, its tile is unswizzled or
/// one box wide.
std::optional<TileSlabs> planTileSlabs(mlir::RankedTensorType source,
                                       MemDescType tileType,
                                       mlir::RankedTensorType block);

/// `slots` shared slab slots of `tileType`'s encoding, [slots, rows, width].
MemDescType slabSlotsType(MemDescType tileType, const TileSlabs &slabs,
                          int64_t slots);

/// A tile loop's epilogue that stores a wgmma accumulator through one
/// shared tile and one TMA store, stored instead one slab (box column) at
/// a time through a ring of two slab slots.
struct SubtiledStorePlan {
  LocalAllocOp tile;                 ///< the whole tile, with its source
  AsyncTMACopyLocalToGlobalOp copy;  ///< its store
  AsyncTMAStoreWaitOp wait;          ///< the wait right after it
  mlir::RankedTensorType slabType;   ///< one slab of the source, in registers
  MemDescType slotsType;             ///< the two slots
  int64_t slabs = 0;
};

/// Whether the epilogue tile `tile` of the tile loop around it can be
/// stored a slab at a time (see SubtiledTMAStore.cpp), and how.
std::optional<SubtiledStorePlan> planSubtiledStore(LocalAllocOp tile);

/// Rewrites the epilogue of `loop` as `plan` says: the slots are allocated
/// before the loop, each slab waits until the store that last read its
/// slot is done, and one wait for all follows the loop.
void subtileStore(mlir::scf::ForOp loop, SubtiledStorePlan plan);

/// For a tile loop marked tt.flatten that prefetchNextTile would rewrite
/// but for its epilogue's TMA-stored tile, which does not fit beside the
/// rings: how to store that tile a slab at a time so that it fits
/// (PrefetchNextTile.cpp).
std::optional<SubtiledStorePlan>
planSubtiledStoreForPrefetch(mlir::scf::ForOp tileLoop);

//===----------------------------------------------------------------------===//
// ttg-lower-tensor-descriptors (LowerTensorDescriptors.cpp)
//===----------------------------------------------------------------------===//

/// The shared tile TMA moves a descriptor's blocks through: its layout
/// (#ttg.nvmma_shared, or a plain #ttg.swizzled_shared) and its boxes.
struct TensorDescriptorTile {
  mlir::Attribute encoding;
  layout::TmaTilePlan plan;
};

/// Plans the tile of `desc`'s blocks and, when `desc` is a kernel argument,
/// records the plan on it (tt.tma_swizzle, tt.tma_box: the host encodes the
/// tensor map from them; a map made in the kernel is encoded from the same
/// plan).  Fails, with an error at `user` when `report`, when `desc` is an
/// argument of a device function, the target predates Hopper, or TMA
/// cannot move the block.
mlir::FailureOr<TensorDescriptorTile>
planTensorDescriptorTile(mlir::Operation *user, mlir::Value desc, bool report);

/// The type of an array of mbarriers in shared memory (one 64-bit word
/// each, mutable): `shape` is [1] for one barrier, [n, 1] for a ring of n
/// (whose slots ttg.memdesc_index views as [1]).
MemDescType barrierArrayType(mlir::MLIRContext *context,
                             llvm::ArrayRef<int64_t> shape);

void lowerTensorDescriptors(mlir::ModuleOp module);

/// Gives every tensor map the kernel makes (tt.make_tensor_descriptor) a
/// slot of the kernel's global scratch memory: the kernel gets a last
/// argument, the scratch of all programs, each op its scratch_offset, the
/// module ttg.global_scratch_size.  Unused ones are erased.  Fails, with
/// an error, on one outside the kernel function.
mlir::LogicalResult assignTensorMapScratch(mlir::ModuleOp module);

} // namespace tritium::ttg

#endif // TRITIUM_DIALECT_TTG_TRANSFORMS_TRANSFORMS_H
