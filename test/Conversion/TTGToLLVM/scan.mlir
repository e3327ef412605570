// RUN: tritium-opt %s -split-input-file -ttg-allocate-shared-memory -convert-ttg-to-llvm -canonicalize -cse | FileCheck %s

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A 1-D add scan over 4 warps, one element per thread: five shfl.sync.up
// steps (deltas 1..16), each combining only in lanes at least delta from the
// warp's start; lane 31 of each warp stores the warp total at scratch[warp]
// (4 x i32 recorded in ttg.shared) with no barrier before it; after one
// barrier every thread loads the totals of warps 0..2 and adds those of the
// warps before it.
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 16 : i32}
// CHECK-LABEL: llvm.func @cumsum_1d
// CHECK-DAG: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[C4:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-DAG: %[[C8:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-DAG: %[[C31:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK: %[[X:.*]] = llvm.extractvalue %arg0[0]
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[S1:.*]] = nvvm.shfl.sync up %{{.*}}, %[[X]], %[[C1]], %{{.*}} : i32 -> i32
// CHECK: %[[IN1:.*]] = llvm.icmp "uge" %[[LANE:.*]], %[[C1]] : i32
// CHECK: %[[SUM1:.*]] = llvm.add %[[S1]], %[[X]] : i32
// CHECK: %[[T1:.*]] = llvm.select %[[IN1]], %[[SUM1]], %[[X]] : i1, i32
// CHECK: nvvm.shfl.sync up %{{.*}}, %[[T1]], %[[C2]]
// CHECK: nvvm.shfl.sync up %{{.*}}, %{{.*}}, %[[C4]]
// CHECK: nvvm.shfl.sync up %{{.*}}, %{{.*}}, %[[C8]]
// CHECK: nvvm.shfl.sync up %{{.*}}, %{{.*}}, %[[C16]]
// CHECK: %[[IN5:.*]] = llvm.icmp "uge" %[[LANE]], %[[C16]] : i32
// CHECK: %[[T5:.*]] = llvm.select %[[IN5]], %{{.*}}, %{{.*}} : i1, i32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: %[[LAST:.*]] = llvm.icmp "eq" %[[LANE]], %[[C31]] : i32
// CHECK: scf.if %[[LAST]] {
// CHECK:   %[[SLOT:.*]] = llvm.getelementptr %[[SMEM]][%[[WARP:.*]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK:   llvm.store %[[T5]], %[[SLOT]] {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK: }
// CHECK: nvvm.barrier0
// CHECK: %[[W0:.*]] = llvm.load %[[SMEM]] {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK-NOT: llvm.load
// CHECK: %[[HAS:.*]] = llvm.icmp "ne" %[[WARP]], %{{.*}} : i32
// CHECK: %[[ADDED:.*]] = llvm.add %{{.*}}, %[[T5]] : i32
// CHECK: llvm.select %[[HAS]], %[[ADDED]], %[[T5]] : i1, i32
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @cumsum_1d(%x: tensor<128xi32, #b>) -> tensor<128xi32, #b> {
    %y = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %c: i32):
      %t = arith.addi %a, %c : i32
      tt.scan.return %t : i32
    }) : (tensor<128xi32, #b>) -> tensor<128xi32, #b>
    tt.return %y : tensor<128xi32, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// Along the rows (axis 1) of a layout whose rows lie within one warp: the
// thread's four registers are scanned in order, the thread total goes
// through three shfl.sync.up steps over the 8 lanes of a row, and one more
// shuffle by one lane brings the total of the lanes before, added to the
// thread's first three registers (the last already holds it).  No shared
// memory, no barrier.
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 0 : i32}
// CHECK-LABEL: llvm.func @rows
// CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[C4:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: %[[R0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[R1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[R2:.*]] = llvm.extractvalue %arg0[2]
// CHECK: %[[R3:.*]] = llvm.extractvalue %arg0[3]
// CHECK: %[[P1:.*]] = llvm.fadd %[[R0]], %[[R1]] : f32
// CHECK: %[[P2:.*]] = llvm.fadd %[[P1]], %[[R2]] : f32
// CHECK: %[[P3:.*]] = llvm.fadd %[[P2]], %[[R3]] : f32
// CHECK: %[[B:.*]] = llvm.bitcast %[[P3]] : f32 to i32
// CHECK: nvvm.shfl.sync up %{{.*}}, %[[B]], %[[C1]]
// CHECK: nvvm.shfl.sync up %{{.*}}, %{{.*}}, %[[C2]]
// CHECK: nvvm.shfl.sync up %{{.*}}, %{{.*}}, %[[C4]]
// CHECK: %[[T:.*]] = llvm.select
// CHECK: %[[TB:.*]] = llvm.bitcast %[[T]] : f32 to i32
// CHECK: %[[E:.*]] = nvvm.shfl.sync up %{{.*}}, %[[TB]], %[[C1]]
// CHECK: %[[EF:.*]] = llvm.bitcast %[[E]] : i32 to f32
// CHECK: llvm.fadd %[[EF]], %[[R0]] : f32
// CHECK: llvm.fadd %[[EF]], %[[P1]] : f32
// CHECK: llvm.fadd %[[EF]], %[[P2]] : f32
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: llvm.store
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.insertvalue %[[T]], %{{.*}}[3]
// CHECK: llvm.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @rows(%x: tensor<16x32xf32, #b>) -> tensor<16x32xf32, #b> {
    %y = "tt.scan"(%x) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%a: f32, %c: f32):
      %t = arith.addf %a, %c : f32
      tt.scan.return %t : f32
    }) : (tensor<16x32xf32, #b>) -> tensor<16x32xf32, #b>
    tt.return %y : tensor<16x32xf32, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// Along the columns (axis 0) of the same layout: lanes 8 and 16 apart are
// neighbours along the axis (lane bits 3 and 4), and the 64 rows are four
// chunks of 4 lanes x 4 warps.  Each of the thread's 4 columns x 4 chunks
// goes through two shuffles; the last lane row of every warp stores its 16
// totals at scratch[column][chunk][warp] (32 x 4 x 4 x i32 = 2048 bytes), and
// after the barrier each thread loads the 15 totals per column that can
// precede one of its elements.
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 2048 : i32}
// CHECK-LABEL: llvm.func @columns
// CHECK-DAG: %[[C8:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NOT: nvvm.barrier0
// CHECK-COUNT-16: nvvm.shfl.sync up %{{.*}}, %{{.*}}, %[[C8]], %{{.*}} : i32 -> i32
// CHECK-NOT: nvvm.barrier0
// CHECK: scf.if
// CHECK-COUNT-16: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK-COUNT-60: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK-NOT: llvm.load
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @columns(%x: tensor<64x32xi32, #b>) -> tensor<64x32xi32, #b> {
    %y = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %c: i32):
      %t = arith.addi %a, %c : i32
      tt.scan.return %t : i32
    }) : (tensor<64x32xi32, #b>) -> tensor<64x32xi32, #b>
    tt.return %y : tensor<64x32xi32, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A reverse scan of two operands (f32 max, i1 or): every step is mirrored:
// shfl.sync.down, one per operand and step (the i1 widened to i32 and
// back), lane 0 of each warp stores the warp totals, the f32 ones at
// scratch[warp] and the i1 ones as bytes 16 bytes further (4 x 4 + 4 x 1
// bytes, the second region aligned to 8: 32 recorded), and each thread
// combines the totals of the warps after it, from warp 3 down.
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 32 : i32}
// CHECK-LABEL: llvm.func @reverse_pair
// CHECK-DAG: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK-NOT: nvvm.shfl.sync up
// CHECK: nvvm.shfl.sync down
// CHECK: llvm.zext %{{.*}} : i1 to i32
// CHECK: nvvm.shfl.sync down
// CHECK: llvm.intr.maximum
// CHECK: llvm.or %{{.*}}, %{{.*}} : i1
// CHECK-COUNT-8: nvvm.shfl.sync down
// CHECK-NOT: nvvm.shfl.sync
// CHECK: %[[BYTES:.*]] = llvm.getelementptr %[[SMEM]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: scf.if
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: %[[BYTE:.*]] = llvm.zext %{{.*}} : i1 to i8
// CHECK: %[[BPTR:.*]] = llvm.getelementptr %[[BYTES]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: llvm.store %[[BYTE]], %[[BPTR]] {alignment = 1 : i64} : i8, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.getelementptr %[[SMEM]][3] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK: llvm.getelementptr %[[BYTES]][3] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: %[[B3:.*]] = llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr<3> -> i8
// CHECK: llvm.trunc %[[B3]] : i8 to i1
// CHECK: llvm.getelementptr %[[SMEM]][2]
// CHECK: llvm.getelementptr %[[SMEM]][1]
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @reverse_pair(%x: tensor<128xf32, #b>, %m: tensor<128xi1, #b>)
      -> (tensor<128xf32, #b>, tensor<128xi1, #b>) {
    %y:2 = "tt.scan"(%x, %m) <{axis = 0 : i32, reverse = true}> ({
    ^bb0(%a: f32, %am: i1, %c: f32, %cm: i1):
      %t = arith.maximumf %a, %c : f32
      %u = arith.ori %am, %cm : i1
      tt.scan.return %t, %u : f32, i1
    }) : (tensor<128xf32, #b>, tensor<128xi1, #b>) -> (tensor<128xf32, #b>, tensor<128xi1, #b>)
    tt.return %y#0, %y#1 : tensor<128xf32, #b>, tensor<128xi1, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// One warp, 256 elements: each thread holds four chunks of two.  Each chunk
// is scanned across the lanes on its own; the chunk totals (last register of
// lane 31, broadcast by shfl.sync.idx) carry into the chunks after them.
// Nothing goes through shared memory.
// CHECK-LABEL: module attributes {"ttg.num-warps" = 1 : i32, ttg.shared = 0 : i32}
// CHECK-LABEL: llvm.func @chunks_in_one_warp
// CHECK-COUNT-24: nvvm.shfl.sync up
// CHECK-COUNT-3: nvvm.shfl.sync idx
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: llvm.store
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @chunks_in_one_warp(%x: tensor<256xi32, #b>) -> tensor<256xi32, #b> {
    %y = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %c: i32):
      %t = arith.muli %a, %c : i32
      tt.scan.return %t : i32
    }) : (tensor<256xi32, #b>) -> tensor<256xi32, #b>
    tt.return %y : tensor<256xi32, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>

// Negative case: a scan along an axis of length 1 is the identity: no
// shuffle, no shared memory.
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 0 : i32}
// CHECK-LABEL: llvm.func @length_one
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: llvm.store
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @length_one(%x: tensor<1x128xi32, #b>) -> tensor<1x128xi32, #b> {
    %y = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %c: i32):
      %t = arith.addi %a, %c : i32
      tt.scan.return %t : i32
    }) : (tensor<1x128xi32, #b>) -> tensor<1x128xi32, #b>
    tt.return %y : tensor<1x128xi32, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>

// Along the columns (axis 0) of a 64x64 tile on 8 warps: each thread holds 8
// columns (lines) in 2 chunks of the axis.  The scratch holds the total of
// (chunk, warp, line) at (chunk * 8 + warp) * 64 + line, the line fastest:
// the last lane of each warp's column group stores at line + warp * 64 (the
// second chunk 512 further), and every thread loads its lines' totals of
// warp w at line + w * 64, so lanes holding different columns touch
// consecutive words.
// CHECK-LABEL: module attributes {"ttg.num-warps" = 8 : i32, ttg.shared = 4096 : i32}
// CHECK-LABEL: llvm.func @columns_of_eight_warps
// CHECK-DAG: %[[C64:.*]] = llvm.mlir.constant(64 : i32) : i32
// CHECK-DAG: %[[C128:.*]] = llvm.mlir.constant(128 : i32) : i32
// CHECK-DAG: %[[C512:.*]] = llvm.mlir.constant(512 : i32) : i32
// CHECK-DAG: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: scf.if
// CHECK:   %[[WOFF:.*]] = llvm.mul %{{.*}}, %[[C64]] : i32
// CHECK:   %[[S0:.*]] = llvm.add %[[LINE:.*]], %[[WOFF]] : i32
// CHECK:   llvm.getelementptr %[[SMEM]][%[[S0]]]
// CHECK:   llvm.store
// CHECK:   %[[L1:.*]] = llvm.add %[[LINE]], %[[C512]] : i32
// CHECK:   %[[S1:.*]] = llvm.add %[[L1]], %[[WOFF]] : i32
// CHECK:   llvm.getelementptr %[[SMEM]][%[[S1]]]
// CHECK: nvvm.barrier0
// CHECK: llvm.getelementptr %[[SMEM]][%[[LINE]]]
// CHECK: llvm.load
// CHECK: %[[W1:.*]] = llvm.add %[[LINE]], %[[C64]] : i32
// CHECK: llvm.getelementptr %[[SMEM]][%[[W1]]]
// CHECK: llvm.load
// CHECK: %[[W2:.*]] = llvm.add %[[LINE]], %[[C128]] : i32
// CHECK: llvm.getelementptr %[[SMEM]][%[[W2]]]
module attributes {"ttg.num-warps" = 8 : i32} {
  tt.func @columns_of_eight_warps(%x: tensor<64x64xf32, #b>) -> tensor<64x64xf32, #b> {
    %y = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %c: f32):
      %t = arith.addf %a, %c : f32
      tt.scan.return %t : f32
    }) : (tensor<64x64xf32, #b>) -> tensor<64x64xf32, #b>
    tt.return %y : tensor<64x64xf32, #b>
  }
}
