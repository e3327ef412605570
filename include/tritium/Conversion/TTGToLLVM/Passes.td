//===- Passes.td - TTGIR to LLVM dialect lowering ----------------*- tablegen -*-===//
//
// The last three passes on TritonGPU IR: give every op that needs a buffer
// in shared memory its offset, insert the barriers that keep threads from
// racing on those bytes, then lower the whole module to the LLVM and NVVM
// dialects (with PTX inline assembly where NVVM has no op); and two passes
// on the LLVM dialect the lowering produced.  The
// `tritium-make-llir` pipeline (include/tritium/Pipelines/LLIRPipeline.h)
// runs them and the upstream clean-up passes after them.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CONVERSION_TTGTOLLVM_PASSES_TD
#define TRITIUM_CONVERSION_TTGTOLLVM_PASSES_TD

include "mlir/Pass/PassBase.td"

def TTGAllocateSharedMemoryPass : Pass<"ttg-allocate-shared-memory", "::mlir::ModuleOp"> {
  let summary = "assign shared-memory offsets to scratch buffers and allocations";
  let description = [{
    Every op that goes through shared memory when lowered (a
    `ttg.convert_layout` between layouts that differ in which thread holds an
    element, a scalar atomic whose result is used, a `ttg.local_alloc`) gets
    a buffer.  Buffers whose live ranges overlap in program order get
    disjoint byte ranges; the others share.  Each op records its buffer's
    offset as `allocation.offset`, and the module records the bytes the
    kernel needs as `ttg.shared`:

    ```mlir
    %y = ttg.convert_layout %x : tensor<128x64xf32, #row> -> tensor<128x64xf32, #col>
    // becomes
    module attributes {ttg.shared = 32768 : i32, ...} {
      %y = ttg.convert_layout %x {allocation.offset = 0 : i32} : ...
    ```

    The analysis itself is `tritium::Allocation` (include/tritium/Analysis/
    Allocation.h); this pass only writes its result into the IR.
  }];
}

def TTGMembarPass : Pass<"ttg-membar", "::mlir::ModuleOp"> {
  let summary = "insert barriers between racing shared-memory accesses";
  let description = [{
    Threads of a CTA access shared memory unsynchronized, so an access that
    overlaps one made since the last barrier, as read after write, write
    after read or write after write, needs a `ttg.barrier` before it.  With
    the offsets ttg-allocate-shared-memory recorded, this pass follows the bytes
    each op reads and writes (scratch buffers, `ttg.local_alloc` buffers
    through their views, calls of functions that use shared memory) forward
    through each function, scf.if branches and scf.for/scf.while back edges
    included, and inserts a `ttg.barrier` right before each op that would
    race.  A kernel starts with nothing to wait for.

    ```mlir
    %y = ttg.convert_layout %x {allocation.offset = 0 : i32} : tensor<64x64xf32, #row> -> tensor<64x64xf32, #col>
    %z = ttg.convert_layout %y {allocation.offset = 0 : i32} : tensor<64x64xf32, #col> -> tensor<64x64xf32, #row>
    // becomes
    %y = ttg.convert_layout %x {allocation.offset = 0 : i32} : ...
    ttg.barrier
    %z = ttg.convert_layout %y {allocation.offset = 0 : i32} : ...
    ```

    The analysis is in include/tritium/Analysis/Membar.h.  The lowerings
    emit only the barriers inside an op (between its own writes and reads
    of its scratch).
  }];
}

def ConvertTTGToLLVMPass : Pass<"convert-ttg-to-llvm", "::mlir::ModuleOp"> {
  let summary = "lower TritonGPU IR to the LLVM and NVVM dialects";
  let description = [{
    A dialect conversion in which a tensor with a distributed layout becomes
    an LLVM struct of the elements one thread holds (in register order), a
    `!tt.ptr<T, as>` an `!llvm.ptr<as>`, and a memdesc a shared-memory
    pointer.  Kernels become `llvm.func` with `nvvm.kernel` and
    `nvvm.reqntid`; element-wise ops are applied per element and lowered by
    the upstream arith/math patterns in the same conversion (math functions
    the NVPTX backend cannot expand become calls to libdevice's `__nv_*`);
    global loads and stores become vectorized, predicated PTX; layout
    conversions go through the shared memory that ttg-allocate-shared-memory
    assigned.  scf ops only change their types; scf-to-cf runs afterwards.

    ```mlir
    %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #blocked>
    // becomes, with one element per thread over 4 warps:
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %lane = llvm.and %tid, %c31 : i32
    ...
    %r = llvm.insertvalue %idx, %undef[0] : !llvm.struct<(i32)>
    ```

    The module must carry `ttg.num-warps`; shared memory must have been
    allocated (ttg-allocate-shared-memory) if any op needs it.
  }];
  let options = [
    Option<"computeCapability", "compute-capability", "int32_t", "90",
           "the GPU's compute capability times ten (80, 89, 90, ...)">,
    Option<"ptxVersion", "ptx-version", "int32_t", "84",
           "the PTX ISA version the inline assembly may use (84 = 8.4)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def LowerLoopsToLLVMPass : Pass<"lower-loops-to-llvm", "::mlir::ModuleOp"> {
  let summary = "lower the scf ops convert-ttg-to-llvm leaves to LLVM branches, visiting only them";
  let description = [{
    After convert-ttg-to-llvm a module is in the LLVM and NVVM dialects but
    for its scf ops (with LLVM types) and a few casts.  The upstream
    scf-to-cf, convert-cf-to-llvm, convert-arith-to-llvm and
    reconcile-unrealized-casts passes each run a dialect conversion over the
    whole module, four visits of every op (most of them the per-element ops
    of its tensors) for a handful that change.  This pass applies the same
    patterns to those ops alone:
      1. one walk collects the scf ops (but their terminators) and the
         arith and cf ops;
      2. the scf-to-cf patterns rewrite the scf ops (a greedy rewrite of
         exactly those ops, without folding), recording the arith and cf ops
         they create;
      3. the arith-to-llvm and cf-to-llvm patterns convert those ops and the
         collected ones (a partial conversion of that list);
      4. the unrealized casts (a second walk finds them) are reconciled.
    The result is the module the four upstream passes produce.

    ```mlir
    scf.for %i = %lb to %ub step %c1 iter_args(%acc = %init) -> (!llvm.struct<(f32, f32)>) : i32 {...}
    // becomes
    llvm.br ^header(%lb, %init : i32, !llvm.struct<(f32, f32)>)
    ^header(%i: i32, %acc: !llvm.struct<(f32, f32)>):
    %more = llvm.icmp "slt" %i, %ub : i32
    llvm.cond_br %more, ^body, ^exit
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::arith::ArithDialect"];
}

def HoistBeforeBarrierWaitsPass
    : Pass<"llvm-hoist-before-barrier-waits", "::mlir::LLVM::LLVMFuncOp"> {
  let summary = "compute wgmma operand descriptors before the mbarrier wait that precedes them";
  let description = [{
    In a pipelined loop the first wgmma of an iteration follows the wait
    for its stage's TMA copies (an inline `mbarrier.try_wait` loop), and the
    lowering computes its shared-memory descriptors at the dot, after the
    wait: once the data lands, the arithmetic still delays the MMA.  This
    pass moves the pure ops that feed the operands of `wgmma.mma_async`
    inline assembly after such a wait in its block, and whose own operands
    are available before it, to just before the wait, in their order.  Only
    side-effect-free ops move, so the program's meaning is unchanged.
  }];
}

#endif // TRITIUM_CONVERSION_TTGTOLLVM_PASSES_TD
