//===- TTDialect.h - the Triton IR dialect ----------------------*- C++ -*-===//
//
// Declares the `tt` dialect, its pointer type, enum attributes and ops, and the
// small type helpers the ops' type constraints use.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_DIALECT_TT_IR_TTDIALECT_H
#define TRITIUM_DIALECT_TT_IR_TTDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tritium/Dialect/TT/IR/TTDialect.h.inc"
#include "tritium/Dialect/TT/IR/TTEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tritium/Dialect/TT/IR/TTTypes.h.inc"

namespace tritium::tt {

/// The side-effect resource of memory reached through `!tt.ptr`.
struct GlobalMemory : public mlir::SideEffects::Resource::Base<GlobalMemory> {
  llvm::StringRef getName() final { return "<GlobalMemory>"; }
};

/// True for `!tt.ptr<tensor<...>>`, the type of block pointers.
bool isTensorPointerType(mlir::Type type);

/// What a load through `ptrLike` produces: `T` for `!tt.ptr<T>`, a tensor of
/// `T` (same shape and encoding) for a tensor of pointers, and the tile
/// tensor for a block pointer.  Any other type is returned unchanged, so that
/// the parser's type inference never fails on malformed IR and the op's
/// verifier reports the problem instead.
mlir::Type getPointeeType(mlir::Type ptrLike);

/// `!tt.ptr<T>` for a block pointer `!tt.ptr<tensor<...xT>>` (same address
/// space): the type of the base pointer it was made from.  Other types are
/// returned unchanged (see getPointeeType).
mlir::Type getBlockPointerBaseType(mlir::Type blockPtr);

/// `i1`, or an i1 tensor with the shape and encoding of a tensor `type`.
mlir::Type getI1SameShape(mlir::Type type);

} // namespace tritium::tt

#define GET_OP_CLASSES
#include "tritium/Dialect/TT/IR/TTOps.h.inc"

#endif // TRITIUM_DIALECT_TT_IR_TTDIALECT_H
