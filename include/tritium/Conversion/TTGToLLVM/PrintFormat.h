//===- PrintFormat.h - printf formats of tt.print and tt.assert -*- C++ -*-===//
//
// What the GPU lowering of tt.print / tt.assert (DebugOpToLLVM.cpp, vprintf
// and __assertfail) and the CPU target's (DebugOpsToHost.cpp, printf and
// the runtime's failure function) share: the format of a printed value,
// and the file and line an assertion reports.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CONVERSION_TTGTOLLVM_PRINTFORMAT_H
#define TRITIUM_CONVERSION_TTGTOLLVM_PRINTFORMAT_H

#include "mlir/IR/Builders.h"

#include <string>
#include <utility>

namespace tritium {

/// `text` with '%' doubled, for use inside a printf format.
std::string escapePercent(llvm::StringRef text);

/// The printf conversion of `value` (an LLVM-typed element whose Triton
/// element type is `type`), and the value as a variadic argument: floats as
/// double (%f), integers of under 32 bits widened (sign-extended when
/// `isSigned`), %i / %u / %lli / %llu by width and signedness, 0x%x /
/// 0x%llx with `hex`, pointers with %p.
std::pair<std::string, mlir::Value> formatPrintedValue(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                                                       mlir::Type type, bool hex, bool isSigned);

/// The file and line of `loc`, looking through call sites and fusions
/// ("unknown", 0 when it has none).
std::pair<std::string, int> fileAndLine(mlir::Location loc);

} // namespace tritium

#endif // TRITIUM_CONVERSION_TTGTOLLVM_PRINTFORMAT_H
