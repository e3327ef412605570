//===- Passes.td - Triton IR to LLVM IR for the host CPU ---*- tablegen -*-===//
//
// The CPU target's lowering: Triton IR (no layouts) straight to the LLVM
// dialect for the host, each tensor one flat LLVM vector.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_CPU_PASSES_TD
#define TRITIUM_TARGET_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTTToHostLLVMPass : Pass<"convert-tt-to-host-llvm", "::mlir::ModuleOp"> {
  let summary = "lower Triton IR to the LLVM dialect for the host CPU";
  let description = [{
    One program of a kernel becomes one host function.  Every tensor is one
    flat LLVM vector of its elements in row-major order, so the element-wise
    ops, `tt.splat`, `tt.make_range` and `tt.addptr` are vector ops,
    `tt.expand_dims` and `tt.reshape` are free, `tt.broadcast` and
    `tt.trans` are one `llvm.shufflevector` each, `tt.load` and `tt.store` are masked gathers and
    scatters (one masked vector access per row where the rows are
    contiguous), `tt.reduce` halves the reduced axis log2(n) times, each
    step one application of the combine region to two halves, and `tt.dot`
    adds a[i][k] times row k of b to row i of the accumulator, one vector
    FMA per (k, i).  Scans take log2(n) shifted combines, `tt.gather` loads
    from a stack copy of its source, `tt.join`, `tt.split` and `tt.cat` are
    shuffles, and atomics are the host's, element by element under their
    masks.  What would grow with the tile runs in loops over stack copies
    (docs/architecture.md lists them); among them, a chain of 16 or more
    element-wise ops on more than 256 lanes runs in one loop over 16-lane
    chunks (with fast-compile, a chain of 2 or more on 1024 lanes or more).

    `tt.func @k(args...)` becomes `func.func @k(args..., x, y, z, nx, ny, nz)`
    (the program's coordinates and the grid, all i32), and
    `@k__program(ptr %args, x, y, z, nx, ny, nz)` calls it with each
    argument loaded from the array of argument addresses `%args`: the entry
    the host runtime calls once per program.

    An op with no host lowering yet fails the pass with an error at the op.
  }];
  let options = [
    Option<"fastCompile", "fast-compile", "bool", /*default=*/"false",
           "code that compiles sooner (TRITON_INTERPRET=1's compiles): chains of "
           "2 or more element-wise ops on 1024 lanes or more also run in "
           "16-lane chunk loops">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::func::FuncDialect",
                           "::mlir::vector::VectorDialect", "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
                           "::mlir::cf::ControlFlowDialect"];
}

def AddBoundsChecksPass : Pass<"tritium-cpu-bounds-checks", "::mlir::ModuleOp"> {
  let summary = "assert that every load and store stays inside its pointer argument's buffer";
  let description = [{
    For the CPU target in debug mode (`debug=True`, TRITON_DEBUG=1).  Each
    public `tt.func` takes two more i64 arguments per pointer argument, at
    the end and in argument order: the first address of the buffer the
    pointer argument points into and the address one past its last byte.
    Before each `tt.load`, `tt.store`, `tt.atomic_rmw` and `tt.atomic_cas`
    whose pointers come from one pointer argument (through `tt.addptr`,
    splats, broadcasts, reshapes, bitcasts and the values loops carry), a
    `tt.assert` at the access's location checks that every element the
    access touches (its mask on) lies in that buffer; its failure names the
    argument.  Pointers of other origins (loaded from memory, chosen between
    arguments) are not checked.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

#endif // TRITIUM_TARGET_CPU_PASSES_TD
