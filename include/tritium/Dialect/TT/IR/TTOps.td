//===- TTOps.td - tt dialect operations --------------------------*- tablegen -*-===//
//
// The operations of Triton IR.  Grouped as: functions and calls; program ids;
// tensor creation and shape manipulation; pointers and memory; atomics;
// dot, reductions and scans; casts and special arithmetic; external and
// inline-asm element-wise ops; block pointers; debugging.  Every op documents
// its semantics with an IR example; shape and element-type rules are checked
// by verifiers in lib/Dialect/TT/IR/TTOps.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_DIALECT_TT_IR_TTOPS_TD
#define TRITIUM_DIALECT_TT_IR_TTOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "tritium/Dialect/TT/IR/TTDialect.td"
include "tritium/Dialect/TT/IR/TTTypes.td"
include "tritium/Dialect/TT/IR/TTAttrs.td"

class TT_Op<string mnemonic, list<Trait> traits = []>
    : Op<TT_Dialect, mnemonic, traits>;

// Reads or writes through pointers: modelled as global-memory effects.
def GlobalMemory : Resource<"::tritium::tt::GlobalMemory">;

//===----------------------------------------------------------------------===//
// Functions and calls
//===----------------------------------------------------------------------===//

def TT_FuncOp : TT_Op<"func", [AutomaticAllocationScope,
    FunctionOpInterface, IsolatedFromAbove]> {
  let summary = "a kernel or device function";
  let description = [{
    A function with one SSA-CFG region.  Public functions are kernels that the
    runtime launches; private ones are device functions called with `tt.call`
    and inlined before lowering.  Argument attributes carry what the launcher
    specialized on, such as `tt.divisibility`.

    ```mlir
    tt.func public @add(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
      tt.return
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
      "::mlir::FunctionType":$type,
      CArg<"::llvm::ArrayRef<::mlir::NamedAttribute>", "{}">:$attrs)>];
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() { return isExternal() ? nullptr : &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() { return getFunctionType().getResults(); }
    bool isDeclaration() { return isExternal(); }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TT_CallOp : TT_Op<"call", [CallOpInterface,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "call a tt.func";
  let description = [{
    Calls a function of the same module.  Operand and result types must match
    the callee's signature.

    ```mlir
    %r = tt.call @combine(%a, %b) : (f32, f32) -> f32
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<AnyType>);
  let extraClassDeclaration = [{
    operand_range getArgOperands() { return getOperands(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() { return getOperandsMutable(); }
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return (*this)->getAttrOfType<::mlir::SymbolRefAttr>("callee");
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      (*this)->setAttr("callee", ::llvm::cast<::mlir::SymbolRefAttr>(callee));
    }
  }];
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
}

def TT_ReturnOp : TT_Op<"return", [Pure, HasParent<"FuncOp">, ReturnLike,
                                   Terminator]> {
  let summary = "return from a tt.func";
  let description = [{
    Ends a function; operand types must match the function's results.

    ```mlir
    tt.return %v : f32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$srcs);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($srcs^ `:` type($srcs))?";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Program ids
//===----------------------------------------------------------------------===//

class TT_GridQueryOp<string mnemonic, string what> : TT_Op<mnemonic, [Pure]> {
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let summary = what # " along grid axis 0, 1 or 2";
}

def TT_GetProgramIdOp : TT_GridQueryOp<"get_program_id",
                                        "index of this program instance"> {
  let description = [{
    The coordinate of the running program instance in the launch grid.

    ```mlir
    %pid = tt.get_program_id {axis = 0 : i32} : i32
    ```
  }];
}

def TT_GetNumProgramsOp : TT_GridQueryOp<"get_num_programs",
                                          "number of program instances"> {
  let description = [{
    The size of the launch grid along `axis`.

    ```mlir
    %n = tt.get_num_programs {axis = 1 : i32} : i32
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Tensor creation and shape manipulation
//===----------------------------------------------------------------------===//

def TT_MakeRangeOp : TT_Op<"make_range", [Pure]> {
  let summary = "the 1-D tensor [start, start+1, ..., end-1]";
  let description = [{
    Produces consecutive i32 values from `start` (inclusive) to `end`
    (exclusive).  The length `end - start` must be a power of two and equal
    to the result's size.

    ```mlir
    %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
    ```
  }];
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def TT_SplatOp : TT_Op<"splat", [Pure]> {
  let summary = "a tensor with every element equal to a scalar";
  let description = [{
    The result's element type equals the operand's type.

    ```mlir
    %t = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    ```
  }];
  let arguments = (ins TT_Type:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TT_BroadcastOp : TT_Op<"broadcast", [Pure]> {
  let summary = "repeat a tensor along its size-1 dimensions";
  let description = [{
    Source and result have the same rank and element type; every source
    dimension either equals the result's or is 1 (and is then repeated).

    ```mlir
    %b = tt.broadcast %a : tensor<1x64xf32> -> tensor<32x64xf32>
    ```
  }];
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TT_ExpandDimsOp : TT_Op<"expand_dims", [Pure]> {
  let summary = "insert a size-1 dimension";
  let description = [{
    The result has the source's shape with a 1 inserted at `axis`
    (0 <= axis <= rank).

    ```mlir
    %e = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    ```
  }];
  let arguments = (ins TT_Tensor:$src, I32Attr:$axis);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_ReshapeOp : TT_Op<"reshape", [Pure]> {
  let summary = "reinterpret a tensor with another shape";
  let description = [{
    Keeps the element count and type; elements keep their row-major order
    unless `allow_reorder` is set, in which case the compiler may permute them
    (used by reductions that do not care about order).  `efficient_layout`
    asks the layout passes to keep the layout chosen for the result.

    ```mlir
    %r = tt.reshape %a allow_reorder : tensor<4x32xf32> -> tensor<128xf32>
    ```
  }];
  let arguments = (ins TT_Tensor:$src, UnitAttr:$allow_reorder,
                       UnitAttr:$efficient_layout);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $src (`allow_reorder` $allow_reorder^)? (`efficient_layout` $efficient_layout^)?
    attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TT_TransOp : TT_Op<"trans", [Pure]> {
  let summary = "permute the dimensions of a tensor";
  let description = [{
    Result dimension i is source dimension order[i]; `order` is a permutation.

    ```mlir
    %t = tt.trans %a {order = array<i32: 1, 0>} : tensor<16x32xf16> -> tensor<32x16xf16>
    ```
  }];
  let arguments = (ins TT_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TT_JoinOp : TT_Op<"join", [Pure, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "stack two tensors along a new minor dimension of size 2";
  let description = [{
    `lhs` and `rhs` have the same type; result[..., 0] = lhs, result[..., 1] = rhs.

    ```mlir
    %j = tt.join %a, %b : tensor<64xf32> -> tensor<64x2xf32>
    ```
  }];
  let arguments = (ins TT_Tensor:$lhs, TT_Tensor:$rhs);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def TT_SplitOp : TT_Op<"split", [Pure, AllTypesMatch<["outLHS", "outRHS"]>]> {
  let summary = "split a tensor along its minor dimension of size 2";
  let description = [{
    The inverse of `tt.join`: the last dimension must be 2.

    ```mlir
    %a, %b = tt.split %j : tensor<64x2xf32> -> tensor<64xf32>
    ```
  }];
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$outLHS, TT_Tensor:$outRHS);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($outLHS)";
  let hasVerifier = 1;
}

def TT_CatOp : TT_Op<"cat", [Pure, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "concatenate two tensors along dimension 0";
  let description = [{
    Both operands have the same type; the result doubles dimension 0.  As in
    Triton, the order of elements in the result may be changed by later
    layout passes (`can_reorder` semantics), so the result's size is what
    counts.

    ```mlir
    %c = tt.cat %a, %b : tensor<32xf32> -> tensor<64xf32>
    ```
  }];
  let arguments = (ins TT_Tensor:$lhs, TT_Tensor:$rhs);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

def TT_AddPtrOp : TT_Op<"addptr", [Pure, SameOperandsAndResultShape,
    AllTypesMatch<["ptr", "result"]>]> {
  let summary = "advance pointers by a number of elements";
  let description = [{
    `result = ptr + offset * sizeof(pointee)`, element-wise.  The offset is an
    integer scalar or tensor of the pointer operand's shape.

    ```mlir
    %q = tt.addptr %p, %offs : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    ```
  }];
  let arguments = (ins TT_PtrLike:$ptr, TT_IntLike:$offset);
  let results = (outs TT_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)";
  let hasFolder = 1;
}

def TT_LoadOp : TT_Op<"load", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    TypesMatchWith<"result type matches the pointee of ptr", "ptr", "result",
                   "::tritium::tt::getPointeeType($_self)">,
    OptionalTypesMatchWith<"mask is i1 of ptr's shape", "ptr", "mask",
                   "::tritium::tt::getI1SameShape(::tritium::tt::getPointeeType($_self))">,
    OptionalTypesMatchWith<"other has the result type", "ptr", "other",
                   "::tritium::tt::getPointeeType($_self)">]> {
  let summary = "load a scalar or a block from global memory";
  let description = [{
    Loads through a pointer, a tensor of pointers, or a block pointer.  Where
    `mask` is false the element is not accessed and the result is `other`
    (undefined if `other` is absent).  For block pointers, `boundaryCheck`
    lists the dimensions checked against the tensor's bounds and `padding`
    gives the value of out-of-bounds elements.  `cache`, `evict` and
    `isVolatile` become PTX cache operators and hints.  A volatile load also
    declares a write to global memory: it may observe other threads' writes
    (a flag spun on), so it must be neither removed nor moved across other
    accesses.

    ```mlir
    %v = tt.load %ptrs, %mask, %zero evictionPolicy = evict_last
        : tensor<128x!tt.ptr<f32>>
    %b = tt.load %bptr {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32}
        : !tt.ptr<tensor<64x64xf16>>
    ```
  }];
  let arguments = (ins
    AnyTypeOf<[TT_PtrLike, TT_TensorPtr]>:$ptr,
    Optional<TT_BoolLike>:$mask,
    Optional<TT_Type>:$other,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$boundaryCheck,
    OptionalAttr<TT_PaddingOptionAttr>:$padding,
    DefaultValuedAttr<TT_CacheModifierAttr, "::tritium::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::tritium::tt::EvictionPolicy::NORMAL">:$evict,
    DefaultValuedAttr<BoolAttr, "false">:$isVolatile);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`,` $other^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def TT_StoreOp : TT_Op<"store", [MemoryEffects<[MemWrite<GlobalMemory>]>,
    TypesMatchWith<"value type matches the pointee of ptr", "ptr", "value",
                   "::tritium::tt::getPointeeType($_self)">,
    OptionalTypesMatchWith<"mask is i1 of ptr's shape", "ptr", "mask",
                   "::tritium::tt::getI1SameShape(::tritium::tt::getPointeeType($_self))">]> {
  let summary = "store a scalar or a block to global memory";
  let description = [{
    Stores `value` through `ptr` where `mask` is true.  `value` has the
    pointee type of `ptr` (element-wise for tensors); for a block pointer it
    is the whole tile, with `boundaryCheck` as for `tt.load`.

    ```mlir
    tt.store %ptrs, %v, %mask cacheModifier = wb : tensor<128x!tt.ptr<f32>>
    ```
  }];
  let arguments = (ins
    AnyTypeOf<[TT_PtrLike, TT_TensorPtr]>:$ptr, TT_Type:$value,
    Optional<TT_BoolLike>:$mask,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$boundaryCheck,
    DefaultValuedAttr<TT_CacheModifierAttr, "::tritium::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::tritium::tt::EvictionPolicy::NORMAL">:$evict);
  let assemblyFormat = [{
    $ptr `,` $value (`,` $mask^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

def TT_AtomicRMWOp : TT_Op<"atomic_rmw", [
    MemoryEffects<[MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>]> {
  let summary = "atomic read-modify-write; returns the old values";
  let description = [{
    For each element where `mask` holds: `old = *ptr; *ptr = op(old, val)`,
    atomically, with the given memory ordering (`sem`) and visibility
    (`scope`).  `fadd` takes floats; `add`, `and`, `or`, `xor`, `max`, `min`,
    `umax`, `umin` take integers (`max`/`min` also floats); `exch` any.

    ```mlir
    %old = tt.atomic_rmw fadd, acq_rel, gpu, %ptrs, %vals, %mask
        : (tensor<64x!tt.ptr<f32>>, tensor<64xf32>, tensor<64xi1>) -> tensor<64xf32>
    ```
  }];
  let arguments = (ins TT_RMWOpAttr:$atomic_rmw_op, TT_PtrLike:$ptr,
                       TT_Type:$val, Optional<TT_BoolLike>:$mask,
                       TT_MemSemanticAttr:$sem, TT_MemSyncScopeAttr:$scope);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict `:`
    functional-type(operands, $result)
  }];
  let hasVerifier = 1;
}

def TT_AtomicCASOp : TT_Op<"atomic_cas", [
    MemoryEffects<[MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>]> {
  let summary = "atomic compare-and-swap; returns the old values";
  let description = [{
    For each element: `old = *ptr; if (old == cmp) *ptr = val`, atomically.

    ```mlir
    %old = tt.atomic_cas acq_rel, gpu, %lock, %zero, %one
        : (!tt.ptr<i32>, i32, i32) -> i32
    ```
  }];
  let arguments = (ins TT_PtrLike:$ptr, TT_Type:$cmp, TT_Type:$val,
                       TT_MemSemanticAttr:$sem, TT_MemSyncScopeAttr:$scope);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:`
    functional-type(operands, $result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Dot, reductions and scans
//===----------------------------------------------------------------------===//

def TT_DotOp : TT_Op<"dot", [Pure, AllTypesMatch<["c", "d"]>]> {
  let summary = "matrix product with accumulation: d = a * b + c";
  let description = [{
    `a` is [B x] M x K, `b` is [B x] K x N, `c` and `d` are [B x] M x N.
    `a` and `b` have the same element type, except that fp8 variants may be
    mixed.  `inputPrecision` says how fp32 inputs use tensor cores (tf32,
    tf32x3 or exact ieee); `maxNumImpreciseAcc` bounds how many fp8 products
    are accumulated at reduced precision before a full-precision add.

    ```mlir
    %d = tt.dot %a, %b, %c, inputPrecision = tf32
        : tensor<128x32xf16> * tensor<32x64xf16> -> tensor<128x64xf32>
    ```
  }];
  let arguments = (ins TT_FpIntTensor:$a, TT_FpIntTensor:$b, TT_FpIntTensor:$c,
      DefaultValuedAttr<TT_InputPrecisionAttr, "::tritium::tt::InputPrecision::IEEE">:$inputPrecision,
      DefaultValuedAttr<ConfinedAttr<I32Attr, [IntNonNegative]>, "0">:$maxNumImpreciseAcc);
  let results = (outs TT_FpIntTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`,` `inputPrecision` `=` $inputPrecision^)? attr-dict `:`
    type($a) `*` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

def TT_ReduceOp : TT_Op<"reduce", [Pure, SingleBlock]> {
  let summary = "reduce tensors along one axis with a combine region";
  let description = [{
    Reduces N operands of the same shape along `axis` with the combine region,
    which takes 2N scalars (N accumulated values, then N new ones) and yields N
    with `tt.reduce.return`.  The combine function must be associative and
    commutative; the reduction order is unspecified.  Results drop `axis`
    from the shape; a rank-1 reduction yields scalars.  Several operands
    reduce together, e.g. a value and its index for argmax.  Printed in the
    generic form, as Triton prints it (tools and tests search IR for
    `"tt.reduce"`).

    ```mlir
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<32x64xf32>) -> tensor<32xf32>
    ```
  }];
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<TT_Type>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TT_ReduceReturnOp : TT_Op<"reduce.return", [Pure, HasParent<"ReduceOp">,
                                                 ReturnLike, Terminator]> {
  let summary = "yield the combined values of a tt.reduce step";
  let description = [{
    ```mlir
    tt.reduce.return %max, %idx : f32, i32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TT_ScanOp : TT_Op<"scan", [Pure, SingleBlock]> {
  let summary = "inclusive prefix scan along one axis";
  let description = [{
    `result[i] = combine(result[i-1], src[i])` along `axis` (from the end when
    `reverse` is set).  Results have the operands' types.  The combine
    region is as for `tt.reduce` and must be associative.  Printed in the
    generic form, as Triton prints it.

    ```mlir
    %c = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tt.scan.return %t : i32
    }) : (tensor<128xi32>) -> tensor<128xi32>
    ```
  }];
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$axis, BoolAttr:$reverse);
  let results = (outs Variadic<TT_Tensor>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TT_ScanReturnOp : TT_Op<"scan.return", [Pure, HasParent<"ScanOp">,
                                             ReturnLike, Terminator]> {
  let summary = "yield the combined values of a tt.scan step";
  let description = [{
    ```mlir
    tt.scan.return %sum : f32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TT_HistogramOp : TT_Op<"histogram", [Pure]> {
  let summary = "count occurrences of each bin index";
  let description = [{
    For a 1-D integer tensor `src`, result[i] is the number of elements equal
    to i, for i in [0, num_bins); other values are ignored.  The result is a
    1-D integer tensor of num_bins elements.

    ```mlir
    %h = tt.histogram %x : tensor<1024xi32> -> tensor<16xi32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[TT_Int]>:$src);
  let results = (outs RankedTensorOf<[TT_Int]>:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_GatherOp : TT_Op<"gather", [Pure]> {
  let summary = "pick elements of a tensor along an axis by index";
  let description = [{
    `result[i0,..,ia,..] = src[i0,.., indices[i0,..,ia,..], ..]` with the index
    along `axis`.  `indices` has the rank of `src` and the result's shape;
    outside `axis` its dimensions equal the source's.

    ```mlir
    %g = tt.gather %src[%idx] {axis = 1 : i32}
        : (tensor<32x64xf32>, tensor<32x8xi32>) -> tensor<32x8xf32>
    ```
  }];
  let arguments = (ins TT_Tensor:$src, RankedTensorOf<[TT_Int]>:$indices, I32Attr:$axis);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $src `[` $indices `]` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Casts and special arithmetic
//===----------------------------------------------------------------------===//

def TT_FpToFpOp : TT_Op<"fp_to_fp", [Pure, SameOperandsAndResultShape]> {
  let summary = "convert between float formats, fp8 included";
  let description = [{
    Converts between floating-point types where `arith.extf/truncf` does not
    suffice (fp8 formats).  A conversion to a narrower type needs `rounding`.

    ```mlir
    %h = tt.fp_to_fp %x, rounding = rtne : tensor<64xf32> -> tensor<64xf8E4M3FN>
    ```
  }];
  let arguments = (ins TT_FloatLike:$src, OptionalAttr<TT_RoundingModeAttr>:$rounding);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = [{
    $src (`,` `rounding` `=` $rounding^)? attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TT_BitcastOp : TT_Op<"bitcast", [Pure, SameOperandsAndResultShape]> {
  let summary = "reinterpret bits as another type of the same width";
  let description = [{
    Between integers, floats and pointers of equal bit width (pointers are
    64 bits), element-wise.

    ```mlir
    %i = tt.bitcast %f : tensor<64xf32> -> tensor<64xi32>
    ```
  }];
  let arguments = (ins TT_Type:$src);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TT_IntToPtrOp : TT_Op<"int_to_ptr", [Pure, SameOperandsAndResultShape]> {
  let summary = "i64 address to pointer";
  let description = [{
    ```mlir
    %p = tt.int_to_ptr %a : i64 -> !tt.ptr<f32>
    ```
  }];
  let arguments = (ins TT_I64Like:$src);
  let results = (outs TT_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def TT_PtrToIntOp : TT_Op<"ptr_to_int", [Pure, SameOperandsAndResultShape]> {
  let summary = "pointer to i64 address";
  let description = [{
    ```mlir
    %a = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
    ```
  }];
  let arguments = (ins TT_PtrLike:$src);
  let results = (outs TT_I64Like:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def TT_ClampOp : TT_Op<"clamp", [Pure, SameOperandsAndResultType]> {
  let summary = "min(max(x, min), max) for floats";
  let description = [{
    With `propagateNan = all`, a NaN in any operand makes the result NaN;
    with `none`, NaN bounds are ignored as by `minnum`/`maxnum`.

    ```mlir
    %c = tt.clamp %x, %lo, %hi, propagateNan = none : tensor<64xf32>
    ```
  }];
  let arguments = (ins TT_FloatLike:$x, TT_FloatLike:$min, TT_FloatLike:$max,
                       TT_PropagateNanAttr:$propagateNan);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = [{
    $x `,` $min `,` $max `,` `propagateNan` `=` $propagateNan attr-dict `:` type($result)
  }];
}

def TT_PreciseSqrtOp : TT_Op<"precise_sqrt", [Pure, SameOperandsAndResultType]> {
  let summary = "correctly rounded square root (sqrt.rn)";
  let description = [{
    ```mlir
    %r = tt.precise_sqrt %x : tensor<64xf32>
    ```
  }];
  let arguments = (ins TT_FloatLike:$x);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def TT_PreciseDivFOp : TT_Op<"precise_divf", [Pure, SameOperandsAndResultType]> {
  let summary = "correctly rounded division (div.rn)";
  let description = [{
    ```mlir
    %r = tt.precise_divf %x, %y : tensor<64xf32>
    ```
  }];
  let arguments = (ins TT_FloatLike:$x, TT_FloatLike:$y);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

def TT_MulhiUIOp : TT_Op<"mulhiui", [Pure, SameOperandsAndResultType]> {
  let summary = "high half of the unsigned product of 32- or 64-bit integers";
  let description = [{
    ```mlir
    %h = tt.mulhiui %a, %b : tensor<64xi32>
    ```
  }];
  let arguments = (ins TT_IntLike:$x, TT_IntLike:$y);
  let results = (outs TT_IntLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// External and inline-asm element-wise functions
//===----------------------------------------------------------------------===//

def TT_ExternElementwiseOp : TT_Op<"extern_elementwise", [Elementwise,
    SameOperandsAndResultShape, SameVariadicOperandSize,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "call a function of an external device library element-wise";
  let description = [{
    Calls `symbol` of the bitcode library `libname` at `libpath` (e.g.
    libdevice's `__nv_expf`) on each element.  `pure` functions may be
    reordered or removed when unused.

    ```mlir
    %y = tt.extern_elementwise %x {libname = "libdevice", libpath = "",
        symbol = "__nv_expf", pure = true} : (tensor<64xf32>) -> tensor<64xf32>
    ```
  }];
  let arguments = (ins Variadic<TT_Type>:$srcs, StrAttr:$libname,
                       StrAttr:$libpath, StrAttr:$symbol, BoolAttr:$pure);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, $result)";
}

def TT_ElementwiseInlineAsmOp : TT_Op<"elementwise_inline_asm", [Elementwise,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "run PTX inline assembly on each group of elements";
  let description = [{
    Runs `asm_string` with `constraints` (LLVM inline-asm syntax) on
    `packed_element` consecutive elements at a time.  Operands and results
    have one shape.  `pure` asm may be reordered or removed.  There may be
    no operands at all: asm that reads a special register (`%smid`,
    `%globaltimer`) only produces results.

    ```mlir
    %y = tt.elementwise_inline_asm "shl.b32 $0, $0, 3;" {constraints = "=r,r",
        packed_element = 1 : i32, pure = true} %x : tensor<64xi32> -> tensor<64xi32>
    ```
  }];
  let arguments = (ins StrAttr:$asm_string, StrAttr:$constraints, BoolAttr:$pure,
                       I32Attr:$packed_element, Variadic<TT_Type>:$args);
  let results = (outs Variadic<TT_Type>:$result);
  let assemblyFormat = [{
    $asm_string attr-dict ($args^ `:` type($args))? `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Block pointers
//===----------------------------------------------------------------------===//

def TT_MakeTensorPtrOp : TT_Op<"make_tensor_ptr", [Pure, SameVariadicOperandSize,
    TypesMatchWith<"base points to the tile's element type", "result", "base",
                   "::tritium::tt::getBlockPointerBaseType($_self)">]> {
  let summary = "a pointer to a tile of a strided N-d tensor";
  let description = [{
    Describes the parent tensor (`base`, `shape`, `strides` in elements) and
    a tile of it starting at `offsets`.  The result is a block pointer whose
    pointee tensor type gives the tile's shape; shape, strides and offsets
    have one entry per tile dimension.  `order` lists the dimensions from
    fastest to slowest varying in memory.

    ```mlir
    %bp = tt.make_tensor_ptr %base, [%m, %k], [%sk, %c1], [%o0, %o1]
        {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x32xf16>>
    ```
  }];
  let arguments = (ins TT_Ptr:$base, Variadic<I64>:$shape, Variadic<I64>:$strides,
                       Variadic<I32>:$offsets, DenseI32ArrayAttr:$order);
  let results = (outs TT_TensorPtr:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]` attr-dict
    `:` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TT_AdvanceOp : TT_Op<"advance", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "move a block pointer by per-dimension offsets";
  let description = [{
    One i32 offset per dimension of the pointee tile.

    ```mlir
    %next = tt.advance %bp, [%c0, %c32] : !tt.ptr<tensor<64x32xf16>>
    ```
  }];
  let arguments = (ins TT_TensorPtr:$ptr, Variadic<I32>:$offsets);
  let results = (outs TT_TensorPtr:$result);
  let assemblyFormat = "$ptr `,` `[` $offsets `]` attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

def TT_MakeTensorDescOp : TT_Op<"make_tensor_descriptor", [Pure, AttrSizedOperandSegments]> {
  let summary = "a tensor descriptor made in the kernel";
  let description = [{
    Describes a strided N-d tensor (`base`; `shape` in elements, i32;
    `strides` in elements, i64, the last one 1) moved in blocks of the
    result's block type.  On Hopper the program encodes a tensor map for it
    in its slot of the kernel's global scratch memory, so its loads and
    stores go through the copy engine like those of a host descriptor:
    ttg-lower-tensor-descriptors gives the kernel its scratch argument
    (`scratch`, the base of all programs' slots) and numbers the slots
    (`scratch_offset`, bytes into one program's scratch).  `padding` is what
    loads read outside the tensor: 1 zero, 2 NaN.

    ```mlir
    %d = tt.make_tensor_descriptor %base, [%m, %k], [%sm, %c1] {padding = 1 : i32}
        : !tt.ptr<f16> -> !tt.tensordesc<tensor<64x64xf16>>
    %e = tt.make_tensor_descriptor %base, [%m, %k], [%sm, %c1] scratch %s : !tt.ptr<i8>
        {padding = 1 : i32, scratch_offset = 128 : i32}
        : !tt.ptr<f16> -> !tt.tensordesc<tensor<64x64xf16>>
    ```
  }];
  let arguments = (ins TT_Ptr:$base, Variadic<I32>:$shape, Variadic<I64>:$strides,
                       Optional<TT_Ptr>:$scratch, I32Attr:$padding,
                       OptionalAttr<I32Attr>:$scratch_offset);
  let results = (outs TT_TensorDesc:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` (`scratch` $scratch^ `:` qualified(type($scratch)))?
    attr-dict `:` qualified(type($base)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TT_DescriptorLoadOp : TT_Op<"descriptor_load", [
    MemoryEffects<[MemRead<GlobalMemory>]>]> {
  let summary = "load the tile of a tensor descriptor at element offsets";
  let description = [{
    Reads the descriptor's block at `indices` (one i32 element offset per
    dimension); elements outside the tensor read as zero.

    ```mlir
    %t = tt.descriptor_load %desc[%m, %k] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
    ```
  }];
  let arguments = (ins TT_TensorDesc:$desc, Variadic<I32>:$indices);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $indices `]` attr-dict `:` qualified(type($desc)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorStoreOp : TT_Op<"descriptor_store", [
    MemoryEffects<[MemWrite<GlobalMemory>]>]> {
  let summary = "store a tile through a tensor descriptor at element offsets";
  let description = [{
    Writes `src`, of the descriptor's block shape, at `indices`; elements
    outside the tensor are not written.

    ```mlir
    tt.descriptor_store %desc[%m, %n], %t : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
    ```
  }];
  let arguments = (ins TT_TensorDesc:$desc, Variadic<I32>:$indices, TT_Tensor:$src);
  let assemblyFormat = [{
    $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

def TT_PrintOp : TT_Op<"print", [MemoryEffects<[MemWrite<GlobalMemory>]>]> {
  let summary = "print values from the device (device_print)";
  let description = [{
    Prints `prefix` and the values with the program id and element index.
    `hex` prints integers in hexadecimal; `isSigned` holds one flag per
    operand.

    ```mlir
    tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %x : tensor<64xi32>
    ```
  }];
  let arguments = (ins StrAttr:$prefix, BoolAttr:$hex, Variadic<TT_Type>:$args,
                       DenseI32ArrayAttr:$isSigned);
  let assemblyFormat = [{
    $prefix attr-dict (`:` $args^ `:` type($args))?
  }];
  let hasVerifier = 1;
}

def TT_AssertOp : TT_Op<"assert", [MemoryEffects<[MemWrite<GlobalMemory>]>]> {
  let summary = "abort the kernel when a condition is false (device_assert)";
  let description = [{
    When any element of `condition` is false, prints `message` and traps.

    ```mlir
    tt.assert %ok, "index out of range" : tensor<64xi1>
    ```
  }];
  let arguments = (ins AnyTypeOf<[I1, TT_BoolTensor]>:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

#endif // TRITIUM_DIALECT_TT_IR_TTOPS_TD
