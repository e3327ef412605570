//===- Membar.cpp - barriers between shared-memory accesses ---------------===//
//
// (being written)
//
//===----------------------------------------------------------------------===//
