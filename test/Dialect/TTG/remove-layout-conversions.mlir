// RUN: tritium-opt %s -split-input-file -ttg-remove-layout-conversions | FileCheck %s

// A chain of conversions folds into one, and a conversion to the layout a
// value already has disappears.
// CHECK-DAG: #[[A:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[C:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @fold_chains
// CHECK-SAME: (%[[X:[^:]*]]: tensor<512xf32, #[[A]]>
// CHECK-NEXT: %[[Y:.*]] = ttg.convert_layout %[[X]] : tensor<512xf32, #[[A]]> -> tensor<512xf32, #[[C]]>
// CHECK-NEXT: tt.return %[[Y]], %[[X]] : tensor<512xf32, #[[C]]>, tensor<512xf32, #[[A]]>
#a = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fold_chains(%x: tensor<512xf32, #a>) -> (tensor<512xf32, #c>, tensor<512xf32, #a>) {
    %0 = ttg.convert_layout %x : tensor<512xf32, #a> -> tensor<512xf32, #b>
    %1 = ttg.convert_layout %0 : tensor<512xf32, #b> -> tensor<512xf32, #c>
    %2 = ttg.convert_layout %x : tensor<512xf32, #a> -> tensor<512xf32, #a>
    tt.return %1, %2 : tensor<512xf32, #c>, tensor<512xf32, #a>
  }
}

// -----

// x * sigmoid(x) + y: the element-wise ops and their constants take the
// layout of the loads that feed them, so the conversions around them go and
// the result is already in the store's layout.
// CHECK-DAG: #[[V4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @silu_add
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[X:.*]] = tt.load %{{.*}} : tensor<512x!tt.ptr<f32>, #[[V4]]>
// CHECK: %[[Y:.*]] = tt.load %{{.*}} : tensor<512x!tt.ptr<f32>, #[[V4]]>
// CHECK-DAG: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<512xf32, #[[V4]]>
// CHECK-DAG: %[[NEG:.*]] = arith.negf %[[X]] : tensor<512xf32, #[[V4]]>
// CHECK: %[[E:.*]] = math.exp %[[NEG]] : tensor<512xf32, #[[V4]]>
// CHECK: %[[DEN:.*]] = arith.addf %[[ONE]], %[[E]] : tensor<512xf32, #[[V4]]>
// CHECK: %[[SIG:.*]] = arith.divf %[[ONE]], %[[DEN]] : tensor<512xf32, #[[V4]]>
// CHECK: %[[SILU:.*]] = arith.mulf %[[X]], %[[SIG]] : tensor<512xf32, #[[V4]]>
// CHECK: %[[OUT:.*]] = arith.addf %[[SILU]], %[[Y]] : tensor<512xf32, #[[V4]]>
// CHECK: tt.store %{{.*}}, %[[OUT]] : tensor<512x!tt.ptr<f32>, #[[V4]]>
// CHECK-NOT: ttg.convert_layout
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @silu_add(%px: tensor<512x!tt.ptr<f32>, #v4>, %py: tensor<512x!tt.ptr<f32>, #v4>, %pz: tensor<512x!tt.ptr<f32>, #v4>) {
    %x4 = tt.load %px : tensor<512x!tt.ptr<f32>, #v4>
    %x = ttg.convert_layout %x4 : tensor<512xf32, #v4> -> tensor<512xf32, #b1>
    %y4 = tt.load %py : tensor<512x!tt.ptr<f32>, #v4>
    %y = ttg.convert_layout %y4 : tensor<512xf32, #v4> -> tensor<512xf32, #b1>
    %one = arith.constant dense<1.0> : tensor<512xf32, #b1>
    %neg = arith.negf %x : tensor<512xf32, #b1>
    %e = math.exp %neg : tensor<512xf32, #b1>
    %den = arith.addf %one, %e : tensor<512xf32, #b1>
    %sig = arith.divf %one, %den : tensor<512xf32, #b1>
    %silu = arith.mulf %x, %sig : tensor<512xf32, #b1>
    %out = arith.addf %silu, %y : tensor<512xf32, #b1>
    %out4 = ttg.convert_layout %out : tensor<512xf32, #b1> -> tensor<512xf32, #v4>
    tt.store %pz, %out4 : tensor<512x!tt.ptr<f32>, #v4>
    tt.return
  }
}

// -----

// The index arithmetic behind a load's pointers and mask (splat, make_range,
// add, compare, addptr, constants) takes the layout the load needs.
// CHECK-DAG: #[[V4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @index_math_backward
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[R:.*]] = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #[[V4]]>
// CHECK: %[[OFFS:.*]] = arith.addi %{{.*}}, %[[R]] : tensor<512xi32, #[[V4]]>
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %[[OFFS]], %{{.*}} : tensor<512xi32, #[[V4]]>
// CHECK: %[[PTRS:.*]] = tt.addptr %{{.*}}, %[[OFFS]] : tensor<512x!tt.ptr<f32>, #[[V4]]>, tensor<512xi32, #[[V4]]>
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<512xf32, #[[V4]]>
// CHECK: tt.load %[[PTRS]], %[[MASK]], %[[ZERO]] : tensor<512x!tt.ptr<f32>, #[[V4]]>
// CHECK-NOT: ttg.convert_layout
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @index_math_backward(%p: !tt.ptr<f32>, %start: i32, %n: i32) -> tensor<512xf32, #v4> {
    %r = tt.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #b1>
    %s = tt.splat %start : i32 -> tensor<512xi32, #b1>
    %offs = arith.addi %s, %r : tensor<512xi32, #b1>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #b1>
    %mask = arith.cmpi slt, %offs, %ns : tensor<512xi32, #b1>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b1>
    %ptrs = tt.addptr %ps, %offs : tensor<512x!tt.ptr<f32>, #b1>, tensor<512xi32, #b1>
    %zero = arith.constant dense<0.0> : tensor<512xf32, #b1>
    %ptrs4 = ttg.convert_layout %ptrs : tensor<512x!tt.ptr<f32>, #b1> -> tensor<512x!tt.ptr<f32>, #v4>
    %mask4 = ttg.convert_layout %mask : tensor<512xi1, #b1> -> tensor<512xi1, #v4>
    %zero4 = ttg.convert_layout %zero : tensor<512xf32, #b1> -> tensor<512xf32, #v4>
    %v = tt.load %ptrs4, %mask4, %zero4 : tensor<512x!tt.ptr<f32>, #v4>
    tt.return %v : tensor<512xf32, #v4>
  }
}

// -----

// In two dimensions the layout reaches the 1-D ranges through broadcast and
// expand_dims, as slices of the 2-D layout: a masked 2-D copy needs no
// conversion at all.
// CHECK-DAG: #[[TILE:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[ROWS:slice[0-9]*]] = #ttg.slice<{dim = 1, parent = #[[TILE]]}>
// CHECK-DAG: #[[COLS:slice[0-9]*]] = #ttg.slice<{dim = 0, parent = #[[TILE]]}>
// CHECK-LABEL: tt.func @masked_copy_2d
// CHECK-NOT: ttg.convert_layout
// CHECK-DAG: tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #[[ROWS]]>
// CHECK-DAG: tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #[[COLS]]>
// CHECK: %[[V:.*]] = tt.load %{{.*}}, %[[MASK:.*]] : tensor<64x64x!tt.ptr<f16>, #[[TILE]]>
// CHECK: tt.store %{{.*}}, %[[V]], %[[MASK]] : tensor<64x64x!tt.ptr<f16>, #[[TILE]]>
// CHECK-NOT: ttg.convert_layout
#d1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#tile = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#v8 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @masked_copy_2d(%src: !tt.ptr<f16>, %dst: !tt.ptr<f16>, %m: i32, %n: i32) {
    %rm = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #d1>
    %rn = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #d1>
    %rm1 = ttg.convert_layout %rm : tensor<64xi32, #d1> -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #col}>>
    %i = tt.expand_dims %rm1 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #col}>> -> tensor<64x1xi32, #col>
    %rn1 = ttg.convert_layout %rn : tensor<64xi32, #d1> -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #tile}>>
    %j = tt.expand_dims %rn1 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #tile}>> -> tensor<1x64xi32, #tile>
    %ns = tt.splat %n : i32 -> tensor<64x1xi32, #col>
    %ms = tt.splat %m : i32 -> tensor<64x1xi32, #col>
    %nr = tt.splat %n : i32 -> tensor<1x64xi32, #tile>
    %rowoff = arith.muli %i, %ns : tensor<64x1xi32, #col>
    %rowoff1 = ttg.convert_layout %rowoff : tensor<64x1xi32, #col> -> tensor<64x1xi32, #tile>
    %a = tt.broadcast %rowoff1 : tensor<64x1xi32, #tile> -> tensor<64x64xi32, #tile>
    %b = tt.broadcast %j : tensor<1x64xi32, #tile> -> tensor<64x64xi32, #tile>
    %offs = arith.addi %a, %b : tensor<64x64xi32, #tile>
    %mi = arith.cmpi slt, %i, %ms : tensor<64x1xi32, #col>
    %mj = arith.cmpi slt, %j, %nr : tensor<1x64xi32, #tile>
    %mi1 = ttg.convert_layout %mi : tensor<64x1xi1, #col> -> tensor<64x1xi1, #tile>
    %mib = tt.broadcast %mi1 : tensor<64x1xi1, #tile> -> tensor<64x64xi1, #tile>
    %mjb = tt.broadcast %mj : tensor<1x64xi1, #tile> -> tensor<64x64xi1, #tile>
    %mask = arith.andi %mib, %mjb : tensor<64x64xi1, #tile>
    %ss = tt.splat %src : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #tile>
    %sp = tt.addptr %ss, %offs : tensor<64x64x!tt.ptr<f16>, #tile>, tensor<64x64xi32, #tile>
    %sp8 = ttg.convert_layout %sp : tensor<64x64x!tt.ptr<f16>, #tile> -> tensor<64x64x!tt.ptr<f16>, #v8>
    %mask8 = ttg.convert_layout %mask : tensor<64x64xi1, #tile> -> tensor<64x64xi1, #v8>
    %v8 = tt.load %sp8, %mask8 : tensor<64x64x!tt.ptr<f16>, #v8>
    %v = ttg.convert_layout %v8 : tensor<64x64xf16, #v8> -> tensor<64x64xf16, #tile>
    %ds = tt.splat %dst : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #tile>
    %dp = tt.addptr %ds, %offs : tensor<64x64x!tt.ptr<f16>, #tile>, tensor<64x64xi32, #tile>
    %dp8 = ttg.convert_layout %dp : tensor<64x64x!tt.ptr<f16>, #tile> -> tensor<64x64x!tt.ptr<f16>, #v8>
    %vs8 = ttg.convert_layout %v : tensor<64x64xf16, #tile> -> tensor<64x64xf16, #v8>
    %mask8s = ttg.convert_layout %mask : tensor<64x64xi1, #tile> -> tensor<64x64xi1, #v8>
    tt.store %dp8, %vs8, %mask8s : tensor<64x64x!tt.ptr<f16>, #v8>
    tt.return
  }
}

// -----

// Values carried by scf.for follow the load inside the loop: the
// accumulator, its initial constant, the pointers and the loop results all
// take the load's layout, and the store after the loop needs no conversion.
// CHECK-DAG: #[[V4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @loop_carried
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<512xf32, #[[V4]]>
// CHECK: %[[RES:.*]]:2 = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]], %[[PTRS:.*]] = %{{.*}}) -> (tensor<512xf32, #[[V4]]>, tensor<512x!tt.ptr<f32>, #[[V4]]>)
// CHECK: %[[X:.*]] = tt.load %[[PTRS]] : tensor<512x!tt.ptr<f32>, #[[V4]]>
// CHECK: %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : tensor<512xf32, #[[V4]]>
// CHECK: %[[NEXT:.*]] = tt.addptr %[[PTRS]], %{{.*}} : tensor<512x!tt.ptr<f32>, #[[V4]]>, tensor<512xi32, #[[V4]]>
// CHECK: scf.yield %[[S]], %[[NEXT]] : tensor<512xf32, #[[V4]]>, tensor<512x!tt.ptr<f32>, #[[V4]]>
// CHECK: tt.store %{{.*}}, %[[RES]]#0 : tensor<512x!tt.ptr<f32>, #[[V4]]>
// CHECK-NOT: ttg.convert_layout
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @loop_carried(%p: !tt.ptr<f32>, %out: tensor<512x!tt.ptr<f32>, #v4>, %k: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<512xf32, #b1>
    %step = arith.constant dense<512> : tensor<512xi32, #b1>
    %r = tt.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #b1>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b1>
    %p0 = tt.addptr %ps, %r : tensor<512x!tt.ptr<f32>, #b1>, tensor<512xi32, #b1>
    %res:2 = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zero, %ptrs = %p0) -> (tensor<512xf32, #b1>, tensor<512x!tt.ptr<f32>, #b1>) : i32 {
      %ptrs4 = ttg.convert_layout %ptrs : tensor<512x!tt.ptr<f32>, #b1> -> tensor<512x!tt.ptr<f32>, #v4>
      %x4 = tt.load %ptrs4 : tensor<512x!tt.ptr<f32>, #v4>
      %x = ttg.convert_layout %x4 : tensor<512xf32, #v4> -> tensor<512xf32, #b1>
      %s = arith.addf %acc, %x : tensor<512xf32, #b1>
      %next = tt.addptr %ptrs, %step : tensor<512x!tt.ptr<f32>, #b1>, tensor<512xi32, #b1>
      scf.yield %s, %next : tensor<512xf32, #b1>, tensor<512x!tt.ptr<f32>, #b1>
    }
    %sum4 = ttg.convert_layout %res#0 : tensor<512xf32, #b1> -> tensor<512xf32, #v4>
    tt.store %out, %sum4 : tensor<512x!tt.ptr<f32>, #v4>
    tt.return
  }
}

// -----

// The same holds for the values an scf.while carries through its two
// regions.
// CHECK-DAG: #[[V4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @while_carried
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<512xf32, #[[V4]]>
// CHECK: %[[RES:.*]]:2 = scf.while (%[[ACC:.*]] = %[[ZERO]], %{{.*}} = %{{.*}}) : (tensor<512xf32, #[[V4]]>, i32) -> (tensor<512xf32, #[[V4]]>, i32)
// CHECK: scf.condition(%{{.*}}) %[[ACC]], %{{.*}} : tensor<512xf32, #[[V4]]>, i32
// CHECK: ^bb0(%[[A:.*]]: tensor<512xf32, #[[V4]]>, %{{.*}}: i32):
// CHECK: %[[X:.*]] = tt.load %{{.*}} : tensor<512x!tt.ptr<f32>, #[[V4]]>
// CHECK: %[[S:.*]] = arith.addf %[[A]], %[[X]] : tensor<512xf32, #[[V4]]>
// CHECK: scf.yield %[[S]], %{{.*}} : tensor<512xf32, #[[V4]]>, i32
// CHECK: tt.store %{{.*}}, %[[RES]]#0 : tensor<512x!tt.ptr<f32>, #[[V4]]>
// CHECK-NOT: ttg.convert_layout
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @while_carried(%p: tensor<512x!tt.ptr<f32>, #v4>, %n: i32) {
    %zero = arith.constant dense<0.0> : tensor<512xf32, #b1>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %res:2 = scf.while (%acc = %zero, %i = %c0) : (tensor<512xf32, #b1>, i32) -> (tensor<512xf32, #b1>, i32) {
      %go = arith.cmpi slt, %i, %n : i32
      scf.condition(%go) %acc, %i : tensor<512xf32, #b1>, i32
    } do {
    ^bb0(%a: tensor<512xf32, #b1>, %j: i32):
      %x4 = tt.load %p : tensor<512x!tt.ptr<f32>, #v4>
      %x = ttg.convert_layout %x4 : tensor<512xf32, #v4> -> tensor<512xf32, #b1>
      %s = arith.addf %a, %x : tensor<512xf32, #b1>
      %j1 = arith.addi %j, %c1 : i32
      scf.yield %s, %j1 : tensor<512xf32, #b1>, i32
    }
    %sum4 = ttg.convert_layout %res#0 : tensor<512xf32, #b1> -> tensor<512xf32, #v4>
    tt.store %p, %sum4 : tensor<512x!tt.ptr<f32>, #v4>
    tt.return
  }
}

// -----

// A reduction follows its operand's layout, and its result becomes the
// slice of that layout.  The conversion the return needs then moves up the
// element-wise op to the reduction's result (same cost, nearer its source).
// CHECK-DAG: #[[V4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[ROWS:slice[0-9]*]] = #ttg.slice<{dim = 1, parent = #[[V4]]}>
// CHECK-LABEL: tt.func @reduce_follows
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[X:.*]] = tt.load %{{.*}} : tensor<32x32x!tt.ptr<f32>, #[[V4]]>
// CHECK: %[[SUM:.*]] = "tt.reduce"(%[[X]]) <{axis = 1 : i32}>
// CHECK: }) : (tensor<32x32xf32, #[[V4]]>) -> tensor<32xf32, #[[ROWS]]>
// CHECK: %[[C:.*]] = ttg.convert_layout %[[SUM]] : tensor<32xf32, #[[ROWS]]> -> tensor<32xf32, #[[B1:blocked[0-9]*]]>
// CHECK: %[[Y:.*]] = arith.mulf %[[C]], %[[C]] : tensor<32xf32, #[[B1]]>
// CHECK: tt.return %[[Y]]
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#v4 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reduce_follows(%p: tensor<32x32x!tt.ptr<f32>, #v4>) -> tensor<32xf32, #b1> {
    %x4 = tt.load %p : tensor<32x32x!tt.ptr<f32>, #v4>
    %x = ttg.convert_layout %x4 : tensor<32x32xf32, #v4> -> tensor<32x32xf32, #b2>
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<32x32xf32, #b2>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #b2}>>
    %y = arith.mulf %s, %s : tensor<32xf32, #ttg.slice<{dim = 1, parent = #b2}>>
    %r = ttg.convert_layout %y : tensor<32xf32, #ttg.slice<{dim = 1, parent = #b2}>> -> tensor<32xf32, #b1>
    tt.return %r : tensor<32xf32, #b1>
  }
}

// -----

// Negative case: a transpose loads a column-major tile and stores it
// row-major.  The data must change threads once, so exactly one conversion
// stays, between the load and the store; the index ranges and the mask both
// accesses share are recomputed in each access's layout instead of being
// converted.
// CHECK-DAG: #[[COLMAJOR:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[ROWMAJOR:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @transpose_keeps_one
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[V:.*]] = tt.load %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f32>, #[[COLMAJOR]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[VR:.*]] = ttg.convert_layout %[[V]] : tensor<64x64xf32, #[[COLMAJOR]]> -> tensor<64x64xf32, #[[ROWMAJOR]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store %{{.*}}, %[[VR]], %{{.*}} : tensor<64x64x!tt.ptr<f32>, #[[ROWMAJOR]]>
// CHECK-NOT: ttg.convert_layout
#tile = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#rows = #ttg.slice<{dim = 1, parent = #tile}>
#cols = #ttg.slice<{dim = 0, parent = #tile}>
#colmajor = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#rowmajor = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @transpose_keeps_one(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %m: i32, %n: i32) {
    %rm = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #rows>
    %rn = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #cols>
    %i = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32, #rows> -> tensor<64x1xi32, #tile>
    %j = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #tile>
    %ms = tt.splat %m : i32 -> tensor<64x1xi32, #tile>
    %mr = tt.splat %m : i32 -> tensor<1x64xi32, #tile>
    %ns = tt.splat %n : i32 -> tensor<64x1xi32, #tile>
    %nr = tt.splat %n : i32 -> tensor<1x64xi32, #tile>
    %mi = arith.cmpi slt, %i, %ms : tensor<64x1xi32, #tile>
    %mj = arith.cmpi slt, %j, %nr : tensor<1x64xi32, #tile>
    %mib = tt.broadcast %mi : tensor<64x1xi1, #tile> -> tensor<64x64xi1, #tile>
    %mjb = tt.broadcast %mj : tensor<1x64xi1, #tile> -> tensor<64x64xi1, #tile>
    %mask = arith.andi %mib, %mjb : tensor<64x64xi1, #tile>
    %jm = arith.muli %j, %mr : tensor<1x64xi32, #tile>
    %ib = tt.broadcast %i : tensor<64x1xi32, #tile> -> tensor<64x64xi32, #tile>
    %jmb = tt.broadcast %jm : tensor<1x64xi32, #tile> -> tensor<64x64xi32, #tile>
    %inoff = arith.addi %ib, %jmb : tensor<64x64xi32, #tile>
    %in_ = arith.muli %i, %ns : tensor<64x1xi32, #tile>
    %inb = tt.broadcast %in_ : tensor<64x1xi32, #tile> -> tensor<64x64xi32, #tile>
    %jb = tt.broadcast %j : tensor<1x64xi32, #tile> -> tensor<64x64xi32, #tile>
    %outoff = arith.addi %inb, %jb : tensor<64x64xi32, #tile>
    %inbase = tt.splat %in : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #tile>
    %inp = tt.addptr %inbase, %inoff : tensor<64x64x!tt.ptr<f32>, #tile>, tensor<64x64xi32, #tile>
    %inpc = ttg.convert_layout %inp : tensor<64x64x!tt.ptr<f32>, #tile> -> tensor<64x64x!tt.ptr<f32>, #colmajor>
    %maskc = ttg.convert_layout %mask : tensor<64x64xi1, #tile> -> tensor<64x64xi1, #colmajor>
    %vc = tt.load %inpc, %maskc : tensor<64x64x!tt.ptr<f32>, #colmajor>
    %v = ttg.convert_layout %vc : tensor<64x64xf32, #colmajor> -> tensor<64x64xf32, #tile>
    %outbase = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #tile>
    %outp = tt.addptr %outbase, %outoff : tensor<64x64x!tt.ptr<f32>, #tile>, tensor<64x64xi32, #tile>
    %outpr = ttg.convert_layout %outp : tensor<64x64x!tt.ptr<f32>, #tile> -> tensor<64x64x!tt.ptr<f32>, #rowmajor>
    %vr = ttg.convert_layout %v : tensor<64x64xf32, #tile> -> tensor<64x64xf32, #rowmajor>
    %maskr = ttg.convert_layout %mask : tensor<64x64xi1, #tile> -> tensor<64x64xi1, #rowmajor>
    tt.store %outpr, %vr, %maskr : tensor<64x64x!tt.ptr<f32>, #rowmajor>
    tt.return
  }
}

// -----

// Negative case: a conversion between two ops that fix their layouts (a
// load and a function return) stays, since neither side can move.
// CHECK-LABEL: tt.func @anchored_both_sides
// CHECK: %[[X:.*]] = tt.load
// CHECK: %[[Y:.*]] = ttg.convert_layout %[[X]]
// CHECK: tt.return %[[Y]]
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @anchored_both_sides(%p: tensor<512x!tt.ptr<f32>, #v4>) -> tensor<512xf32, #b1> {
    %x = tt.load %p : tensor<512x!tt.ptr<f32>, #v4>
    %y = ttg.convert_layout %x : tensor<512xf32, #v4> -> tensor<512xf32, #b1>
    tt.return %y : tensor<512xf32, #b1>
  }
}

// -----

// Softmax over the rows of a tile: x - max(x) and e / sum(e) go through
// reduce -> expand_dims -> broadcast -> element-wise op with the operand.
// The reductions take the load's layout, their results its slices, and the
// whole chain needs no conversion.
// CHECK-DAG: #[[V:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[ROWS:slice[0-9]*]] = #ttg.slice<{dim = 1, parent = #[[V]]}>
// CHECK-LABEL: tt.func @softmax_rows
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[X:.*]] = tt.load %{{.*}} : tensor<64x128x!tt.ptr<f32>, #[[V]]>
// CHECK: %[[M:.*]] = "tt.reduce"(%[[X]]) <{axis = 1 : i32}>
// CHECK: arith.maxnumf %{{.*}}, %{{.*}} : f32
// CHECK: }) : (tensor<64x128xf32, #[[V]]>) -> tensor<64xf32, #[[ROWS]]>
// CHECK: %[[ME:.*]] = tt.expand_dims %[[M]] {axis = 1 : i32} : tensor<64xf32, #[[ROWS]]> -> tensor<64x1xf32, #[[V]]>
// CHECK: %[[MB:.*]] = tt.broadcast %[[ME]] : tensor<64x1xf32, #[[V]]> -> tensor<64x128xf32, #[[V]]>
// CHECK: %[[Y:.*]] = arith.subf %[[X]], %[[MB]] : tensor<64x128xf32, #[[V]]>
// CHECK: %[[E:.*]] = math.exp %[[Y]] : tensor<64x128xf32, #[[V]]>
// CHECK: %[[S:.*]] = "tt.reduce"(%[[E]]) <{axis = 1 : i32}>
// CHECK: }) : (tensor<64x128xf32, #[[V]]>) -> tensor<64xf32, #[[ROWS]]>
// CHECK: %[[SE:.*]] = tt.expand_dims %[[S]] {axis = 1 : i32} : tensor<64xf32, #[[ROWS]]> -> tensor<64x1xf32, #[[V]]>
// CHECK: %[[SB:.*]] = tt.broadcast %[[SE]] : tensor<64x1xf32, #[[V]]> -> tensor<64x128xf32, #[[V]]>
// CHECK: %[[Z:.*]] = arith.divf %[[E]], %[[SB]] : tensor<64x128xf32, #[[V]]>
// CHECK: tt.store %{{.*}}, %[[Z]] : tensor<64x128x!tt.ptr<f32>, #[[V]]>
// CHECK-NOT: ttg.convert_layout
#d = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#v = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @softmax_rows(%p: tensor<64x128x!tt.ptr<f32>, #v>, %q: tensor<64x128x!tt.ptr<f32>, #v>) {
    %x4 = tt.load %p : tensor<64x128x!tt.ptr<f32>, #v>
    %x = ttg.convert_layout %x4 : tensor<64x128xf32, #v> -> tensor<64x128xf32, #d>
    %m = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.maxnumf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<64x128xf32, #d>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #d}>>
    %me = tt.expand_dims %m {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #d}>> -> tensor<64x1xf32, #d>
    %mb = tt.broadcast %me : tensor<64x1xf32, #d> -> tensor<64x128xf32, #d>
    %y = arith.subf %x, %mb : tensor<64x128xf32, #d>
    %e = math.exp %y : tensor<64x128xf32, #d>
    %s = "tt.reduce"(%e) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<64x128xf32, #d>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #d}>>
    %se = tt.expand_dims %s {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #d}>> -> tensor<64x1xf32, #d>
    %sb = tt.broadcast %se : tensor<64x1xf32, #d> -> tensor<64x128xf32, #d>
    %z = arith.divf %e, %sb : tensor<64x128xf32, #d>
    %z4 = ttg.convert_layout %z : tensor<64x128xf32, #d> -> tensor<64x128xf32, #v>
    tt.store %q, %z4 : tensor<64x128x!tt.ptr<f32>, #v>
    tt.return
  }
}

// -----

// Reductions along both axes of one tile, each broadcast back over the
// other axis: x - max(x, 1)[:, None] + sum(x, 0)[None, :].  Both results
// are slices (dim 1 and dim 0) of the load's layout; no conversion.
// CHECK-DAG: #[[V:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[ROWS:slice[0-9]*]] = #ttg.slice<{dim = 1, parent = #[[V]]}>
// CHECK-DAG: #[[COLS:slice[0-9]*]] = #ttg.slice<{dim = 0, parent = #[[V]]}>
// CHECK-LABEL: tt.func @reduce_both_axes
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[X:.*]] = tt.load %{{.*}} : tensor<64x128x!tt.ptr<f32>, #[[V]]>
// CHECK: %[[M:.*]] = "tt.reduce"(%[[X]]) <{axis = 1 : i32}>
// CHECK: }) : (tensor<64x128xf32, #[[V]]>) -> tensor<64xf32, #[[ROWS]]>
// CHECK: %[[S:.*]] = "tt.reduce"(%[[X]]) <{axis = 0 : i32}>
// CHECK: }) : (tensor<64x128xf32, #[[V]]>) -> tensor<128xf32, #[[COLS]]>
// CHECK-DAG: tt.expand_dims %[[M]] {axis = 1 : i32} : tensor<64xf32, #[[ROWS]]> -> tensor<64x1xf32, #[[V]]>
// CHECK-DAG: tt.expand_dims %[[S]] {axis = 0 : i32} : tensor<128xf32, #[[COLS]]> -> tensor<1x128xf32, #[[V]]>
// CHECK: %[[Z:.*]] = arith.addf %{{.*}}, %{{.*}} : tensor<64x128xf32, #[[V]]>
// CHECK: tt.store %{{.*}}, %[[Z]] : tensor<64x128x!tt.ptr<f32>, #[[V]]>
// CHECK-NOT: ttg.convert_layout
#d = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#v = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reduce_both_axes(%p: tensor<64x128x!tt.ptr<f32>, #v>, %q: tensor<64x128x!tt.ptr<f32>, #v>) {
    %x4 = tt.load %p : tensor<64x128x!tt.ptr<f32>, #v>
    %x = ttg.convert_layout %x4 : tensor<64x128xf32, #v> -> tensor<64x128xf32, #d>
    %m = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.maxnumf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<64x128xf32, #d>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #d}>>
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<64x128xf32, #d>) -> tensor<128xf32, #ttg.slice<{dim = 0, parent = #d}>>
    %me = tt.expand_dims %m {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #d}>> -> tensor<64x1xf32, #d>
    %mb = tt.broadcast %me : tensor<64x1xf32, #d> -> tensor<64x128xf32, #d>
    %se = tt.expand_dims %s {axis = 0 : i32} : tensor<128xf32, #ttg.slice<{dim = 0, parent = #d}>> -> tensor<1x128xf32, #d>
    %sb = tt.broadcast %se : tensor<1x128xf32, #d> -> tensor<64x128xf32, #d>
    %y = arith.subf %x, %mb : tensor<64x128xf32, #d>
    %z = arith.addf %y, %sb : tensor<64x128xf32, #d>
    %z4 = ttg.convert_layout %z : tensor<64x128xf32, #d> -> tensor<64x128xf32, #v>
    tt.store %q, %z4 : tensor<64x128x!tt.ptr<f32>, #v>
    tt.return
  }
}

// -----

// The other direction: the layout a reduction's result must have (here the
// return's slice of #v) decides the layout of its operand, and through
// broadcast and expand_dims that of the range it reduces.
// CHECK-DAG: #[[V:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[ROWS:slice[0-9]*]] = #ttg.slice<{dim = 1, parent = #[[V]]}>
// CHECK-DAG: #[[COLS:slice[0-9]*]] = #ttg.slice<{dim = 0, parent = #[[V]]}>
// CHECK-LABEL: tt.func @reduce_result_decides
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #[[COLS]]>
// CHECK: %[[X:.*]] = arith.muli %{{.*}}, %{{.*}} : tensor<64x128xi32, #[[V]]>
// CHECK: %[[S:.*]] = "tt.reduce"(%[[X]]) <{axis = 1 : i32}>
// CHECK: }) : (tensor<64x128xi32, #[[V]]>) -> tensor<64xi32, #[[ROWS]]>
// CHECK: tt.return %[[S]] : tensor<64xi32, #[[ROWS]]>
#d = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#v = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reduce_result_decides(%n: i32) -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #v}>> {
    %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #d}>>
    %re = tt.expand_dims %r {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #d}>> -> tensor<1x128xi32, #d>
    %rb = tt.broadcast %re : tensor<1x128xi32, #d> -> tensor<64x128xi32, #d>
    %ns = tt.splat %n : i32 -> tensor<64x128xi32, #d>
    %x = arith.muli %rb, %ns : tensor<64x128xi32, #d>
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tt.reduce.return %t : i32
    }) : (tensor<64x128xi32, #d>) -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #d}>>
    %s4 = ttg.convert_layout %s : tensor<64xi32, #ttg.slice<{dim = 1, parent = #d}>> -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #v}>>
    tt.return %s4 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #v}>>
  }
}

// -----

// A reduction with two operands (an argmax over values and their indices)
// is rebuilt in its new layout as a whole: both operands and both results
// change, the scalar combine region stays as it is.
// CHECK-DAG: #[[V:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[ROWS:slice[0-9]*]] = #ttg.slice<{dim = 1, parent = #[[V]]}>
// CHECK-LABEL: tt.func @argmax_two_operands
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[X:.*]] = tt.load %{{.*}} : tensor<64x128x!tt.ptr<f32>, #[[V]]>
// CHECK: %[[I:.*]] = tt.broadcast %{{.*}} : tensor<1x128xi32, #[[V]]> -> tensor<64x128xi32, #[[V]]>
// CHECK: %[[M:.*]]:2 = "tt.reduce"(%[[X]], %[[I]]) <{axis = 1 : i32}>
// CHECK: arith.cmpf ogt
// CHECK: tt.reduce.return %{{.*}}, %{{.*}} : f32, i32
// CHECK: }) : (tensor<64x128xf32, #[[V]]>, tensor<64x128xi32, #[[V]]>) -> (tensor<64xf32, #[[ROWS]]>, tensor<64xi32, #[[ROWS]]>)
// CHECK: tt.expand_dims %[[M]]#1 {axis = 1 : i32} : tensor<64xi32, #[[ROWS]]> -> tensor<64x1xi32, #[[V]]>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<64x128x!tt.ptr<i32>, #[[V]]>
// CHECK-NOT: ttg.convert_layout
#d = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#v = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @argmax_two_operands(%p: tensor<64x128x!tt.ptr<f32>, #v>, %q: tensor<64x128x!tt.ptr<i32>, #v>) {
    %x4 = tt.load %p : tensor<64x128x!tt.ptr<f32>, #v>
    %x = ttg.convert_layout %x4 : tensor<64x128xf32, #v> -> tensor<64x128xf32, #d>
    %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #d}>>
    %re = tt.expand_dims %r {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #d}>> -> tensor<1x128xi32, #d>
    %i = tt.broadcast %re : tensor<1x128xi32, #d> -> tensor<64x128xi32, #d>
    %m:2 = "tt.reduce"(%x, %i) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf ogt, %a, %b : f32
      %v = arith.select %gt, %a, %b : f32
      %vi = arith.select %gt, %ai, %bi : i32
      tt.reduce.return %v, %vi : f32, i32
    }) : (tensor<64x128xf32, #d>, tensor<64x128xi32, #d>) -> (tensor<64xf32, #ttg.slice<{dim = 1, parent = #d}>>, tensor<64xi32, #ttg.slice<{dim = 1, parent = #d}>>)
    %me = tt.expand_dims %m#1 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #d}>> -> tensor<64x1xi32, #d>
    %mb = tt.broadcast %me : tensor<64x1xi32, #d> -> tensor<64x128xi32, #d>
    %hit = arith.subi %i, %mb : tensor<64x128xi32, #d>
    %h4 = ttg.convert_layout %hit : tensor<64x128xi32, #d> -> tensor<64x128xi32, #v>
    tt.store %q, %h4 : tensor<64x128x!tt.ptr<i32>, #v>
    tt.return
  }
}

// -----

// A scan keeps its operand's layout: a cumulative sum between a load and a
// store takes their layout and needs no conversion.
// CHECK-DAG: #[[V4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @scan_follows
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[X:.*]] = tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK: %[[C:.*]] = "tt.scan"(%[[X]]) <{axis = 0 : i32, reverse = false}>
// CHECK: }) : (tensor<1024xf32, #[[V4]]>) -> tensor<1024xf32, #[[V4]]>
// CHECK: tt.store %{{.*}}, %[[C]] : tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK-NOT: ttg.convert_layout
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scan_follows(%p: tensor<1024x!tt.ptr<f32>, #v4>, %q: tensor<1024x!tt.ptr<f32>, #v4>) {
    %x4 = tt.load %p : tensor<1024x!tt.ptr<f32>, #v4>
    %x = ttg.convert_layout %x4 : tensor<1024xf32, #v4> -> tensor<1024xf32, #b1>
    %c = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.scan.return %t : f32
    }) : (tensor<1024xf32, #b1>) -> tensor<1024xf32, #b1>
    %c4 = ttg.convert_layout %c : tensor<1024xf32, #b1> -> tensor<1024xf32, #v4>
    tt.store %q, %c4 : tensor<1024x!tt.ptr<f32>, #v4>
    tt.return
  }
}

// -----

// scf.if: both branches yield in the layout of the load one of them makes,
// the constant of the other branch included; the store after needs no
// conversion.
// CHECK-DAG: #[[V4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @if_yields
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (tensor<1024xf32, #[[V4]]>)
// CHECK: %[[X:.*]] = tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK: scf.yield %[[X]] : tensor<1024xf32, #[[V4]]>
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<1024xf32, #[[V4]]>
// CHECK: scf.yield %[[Z]] : tensor<1024xf32, #[[V4]]>
// CHECK: tt.store %{{.*}}, %[[R]] : tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK-NOT: ttg.convert_layout
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @if_yields(%p: tensor<1024x!tt.ptr<f32>, #v4>, %q: tensor<1024x!tt.ptr<f32>, #v4>, %c: i1) {
    %r = scf.if %c -> (tensor<1024xf32, #b1>) {
      %x4 = tt.load %p : tensor<1024x!tt.ptr<f32>, #v4>
      %x = ttg.convert_layout %x4 : tensor<1024xf32, #v4> -> tensor<1024xf32, #b1>
      scf.yield %x : tensor<1024xf32, #b1>
    } else {
      %z = arith.constant dense<0.0> : tensor<1024xf32, #b1>
      scf.yield %z : tensor<1024xf32, #b1>
    }
    %r4 = ttg.convert_layout %r : tensor<1024xf32, #b1> -> tensor<1024xf32, #v4>
    tt.store %q, %r4 : tensor<1024x!tt.ptr<f32>, #v4>
    tt.return
  }
}

// -----

// Layer norm's shape: a loop carries a tensor accumulator of converted
// fp16 loads, the accumulator is reduced after the loop, and a second loop
// normalizes with the result.  Accumulator, loop results, reduction operand
// and all element-wise ops take the loads' layout; no conversion.
// CHECK-DAG: #[[V8:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @layer_norm_loops
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<1024xf32, #[[V8]]>
// CHECK: %[[ACC:.*]] = scf.for %{{.*}} iter_args(%[[A:.*]] = %[[ZERO]]) -> (tensor<1024xf32, #[[V8]]>)
// CHECK: %[[X:.*]] = tt.load %{{.*}} : tensor<1024x!tt.ptr<f16>, #[[V8]]>
// CHECK: %[[W:.*]] = arith.extf %[[X]] : tensor<1024xf16, #[[V8]]> to tensor<1024xf32, #[[V8]]>
// CHECK: %[[S:.*]] = arith.addf %[[A]], %[[W]] : tensor<1024xf32, #[[V8]]>
// CHECK: scf.yield %[[S]] : tensor<1024xf32, #[[V8]]>
// CHECK: "tt.reduce"(%[[ACC]]) <{axis = 0 : i32}>
// CHECK: }) : (tensor<1024xf32, #[[V8]]>) -> f32
// CHECK: %[[MEANS:.*]] = tt.splat %{{.*}} : f32 -> tensor<1024xf32, #[[V8]]>
// CHECK: scf.for
// CHECK: arith.subf %{{.*}}, %[[MEANS]] : tensor<1024xf32, #[[V8]]>
// CHECK: %[[Y:.*]] = arith.truncf %{{.*}} : tensor<1024xf32, #[[V8]]> to tensor<1024xf16, #[[V8]]>
// CHECK: tt.store %{{.*}}, %[[Y]] : tensor<1024x!tt.ptr<f16>, #[[V8]]>
// CHECK-NOT: ttg.convert_layout
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v8 = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @layer_norm_loops(%px: tensor<1024x!tt.ptr<f16>, #v8>, %py: tensor<1024x!tt.ptr<f16>, #v8>, %n: i32, %nf: f32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<1024xf32, #b1>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<1024xf32, #b1>) : i32 {
      %x8 = tt.load %px : tensor<1024x!tt.ptr<f16>, #v8>
      %x16 = ttg.convert_layout %x8 : tensor<1024xf16, #v8> -> tensor<1024xf16, #b1>
      %x = arith.extf %x16 : tensor<1024xf16, #b1> to tensor<1024xf32, #b1>
      %s = arith.addf %a, %x : tensor<1024xf32, #b1>
      scf.yield %s : tensor<1024xf32, #b1>
    }
    %sum = "tt.reduce"(%acc) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      tt.reduce.return %t : f32
    }) : (tensor<1024xf32, #b1>) -> f32
    %mean = arith.divf %sum, %nf : f32
    %means = tt.splat %mean : f32 -> tensor<1024xf32, #b1>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x8 = tt.load %px : tensor<1024x!tt.ptr<f16>, #v8>
      %x16 = ttg.convert_layout %x8 : tensor<1024xf16, #v8> -> tensor<1024xf16, #b1>
      %x = arith.extf %x16 : tensor<1024xf16, #b1> to tensor<1024xf32, #b1>
      %d = arith.subf %x, %means : tensor<1024xf32, #b1>
      %y = arith.truncf %d : tensor<1024xf32, #b1> to tensor<1024xf16, #b1>
      %y8 = ttg.convert_layout %y : tensor<1024xf16, #b1> -> tensor<1024xf16, #v8>
      tt.store %py, %y8 : tensor<1024x!tt.ptr<f16>, #v8>
    }
    tt.return
  }
}

// -----

// Hoisting: an fp16 load is widened and scaled, then stored as fp32 in
// another layout.  The conversion moves up the element-wise chain to right
// after the load, where it moves half the bytes.
// CHECK-DAG: #[[V8:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[V4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @hoist_above_extf
// CHECK: %[[X:.*]] = tt.load %{{.*}} : tensor<1024x!tt.ptr<f16>, #[[V8]]>
// CHECK-NEXT: %[[XC:.*]] = ttg.convert_layout %[[X]] : tensor<1024xf16, #[[V8]]> -> tensor<1024xf16, #[[V4]]>
// CHECK-NEXT: %[[W:.*]] = arith.extf %[[XC]] : tensor<1024xf16, #[[V4]]> to tensor<1024xf32, #[[V4]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[Y:.*]] = arith.mulf %[[W]], %{{.*}} : tensor<1024xf32, #[[V4]]>
// CHECK: tt.store %{{.*}}, %[[Y]] : tensor<1024x!tt.ptr<f32>, #[[V4]]>
#v8 = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @hoist_above_extf(%p: tensor<1024x!tt.ptr<f16>, #v8>, %q: tensor<1024x!tt.ptr<f32>, #v4>) {
    %x = tt.load %p : tensor<1024x!tt.ptr<f16>, #v8>
    %w = arith.extf %x : tensor<1024xf16, #v8> to tensor<1024xf32, #v8>
    %two = arith.constant dense<2.0> : tensor<1024xf32, #v8>
    %y = arith.mulf %w, %two : tensor<1024xf32, #v8>
    %y4 = ttg.convert_layout %y : tensor<1024xf32, #v8> -> tensor<1024xf32, #v4>
    tt.store %q, %y4 : tensor<1024x!tt.ptr<f32>, #v4>
    tt.return
  }
}

// -----

// Hoisting above a broadcast: the row maxima are converted (64 values)
// instead of the 64x128 tile they are broadcast to.
// CHECK-DAG: #[[V:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[W:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[VROWS:slice[0-9]*]] = #ttg.slice<{dim = 1, parent = #[[V]]}>
// CHECK-DAG: #[[WROWS:slice[0-9]*]] = #ttg.slice<{dim = 1, parent = #[[W]]}>
// CHECK-LABEL: tt.func @hoist_above_broadcast
// CHECK: %[[M:.*]] = "tt.reduce"
// CHECK: }) : (tensor<64x128xf32, #[[V]]>) -> tensor<64xf32, #[[VROWS]]>
// CHECK-NEXT: %[[MC:.*]] = ttg.convert_layout %[[M]] : tensor<64xf32, #[[VROWS]]> -> tensor<64xf32, #[[WROWS]]>
// CHECK-NEXT: %[[ME:.*]] = tt.expand_dims %[[MC]] {axis = 1 : i32} : tensor<64xf32, #[[WROWS]]> -> tensor<64x1xf32, #[[W]]>
// CHECK-NEXT: %[[MB:.*]] = tt.broadcast %[[ME]] : tensor<64x1xf32, #[[W]]> -> tensor<64x128xf32, #[[W]]>
// CHECK-NEXT: tt.store %{{.*}}, %[[MB]] : tensor<64x128x!tt.ptr<f32>, #[[W]]>
#v = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#w = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @hoist_above_broadcast(%p: tensor<64x128x!tt.ptr<f32>, #v>, %q: tensor<64x128x!tt.ptr<f32>, #w>) {
    %x = tt.load %p : tensor<64x128x!tt.ptr<f32>, #v>
    %m = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.maxnumf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<64x128xf32, #v>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #v}>>
    %me = tt.expand_dims %m {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #v}>> -> tensor<64x1xf32, #v>
    %mb = tt.broadcast %me : tensor<64x1xf32, #v> -> tensor<64x128xf32, #v>
    %m4 = ttg.convert_layout %mb : tensor<64x128xf32, #v> -> tensor<64x128xf32, #w>
    tt.store %q, %m4 : tensor<64x128x!tt.ptr<f32>, #w>
    tt.return
  }
}

// -----

// Hoisting that removes a conversion: an fp32 load meets a widened fp16
// load and the fp16 sum is stored in the fp16 load's layout.  Converting
// the fp32 load alone replaces the two conversions (of the fp16 load and of
// the sum) with one of as many bytes.
// CHECK-DAG: #[[V4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[V8:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @hoist_merges_two
// CHECK: %[[X:.*]] = tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK-NEXT: %[[XC:.*]] = ttg.convert_layout %[[X]] : tensor<1024xf32, #[[V4]]> -> tensor<1024xf32, #[[V8]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[S:.*]] = arith.addf %[[XC]], %{{.*}} : tensor<1024xf32, #[[V8]]>
// CHECK: %[[H:.*]] = arith.truncf %[[S]] : tensor<1024xf32, #[[V8]]> to tensor<1024xf16, #[[V8]]>
// CHECK: tt.store %{{.*}}, %[[H]] : tensor<1024x!tt.ptr<f16>, #[[V8]]>
#v4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v8 = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @hoist_merges_two(%px: tensor<1024x!tt.ptr<f32>, #v4>, %py: tensor<1024x!tt.ptr<f16>, #v8>, %pz: tensor<1024x!tt.ptr<f16>, #v8>) {
    %x = tt.load %px : tensor<1024x!tt.ptr<f32>, #v4>
    %y8 = tt.load %py : tensor<1024x!tt.ptr<f16>, #v8>
    %y4 = ttg.convert_layout %y8 : tensor<1024xf16, #v8> -> tensor<1024xf16, #v4>
    %y = arith.extf %y4 : tensor<1024xf16, #v4> to tensor<1024xf32, #v4>
    %s = arith.addf %x, %y : tensor<1024xf32, #v4>
    %h = arith.truncf %s : tensor<1024xf32, #v4> to tensor<1024xf16, #v4>
    %h8 = ttg.convert_layout %h : tensor<1024xf16, #v4> -> tensor<1024xf16, #v8>
    tt.store %pz, %h8 : tensor<1024x!tt.ptr<f16>, #v8>
    tt.return
  }
}

// -----

// Hoisting out of a loop: the conversion a store inside the loop needs of a
// value loaded before the loop moves out of it, to right after the load.
// CHECK-DAG: #[[V8:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[V4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @hoist_out_of_loop
// CHECK: %[[X:.*]] = tt.load %{{.*}} : tensor<1024x!tt.ptr<f16>, #[[V8]]>
// CHECK-NEXT: %[[XC:.*]] = ttg.convert_layout %[[X]] : tensor<1024xf16, #[[V8]]> -> tensor<1024xf16, #[[V4]]>
// CHECK-NEXT: %[[W:.*]] = arith.extf %[[XC]] : tensor<1024xf16, #[[V4]]> to tensor<1024xf32, #[[V4]]>
// CHECK-NEXT: scf.for
// CHECK-NEXT: tt.store %{{.*}}, %[[W]] : tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK-NOT: ttg.convert_layout
#v8 = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @hoist_out_of_loop(%p: tensor<1024x!tt.ptr<f16>, #v8>, %q: tensor<1024x!tt.ptr<f32>, #v4>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %x = tt.load %p : tensor<1024x!tt.ptr<f16>, #v8>
    %w = arith.extf %x : tensor<1024xf16, #v8> to tensor<1024xf32, #v8>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %w4 = ttg.convert_layout %w : tensor<1024xf32, #v8> -> tensor<1024xf32, #v4>
      tt.store %q, %w4 : tensor<1024x!tt.ptr<f32>, #v4>
    }
    tt.return
  }
}

// -----

// Negative case for hoisting: the sum of two loads is needed in another
// layout.  Moving its conversion up would convert both loads, so it stays
// after the addition.
// CHECK-DAG: #[[V4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[V8:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @no_hoist_two_loads
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} : tensor<1024xf32, #[[V4]]>
// CHECK-NEXT: %[[SC:.*]] = ttg.convert_layout %[[S]] : tensor<1024xf32, #[[V4]]> -> tensor<1024xf32, #[[V8]]>
// CHECK-NEXT: tt.store %{{.*}}, %[[SC]] : tensor<1024x!tt.ptr<f32>, #[[V8]]>
#v4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v8 = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_hoist_two_loads(%px: tensor<1024x!tt.ptr<f32>, #v4>, %py: tensor<1024x!tt.ptr<f32>, #v4>, %pz: tensor<1024x!tt.ptr<f32>, #v8>) {
    %x = tt.load %px : tensor<1024x!tt.ptr<f32>, #v4>
    %y = tt.load %py : tensor<1024x!tt.ptr<f32>, #v4>
    %s = arith.addf %x, %y : tensor<1024xf32, #v4>
    %s8 = ttg.convert_layout %s : tensor<1024xf32, #v4> -> tensor<1024xf32, #v8>
    tt.store %pz, %s8 : tensor<1024x!tt.ptr<f32>, #v8>
    tt.return
  }
}

// -----

// Negative case for hoisting: after an fp32 -> fp16 truncf the conversion
// moves half the bytes it would move before it, so it stays after it.
// CHECK-DAG: #[[V4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[V8:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @no_hoist_above_truncf
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[H:.*]] = arith.truncf %{{.*}} : tensor<1024xf32, #[[V4]]> to tensor<1024xf16, #[[V4]]>
// CHECK-NEXT: %[[HC:.*]] = ttg.convert_layout %[[H]] : tensor<1024xf16, #[[V4]]> -> tensor<1024xf16, #[[V8]]>
// CHECK-NEXT: tt.store %{{.*}}, %[[HC]] : tensor<1024x!tt.ptr<f16>, #[[V8]]>
#v4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v8 = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_hoist_above_truncf(%px: tensor<1024x!tt.ptr<f32>, #v4>, %pz: tensor<1024x!tt.ptr<f16>, #v8>) {
    %x = tt.load %px : tensor<1024x!tt.ptr<f32>, #v4>
    %h = arith.truncf %x : tensor<1024xf32, #v4> to tensor<1024xf16, #v4>
    %h8 = ttg.convert_layout %h : tensor<1024xf16, #v4> -> tensor<1024xf16, #v8>
    tt.store %pz, %h8 : tensor<1024x!tt.ptr<f16>, #v8>
    tt.return
  }
}

// -----

// Negative case for hoisting: a conversion inside an scf.if branch does not
// move out of the branch, where it would run also when the branch does not.
// CHECK-DAG: #[[V8:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[V4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @no_hoist_out_of_if
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : tensor<1024xf16, #[[V8]]> to tensor<1024xf32, #[[V8]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.if
// CHECK-NEXT: %[[WC:.*]] = ttg.convert_layout %[[W]] : tensor<1024xf32, #[[V8]]> -> tensor<1024xf32, #[[V4]]>
// CHECK-NEXT: tt.store %{{.*}}, %[[WC]] : tensor<1024x!tt.ptr<f32>, #[[V4]]>
#v8 = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_hoist_out_of_if(%p: tensor<1024x!tt.ptr<f16>, #v8>, %q: tensor<1024x!tt.ptr<f32>, #v4>, %c: i1) {
    %x = tt.load %p : tensor<1024x!tt.ptr<f16>, #v8>
    %w = arith.extf %x : tensor<1024xf16, #v8> to tensor<1024xf32, #v8>
    scf.if %c {
      %w4 = ttg.convert_layout %w : tensor<1024xf32, #v8> -> tensor<1024xf32, #v4>
      tt.store %q, %w4 : tensor<1024x!tt.ptr<f32>, #v4>
    }
    tt.return
  }
}

// -----

// Hoisting stops at a value that other ops also use: the conversion of
// exp(extf(x)) moves up to the widened value, which is also stored as it is,
// and not to the load, which would compute the extf twice.
// CHECK-DAG: #[[V8:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[V4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @hoist_stops_at_shared_value
// CHECK: %[[X:.*]] = tt.load %{{.*}} : tensor<1024x!tt.ptr<f16>, #[[V8]]>
// CHECK-NEXT: %[[W:.*]] = arith.extf %[[X]] : tensor<1024xf16, #[[V8]]> to tensor<1024xf32, #[[V8]]>
// CHECK-NEXT: %[[WC:.*]] = ttg.convert_layout %[[W]] : tensor<1024xf32, #[[V8]]> -> tensor<1024xf32, #[[V4]]>
// CHECK-NEXT: tt.store %{{.*}}, %[[W]] : tensor<1024x!tt.ptr<f32>, #[[V8]]>
// CHECK-NEXT: %[[E:.*]] = math.exp %[[WC]] : tensor<1024xf32, #[[V4]]>
// CHECK-NEXT: tt.store %{{.*}}, %[[E]] : tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK-NOT: ttg.convert_layout
#v8 = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @hoist_stops_at_shared_value(%p: tensor<1024x!tt.ptr<f16>, #v8>, %q: tensor<1024x!tt.ptr<f32>, #v4>, %r: tensor<1024x!tt.ptr<f32>, #v8>) {
    %x = tt.load %p : tensor<1024x!tt.ptr<f16>, #v8>
    %w = arith.extf %x : tensor<1024xf16, #v8> to tensor<1024xf32, #v8>
    tt.store %r, %w : tensor<1024x!tt.ptr<f32>, #v8>
    %e = math.exp %w : tensor<1024xf32, #v8>
    %e4 = ttg.convert_layout %e : tensor<1024xf32, #v8> -> tensor<1024xf32, #v4>
    tt.store %q, %e4 : tensor<1024x!tt.ptr<f32>, #v4>
    tt.return
  }
}

// -----

// Index arithmetic shared by a load's pointers and an mma computation: the
// loop-carried pointers keep the load's layout, so no tensor of pointers is
// converted in the loop; the accumulator, an mma argument outside the loop
// added to the load inside it, is carried in the load's layout too, converted
// once before the loop and once after it.
// CHECK-LABEL: tt.func @shared_index
// CHECK-NOT: ttg.convert_layout {{.*}}!tt.ptr
// CHECK: %[[INIT:.*]] = ttg.convert_layout %arg0 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #[[LD:blocked[0-9]*]]>
// CHECK: scf.for {{.*}} -> (tensor<64x64x!tt.ptr<f16>, #[[LD]]>, tensor<64x64xf32, #[[LD]]>)
// CHECK-NEXT: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>, #[[LD]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.yield
// CHECK: ttg.convert_layout %{{.*}} : tensor<64x64xf32, #[[LD]]> -> tensor<64x64xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:80"} {
  tt.func @shared_index(%acc: tensor<64x64xf32, #mma>, %base: !tt.ptr<f16>, %out: tensor<64x64x!tt.ptr<f32>, #blocked>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %b = tt.broadcast %e : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %s = tt.splat %base : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %p0 = tt.addptr %s, %b : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%p = %p0, %a = %acc) -> (tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xf32, #mma>) : i32 {
      %pl = ttg.convert_layout %p : tensor<64x64x!tt.ptr<f16>, #blocked> -> tensor<64x64x!tt.ptr<f16>, #ld>
      %x = tt.load %pl : tensor<64x64x!tt.ptr<f16>, #ld>
      %xb = ttg.convert_layout %x : tensor<64x64xf16, #ld> -> tensor<64x64xf16, #blocked>
      %xf = arith.extf %xb : tensor<64x64xf16, #blocked> to tensor<64x64xf32, #blocked>
      %ab = ttg.convert_layout %a : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
      %bf = arith.sitofp %b : tensor<64x64xi32, #blocked> to tensor<64x64xf32, #blocked>
      %sum = arith.addf %ab, %xf : tensor<64x64xf32, #blocked>
      %sum2 = arith.addf %sum, %bf : tensor<64x64xf32, #blocked>
      %am = ttg.convert_layout %sum2 : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
      %pn = tt.addptr %p, %c64 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %pn, %am : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xf32, #mma>
    }
    %fin = ttg.convert_layout %res#1 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    tt.store %out, %fin : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A conversion to the CUDA-core dot operand layout (a dot operand on a
// blocked parent, as convert-tt-to-ttg leaves every tt.dot operand) is not
// hoisted above the fp8 -> bf16 upcast that feeds it: ttg-accelerate-matmul
// moves the dot to tensor cores and reads the operand from the conversion's
// source, while an upcast recomputed in that layout (a row's whole K per
// thread) would stay in it and spill.
// CHECK-LABEL: tt.func @no_hoist_to_a_dot_operand
// CHECK: %[[X:.*]] = tt.load
// CHECK-NEXT: %[[F8:.*]] = tt.bitcast %[[X]] : tensor<128x128xi8, #[[L:blocked[0-9]*]]>
// CHECK-NEXT: %[[UP:.*]] = tt.fp_to_fp %[[F8]] : tensor<128x128xf8E4M3FN, #[[L]]> -> tensor<128x128xbf16, #[[L]]>
// CHECK: ttg.convert_layout %[[UP]] : tensor<128x128xbf16, #[[L]]> -> tensor<128x128xbf16, #dot_op
#ld8 = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @no_hoist_to_a_dot_operand(%p: tensor<128x128x!tt.ptr<i8>, #ld8>, %b: tensor<128x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>>, %q: tensor<128x64x!tt.ptr<f32>, #acc>) {
    %x = tt.load %p : tensor<128x128x!tt.ptr<i8>, #ld8>
    %f8 = tt.bitcast %x : tensor<128x128xi8, #ld8> -> tensor<128x128xf8E4M3FN, #ld8>
    %up = tt.fp_to_fp %f8 : tensor<128x128xf8E4M3FN, #ld8> -> tensor<128x128xbf16, #ld8>
    %a = ttg.convert_layout %up : tensor<128x128xbf16, #ld8> -> tensor<128x128xbf16, #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>>
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #acc>
    %d = tt.dot %a, %b, %zero : tensor<128x128xbf16, #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>> * tensor<128x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>> -> tensor<128x64xf32, #acc>
    tt.store %q, %d : tensor<128x64x!tt.ptr<f32>, #acc>
    tt.return
  }
}

// -----

// A conversion to the operand layout of an mma.sync dot that follows it in a
// loop moves up to the loads its element-wise chain starts from, whatever
// their bytes (Triton's rule): ttg-pipeline streams those loads through
// shared memory and reads them back in the operand layout, so the fp32 gate
// and the fp16 tile are read in it and the scaled tile is not converted.
// Outside a loop (@operand_outside_a_loop) the usual cost decides: the
// conversion stays after the truncf, half the bytes of the fp32 gate; so it
// does where the operand layout holds each value more often than the loaded
// one (@replicated_operand_stays, next case).
// CHECK-LABEL: tt.func @hoist_to_a_streamed_operand
// CHECK: scf.for
// CHECK: %[[K:.*]] = tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>, #[[LD:blocked[0-9]*]]>
// CHECK-NEXT: %[[KD:.*]] = ttg.convert_layout %[[K]] : tensor<64x64xf16, #[[LD]]> -> tensor<64x64xf16, #[[A:dot_op[0-9]*]]>
// CHECK: %[[G:.*]] = tt.load %{{.*}} : tensor<64x64x!tt.ptr<f32>, #[[LD]]>
// CHECK-NEXT: %[[GD:.*]] = ttg.convert_layout %[[G]] : tensor<64x64xf32, #[[LD]]> -> tensor<64x64xf32, #[[A]]>
// CHECK: arith.mulf %{{.*}} : tensor<64x64xf32, #[[A]]>
// CHECK-NEXT: %[[T:.*]] = arith.truncf %{{.*}} : tensor<64x64xf32, #[[A]]> to tensor<64x64xf16, #[[A]]>
// CHECK-NEXT: tt.dot %[[T]]
// CHECK-LABEL: tt.func @operand_outside_a_loop
// CHECK: %[[T2:.*]] = arith.truncf %{{.*}} : tensor<64x64xf32, #[[LD2:blocked[0-9]*]]> to tensor<64x64xf16, #[[LD2]]>
// CHECK-NEXT: ttg.convert_layout %[[T2]] : tensor<64x64xf16, #[[LD2]]> -> tensor<64x64xf16, #dot_op
#ld = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @hoist_to_a_streamed_operand(%pk: tensor<64x64x!tt.ptr<f16>, #ld>, %pg: tensor<64x64x!tt.ptr<f32>, #ld>,
                                       %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %k = tt.load %pk : tensor<64x64x!tt.ptr<f16>, #ld>
      %g = tt.load %pg : tensor<64x64x!tt.ptr<f32>, #ld>
      %e = math.exp2 %g : tensor<64x64xf32, #ld>
      %kf = arith.extf %k : tensor<64x64xf16, #ld> to tensor<64x64xf32, #ld>
      %m = arith.mulf %kf, %e : tensor<64x64xf32, #ld>
      %t = arith.truncf %m : tensor<64x64xf32, #ld> to tensor<64x64xf16, #ld>
      %a = ttg.convert_layout %t : tensor<64x64xf16, #ld> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %d = tt.dot %a, %b, %acc : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %res : tensor<64x64xf32, #mma>
  }
  tt.func @operand_outside_a_loop(%pk: tensor<64x64x!tt.ptr<f16>, #ld>, %pg: tensor<64x64x!tt.ptr<f32>, #ld>,
                                  %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>) -> tensor<64x64xf32, #mma> {
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %k = tt.load %pk : tensor<64x64x!tt.ptr<f16>, #ld>
    %g = tt.load %pg : tensor<64x64x!tt.ptr<f32>, #ld>
    %e = math.exp2 %g : tensor<64x64xf32, #ld>
    %kf = arith.extf %k : tensor<64x64xf16, #ld> to tensor<64x64xf32, #ld>
    %m = arith.mulf %kf, %e : tensor<64x64xf32, #ld>
    %t = arith.truncf %m : tensor<64x64xf32, #ld> to tensor<64x64xf16, #ld>
    %a = ttg.convert_layout %t : tensor<64x64xf16, #ld> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %b, %zero : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// An A operand on two warps along N holds each value twice: the element-wise
// work stays in the loaded layout (redone by each copy otherwise) and its
// fp16 result is converted.  A chain of casts alone (@replicated_cast_moves:
// a loaded fp32 tile cast to fp16, as flash-linear-attention's gla backward
// casts its states) costs each copy no more than the round trip through
// shared memory, so its conversion moves up to the load (Triton's rule).
// CHECK-LABEL: tt.func @replicated_operand_stays
// CHECK: scf.for
// CHECK: %[[T:.*]] = arith.truncf %{{.*}} : tensor<64x64xf32, #[[LD:blocked[0-9]*]]> to tensor<64x64xf16, #[[LD]]>
// CHECK-NEXT: ttg.convert_layout %[[T]] : tensor<64x64xf16, #[[LD]]> -> tensor<64x64xf16, #dot_op
// CHECK-LABEL: tt.func @replicated_cast_moves
// CHECK: scf.for
// CHECK: %[[G:.*]] = tt.load %{{.*}} : tensor<64x64x!tt.ptr<f32>, #[[LD3:blocked[0-9]*]]>
// CHECK-NEXT: %[[GA:.*]] = ttg.convert_layout %[[G]] : tensor<64x64xf32, #[[LD3]]> -> tensor<64x64xf32, #[[A3:dot_op[0-9]*]]>
// CHECK-NEXT: %[[T3:.*]] = arith.truncf %[[GA]] : tensor<64x64xf32, #[[A3]]> to tensor<64x64xf16, #[[A3]]>
// CHECK-NEXT: tt.dot %[[T3]]
#ld = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 2], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @replicated_operand_stays(%pk: tensor<64x64x!tt.ptr<f16>, #ld>, %pg: tensor<64x64x!tt.ptr<f32>, #ld>,
                                    %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %k = tt.load %pk : tensor<64x64x!tt.ptr<f16>, #ld>
      %g = tt.load %pg : tensor<64x64x!tt.ptr<f32>, #ld>
      %e = math.exp2 %g : tensor<64x64xf32, #ld>
      %kf = arith.extf %k : tensor<64x64xf16, #ld> to tensor<64x64xf32, #ld>
      %m = arith.mulf %kf, %e : tensor<64x64xf32, #ld>
      %t = arith.truncf %m : tensor<64x64xf32, #ld> to tensor<64x64xf16, #ld>
      %a = ttg.convert_layout %t : tensor<64x64xf16, #ld> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %d = tt.dot %a, %b, %acc : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %res : tensor<64x64xf32, #mma>
  }
  tt.func @replicated_cast_moves(%pg: tensor<64x64x!tt.ptr<f32>, #ld>,
                                 %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %g = tt.load %pg : tensor<64x64x!tt.ptr<f32>, #ld>
      %t = arith.truncf %g : tensor<64x64xf32, #ld> to tensor<64x64xf16, #ld>
      %a = ttg.convert_layout %t : tensor<64x64xf16, #ld> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %d = tt.dot %a, %b, %acc : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %res : tensor<64x64xf32, #mma>
  }
}

// -----

// A transpose of a loaded tile takes the load's layout with its dimensions
// permuted (sizePerThread, threadsPerWarp, warpsPerCTA and order renamed):
// the same threads hold the same elements, so no conversion before it.
// CHECK-DAG: #[[LOADED:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[PERMUTED:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @trans_takes_the_permuted_layout
// CHECK: %[[X:.*]] = tt.load %{{.*}} : tensor<32x64x!tt.ptr<f32>, #[[LOADED]]>
// CHECK-NEXT: %[[T:.*]] = tt.trans %[[X]] {order = array<i32: 1, 0>} : tensor<32x64xf32, #[[LOADED]]> -> tensor<64x32xf32, #[[PERMUTED]]>
// CHECK-NEXT: ttg.convert_layout %[[T]]
// CHECK-NOT: ttg.convert_layout
#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#d = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#t = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @trans_takes_the_permuted_layout(%p: tensor<32x64x!tt.ptr<f32>, #a>, %q: tensor<64x32x!tt.ptr<f32>, #t>) {
    %x = tt.load %p : tensor<32x64x!tt.ptr<f32>, #a>
    %y = ttg.convert_layout %x : tensor<32x64xf32, #a> -> tensor<32x64xf32, #d>
    %z = tt.trans %y {order = array<i32: 1, 0>} : tensor<32x64xf32, #d> -> tensor<64x32xf32, #t>
    %e = math.exp %z : tensor<64x32xf32, #t>
    tt.store %q, %e : tensor<64x32x!tt.ptr<f32>, #t>
    tt.return
  }
}

// -----

// Triton's test_trans_reshape: reshape, permute, reshape back to 1-D.  Each
// reshape relabels the coordinates of the layout it receives (a #ttg.linear
// layout, bases read as row-major indices), the transpose permutes them, and
// the one conversion left is the store's (to its 4-wide layout).
// CHECK-LABEL: tt.func @reshape_trans_reshape
// CHECK: %[[X:.*]] = tt.load
// CHECK-NEXT: %[[R:.*]] = tt.reshape %[[X]] : tensor<32x32xi32, #{{.*}}> -> tensor<32x4x4x2xi32, #ttg.linear<{register = {{\[\[}}0, 0, 0, 1], [0, 0, 1, 0], [16, 0, 0, 0]], lane = {{\[\[}}0, 0, 2, 0], [0, 1, 0, 0], [0, 2, 0, 0], [1, 0, 0, 0], [2, 0, 0, 0]], warp = {{\[\[}}4, 0, 0, 0], [8, 0, 0, 0]], block = []}>>
// CHECK-NEXT: %[[T:.*]] = tt.trans %[[R]]
// CHECK-SAME: -> tensor<4x4x2x32xi32, #ttg.linear<{register = {{\[\[}}0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 16]], lane = {{\[\[}}0, 2, 0, 0], [1, 0, 0, 0], [2, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 2]], warp = {{\[\[}}0, 0, 0, 4], [0, 0, 0, 8]], block = []}>>
// CHECK-NEXT: %[[F:.*]] = tt.reshape %[[T]]
// CHECK-SAME: -> tensor<1024xi32, #ttg.linear<{register = {{\[\[}}32], [64], [16]], lane = {{\[\[}}128], [256], [512], [1], [2]], warp = {{\[\[}}4], [8]], block = []}>>
// CHECK-NEXT: %[[G:.*]] = ttg.convert_layout %[[F]]
// CHECK-NEXT: tt.store %{{.*}}, %[[G]]
#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#d = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#d4 = #ttg.blocked<{sizePerThread = [1, 1, 1, 1], threadsPerWarp = [1, 4, 4, 2], warpsPerCTA = [4, 1, 1, 1], order = [3, 2, 1, 0]}>
#p4 = #ttg.blocked<{sizePerThread = [1, 1, 1, 1], threadsPerWarp = [4, 4, 2, 1], warpsPerCTA = [1, 1, 1, 4], order = [2, 1, 0, 3]}>
#q4 = #ttg.blocked<{sizePerThread = [1, 1, 1, 1], threadsPerWarp = [1, 1, 1, 32], warpsPerCTA = [1, 2, 2, 1], order = [3, 2, 1, 0]}>
#f = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reshape_trans_reshape(%p: tensor<32x32x!tt.ptr<i32>, #a>, %q: tensor<1024x!tt.ptr<i32>, #v>) {
    %x = tt.load %p : tensor<32x32x!tt.ptr<i32>, #a>
    %c = ttg.convert_layout %x : tensor<32x32xi32, #a> -> tensor<32x32xi32, #d>
    %r = tt.reshape %c : tensor<32x32xi32, #d> -> tensor<32x4x4x2xi32, #d4>
    %t = tt.trans %r {order = array<i32: 1, 2, 3, 0>} : tensor<32x4x4x2xi32, #d4> -> tensor<4x4x2x32xi32, #p4>
    %u = ttg.convert_layout %t : tensor<4x4x2x32xi32, #p4> -> tensor<4x4x2x32xi32, #q4>
    %f = tt.reshape %u : tensor<4x4x2x32xi32, #q4> -> tensor<1024xi32, #f>
    %g = ttg.convert_layout %f : tensor<1024xi32, #f> -> tensor<1024xi32, #v>
    tt.store %q, %g : tensor<1024x!tt.ptr<i32>, #v>
    tt.return
  }
}

// -----

// Backwards through a reshape: the store's layout reaches the index range
// that feeds it, relabelled in its 1-D shape, and nothing is converted.  A
// reshape allowed to reorder its elements (a whole-tensor reduction's) takes
// its operand in the load's layout: both layouts hold each element once and
// 8 a thread, so the reshape relabels each thread's registers.  One marked
// efficient_layout, and one whose operand layout holds elements twice, keep
// the conversion before them.
// CHECK-DAG: #[[S:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @reshape_backwards_from_a_store
// CHECK-NEXT: %[[I:.*]] = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #ttg.linear<{register = {{\[\[}}1], [2], [512]], lane = {{\[\[}}4], [8], [16], [32], [64]], warp = {{\[\[}}128], [256]], block = []}>>
// CHECK-NEXT: %[[R:.*]] = tt.reshape %[[I]] : {{.*}} -> tensor<32x32xi32, #[[S]]>
// CHECK-NEXT: tt.store %{{.*}}, %[[R]]
// CHECK-LABEL: tt.func @reshape_allowed_to_reorder_relabels_registers
// CHECK-NEXT: %[[X:.*]] = tt.load
// CHECK-NEXT: tt.reshape %[[X]] allow_reorder : tensor<32x32xi32, #[[S]]> -> tensor<1024xi32
// CHECK-LABEL: tt.func @reshape_with_efficient_layout_keeps_its_layouts
// CHECK: ttg.convert_layout
// CHECK-NEXT: tt.reshape %{{.*}} allow_reorder efficient_layout
// CHECK-LABEL: tt.func @reshape_from_duplicated_elements_keeps_its_layouts
// CHECK: ttg.convert_layout
// CHECK-NEXT: tt.reshape %{{.*}} allow_reorder
#f = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#d = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reshape_backwards_from_a_store(%q: tensor<32x32x!tt.ptr<i32>, #s>) {
    %i = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #f>
    %r = tt.reshape %i : tensor<1024xi32, #f> -> tensor<32x32xi32, #d>
    %c = ttg.convert_layout %r : tensor<32x32xi32, #d> -> tensor<32x32xi32, #s>
    tt.store %q, %c : tensor<32x32x!tt.ptr<i32>, #s>
    tt.return
  }
  tt.func @reshape_allowed_to_reorder_relabels_registers(%p: tensor<32x32x!tt.ptr<i32>, #s>, %q: tensor<1024x!tt.ptr<i32>, #f>) {
    %x = tt.load %p : tensor<32x32x!tt.ptr<i32>, #s>
    %c = ttg.convert_layout %x : tensor<32x32xi32, #s> -> tensor<32x32xi32, #d>
    %r = tt.reshape %c allow_reorder : tensor<32x32xi32, #d> -> tensor<1024xi32, #f>
    tt.store %q, %r : tensor<1024x!tt.ptr<i32>, #f>
    tt.return
  }
  tt.func @reshape_with_efficient_layout_keeps_its_layouts(%p: tensor<32x32x!tt.ptr<i32>, #s>, %q: tensor<1024x!tt.ptr<i32>, #f>) {
    %x = tt.load %p : tensor<32x32x!tt.ptr<i32>, #s>
    %c = ttg.convert_layout %x : tensor<32x32xi32, #s> -> tensor<32x32xi32, #d>
    %r = tt.reshape %c allow_reorder efficient_layout : tensor<32x32xi32, #d> -> tensor<1024xi32, #f>
    tt.store %q, %r : tensor<1024x!tt.ptr<i32>, #f>
    tt.return
  }
  tt.func @reshape_from_duplicated_elements_keeps_its_layouts(%p: tensor<8x32x!tt.ptr<i32>, #s>, %q: tensor<256x!tt.ptr<i32>, #f>) {
    %x = tt.load %p : tensor<8x32x!tt.ptr<i32>, #s>
    %c = ttg.convert_layout %x : tensor<8x32xi32, #s> -> tensor<8x32xi32, #d>
    %r = tt.reshape %c allow_reorder : tensor<8x32xi32, #d> -> tensor<256xi32, #f>
    tt.store %q, %r : tensor<256x!tt.ptr<i32>, #f>
    tt.return
  }
}

// -----

// A row reshaped to [1, N] and broadcast over M rows: the reshape's
// #ttg.linear layout (made for the [1, N] shape, its threads duplicating the
// one row) does not cross the broadcast, where it would have every thread hold
// whole columns of the [M, N] result; the small side is converted instead.
// CHECK-DAG: #[[ROWS:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @reshape_then_broadcast
// CHECK: %[[R:.*]] = tt.reshape %{{.*}} : tensor<16xf32, #{{.*}}> -> tensor<1x16xf32, #ttg.linear
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[R]] : {{.*}} -> tensor<1x16xf32, #[[ROWS]]>
// CHECK-NEXT: tt.broadcast %[[C]] : tensor<1x16xf32, #[[ROWS]]> -> tensor<256x16xf32, #[[ROWS]]>
#v = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#r = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reshape_then_broadcast(%p: tensor<16x!tt.ptr<f32>, #v>, %q: tensor<256x16x!tt.ptr<f32>, #r>) {
    %x = tt.load %p : tensor<16x!tt.ptr<f32>, #v>
    %c = ttg.convert_layout %x : tensor<16xf32, #v> -> tensor<16xf32, #ttg.slice<{dim = 0, parent = #r}>>
    %y = tt.reshape %c : tensor<16xf32, #ttg.slice<{dim = 0, parent = #r}>> -> tensor<1x16xf32, #r>
    %b = tt.broadcast %y : tensor<1x16xf32, #r> -> tensor<256x16xf32, #r>
    tt.store %q, %b : tensor<256x16x!tt.ptr<f32>, #r>
    tt.return
  }
}

// -----

// A row loop (a normalization's backward) whose loads inside take 8 bf16
// elements a thread, beside a weight row loaded before the loop in the fp32
// layout of 4 and an accumulator stored after it in that layout: the floods
// of the loop's own loads claim the loop first, so the loop body, the
// carried accumulator and its initial value take the 8-element layout; the
// accumulator is converted once after the loop, and the one conversion in
// the loop is of the weights, loop-invariant (loop-invariant code motion
// lifts it out later in the pipeline).
// CHECK-LABEL: tt.func @row_loop_in_its_loads_layout
// CHECK: %[[W:.*]] = tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[V4:blocked[0-9]*]]>
// CHECK: scf.for {{.*}} -> (tensor<1024xf32, #[[V8:blocked[0-9]*]]>, !tt.ptr<bf16>)
// CHECK: ttg.convert_layout %[[W]] : tensor<1024xf32, #[[V4]]> -> tensor<1024xf32, #[[V8]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.yield
// CHECK: ttg.convert_layout %{{.*}} : tensor<1024xf32, #[[V8]]> -> tensor<1024xf32, #[[V4]]>
#v4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
#v8 = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @row_loop_in_its_loads_layout(%w: !tt.ptr<f32>, %x: !tt.ptr<bf16>, %dw: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.0> : tensor<1024xf32, #v4>
    %r4 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #v4>
    %r8 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #v8>
    %ws = tt.splat %w : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #v4>
    %wp = tt.addptr %ws, %r4 : tensor<1024x!tt.ptr<f32>, #v4>, tensor<1024xi32, #v4>
    %wv = tt.load %wp : tensor<1024x!tt.ptr<f32>, #v4>
    %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %xrow = %x) -> (tensor<1024xf32, #v4>, !tt.ptr<bf16>) : i32 {
      %xs = tt.splat %xrow : !tt.ptr<bf16> -> tensor<1024x!tt.ptr<bf16>, #v8>
      %xp = tt.addptr %xs, %r8 : tensor<1024x!tt.ptr<bf16>, #v8>, tensor<1024xi32, #v8>
      %xv = tt.load %xp : tensor<1024x!tt.ptr<bf16>, #v8>
      %xf = arith.extf %xv : tensor<1024xbf16, #v8> to tensor<1024xf32, #v8>
      %x4 = ttg.convert_layout %xf : tensor<1024xf32, #v8> -> tensor<1024xf32, #v4>
      %p = arith.mulf %x4, %wv : tensor<1024xf32, #v4>
      %acc2 = arith.addf %acc, %p : tensor<1024xf32, #v4>
      %next = tt.addptr %xrow, %c1024 : !tt.ptr<bf16>, i32
      scf.yield %acc2, %next : tensor<1024xf32, #v4>, !tt.ptr<bf16>
    }
    %ds = tt.splat %dw : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #v4>
    %dp = tt.addptr %ds, %r4 : tensor<1024x!tt.ptr<f32>, #v4>, tensor<1024xi32, #v4>
    tt.store %dp, %res#0 : tensor<1024x!tt.ptr<f32>, #v4>
    tt.return
  }
}

// -----

// Two results computed from one loaded tile (a softplus of dt plus a bias
// row, then its running sum along the rows, as Mamba-2's chunk cumsum does)
// are stored in another layout than the load's.  Neither conversion pays
// alone (the values on the way to one also feed the other), together they
// do: the tile is converted once after its load, the bias row (64 elements,
// no more than the block's threads) is loaded again in the slice of the
// stores' layout, and the arithmetic and the scan run in that layout.
// CHECK: #[[SL:slice[0-9]*]] = #ttg.slice<{dim = 1, parent = #[[ST:blocked[0-9]*]]}>
// CHECK-LABEL: tt.func @two_stores_of_one_tile
// CHECK: %[[T:.*]] = tt.load %{{.*}} : tensor<64x256x!tt.ptr<f32>, #[[LD:blocked[0-9]*]]>
// CHECK: ttg.convert_layout %[[T]] : tensor<64x256xf32, #[[LD]]> -> tensor<64x256xf32, #[[ST]]>
// CHECK: tt.load %{{.*}} : tensor<64x!tt.ptr<f32>, #[[SL]]>
// CHECK: "tt.scan"(%{{.*}}) <{axis = 1 : i32, reverse = false}>
// CHECK: }) : (tensor<64x256xf32, #[[ST]]>) -> tensor<64x256xf32, #[[ST]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#col = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @two_stores_of_one_tile(%p: tensor<64x256x!tt.ptr<f32>, #col>, %bias: !tt.ptr<f32>,
                                  %o1: tensor<64x256x!tt.ptr<f32>, #row>, %o2: tensor<64x256x!tt.ptr<f32>, #row>) {
    %x = tt.load %p : tensor<64x256x!tt.ptr<f32>, #col>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #col}>>
    %bs = tt.splat %bias : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #col}>>
    %bp = tt.addptr %bs, %r : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #col}>>, tensor<64xi32, #ttg.slice<{dim = 1, parent = #col}>>
    %b = tt.load %bp : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #col}>>
    %be = tt.expand_dims %b {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #col}>> -> tensor<64x1xf32, #col>
    %bb = tt.broadcast %be : tensor<64x1xf32, #col> -> tensor<64x256xf32, #col>
    %y = arith.addf %x, %bb : tensor<64x256xf32, #col>
    %e = math.exp %y : tensor<64x256xf32, #col>
    %y1 = ttg.convert_layout %e : tensor<64x256xf32, #col> -> tensor<64x256xf32, #row>
    tt.store %o1, %y1 : tensor<64x256x!tt.ptr<f32>, #row>
    %s = "tt.scan"(%e) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%a: f32, %c: f32):
      %t = arith.addf %a, %c : f32
      tt.scan.return %t : f32
    }) : (tensor<64x256xf32, #col>) -> tensor<64x256xf32, #col>
    %s1 = ttg.convert_layout %s : tensor<64x256xf32, #col> -> tensor<64x256xf32, #row>
    tt.store %o2, %s1 : tensor<64x256x!tt.ptr<f32>, #row>
    tt.return
  }
}

// -----

// The same two stores of one tile, but scanned along each thread's
// registers: recomputed in the stores' layout the scan would run across the
// warps (through shared memory, every line's partial sums held at once),
// which costs more than the conversion it saves, so each result keeps its
// conversion and the scan stays along the registers.
// CHECK-LABEL: tt.func @scan_kept_off_the_warps
// CHECK: %[[X:.*]] = tt.load %{{.*}} : tensor<128x8x!tt.ptr<f32>, #[[A:blocked[0-9]*]]>
// CHECK: %[[E:.*]] = math.exp %[[X]] : tensor<128x8xf32, #[[A]]>
// CHECK: ttg.convert_layout %[[E]] : tensor<128x8xf32, #[[A]]> -> tensor<128x8xf32, #[[B:blocked[0-9]*]]>
// CHECK: %[[S:.*]] = "tt.scan"(%[[E]])
// CHECK: }) : (tensor<128x8xf32, #[[A]]>) -> tensor<128x8xf32, #[[A]]>
// CHECK: ttg.convert_layout %[[S]] : tensor<128x8xf32, #[[A]]> -> tensor<128x8xf32, #[[B]]>
#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @scan_kept_off_the_warps(%p: tensor<128x8x!tt.ptr<f32>, #a>,
                                   %o1: tensor<128x8x!tt.ptr<f32>, #b>, %o2: tensor<128x8x!tt.ptr<f32>, #b>) {
    %x = tt.load %p : tensor<128x8x!tt.ptr<f32>, #a>
    %e = math.exp %x : tensor<128x8xf32, #a>
    %y1 = ttg.convert_layout %e : tensor<128x8xf32, #a> -> tensor<128x8xf32, #b>
    tt.store %o1, %y1 : tensor<128x8x!tt.ptr<f32>, #b>
    %s = "tt.scan"(%e) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%u: f32, %v: f32):
      %t = arith.addf %u, %v : f32
      tt.scan.return %t : f32
    }) : (tensor<128x8xf32, #a>) -> tensor<128x8xf32, #a>
    %s1 = ttg.convert_layout %s : tensor<128x8xf32, #a> -> tensor<128x8xf32, #b>
    tt.store %o2, %s1 : tensor<128x8x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

// A dot's result scaled by a row and a column vector loaded in the loop
// (`acc += tl.dot(a, b) * sa[:, None] * sb[None, :]`, blockwise-scaled fp8
// GEMMs): each scale, loaded in a slice of the blocked accumulator's layout,
// reaches the products through a broadcast as near as the dot does, but a
// broadcast tensor holds only its vector's elements, so the products and the
// accumulator take the dot's layout and the vectors are converted (as 128x1
// and 1x128 tensors, before their broadcasts), not the 128x128 tile every
// iteration.
// CHECK-DAG: #[[MMA:mma[0-9]*]] = #ttg.nvidia_mma
// CHECK-LABEL: tt.func @scaled_dot_keeps_the_dot_layout
// CHECK: scf.for {{.*}} -> (tensor<128x128xf32, #[[MMA]]>)
// CHECK: %[[SA:.*]] = tt.load
// CHECK: %[[SB:.*]] = tt.load
// CHECK: %[[EA:.*]] = tt.expand_dims %[[SA]] {axis = 1 : i32} : {{.*}} -> tensor<128x1xf32, #[[B:blocked[0-9]*]]>
// CHECK: ttg.convert_layout %[[EA]] : tensor<128x1xf32, #[[B]]> -> tensor<128x1xf32, #[[MMA]]>
// CHECK: %[[EB:.*]] = tt.expand_dims %[[SB]] {axis = 0 : i32} : {{.*}} -> tensor<1x128xf32, #[[B]]>
// CHECK: ttg.convert_layout %[[EB]] : tensor<1x128xf32, #[[B]]> -> tensor<1x128xf32, #[[MMA]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.yield
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @scaled_dot_keeps_the_dot_layout(%a: tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>,
                                           %b: tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>,
                                           %pa: tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #blocked}>>,
                                           %pb: tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>,
                                           %n: i32, %out: tensor<128x128x!tt.ptr<f32>, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x128xf32, #blocked>
    %zmma = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
    %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #blocked>) : i32 {
      %sa = tt.load %pa : tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #blocked}>>
      %sb = tt.load %pb : tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>
      %d = tt.dot %a, %b, %zmma : tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x128xf32, #mma>
      %db = ttg.convert_layout %d : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked>
      %sa2 = tt.expand_dims %sa {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xf32, #blocked>
      %sa3 = tt.broadcast %sa2 : tensor<128x1xf32, #blocked> -> tensor<128x128xf32, #blocked>
      %m1 = arith.mulf %db, %sa3 : tensor<128x128xf32, #blocked>
      %sb2 = tt.expand_dims %sb {axis = 0 : i32} : tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x128xf32, #blocked>
      %sb3 = tt.broadcast %sb2 : tensor<1x128xf32, #blocked> -> tensor<128x128xf32, #blocked>
      %m2 = arith.mulf %m1, %sb3 : tensor<128x128xf32, #blocked>
      %next = arith.addf %acc, %m2 : tensor<128x128xf32, #blocked>
      scf.yield %next : tensor<128x128xf32, #blocked>
    }
    tt.store %out, %res : tensor<128x128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A tensor of pointers belongs to the access it addresses, and a store of
// fewer elements than threads follows its value: the row statistic's store
// takes the row slice of the dot's layout its maximum comes in, pointers
// and all, although their offsets share a tl.arange with the column mask of
// the dot (BLOCK_M == BLOCK_N; the arange is made in each layout).  Nothing
// is converted, and the f64 arithmetic runs in the row slice (2 of the 64
// values a thread), not in the column slice, where every thread holds 16.
// CHECK-DAG: #[[ROW:slice[0-9]*]] = #ttg.slice<{dim = 1, parent = #mma}>
// CHECK-LABEL: tt.func @store_pointers_keep_their_access_layout
// CHECK-NOT: ttg.convert_layout
// CHECK: "tt.reduce"
// CHECK: %[[L:.*]] = math.log2 %{{.*}} : tensor<64xf64, #[[ROW]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store %{{.*}}, %[[L]] : tensor<64x!tt.ptr<f64>, #[[ROW]]>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @store_pointers_keep_their_access_layout(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>,
                                                   %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>,
                                                   %p: !tt.ptr<f64>, %n: i32) {
    %zmma = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %ninf = arith.constant dense<0xFF800000> : tensor<64x64xf32, #mma>
    %d = tt.dot %a, %b, %zmma : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %rc = ttg.convert_layout %r : tensor<64xi32, #blocked> -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>>
    %re = tt.expand_dims %rc {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>> -> tensor<1x64xi32, #mma>
    %nn = tt.splat %n : i32 -> tensor<1x64xi32, #mma>
    %m = arith.cmpi slt, %re, %nn : tensor<1x64xi32, #mma>
    %mb = tt.broadcast %m : tensor<1x64xi1, #mma> -> tensor<64x64xi1, #mma>
    %s = arith.select %mb, %d, %ninf : tensor<64x64xi1, #mma>, tensor<64x64xf32, #mma>
    %mx = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb0(%x: f32, %y: f32):
      %z = arith.maxnumf %x, %y : f32
      tt.reduce.return %z : f32
    }) : (tensor<64x64xf32, #mma>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %mxb = ttg.convert_layout %mx : tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<64xf32, #blocked>
    %e = arith.extf %mxb : tensor<64xf32, #blocked> to tensor<64xf64, #blocked>
    %l = math.log2 %e : tensor<64xf64, #blocked>
    %ps = tt.splat %p : !tt.ptr<f64> -> tensor<64x!tt.ptr<f64>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<64x!tt.ptr<f64>, #blocked>, tensor<64xi32, #blocked>
    tt.store %pp, %l : tensor<64x!tt.ptr<f64>, #blocked>
    tt.return
  }
}

// -----

// A shared tile written from a converted value is written from the value
// itself (Triton's rule for local_alloc and local_store): a wgmma operand
// computed in the accumulator's layout (a recurrent state, as
// flash-linear-attention's chunk_gated_delta_rule_fwd_kernel_h carries it)
// goes to its swizzled tile without a round trip through a blocked layout.
// A dot operand's layout is not stored from.
// CHECK-LABEL: tt.func @shared_tiles_from_converted_values
// CHECK-NOT: ttg.convert_layout %{{.*}} : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #blocked>
// CHECK: ttg.local_alloc %{{.*}} : (tensor<64x64xf16, #mma>)
// CHECK: ttg.local_store %{{.*}}, %{{.*}} : tensor<64x64xf16, #mma>
// CHECK: ttg.convert_layout %{{.*}} : tensor<64x64xf16, #dot_op> -> tensor<64x64xf16, #blocked>
// CHECK: ttg.local_alloc %{{.*}} : (tensor<64x64xf16, #blocked>)
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#dotop = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func @shared_tiles_from_converted_values(%h: tensor<64x64xf16, #mma>, %a: tensor<64x64xf16, #dotop>, %buf: !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>) -> (!ttg.memdesc<64x64xf16, #nvmma, #smem>, !ttg.memdesc<64x64xf16, #nvmma, #smem>) {
    %b = ttg.convert_layout %h : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #blocked>
    %t = ttg.local_alloc %b : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
    ttg.local_store %b, %buf : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    %c = ttg.convert_layout %a : tensor<64x64xf16, #dotop> -> tensor<64x64xf16, #blocked>
    %u = ttg.local_alloc %c : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
    tt.return %t, %u : !ttg.memdesc<64x64xf16, #nvmma, #smem>, !ttg.memdesc<64x64xf16, #nvmma, #smem>
  }
}
