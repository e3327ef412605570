//===- Passes.td - tt dialect transformations --------------------*- tablegen -*-===//
//
// The passes that clean up Triton IR straight out of the frontend, before it
// is given layouts: peephole combines, moving splats and broadcasts after
// element-wise arithmetic, unrolling annotated loops, and replacing block
// pointers with tensors of pointers.  The `tritium-make-ttir` pipeline
// (include/tritium/Pipelines/TTIRPipeline.h) runs them in order.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_DIALECT_TT_TRANSFORMS_PASSES_TD
#define TRITIUM_DIALECT_TT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TTCombinePass : Pass<"tt-combine", "::mlir::ModuleOp"> {
  let summary = "peephole rewrites of dots, pointer arithmetic, masked loads "
                "and broadcasts";
  let description = [{
    Applies, until nothing changes, five rewrites that the frontend's
    straightforward IR leaves on the table:

    1. An add of a dot whose accumulator is zero folds the addend into the
       accumulator (`maxNumImpreciseAcc = 0` is required for floats, the dot
       must have no other use):

       ```mlir
       %d = tt.dot %a, %b, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
       %r = arith.addf %d, %c : tensor<16x16xf32>
       // becomes
       %r = tt.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
       ```

    2. Two `tt.addptr` in a row with offsets of one type add their offsets:
       `addptr(addptr(p, x), y)` becomes `addptr(p, x + y)`.

    3. A select between a masked load and another value, under the load's
       own mask (or the scalar that mask splats), becomes a load with that
       value as `other`: `select(m, load(p, m), o)` becomes `load(p, m, o)`.

    4. A broadcast of a splat is a splat of the broadcast's shape.

    5. A sum along axis 1 of the product of `a[M,K]` expanded to `[M,K,1]`
       and `b[K,N]` expanded to `[1,K,N]`, both broadcast to `[M,K,N]`, is
       the matrix product `tt.dot(a, b, 0)` computed exactly (`ieee`).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::tritium::tt::TTDialect"];
}

def TTReorderBroadcastPass : Pass<"tt-reorder-broadcast", "::mlir::ModuleOp"> {
  let summary = "compute element-wise ops before splatting or broadcasting";
  let description = [{
    An element-wise op on splatted or broadcast operands computes the same
    value many times.  This pass moves the splat or broadcast after the op,
    so the op works on the small source instead:

    ```mlir
    %xs = tt.splat %x : f32 -> tensor<128xf32>
    %ys = tt.splat %y : f32 -> tensor<128xf32>
    %s = arith.addf %xs, %ys : tensor<128xf32>
    // becomes
    %t = arith.addf %x, %y : f32
    %s = tt.splat %t : f32 -> tensor<128xf32>
    ```

    For broadcasts, every broadcast operand must have a source of one shape;
    splat operands (and splat constants) are re-splatted to that shape:

    ```mlir
    %ab = tt.broadcast %a : tensor<1x64xf32> -> tensor<32x64xf32>
    %bb = tt.broadcast %b : tensor<1x64xf32> -> tensor<32x64xf32>
    %m = arith.mulf %ab, %bb : tensor<32x64xf32>
    // becomes
    %p = arith.mulf %a, %b : tensor<1x64xf32>
    %m = tt.broadcast %p : tensor<1x64xf32> -> tensor<32x64xf32>
    ```

    Only ops with the `Elementwise` trait and no memory effects move (inline
    assembly never does: its packing makes it depend on the shape).  An
    expand_dims of a splat also becomes a splat of the expanded shape.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::tritium::tt::TTDialect"];
}

def TTLoopUnrollPass : Pass<"tt-loop-unroll", "::mlir::ModuleOp"> {
  let summary = "unroll scf.for loops that carry tt.loop_unroll_factor";
  let description = [{
    The frontend marks a loop written with `tl.range(..., loop_unroll_factor=N)`
    with the discardable attribute `tt.loop_unroll_factor = N : i32`.  This
    pass unrolls every such loop N times (with an epilogue loop when the trip
    count is not a known multiple of N) and removes the attribute; a factor of
    0 or 1 only removes it.  Loops without the attribute are left alone.

    ```mlir
    scf.for %i = %c0 to %c8 step %c1 {
      tt.store %p, %v : !tt.ptr<f32>
    } {tt.loop_unroll_factor = 2 : i32}
    // becomes
    scf.for %i = %c0 to %c8 step %c2 {
      tt.store %p, %v : !tt.ptr<f32>
      tt.store %p, %v : !tt.ptr<f32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TTSplitLoopPointersPass : Pass<"tt-split-loop-pointers", "::mlir::ModuleOp"> {
  let summary = "carry a loop's tensors of pointers as scalar bases";
  let description = [{
    A tensor of pointers made before a loop as `tt.addptr(tt.splat(s), off)`
    and advanced at the end of every turn by a splat of a loop-invariant
    scalar is carried as the scalar pointer instead: the loop advances the
    scalar, and the tensor is rebuilt from it and the loop-invariant
    offsets where it is used.  Every element's address then stops being a
    value that lives across the loop, and tiles at the same offsets from
    different bases share their offsets.

    ```mlir
    %p0 = tt.addptr (tt.splat %s), %off
    scf.for ... iter_args(%p = %p0) {
      %v = tt.load %p
      %n = tt.addptr %p, (tt.splat %x)
      scf.yield %n
    }
    // becomes
    scf.for ... iter_args(%b = %s) {
      %p = tt.addptr (tt.splat %b), %off
      %v = tt.load %p
      %n = tt.addptr %b, %x : !tt.ptr<f16>, i32
      scf.yield %n
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::tritium::tt::TTDialect"];
}

def TTRewriteTensorPointerPass
    : Pass<"tt-rewrite-tensor-pointer", "::mlir::ModuleOp"> {
  let summary = "replace block pointers with tensors of pointers and masks";
  let description = [{
    A block pointer (`tt.make_tensor_ptr`, moved by `tt.advance`) stands for
    a base pointer, the parent tensor's shape and strides, and the tile's
    offsets.  This pass tracks those values instead, and rewrites each load
    and store through a block pointer into one through a tensor of pointers:
    element `(i_0, ..., i_r)` of the tile lives at
    `base + sum_d (offset_d + i_d) * stride_d`, computed in i64.  Each
    dimension listed in `boundaryCheck` contributes the mask term
    `0 <= offset_d + i_d < shape_d`; `padding = zero` or `nan` becomes the
    load's `other` value.

    ```mlir
    %bp = tt.make_tensor_ptr %base, [%m, %n], [%sm, %c1], [%o0, %o1]
        {order = array<i32: 1, 0>} : !tt.ptr<tensor<32x64xf16>>
    %v = tt.load %bp {boundaryCheck = array<i32: 0>, padding = 1 : i32}
        : !tt.ptr<tensor<32x64xf16>>
    // becomes (schematically)
    %ptrs = tt.addptr (tt.splat %base), ((%o0 + range(32)) * %sm  [+ same for dim 1])
    %mask = (%o0 + range(32)) >= 0 && (%o0 + range(32)) < %m
    %v = tt.load %ptrs, %mask, %zeros : tensor<32x64x!tt.ptr<f16>>
    ```

    Block pointers carried by `scf.for` or returned by `scf.if` are expanded
    into their parts (base, shape, strides, offsets); parts that do not
    change in a loop become dead iteration arguments that `canonicalize`
    removes.  A block pointer anywhere else (a function argument or result,
    a `tt.call`, an unstructured branch, `scf.while`) is reported as an error
    at that op.  Unused private functions are skipped, since the inliner has
    already copied them into their callers.

    With `compute-capability=90` or more, a block pointer made at the top of
    a kernel whose tile and tensor meet the copy engine's rules (power-of-two
    tile of 8-64-bit elements that layout::whyNotTmaTile accepts, unit
    stride in the fastest dimension of `order`, base and other strides
    proven 16-byte multiples) gets a `tt.make_tensor_descriptor`, and its
    loads that feed a `tt.dot` in an `scf.for` with a constant positive step
    and its stores of values computed from one go through it, where memory
    order allows (no global write before such a load; no access after such
    a store, nor a write or an unrelated read before it; see
    BlockPointerTma.h).  Elements outside the tensor read as
    zero and are not written.  Kernel arguments used as the map's dimensions
    and strides are marked `tt.nonnegative` for the launcher to check;
    other run-time ones are checked by a `tt.assert`:

    ```mlir
    %bp = tt.make_tensor_ptr %base, [%k, %n], [%c1_i64, %sk], [%o0, %o1]
        {order = array<i32: 0, 1>} : !tt.ptr<tensor<64x32xf16>>
    %v = tt.load %bp : !tt.ptr<tensor<64x32xf16>>     // feeds a tt.dot
    // becomes
    %d = tt.make_tensor_descriptor %base, [%n32, %k32], [%sk, %c1_i64]
        {padding = 1 : i32, tt.from_block_pointer}
        : !tt.ptr<f16> -> !tt.tensordesc<tensor<32x64xf16>>
    %t = tt.descriptor_load %d[%o1, %o0] : ... -> tensor<32x64xf16>
    %v = tt.trans %t {order = array<i32: 1, 0>} : tensor<32x64xf16> -> tensor<64x32xf16>
    ```
  }];
  let options = [
    Option<"computeCapability", "compute-capability", "unsigned", "0",
           "the target's compute capability times ten; from 90 on, loads "
           "and stores that fit go through tensor descriptors (TMA); 0: "
           "none do">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::tritium::tt::TTDialect"];
}

#endif // TRITIUM_DIALECT_TT_TRANSFORMS_PASSES_TD
