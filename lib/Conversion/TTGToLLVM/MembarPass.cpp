//===- MembarPass.cpp - ttg-membar ----------------------------------------===//
//
// Inserts the ttg.barrier ops between racing shared-memory accesses that the
// Membar analysis (include/tritium/Analysis/Membar.h) finds, after
// ttg-allocate-shared-memory has placed the buffers.
//
//===----------------------------------------------------------------------===//
#include "tritium/Analysis/Membar.h"
#include "tritium/Conversion/TTGToLLVM/Passes.h"

namespace tritium {
#define GEN_PASS_DEF_TTGMEMBARPASS
#include "tritium/Conversion/TTGToLLVM/Passes.h.inc"
} // namespace tritium

namespace {
struct TTGMembarPass
    : public tritium::impl::TTGMembarPassBase<TTGMembarPass> {
  void runOnOperation() override {
    tritium::insertSharedMemoryBarriers(getOperation());
  }
};
} // namespace
