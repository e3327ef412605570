// REQUIRES: ptxas
// RUN: tritium-translate %s -split-input-file --emit=ptxas-info --arch=90 | FileCheck %s
// RUN: not tritium-translate %s -split-input-file --emit=ptxas-info --arch=90 --ptxas=/nonexistent/ptxas 2>&1 | FileCheck %s --check-prefix=MISSING

// ptxas assembles the PTX; its -v report is read per kernel: registers and
// static shared memory (a 4 KB .shared array here).

// CHECK: kernel stage_through_shared: registers {{[1-9][0-9]*}}, spill stores 0, spill loads 0, stack 0, smem 4096, barriers 1
// CHECK: cubin bytes: {{[1-9][0-9]*}}
// MISSING: error: ptxas at '/nonexistent/ptxas' does not exist or is not executable
module {
  llvm.mlir.global internal @buffer() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<1024 x f32>
  llvm.func @stage_through_shared(%x: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %smem = llvm.mlir.addressof @buffer : !llvm.ptr<3>
    %p = llvm.getelementptr %x[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %s = llvm.getelementptr %smem[%tid] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
    %v = llvm.load %p : !llvm.ptr<1> -> f32
    llvm.store %v, %s : f32, !llvm.ptr<3>
    nvvm.barrier0
    %w = llvm.load %smem : !llvm.ptr<3> -> f32
    llvm.store %w, %p : f32, !llvm.ptr<1>
    llvm.return
  }
}
