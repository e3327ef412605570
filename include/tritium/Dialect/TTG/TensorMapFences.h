//===- TensorMapFences.h - tensor maps made in a row share fences -*- C++ -*-===//
//
// A tensor map made in the kernel (tt.make_tensor_descriptor) is encoded by
// one thread, copied to global memory and released to the tensor-map proxy
// by its warp (tensormap.cp_fenceproxy), then acquired there, at GPU scope.
// Maps made one after another are acquired after the last of them:
// ttg-lower-tensor-descriptors first moves the maps of a block whose
// operands are ready earlier up to the block's first map, then marks each
// map of such a run but the last with this attribute and acquires it after
// the last (ttg.fence_tensormap_acquire); the lowering makes a marked map
// without its acquire, so the run's copies and releases go out back to
// back.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_DIALECT_TTG_TENSORMAPFENCES_H
#define TRITIUM_DIALECT_TTG_TENSORMAPFENCES_H

#include "llvm/ADT/StringRef.h"

namespace tritium::ttg {

/// Unit attribute of a tt.make_tensor_descriptor whose map a
/// ttg.fence_tensormap_acquire after a later map acquires.
inline constexpr llvm::StringLiteral kTensorMapFencesDeferredAttrName =
    "ttg.tensormap_fences_deferred";

} // namespace tritium::ttg

#endif // TRITIUM_DIALECT_TTG_TENSORMAPFENCES_H
