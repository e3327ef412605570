// RUN: tritium-opt %s -split-input-file -ttg-allocate-shared-memory -convert-ttg-to-llvm -canonicalize -cse | FileCheck %s

#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>

// Rows of four to columns of four: elements change threads, so they go
// through the op's scratch buffer in shared memory.  The bank-conflict model
// pads every 16-element row by 2 (row stride 18, 32 x 18 x 4 bytes recorded
// in ttg.shared) and stores pairs: a plain 16-element row stride would put
// the eight column reads of a load in 4-way conflicts.  Each thread stores
// its row elements as two 8-byte vectors at row * 18 + col (no barrier
// before: ttg-membar places those), a barrier makes them visible, and each
// thread loads its eight column elements one by one.
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 2304 : i32}
// CHECK: llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @rows_to_columns
// CHECK-DAG: %[[C18:.*]] = llvm.mlir.constant(18 : i32) : i32
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[ROW:.*]] = llvm.mul %{{.*}}, %[[C18]] : i32
// CHECK: %[[OFF:.*]] = llvm.add %{{.*}}, %[[ROW]] : i32
// CHECK: %[[PTR:.*]] = llvm.getelementptr %[[SMEM]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: llvm.store %{{.*}}, %[[PTR]] {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK: %[[OFF2:.*]] = llvm.add %{{.*}}, %[[ROW]] : i32
// CHECK: %[[PTR2:.*]] = llvm.getelementptr %[[SMEM]][%[[OFF2]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: llvm.store %{{.*}}, %[[PTR2]] {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: llvm.load
// CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[7] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @rows_to_columns(%x: tensor<32x16xf32, #row>) -> tensor<32x16xf32, #col> {
    %y = ttg.convert_layout %x : tensor<32x16xf32, #row> -> tensor<32x16xf32, #col>
    tt.return %y : tensor<32x16xf32, #col>
  }
}

// -----

#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>

// Booleans are bytes in shared memory: zero-extended on the way in,
// truncated on the way out.
// CHECK-LABEL: llvm.func @booleans
// CHECK: llvm.zext %{{.*}} : i1 to i8
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<4xi8>, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: %[[B:.*]] = llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr<3> -> i8
// CHECK: llvm.trunc %[[B]] : i8 to i1
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @booleans(%m: tensor<32x16xi1, #row>) -> tensor<32x16xi1, #col> {
    %n = ttg.convert_layout %m : tensor<32x16xi1, #row> -> tensor<32x16xi1, #col>
    tt.return %n : tensor<32x16xi1, #col>
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [0, 1]}>

// Layouts that differ only in the order of a thread's own registers need
// no shared memory: registers are renamed (0, 2, 1, 3) and no barrier or
// buffer appears (ttg.shared = 0).
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 0 : i32}
// CHECK-LABEL: llvm.func @registers_only
// CHECK-SAME: (%[[X:.*]]: !llvm.struct<(f32, f32, f32, f32)>)
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[X0:.*]] = llvm.extractvalue %[[X]][0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %[[X]][1]
// CHECK: %[[X2:.*]] = llvm.extractvalue %[[X]][2]
// CHECK: %[[X3:.*]] = llvm.extractvalue %[[X]][3]
// CHECK: %[[Y0:.*]] = llvm.insertvalue %[[X0]], %{{.*}}[0]
// CHECK: %[[Y1:.*]] = llvm.insertvalue %[[X2]], %[[Y0]][1]
// CHECK: %[[Y2:.*]] = llvm.insertvalue %[[X1]], %[[Y1]][2]
// CHECK: llvm.insertvalue %[[X3]], %[[Y2]][3]
// CHECK-NOT: global_smem
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @registers_only(%x: tensor<8x64xf32, #a>) -> tensor<8x64xf32, #b> {
    %y = ttg.convert_layout %x : tensor<8x64xf32, #a> -> tensor<8x64xf32, #b>
    tt.return %y : tensor<8x64xf32, #b>
  }
}

// -----

#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>

// The 64x64 f32 transpose goes through an XOR-swizzled tile with no
// padding (64 x 64 x 4 bytes): 16-byte chunks, phase (row / 4) % 8, so each
// column is row * 64 + (col ^ (((row >> 2) & 7) << 2)).  Stores are eight
// conflict-free 16-byte vectors, loads 32 scalars.
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 16384 : i32}
// CHECK-LABEL: llvm.func @swizzled_transpose
// CHECK-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[C7:.*]] = llvm.mlir.constant(7 : i32) : i32
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[SHR:.*]] = llvm.lshr %[[ROW:.*]], %[[C2]] : i32
// CHECK: %[[PHASE:.*]] = llvm.and %[[SHR]], %[[C7]] : i32
// CHECK: %[[CHUNK:.*]] = llvm.shl %[[PHASE]], %[[C2]] : i32
// CHECK: llvm.xor %{{.*}}, %[[CHUNK]] : i32
// CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK-COUNT-32: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: llvm.load
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @swizzled_transpose(%x: tensor<64x64xf32, #row>) -> tensor<64x64xf32, #col> {
    %y = ttg.convert_layout %x : tensor<64x64xf32, #row> -> tensor<64x64xf32, #col>
    tt.return %y : tensor<64x64xf32, #col>
  }
}

// -----

#rm = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#cm = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [0, 1]}>

// Both layouts give each warp the same four rows of 16x8; only the order of
// the lanes inside a warp changes (lanes run along the row in #rm, down
// the column in #cm).  One shfl.sync.idx per thread reads the element from
// source lane ((lane & 3) << 3) ^ ((lane & 28) >> 2): no shared memory,
// no barrier (ttg.shared = 0).
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 0 : i32}
// CHECK-NOT: global_smem
// CHECK-LABEL: llvm.func @lane_transpose
// CHECK-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-DAG: %[[C28:.*]] = llvm.mlir.constant(28 : i32) : i32
// CHECK-DAG: %[[C31:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[LANE:.*]] = llvm.and %[[TID]], %[[C31]] : i32
// CHECK: %[[HI:.*]] = llvm.and %[[LANE]], %[[C28]] : i32
// CHECK: %[[COL:.*]] = llvm.lshr %[[HI]], %[[C2]] : i32
// CHECK: %[[LO:.*]] = llvm.and %[[LANE]], %[[C3]] : i32
// CHECK: %[[ROW:.*]] = llvm.shl %[[LO]], %[[C3]] : i32
// CHECK: %[[SRCLANE:.*]] = llvm.xor %[[COL]], %[[ROW]] : i32
// CHECK: %[[BITS:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK: %[[MOVED:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[BITS]], %[[SRCLANE]], %[[C31]] : i32 -> i32
// CHECK: llvm.bitcast %[[MOVED]] : i32 to f32
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @lane_transpose(%x: tensor<16x8xf32, #rm>) -> tensor<16x8xf32, #cm> {
    %y = ttg.convert_layout %x : tensor<16x8xf32, #rm> -> tensor<16x8xf32, #cm>
    tt.return %y : tensor<16x8xf32, #cm>
  }
}

// -----

#rm = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#cm = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [0, 1]}>

// The same lane permutation on a 64x8 tile of f64: each thread's four
// registers (the tile repeated down the rows) keep their register index,
// and each 64-bit value moves as two 32-bit shuffles.
// CHECK-LABEL: llvm.func @lane_transpose_f64
// CHECK-COUNT-8: nvvm.shfl.sync idx
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @lane_transpose_f64(%x: tensor<64x8xf64, #rm>) -> tensor<64x8xf64, #cm> {
    %y = ttg.convert_layout %x : tensor<64x8xf64, #rm> -> tensor<64x8xf64, #cm>
    tt.return %y : tensor<64x8xf64, #cm>
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [0, 1]}>

// No element changes warps here either, but column 1 is a register bit of
// #a and a lane bit of #b: one destination register comes from register 0
// in even lanes and register 1 in odd lanes.  Each thread selects what it
// sends (by its lane's parity) before each shuffle and what it keeps after
// it: two shuffles and four selects, no shared memory (Triton's rule).
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 0 : i32}
// CHECK-LABEL: llvm.func @lane_from_register
// CHECK-NOT: llvm.store
// CHECK-COUNT-2: nvvm.shfl.sync idx
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: llvm.store
// CHECK-NOT: nvvm.barrier0
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @lane_from_register(%x: tensor<32x8xf16, #a>) -> tensor<32x8xf16, #b> {
    %y = ttg.convert_layout %x : tensor<32x8xf16, #a> -> tensor<32x8xf16, #b>
    tt.return %y : tensor<32x8xf16, #b>
  }
}

// -----

// fp8 probabilities from wgmma's accumulator to the register A operand of
// the next wgmma (kWidth 4): 64 elements a thread, moved as 16 words of
// four (column bit 0 and row bit 3 stay in the thread in both layouts), one
// shuffle a word, no shared memory.
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
#dot = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 0 : i32}
// CHECK-LABEL: llvm.func @fp8_accumulator_to_operand_in_words
// CHECK-NOT: llvm.store
// CHECK-COUNT-16: nvvm.shfl.sync idx {{.*}} : i32 -> i32
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @fp8_accumulator_to_operand_in_words(%x: tensor<128x64xf8E4M3FN, #mma>) -> tensor<128x64xf8E4M3FN, #dot> {
    %y = ttg.convert_layout %x : tensor<128x64xf8E4M3FN, #mma> -> tensor<128x64xf8E4M3FN, #dot>
    tt.return %y : tensor<128x64xf8E4M3FN, #dot>
  }
}

// -----

// A 256 x 256 int32 tile (256 KiB) is more than shared memory holds.  Both
// layouts repeat along rows in registers, so the conversion runs in two
// parts of 128 rows through a 128 KiB scratch: store, barrier, load,
// barrier, store, barrier, load, each part moving half of every thread's
// 512 registers.
#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 131072 : i32}
// CHECK-LABEL: llvm.func @in_two_parts
// CHECK-COUNT-256: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier
// CHECK-NOT: nvvm.barrier
// CHECK-COUNT-256: llvm.load {{.*}} !llvm.ptr<3> -> i32
// CHECK-NOT: llvm.load
// CHECK: nvvm.barrier
// CHECK-COUNT-256: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier
// CHECK-COUNT-256: llvm.load {{.*}} !llvm.ptr<3> -> i32
// CHECK-NOT: nvvm.barrier
// CHECK: llvm.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @in_two_parts(%x: tensor<256x256xi32, #row>) -> tensor<256x256xi32, #col> {
    %y = ttg.convert_layout %x : tensor<256x256xi32, #row> -> tensor<256x256xi32, #col>
    tt.return %y : tensor<256x256xi32, #col>
  }
}
