//===- Passes.td - Triton IR to TritonGPU IR ----------------------*- tablegen -*-===//
//
// The conversion that gives every tensor of a kernel a layout: the step from
// hardware-neutral Triton IR to TritonGPU IR.  Later ttg passes
// (ttg-coalesce, ttg-remove-layout-conversions, ...) improve the layouts it
// picks; the `tritium-make-ttgir` pipeline runs them together.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CONVERSION_TTTOTTG_PASSES_TD
#define TRITIUM_CONVERSION_TTTOTTG_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTTToTTGPass : Pass<"convert-tt-to-ttg", "::mlir::ModuleOp"> {
  let summary = "give every tensor a distributed layout (Triton IR to TritonGPU IR)";
  let description = [{
    Every ranked tensor in a `tt.func` gets the default blocked layout for its
    shape: one element per thread, dimensions ordered row-major, the lanes of
    a warp spread over the fastest dimension first (as many as it has
    elements), the warps over what remains, and the slowest dimension taking
    the rest.  The module records the launch shape in `ttg.num-warps`,
    `ttg.threads-per-warp`, `ttg.num-ctas` and `ttg.target`.

    ```mlir
    tt.func @f(%p: !tt.ptr<f32>) {
      %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
      ...
    }
    // becomes, with num-warps=4
    #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32],
                             warpsPerCTA = [4], order = [0]}>
    module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32,
                       "ttg.num-ctas" = 1 : i32, "ttg.target" = "cuda:90"} {
      tt.func @f(%p: !tt.ptr<f32>) {
        %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #blocked>
        ...
      }
    }
    ```

    Ops whose layouts are tied together get related layouts instead of the
    default, and a `ttg.convert_layout` is inserted wherever an operand's
    layout differs from the one its user needs:

    * `tt.reduce` results take the slice of the operand's layout along the
      reduced axis; `tt.expand_dims` takes its operand in the slice of the
      result's layout; `tt.broadcast` takes its operand in the result's
      layout; `tt.scan` results keep the operands' layout;
    * `tt.trans` permutes the operand's layout (no data moves); `tt.join`
      puts the new size-2 dimension inside each thread, and `tt.split` takes
      its operand in that layout; `tt.reshape` and `tt.cat` use defaults;
    * `tt.dot` keeps blocked operands and accumulator (tensor-core layouts
      come later);
    * any other op (arith, math, tt memory and pointer ops, calls, returns)
      is rebuilt with converted types, and `scf.for/if/while` with their
      yields and conditions are converted structurally; `tt.func` signatures
      are converted too.

    Block pointers (`!tt.ptr<tensor<...>>`), normally gone after
    tt-rewrite-tensor-pointer, point to a tile that gets the default layout
    like any tensor.  Scalars and tensors that already have a layout are left
    untouched.  A tensor whose dimensions are not static powers of two cannot
    carry a layout and is reported as an error.
  }];
  let options = [
    Option<"numWarps", "num-warps", "int", "4",
           "warps per CTA (a power of two)">,
    Option<"threadsPerWarp", "threads-per-warp", "int", "32",
           "lanes per warp (a power of two)">,
    Option<"numCTAs", "num-ctas", "int", "1",
           "CTAs per cluster (a power of two)">,
    Option<"target", "target", "std::string", "\"cuda:90\"",
           "the target, \"cuda:<compute capability>\"">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::tritium::tt::TTDialect",
                           "::tritium::ttg::TTGDialect"];
}

#endif // TRITIUM_CONVERSION_TTTOTTG_PASSES_TD
