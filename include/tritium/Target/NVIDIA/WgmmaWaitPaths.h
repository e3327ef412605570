//===- WgmmaWaitPaths.h - wgmma waits on the paths MMAs run on --*- C++ -*-===//
//
// A wgmma.wait_group after a loop whose warp-group MMAs run asynchronously
// takes the loop's accumulators; once LLVM has rotated the loop, the block
// of the wait joins the loop's exit with the path that skips the loop,
// where the accumulators are their initial constants.  ptxas then sees
// registers of an MMA in flight set by other instructions before the wait
// and serializes every wgmma of the kernel (performance note C7515).  On a
// path where every value the wait takes is a constant no MMA writes them:
// the wait is needed only on the other paths.  Each such wait moves to the
// end of its block's other predecessors (their edges split where needed),
// and the values it returned become phis of the waited and the constant
// values.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_NVIDIA_WGMMAWAITPATHS_H
#define TRITIUM_TARGET_NVIDIA_WGMMAWAITPATHS_H

namespace llvm {
class Module;
} // namespace llvm

namespace tritium::nvidia {

/// Moves each wgmma.wait_group whose operands are phis of its block, and
/// constants on some of its incoming paths, onto the other paths (see the
/// file comment).  Returns the number of waits moved.
unsigned waitOnlyOnMmaPaths(llvm::Module &module);

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_WGMMAWAITPATHS_H
