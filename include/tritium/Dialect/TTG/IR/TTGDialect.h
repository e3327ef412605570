//===- TTGDialect.h - the TritonGPU dialect ---------------------*- C++ -*-===//
//
// Declares the `ttg` dialect: layout attributes (with their conversion to
// linear layouts), the memdesc and async-token types, and the ops.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_DIALECT_TTG_IR_TTGDIALECT_H
#define TRITIUM_DIALECT_TTG_IR_TTGDIALECT_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Layout/BlockedLayout.h"
#include "tritium/Layout/LinearLayout.h"
#include "tritium/Layout/MmaLayout.h"
#include "tritium/Layout/NvmmaShared.h"
#include "tritium/Layout/SharedSwizzle.h"

#include "tritium/Dialect/TTG/IR/TTGDialect.h.inc"
#include "tritium/Dialect/TTG/IR/TTGAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tritium/Dialect/TTG/IR/TTGAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tritium/Dialect/TTG/IR/TTGTypes.h.inc"

namespace tritium::ttg {

/// The side-effect resource of shared memory.
struct SharedMemory : public mlir::SideEffects::Resource::Base<SharedMemory> {
  llvm::StringRef getName() final { return "<SharedMemory>"; }
};

/// The module attributes, with their defaults when absent.
int getNumWarps(mlir::ModuleOp module);
int getThreadsPerWarp(mlir::ModuleOp module);
/// The warps the kernel is launched with: `ttg.total-num-warps` when a
/// ttg.warp_specialize adds a partition's warps, else num-warps.
int getTotalNumWarps(mlir::ModuleOp module);
/// The compute capability times ten of the module's `ttg.target`
/// ("cuda:90" -> 90); 0 when the module names no CUDA target.
int getComputeCapability(mlir::ModuleOp module);
/// The most shared memory one block may have on a target of that compute
/// capability (sm_90: 227 KiB; sm_80: 163 KiB; sm_86, sm_89 and others:
/// 99 KiB).
int64_t getSharedMemoryPerBlock(int computeCapability);

/// The distributed layout of a tensor type, or null.
DistributedEncodingAttr getDistributedEncoding(mlir::Type type);

/// The type of ttg.memdesc_trans of a 2-D #ttg.nvmma_shared tile: the shape
/// and the layout's order swapped.
MemDescType getTransposedTileType(MemDescType type);

} // namespace tritium::ttg

#define GET_OP_CLASSES
#include "tritium/Dialect/TTG/IR/TTGOps.h.inc"

namespace tritium::ttg {
/// The ttg.local_alloc a shared-memory descriptor views, through
/// ttg.memdesc_index, ttg.memdesc_subslice and ttg.memdesc_trans; null when
/// the chain ends elsewhere (a block argument, another op).
LocalAllocOp getViewedAllocation(mlir::Value memdesc);
} // namespace tritium::ttg

#endif // TRITIUM_DIALECT_TTG_IR_TTGDIALECT_H
