// RUN: tritium-opt %s -split-input-file -ttg-allocate-shared-memory -convert-ttg-to-llvm -canonicalize -cse | FileCheck %s

#blk = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>

// A gather along the rows goes through a row-major copy of the source in
// the op's scratch (32 x 8 x 4 bytes): each thread stores its pair of
// source elements as one 8-byte vector, a barrier makes them visible, and
// each result register loads src[idx & 31][col] at idx * 8 + col.
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 1024 : i32}
// CHECK-LABEL: llvm.func @gather_rows
// CHECK-SAME: (%[[SRC:.*]]: !llvm.struct<(f32, f32)>, %[[IDX:.*]]: !llvm.struct<(i32, i32)>)
// CHECK-DAG: %[[C8:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-DAG: %[[C31:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK-DAG: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK-DAG: %[[I0:.*]] = llvm.extractvalue %[[IDX]][0]
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK: %[[ROW:.*]] = llvm.and %[[I0]], %[[C31]] : i32
// CHECK: %[[ROWOFF:.*]] = llvm.mul %[[ROW]], %[[C8]] : i32
// CHECK: %[[OFF:.*]] = llvm.add %{{.*}}, %[[ROWOFF]] : i32
// CHECK: %[[PTR:.*]] = llvm.getelementptr %[[SMEM]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: llvm.load %[[PTR]] {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: llvm.load
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @gather_rows(%src: tensor<32x8xf32, #blk>, %idx: tensor<32x8xi32, #blk>) -> tensor<32x8xf32, #blk> {
    %g = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<32x8xf32, #blk>, tensor<32x8xi32, #blk>) -> tensor<32x8xf32, #blk>
    tt.return %g : tensor<32x8xf32, #blk>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Booleans are gathered as bytes, and 64-bit indices are truncated before
// they are masked to the source's 128 elements.
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 128 : i32}
// CHECK-LABEL: llvm.func @gather_bool_i64
// CHECK: llvm.zext %{{.*}} : i1 to i8
// CHECK: llvm.store %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: %[[T:.*]] = llvm.trunc %{{.*}} : i64 to i32
// CHECK: %[[I:.*]] = llvm.and %[[T]], %{{.*}} : i32
// CHECK: %[[P:.*]] = llvm.getelementptr %{{.*}}[%[[I]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: %[[V:.*]] = llvm.load %[[P]] {alignment = 1 : i64} : !llvm.ptr<3> -> i8
// CHECK: llvm.trunc %[[V]] : i8 to i1
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @gather_bool_i64(%src: tensor<128xi1, #b>, %idx: tensor<128xi64, #b>) -> tensor<128xi1, #b> {
    %g = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<128xi1, #b>, tensor<128xi64, #b>) -> tensor<128xi1, #b>
    tt.return %g : tensor<128xi1, #b>
  }
}

// -----

#l = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A 16-bin histogram of 512 values: 16 u32 counters in scratch (64
// bytes).  Threads zero the bins of their result elements, a barrier, one
// shared-memory atomic per input register guarded by 0 <= x < 16 (an
// unsigned compare; the address is masked so it stays in the bins), a
// barrier, and each thread reads the bin of its result register.  Every
// element is held by one thread, so no other guard appears.
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 64 : i32}
// CHECK-LABEL: llvm.func @histogram_16
// CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-DAG: %[[C15:.*]] = llvm.mlir.constant(15 : i32) : i32
// CHECK-DAG: %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[BIN:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK: llvm.store %[[C0]], %[[BIN]] {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK: %[[X0:.*]] = llvm.extractvalue %{{.*}}[0]
// CHECK: %[[IN:.*]] = llvm.icmp "ult" %[[X0]], %[[C16]] : i32
// CHECK: %[[SLOT:.*]] = llvm.and %[[X0]], %[[C15]] : i32
// CHECK: %[[PTR:.*]] = llvm.getelementptr %{{.*}}[%[[SLOT]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$0 red.shared.add.u32 [ $1 + 0 ], 1;", "b,l" %[[IN]], %[[PTR]] : (i1, !llvm.ptr<3>) -> ()
// CHECK-COUNT-3: red.shared.add.u32
// CHECK-NOT: red.shared.add.u32
// CHECK: nvvm.barrier0
// CHECK: %[[COUNT:.*]] = llvm.load %[[BIN]] {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK: llvm.insertvalue %[[COUNT]]
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @histogram_16(%x: tensor<512xi32, #l>) -> tensor<16xi32, #b> {
    %h = tt.histogram %x : tensor<512xi32, #l> -> tensor<16xi32, #b>
    tt.return %h : tensor<16xi32, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// 64 i8 values over 128 threads: warps 2 and 3 hold the elements of warps
// 0 and 1 again, so only threads with warp bit 1 clear count (each element
// once).  Narrow values are sign-extended: negative ones are never below
// the bin count as unsigned numbers.
// CHECK-LABEL: llvm.func @histogram_duplicates
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[WARP:.*]] = llvm.lshr %[[TID]]
// CHECK: nvvm.barrier0
// CHECK: %[[BIT:.*]] = llvm.and %[[WARP]], %{{.*}} : i32
// CHECK: %[[UNIQUE:.*]] = llvm.icmp "eq" %[[BIT]], %{{.*}} : i32
// CHECK: %[[X:.*]] = llvm.sext %{{.*}} : i8 to i32
// CHECK: %[[IN:.*]] = llvm.icmp "ult" %[[X]], %{{.*}} : i32
// CHECK: %[[P:.*]] = llvm.and %[[IN]], %[[UNIQUE]] : i1
// CHECK: llvm.inline_asm has_side_effects {{.*}}red.shared.add.u32{{.*}} %[[P]], %{{.*}} : (i1, !llvm.ptr<3>) -> ()
// CHECK-NOT: red.shared.add.u32
// CHECK: nvvm.barrier0
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @histogram_duplicates(%x: tensor<64xi8, #b>) -> tensor<8xi32, #b> {
    %h = tt.histogram %x : tensor<64xi8, #b> -> tensor<8xi32, #b>
    tt.return %h : tensor<8xi32, #b>
  }
}
