// RUN: tritium-opt %s -convert-ttg-to-llvm | FileCheck %s

// Program ids are the CTA's coordinates in the grid (%ctaid), the number of
// programs the grid's size (%nctaid), per axis.
// CHECK-LABEL: llvm.func @ids
// CHECK: %[[X:.*]] = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK: %[[Y:.*]] = nvvm.read.ptx.sreg.ctaid.y : i32
// CHECK: %[[Z:.*]] = nvvm.read.ptx.sreg.ctaid.z : i32
// CHECK: %[[NX:.*]] = nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK: %[[NY:.*]] = nvvm.read.ptx.sreg.nctaid.y : i32
// CHECK: %[[NZ:.*]] = nvvm.read.ptx.sreg.nctaid.z : i32
// CHECK: llvm.add %[[X]], %[[NZ]] : i32
// CHECK-NOT: tt.
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @ids() -> i32 {
    %x = tt.get_program_id {axis = 0 : i32} : i32
    %y = tt.get_program_id {axis = 1 : i32} : i32
    %z = tt.get_program_id {axis = 2 : i32} : i32
    %nx = tt.get_num_programs {axis = 0 : i32} : i32
    %ny = tt.get_num_programs {axis = 1 : i32} : i32
    %nz = tt.get_num_programs {axis = 2 : i32} : i32
    %s = arith.addi %x, %nz : i32
    tt.return %s : i32
  }
}
