//===- TensorMapFences.h - tensor maps made in a row share fences -*- C++ -*-===//
//
// A tensor map made in the kernel (tt.make_tensor_descriptor) is written by
// one thread and then fenced: released to the tensor-map proxy and acquired
// there, both at GPU scope.  Maps made one after another need one release
// for all of them: ttg-lower-tensor-descriptors first moves the maps of a
// block whose operands are ready earlier up to the block's first map, then
// marks each map of such a run but the last with this attribute and
// acquires it after the last (ttg.fence_tensormap_acquire); the lowering
// writes a marked map without fences, and the last map's release covers
// the writes of the whole run.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_DIALECT_TTG_TENSORMAPFENCES_H
#define TRITIUM_DIALECT_TTG_TENSORMAPFENCES_H

#include "llvm/ADT/StringRef.h"

namespace tritium::ttg {

/// Unit attribute of a tt.make_tensor_descriptor whose map a later map's
/// release fence releases and a ttg.fence_tensormap_acquire acquires.
inline constexpr llvm::StringLiteral kTensorMapFencesDeferredAttrName =
    "ttg.tensormap_fences_deferred";

} // namespace tritium::ttg

#endif // TRITIUM_DIALECT_TTG_TENSORMAPFENCES_H
