//===- TTGOps.td - ttg operations --------------------------------*- tablegen -*-===//
//
// Layout conversion and explicit shared memory: allocate, load, store, free
// and view buffers, and copy global memory into them asynchronously
// (cp.async) in commit groups that are waited for by count; the CTA
// barrier that orders shared-memory accesses between threads; and the
// warpgroup dot (Hopper's wgmma) that reads its operands from shared memory;
// mbarriers and the tensor memory accelerator's copies (TMA).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_DIALECT_TTG_IR_TTGOPS_TD
#define TRITIUM_DIALECT_TTG_IR_TTGOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "tritium/Dialect/TT/IR/TTTypes.td"
include "tritium/Dialect/TT/IR/TTAttrs.td"
include "tritium/Dialect/TTG/IR/TTGDialect.td"
include "tritium/Dialect/TTG/IR/TTGTypes.td"
include "tritium/Dialect/TTG/IR/TTGAttrs.td"

class TTG_Op<string mnemonic, list<Trait> traits = []>
    : Op<TTG_Dialect, mnemonic, traits>;

def SharedMemory : Resource<"::tritium::ttg::SharedMemory">;
def TTG_GlobalMemory : Resource<"::tritium::tt::GlobalMemory">;

defvar TTG_MemDesc = TTG_MemDescType;
defvar TTG_AsyncToken = TTG_AsyncTokenType;

def TTG_ConvertLayoutOp : TTG_Op<"convert_layout", [Pure,
    SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "move a tensor to another layout";
  let description = [{
    Same values, other owners: the result holds the source's elements in the
    result type's layout.  Lowered to register moves, warp shuffles or a
    round trip through shared memory.

    ```mlir
    %y = ttg.convert_layout %x : tensor<128xf32, #a> -> tensor<128xf32, #b>
    ```
  }];
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TTG_ExtractTileOp : TTG_Op<"extract_tile", [Pure,
    SameOperandsAndResultElementType]> {
  let summary = "a window of a distributed tensor, from the registers that hold it";
  let description = [{
    The result is the window of the source of the result's shape that starts
    at the static `offsets` (each a multiple of the result's size in its
    dimension).  Every thread must already hold the window's elements in the
    result's layout: its lanes and warps map to the same coordinates as the
    source's, and each of its registers to a source register of the window
    (checked with the layouts' linear maps), so the lowering only picks
    registers.  A matmul epilogue stores its accumulator this way, one
    column slab at a time, through a small shared buffer.

    ```mlir
    %w = ttg.extract_tile %acc [0, 64] : tensor<128x256xf16, #mma256> -> tensor<128x64xf16, #mma64>
    ```
  }];
  let arguments = (ins TT_Tensor:$src, DenseI64ArrayAttr:$offsets);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src $offsets attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TTG_LocalAllocOp : TTG_Op<"local_alloc", [
    MemoryEffects<[MemAlloc<SharedMemory>]>]> {
  let summary = "allocate a shared-memory buffer, optionally initialized";
  let description = [{
    Without `src` the buffer is uninitialized and must be mutable; with
    `src` it holds `src`'s values (shape and element type must match).

    ```mlir
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16, #shared, #ttg.shared_memory, mutable>
    %t = ttg.local_alloc %x : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #ttg.shared_memory>
    ```
  }];
  let arguments = (ins Optional<TT_Tensor>:$src);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = "($src^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def TTG_LocalDeallocOp : TTG_Op<"local_dealloc", [
    MemoryEffects<[MemFree<SharedMemory>]>]> {
  let summary = "free a shared-memory buffer";
  let description = [{
    ```mlir
    ttg.local_dealloc %buf : !ttg.memdesc<2x64x32xf16, #shared, #ttg.shared_memory, mutable>
    ```
  }];
  let arguments = (ins TTG_MemDesc:$src);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src))";
}

def TTG_LocalLoadOp : TTG_Op<"local_load", [
    MemoryEffects<[MemRead<SharedMemory>]>]> {
  let summary = "read a tile from shared memory into registers";
  let description = [{
    The result has the buffer's shape and element type in a distributed
    layout.  The optional token orders the read after an async wait.

    ```mlir
    %x = ttg.local_load %buf token %t : !ttg.memdesc<64x32xf16, #shared, #ttg.shared_memory, mutable> -> tensor<64x32xf16, #a>
    ```
  }];
  let arguments = (ins TTG_MemDesc:$src, Optional<TTG_AsyncToken>:$token);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $src (`token` $token^)? attr-dict `:` qualified(type($src)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TTG_LocalStoreOp : TTG_Op<"local_store", [
    MemoryEffects<[MemWrite<SharedMemory>]>]> {
  let summary = "write a tile from registers into a mutable shared buffer";
  let description = [{
    ```mlir
    ttg.local_store %x, %buf : tensor<64x32xf16, #blocked> -> !ttg.memdesc<64x32xf16, #shared, #ttg.shared_memory, mutable>
    ```
  }];
  let arguments = (ins TT_Tensor:$src, TTG_MemDesc:$dst);
  let assemblyFormat = [{
    $src `,` $dst attr-dict `:` type($src) `->` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

def TTG_MemDescIndexOp : TTG_Op<"memdesc_index", [Pure]> {
  let summary = "view one slice of a buffer along its leading dimension";
  let description = [{
    The result views `src[index]`: the shape without the leading dimension,
    same element type, layout order, memory space and mutability; its
    allocShape stays the buffer's.  Used for the stages of pipelined loops.

    ```mlir
    %s = ttg.memdesc_index %buf[%i] : !ttg.memdesc<3x64x32xf16, #shared3, #ttg.shared_memory, mutable>
        -> !ttg.memdesc<64x32xf16, #shared, #ttg.shared_memory, mutable, 3x64x32>
    ```
  }];
  let arguments = (ins TTG_MemDesc:$src, I32:$index);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TTG_MemDescSubsliceOp : TTG_Op<"memdesc_subslice", [Pure]> {
  let summary = "view a static sub-tile of a buffer";
  let description = [{
    The result views the tile of the result's shape starting at the static
    `offsets` (one per dimension); it must fit inside the source.

    ```mlir
    %s = ttg.memdesc_subslice %buf [0, 16] : !ttg.memdesc<64x32xf16, #shared, #ttg.shared_memory, mutable>
        -> !ttg.memdesc<64x16xf16, #shared, #ttg.shared_memory, mutable, 64x32>
    ```
  }];
  let arguments = (ins TTG_MemDesc:$src, DenseI32ArrayAttr:$offsets);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = [{
    $src $offsets attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TTG_MemDescTransOp : TTG_Op<"memdesc_trans", [Pure]> {
  let summary = "view a 2-D NVMMA tile transposed";
  let description = [{
    The same bytes as a tile of the transposed shape: the layout's order is
    swapped, so element (i, j) of the result is element (j, i) of the
    source.  A dot reads a B tile loaded N x K this way, as K x N.

    ```mlir
    %t = ttg.memdesc_trans %buf : !ttg.memdesc<256x64xf16, #nvmma, #ttg.shared_memory>
        -> !ttg.memdesc<64x256xf16, #nvmma_t, #ttg.shared_memory>
    ```
  }];
  let arguments = (ins TTG_MemDesc:$src);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TTG_AsyncCopyGlobalToLocalOp : TTG_Op<"async_copy_global_to_local", [
    AttrSizedOperandSegments,
    MemoryEffects<[MemRead<TTG_GlobalMemory>, MemWrite<SharedMemory>]>,
    OptionalTypesMatchWith<"mask is i1 of src's shape", "src", "mask",
        "::tritium::tt::getI1SameShape($_self)">,
    OptionalTypesMatchWith<"other has the pointee type of src", "src", "other",
        "::tritium::tt::getPointeeType($_self)">]> {
  let summary = "start copying a tile from global to shared memory (cp.async)";
  let description = [{
    Each element of `src` (a tensor of pointers) is copied to the same
    position of `dst`'s buffer, where `mask` holds; elsewhere `other` (or
    zero) is written.  The copy completes once a later `ttg.async_wait`
    covers the commit group that includes it.

    ```mlir
    %t = ttg.async_copy_global_to_local %ptrs, %buf mask %m : tensor<64x32x!tt.ptr<f16>, #blocked>
        -> !ttg.memdesc<64x32xf16, #shared, #ttg.shared_memory, mutable>
    ```
  }];
  let arguments = (ins TT_PtrTensor:$src, TTG_MemDesc:$dst,
      Optional<TT_BoolTensor>:$mask, Optional<TT_Type>:$other,
      DefaultValuedAttr<TT_CacheModifierAttr, "::tritium::tt::CacheModifier::NONE">:$cache,
      DefaultValuedAttr<TT_EvictionPolicyAttr, "::tritium::tt::EvictionPolicy::NORMAL">:$evict,
      DefaultValuedAttr<BoolAttr, "false">:$isVolatile);
  let results = (outs TTG_AsyncToken:$token);
  let assemblyFormat = [{
    $src `,` $dst (`mask` $mask^)? (`other` $other^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type($src) `->` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

def TTG_BarrierOp : TTG_Op<"barrier", [
    MemoryEffects<[MemRead<SharedMemory>, MemWrite<SharedMemory>]>]> {
  let summary = "wait for every thread of the CTA (bar.sync 0)";
  let description = [{
    Every thread of the CTA waits here until all have arrived; the
    shared-memory accesses made before the barrier are visible to every
    thread after it.  The ttg-membar pass inserts it between shared-memory
    accesses that could otherwise race (read after write, write after read,
    write after write).  It reads and writes shared memory as far as other
    passes can tell, so no shared-memory access moves across it.

    ```mlir
    ttg.barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def TTG_AsyncCommitGroupOp : TTG_Op<"async_commit_group"> {
  let summary = "close the current group of async copies";
  let description = [{
    Groups the async copies issued since the previous commit
    (cp.async.commit_group).

    ```mlir
    %g = ttg.async_commit_group tokens %t0, %t1
    ```
  }];
  let arguments = (ins Variadic<TTG_AsyncToken>:$inputTokens);
  let results = (outs TTG_AsyncToken:$asyncToken);
  let assemblyFormat = "(`tokens` $inputTokens^)? attr-dict";
}

def TTG_AsyncWaitOp : TTG_Op<"async_wait"> {
  let summary = "wait until at most `num` commit groups are in flight";
  let description = [{
    cp.async.wait_group num: all but the `num` most recent groups are
    complete after this op.

    ```mlir
    %w = ttg.async_wait %g {num = 1 : i32}
    ```
  }];
  let arguments = (ins Variadic<TTG_AsyncToken>:$asyncToken,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$num);
  let results = (outs TTG_AsyncToken:$retToken);
  let assemblyFormat = "($asyncToken^)? attr-dict";
}

def TTG_WarpGroupDotOp : TTG_Op<"warp_group_dot", [
    AllTypesMatch<["c", "d"]>]> {
  let summary = "d = a * b + c on Hopper tensor cores, b in shared memory";
  let description = [{
    The tt.dot of a warpgroup-level MMA (wgmma, sm_90a): `b` (K x N) is a
    tile in shared memory in a #ttg.nvmma_shared layout; `a` (M x K) is
    either such a tile too or, for 16-bit and 8-bit types, a tensor in
    registers in the #ttg.dot_op layout (opIdx 0, kWidth 2 or 4: four bytes
    a register) of the accumulator; `c` and
    `d` are in a #ttg.nvidia_mma layout of version 3.  Each warpgroup (4
    consecutive warps) computes its 64-row blocks of `d` with one
    wgmma.mma_async per instrShape[2] of K, then waits for them.

    ```mlir
    %d = ttg.warp_group_dot %a, %b, %c : !ttg.memdesc<128x64xf16, #nvmma, #smem>
        * !ttg.memdesc<64x128xf16, #nvmma1, #smem> -> tensor<128x128xf32, #mma>
    %e = ttg.warp_group_dot %p, %b, %c : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
        * !ttg.memdesc<64x128xf16, #nvmma1, #smem> -> tensor<128x128xf32, #mma>
    ```
  }];
  let arguments = (ins Arg<AnyTypeOf<[TTG_MemDesc, TT_FpIntTensor]>, "", [MemRead<SharedMemory>]>:$a,
      Arg<TTG_MemDesc, "", [MemRead<SharedMemory>]>:$b,
      TT_FpIntTensor:$c,
      DefaultValuedAttr<TT_InputPrecisionAttr, "::tritium::tt::InputPrecision::IEEE">:$inputPrecision,
      DefaultValuedAttr<ConfinedAttr<I32Attr, [IntNonNegative]>, "0">:$maxNumImpreciseAcc,
      UnitAttr:$isAsync);
  let results = (outs TT_FpIntTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`,` `inputPrecision` `=` $inputPrecision^)? attr-dict `:`
    qualified(type($a)) `*` qualified(type($b)) `->` type($d)
  }];
  let hasVerifier = 1;
}

def TTG_WarpGroupDotWaitOp : TTG_Op<"warp_group_dot_wait", [
    AllTypesMatch<["inputs", "outputs"]>]> {
  let summary = "wait until at most `pendings` asynchronous warpgroup dots run";
  let description = [{
    A `ttg.warp_group_dot` with `isAsync` returns before its MMAs finish
    (wgmma.commit_group without a wait); its result may only feed further
    warpgroup dots on the same accumulator until this op, whose results
    are its operands once all but the `pendings` most recent groups are
    done (wgmma.wait_group pendings).  The tensors pass through so that
    every later read of them is ordered after the wait.

    ```mlir
    %d = ttg.warp_group_dot %a, %b, %c {isAsync} : ...
    %w = ttg.warp_group_dot_wait %d {pendings = 1 : i32} : tensor<128x128xf32, #mma>
    ```
  }];
  let arguments = (ins Variadic<TT_FpIntTensor>:$inputs,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$pendings);
  let results = (outs Variadic<TT_FpIntTensor>:$outputs);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs)";
}

//===----------------------------------------------------------------------===//
// mbarriers and the tensor memory accelerator (Hopper)
//===----------------------------------------------------------------------===//

def TTG_InitBarrierOp : TTG_Op<"init_barrier", [
    MemoryEffects<[MemWrite<SharedMemory>]>]> {
  let summary = "initialize an mbarrier in shared memory";
  let description = [{
    One thread initializes the 8-byte mbarrier at `alloc` for `count`
    arrivals per phase (mbarrier.init), then fences the initialization
    for the copy engine (fence.mbarrier_init).  The membar pass places the
    CTA barrier that makes it visible before the first use.

    ```mlir
    ttg.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared, #ttg.shared_memory, mutable>
    ```
  }];
  let arguments = (ins TTG_MemDesc:$alloc, ConfinedAttr<I32Attr, [IntPositive]>:$count);
  let assemblyFormat = "$alloc `,` $count attr-dict `:` qualified(type($alloc))";
}

def TTG_InvalBarrierOp : TTG_Op<"inval_barrier", [
    MemoryEffects<[MemWrite<SharedMemory>]>]> {
  let summary = "invalidate an mbarrier so its bytes can be reused";
  let description = [{
    ```mlir
    ttg.inval_barrier %bar : !ttg.memdesc<1xi64, #shared, #ttg.shared_memory, mutable>
    ```
  }];
  let arguments = (ins TTG_MemDesc:$alloc);
  let assemblyFormat = "$alloc attr-dict `:` qualified(type($alloc))";
}

def TTG_BarrierExpectOp : TTG_Op<"barrier_expect", [
    MemoryEffects<[MemWrite<SharedMemory>]>]> {
  let summary = "arrive on an mbarrier, expecting `size` bytes of copies";
  let description = [{
    Where `pred` holds, one thread arrives on the mbarrier and raises the
    bytes its current phase waits for by `size`
    (mbarrier.arrive.expect_tx); the phase completes when every arrival is
    made and the copies that signal it have landed that many bytes.

    ```mlir
    ttg.barrier_expect %bar, 16384, %true : !ttg.memdesc<1xi64, #shared, #ttg.shared_memory, mutable>
    ```
  }];
  let arguments = (ins TTG_MemDesc:$alloc, ConfinedAttr<I32Attr, [IntPositive]>:$size,
                       I1:$pred);
  let assemblyFormat = "$alloc `,` $size `,` $pred attr-dict `:` qualified(type($alloc))";
}

def TTG_WaitBarrierOp : TTG_Op<"wait_barrier", [
    MemoryEffects<[MemRead<SharedMemory>, MemWrite<SharedMemory>]>]> {
  let summary = "wait until an mbarrier completes the phase of parity `phase`";
  let description = [{
    Every thread spins on mbarrier.try_wait.parity until the phase with
    parity `phase` (0 or 1) has completed; the bytes copied under that
    phase are then visible to it.  It reads and writes shared memory as far
    as other passes can tell, so no read of those bytes moves above it.

    With `poll`, the threads poll (mbarrier.test_wait) rather than let the
    hardware suspend them between tries: a warp-specialized producer reacts
    sooner to the consumers' release of a slot.

    ```mlir
    ttg.wait_barrier %bar, %phase : !ttg.memdesc<1xi64, #shared, #ttg.shared_memory, mutable>
    ttg.wait_barrier %bar, %phase {poll} : !ttg.memdesc<1xi64, #shared, #ttg.shared_memory, mutable>
    ```
  }];
  let arguments = (ins TTG_MemDesc:$alloc, I32:$phase, UnitAttr:$poll);
  let assemblyFormat = "$alloc `,` $phase attr-dict `:` qualified(type($alloc))";
}

def TTG_ArriveBarrierOp : TTG_Op<"arrive_barrier", [
    MemoryEffects<[MemWrite<SharedMemory>]>]> {
  let summary = "each warp arrives once on an mbarrier";
  let description = [{
    Where `pred` holds, every warp that runs the op arrives once on the
    mbarrier (mbarrier.arrive from one lane): a barrier initialized for
    the number of warps of a warp-specialized partition completes its phase
    when each of them has arrived.  The arrival releases the warp's earlier
    accesses (a consumer's reads of a ring slot, finished by its
    warpgroup-dot wait) to the warps that wait on the phase.

    ```mlir
    ttg.arrive_barrier %bar, %true : !ttg.memdesc<1xi64, #shared, #ttg.shared_memory, mutable>
    ```
  }];
  let arguments = (ins TTG_MemDesc:$alloc, I1:$pred);
  let assemblyFormat = "$alloc `,` $pred attr-dict `:` qualified(type($alloc))";
}

def TTG_AsyncTMACopyGlobalToLocalOp : TTG_Op<"async_tma_copy_global_to_local", [
    MemoryEffects<[MemRead<TTG_GlobalMemory>, MemWrite<SharedMemory>]>]> {
  let summary = "start copying a descriptor's tile into shared memory (TMA)";
  let description = [{
    Where `pred` holds, one thread issues cp.async.bulk.tensor for the
    block of `desc` at element offsets `indices` into `result`, one copy
    per box of the tile (TMABox.h); the copies complete on `barrier`.
    Elements outside the tensor are written as zero.

    ```mlir
    ttg.async_tma_copy_global_to_local %desc[%m, %k] %buf, %bar, %true
        : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable>
        -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    ```
  }];
  let arguments = (ins TT_TensorDesc:$desc, Variadic<I32>:$indices,
                       TTG_MemDesc:$result, TTG_MemDesc:$barrier, I1:$pred);
  let assemblyFormat = [{
    $desc `[` $indices `]` $result `,` $barrier `,` $pred attr-dict `:`
    qualified(type($desc)) `,` qualified(type($barrier)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TTG_AsyncTMACopyLocalToGlobalOp : TTG_Op<"async_tma_copy_local_to_global", [
    MemoryEffects<[MemRead<SharedMemory>, MemWrite<TTG_GlobalMemory>]>]> {
  let summary = "start copying a shared tile to a descriptor's block (TMA)";
  let description = [{
    One thread issues cp.async.bulk.tensor from `src` to the block of
    `desc` at `indices`, one copy per box, and commits them as a bulk
    group; elements outside the tensor are not written.  `src` is the
    whole block, or a part of it made of whole boxes, written at `indices`
    (an epilogue storing its tile a slab at a time).  The shared tile
    must not be written again before a `ttg.async_tma_store_wait`.

    ```mlir
    ttg.async_tma_copy_local_to_global %desc[%m, %n] %buf
        : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<64x64xf16, #nvmma, #smem>
    ```
  }];
  let arguments = (ins TT_TensorDesc:$desc, Variadic<I32>:$indices, TTG_MemDesc:$src);
  let assemblyFormat = [{
    $desc `[` $indices `]` $src attr-dict `:` qualified(type($desc)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
}

def TTG_AsyncTMAStoreWaitOp : TTG_Op<"async_tma_store_wait", [
    MemoryEffects<[MemRead<SharedMemory>, MemWrite<SharedMemory>]>]> {
  let summary = "wait until at most `pendings` TMA store groups still read shared memory";
  let description = [{
    cp.async.bulk.wait_group.read pendings, by the thread that issued the
    stores: afterwards their shared tiles may be written again.

    ```mlir
    ttg.async_tma_store_wait {pendings = 0 : i32}
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$pendings);
  let assemblyFormat = "attr-dict";
}

def TTG_FenceAsyncSharedOp : TTG_Op<"fence_async_shared", [
    MemoryEffects<[MemRead<SharedMemory>, MemWrite<SharedMemory>]>]> {
  let summary = "order this thread's shared-memory writes before async-proxy reads";
  let description = [{
    fence.proxy.async.shared::cta: the bytes this thread stored to shared
    memory with ordinary stores become visible to the copy engine and the
    tensor cores (after the CTA barrier that follows).

    ```mlir
    ttg.fence_async_shared
    ```
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Warp specialization
//===----------------------------------------------------------------------===//

def TTG_FenceTensorMapAcquireOp : TTG_Op<"fence_tensormap_acquire", [
    MemoryEffects<[MemRead<TTG_GlobalMemory>, MemWrite<TTG_GlobalMemory>]>]> {
  let summary = "make a tensor map written by another thread usable by this one's copies";
  let description = [{
    The issuing thread of the warps that run the op acquires the 128-byte
    tensor map at `desc` for the tensor-map proxy
    (fence.proxy.tensormap::generic.acquire.gpu): a map that
    tt.make_tensor_descriptor wrote and released in another thread (before
    a CTA barrier) may then be read by this thread's TMA copies.  A warp-
    specialized partition does this before its first copy.

    ```mlir
    ttg.fence_tensormap_acquire %desc : !tt.tensordesc<tensor<128x64xf16>>
    ```
  }];
  let arguments = (ins TT_TensorDesc:$desc);
  let assemblyFormat = "$desc attr-dict `:` qualified(type($desc))";
}

def TTG_WarpSpecializeOp : TTG_Op<"warp_specialize", [
    RecursiveMemoryEffects, NoRegionArguments]> {
  let summary = "run two regions at once, on different warps of the CTA";
  let description = [{
    The module's num-warps warps run the `default` region; `partitionNumWarps`
    more warps, numbered after them, run the `partition` region at the same
    time.  Both regions may read values defined above the op.  They
    synchronize with each other only through mbarriers in shared memory; a
    CTA barrier inside a region waits for that region's warps alone (a
    named barrier).  The op ends its block's work: only a return may follow
    it, and the partition's warps leave the kernel when their region ends.
    The module's `ttg.total-num-warps` counts both groups.

    ```mlir
    ttg.warp_specialize default {
      ... // consumers: wait on full barriers, run the MMAs, arrive on empty ones
      ttg.warp_yield
    } partition num_warps(1) {
      ... // producer: wait on empty barriers, issue the TMA copies
      ttg.warp_yield
    }
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntPositive]>:$partitionNumWarps);
  let regions = (region AnyRegion:$defaultRegion, AnyRegion:$partitionRegion);
  let assemblyFormat = [{
    `default` $defaultRegion `partition` `num_warps` `(` $partitionNumWarps `)`
    $partitionRegion attr-dict
  }];
  let hasVerifier = 1;
}

def TTG_WarpYieldOp : TTG_Op<"warp_yield", [
    Pure, Terminator, HasParent<"WarpSpecializeOp">]> {
  let summary = "the end of a region of ttg.warp_specialize";
  let assemblyFormat = "attr-dict";
}

#endif // TRITIUM_DIALECT_TTG_IR_TTGOPS_TD
