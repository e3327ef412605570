//===- TTGDialect.td - the TritonGPU dialect ---------------------*- tablegen -*-===//
//
// The `ttg` dialect: Triton IR mapped onto a GPU.  Every tensor carries a
// layout (encoding attribute) saying which register of which lane of which
// warp holds each element; shared memory is explicit as `!ttg.memdesc`.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_DIALECT_TTG_IR_TTGDIALECT_TD
#define TRITIUM_DIALECT_TTG_IR_TTGDIALECT_TD

include "mlir/IR/OpBase.td"

def TTG_Dialect : Dialect {
  let name = "ttg";
  let cppNamespace = "::tritium::ttg";
  let summary = "TritonGPU IR: tensors with thread layouts, shared memory";
  let description = [{
    Tensors of the `tt` dialect gain an encoding: a distributed layout
    (blocked, slice, nvidia_mma, dot_op) that assigns each element to
    registers of threads, or a shared-memory layout (swizzled_shared) for
    buffers in shared memory.  The module carries the launch shape:

    ```mlir
    module attributes {ttg.num-warps = 4 : i32, ttg.threads-per-warp = 32 : i32,
                       ttg.num-ctas = 1 : i32, ttg.target = "cuda:90"} { ... }
    ```

    `ttg.maxnreg = n : i32` (optional, 1 to 255; the `maxnreg` launch
    option) caps the registers per thread of the module's kernels.
  }];
  let dependentDialects = ["::tritium::tt::TTDialect"];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();

    static constexpr ::llvm::StringLiteral kNumWarpsAttrName = "ttg.num-warps";
    static constexpr ::llvm::StringLiteral kThreadsPerWarpAttrName = "ttg.threads-per-warp";
    static constexpr ::llvm::StringLiteral kNumCTAsAttrName = "ttg.num-ctas";
    static constexpr ::llvm::StringLiteral kTargetAttrName = "ttg.target";
    static constexpr ::llvm::StringLiteral kMaxNRegAttrName = "ttg.maxnreg";
    // Global scratch memory (tensor maps made in the kernel): the module's
    // bytes per program (i32), the kernel argument that points at all
    // programs' scratch (unit), and the bytes of one tensor map's slot.
    static constexpr ::llvm::StringLiteral kGlobalScratchSizeAttrName = "ttg.global_scratch_size";
    static constexpr ::llvm::StringLiteral kGlobalScratchArgAttrName = "tt.global_scratch";
    // Set (unit) when every tensor map in the global scratch was made for a
    // block pointer: the runtime provides the memory, not the user's
    // triton.set_allocator.
    static constexpr ::llvm::StringLiteral kGlobalScratchInternalAttrName = "ttg.global_scratch_internal";
    static constexpr int64_t kTensorMapBytes = 128;
    // Warp specialization: the warps of the CTA, the module's num-warps
    // (which run the default region of ttg.warp_specialize) plus those of
    // its partition; absent when the module has no ttg.warp_specialize.
    static constexpr ::llvm::StringLiteral kTotalNumWarpsAttrName = "ttg.total-num-warps";
  }];
}

#endif // TRITIUM_DIALECT_TTG_IR_TTGDIALECT_TD
