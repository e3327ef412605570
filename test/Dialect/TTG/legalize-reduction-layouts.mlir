// RUN: tritium-opt %s -split-input-file -ttg-legalize-reduction-layouts | FileCheck %s

// A reduction whose operand layout repeats a row basis in registers and
// lanes: converted to the default blocked layout, reduced there, and the
// result converted back to the slice of the old layout.
#odd = #ttg.linear<{register = [[8, 0]], lane = [[2, 0], [0, 0], [8, 0], [4, 0], [16, 0]], warp = [[1, 0]], block = []}>
// CHECK: #[[BLOCKED:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 1], order = [1, 0]}>
// CHECK: #[[OLD:.*]] = #ttg.slice<{dim = 0, parent = #ttg.linear<{register = {{\[\[}}8, 0]]
// CHECK: #[[NEW:.*]] = #ttg.slice<{dim = 0, parent = #[[BLOCKED]]}>
// CHECK-LABEL: tt.func @reduce_repeated_basis
// CHECK: %[[IN:.*]] = ttg.convert_layout %arg0 : tensor<32x1xi32, #ttg.linear<{{.*}}>> -> tensor<32x1xi32, #[[BLOCKED]]>
// CHECK: %[[SUM:.*]] = "tt.reduce"(%[[IN]]) <{axis = 0 : i32}>
// CHECK: arith.addi
// CHECK: %[[OUT:.*]] = ttg.convert_layout %[[SUM]] : tensor<1xi32, #[[NEW]]> -> tensor<1xi32, #[[OLD]]>
// CHECK: tt.return %[[OUT]]
module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reduce_repeated_basis(%x: tensor<32x1xi32, #odd>) -> tensor<1xi32, #ttg.slice<{dim = 0, parent = #odd}>> {
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tt.reduce.return %t : i32
    }) : (tensor<32x1xi32, #odd>) -> tensor<1xi32, #ttg.slice<{dim = 0, parent = #odd}>>
    tt.return %s : tensor<1xi32, #ttg.slice<{dim = 0, parent = #odd}>>
  }
}

// -----

// A reduction to a scalar, of two operands, along a lane basis that also
// moves across the axis: both operands converted, the scalars used as they
// were.
#mixed = #ttg.linear<{register = [], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [1, 1]], warp = [], block = []}>
// CHECK-LABEL: tt.func @argmax_mixed_basis
// CHECK: %[[V:.*]] = ttg.convert_layout %arg0 : {{.*}} -> tensor<16x2xi32, #[[B:blocked[0-9]*]]>
// CHECK: %[[I:.*]] = ttg.convert_layout %arg1 : {{.*}} -> tensor<16x2xi32, #[[B]]>
// CHECK: %[[M:.*]]:2 = "tt.reduce"(%[[V]], %[[I]]) <{axis = 0 : i32}>
// CHECK: ttg.convert_layout %[[M]]#0
// CHECK: ttg.convert_layout %[[M]]#1
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @argmax_mixed_basis(%v: tensor<16x2xi32, #mixed>, %i: tensor<16x2xi32, #mixed>) -> (tensor<2xi32, #ttg.slice<{dim = 0, parent = #mixed}>>, tensor<2xi32, #ttg.slice<{dim = 0, parent = #mixed}>>) {
    %m:2 = "tt.reduce"(%v, %i) <{axis = 0 : i32}> ({
    ^bb0(%a: i32, %ai: i32, %b: i32, %bi: i32):
      %gt = arith.cmpi sgt, %a, %b : i32
      %x = arith.select %gt, %a, %b : i32
      %xi = arith.select %gt, %ai, %bi : i32
      tt.reduce.return %x, %xi : i32, i32
    }) : (tensor<16x2xi32, #mixed>, tensor<16x2xi32, #mixed>) -> (tensor<2xi32, #ttg.slice<{dim = 0, parent = #mixed}>>, tensor<2xi32, #ttg.slice<{dim = 0, parent = #mixed}>>)
    tt.return %m#0, %m#1 : tensor<2xi32, #ttg.slice<{dim = 0, parent = #mixed}>>, tensor<2xi32, #ttg.slice<{dim = 0, parent = #mixed}>>
  }
}

// -----

// A scan whose lanes along the axis are not consecutive lane ids: scanned
// in the blocked layout, the result converted back.  A blocked reduction
// and scan are left alone.
#strided = #ttg.linear<{register = [], lane = [[0, 1], [1, 0], [0, 2], [2, 0], [0, 4]], warp = [], block = []}>
#row = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @scan_strided_lanes
// CHECK: %[[IN:.*]] = ttg.convert_layout %arg0
// CHECK: %[[S:.*]] = "tt.scan"(%[[IN]]) <{axis = 1 : i32
// CHECK: ttg.convert_layout %[[S]]
// CHECK: "tt.scan"(%arg1) <{axis = 1 : i32
// CHECK-NOT: ttg.convert_layout
// CHECK: "tt.reduce"(%arg1) <{axis = 1 : i32}>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scan_strided_lanes(%x: tensor<4x8xi32, #strided>, %y: tensor<4x8xi32, #row>) -> (tensor<4x8xi32, #strided>, tensor<4x8xi32, #row>, tensor<4xi32, #ttg.slice<{dim = 1, parent = #row}>>) {
    %s = "tt.scan"(%x) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tt.scan.return %t : i32
    }) : (tensor<4x8xi32, #strided>) -> tensor<4x8xi32, #strided>
    %t = "tt.scan"(%y) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %u = arith.addi %a, %b : i32
      tt.scan.return %u : i32
    }) : (tensor<4x8xi32, #row>) -> tensor<4x8xi32, #row>
    %r = "tt.reduce"(%y) <{axis = 1 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %u = arith.addi %a, %b : i32
      tt.reduce.return %u : i32
    }) : (tensor<4x8xi32, #row>) -> tensor<4xi32, #ttg.slice<{dim = 1, parent = #row}>>
    tt.return %s, %t, %r : tensor<4x8xi32, #strided>, tensor<4x8xi32, #row>, tensor<4xi32, #ttg.slice<{dim = 1, parent = #row}>>
  }
}
