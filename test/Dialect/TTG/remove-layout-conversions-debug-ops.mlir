// RUN: tritium-opt %s -split-input-file -ttg-remove-layout-conversions | FileCheck %s

// tt.assert and tt.print check or print each element where it is, so they
// take the layout of the value they are given instead of anchoring the one
// the op was built with.  The input is coalesced: indices loaded four to a
// thread (#blocked1), checked by an assert built in the one-per-thread
// layout (#blocked), and stored.  Were the assert anchored, the comparison
// would stay in its layout and the indices be converted for it; following
// its value, the whole function is in the loads' layout.
// CHECK-LABEL: tt.func public @checked_index
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.assert {{.*}} : tensor<1024xi1, #[[VEC:blocked[0-9]*]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store {{.*}} : tensor<1024x!tt.ptr<i32>, #[[VEC]]>

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @checked_index(%arg0: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
    %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<1024x!tt.ptr<i32>, #blocked>, tensor<1024xi32, #blocked>
    %3 = ttg.convert_layout %2 : tensor<1024x!tt.ptr<i32>, #blocked> -> tensor<1024x!tt.ptr<i32>, #blocked1>
    %4 = tt.load %3 : tensor<1024x!tt.ptr<i32>, #blocked1>
    %5 = ttg.convert_layout %4 : tensor<1024xi32, #blocked1> -> tensor<1024xi32, #blocked>
    %cst = arith.constant dense<100> : tensor<1024xi32, #blocked>
    %6 = arith.cmpi slt, %5, %cst : tensor<1024xi32, #blocked>
    tt.assert %6, "index out of bounds" : tensor<1024xi1, #blocked>
    %cst_0 = arith.constant dense<2> : tensor<1024xi32, #blocked>
    %7 = arith.muli %5, %cst_0 : tensor<1024xi32, #blocked>
    %8 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>, #blocked>
    %9 = tt.addptr %8, %0 : tensor<1024x!tt.ptr<i32>, #blocked>, tensor<1024xi32, #blocked>
    %10 = ttg.convert_layout %9 : tensor<1024x!tt.ptr<i32>, #blocked> -> tensor<1024x!tt.ptr<i32>, #blocked1>
    %11 = ttg.convert_layout %7 : tensor<1024xi32, #blocked> -> tensor<1024xi32, #blocked1>
    tt.store %10, %11 : tensor<1024x!tt.ptr<i32>, #blocked1>
    tt.return
  }
}

// -----

// The same for a tt.print of one tensor.
// CHECK-LABEL: tt.func public @printed_index
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.print {{.*}} : tensor<1024xi1, #[[VEC:blocked[0-9]*]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store {{.*}} : tensor<1024x!tt.ptr<i32>, #[[VEC]]>

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @printed_index(%arg0: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
    %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<1024x!tt.ptr<i32>, #blocked>, tensor<1024xi32, #blocked>
    %3 = ttg.convert_layout %2 : tensor<1024x!tt.ptr<i32>, #blocked> -> tensor<1024x!tt.ptr<i32>, #blocked1>
    %4 = tt.load %3 : tensor<1024x!tt.ptr<i32>, #blocked1>
    %5 = ttg.convert_layout %4 : tensor<1024xi32, #blocked1> -> tensor<1024xi32, #blocked>
    %cst = arith.constant dense<100> : tensor<1024xi32, #blocked>
    %6 = arith.cmpi slt, %5, %cst : tensor<1024xi32, #blocked>
    tt.print " idx: " {hex = false, isSigned = array<i32: 1>} : %6 : tensor<1024xi1, #blocked>
    %cst_0 = arith.constant dense<2> : tensor<1024xi32, #blocked>
    %7 = arith.muli %5, %cst_0 : tensor<1024xi32, #blocked>
    %8 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>, #blocked>
    %9 = tt.addptr %8, %0 : tensor<1024x!tt.ptr<i32>, #blocked>, tensor<1024xi32, #blocked>
    %10 = ttg.convert_layout %9 : tensor<1024x!tt.ptr<i32>, #blocked> -> tensor<1024x!tt.ptr<i32>, #blocked1>
    %11 = ttg.convert_layout %7 : tensor<1024xi32, #blocked> -> tensor<1024xi32, #blocked1>
    tt.store %10, %11 : tensor<1024x!tt.ptr<i32>, #blocked1>
    tt.return
  }
}
