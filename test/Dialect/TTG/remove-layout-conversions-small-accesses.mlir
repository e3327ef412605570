// RUN: tritium-opt %s -split-input-file -ttg-remove-layout-conversions | FileCheck %s

// Loads and stores of fewer elements than threads anchor no layout.  The
// input is a coalesced reduction over one row of 512 (XBLOCK = 1, 4 warps):
// per-row values ([1, 1]) are loaded in the layout coalescing gives a
// [1, 1] tensor, all threads along the size-1 dimension (#blocked1), and are
// broadcast into the [1, 512] computation.  Anchored, that layout spread
// through the broadcasts and the [1, 512] values were converted into it,
// each thread then holding all 512 (255 registers and spills).  Following
// their neighbours instead, the row is computed in the [1, 512] loads'
// layout and only [1, 1] values are converted.
// CHECK-LABEL: tt.func public @row_of_512
// CHECK-NOT: ttg.convert_layout {{.*}} : tensor<1x512
// CHECK: tt.store {{.*}} : tensor<1x512x!tt.ptr<f32>
// CHECK-NEXT: tt.return

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#slice = #ttg.slice<{dim = 1, parent = #blocked1}>
#slice1 = #ttg.slice<{dim = 0, parent = #blocked}>
#slice2 = #ttg.slice<{dim = 1, parent = #blocked}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @row_of_512(%arg0: !tt.ptr<i1> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg4: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg5: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg6: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg7: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg8: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg9: i32 {tt.divisibility = 16 : i32}, %arg10: i32 {tt.divisibility = 16 : i32}) {
    %cst = arith.constant dense<0.0204081628> : tensor<1x512xf32, #blocked>
    %cst_0 = arith.constant dense<0.00255102036> : tensor<1x1xf32, #blocked1>
    %cst_1 = arith.constant dense<512> : tensor<1x512xi32, #blocked>
    %cst_2 = arith.constant dense<0> : tensor<1x512xi8, #blocked>
    %cst_3 = arith.constant dense<25088> : tensor<1x512xi32, #blocked>
    %cst_4 = arith.constant dense<49> : tensor<1x1xi32, #blocked1>
    %cst_5 = arith.constant dense<49> : tensor<1x512xi32, #blocked>
    %cst_6 = arith.constant dense<392> : tensor<1x512xi32, #blocked>
    %cst_7 = arith.constant dense<0.000000e+00> : tensor<1x512xf32, #blocked>
    %cst_8 = arith.constant dense<512> : tensor<1x1xi32, #blocked1>
    %0 = tt.get_program_id {axis = 0 : i32} : i32
    %1 = tt.make_range {end = 1 : i32, start = 0 : i32} : tensor<1xi32, #blocked2>
    %2 = ttg.convert_layout %1 : tensor<1xi32, #blocked2> -> tensor<1xi32, #slice>
    %3 = tt.expand_dims %2 {axis = 1 : i32} : tensor<1xi32, #slice> -> tensor<1x1xi32, #blocked1>
    %4 = tt.splat %0 : i32 -> tensor<1x1xi32, #blocked1>
    %5 = arith.addi %4, %3 : tensor<1x1xi32, #blocked1>
    %6 = arith.cmpi slt, %5, %cst_8 : tensor<1x1xi32, #blocked1>
    %7 = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked2>
    %8 = ttg.convert_layout %7 : tensor<512xi32, #blocked2> -> tensor<512xi32, #slice1>
    %9 = tt.expand_dims %8 {axis = 0 : i32} : tensor<512xi32, #slice1> -> tensor<1x512xi32, #blocked>
    %10 = arith.cmpi slt, %9, %cst_6 : tensor<1x512xi32, #blocked>
    %11 = arith.remsi %9, %cst_5 : tensor<1x512xi32, #blocked>
    %12 = arith.divsi %9, %cst_5 : tensor<1x512xi32, #blocked>
    %13 = arith.muli %5, %cst_4 : tensor<1x1xi32, #blocked1>
    %14 = ttg.convert_layout %13 : tensor<1x1xi32, #blocked1> -> tensor<1x1xi32, #blocked>
    %15 = tt.broadcast %14 : tensor<1x1xi32, #blocked> -> tensor<1x512xi32, #blocked>
    %16 = arith.addi %11, %15 : tensor<1x512xi32, #blocked>
    %17 = arith.muli %12, %cst_3 : tensor<1x512xi32, #blocked>
    %18 = arith.addi %16, %17 : tensor<1x512xi32, #blocked>
    %19 = tt.splat %arg0 : !tt.ptr<i1> -> tensor<1x512x!tt.ptr<i1>, #blocked>
    %20 = tt.addptr %19, %18 : tensor<1x512x!tt.ptr<i1>, #blocked>, tensor<1x512xi32, #blocked>
    %21 = ttg.convert_layout %6 : tensor<1x1xi1, #blocked1> -> tensor<1x1xi1, #blocked>
    %22 = tt.broadcast %21 : tensor<1x1xi1, #blocked> -> tensor<1x512xi1, #blocked>
    %23 = arith.andi %10, %22 : tensor<1x512xi1, #blocked>
    %24 = tt.bitcast %20 : tensor<1x512x!tt.ptr<i1>, #blocked> -> tensor<1x512x!tt.ptr<i8>, #blocked>
    %25 = tt.load %24, %23, %cst_2 evictionPolicy = evict_last : tensor<1x512x!tt.ptr<i8>, #blocked>
    %26 = arith.cmpi ne, %25, %cst_2 : tensor<1x512xi8, #blocked>
    %27 = arith.muli %12, %cst_1 : tensor<1x512xi32, #blocked>
    %28 = ttg.convert_layout %5 : tensor<1x1xi32, #blocked1> -> tensor<1x1xi32, #blocked>
    %29 = tt.broadcast %28 : tensor<1x1xi32, #blocked> -> tensor<1x512xi32, #blocked>
    %30 = arith.addi %29, %27 : tensor<1x512xi32, #blocked>
    %31 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<1x512x!tt.ptr<f32>, #blocked>
    %32 = tt.addptr %31, %30 : tensor<1x512x!tt.ptr<f32>, #blocked>, tensor<1x512xi32, #blocked>
    %33 = tt.load %32, %23, %cst_7 evictionPolicy = evict_last : tensor<1x512x!tt.ptr<f32>, #blocked>
    %34 = arith.mulf %33, %cst : tensor<1x512xf32, #blocked>
    %35 = arith.select %26, %cst_7, %34 : tensor<1x512xi1, #blocked>, tensor<1x512xf32, #blocked>
    %36 = arith.addf %35, %cst_7 : tensor<1x512xf32, #blocked>
    %37 = arith.select %23, %36, %cst_7 : tensor<1x512xi1, #blocked>, tensor<1x512xf32, #blocked>
    %38 = "tt.reduce"(%37) <{axis = 1 : i32}> ({
    ^bb0(%arg11: f32, %arg12: f32):
      %85 = arith.addf %arg11, %arg12 : f32
      tt.reduce.return %85 : f32
    }) : (tensor<1x512xf32, #blocked>) -> tensor<1xf32, #slice2>
    %39 = ttg.convert_layout %38 : tensor<1xf32, #slice2> -> tensor<1xf32, #slice>
    %40 = tt.expand_dims %39 {axis = 1 : i32} : tensor<1xf32, #slice> -> tensor<1x1xf32, #blocked1>
    %41 = tt.splat %arg7 : !tt.ptr<f32> -> tensor<1x1x!tt.ptr<f32>, #blocked1>
    %42 = tt.addptr %41, %5 : tensor<1x1x!tt.ptr<f32>, #blocked1>, tensor<1x1xi32, #blocked1>
    tt.store %42, %40, %6 : tensor<1x1x!tt.ptr<f32>, #blocked1>
    %43 = tt.splat %arg3 : !tt.ptr<f32> -> tensor<1x1x!tt.ptr<f32>, #blocked1>
    %44 = tt.addptr %43, %5 : tensor<1x1x!tt.ptr<f32>, #blocked1>, tensor<1x1xi32, #blocked1>
    %45 = tt.load %44, %6 evictionPolicy = evict_last : tensor<1x1x!tt.ptr<f32>, #blocked1>
    %46 = tt.splat %arg4 : !tt.ptr<f32> -> tensor<1x1x!tt.ptr<f32>, #blocked1>
    %47 = tt.addptr %46, %5 : tensor<1x1x!tt.ptr<f32>, #blocked1>, tensor<1x1xi32, #blocked1>
    %48 = tt.load %47, %6 evictionPolicy = evict_last : tensor<1x1x!tt.ptr<f32>, #blocked1>
    %49 = tt.splat %arg5 : !tt.ptr<f32> -> tensor<1x1x!tt.ptr<f32>, #blocked1>
    %50 = tt.addptr %49, %5 : tensor<1x1x!tt.ptr<f32>, #blocked1>, tensor<1x1xi32, #blocked1>
    %51 = tt.load %50, %6 evictionPolicy = evict_last : tensor<1x1x!tt.ptr<f32>, #blocked1>
    %52 = tt.splat %arg6 : !tt.ptr<f32> -> tensor<1x1x!tt.ptr<f32>, #blocked1>
    %53 = tt.addptr %52, %5 : tensor<1x1x!tt.ptr<f32>, #blocked1>, tensor<1x1xi32, #blocked1>
    %54 = tt.load %53, %6 evictionPolicy = evict_last : tensor<1x1x!tt.ptr<f32>, #blocked1>
    %55 = tt.load %24, %23, %cst_2 evictionPolicy = evict_first : tensor<1x512x!tt.ptr<i8>, #blocked>
    %56 = arith.cmpi ne, %55, %cst_2 : tensor<1x512xi8, #blocked>
    %57 = tt.load %32, %23, %cst_7 evictionPolicy = evict_last : tensor<1x512x!tt.ptr<f32>, #blocked>
    %58 = arith.muli %9, %cst_1 : tensor<1x512xi32, #blocked>
    %59 = arith.addi %29, %58 : tensor<1x512xi32, #blocked>
    %60 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1x512x!tt.ptr<f32>, #blocked>
    %61 = tt.addptr %60, %59 : tensor<1x512x!tt.ptr<f32>, #blocked>, tensor<1x512xi32, #blocked>
    %62 = tt.load %61, %23, %cst_7 evictionPolicy = evict_first : tensor<1x512x!tt.ptr<f32>, #blocked>
    %63 = arith.mulf %57, %cst : tensor<1x512xf32, #blocked>
    %64 = arith.select %56, %cst_7, %63 : tensor<1x512xi1, #blocked>, tensor<1x512xf32, #blocked>
    %65 = ttg.convert_layout %45 : tensor<1x1xf32, #blocked1> -> tensor<1x1xf32, #blocked>
    %66 = tt.broadcast %65 : tensor<1x1xf32, #blocked> -> tensor<1x512xf32, #blocked>
    %67 = arith.subf %62, %66 : tensor<1x512xf32, #blocked>
    %68 = arith.mulf %48, %cst_0 : tensor<1x1xf32, #blocked1>
    %69 = arith.mulf %51, %51 : tensor<1x1xf32, #blocked1>
    %70 = arith.mulf %68, %69 : tensor<1x1xf32, #blocked1>
    %71 = ttg.convert_layout %70 : tensor<1x1xf32, #blocked1> -> tensor<1x1xf32, #blocked>
    %72 = tt.broadcast %71 : tensor<1x1xf32, #blocked> -> tensor<1x512xf32, #blocked>
    %73 = arith.mulf %67, %72 : tensor<1x512xf32, #blocked>
    %74 = arith.subf %64, %73 : tensor<1x512xf32, #blocked>
    %75 = arith.mulf %40, %cst_0 : tensor<1x1xf32, #blocked1>
    %76 = ttg.convert_layout %75 : tensor<1x1xf32, #blocked1> -> tensor<1x1xf32, #blocked>
    %77 = tt.broadcast %76 : tensor<1x1xf32, #blocked> -> tensor<1x512xf32, #blocked>
    %78 = arith.subf %74, %77 : tensor<1x512xf32, #blocked>
    %79 = arith.mulf %51, %54 : tensor<1x1xf32, #blocked1>
    %80 = ttg.convert_layout %79 : tensor<1x1xf32, #blocked1> -> tensor<1x1xf32, #blocked>
    %81 = tt.broadcast %80 : tensor<1x1xf32, #blocked> -> tensor<1x512xf32, #blocked>
    %82 = arith.mulf %78, %81 : tensor<1x512xf32, #blocked>
    %83 = tt.splat %arg8 : !tt.ptr<f32> -> tensor<1x512x!tt.ptr<f32>, #blocked>
    %84 = tt.addptr %83, %18 : tensor<1x512x!tt.ptr<f32>, #blocked>, tensor<1x512xi32, #blocked>
    tt.store %84, %82, %23 : tensor<1x512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A store of fewer elements than threads follows the value it stores; a
// claim through its mask does not move it.  Here its offsets and mask share
// a range with a mask in the loop, which the loop's flood claims in the
// column slice of the tile; the stored value, a row statistic the loop
// carries, is in the row slice.  Moved by its mask, the store took the
// column slice and pulled the value's f64 math into it (xformers' split-K
// log-sum-exp at BLOCK_M = BLOCK_N = 64: sixteen f64 log2 a thread in the
// column slice of its QK layout, two in the row slice).
// CHECK-LABEL: tt.func @row_statistic_stored_after_its_loop
// CHECK: scf.yield %{{.*}} : tensor<64xf32, #[[ROW:.*]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: math.log2 %{{.*}} : tensor<64xf64, #[[ROW]]>
// CHECK: tt.store %{{.*}} : tensor<64x!tt.ptr<f64>, #[[ROW]]>
#A = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @row_statistic_stored_after_its_loop(%tile: tensor<64x64x!tt.ptr<f32>, #A>, %out: !tt.ptr<f64>, %n: i32, %ub: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %ninf = arith.constant dense<0xFF800000> : tensor<64xf32, #b1>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #A>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b1>
    %m = scf.for %i = %c0 to %ub step %c64 iter_args(%mi = %ninf) -> (tensor<64xf32, #b1>) : i32 {
      %rs = ttg.convert_layout %r : tensor<64xi32, #b1> -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #A}>>
      %cols = tt.expand_dims %rs {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #A}>> -> tensor<1x64xi32, #A>
      %lim = tt.splat %i : i32 -> tensor<1x64xi32, #A>
      %in1 = arith.cmpi slt, %cols, %lim : tensor<1x64xi32, #A>
      %in = tt.broadcast %in1 : tensor<1x64xi1, #A> -> tensor<64x64xi1, #A>
      %xl = tt.load %tile : tensor<64x64x!tt.ptr<f32>, #A>
      %x = arith.select %in, %xl, %zero : tensor<64x64xi1, #A>, tensor<64x64xf32, #A>
      %rowmax = "tt.reduce"(%x) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %mx = arith.maximumf %a, %b : f32
        tt.reduce.return %mx : f32
      }) : (tensor<64x64xf32, #A>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #A}>>
      %rm = ttg.convert_layout %rowmax : tensor<64xf32, #ttg.slice<{dim = 1, parent = #A}>> -> tensor<64xf32, #b1>
      %mnew = arith.maximumf %mi, %rm : tensor<64xf32, #b1>
      scf.yield %mnew : tensor<64xf32, #b1>
    }
    %wide = arith.extf %m : tensor<64xf32, #b1> to tensor<64xf64, #b1>
    %lse = math.log2 %wide : tensor<64xf64, #b1>
    %base = tt.splat %out : !tt.ptr<f64> -> tensor<64x!tt.ptr<f64>, #b1>
    %ptrs = tt.addptr %base, %r : tensor<64x!tt.ptr<f64>, #b1>, tensor<64xi32, #b1>
    %nv = tt.splat %n : i32 -> tensor<64xi32, #b1>
    %mask = arith.cmpi slt, %r, %nv : tensor<64xi32, #b1>
    tt.store %ptrs, %lse, %mask : tensor<64x!tt.ptr<f64>, #b1>
    tt.return
  }
}
