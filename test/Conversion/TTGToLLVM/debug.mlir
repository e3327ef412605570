// RUN: tritium-opt %s -split-input-file -convert-ttg-to-llvm -canonicalize -cse | FileCheck %s

#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// tt.print calls vprintf once per element a thread holds, with the program
// id, the element's index and the value in a buffer alloca'd once in the
// entry block.  The prefix is part of the format (a '%' in it is doubled);
// floats print as doubles.
// CHECK-DAG: llvm.mlir.global internal constant @[[FMT:printfFormat_[0-9]+]]("pid (%u, %u, %u) idx (%u) x: %i\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[FMTF:printfFormat_[0-9]+]]("pid (%u, %u, %u) f 100%%: %f\0A\00")
// CHECK-DAG: llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
// CHECK-LABEL: llvm.func @print
// CHECK-DAG: %[[F:.*]] = llvm.mlir.addressof @[[FMT]] : !llvm.ptr
// CHECK-DAG: %[[BUF:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i32, i32, i32, i32, i32)> {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK: %[[PIDX:.*]] = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[BUF]][0, 0]
// CHECK: llvm.store %[[PIDX]], %[[SLOT]] : i32, !llvm.ptr
// CHECK: llvm.call @vprintf(%[[F]], %[[BUF]]) : (!llvm.ptr, !llvm.ptr) -> i32
// CHECK: llvm.call @vprintf(%[[F]], %[[BUF]]) : (!llvm.ptr, !llvm.ptr) -> i32
// CHECK: llvm.fpext %{{.*}} : f32 to f64
// CHECK: llvm.call @vprintf
// CHECK-NOT: llvm.call @vprintf
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func public @print(%x: tensor<64xi32, #b>, %f: f32) {
    tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %x : tensor<64xi32, #b>
    tt.print " f 100%: " {hex = false, isSigned = array<i32: 0>} : %f : f32
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// tt.assert calls __assertfail(message, file, line, function, 1) when any
// element the thread holds is false; file and line come from the location.
// CHECK-DAG: llvm.mlir.global internal constant @[[MSG:assertMessage_[0-9]+]]("x out of range\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[FILE:assertFile_[0-9]+]]("kernel.py\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[FUNC:assertFunc_[0-9]+]]("check\00")
// CHECK-DAG: llvm.func @__assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64)
// CHECK-LABEL: llvm.func @check
// CHECK-DAG: %[[LINE:.*]] = llvm.mlir.constant(12 : i32) : i32
// CHECK: %[[N0:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i1
// CHECK: %[[N1:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i1
// CHECK: %[[ANY:.*]] = llvm.or %[[N0]], %[[N1]] : i1
// CHECK: scf.if %[[ANY]] {
// CHECK:   llvm.call @__assertfail(%{{.*}}, %{{.*}}, %[[LINE]], %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64) -> ()
// CHECK: }
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func public @check(%ok: tensor<64xi1, #b>) {
    tt.assert %ok, "x out of range" : tensor<64xi1, #b> loc("kernel.py":12:8)
    tt.return
  }
}
