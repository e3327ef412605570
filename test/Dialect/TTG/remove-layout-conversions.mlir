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
// slice of that layout.
// CHECK-DAG: #[[V4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[ROWS:slice[0-9]*]] = #ttg.slice<{dim = 1, parent = #[[V4]]}>
// CHECK-LABEL: tt.func @reduce_follows
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[X:.*]] = tt.load %{{.*}} : tensor<32x32x!tt.ptr<f32>, #[[V4]]>
// CHECK: %[[SUM:.*]] = tt.reduce %[[X]] axis = 1
// CHECK: }) : (tensor<32x32xf32, #[[V4]]>) -> tensor<32xf32, #[[ROWS]]>
// CHECK: %[[Y:.*]] = arith.mulf %[[SUM]], %[[SUM]] : tensor<32xf32, #[[ROWS]]>
// CHECK: %[[RET:.*]] = ttg.convert_layout %[[Y]] : tensor<32xf32, #[[ROWS]]> -> tensor<32xf32, #blocked{{[0-9]*}}>
// CHECK: tt.return %[[RET]]
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
