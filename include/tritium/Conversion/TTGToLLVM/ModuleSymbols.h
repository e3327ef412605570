//===- ModuleSymbols.h - symbols the lowering adds --------------*- C++ -*-===//
//
// Module-level symbols that lowered code refers to: external functions
// (libdevice's __nv_*, vprintf, __assertfail, extern_elementwise symbols),
// constant strings (printf formats, assert messages) and the kernel's
// dynamic shared memory.  Each is created once, at the top of the module.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CONVERSION_TTGTOLLVM_MODULESYMBOLS_H
#define TRITIUM_CONVERSION_TTGTOLLVM_MODULESYMBOLS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace tritium {

/// The name of the extern array that is the kernel's dynamic shared memory.
inline constexpr llvm::StringLiteral kSharedMemorySymbol = "global_smem";

/// The function `name` of `module`, declared external with `type` if the
/// module has no symbol of that name.  Fails (null) when the module has a
/// symbol `name` that is not an llvm.func of that type.
mlir::LLVM::LLVMFuncOp getOrInsertFunction(mlir::OpBuilder &builder,
                                           mlir::ModuleOp module,
                                           llvm::StringRef name,
                                           mlir::LLVM::LLVMFunctionType type);

/// The address (generic address space) of a NUL-terminated constant copy of
/// `text`, in a global named `<prefix>_<n>`; equal texts share one global.
mlir::Value getOrInsertStringConstant(mlir::OpBuilder &builder,
                                      mlir::Location loc, mlir::ModuleOp module,
                                      llvm::StringRef prefix,
                                      llvm::StringRef text);

/// The base of the kernel's dynamic shared memory, `!llvm.ptr<3>`.
mlir::Value getSharedMemoryBase(mlir::OpBuilder &builder, mlir::Location loc,
                                mlir::ModuleOp module);

} // namespace tritium

#endif // TRITIUM_CONVERSION_TTGTOLLVM_MODULESYMBOLS_H
