//===- TTTypes.td - tt dialect types and type constraints --------*- tablegen -*-===//
//
// The pointer type `!tt.ptr<T, addrspace>`, the tensor descriptor type
// `!tt.tensordesc<tensor<...>>`, and the type constraints used by the ops: scalars or tensors of ints, floats and pointers.  A block pointer (the
// result of tt.make_tensor_ptr) is a pointer whose pointee is a tensor type.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_DIALECT_TT_IR_TTTYPES_TD
#define TRITIUM_DIALECT_TT_IR_TTTYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "tritium/Dialect/TT/IR/TTDialect.td"

class TT_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TT_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TT_PointerType : TT_TypeDef<"Pointer", "ptr"> {
  let summary = "pointer to a value in an address space";
  let description = [{
    `!tt.ptr<f32>` points to a 32-bit float in global memory (address space
    1, the default).  `!tt.ptr<tensor<64x64xf16>>` is a block pointer: a
    pointer to a whole tile, made by `tt.make_tensor_ptr`.

    ```mlir
    !tt.ptr<f16>
    !tt.ptr<i8, 3>
    !tt.ptr<tensor<128x64xf16>>
    ```
  }];
  let parameters = (ins "::mlir::Type":$pointeeType, "int":$addressSpace);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType,
                                        CArg<"int", "1">:$addressSpace), [{
      return $_get(pointeeType.getContext(), pointeeType, addressSpace);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TT_TensorDescType : TT_TypeDef<"TensorDesc", "tensordesc"> {
  let summary = "a tensor descriptor: tiles of one block shape moved by TMA";
  let description = [{
    A kernel parameter made from a host `TensorDescriptor`: the CUDA tensor
    map of a global tensor (its base, shape, strides, element type and the
    box the copy engine moves).  `blockType` is the tile one
    `tt.descriptor_load` reads and one `tt.descriptor_store` writes.

    ```mlir
    !tt.tensordesc<tensor<64x64xf16>>
    ```
  }];
  let parameters = (ins "::mlir::RankedTensorType":$blockType);
  let assemblyFormat = "`<` $blockType `>`";
  let genVerifyDecl = 1;
}

// ---- type constraints -------------------------------------------------------
def TT_Float : AnyTypeOf<[F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F16, BF16,
                          F32, F64], "floating-point">;
def TT_FloatTensor : RankedTensorOf<[TT_Float]>;
def TT_FloatLike : AnyTypeOf<[TT_Float, TT_FloatTensor]>;

def TT_BoolTensor : RankedTensorOf<[I1]>;
def TT_BoolLike : AnyTypeOf<[I1, TT_BoolTensor]>;

def TT_Int : AnyTypeOf<[I1, I8, I16, I32, I64], "integer">;
def TT_IntTensor : RankedTensorOf<[TT_Int]>;
def TT_IntLike : AnyTypeOf<[TT_Int, TT_IntTensor]>;

def TT_I32Like : AnyTypeOf<[I32, RankedTensorOf<[I32]>]>;
def TT_I64Like : AnyTypeOf<[I64, RankedTensorOf<[I64]>]>;

def TT_Ptr : Type<CPred<"::llvm::isa<::tritium::tt::PointerType>($_self)">,
                  "tt.ptr", "::tritium::tt::PointerType">;
def TT_PtrTensor : RankedTensorOf<[TT_Ptr]>;
def TT_PtrLike : AnyTypeOf<[TT_Ptr, TT_PtrTensor]>;
def TT_TensorPtr : Type<
    CPred<"::tritium::tt::isTensorPointerType($_self)">,
    "block pointer (!tt.ptr<tensor<...>>)", "::tritium::tt::PointerType">;

def TT_FpIntTensor : RankedTensorOf<[TT_Float, TT_Int]>;
def TT_Tensor : RankedTensorOf<[TT_Float, TT_Int, TT_Ptr]>;
def TT_TensorDesc : Type<CPred<"::llvm::isa<::tritium::tt::TensorDescType>($_self)">,
                         "tt.tensordesc", "::tritium::tt::TensorDescType">;
def TT_Type : AnyTypeOf<[TT_FloatLike, TT_IntLike, TT_PtrLike, TT_TensorPtr]>;

#endif // TRITIUM_DIALECT_TT_IR_TTTYPES_TD
