//===- TTGTypes.td - ttg types -----------------------------------*- tablegen -*-===//
//
// `!ttg.memdesc`: a descriptor of a tile in shared memory (shape, element
// type, shared layout, memory space, mutability, and the shape of the whole
// allocation it is a view of); `!ttg.async.token`: completion of async copies.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_DIALECT_TTG_IR_TTGTYPES_TD
#define TRITIUM_DIALECT_TTG_IR_TTGTYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "tritium/Dialect/TTG/IR/TTGDialect.td"

class TTG_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TTG_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TTG_MemDescType : TTG_TypeDef<"MemDesc", "memdesc",
    [ShapedTypeInterface]> {
  let summary = "a tile in shared memory";
  let description = [{
    Describes `shape` elements of `elementType` laid out by `encoding` (a
    shared layout) in `memorySpace`.  Buffers written after allocation are
    `mutable`.  A view made by `ttg.memdesc_index`/`ttg.memdesc_subslice`
    keeps the `allocShape` of the buffer it views (printed only when it
    differs from `shape`).

    ```mlir
    !ttg.memdesc<3x64x32xf16, #shared, #ttg.shared_memory, mutable>
    !ttg.memdesc<64x32xf16, #shared, #ttg.shared_memory, mutable, 3x64x32>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "::mlir::Attribute":$encoding,
                        "::mlir::Attribute":$memorySpace,
                        "bool":$mutableMemory,
                        ArrayRefParameter<"int64_t">:$allocShape);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
        "::mlir::Type":$elementType, "::mlir::Attribute":$encoding,
        "::mlir::Attribute":$memorySpace, CArg<"bool", "false">:$mutableMemory), [{
      return $_get(elementType.getContext(), shape, elementType, encoding,
                   memorySpace, mutableMemory, shape);
    }]>
  ];
  let extraClassDeclaration = [{
    using ::mlir::ShapedType::Trait<MemDescType>::getElementTypeBitWidth;
    using ::mlir::ShapedType::Trait<MemDescType>::getRank;
    using ::mlir::ShapedType::Trait<MemDescType>::getNumElements;
    using ::mlir::ShapedType::Trait<MemDescType>::isDynamicDim;
    using ::mlir::ShapedType::Trait<MemDescType>::hasStaticShape;
    using ::mlir::ShapedType::Trait<MemDescType>::getNumDynamicDims;
    using ::mlir::ShapedType::Trait<MemDescType>::getDimSize;
    using ::mlir::ShapedType::Trait<MemDescType>::getDynamicDimIndex;
    MemDescType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                          ::mlir::Type elementType) const;
    bool hasRank() const { return true; }
  }];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_AsyncTokenType : TTG_TypeDef<"AsyncToken", "async.token"> {
  let summary = "completion of a group of asynchronous copies";
  let description = [{
    ```mlir
    %t = ttg.async_commit_group tokens %c0
    ```
  }];
}

#endif // TRITIUM_DIALECT_TTG_IR_TTGTYPES_TD
