//===- TTDialect.td - the Triton IR dialect ----------------------*- tablegen -*-===//
//
// The `tt` dialect: hardware-neutral tile programs.  A kernel is a `tt.func`
// over scalars, pointers and ranked tensors (of numbers or of pointers); every
// tensor op works on whole blocks, and nothing says yet which thread holds
// which element (that is the `ttg` dialect's job).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_DIALECT_TT_IR_TTDIALECT_TD
#define TRITIUM_DIALECT_TT_IR_TTDIALECT_TD

include "mlir/IR/OpBase.td"

def TT_Dialect : Dialect {
  let name = "tt";
  let cppNamespace = "::tritium::tt";
  let summary = "Triton IR: block-level tensor programs over pointers";
  let description = [{
    Triton IR describes one program instance of a kernel launched over a grid.
    Values are scalars, `!tt.ptr<T>` pointers and ranked tensors of either.
    Element-wise arithmetic uses the `arith` and `math` dialects on tensors;
    this dialect adds what those lack: pointers and address arithmetic,
    masked memory access, atomics, shape manipulation, dot products,
    reductions and scans with combine regions, and debugging ops.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::cf::ControlFlowDialect"];
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerTypes();
  }];
}

#endif // TRITIUM_DIALECT_TT_IR_TTDIALECT_TD
