//===- CombineRegion.cpp - inlining tt.reduce / tt.scan combiners ----------===//
//
// Clone the combine block's ops with a mapping of its arguments; the
// dialect conversion then lowers the clones (arith, math) like any other
// scalar ops it creates.
//
//===----------------------------------------------------------------------===//
#include "tritium/Conversion/TTGToLLVM/CombineRegion.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace tritium;

SmallVector<Value> tritium::emitCombine(OpBuilder &builder, Location loc,
                                        Region &combine, ValueRange lhs,
                                        ValueRange rhs) {
  Block &block = combine.front();
  assert(block.getNumArguments() == lhs.size() + rhs.size() &&
         "the combiner takes an accumulator and a value per operand");
  IRMapping mapping;
  auto bind = [&](BlockArgument arg, Value value) {
    if (value.getType() != arg.getType())
      value = UnrealizedConversionCastOp::create(builder, loc, arg.getType(),
                                                 value)
                  .getResult(0);
    mapping.map(arg, value);
  };
  for (auto [i, value] : llvm::enumerate(lhs))
    bind(block.getArgument(i), value);
  for (auto [i, value] : llvm::enumerate(rhs))
    bind(block.getArgument(lhs.size() + i), value);
  for (Operation &op : block.without_terminator())
    builder.clone(op, mapping);
  SmallVector<Value> results;
  for (auto [returned, like] :
       llvm::zip(block.getTerminator()->getOperands(), lhs)) {
    Value result = mapping.lookupOrDefault(returned);
    if (result.getType() != like.getType())
      result = UnrealizedConversionCastOp::create(builder, loc, like.getType(),
                                                  result)
                   .getResult(0);
    results.push_back(result);
  }
  return results;
}
