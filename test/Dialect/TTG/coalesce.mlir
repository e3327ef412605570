// RUN: tritium-opt %s -split-input-file -ttg-coalesce | FileCheck %s

// 1024 f32 from 16-byte aligned pointers: each thread loads 4 consecutive
// elements (one 128-bit vector).  The load's pointers, mask and other value
// are converted into the new layout and its result converted back; the
// store and the atomic get the same layout.
// CHECK-DAG: #[[DEF:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[VEC4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @vectorize_f32
// CHECK: %[[MASK:.*]] = arith.cmpi
// CHECK: %[[OTHER:.*]] = arith.constant dense<0.000000e+00> : tensor<1024xf32, #[[DEF]]>
// CHECK: %[[PTRS:.*]] = tt.addptr
// CHECK: %[[P4:.*]] = ttg.convert_layout %[[PTRS]] : tensor<1024x!tt.ptr<f32>, #[[DEF]]> -> tensor<1024x!tt.ptr<f32>, #[[VEC4]]>
// CHECK: %[[M4:.*]] = ttg.convert_layout %[[MASK]] : tensor<1024xi1, #[[DEF]]> -> tensor<1024xi1, #[[VEC4]]>
// CHECK: %[[O4:.*]] = ttg.convert_layout %[[OTHER]] : tensor<1024xf32, #[[DEF]]> -> tensor<1024xf32, #[[VEC4]]>
// CHECK: %[[V4:.*]] = tt.load %[[P4]], %[[M4]], %[[O4]] : tensor<1024x!tt.ptr<f32>, #[[VEC4]]>
// CHECK: %[[V:.*]] = ttg.convert_layout %[[V4]] : tensor<1024xf32, #[[VEC4]]> -> tensor<1024xf32, #[[DEF]]>
// CHECK: %[[OLD4:.*]] = tt.atomic_rmw fadd, acq_rel, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1024x!tt.ptr<f32>, #[[VEC4]]>, tensor<1024xf32, #[[VEC4]]>, tensor<1024xi1, #[[VEC4]]>) -> tensor<1024xf32, #[[VEC4]]>
// CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[VEC4]]>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @vectorize_f32(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %r = tt.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %mask = arith.cmpi slt, %r, %ns : tensor<1024xi32, #blocked>
    %zero = arith.constant dense<0.0> : tensor<1024xf32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %xp = tt.addptr %xs, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %xp, %mask, %zero : tensor<1024x!tt.ptr<f32>, #blocked>
    %old = tt.atomic_rmw fadd, acq_rel, gpu, %xp, %v, %mask : (tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xf32, #blocked>, tensor<1024xi1, #blocked>) -> tensor<1024xf32, #blocked>
    tt.store %xp, %old, %mask : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// f16 from 16-byte aligned pointers: 8 elements per thread is 128 bits.
// CHECK-DAG: #[[VEC8:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @vectorize_f16
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<f16>, #[[VEC8]]>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @vectorize_f16(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}) -> tensor<1024xf16, #blocked> {
    %r = tt.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %xp = tt.addptr %xs, %r : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %xp : tensor<1024x!tt.ptr<f16>, #blocked>
    tt.return %v : tensor<1024xf16, #blocked>
  }
}

// -----

// A transpose: the input tile is column-major (element (i, j) at i + j * m,
// contiguous along dimension 0), so its load gets order [0, 1] with 4
// elements per thread down the columns; the output tile is row-major
// (element (i, j) at i * n + j), so its store gets order [1, 0].
// CHECK-DAG: #[[COLMAJOR:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[ROWMAJOR:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @transpose
// CHECK: %[[IN:.*]] = ttg.convert_layout %{{.*}} : tensor<64x64x!tt.ptr<f32>, #{{.*}}> -> tensor<64x64x!tt.ptr<f32>, #[[COLMAJOR]]>
// CHECK: %[[V:.*]] = tt.load %[[IN]] : tensor<64x64x!tt.ptr<f32>, #[[COLMAJOR]]>
// CHECK: %[[OUT:.*]] = ttg.convert_layout %{{.*}} : tensor<64x64x!tt.ptr<f32>, #{{.*}}> -> tensor<64x64x!tt.ptr<f32>, #[[ROWMAJOR]]>
// CHECK: tt.store %[[OUT]], %{{.*}} : tensor<64x64x!tt.ptr<f32>, #[[ROWMAJOR]]>
#tile = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#rows = #ttg.slice<{dim = 1, parent = #tile}>
#cols = #ttg.slice<{dim = 0, parent = #tile}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @transpose(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: i32 {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %rm = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #rows>
    %rn = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #cols>
    %i = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32, #rows> -> tensor<64x1xi32, #tile>
    %j = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #tile>
    %ms = tt.splat %m : i32 -> tensor<1x64xi32, #tile>
    %ns = tt.splat %n : i32 -> tensor<64x1xi32, #tile>
    %jm = arith.muli %j, %ms : tensor<1x64xi32, #tile>
    %ib = tt.broadcast %i : tensor<64x1xi32, #tile> -> tensor<64x64xi32, #tile>
    %jmb = tt.broadcast %jm : tensor<1x64xi32, #tile> -> tensor<64x64xi32, #tile>
    %inoff = arith.addi %ib, %jmb : tensor<64x64xi32, #tile>
    %in_ = arith.muli %i, %ns : tensor<64x1xi32, #tile>
    %inb = tt.broadcast %in_ : tensor<64x1xi32, #tile> -> tensor<64x64xi32, #tile>
    %jb = tt.broadcast %j : tensor<1x64xi32, #tile> -> tensor<64x64xi32, #tile>
    %outoff = arith.addi %inb, %jb : tensor<64x64xi32, #tile>
    %inbase = tt.splat %in : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #tile>
    %inp = tt.addptr %inbase, %inoff : tensor<64x64x!tt.ptr<f32>, #tile>, tensor<64x64xi32, #tile>
    %v = tt.load %inp : tensor<64x64x!tt.ptr<f32>, #tile>
    %outbase = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #tile>
    %outp = tt.addptr %outbase, %outoff : tensor<64x64x!tt.ptr<f32>, #tile>, tensor<64x64xi32, #tile>
    tt.store %outp, %v : tensor<64x64x!tt.ptr<f32>, #tile>
    tt.return
  }
}

// -----

// Negative case: pointers of unknown alignment (no tt.divisibility) allow
// one element per thread, which is the layout the ops already have; and a
// tensor no larger than the CTA keeps one element per thread whatever its
// alignment.  Nothing changes, scalar accesses included.
// CHECK-LABEL: tt.func @unknown_alignment
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #blocked>
// CHECK: tt.load %{{.*}} : tensor<128x!tt.ptr<f32>, #blocked>
// CHECK: tt.load %{{.*}} : !tt.ptr<f32>
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @unknown_alignment(%x: !tt.ptr<f32>, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %xp = tt.addptr %xs, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %xp : tensor<1024x!tt.ptr<f32>, #blocked>
    %r128 = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #blocked>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %yp = tt.addptr %ys, %r128 : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %w = tt.load %yp : tensor<128x!tt.ptr<f32>, #blocked>
    %s = tt.load %y : !tt.ptr<f32>
    tt.return
  }
}

// -----

// A load takes the widest vector of the stores of its shape and order that
// its value reaches through element-wise ops: bf16 loaded from 16-byte
// aligned pointers is 8 a thread on its own, but converted to fp8 and stored
// it takes 16 (two vectors a thread, in the store's layout, nothing converted
// between them).  The store keeps its own width: in @store_keeps_its_width
// an fp32 store of the bf16 values stays at 4.  In
// @index_arithmetic_links_nothing the fp8 store shares only the offsets with
// the load, so the load keeps 8.  Loads whose values meet in an element-wise
// op take the widest of them: in @loads_meeting_take_the_widest an fp32
// tile (4 a thread on its own) scales an fp16 tile (8 a thread), and both are
// loaded 8 a thread (the next split: not where the product is a dot operand
// of their loop).
// CHECK-DAG: #[[VEC16:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [16], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[VEC8:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[VEC4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @load_takes_the_stores_width
// CHECK: tt.load %{{.*}} : tensor<2048x!tt.ptr<bf16>, #[[VEC16]]>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<2048x!tt.ptr<f8E4M3FN>, #[[VEC16]]>
// CHECK-LABEL: tt.func @store_keeps_its_width
// CHECK: tt.load %{{.*}} : tensor<2048x!tt.ptr<bf16>, #[[VEC8]]>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<2048x!tt.ptr<f32>, #[[VEC4]]>
// CHECK-LABEL: tt.func @index_arithmetic_links_nothing
// CHECK: tt.load %{{.*}} : tensor<2048x!tt.ptr<bf16>, #[[VEC8]]>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<2048x!tt.ptr<f8E4M3FN>, #[[VEC16]]>
// CHECK-LABEL: tt.func @loads_meeting_take_the_widest
// CHECK: tt.load %{{.*}} : tensor<2048x!tt.ptr<f16>, #[[VEC8]]>
// CHECK: tt.load %{{.*}} : tensor<2048x!tt.ptr<f32>, #[[VEC8]]>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @load_takes_the_stores_width(%x: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {start = 0 : i32, end = 2048 : i32} : tensor<2048xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<bf16> -> tensor<2048x!tt.ptr<bf16>, #blocked>
    %xp = tt.addptr %xs, %r : tensor<2048x!tt.ptr<bf16>, #blocked>, tensor<2048xi32, #blocked>
    %v = tt.load %xp : tensor<2048x!tt.ptr<bf16>, #blocked>
    %f = tt.fp_to_fp %v, rounding = rtne : tensor<2048xbf16, #blocked> -> tensor<2048xf8E4M3FN, #blocked>
    %ys = tt.splat %y : !tt.ptr<f8E4M3FN> -> tensor<2048x!tt.ptr<f8E4M3FN>, #blocked>
    %yp = tt.addptr %ys, %r : tensor<2048x!tt.ptr<f8E4M3FN>, #blocked>, tensor<2048xi32, #blocked>
    tt.store %yp, %f : tensor<2048x!tt.ptr<f8E4M3FN>, #blocked>
    tt.return
  }
  tt.func @store_keeps_its_width(%x: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {start = 0 : i32, end = 2048 : i32} : tensor<2048xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<bf16> -> tensor<2048x!tt.ptr<bf16>, #blocked>
    %xp = tt.addptr %xs, %r : tensor<2048x!tt.ptr<bf16>, #blocked>, tensor<2048xi32, #blocked>
    %v = tt.load %xp : tensor<2048x!tt.ptr<bf16>, #blocked>
    %f = arith.extf %v : tensor<2048xbf16, #blocked> to tensor<2048xf32, #blocked>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<2048x!tt.ptr<f32>, #blocked>
    %yp = tt.addptr %ys, %r : tensor<2048x!tt.ptr<f32>, #blocked>, tensor<2048xi32, #blocked>
    tt.store %yp, %f : tensor<2048x!tt.ptr<f32>, #blocked>
    tt.return
  }
  tt.func @index_arithmetic_links_nothing(%x: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32},
                                          %z: tensor<2048xf8E4M3FN, #blocked>) -> tensor<2048xbf16, #blocked> {
    %r = tt.make_range {start = 0 : i32, end = 2048 : i32} : tensor<2048xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<bf16> -> tensor<2048x!tt.ptr<bf16>, #blocked>
    %xp = tt.addptr %xs, %r : tensor<2048x!tt.ptr<bf16>, #blocked>, tensor<2048xi32, #blocked>
    %v = tt.load %xp : tensor<2048x!tt.ptr<bf16>, #blocked>
    %ys = tt.splat %y : !tt.ptr<f8E4M3FN> -> tensor<2048x!tt.ptr<f8E4M3FN>, #blocked>
    %yp = tt.addptr %ys, %r : tensor<2048x!tt.ptr<f8E4M3FN>, #blocked>, tensor<2048xi32, #blocked>
    tt.store %yp, %z : tensor<2048x!tt.ptr<f8E4M3FN>, #blocked>
    tt.return %v : tensor<2048xbf16, #blocked>
  }
  tt.func @loads_meeting_take_the_widest(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %g: !tt.ptr<f32> {tt.divisibility = 16 : i32}) -> tensor<2048xf16, #blocked> {
    %r = tt.make_range {start = 0 : i32, end = 2048 : i32} : tensor<2048xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %xp = tt.addptr %xs, %r : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
    %v = tt.load %xp : tensor<2048x!tt.ptr<f16>, #blocked>
    %gs = tt.splat %g : !tt.ptr<f32> -> tensor<2048x!tt.ptr<f32>, #blocked>
    %gp = tt.addptr %gs, %r : tensor<2048x!tt.ptr<f32>, #blocked>, tensor<2048xi32, #blocked>
    %w = tt.load %gp : tensor<2048x!tt.ptr<f32>, #blocked>
    %e = math.exp2 %w : tensor<2048xf32, #blocked>
    %f = arith.extf %v : tensor<2048xf16, #blocked> to tensor<2048xf32, #blocked>
    %m = arith.mulf %f, %e : tensor<2048xf32, #blocked>
    %t = arith.truncf %m : tensor<2048xf32, #blocked> to tensor<2048xf16, #blocked>
    tt.return %t : tensor<2048xf16, #blocked>
  }
}

// -----

// Loads that meet in a dot operand of the loop they are loaded in keep their
// own widths: ttg-pipeline streams them into shared memory, where the dot's
// operand is read in its own layout.  In @operand_of_the_loops_dot an fp16
// tile scaled by exp2 of an fp32 tile is the dot's A: the fp32 tile stays 4
// a thread.  In @operand_of_a_dot_under_an_if the dot is in an scf.if of the
// body (ttg-pipeline streams nothing for it; the two tiles meet in
// registers, flash-linear-attention's chunk_gla_fwd_kernel_o): the fp32 tile
// takes the fp16 tile's 8 and no conversion joins them.
// CHECK-DAG: #[[WIDE:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[NARROW:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @operand_of_the_loops_dot
// CHECK: scf.for
// CHECK: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>, #[[WIDE]]>
// CHECK: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f32>, #[[NARROW]]>
// CHECK-LABEL: tt.func @operand_of_a_dot_under_an_if
// CHECK: scf.for
// CHECK: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>, #[[WIDE]]>
// CHECK: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f32>, #[[WIDE]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#dot_op = #ttg.dot_op<{opIdx = 0, parent = #blocked3, kWidth = 1}>
#dot_op1 = #ttg.dot_op<{opIdx = 1, parent = #blocked3, kWidth = 1}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @operand_of_the_loops_dot(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %g: !tt.ptr<f32> {tt.divisibility = 16 : i32},
                                    %h: tensor<64x64xf16, #dot_op1>, %n: i32) -> tensor<64x64xf32, #blocked3> {
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %row = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %rowoff = arith.muli %row, %c64 : tensor<64x1xi32, #blocked>
    %col = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %rowb = tt.broadcast %rowoff : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %colb = tt.broadcast %col : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %offsets = arith.addi %rowb, %colb : tensor<64x64xi32, #blocked>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked3>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #blocked3>) : i32 {
      %qs = tt.splat %q : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
      %qp = tt.addptr %qs, %offsets : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %qv = tt.load %qp : tensor<64x64x!tt.ptr<f16>, #blocked>
      %gs = tt.splat %g : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
      %gp = tt.addptr %gs, %offsets : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
      %gv = tt.load %gp : tensor<64x64x!tt.ptr<f32>, #blocked>
      %e = math.exp2 %gv : tensor<64x64xf32, #blocked>
      %w = arith.extf %qv : tensor<64x64xf16, #blocked> to tensor<64x64xf32, #blocked>
      %m = arith.mulf %w, %e : tensor<64x64xf32, #blocked>
      %t = arith.truncf %m : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
      %a = ttg.convert_layout %t : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #dot_op>
      %d = tt.dot %a, %h, %acc : tensor<64x64xf16, #dot_op> * tensor<64x64xf16, #dot_op1> -> tensor<64x64xf32, #blocked3>
      scf.yield %d : tensor<64x64xf32, #blocked3>
    }
    tt.return %r : tensor<64x64xf32, #blocked3>
  }
  tt.func @operand_of_a_dot_under_an_if(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %g: !tt.ptr<f32> {tt.divisibility = 16 : i32},
                                        %h: tensor<64x64xf16, #dot_op1>, %n: i32) -> tensor<64x64xf32, #blocked3> {
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %row = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %rowoff = arith.muli %row, %c64 : tensor<64x1xi32, #blocked>
    %col = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %rowb = tt.broadcast %rowoff : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %colb = tt.broadcast %col : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %offsets = arith.addi %rowb, %colb : tensor<64x64xi32, #blocked>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked3>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #blocked3>) : i32 {
      %qs = tt.splat %q : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
      %qp = tt.addptr %qs, %offsets : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %qv = tt.load %qp : tensor<64x64x!tt.ptr<f16>, #blocked>
      %gs = tt.splat %g : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
      %gp = tt.addptr %gs, %offsets : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
      %gv = tt.load %gp : tensor<64x64x!tt.ptr<f32>, #blocked>
      %e = math.exp2 %gv : tensor<64x64xf32, #blocked>
      %w = arith.extf %qv : tensor<64x64xf16, #blocked> to tensor<64x64xf32, #blocked>
      %m = arith.mulf %w, %e : tensor<64x64xf32, #blocked>
      %t = arith.truncf %m : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
      %first = arith.cmpi sge, %i, %c0 : i32
      %next = scf.if %first -> (tensor<64x64xf32, #blocked3>) {
        %a = ttg.convert_layout %t : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #dot_op>
        %d = tt.dot %a, %h, %acc : tensor<64x64xf16, #dot_op> * tensor<64x64xf16, #dot_op1> -> tensor<64x64xf32, #blocked3>
        scf.yield %d : tensor<64x64xf32, #blocked3>
      } else {
        scf.yield %acc : tensor<64x64xf32, #blocked3>
      }
      scf.yield %next : tensor<64x64xf32, #blocked3>
    }
    tt.return %r : tensor<64x64xf32, #blocked3>
  }
}
