//===- AllocateSharedMemory.cpp - ttg-allocate-shared-memory --------------===//
//
// Writes the result of the shared-memory Allocation analysis
// (include/tritium/Analysis/Allocation.h) into the module: an
// `allocation.offset` on every op with a buffer and `ttg.shared` on the
// module.  The lowering reads them back.
//
//===----------------------------------------------------------------------===//
#include "tritium/Analysis/Allocation.h"
#include "tritium/Conversion/TTGToLLVM/Passes.h"

namespace tritium {
#define GEN_PASS_DEF_TTGALLOCATESHAREDMEMORYPASS
#include "tritium/Conversion/TTGToLLVM/Passes.h.inc"
} // namespace tritium

namespace {
struct TTGAllocateSharedMemoryPass
    : public tritium::impl::TTGAllocateSharedMemoryPassBase<
          TTGAllocateSharedMemoryPass> {
  void runOnOperation() override {
    tritium::allocateSharedMemory(getOperation());
  }
};
} // namespace
