//===- TTToTTG.h - Triton IR to TritonGPU IR, callable ----------*- C++ -*-===//
//
// The pieces behind convert-tt-to-ttg: the type converter that gives tensors
// their default layout, the patterns that rebuild ops with converted types
// (and related layouts where ops tie layouts together), and the entry point
// the pass wraps.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CONVERSION_TTTOTTG_TTTOTTG_H
#define TRITIUM_CONVERSION_TTTOTTG_TTTOTTG_H

#include "mlir/Transforms/DialectConversion.h"

#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tritium {

/// The launch shape a module is converted for.
struct TTToTTGOptions {
  int numWarps = 4;
  int threadsPerWarp = 32;
  int numCTAs = 1;
  std::string target = "cuda:90";
};

/// Maps a ranked tensor without a layout to the same tensor with the
/// default blocked layout for its shape (ttg::defaultBlockedLayout); every
/// other type, tensors that have a layout included, is legal as it is.
/// Between two layouts of one tensor it materializes ttg.convert_layout.
class TTGTypeConverter : public mlir::TypeConverter {
public:
  TTGTypeConverter(mlir::MLIRContext *context, int numWarps,
                   int threadsPerWarp);

  int getNumWarps() const { return numWarps; }
  int getThreadsPerWarp() const { return threadsPerWarp; }

private:
  int numWarps;
  int threadsPerWarp;
};

/// Marks ops legal once all their types (and, for functions, their
/// signatures and block arguments) have layouts, ttg ops always.
void configureTTToTTGTarget(mlir::ConversionTarget &target,
                            const TTGTypeConverter &converter);

/// Patterns rebuilding any op with converted operand and result types.
void populateGenericTTToTTGPatterns(const TTGTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);

/// Patterns for the ops whose layouts depend on each other: expand_dims,
/// broadcast, trans, join, split.
void populateShapeOpTTToTTGPatterns(const TTGTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);

/// The pattern for tt.dot (operands in the #ttg.dot_op layouts of the
/// blocked accumulator).
void populateDotTTToTTGPatterns(const TTGTypeConverter &converter,
                                mlir::RewritePatternSet &patterns);

/// Patterns for tt.reduce and tt.scan (results in the slice / the layout of
/// the operands; combine regions moved over).
void populateReductionTTToTTGPatterns(const TTGTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);

/// Converts every tensor of `module` and sets the ttg module attributes.
/// Fails (with an error at the offending op) on IR it cannot convert.
mlir::LogicalResult convertTTToTTG(mlir::ModuleOp module,
                                   const TTToTTGOptions &options);

} // namespace tritium

#endif // TRITIUM_CONVERSION_TTTOTTG_TTTOTTG_H
