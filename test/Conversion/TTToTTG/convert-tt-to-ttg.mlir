// RUN: tritium-opt %s -split-input-file -convert-tt-to-ttg=num-warps=4 -verify-diagnostics | FileCheck %s
// RUN: not tritium-opt %s -split-input-file -convert-tt-to-ttg=num-warps=3 2>&1 | FileCheck %s --check-prefix=BAD-WARPS
// RUN: tritium-opt %s -split-input-file -convert-tt-to-ttg="num-warps=8 threads-per-warp=16 num-ctas=2 target=cuda:80" -verify-diagnostics | FileCheck %s --check-prefix=OPTS

// BAD-WARPS: error: convert-tt-to-ttg: num-warps must be a positive power of two, got 3

// A vector add: every 1-D tensor gets one element per thread, 32 lanes and 4
// warps, and the module records the launch shape.
// CHECK-DAG: #[[B:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}
// CHECK-LABEL: tt.func public @vector_add
// CHECK: %[[R:.*]] = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #[[B]]>
// CHECK: %[[OFFS:.*]] = arith.addi %{{.*}}, %[[R]] : tensor<1024xi32, #[[B]]>
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %[[OFFS]], %{{.*}} : tensor<1024xi32, #[[B]]>
// CHECK: %[[XP:.*]] = tt.addptr %{{.*}}, %[[OFFS]] : tensor<1024x!tt.ptr<f32>, #[[B]]>, tensor<1024xi32, #[[B]]>
// CHECK: %[[X:.*]] = tt.load %[[XP]], %[[MASK]] : tensor<1024x!tt.ptr<f32>, #[[B]]>
// CHECK: %[[Y:.*]] = tt.load
// CHECK: %[[SUM:.*]] = arith.addf %[[X]], %[[Y]] : tensor<1024xf32, #[[B]]>
// CHECK: tt.store %{{.*}}, %[[SUM]], %[[MASK]] : tensor<1024x!tt.ptr<f32>, #[[B]]>
// CHECK-NOT: ttg.convert_layout
// OPTS-DAG: #[[B:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [8], order = [0]}>
// OPTS: module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 16 : i32}
// OPTS-LABEL: tt.func public @vector_add
// OPTS: tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #[[B]]>
tt.func public @vector_add(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %z: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c1024 = arith.constant 1024 : i32
  %pid = tt.get_program_id {axis = 0 : i32} : i32
  %start = arith.muli %pid, %c1024 : i32
  %range = tt.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %starts = tt.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %starts, %range : tensor<1024xi32>
  %ns = tt.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %xv = tt.load %xp, %mask : tensor<1024x!tt.ptr<f32>>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %yp = tt.addptr %ys, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %yv = tt.load %yp, %mask : tensor<1024x!tt.ptr<f32>>
  %sum = arith.addf %xv, %yv : tensor<1024xf32>
  %zs = tt.splat %z : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %zp = tt.addptr %zs, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  tt.store %zp, %sum, %mask : tensor<1024x!tt.ptr<f32>>
  tt.return
}

// -----

// A 32x64 tile: the row and column indices enter expand_dims in the slice of
// its result's layout (converted from the default 1-D layout), and each
// broadcast takes its operand in its result's layout.  The 32x64 default
// puts 32 lanes along the 64 columns, 2 warps along them and 2 down the
// rows; a 32x1 column puts all lanes down the rows.
// CHECK-DAG: #[[B1D:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[COL:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[TILE:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[SCOL:slice[0-9]*]] = #ttg.slice<{dim = 1, parent = #[[COL]]}>
// CHECK-DAG: #[[STILE:slice[0-9]*]] = #ttg.slice<{dim = 0, parent = #[[TILE]]}>
// CHECK-LABEL: tt.func @tile_2d
// CHECK: %[[RM:.*]] = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #[[B1D]]>
// CHECK: %[[RN:.*]] = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #[[B1D]]>
// CHECK: %[[RMS:.*]] = ttg.convert_layout %[[RM]] : tensor<32xi32, #[[B1D]]> -> tensor<32xi32, #[[SCOL]]>
// CHECK: %[[RM2:.*]] = tt.expand_dims %[[RMS]] {axis = 1 : i32} : tensor<32xi32, #[[SCOL]]> -> tensor<32x1xi32, #[[COL]]>
// CHECK: %[[RNS:.*]] = ttg.convert_layout %[[RN]] : tensor<64xi32, #[[B1D]]> -> tensor<64xi32, #[[STILE]]>
// CHECK: %[[RN2:.*]] = tt.expand_dims %[[RNS]] {axis = 0 : i32} : tensor<64xi32, #[[STILE]]> -> tensor<1x64xi32, #[[TILE]]>
// CHECK: %[[ROWS:.*]] = arith.muli %[[RM2]], %{{.*}} : tensor<32x1xi32, #[[COL]]>
// CHECK: %[[ROWST:.*]] = ttg.convert_layout %[[ROWS]] : tensor<32x1xi32, #[[COL]]> -> tensor<32x1xi32, #[[TILE]]>
// CHECK: %[[A:.*]] = tt.broadcast %[[ROWST]] : tensor<32x1xi32, #[[TILE]]> -> tensor<32x64xi32, #[[TILE]]>
// CHECK: %[[B:.*]] = tt.broadcast %[[RN2]] : tensor<1x64xi32, #[[TILE]]> -> tensor<32x64xi32, #[[TILE]]>
// CHECK: arith.addi %[[A]], %[[B]] : tensor<32x64xi32, #[[TILE]]>
// CHECK: tt.load %{{.*}} : tensor<32x64x!tt.ptr<f16>, #[[TILE]]>
tt.func @tile_2d(%p: !tt.ptr<f16>, %stride: i32) -> tensor<32x64xf16> {
  %rm = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %rn = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %ss = tt.splat %stride : i32 -> tensor<32x1xi32>
  %rows = arith.muli %rm2, %ss : tensor<32x1xi32>
  %a = tt.broadcast %rows : tensor<32x1xi32> -> tensor<32x64xi32>
  %b = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %offs = arith.addi %a, %b : tensor<32x64xi32>
  %ps = tt.splat %p : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %ptrs = tt.addptr %ps, %offs : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
  %v = tt.load %ptrs : tensor<32x64x!tt.ptr<f16>>
  tt.return %v : tensor<32x64xf16>
}

// -----

// Values carried by a loop get their layout on the init value, the
// iteration argument, the yield and the result alike.
// CHECK-DAG: #[[B:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @loop_carried
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<128xf32, #[[B]]>
// CHECK: %[[P0:.*]] = tt.addptr %{{.*}} : tensor<128x!tt.ptr<f32>, #[[B]]>, tensor<128xi32, #[[B]]>
// CHECK: %[[RES:.*]]:2 = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]], %[[PTRS:.*]] = %[[P0]]) -> (tensor<128xf32, #[[B]]>, tensor<128x!tt.ptr<f32>, #[[B]]>)
// CHECK: %[[X:.*]] = tt.load %[[PTRS]] : tensor<128x!tt.ptr<f32>, #[[B]]>
// CHECK: %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : tensor<128xf32, #[[B]]>
// CHECK: %[[NEXT:.*]] = tt.addptr %[[PTRS]], %{{.*}} : tensor<128x!tt.ptr<f32>, #[[B]]>, tensor<128xi32, #[[B]]>
// CHECK: scf.yield %[[S]], %[[NEXT]] : tensor<128xf32, #[[B]]>, tensor<128x!tt.ptr<f32>, #[[B]]>
// CHECK: tt.return %[[RES]]#0 : tensor<128xf32, #[[B]]>
tt.func @loop_carried(%p: !tt.ptr<f32>, %n: i32) -> tensor<128xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %step = arith.constant dense<128> : tensor<128xi32>
  %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %p0 = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ptrs = %p0) -> (tensor<128xf32>, tensor<128x!tt.ptr<f32>>) : i32 {
    %x = tt.load %ptrs : tensor<128x!tt.ptr<f32>>
    %s = arith.addf %acc, %x : tensor<128xf32>
    %next = tt.addptr %ptrs, %step : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    scf.yield %s, %next : tensor<128xf32>, tensor<128x!tt.ptr<f32>>
  }
  tt.return %res#0 : tensor<128xf32>
}

// -----

// scf.while converts both regions' arguments, the condition's operands and
// the results.
// CHECK-DAG: #[[B:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @while_loop
// CHECK: %[[R:.*]]:2 = scf.while (%[[ACC:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) : (tensor<64xf32, #[[B]]>, i32) -> (tensor<64xf32, #[[B]]>, i32)
// CHECK: scf.condition(%{{.*}}) %[[ACC]], %{{.*}} : tensor<64xf32, #[[B]]>, i32
// CHECK: ^bb0(%[[A:.*]]: tensor<64xf32, #[[B]]>, %{{.*}}: i32):
// CHECK: %[[S:.*]] = arith.addf %[[A]], %[[A]] : tensor<64xf32, #[[B]]>
// CHECK: scf.yield %[[S]], %{{.*}} : tensor<64xf32, #[[B]]>, i32
// CHECK: tt.return %[[R]]#0 : tensor<64xf32, #[[B]]>
tt.func @while_loop(%x: tensor<64xf32>, %n: i32) -> tensor<64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.while (%acc = %x, %i = %c0) : (tensor<64xf32>, i32) -> (tensor<64xf32>, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %acc, %i : tensor<64xf32>, i32
  } do {
  ^bb0(%a: tensor<64xf32>, %j: i32):
    %s = arith.addf %a, %a : tensor<64xf32>
    %j1 = arith.addi %j, %c1 : i32
    scf.yield %s, %j1 : tensor<64xf32>, i32
  }
  tt.return %r#0 : tensor<64xf32>
}

// -----

// A reduction's result takes the slice of its operand's layout at the
// reduced axis, and is converted where an element-wise op needs the default
// 1-D layout; a rank-1 reduction yields a scalar.
// CHECK-DAG: #[[B1D:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[B2D:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[ROWS:slice[0-9]*]] = #ttg.slice<{dim = 1, parent = #[[B2D]]}>
// CHECK-LABEL: tt.func @reduce
// CHECK: %[[SUM:.*]] = "tt.reduce"(%{{.*}}) <{axis = 1 : i32}> ({
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: }) : (tensor<32x64xf32, #[[B2D]]>) -> tensor<32xf32, #[[ROWS]]>
// CHECK: %[[SUMB:.*]] = ttg.convert_layout %[[SUM]] : tensor<32xf32, #[[ROWS]]> -> tensor<32xf32, #[[B1D]]>
// CHECK: %[[Y:.*]] = arith.addf %[[SUMB]], %{{.*}} : tensor<32xf32, #[[B1D]]>
// CHECK: %[[MAX:.*]] = "tt.reduce"(%[[Y]]) <{axis = 0 : i32}> ({
// CHECK: }) : (tensor<32xf32, #[[B1D]]>) -> f32
// CHECK: tt.return %[[Y]], %[[MAX]] : tensor<32xf32, #[[B1D]]>, f32
tt.func @reduce(%x: tensor<32x64xf32>, %bias: tensor<32xf32>) -> (tensor<32xf32>, f32) {
  %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<32x64xf32>) -> tensor<32xf32>
  %y = arith.addf %s, %bias : tensor<32xf32>
  %m = "tt.reduce"(%y) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.maxnumf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<32xf32>) -> f32
  tt.return %y, %m : tensor<32xf32>, f32
}

// -----

// An scf.if converts its results and both yields.
// CHECK-DAG: #[[B:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @branch
// CHECK-SAME: %[[X:[^:]*]]: tensor<64xi32, #[[B]]>) -> tensor<64xi32, #[[B]]>
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (tensor<64xi32, #[[B]]>) {
// CHECK: %[[Y:.*]] = arith.addi %[[X]], %[[X]] : tensor<64xi32, #[[B]]>
// CHECK: scf.yield %[[Y]] : tensor<64xi32, #[[B]]>
// CHECK: } else {
// CHECK: scf.yield %[[X]] : tensor<64xi32, #[[B]]>
// CHECK: tt.return %[[R]] : tensor<64xi32, #[[B]]>
tt.func @branch(%c: i1, %x: tensor<64xi32>) -> tensor<64xi32> {
  %r = scf.if %c -> tensor<64xi32> {
    %y = arith.addi %x, %x : tensor<64xi32>
    scf.yield %y : tensor<64xi32>
  } else {
    scf.yield %x : tensor<64xi32>
  }
  tt.return %r : tensor<64xi32>
}

// -----

// trans renames the dimensions of its operand's layout (no data moves) and
// join adds an in-thread dimension of size 2; split takes its operand in
// that join layout, here without a conversion.
// CHECK-DAG: #[[SRC:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[TR:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[JOIN:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-LABEL: tt.func @trans_join_split
// CHECK: tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<16x32xf32, #[[SRC]]> -> tensor<32x16xf32, #[[TR]]>
// CHECK: %[[J:.*]] = tt.join %{{.*}}, %{{.*}} : tensor<16x32xf32, #[[SRC]]> -> tensor<16x32x2xf32, #[[JOIN]]>
// CHECK: tt.split %[[J]] : tensor<16x32x2xf32, #[[JOIN]]> -> tensor<16x32xf32, #[[SRC]]>
tt.func @trans_join_split(%x: tensor<16x32xf32>) -> (tensor<32x16xf32>, tensor<16x32xf32>) {
  %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
  %j = tt.join %x, %x : tensor<16x32xf32> -> tensor<16x32x2xf32>
  %a, %b = tt.split %j : tensor<16x32x2xf32> -> tensor<16x32xf32>
  tt.return %t, %a : tensor<32x16xf32>, tensor<16x32xf32>
}

// -----

// Calls convert their callee's signature and their own types; masked
// atomics, scans (with their combine region), reshape and cat are rebuilt
// with default layouts.
// CHECK-DAG: #[[B:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[B2:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func private @helper
// CHECK-SAME: (%{{[^:]*}}: tensor<128xf32, #[[B]]>) -> tensor<128xf32, #[[B]]>
// CHECK-LABEL: tt.func @calls_and_more
// CHECK: %[[R:.*]] = tt.call @helper(%{{.*}}) : (tensor<128xf32, #[[B]]>) -> tensor<128xf32, #[[B]]>
// CHECK: %[[OLD:.*]] = tt.atomic_rmw fadd, acq_rel, gpu, %{{.*}}, %[[R]], %{{.*}} : (tensor<128x!tt.ptr<f32>, #[[B]]>, tensor<128xf32, #[[B]]>, tensor<128xi1, #[[B]]>) -> tensor<128xf32, #[[B]]>
// CHECK: %[[SCAN:.*]] = "tt.scan"(%[[OLD]]) <{axis = 0 : i32, reverse = false}> ({
// CHECK: tt.scan.return %{{.*}} : f32
// CHECK: }) : (tensor<128xf32, #[[B]]>) -> tensor<128xf32, #[[B]]>
// CHECK: %[[FLAT:.*]] = tt.reshape %{{.*}} : tensor<4x32xf32, #[[B2]]> -> tensor<128xf32, #[[B]]>
// CHECK: tt.cat %[[SCAN]], %[[FLAT]] : tensor<128xf32, #[[B]]> -> tensor<256xf32, #[[B]]>
tt.func private @helper(%x: tensor<128xf32>) -> tensor<128xf32> {
  %y = arith.mulf %x, %x : tensor<128xf32>
  tt.return %y : tensor<128xf32>
}
tt.func @calls_and_more(%p: tensor<128x!tt.ptr<f32>>, %v: tensor<128xf32>, %m: tensor<128xi1>, %t: tensor<4x32xf32>) -> (tensor<128xf32>, tensor<256xf32>) {
  %r = tt.call @helper(%v) : (tensor<128xf32>) -> tensor<128xf32>
  %old = tt.atomic_rmw fadd, acq_rel, gpu, %p, %r, %m : (tensor<128x!tt.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> tensor<128xf32>
  %c = "tt.scan"(%old) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.scan.return %s : f32
  }) : (tensor<128xf32>) -> tensor<128xf32>
  %flat = tt.reshape %t : tensor<4x32xf32> -> tensor<128xf32>
  %both = tt.cat %c, %flat : tensor<128xf32> -> tensor<256xf32>
  tt.return %c, %both : tensor<128xf32>, tensor<256xf32>
}

// -----

// A cat of tensors smaller than the CTA (64 elements over 128 threads, each
// element on two threads) gets a result layout with sizePerThread doubled,
// so each thread holds the registers of both operands; users of the result
// get the default layout through a conversion.
// CHECK-DAG: #[[B:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[CAT:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @small_cat
// CHECK: %[[C:.*]] = tt.cat %{{.*}}, %{{.*}} : tensor<64xf32, #[[B]]> -> tensor<128xf32, #[[CAT]]>
// CHECK: ttg.convert_layout %[[C]] : tensor<128xf32, #[[CAT]]> -> tensor<128xf32, #[[B]]>
tt.func @small_cat(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<128xf32> {
  %c = tt.cat %x, %y : tensor<64xf32> -> tensor<128xf32>
  tt.return %c : tensor<128xf32>
}

// -----

// A dot's accumulator takes the dot's blocked layout (16 elements a thread
// here: 4x4 blocks) and its operands the #ttg.dot_op layouts of it (each
// thread holds the rows of A and the columns of B its accumulator elements
// need), converted in; the result is converted back to the default layout.
// CHECK-DAG: #[[DEF:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[C:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[DA:dot_op[0-9]*]] = #ttg.dot_op<{opIdx = 0, parent = #[[C]], kWidth = 1}>
// CHECK-DAG: #[[DB:dot_op[0-9]*]] = #ttg.dot_op<{opIdx = 1, parent = #[[C]], kWidth = 1}>
// CHECK-LABEL: tt.func @dot
// CHECK: %[[A:.*]] = ttg.convert_layout %arg0 : tensor<32x16xf16, #{{.*}}> -> tensor<32x16xf16, #[[DA]]>
// CHECK: %[[B:.*]] = ttg.convert_layout %arg1 : tensor<16x64xf16, #{{.*}}> -> tensor<16x64xf16, #[[DB]]>
// CHECK: %[[ACC:.*]] = ttg.convert_layout %arg2 : tensor<32x64xf32, #[[DEF]]> -> tensor<32x64xf32, #[[C]]>
// CHECK: %[[D:.*]] = tt.dot %[[A]], %[[B]], %[[ACC]] : tensor<32x16xf16, #[[DA]]> * tensor<16x64xf16, #[[DB]]> -> tensor<32x64xf32, #[[C]]>
// CHECK: ttg.convert_layout %[[D]] : tensor<32x64xf32, #[[C]]> -> tensor<32x64xf32, #[[DEF]]>
tt.func @dot(%a: tensor<32x16xf16>, %b: tensor<16x64xf16>, %c: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %d = tt.dot %a, %b, %c : tensor<32x16xf16> * tensor<16x64xf16> -> tensor<32x64xf32>
  tt.return %d : tensor<32x64xf32>
}

// -----

// A block pointer (normally rewritten away before) points to a tile that
// gets the default layout, so loads through it produce that layout.
// CHECK-DAG: #[[B:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @block_pointer
// CHECK: %[[BP:.*]] = tt.make_tensor_ptr %{{.*}} : !tt.ptr<tensor<64x32xf16, #[[B]]>>
// CHECK: tt.load %[[BP]] {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x32xf16, #[[B]]>>
tt.func @block_pointer(%base: !tt.ptr<f16>, %m: i64, %k: i64) -> tensor<64x32xf16> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %bp = tt.make_tensor_ptr %base, [%m, %k], [%k, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x32xf16>>
  %tile = tt.load %bp {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x32xf16>>
  tt.return %tile : tensor<64x32xf16>
}

// -----

// Negative case: a tensor whose dimensions are not powers of two cannot
// carry a layout.
tt.func @odd_shape(%x: f32) {
  // expected-error @below {{'tt.splat' op produces 'tensor<3xf32>', which cannot be given a layout: tensor dimensions must be static powers of two}}
  %s = tt.splat %x : f32 -> tensor<3xf32>
  tt.return
}

// -----

// Negative case: a kernel without tensors is left as it is; only the module
// gains the launch shape.
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}
// CHECK-LABEL: tt.func @scalars_only
// CHECK-NEXT: %[[S:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: tt.store %{{.*}}, %[[S]] : !tt.ptr<i32>
// CHECK-NOT: #ttg
tt.func @scalars_only(%p: !tt.ptr<i32>, %i: i32) {
  %j = arith.addi %i, %i : i32
  tt.store %p, %j : !tt.ptr<i32>
  tt.return
}
