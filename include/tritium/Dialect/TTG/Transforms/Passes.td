//===- Passes.td - ttg dialect transformations --------------------*- tablegen -*-===//
//
// Passes that improve TritonGPU IR: coalescing memory accesses (so that a
// warp reads contiguous, vectorized chunks of memory), removing the layout
// conversions that coalescing and the conversion from Triton IR leave
// behind, moving dots onto tensor cores, reading their operands from
// shared memory, placing shared-memory traffic to keep few registers live,
// software-pipelining the loads that feed them, and merging loop-carried
// values that are equal by induction.  The `tritium-make-ttgir` pipeline
// (include/tritium/Pipelines/TTGIRPipeline.h) runs them in order.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_DIALECT_TTG_TRANSFORMS_PASSES_TD
#define TRITIUM_DIALECT_TTG_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TTGCoalescePass : Pass<"ttg-coalesce", "::mlir::ModuleOp"> {
  let summary = "give loads, stores and atomics layouts that coalesce and "
                "vectorize their memory accesses";
  let description = [{
    For every `tt.load`, `tt.store`, `tt.atomic_rmw` and `tt.atomic_cas` on a
    tensor of pointers, the axis-info analysis says along which dimensions
    the pointers are contiguous and how well they are aligned.  The pass
    orders the dimensions by decreasing contiguity of the pointers, lets each
    thread access

        perThread = min(alignment in elements, contiguity, 128 / element bits)

    consecutive elements along the most contiguous one (one 128-bit vector at
    most, and no more than the tensor's elements divided by the threads), and
    fits the lanes and warps over the tensor, contiguous dimension first.
    The op is rebuilt in that blocked layout: its tensor operands are
    converted into it and its result converted back, for
    ttg-remove-layout-conversions to clean up.

    ```mlir
    // %ptrs: 1024 consecutive f32 from a 16-byte aligned base, 4 warps
    %v = tt.load %ptrs : tensor<1024x!tt.ptr<f32>, #blocked>
    // becomes
    #blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32],
                              warpsPerCTA = [4], order = [0]}>
    %p = ttg.convert_layout %ptrs : tensor<1024x!tt.ptr<f32>, #blocked>
                                 -> tensor<1024x!tt.ptr<f32>, #blocked1>
    %l = tt.load %p : tensor<1024x!tt.ptr<f32>, #blocked1>
    %v = ttg.convert_layout %l : tensor<1024xf32, #blocked1> -> tensor<1024xf32, #blocked>
    ```

    A column-major tile (contiguous along dimension 0) gets order [0, 1]; a
    row-major one order [1, 0].  Pointers of unknown alignment get one
    element per thread.  Scalar accesses and block pointers are left alone,
    as are ops whose layout already is the coalesced one.
  }];
  let dependentDialects = ["::tritium::ttg::TTGDialect"];
}

def TTGRemoveLayoutConversionsPass
    : Pass<"ttg-remove-layout-conversions", "::mlir::ModuleOp"> {
  let summary = "propagate layouts through cheap ops so that conversions "
                "disappear";
  let description = [{
    Removes `ttg.convert_layout` ops by choosing the layouts of the values
    around them, in four steps per function (a cleanup follows each of the
    first three):

    1. Propagation.  Ops whose layout is fixed (loads and stores after
       ttg-coalesce, dots, atomics, ops this pass does not model) anchor the
       layouts of their results and operands.  Starting from the results
       (so that values computed from a load follow the load) and then the
       operands, each anchor's layout floods through the ops that accept any
       layout: element-wise ops, `ttg.convert_layout`, `tt.splat`,
       `tt.make_range`, constants, `tt.broadcast`, `tt.expand_dims` and
       `tt.reduce` (through slice layouts), `tt.scan`, `tt.trans` (the
       layout with its dimensions permuted) and row-major `tt.reshape` (a
       `#ttg.linear` layout holding each row-major index where the operand
       did), and the values carried by `scf.for`, `scf.while`, `scf.if` and
       their terminators.  All
       anchored results flood together, breadth first, so each value takes
       the layout of the nearest one; then the anchored operands flood what
       is left.  Where two floods meet, one conversion is placed.  Types are
       then rewritten in place and conversions inserted only where an op's
       operands disagree with what it needs.

    2. Rematerialization.  A remaining conversion whose operand is computed
       only by such cheap ops from constants, splats, ranges, values already
       in the target layout or conversions from it, is replaced by a copy of
       that computation in the target layout.

    3. Hoisting.  A conversion that remains moves up toward the values it is
       computed from (a load, a reduction, a loop result): those are
       converted right after they are defined and the cheap ops after them
       are redone in the new layout, when that converts no more values and
       no more bytes (e.g. before an fp16->fp32 extf), never out of an
       `scf.if` branch and never past a value something else also uses.

    4. Cleanup.  Conversions to the same layout and chains of conversions
       fold; ops left without uses, and loop-carried values nobody reads,
       are erased.

    ```mlir
    %x = tt.load %px : tensor<1024x!tt.ptr<f32>, #blocked4>
    %a = ttg.convert_layout %x : tensor<1024xf32, #blocked4> -> tensor<1024xf32, #blocked>
    %s = arith.addf %a, %a : tensor<1024xf32, #blocked>
    %b = ttg.convert_layout %s : tensor<1024xf32, #blocked> -> tensor<1024xf32, #blocked4>
    tt.store %pz, %b : tensor<1024x!tt.ptr<f32>, #blocked4>
    // becomes
    %x = tt.load %px : tensor<1024x!tt.ptr<f32>, #blocked4>
    %s = arith.addf %x, %x : tensor<1024xf32, #blocked4>
    tt.store %pz, %s : tensor<1024x!tt.ptr<f32>, #blocked4>
    ```

    A conversion between two anchors that need different layouts (a load of
    a column-major tile stored row-major) stays: exactly one remains.
  }];
  let dependentDialects = ["::tritium::ttg::TTGDialect"];
}

def TTGAccelerateMatmulPass
    : Pass<"ttg-accelerate-matmul", "::mlir::ModuleOp"> {
  let summary = "move dots onto tensor cores (mma layouts)";
  let description = [{
    For every `tt.dot` with a blocked accumulator: on sm_90, when the tile
    fits Hopper's wgmma (whole warpgroups, M a multiple of 64, K of 32
    bytes), stores both operands to `#ttg.nvmma_shared` tiles
    (`ttg.local_alloc`) and rebuilds the dot as a `ttg.warp_group_dot` with
    a version-3 `#ttg.nvidia_mma` accumulator.  Otherwise picks the
    `mma.sync` instruction that fits its element types, input precision and
    target (m16n8k16 for fp16/bf16, fp8 as fp16 and the bf16 parts of
    bf16x3/bf16x6; m16n8k8 for tf32 and tf32x3; m16n8k32 for int8), spreads
    the warps over the tile, and rebuilds the dot with a version-2 mma
    accumulator and `#ttg.dot_op` operands converted in
    (`ttg-reduce-data-duplication` then reads them from swizzled shared
    tiles).  Batched 3-D dots take version 2 on every target (warps on the
    batch first).  Dots no instruction fits (ieee fp32, fp64, tiles smaller
    than one instruction) stay on the CUDA cores; their operands
    are cast to the type they accumulate in (f32 for fp16/bf16
    accumulators).  fp8e4nv dots for a target before sm_89 are an error.

    ```mlir
    %a0 = tt.load ... : tensor<64x32x!tt.ptr<f16>, #ld>
    %a = ttg.convert_layout %a0 : tensor<64x32xf16, #ld> -> tensor<64x32xf16, #dot_a>
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #dot_a> * tensor<32x64xf16, #dot_b>
                            -> tensor<64x64xf32, #blocked>
    // becomes, with 4 warps on cuda:80
    #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0,
                            warpsPerCTA = [2, 2], instrShape = [16, 8]}>
    %as = ttg.local_alloc %a0 : (tensor<64x32xf16, #ld>) -> !ttg.memdesc<64x32xf16, #nvmma, #smem>
    %a2 = ttg.local_load %as : ... -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    (the same for B)
    %c2 = ttg.convert_layout %c : ... -> tensor<64x64xf32, #mma>
    %d2 = tt.dot %a2, %b2, %c2 : ... -> tensor<64x64xf32, #mma>
    %d = ttg.convert_layout %d2 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    ```
  }];
  let dependentDialects = ["::tritium::ttg::TTGDialect",
                           "::mlir::arith::ArithDialect"];
}

def TTGLowerTensorDescriptorsPass
    : Pass<"ttg-lower-tensor-descriptors", "::mlir::ModuleOp"> {
  let summary = "move descriptor tiles with the copy engine (TMA) through shared memory";
  let description = [{
    Each `tt.descriptor_load` becomes a shared tile in the layout TMA writes
    (TmaTile.h), an mbarrier, one thread's expect-bytes and copies, a wait
    for the barrier's phase 0 by every thread, and a `ttg.local_load`; each
    `tt.descriptor_store` becomes a `ttg.local_alloc` of the tile, a proxy
    fence, the copies out, and a wait until they have read the tile.  The
    kernel argument of each descriptor records the tile's swizzle and box
    (`tt.tma_swizzle`, `tt.tma_box`), from which the host encodes its tensor
    map.  Hopper (cuda:90) and later only.

    ```mlir
    %t = tt.descriptor_load %desc[%i, %j] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    // becomes
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #plain, #smem, mutable>
    ttg.init_barrier %bar, 1 : ...
    ttg.barrier_expect %bar, 8192, %true : ...
    ttg.async_tma_copy_global_to_local %desc[%i, %j] %buf, %bar, %true : ...
    ttg.wait_barrier %bar, %c0_i32 : ...
    ttg.inval_barrier %bar : ...
    %t = ttg.local_load %buf : ... -> tensor<64x64xf16, #blocked>
    ```
  }];
  let dependentDialects = ["::tritium::ttg::TTGDialect"];
}

def TTGCudaCoreDotOperandsPass
    : Pass<"ttg-cuda-core-dot-operands", "::mlir::ModuleOp"> {
  let summary = "store both operands of a CUDA-core dot to shared tiles before "
                "loading either";
  let description = [{
    Each operand of a `tt.dot` with a blocked accumulator that is a
    `ttg.convert_layout` moving data between threads (through shared
    memory or warp shuffles; used by that dot only)
    becomes a `ttg.local_alloc` into a row-major `#ttg.swizzled_shared` tile
    (swizzled as the conversion's scratch plan would be) and a
    `ttg.local_load` right before the dot.  Both stores then precede one
    barrier and both loads, which can move next to the FMAs that use them,
    instead of A's values staying live across B's conversion.  Dots whose
    two tiles would take more than half of a block's shared memory on the
    target keep their conversions.

    ```mlir
    %a = ttg.convert_layout %x : tensor<32x64xf32, #blocked> -> tensor<32x64xf32, #dot_op_a>
    %b = ttg.convert_layout %y : tensor<64x32xf32, #blocked1> -> tensor<64x32xf32, #dot_op_b>
    %d = tt.dot %a, %b, %c : ...
    // becomes
    %sa = ttg.local_alloc %x : (tensor<32x64xf32, #blocked>) -> !ttg.memdesc<32x64xf32, #swizzled, #smem>
    %sb = ttg.local_alloc %y : (tensor<64x32xf32, #blocked1>) -> !ttg.memdesc<64x32xf32, #swizzled1, #smem>
    %a = ttg.local_load %sa : !ttg.memdesc<32x64xf32, #swizzled, #smem> -> tensor<32x64xf32, #dot_op_a>
    %b = ttg.local_load %sb : !ttg.memdesc<64x32xf32, #swizzled1, #smem> -> tensor<64x32xf32, #dot_op_b>
    %d = tt.dot %a, %b, %c : ...
    ```
  }];
  let dependentDialects = ["::tritium::ttg::TTGDialect"];
}

def TTGReduceDataDuplicationPass
    : Pass<"ttg-reduce-data-duplication", "::mlir::ModuleOp"> {
  let summary = "read mma.sync operands from swizzled shared tiles instead of "
                "converting them";
  let description = [{
    Every `ttg.convert_layout` from a distributed layout into a `#ttg.dot_op`
    of a version-2 `#ttg.nvidia_mma` (whose elements several threads hold)
    becomes a `ttg.local_alloc` into a `#ttg.nvmma_shared` tile, swizzled as
    wide as its contiguous dimension allows, and a `ttg.local_load` from it
    (ldmatrix for 16-bit types).  Tiles no swizzle fits, CUDA-core dot
    operands and other conversions are left alone.

    ```mlir
    %a = ttg.convert_layout %x : tensor<64x32xf16, #blocked>
        -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    // becomes
    %s = ttg.local_alloc %x : (tensor<64x32xf16, #blocked>)
        -> !ttg.memdesc<64x32xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 64,
           elementBitWidth = 16, order = [1, 0]}>, #smem>
    %a = ttg.local_load %s : !ttg.memdesc<...> -> tensor<64x32xf16, #ttg.dot_op<...>>
    ```
  }];
  let dependentDialects = ["::tritium::ttg::TTGDialect"];
}

def TTGOptimizeThreadLocalityPass
    : Pass<"ttg-optimize-thread-locality", "::mlir::ModuleOp"> {
  let summary = "fold a loop's per-iteration reductions within each thread, "
                "combining the threads once after the loop";
  let description = [{
    A `tt.reduce` over the innermost axis of a loaded `#ttg.blocked` tile,
    folded by its own combine (addf, mulf, max or min) into a loop-carried
    value that starts from a constant, reduces across threads every
    iteration.  The loop instead carries one partial per thread and row
    (the tile reshaped with `allow_reorder` so that each thread's elements
    of the axis form a new innermost dimension, reduced in registers); after
    the loop one `tt.reduce` combines the threads and the initial value is
    folded in.

    ```mlir
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> (...) : (tensor<32x512xf32, #blocked>) -> tensor<32xf32, ...>
    %a = arith.addf %acc, %s
    // becomes, in the loop
    %v = tt.reshape %x allow_reorder efficient_layout
        : tensor<32x512xf32, #blocked> -> tensor<32x128x4xf32, #blocked3d>
    %t = "tt.reduce"(%v) <{axis = 2 : i32}> (...) : (tensor<32x128x4xf32, #blocked3d>) -> tensor<32x128xf32, ...>
    %q = arith.addf %part, %t
    // and after it
    %s = "tt.reduce"(%p) <{axis = 1 : i32}> (...) : (tensor<32x128xf32, ...>) -> tensor<32xf32, ...>
    ```
  }];
  let dependentDialects = ["::tritium::ttg::TTGDialect", "::mlir::arith::ArithDialect"];
}

def TTGOptimizeDotOperandsPass
    : Pass<"ttg-optimize-dot-operands", "::mlir::ModuleOp"> {
  let summary = "feed wgmma's A from registers when it was computed there";
  let description = [{
    A `ttg.warp_group_dot` whose A is a `ttg.local_alloc` of a 16-bit tensor
    computed in registers (not a `tt.load`: loaded tiles stay in shared
    memory for `ttg-pipeline`), used by this dot only, takes that tensor
    converted to the `#ttg.dot_op` layout (opIdx 0, kWidth 2) of its
    accumulator instead, when the conversion needs no shared memory (the
    probabilities of attention, in the layout of the first dot's
    accumulator, are one register renaming away).  The alloc goes.

    ```mlir
    %p = arith.truncf %s : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
    %a = ttg.local_alloc %p : (tensor<128x64xf16, #mma>) -> !ttg.memdesc<128x64xf16, #nvmma, #smem>
    %o = ttg.warp_group_dot %a, %v, %acc : !ttg.memdesc<128x64xf16, #nvmma, #smem> * ...
    // becomes
    %a = ttg.convert_layout %p : tensor<128x64xf16, #mma>
        -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>>
    %o = ttg.warp_group_dot %a, %v, %acc : tensor<128x64xf16, #ttg.dot_op<...>> * ...
    ```
  }];
  let dependentDialects = ["::tritium::ttg::TTGDialect"];
}

def TTGReorderInstructionsPass
    : Pass<"ttg-reorder-instructions", "::mlir::ModuleOp"> {
  let summary = "place shared-memory stores early and conversions late, to "
                "keep fewer registers alive";
  let description = [{
    Within each block: a `ttg.local_alloc` of a tensor moves up to right
    after the op that defines the tensor, so a loaded tile's registers are
    stored and free early (an immutable tile of a tensor defined outside
    the loops around it first leaves those loops: stored once, not every
    iteration); a `ttg.convert_layout` or `ttg.local_load` moves
    down to right before its first user, so the converted copy is not held
    across unrelated work.  A `ttg.local_load` does not move past an op that
    may write memory.

    ```mlir
    %c = ttg.convert_layout %acc : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked>
    %p = tt.splat %ptr : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>, #blocked>
    tt.store %p, %c : tensor<128x128x!tt.ptr<f32>, #blocked>
    // becomes
    %p = tt.splat %ptr : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>, #blocked>
    %c = ttg.convert_layout %acc : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked>
    tt.store %p, %c : tensor<128x128x!tt.ptr<f32>, #blocked>
    ```
  }];
  let dependentDialects = ["::tritium::ttg::TTGDialect"];
}

def TTGPipelinePass : Pass<"ttg-pipeline", "::mlir::ModuleOp"> {
  let summary = "software-pipeline the loads of loops through shared memory";
  let description = [{
    In an `scf.for` whose loads feed only `ttg.local_alloc`s (the operands
    of tensor-core dots), the loads of iteration i + numStages - 1 are
    issued as `ttg.async_copy_global_to_local` (cp.async) into a ring of
    numStages shared buffers while iteration i computes on the buffer its
    copies filled numStages - 1 iterations earlier.  The ops the loads
    depend on (pointer and mask arithmetic, the pointer increments carried
    by the loop) form stage 0 and run ahead; everything else stays.  A
    prologue issues the first numStages - 1 iterations' copies, each commit
    group predicated on its iteration existing; every iteration waits until
    its own group has landed (`ttg.async_wait {num = numStages - 2}`).
    When no warpgroup dot (which may still read a buffer while the next
    copies are issued) and no TMA copy use the loop's rings, every reader
    of a buffer is done with it when its iteration issues the next copies:
    those then refill the buffer just read, after a barrier, and the ring
    has numStages - 1 buffers.

    ```mlir
    scf.for %i = %lb to %ub step %s iter_args(%acc = %c0, %p = %p0) {
      %x = tt.load %p, %m : tensor<128x64x!tt.ptr<f16>, #blocked>
      %a = ttg.local_alloc %x : ... -> !ttg.memdesc<128x64xf16, #nvmma, #smem>
      %d = ttg.warp_group_dot %a, ...
      %p2 = tt.addptr %p, %step
      scf.yield %d, %p2
    }
    // becomes (numStages = 3)
    %ring = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #nvmma, #smem, mutable>
    (copies of iterations 0 and 1 into ring[0], ring[1], one commit each)
    scf.for %i ... iter_args(%acc, %p_ahead = %p2_of_iteration_1, %in = 2, %out = 0) {
      ttg.async_wait {num = 1}
      %a = ttg.memdesc_index %ring[%out]
      %d = ttg.warp_group_dot %a, ...
      (copy of iteration i + 2 from %p_ahead into ring[%in], commit)
      ...
    }
    ttg.async_wait {num = 0}
    ```

    A `ttg.warp_group_dot` that only accumulates into a loop-carried value
    then runs asynchronously (`{isAsync}`): a `ttg.warp_group_dot_wait
    {pendings = 1}` right after it waits for the previous iteration's MMAs
    only, and one with `pendings = 0` follows the loop.

    Loads whose masked-out value is not zero, whose vectors would be under
    4 bytes (cp.async's smallest copy), whose shared tile is not contiguous
    along the load's contiguous dimension, loops whose stage-0 values are
    used after the loop, loops without a positive constant step, and
    num-stages below 2 are left alone.
  }];
  let options = [
    Option<"numStages", "num-stages", "int", "3",
           "buffers of the ring: loads run numStages - 1 iterations ahead">
  ];
  let dependentDialects = ["::tritium::ttg::TTGDialect",
                           "::mlir::arith::ArithDialect"];
}

def TTGWarpSpecializePass : Pass<"ttg-warp-specialize", "::mlir::ModuleOp"> {
  let summary = "give a matmul loop marked warp_specialize a TMA producer warp";
  let description = [{
    For an `scf.for` marked `tt.warp_specialize` in the kernel's body, on
    sm_90, whose K loop (the loop itself or one nested in it) streams
    kernel-argument descriptor loads into the one warpgroup dot: the loop
    and what follows it run on the kernel's warps inside the default region
    of a `ttg.warp_specialize`, with the loads replaced by waits on "full"
    mbarriers and views of ring slots, the dot asynchronous, and each slot
    released on an "empty" mbarrier once the next dot is issued and the
    previous one waited for.  One more warp, the partition, runs the loop
    nest's index arithmetic and issues the copies: wait until a slot is
    empty, expect its bytes, copy.  Both count the K iterations of the whole
    nest, so the ring runs on across a persistent kernel's tiles.

    ```mlir
    scf.for %t = ... {
      %acc = scf.for %k = ... iter_args(%a = %zero) {
        %x = tt.descriptor_load %descA[%m, %k0] ...
        %tile = ttg.local_alloc %x ...
        ...
        %d = ttg.warp_group_dot %tile, %tileB, %a ...
        scf.yield %d
      }
      (epilogue)
    } {tt.warp_specialize}
    // becomes
    %ringA = ttg.local_alloc ... (and the full and empty barriers, initialized)
    ttg.warp_specialize default {
      scf.for %t = ... iter_args(%c = 0) {
        %acc, %c2 = scf.for %k = ... iter_args(%a = %zero, %ck = %c) {
          ttg.wait_barrier full[%ck % S], (%ck / S) & 1
          %d = ttg.warp_group_dot %slotA, %slotB, %a {isAsync}
          %w = ttg.warp_group_dot_wait %d {pendings = 1}
          ttg.arrive_barrier empty[(%ck - 1) % S], %k != lb
          ...
        }
        (wait for all, release the last slot, epilogue)
      }
      ttg.warp_yield
    } partition num_warps(1) {
      scf.for %t = ... { scf.for %k = ... {
        ttg.wait_barrier empty[%c % S], ((%c / S) & 1) ^ 1
        ttg.barrier_expect full[%c % S], bytes
        ttg.async_tma_copy_global_to_local ...
      } }
      ttg.warp_yield
    }
    ```

    Descriptors are kernel arguments or made before the loop (the
    partition acquires those maps first).  Any other shape (several dots,
    loads outside the K loop, tensor memory work before the loop, which
    every warp would run) is left alone: the hint is ignored, as Triton
    ignores it where it cannot specialize.  On a target before Hopper the
    loop is an error.
  }];
  let options = [
    Option<"numStages", "num-stages", "int", "3",
           "slots of the ring, unless the loop has tt.num_stages">
  ];
  let dependentDialects = ["::tritium::ttg::TTGDialect",
                           "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def TTGSubtileTMAStorePass : Pass<"ttg-subtile-tma-store", "::mlir::ModuleOp"> {
  let summary = "store an epilogue's TMA tile a slab at a time when the whole tile does not fit";
  let description = [{
    A persistent matmul's epilogue writes its output tile to shared memory
    whole and stores it with one TMA copy.  When the tile loop's rings live
    across the loop, that tile comes on top of them.  The copy engine moves
    the tile as boxes one swizzle span wide anyway (64 fp16 columns for the
    128-byte swizzle), so the epilogue can store one such slab at a time
    through two slab slots allocated before the loop:

    ```mlir
    scf.for %t = ... {
      ...
      %tile = ttg.local_alloc %acc : (tensor<128x256xf16, #mma>) -> !ttg.memdesc<128x256xf16, ...>
      ttg.async_tma_copy_local_to_global %desc[%m, %n] %tile
      ttg.async_tma_store_wait {pendings = 0 : i32}
    } {tt.flatten}
    // becomes
    %slots = ttg.local_alloc : () -> !ttg.memdesc<2x128x64xf16, ..., mutable>
    scf.for %t = ... {
      ...
      // for each slab j of 4:
      ttg.async_tma_store_wait {pendings = 1 : i32}
      %w = ttg.extract_tile %acc [0, 64 * j] : tensor<128x256xf16, #mma> -> tensor<128x64xf16, #mma1>
      %slot = ttg.memdesc_index %slots[j % 2]
      ttg.local_store %w, %slot
      ttg.async_tma_copy_local_to_global %desc[%m, %n + 64 * j] %slot
    } {tt.flatten}
    ttg.async_tma_store_wait {pendings = 0 : i32}
    ```

    It applies to the tile loops whose tile is what keeps
    ttg-prefetch-next-tile from fitting the rings and the epilogue in
    shared memory at once (loops marked `tt.flatten`), and to the tile loop
    of a warp-specialized kernel (marked `tt.warp_specialize`, in the
    default region of a `ttg.warp_specialize`) whose tile does not fit
    beside the producer's ring; in both, only when the slots do fit.  The
    tile must be a rank-2 wgmma accumulator with its warps along M, stored
    right after its local_alloc and waited for at once, in an even number
    of slabs, at least four.
  }];
  let dependentDialects = ["::tritium::ttg::TTGDialect",
                           "::mlir::arith::ArithDialect"];
}

def TTGPrefetchNextTilePass : Pass<"ttg-prefetch-next-tile", "::mlir::ModuleOp"> {
  let summary = "issue the next tile's ring prologue before this tile's epilogue";
  let description = [{
    In a persistent kernel's tile loop marked `tt.flatten`
    (`tl.range(..., flatten=True)`) whose body is a head (the tile's
    indices, the ring buffers, the K loop's prologue copies), a K loop that
    ttg-pipeline streamed, its drain (waits, barriers invalidated) and an
    epilogue, the head of tile i + 1 runs right after tile i's drain (its
    index arithmetic at `%iv + %step`, or `%iv` past the last tile; its
    barrier inits and copies under `scf.if %iv + %step < %ub`), and the loop
    carries its values; the first tile's head runs before the loop.  The
    ring buffers move before the loop, so the epilogue's shared tiles no
    longer share their bytes.  The rewritten loop is marked
    `ttg.prefetched_next_tile`, which the tile-loop passes after it look for.

    ```mlir
    scf.for %t = %lb to %ub step %s {
      %off = arith.muli %t, %c128
      %ring = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, ...>
      (init barriers; prologue copies at %off)
      %acc = scf.for ... (the pipelined K loop)
      (drain) (epilogue at %off)
    } {tt.flatten}
    // becomes
    %ring = ttg.local_alloc ...
    %off0 = arith.muli %lb, %c128
    scf.if %lb < %ub { (init barriers; prologue copies at %off0) }
    scf.for %t = %lb to %ub step %s iter_args(%off = %off0) {
      %acc = scf.for ...
      (drain)
      %valid = arith.select %t + %s < %ub, %t + %s, %t
      %next = arith.muli %valid, %c128
      scf.if %t + %s < %ub { (init barriers; prologue copies at %next) }
      (epilogue at %off)
      scf.yield %next
    } {tt.flatten, ttg.prefetched_next_tile}
    ```

    Loops whose head has other side effects or reads the loop's carried
    values, and loops whose rings and epilogue tiles would not fit in shared
    memory together, are left alone (ttg-subtile-tma-store, run before,
    stores the tile a slab at a time where that makes them fit).
  }];
  let dependentDialects = ["::tritium::ttg::TTGDialect",
                           "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def TTGDeferTMAStoreWaitPass : Pass<"ttg-defer-tma-store-wait", "::mlir::ModuleOp"> {
  let summary = "wait for an epilogue's TMA store only before the next tile writes its buffer";
  let description = [{
    A tile loop's epilogue that stores its tile with TMA waits right after
    the store until the copy engine has read the tile out of shared memory.
    When that tile is the only buffer of the loop body (no other local
    buffer, layout conversion, reduction or atomic that could take its
    bytes), the wait moves to just before the next tile's epilogue writes
    the tile again, followed by a CTA barrier (only the issuing thread
    waits), and one more wait follows the loop: the copy reads shared
    memory while the next tile's K loop runs.

    ```mlir
    scf.for %t = ... {
      %acc = scf.for ...
      %tile = ttg.local_alloc %v
      ttg.async_tma_copy_local_to_global %desc[%m, %n] %tile
      ttg.async_tma_store_wait {pendings = 0 : i32}
    } {tt.flatten, ttg.prefetched_next_tile}
    // becomes
    scf.for %t = ... {
      %acc = scf.for ...
      ttg.async_tma_store_wait {pendings = 0 : i32}
      ttg.barrier
      %tile = ttg.local_alloc %v
      ttg.async_tma_copy_local_to_global %desc[%m, %n] %tile
    } {tt.flatten, ttg.prefetched_next_tile}
    ttg.async_tma_store_wait {pendings = 0 : i32}
    ```

    It applies to the tile loops ttg-prefetch-next-tile rewrote and to the
    tile loop of a warp-specialized kernel (whose ring the producer warp
    fills on its own).
  }];
  let dependentDialects = ["::tritium::ttg::TTGDialect"];
}

def TTGContinueRingAcrossTilesPass
    : Pass<"ttg-continue-ring-across-tiles", "::mlir::ModuleOp"> {
  let summary = "let consecutive tiles' K loops share one TMA ring";
  let description = [{
    After ttg-prefetch-next-tile, a tile loop issues the next tile's ring
    prologue after the K loop's drain, and invalidates and initializes the
    ring's barriers again for every tile.  Where the K loop streams only TMA
    copies through barrier rings, this pass makes the K loops of
    consecutive tiles share one ring, as a flattened loop would: the K
    loop's last `numStages - 1` iterations, whose copies of the current
    tile would be past its end, issue the next tile's first copies instead,
    and the ring's slot indices and phases carry from one tile's K loop to
    the next.  A K loop shorter than the lookahead keeps the per-tile
    prologue (decided at run time, `cross = tripcount >= lookahead`).

    ```mlir
    scf.for %t = ... iter_args(%off = %off0) {
      %acc:3 = scf.for %k = ... iter_args(..., %slot = %c0, %phase = %c0) {
        %shifted = arith.addi %k, %lookahead
        %issue = arith.cmpi slt, %shifted, %ub
        ttg.async_tma_copy_global_to_local %a[%off, %shifted * 64] ..., %issue
      }
      (drain: inval barriers)
      scf.if %exists { (init barriers; next tile's prologue copies) }
      (epilogue)
    } {tt.flatten, ttg.prefetched_next_tile}
    // becomes
    scf.for %t = ... iter_args(%off = %off0, %slot0 = ..., %phase0 = ...) {
      %cont = arith.andi (%t + %s < %ub), %cross
      %acc:3 = scf.for %k = ... iter_args(..., %slot = %slot0, %phase = %phase0) {
        %row = arith.select %issue, %off, %next_off
        %col = arith.select %issue, %shifted * 64, (%shifted - %span) * 64
        ttg.async_tma_copy_global_to_local %a[%row, %col] ..., (%issue || %cont)
      }
      scf.if !%cont { (inval barriers) }
      scf.if %exists && !%cross { (init barriers; next tile's prologue copies) }
      (epilogue)
      scf.yield ..., select(%cont, %acc#1, %c0), select(%cont, %acc#2, %c0)
    } {tt.flatten, ttg.prefetched_next_tile, ttg.ring_across_tiles}
    ```

    It applies to the tile loops ttg-prefetch-next-tile rewrote (marked
    `ttg.prefetched_next_tile`) and marks the loops it rewrites
    `ttg.ring_across_tiles`.
  }];
  let dependentDialects = ["::tritium::ttg::TTGDialect",
                           "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def TTGDeferTileStorePass : Pass<"ttg-defer-tile-store", "::mlir::ModuleOp"> {
  let summary = "issue a tile's TMA store in the next tile's K loop, after its first copies";
  let description = [{
    In a tile loop whose K loops share one TMA ring (marked
    `ttg.ring_across_tiles`), the epilogue's TMA store, issued right before
    the next tile's K loop, delays that loop's first ring copies, and the
    tile's write to shared memory runs while the tensor cores wait.  This
    pass issues the store from the next tile's K loop, right after its
    first iteration's ring copies, and, where the tile and the tensors live
    through the K loop fit in the register budget, moves the write there
    too (after that iteration's MMA).  A tile the store moves as several
    boxes goes one box-wide slab per iteration (slab j in iteration j).  The
    last tile's store follows the loop; a K loop that runs no iteration (or
    fewer than the slabs) writes and stores what it skipped after it.

    ```mlir
    scf.for %t = ... iter_args(...) {
      %acc = scf.for %k = %lb to %ub ... { (ring copies) (wgmma) }
      ...
      ttg.async_tma_store_wait {pendings = 0 : i32}
      ttg.barrier
      %tile = ttg.local_alloc %v
      ttg.async_tma_copy_local_to_global %desc[%m, %n] %tile
    } {..., ttg.ring_across_tiles}
    ttg.async_tma_store_wait {pendings = 0 : i32}
    // becomes
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128x256xf16, ..., mutable>
    %r:N = scf.for %t = ... iter_args(..., %pending = %false, %pm = .., %pn = .., %pv = ..) {
      %acc = scf.for %k = %lb to %ub ... {
        scf.if (%k == %lb && %pending) { ttg.async_tma_store_wait {pendings = 0 : i32} }
        (ring copies)
        scf.if (%k == %lb && %pending) {
          ttg.local_store %pv, %buf
          ttg.async_tma_copy_local_to_global %desc[%pm, %pn] %buf
        }
        (wgmma)
      }
      scf.if (%pending && %lb >= %ub) { (wait; barrier; write; copy) }
      scf.yield ..., %true, %m, %n, %v
    }
    scf.if %r#pending { (wait; barrier; write; copy) }
    ttg.async_tma_store_wait {pendings = 0 : i32}
    ```

    The tt.flatten request is the user's statement that a tile's stores and
    the following tiles' loads do not overlap in memory, which this
    reordering relies on.
  }];
  let dependentDialects = ["::tritium::ttg::TTGDialect",
                           "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def TTGPrefetchPass : Pass<"ttg-prefetch", "::mlir::ModuleOp"> {
  let summary = "read mma.sync operands one K slice ahead of the MMAs";
  let description = [{
    In a loop `ttg-pipeline` made, a `tt.dot` on a version-2 mma whose A and
    B are `ttg.local_load`s of 16-bit tiles from ring slots
    (`ttg.memdesc_index %ring[%slot]`) becomes a chain of dots over K slices
    of 16 (`ttg.memdesc_subslice` + `ttg.local_load`), each slice read right
    before its MMAs; slice 0 of the next iteration is read at the end of the
    body, after the same `ttg.async_wait` as at the top, and carried in
    registers (slice 0 of the first iteration is read before the loop).

    ```mlir
    scf.for ... iter_args(%acc = %c, ..., %slot = %s0) {
      ttg.async_wait {num = 1 : i32}
      %av = ttg.memdesc_index %ringA[%slot] ...
      %a = ttg.local_load %av ... -> tensor<128x32xf16, #dot_a>
      (the same for B)
      %d = tt.dot %a, %b, %acc
      ...
    }
    // becomes
    (wait; slice 0 of A and B of slot %s0)
    scf.for ... iter_args(%acc = %c, ..., %slot = %s0, %a0 = ..., %b0 = ...) {
      ttg.async_wait {num = 1 : i32}
      %d0 = tt.dot %a0, %b0, %acc : tensor<128x16xf16, #dot_a> * ...
      %a1 = ttg.local_load (ttg.memdesc_subslice %av [0, 16]) ...
      %d = tt.dot %a1, %b1, %d0
      ...
      ttg.async_wait {num = 1 : i32}
      (slice 0 of A and B of the next slot)
      scf.yield %d, ..., %next_a0, %next_b0
    }
    ```
  }];
  let dependentDialects = ["::tritium::ttg::TTGDialect",
                           "::mlir::scf::SCFDialect"];
}

def TTGSliceCudaCoreDotsPass : Pass<"ttg-slice-cuda-core-dots", "::mlir::ModuleOp"> {
  let summary = "read a CUDA-core dot's operands a few steps of K at a time";
  let description = [{
    A `tt.dot` with a blocked accumulator whose A and B are `ttg.local_load`s
    of swizzled or NVMMA-shared tiles (possibly followed by element-wise
    casts), used by the dot only, in its block, becomes a chain of dots over
    slices of 4 along K, each slice read (`ttg.memdesc_subslice` +
    `ttg.local_load`) right before its FMAs.  A thread then holds one slice
    of its rows of A and columns of B at a time instead of its whole K
    slice; the FMAs and their order are unchanged.  Only dots whose whole-K
    operands take a thread at least `min-operand-registers` 32-bit registers
    are rewritten: below that ptxas keeps the loads next to their FMAs
    without help.

    ```mlir
    %a = ttg.local_load %ta : !ttg.memdesc<64x8xf32, #shared, ...> -> tensor<64x8xf32, #dot_a>
    %b = ttg.local_load %tb : ... -> tensor<8x64xf32, #dot_b>
    %d = tt.dot %a, %b, %c : ... -> tensor<64x64xf32, #blocked>
    // becomes
    %a0 = ttg.local_load (ttg.memdesc_subslice %ta [0, 0]) -> tensor<64x4xf32, #dot_a>
    %b0 = ttg.local_load (ttg.memdesc_subslice %tb [0, 0]) -> tensor<4x64xf32, #dot_b>
    %d0 = tt.dot %a0, %b0, %c
    %a1 = ttg.local_load (ttg.memdesc_subslice %ta [0, 4]) ...
    %b1 = ttg.local_load (ttg.memdesc_subslice %tb [4, 0]) ...
    %d = tt.dot %a1, %b1, %d0
    ```
  }];
  let options = [
    Option<"minOperandRegisters", "min-operand-registers", "int64_t", "512",
           "rewrite a dot only if its A and B, whole K, take a thread this many 32-bit registers">
  ];
  let dependentDialects = ["::tritium::ttg::TTGDialect"];
}

def TTGLoopAwareCSEPass : Pass<"ttg-loop-aware-cse", "::mlir::ModuleOp"> {
  let summary = "merge loop-carried values that are equal in every iteration";
  let description = [{
    Two values an `scf.for` carries with the same initial value, whose
    yielded values are computed the same way from them (by pure ops, with the
    pairs assumed equal), are equal in every iteration by induction.  The
    pass finds the largest such set of pairs (a greatest fixpoint: assume all
    candidates, drop those whose yields differ, repeat), redirects each
    merged value's uses to one representative, then runs CSE and drops the
    carried values nothing reads any more.

    ```mlir
    %r:2 = scf.for %i = %lb to %ub step %s iter_args(%a = %p, %b = %p) -> (...) {
      %x = tt.load %a : !tt.ptr<f32>
      tt.store %b, %x : !tt.ptr<f32>
      %a2 = tt.addptr %a, %c1 : !tt.ptr<f32>, i32
      %b2 = tt.addptr %b, %c1 : !tt.ptr<f32>, i32
      scf.yield %a2, %b2 : !tt.ptr<f32>, !tt.ptr<f32>
    }
    // becomes
    %r = scf.for %i = %lb to %ub step %s iter_args(%a = %p) -> (!tt.ptr<f32>) {
      %x = tt.load %a : !tt.ptr<f32>
      tt.store %a, %x : !tt.ptr<f32>
      %a2 = tt.addptr %a, %c1 : !tt.ptr<f32>, i32
      scf.yield %a2 : !tt.ptr<f32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def TTGLegalizeReductionLayoutsPass
    : Pass<"ttg-legalize-reduction-layouts", "::mlir::ModuleOp"> {
  let summary = "convert reductions and scans to layouts their lowerings handle";
  let description = [{
    The lowerings of `tt.reduce` and `tt.scan` handle the layouts Tritium's
    own passes produce, but not every distributed layout a TTGIR file can
    name: a `#ttg.linear` layout whose bases mix the axis with other
    dimensions, or reach the same elements twice, would be counted wrongly
    by the reduction's butterflies (layout::reductionLayoutProblem) or
    cannot be scanned in lane order (layout::scanLayoutProblem).  For such an op
    this pass converts the operands to the default blocked layout of their
    shape, rebuilds the op there with the same combine region, and converts
    each tensor result back to the type it had:

    ```mlir
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({...})
        : (tensor<32x1xi32, #odd>) -> tensor<1xi32, #ttg.slice<{dim = 0, parent = #odd}>>
    // becomes
    %b = ttg.convert_layout %x : tensor<32x1xi32, #odd> -> tensor<32x1xi32, #blocked>
    %r = "tt.reduce"(%b) <{axis = 0 : i32}> ({...})
        : (tensor<32x1xi32, #blocked>) -> tensor<1xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %s = ttg.convert_layout %r : ... -> tensor<1xi32, #ttg.slice<{dim = 0, parent = #odd}>>
    ```

    It runs first in the LLIR pipeline, after every TTGIR pass (which could
    otherwise fold the conversions away) and before shared memory is
    allocated for the conversions' scratch.
  }];
}

def TTGFenceAsyncSharedPass : Pass<"ttg-fence-async-shared", "::mlir::ModuleOp"> {
  let summary = "fence the shared-memory stores that the async proxy reads";
  let description = [{
    On sm_90 and newer, a store of a tensor into an `#ttg.nvmma_shared` tile
    (`ttg.local_alloc` with a source, `ttg.local_store`) is followed by a
    `ttg.fence_async_shared` (fence.proxy.async.shared::cta) when the
    tile's buffer, through its views, is accessed by anything but
    `ttg.local_load`, `ttg.local_store`, `ttg.local_dealloc` and cp.async
    copies into it: a warpgroup dot or a TMA copy reads it through the
    async proxy (an op the pass does not know counts as such a reader).
    Tiles only mma.sync (ldmatrix) reads get no fence:

    ```mlir
    %a = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
    %d = ttg.warp_group_dot %a, %b, %acc ...
    // becomes
    %a = ttg.local_alloc %x : ...
    ttg.fence_async_shared
    %d = ttg.warp_group_dot %a, %b, %acc ...
    ```

    It runs in the LLIR pipeline after ttg-membar, right before the
    lowering.
  }];
}

#endif // TRITIUM_DIALECT_TTG_TRANSFORMS_PASSES_TD
