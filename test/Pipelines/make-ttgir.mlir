// RUN: tritium-opt %s -split-input-file -tritium-make-ttgir | FileCheck %s
// RUN: tritium-opt %s -split-input-file -tritium-make-ttgir="num-warps=8 threads-per-warp=32 num-ctas=1 target=cuda:80" | FileCheck %s --check-prefix=WARPS8

// A vector add as the frontend emits it, with 16-byte aligned f32 pointers:
// every tensor ends in one blocked layout with 4 consecutive elements per
// thread (128-bit accesses), and no layout conversion is left.
// CHECK: #[[V4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NOT: #blocked
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}
// CHECK-LABEL: tt.func public @add_kernel
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[OFFS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<1024xi32, #[[V4]]>
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %[[OFFS]], %{{.*}} : tensor<1024xi32, #[[V4]]>
// CHECK: %[[X:.*]] = tt.load %{{.*}}, %[[MASK]] : tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK: %[[Y:.*]] = tt.load %{{.*}}, %[[MASK]] : tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK: %[[SUM:.*]] = arith.addf %[[X]], %[[Y]] : tensor<1024xf32, #[[V4]]>
// CHECK: tt.store %{{.*}}, %[[SUM]], %[[MASK]] : tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK-NOT: ttg.convert_layout
// With 8 warps of 32 threads there are 4 elements per thread too (1024 /
// 256), and the launch shape comes from the options.
// WARPS8: #[[V4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// WARPS8: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32}
// WARPS8-LABEL: tt.func public @add_kernel
// WARPS8-NOT: ttg.convert_layout
// WARPS8: tt.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[V4]]>
tt.func public @add_kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %z: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
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

// Negative case: without tt.divisibility the pointers may be misaligned, so
// each thread keeps one element; still no conversion is needed.
// CHECK: #[[V1:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NOT: #blocked
// CHECK-LABEL: tt.func public @copy_unaligned
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[V:.*]] = tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[V1]]>
// CHECK: tt.store %{{.*}}, %[[V]] : tensor<1024x!tt.ptr<f32>, #[[V1]]>
// CHECK-NOT: ttg.convert_layout
tt.func public @copy_unaligned(%x: !tt.ptr<f32>, %z: !tt.ptr<f32>) {
  %range = tt.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %xv = tt.load %xp : tensor<1024x!tt.ptr<f32>>
  %zs = tt.splat %z : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %zp = tt.addptr %zs, %range : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  tt.store %zp, %xv : tensor<1024x!tt.ptr<f32>>
  tt.return
}
