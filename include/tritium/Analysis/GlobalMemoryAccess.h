//===- GlobalMemoryAccess.h - ops that may touch global memory --*- C++ -*-===//
//
// Whether an op may read or write the memory of the kernel's tensors, from
// the memory effects it declares: a read or write of global memory (or of
// an unspecified resource); an op that declares none and is not pure (a
// call, a barrier of the user's) may do anything.  Printing, assertions
// and assumptions (tl.assume) touch no tensor.  The copy engine's accesses
// are not ordered with the threads' own, so the passes that give loads and
// stores to it ask this of the ops around them.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_ANALYSIS_GLOBALMEMORYACCESS_H
#define TRITIUM_ANALYSIS_GLOBALMEMORYACCESS_H

namespace mlir {
class Operation;
} // namespace mlir

namespace tritium {

/// Whether `op` itself may read or (with `writesOnly`) write global memory.
/// An op with regions whose effects are those of the ops inside it
/// (HasRecursiveMemoryEffects) answers no: ask its nested ops.
bool mayAccessGlobalMemory(mlir::Operation *op, bool writesOnly);

/// Whether `op` or an op nested in it may write global memory.
bool mayWriteGlobalMemoryWithin(mlir::Operation *op);

} // namespace tritium

#endif // TRITIUM_ANALYSIS_GLOBALMEMORYACCESS_H
