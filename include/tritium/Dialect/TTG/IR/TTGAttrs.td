//===- TTGAttrs.td - ttg layout attributes -----------------------*- tablegen -*-===//
//
// The layouts a tensor can carry.  Distributed layouts spread a tensor over
// the registers of the threads of a CTA; each one converts to a
// tritium::layout::LinearLayout (include/tritium/Layout), which the rest of
// the compiler uses to answer "which thread holds element (i, j)?".  Shared
// layouts describe how a tile sits in shared memory.
//
// All fields are powers of two.  Rules that depend on the module (the number
// of warps and of threads per warp) are checked where the module attributes
// are verified, for every tensor type in the module.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_DIALECT_TTG_IR_TTGATTRS_TD
#define TRITIUM_DIALECT_TTG_IR_TTGATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/TensorEncoding.td"
include "tritium/Dialect/TTG/IR/TTGDialect.td"

//===----------------------------------------------------------------------===//
// Interfaces
//===----------------------------------------------------------------------===//

def TTG_DistributedEncoding : AttrInterface<"DistributedEncodingAttr"> {
  let cppNamespace = "::tritium::ttg";
  let description = [{
    A layout that distributes a tensor over the registers of threads.  The
    whole mapping is given by `toLinearLayout(shape)`; everything else is
    derived from it.
  }];
  let methods = [
    InterfaceMethod<"The (register, lane, warp) -> coordinates map for a tensor of `shape`.",
      "::tritium::layout::LinearLayout", "toLinearLayout",
      (ins "::llvm::ArrayRef<int64_t>":$shape)>,
    InterfaceMethod<"The tensor rank this layout applies to.", "unsigned", "getRank">,
    InterfaceMethod<"Product of warpsPerCTA: the warps this layout spans.",
      "int64_t", "getNumWarps">,
    InterfaceMethod<"Threads of a warp this layout assumes (its lanes).",
      "int64_t", "getWarpSize">,
  ];
  let extraSharedClassDeclaration = [{
    /// Values each thread holds for a tensor of `shape` (its register count).
    int64_t getElemsPerThread(::llvm::ArrayRef<int64_t> shape) {
      return $_attr.toLinearLayout(shape).elemsPerThread();
    }
  }];
}

def TTG_SharedEncoding : AttrInterface<"SharedEncodingAttr"> {
  let cppNamespace = "::tritium::ttg";
  let description = "A layout of a tile in shared memory.";
  let methods = [
    InterfaceMethod<"The dimension order, fastest-varying first.",
      "::llvm::ArrayRef<unsigned>", "getOrder">,
  ];
}

class TTG_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TTG_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Distributed layouts
//===----------------------------------------------------------------------===//

def TTG_BlockedEncodingAttr : TTG_Attr<"BlockedEncoding", "blocked",
    [DeclareAttrInterfaceMethods<TTG_DistributedEncoding>,
     DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "each thread holds a small block; blocks tile the tensor";
  let description = [{
    A thread holds `sizePerThread` contiguous elements; `threadsPerWarp`
    lanes and `warpsPerCTA` warps tile those blocks over a CTA tile of
    `sizePerThread * threadsPerWarp * warpsPerCTA` elements per dimension,
    and that tile repeats over larger tensors (each thread then holds
    several blocks) or wraps around smaller ones (several threads then hold
    the same element).  `order` lists dimensions fastest first: elements,
    lanes and warps are numbered along order[0] first.

    The 16x16 tensor over 2 warps with sizePerThread [2, 2],
    threadsPerWarp [8, 4], warpsPerCTA [1, 2], order [1, 0] is held as
    (thread ids): row 0 `0 0 1 1 2 2 3 3 32 32 33 33 34 34 35 35`, row 1 the
    same, row 2 `4 4 5 5 6 6 7 7 36 36 ...`.

    ```mlir
    #blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4],
                             warpsPerCTA = [1, 2], order = [1, 0]}>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order);
  let extraClassDeclaration = [{
    ::tritium::layout::BlockedSpec toSpec() const;
  }];
}

def TTG_SliceEncodingAttr : TTG_Attr<"SliceEncoding", "slice",
    [DeclareAttrInterfaceMethods<TTG_DistributedEncoding>,
     DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "the parent layout with one dimension removed";
  let description = [{
    The layout of a tensor that `tt.expand_dims` at `dim` turns into a tensor
    of the `parent` layout, or that a reduction along `dim` produces: element
    (i, ...) is held by every thread that holds (..., x at dim, ...) in the
    parent, for any x.  Rank is the parent's minus one.

    ```mlir
    #row = #ttg.slice<{dim = 1, parent = #blocked}>
    ```
  }];
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
  let extraClassDeclaration = [{
    ::tritium::ttg::DistributedEncodingAttr getDistributedParent() const;
  }];
}

def TTG_NvidiaMmaEncodingAttr : TTG_Attr<"NvidiaMmaEncoding", "nvidia_mma",
    [DeclareAttrInterfaceMethods<TTG_DistributedEncoding>,
     DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "accumulator layout of NVIDIA tensor-core instructions";
  let description = [{
    The layout of the result of `mma.sync` (versionMajor 2, Ampere and later,
    instrShape [16, 8]) or of `wgmma` (versionMajor 3, Hopper, instrShape
    [16, N, K]): in an m16n8 tile, lane l holds rows l/4 and l/4 + 8 at
    columns 2*(l%4) and 2*(l%4) + 1.  `warpsPerCTA` tiles warps over the
    tensor, M fastest for version 3 (a wgmma needs groups of 4 warps along
    M; layouts with fewer are valid distributions that only conversions
    produce).

    ```mlir
    #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0,
                            warpsPerCTA = [2, 2], instrShape = [16, 8]}>
    ```
  }];
  let parameters = (ins "unsigned":$versionMajor, "unsigned":$versionMinor,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$instrShape);
  let extraClassDeclaration = [{
    ::tritium::layout::MmaSpec toSpec() const;
    bool isAmpere() const { return getVersionMajor() == 2; }
    bool isHopper() const { return getVersionMajor() == 3; }
  }];
}

def TTG_DotOperandEncodingAttr : TTG_Attr<"DotOperandEncoding", "dot_op",
    [DeclareAttrInterfaceMethods<TTG_DistributedEncoding>,
     DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "layout of an operand of a tensor-core dot";
  let description = [{
    Operand `opIdx` (0 = A, M x K; 1 = B, K x N) laid out as the tensor-core
    instruction of the `parent` mma layout reads it from registers; each
    thread holds `kWidth` consecutive elements along K per register group
    (2 for 16-bit types, 4 for 8-bit).

    ```mlir
    #a = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
    ```
  }];
  let parameters = (ins "unsigned":$opIdx, "::mlir::Attribute":$parent,
                        "unsigned":$kWidth);
}

def TTG_LinearEncodingAttr : TTG_Attr<"LinearEncoding", "linear",
    [DeclareAttrInterfaceMethods<TTG_DistributedEncoding>,
     DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "a distributed layout given by its linear-layout bases";
  let description = [{
    Any distributed layout, written as the bases of its map from (register,
    lane, warp) to tensor coordinates (see tritium/Layout/LinearLayout.h):
    basis i of `lane` is the coordinate held by lane 1 << i of register 0 of
    warp 0.  The bases span a tile whose size per dimension is the next
    power of two above the largest coordinate; a larger tensor repeats the
    tile in more registers (the last dimension first), a smaller one wraps
    (coordinates taken modulo the shape).  `block` is the CTA-group
    dimension of Triton's syntax and must be empty (one CTA per group).
    Triton prints the layouts it infers through reshapes and transposes in
    this form.

    ```mlir
    #linear = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8],
                           [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
    ```
  }];
  let parameters = (ins "unsigned":$rank,
                        ArrayRefParameter<"int64_t">:$registerBases,
                        ArrayRefParameter<"int64_t">:$laneBases,
                        ArrayRefParameter<"int64_t">:$warpBases);
  let extraClassDeclaration = [{
    /// The bases of one hardware dimension (flattened: `rank` coordinates
    /// per basis) as coordinate vectors.
    static ::tritium::layout::BasisList toBasisList(::llvm::ArrayRef<int64_t> flat,
                                                    unsigned rank);
    /// The shape the bases span (a power of two per dimension).
    ::llvm::SmallVector<int64_t> getTileShape() const;
  }];
}

//===----------------------------------------------------------------------===//
// Shared-memory layouts
//===----------------------------------------------------------------------===//

def TTG_SwizzledSharedEncodingAttr : TTG_Attr<"SwizzledSharedEncoding",
    "swizzled_shared", [TTG_SharedEncoding]> {
  let summary = "a tile in shared memory with XOR-swizzled vectors";
  let description = [{
    Row r of the tile (along order[1]) stores its vectors of `vec` elements
    (along order[0]) at vector index `(c / vec) ^ ((r / perPhase) % maxPhase)`,
    so that threads reading a column hit different banks.  vec = perPhase =
    maxPhase = 1 is the plain unswizzled layout.

    ```mlir
    #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
    ```
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
                        "unsigned":$maxPhase, ArrayRefParameter<"unsigned">:$order);
  let extraClassDeclaration = [{
    ::tritium::layout::SwizzleSpec toSpec() const;
  }];
}

def TTG_NvmmaSharedEncodingAttr : TTG_Attr<"NvmmaSharedEncoding",
    "nvmma_shared", [TTG_SharedEncoding]> {
  let summary = "a tile in shared memory as tensor-core instructions read it";
  let description = [{
    The layout wgmma's matrix descriptors (and ldmatrix) read: the
    contiguous dimension (order[0]) is cut into slabs of
    `swizzlingByteWidth` bytes (32, 64 or 128); each slab stores the rows
    of the other dimension one after another and XORs the 16-byte chunks of
    row r with (r / (128 / swizzlingByteWidth)) % (swizzlingByteWidth / 16),
    the swizzle the hardware applies to the address bits.  Operand A (M x K)
    with order [1, 0] and B (K x N) with order [0, 1] are K-major; the
    other orders are MN-major (transposed in wgmma's terms).

    ```mlir
    #nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
    ```
  }];
  let parameters = (ins "unsigned":$swizzlingByteWidth,
                        "unsigned":$elementBitWidth,
                        ArrayRefParameter<"unsigned">:$order);
  let extraClassDeclaration = [{
    ::tritium::layout::NvmmaSharedSpec toSpec() const;
  }];
}

def TTG_SharedMemorySpaceAttr : AttrDef<TTG_Dialect, "SharedMemorySpace"> {
  let mnemonic = "shared_memory";
  let summary = "the memory space of buffers in shared memory";
  let description = [{
    ```mlir
    !ttg.memdesc<64x64xf16, #shared, #ttg.shared_memory, mutable>
    ```
  }];
  let assemblyFormat = "";
}

#endif // TRITIUM_DIALECT_TTG_IR_TTGATTRS_TD
