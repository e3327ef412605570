// RUN: tritium-opt %s -split-input-file -test-print-axis-info -verify-diagnostics -o /dev/null

// Each tensor result gets a remark with its contiguity (runs of consecutive
// values), divisibility (power of two dividing the first value of each run)
// and constancy (runs of equal values), per dimension.  2^30 (1073741824)
// stands for "divisible by anything", the divisibility of 0.

// A range from 0 is one run starting at 0; a range from 64 starts at 64.
tt.func @make_range() {
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %r0 = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [64], constancy = [1]}}
  %r1 = tt.make_range {start = 64 : i32, end = 128 : i32} : tensor<64xi32>
  tt.return
}

// -----

// A splat is constant everywhere and keeps the scalar's divisibility; adding
// a range to it gives runs that start at multiples of the gcd.
tt.func @splat_add(%n: i32 {tt.divisibility = 16 : i32}, %pid: i32) {
  %c1024 = arith.constant 1024 : i32
  %start = arith.muli %pid, %c1024 : i32
  // expected-remark @below {{contiguity = [1024], divisibility = [1073741824], constancy = [1]}}
  %r = tt.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1024], constancy = [1024]}}
  %s = tt.splat %start : i32 -> tensor<1024xi32>
  // expected-remark @below {{contiguity = [1024], divisibility = [1024], constancy = [1]}}
  %offs = arith.addi %s, %r : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1024]}}
  %ns = tt.splat %n : i32 -> tensor<1024xi32>
  // The mask `offs < n` can only flip at a multiple of 16.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  // `offs <= n` flips one past a multiple of 16: no constancy is known.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %le = arith.cmpi sle, %offs, %ns : tensor<1024xi32>
  // Subtracting the range leaves no runs (they count down).
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %down = arith.subi %s, %r : tensor<1024xi32>
  tt.return
}

// -----

// expand_dims adds a dimension of size 1 in which every element is its own
// run; broadcast makes a size-1 dimension constant.  The row index times a
// stride of 64 is divisible by 64 everywhere.
tt.func @broadcast_expand_dims() {
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [64, 1], divisibility = [1073741824, 1], constancy = [1, 1]}}
  %col = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [1, 1]}}
  %row = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [64, 64], constancy = [64, 1]}}
  %c64 = arith.constant dense<64> : tensor<64x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [64, 64], constancy = [1, 1]}}
  %rowStart = arith.muli %col, %c64 : tensor<64x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [64, 64], constancy = [1, 32]}}
  %a = tt.broadcast %rowStart : tensor<64x1xi32> -> tensor<64x32xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [64, 1]}}
  %b = tt.broadcast %row : tensor<1x64xi32> -> tensor<64x64xi32>
  tt.return
}

// -----

// Multiplying by a constant multiplies the divisibility of every element;
// the elements of a run are only divisible by 1 before.  Multiplying by 1
// changes nothing, by 0 gives the constant 0.
tt.func @mul_by_constant() {
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128]}}
  %c4 = arith.constant dense<4> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %c1 = arith.constant dense<1> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [128]}}
  %c0 = arith.constant dense<0> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
  %m4 = arith.muli %r, %c4 : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %m1 = arith.muli %r, %c1 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [128]}}
  %m0 = arith.muli %c0, %r : tensor<128xi32>
  // A shift left by 3 multiplies by 8.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %c3 = arith.constant dense<3> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [1]}}
  %s = arith.shli %m4, %c3 : tensor<128xi32>
  tt.return
}

// -----

// Division and remainder by a power of two: `r / 8` is constant over blocks
// of 8, `r % 8` counts up in runs of 8 from multiples of 8; `r & 7` is
// `r % 8`; `r >> 2` is `r / 4`.
tt.func @div_rem_and_shift() {
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [128]}}
  %c8 = arith.constant dense<8> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [8]}}
  %q = arith.divsi %r, %c8 : tensor<128xi32>
  // expected-remark @below {{contiguity = [8], divisibility = [8], constancy = [1]}}
  %m = arith.remui %r, %c8 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %c7 = arith.constant dense<7> : tensor<128xi32>
  // expected-remark @below {{contiguity = [8], divisibility = [8], constancy = [1]}}
  %a = arith.andi %r, %c7 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [2], constancy = [128]}}
  %c2 = arith.constant dense<2> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [4]}}
  %sh = arith.shrui %r, %c2 : tensor<128xi32>
  tt.return
}

// -----

// Pointer divisibility counts bytes: a 16-byte aligned f32 base plus a
// range is a run of 128 consecutive elements starting 16-byte aligned;
// offsets scaled by 4 (elements) are 16-byte steps of f32.
tt.func @addptr_aligned(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f16>) {
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %pr = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128]}}
  %c4 = arith.constant dense<4> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
  %r4 = arith.muli %r, %c4 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %strided = tt.addptr %ps, %r4 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  // Without a tt.divisibility attribute the base is only byte-aligned.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>>
  // expected-remark @below {{contiguity = [128], divisibility = [1], constancy = [1]}}
  %qr = tt.addptr %qs, %r : tensor<128x!tt.ptr<f16>>, tensor<128xi32>
  // What a load returns is unknown.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %v = tt.load %pr : tensor<128x!tt.ptr<f32>>
  tt.return
}

// -----

// Loop-carried values are the join of the initial and the yielded values:
// pointers advanced by 128 f32 (512 bytes) stay 16-byte aligned runs, while
// offsets advanced by 3 lose their divisibility.  The induction variable
// stepping by 32 from 0 is a multiple of 32.
tt.func @loop_arguments(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %p0 = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [128]}}
  %c128 = arith.constant dense<128> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %c3 = arith.constant dense<3> : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1]}}
  // expected-remark @below {{contiguity = [128], divisibility = [1], constancy = [1]}}
  %res:2 = scf.for %i = %c0 to %n step %c32 iter_args(%ptrs = %p0, %offs = %r) -> (tensor<128x!tt.ptr<f32>>, tensor<128xi32>) : i32 {
    // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [128]}}
    %is = tt.splat %i : i32 -> tensor<128xi32>
    // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1]}}
    %next = tt.addptr %ptrs, %c128 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    // expected-remark @below {{contiguity = [128], divisibility = [1], constancy = [1]}}
    %offs3 = arith.addi %offs, %c3 : tensor<128xi32>
    scf.yield %next, %offs3 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  }
  tt.return
}

// -----

// A loop that carries nothing still knows its induction variable (layer
// norm's last loop): stepping by 4096 from 0 gives multiples of 4096.
tt.func @loop_without_iter_args(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c4096 = arith.constant 4096 : i32
  scf.for %i = %c0 to %n step %c4096 : i32 {
    // expected-remark @below {{contiguity = [1], divisibility = [4096], constancy = [64]}}
    %is = tt.splat %i : i32 -> tensor<64xi32>
  }
  tt.return
}

// -----

// Hints from tl.multiple_of / tl.max_contiguous / tl.max_constancy replace
// what was computed, here for loaded offsets; function arguments state
// theirs as attributes.  Two runs added together are no run.
tt.func @hints(%p: tensor<64x!tt.ptr<i32>>, %base: !tt.ptr<i32> {tt.divisibility = 64 : i32}, %q: tensor<64xi32> {tt.contiguity = dense<[64]> : tensor<1xi32>, tt.divisibility = dense<[8]> : tensor<1xi32>}) {
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1]}}
  %offs = tt.load %p {tt.contiguity = dense<[16]> : tensor<1xi32>, tt.divisibility = dense<[16]> : tensor<1xi32>} : tensor<64x!tt.ptr<i32>>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [4]}}
  %same = tt.load %p {tt.constancy = dense<[4]> : tensor<1xi32>} : tensor<64x!tt.ptr<i32>>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %sum = arith.addi %offs, %q : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [64]}}
  %bs = tt.splat %base : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
  // 8 i32 elements are 32 bytes.
  // expected-remark @below {{contiguity = [64], divisibility = [32], constancy = [1]}}
  %ptrs = tt.addptr %bs, %q : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
  tt.return
}

// -----

// select keeps what holds on both sides within the blocks where the
// condition is constant; a scalar condition is constant everywhere.  Runs of
// 64 from 0 or from 32, cut into the blocks of 16 of the mask, start at
// multiples of 16.
tt.func @select(%c: i1, %n: i32 {tt.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [32], constancy = [1]}}
  %r32 = tt.make_range {start = 32 : i32, end = 96 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [32], constancy = [1]}}
  %s = arith.select %c, %r, %r32 : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64]}}
  %ns = tt.splat %n : i32 -> tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %m = arith.cmpi slt, %r, %ns : tensor<64xi32>
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1]}}
  %t = arith.select %m, %r, %r32 : tensor<64xi1>, tensor<64xi32>
  tt.return
}

// -----

// Negative case: values the analysis cannot see through (a loaded tensor,
// an op it does not model) are unknown: all ones.
tt.func @unknown(%p: tensor<32x!tt.ptr<i32>>, %x: tensor<32xi32>) {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %v = tt.load %p : tensor<32x!tt.ptr<i32>>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %h = tt.histogram %v : tensor<32xi32> -> tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %s = arith.addi %x, %v : tensor<32xi32>
  tt.return
}

// -----

// min and max: each element is one of its operands', so the result is
// divisible by what both are.  The bound a chunked loop masks with,
// min(chunk_size, seqlen - pid * chunk_size), stays a multiple of 16, and a
// range compared with it gives a mask constant over 16 elements.  Two runs
// of step 1 stay a run; a run against a bound does not; constants fold.
tt.func @min_max(%chunk: i32 {tt.divisibility = 16 : i32}, %seqlen: i32 {tt.divisibility = 16 : i32}, %pid: i32) {
  %m = arith.muli %pid, %chunk : i32
  %rest = arith.subi %seqlen, %m : i32
  %limit = arith.minsi %chunk, %rest : i32
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64]}}
  %l = tt.splat %limit : i32 -> tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %mask = arith.cmpi slt, %r, %l : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [64]}}
  %c32 = arith.constant dense<32> : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [32], constancy = [1]}}
  %r32 = arith.addi %r, %c32 : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [32], constancy = [1]}}
  %runs = arith.minsi %r, %r32 : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %clamped = arith.minsi %r, %l : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64]}}
  %c48 = arith.constant dense<48> : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [64]}}
  %c64 = arith.constant dense<64> : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [64]}}
  %max = arith.maxsi %c48, %c64 : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64]}}
  %low = arith.maxui %l, %c32 : tensor<64xi32>
  tt.return
}

// -----

// A load through equal pointers under an equal mask gives equal elements: a
// row index loaded for each element of a 1024-wide row is constant over the
// row (over 16 with the mask), so the gather it addresses is contiguous over
// 16.  Of the loaded values nothing more is known, and a volatile load knows
// nothing.
tt.func @load_constancy(%idx: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [2048], divisibility = [1073741824], constancy = [1]}}
  %r = tt.make_range {start = 0 : i32, end = 2048 : i32} : tensor<2048xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1024], constancy = [2048]}}
  %c1024 = arith.constant dense<1024> : tensor<2048xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1024]}}
  %row = arith.divsi %r, %c1024 : tensor<2048xi32>
  // expected-remark @below {{contiguity = [1024], divisibility = [1024], constancy = [1]}}
  %col = arith.remsi %r, %c1024 : tensor<2048xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [2048]}}
  %ns = tt.splat %n : i32 -> tensor<2048xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %mask = arith.cmpi slt, %r, %ns : tensor<2048xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [2048]}}
  %is = tt.splat %idx : !tt.ptr<i32> -> tensor<2048x!tt.ptr<i32>>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1024]}}
  %ip = tt.addptr %is, %row : tensor<2048x!tt.ptr<i32>>, tensor<2048xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1024]}}
  %k = tt.load %ip : tensor<2048x!tt.ptr<i32>>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %km = tt.load %ip, %mask : tensor<2048x!tt.ptr<i32>>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %kv = tt.load %ip, %mask {isVolatile = true} : tensor<2048x!tt.ptr<i32>>
  // expected-remark @below {{contiguity = [1], divisibility = [1024], constancy = [16]}}
  %base = arith.muli %km, %c1024 : tensor<2048xi32>
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1]}}
  %gather = arith.addi %col, %base : tensor<2048xi32>
  tt.return
}
