//===- ElementPacking.h - a thread's elements as a struct -------*- C++ -*-===//
//
// A converted tensor is an LLVM struct of the elements one thread holds
// (TypeConverter.h).  Lowerings unpack it into one value per register, work
// per element, and pack the results.  A scalar is its own single element,
// so the same code lowers scalar and tensor forms of an op.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CONVERSION_TTGTOLLVM_ELEMENTPACKING_H
#define TRITIUM_CONVERSION_TTGTOLLVM_ELEMENTPACKING_H

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallVector.h"

namespace tritium {

/// The elements of `value`: the fields of a struct, or the value itself.
llvm::SmallVector<mlir::Value>
unpackElements(mlir::OpBuilder &builder, mlir::Location loc, mlir::Value value);

/// `elements` as a value of `type`: a struct of them, or (for a non-struct
/// type) the single element.
mlir::Value packElements(mlir::OpBuilder &builder, mlir::Location loc,
                         mlir::Type type, mlir::ValueRange elements);

/// The elements of each of `values`, or, for a value that is a scalar
/// operand of an op whose other operands are tensors (the condition of
/// arith.select, say), `count` copies of it.  `isTensor[i]` says which is
/// which.
llvm::SmallVector<llvm::SmallVector<mlir::Value>>
unpackOperands(mlir::OpBuilder &builder, mlir::Location loc,
               mlir::ValueRange values, llvm::ArrayRef<bool> isTensor,
               int64_t count);

/// `elements` (32 / n bits each: one f32, two f16/bf16, four i8/fp8) as
/// the bits of one i32, element 0 in the low bits: a register operand of
/// a tensor-core instruction.
mlir::Value packToI32(mlir::OpBuilder &builder, mlir::Location loc,
                      llvm::ArrayRef<mlir::Value> elements);

/// The inverse of packToI32 for `count` elements of `elementType`.
llvm::SmallVector<mlir::Value> unpackFromI32(mlir::OpBuilder &builder,
                                             mlir::Location loc,
                                             mlir::Value reg,
                                             mlir::Type elementType,
                                             int64_t count);

} // namespace tritium

#endif // TRITIUM_CONVERSION_TTGTOLLVM_ELEMENTPACKING_H
