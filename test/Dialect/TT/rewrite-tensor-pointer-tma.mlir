// RUN: tritium-opt %s -split-input-file -tt-rewrite-tensor-pointer=compute-capability=90 | FileCheck %s
// RUN: tritium-opt %s -split-input-file -tt-rewrite-tensor-pointer=compute-capability=80 | FileCheck %s --check-prefix=AMPERE

// A matmul loop over block pointers on Hopper: A (row-major) and B (read
// column-major, order [0, 1]) feed the dot, so each gets a tensor
// descriptor made beside its tt.make_tensor_ptr; the loop carries the
// offsets, and B's tile is loaded in the descriptor's order (32x64, the
// tensor's dimensions slowest first) and transposed back.  The stored
// accumulator goes through a descriptor too.  The kernel arguments used as
// dimensions and strides are marked tt.nonnegative, for the launcher to
// check (the map's fields are unsigned).  Before Hopper, pointers.
// CHECK-LABEL: tt.func public @matmul_block_pointers
// CHECK-SAME: (%[[A:[^:]*]]: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %[[B:[^:]*]]: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %[[C:[^:]*]]: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %{{[^:]*}}: i32 {tt.nonnegative}, %{{[^:]*}}: i32 {tt.nonnegative}, %{{[^:]*}}: i32 {tt.nonnegative}, %[[SA:[^:]*]]: i64 {tt.divisibility = 16 : i32, tt.nonnegative}, %[[SB:[^:]*]]: i64 {tt.divisibility = 16 : i32, tt.nonnegative}
// CHECK: %[[M:.*]] = arith.extsi
// CHECK: %[[N:.*]] = arith.extsi
// CHECK: %[[K:.*]] = arith.extsi
// CHECK: %[[AM:.*]] = arith.trunci %[[M]] : i64 to i32
// CHECK: %[[AK:.*]] = arith.trunci %[[K]] : i64 to i32
// CHECK-NOT: tt.assert
// CHECK: %[[DA:.*]] = tt.make_tensor_descriptor %[[A]], [%[[AM]], %[[AK]]], [%[[SA]], %{{.*}}] {padding = 1 : i32, tt.from_block_pointer} : !tt.ptr<f16> -> !tt.tensordesc<tensor<64x32xf16>>
// CHECK: %[[BN:.*]] = arith.trunci %[[N]] : i64 to i32
// CHECK: %[[BK:.*]] = arith.trunci %[[K]] : i64 to i32
// CHECK: %[[DB:.*]] = tt.make_tensor_descriptor %[[B]], [%[[BN]], %[[BK]]], [%[[SB]], %{{.*}}] {padding = 1 : i32, tt.from_block_pointer} : !tt.ptr<f16> -> !tt.tensordesc<tensor<64x32xf16>>
// CHECK: %[[LOOP:.*]]:{{[0-9]+}} = scf.for
// CHECK:   %[[TA:.*]] = tt.descriptor_load %[[DA]][%{{.*}}, %{{.*}}] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
// CHECK:   %[[TBT:.*]] = tt.descriptor_load %[[DB]][%{{.*}}, %{{.*}}] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
// CHECK:   %[[TB:.*]] = tt.trans %[[TBT]] {order = array<i32: 1, 0>} : tensor<64x32xf16> -> tensor<32x64xf16>
// CHECK:   tt.dot %[[TA]], %[[TB]], %{{.*}}
// CHECK: %[[DC:.*]] = tt.make_tensor_descriptor %[[C]]
// CHECK: tt.descriptor_store %[[DC]][%{{.*}}, %{{.*}}], %[[LOOP]]#0 : !tt.tensordesc<tensor<64x64xf32>>, tensor<64x64xf32>
// CHECK-NOT: tt.load
// AMPERE-LABEL: tt.func public @matmul_block_pointers
// AMPERE-NOT: tt.make_tensor_descriptor
// AMPERE-NOT: tt.descriptor_load
// AMPERE: tt.load %{{.*}} : tensor<64x32x!tt.ptr<f16>>
tt.func public @matmul_block_pointers(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m32: i32, %n32: i32, %k32: i32, %sa: i64 {tt.divisibility = 16 : i32}, %sb: i64 {tt.divisibility = 16 : i32}, %sc: i64 {tt.divisibility = 16 : i32}) {
  %m = arith.extsi %m32 : i32 to i64
  %n = arith.extsi %n32 : i32 to i64
  %k = arith.extsi %k32 : i32 to i64
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %c32 = arith.constant 32 : i32
  %c4 = arith.constant 4 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %pa = tt.make_tensor_ptr %a, [%m, %k], [%sa, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x32xf16>>
  %pb = tt.make_tensor_ptr %b, [%k, %n], [%c1, %sb], [%c0, %c0] {order = array<i32: 0, 1>} : !tt.ptr<tensor<32x64xf16>>
  %r:3 = scf.for %i = %c0 to %c4 step %c4 iter_args(%acc = %zero, %qa = %pa, %qb = %pb) -> (tensor<64x64xf32>, !tt.ptr<tensor<64x32xf16>>, !tt.ptr<tensor<32x64xf16>>) : i32 {
    %ta = tt.load %qa {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x32xf16>>
    %tb = tt.load %qb : !tt.ptr<tensor<32x64xf16>>
    %d = tt.dot %ta, %tb, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %na = tt.advance %qa, [%c0, %c32] : !tt.ptr<tensor<64x32xf16>>
    %nb = tt.advance %qb, [%c32, %c0] : !tt.ptr<tensor<32x64xf16>>
    scf.yield %d, %na, %nb : tensor<64x64xf32>, !tt.ptr<tensor<64x32xf16>>, !tt.ptr<tensor<32x64xf16>>
  }
  %pc = tt.make_tensor_ptr %c, [%m, %n], [%sc, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x64xf32>>
  tt.store %pc, %r#0 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x64xf32>>
  tt.return
}

// -----

// Negative cases, each kept on pointers: a load that feeds no dot; a stride
// not known to be a multiple of 16 bytes; a fastest dimension whose stride
// is not the constant 1; a block pointer made inside a loop; a row of 4
// bytes (under the copy engine's 16); a dimension held in an i64 (a
// descriptor's shape is i32).
// CHECK-LABEL: tt.func public @stays_on_pointers
// CHECK-NOT: tt.make_tensor_descriptor
// CHECK-NOT: tt.descriptor_load
// CHECK: tt.return
tt.func public @stays_on_pointers(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %m32: i32, %k32: i32, %sa: i64 {tt.divisibility = 16 : i32}, %odd: i64, %s1: i64, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %wide: i64) -> (tensor<64x32xf16>, tensor<32x2xf16>) {
  %m = arith.extsi %m32 : i32 to i64
  %k = arith.extsi %k32 : i32 to i64
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %c4 = arith.constant 4 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %p0 = tt.make_tensor_ptr %a, [%m, %k], [%sa, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x32xf16>>
  %plain = tt.load %p0 : !tt.ptr<tensor<64x32xf16>>
  %p1 = tt.make_tensor_ptr %a, [%m, %k], [%odd, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x32xf16>>
  %x1 = tt.load %p1 : !tt.ptr<tensor<64x32xf16>>
  %p2 = tt.make_tensor_ptr %a, [%k, %m], [%sa, %s1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<32x64xf16>>
  %x2 = tt.load %p2 : !tt.ptr<tensor<32x64xf16>>
  %d0 = tt.dot %x1, %x2, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %r = scf.for %i = %c0 to %c4 step %c4 iter_args(%acc = %d0) -> (tensor<64x64xf32>) : i32 {
    %p3 = tt.make_tensor_ptr %a, [%m, %k], [%sa, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x32xf16>>
    %x3 = tt.load %p3 : !tt.ptr<tensor<64x32xf16>>
    %p4 = tt.make_tensor_ptr %a, [%k, %m], [%sa, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<32x64xf16>>
    %x4 = tt.load %p4 : !tt.ptr<tensor<32x64xf16>>
    %d = tt.dot %x3, %x4, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %p5 = tt.make_tensor_ptr %a, [%k, %m], [%sa, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<32x2xf16>>
  %x5 = tt.load %p5 : !tt.ptr<tensor<32x2xf16>>
  %pc = tt.make_tensor_ptr %out, [%m, %m], [%sa, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x64xf32>>
  tt.store %pc, %zero : !tt.ptr<tensor<64x64xf32>>
  %p6 = tt.make_tensor_ptr %a, [%wide, %k], [%sa, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x32xf16>>
  %x6 = tt.load %p6 : !tt.ptr<tensor<64x32xf16>>
  %zero2 = arith.constant dense<0.000000e+00> : tensor<64x2xf32>
  %d6 = tt.dot %x6, %x5, %zero2 : tensor<64x32xf16> * tensor<32x2xf16> -> tensor<64x2xf32>
  tt.return %plain, %x5 : tensor<64x32xf16>, tensor<32x2xf16>
}

// -----

// A block pointer that an scf.if chooses between two tt.make_tensor_ptr ops
// has no single tensor map: its load stays on pointers, though both makes
// are eligible.
// CHECK-LABEL: tt.func public @two_origins
// CHECK-NOT: tt.make_tensor_descriptor
// CHECK: scf.if
// CHECK-NOT: tt.descriptor_load
// CHECK: tt.load %{{.*}} : tensor<64x32x!tt.ptr<f16>>
// CHECK-NOT: tt.descriptor_load
// CHECK: tt.dot
tt.func public @two_origins(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %m32: i32, %k32: i32, %sa: i64 {tt.divisibility = 16 : i32}, %which: i1, %y: tensor<32x64xf16>) -> tensor<64x64xf32> {
  %m = arith.extsi %m32 : i32 to i64
  %k = arith.extsi %k32 : i32 to i64
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %pa = tt.make_tensor_ptr %a, [%m, %k], [%sa, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x32xf16>>
  %pb = tt.make_tensor_ptr %b, [%m, %k], [%sa, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x32xf16>>
  %p = scf.if %which -> (!tt.ptr<tensor<64x32xf16>>) {
    scf.yield %pa : !tt.ptr<tensor<64x32xf16>>
  } else {
    scf.yield %pb : !tt.ptr<tensor<64x32xf16>>
  }
  %x = tt.load %p : !tt.ptr<tensor<64x32xf16>>
  %d = tt.dot %x, %y, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  tt.return %d : tensor<64x64xf32>
}

// -----

// A stored value computed from a dot through a tt.reduce (an op with a
// region) counts as computed from the dot: the store goes through a
// descriptor, rank 1 here.
// CHECK-LABEL: tt.func public @store_through_reduce
// CHECK: %[[D:.*]] = tt.make_tensor_descriptor %arg0
// CHECK-SAME: -> !tt.tensordesc<tensor<64xf32>>
// CHECK: tt.descriptor_store %[[D]][%{{.*}}], %{{.*}} : !tt.tensordesc<tensor<64xf32>>, tensor<64xf32>
tt.func public @store_through_reduce(%c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %x: tensor<64x32xf16>, %y: tensor<32x64xf16>) {
  %m = arith.constant 1000 : i64
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %d = tt.dot %x, %y, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %s = "tt.reduce"(%d) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<64x64xf32>) -> tensor<64xf32>
  %pc = tt.make_tensor_ptr %c, [%m], [%c1], [%c0] {order = array<i32: 0>} : !tt.ptr<tensor<64xf32>>
  tt.store %pc, %s {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<64xf32>>
  tt.return
}

// -----

// Memory order: the copy engine's accesses are not ordered with the
// threads' own.  A load after a global write (here a store before it), a
// store before a global access (a load after it), and accesses in a loop
// that also writes, all stay on pointers; so does a constant negative
// stride.
// CHECK-LABEL: tt.func public @ordered_by_pointers
// CHECK-NOT: tt.make_tensor_descriptor
// CHECK-NOT: tt.descriptor_load
// CHECK-NOT: tt.descriptor_store
// CHECK: tt.return
tt.func public @ordered_by_pointers(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %flag: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %m32: i32, %sa: i64 {tt.divisibility = 16 : i32}, %y: tensor<32x64xf16>) -> tensor<64x64xf32> {
  %m = arith.extsi %m32 : i32 to i64
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %c1_i32 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %pa = tt.make_tensor_ptr %a, [%m, %m], [%sa, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x32xf16>>
  %pc = tt.make_tensor_ptr %c, [%m, %m], [%sa, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x64xf32>>
  // a store, then a load feeding a dot
  tt.store %flag, %c1_i32 : !tt.ptr<i32>
  %x = tt.load %pa : !tt.ptr<tensor<64x32xf16>>
  %d = tt.dot %x, %y, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  // a store of a dot's result, then a load
  tt.store %pc, %d : !tt.ptr<tensor<64x64xf32>>
  %back = tt.load %pc : !tt.ptr<tensor<64x64xf32>>
  tt.return %back : tensor<64x64xf32>
}

// -----

// A constant negative stride (the map's strides are unsigned) or a
// constant dimension of 0 keeps the pointer lowering.
// CHECK-LABEL: tt.func public @signs
// CHECK-NOT: tt.make_tensor_descriptor
// CHECK: tt.return
tt.func public @signs(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %m32: i32, %sa: i64 {tt.divisibility = 16 : i32}, %y: tensor<32x64xf16>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %m = arith.extsi %m32 : i32 to i64
  %c0 = arith.constant 0 : i32
  %c0_i64 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %cm64 = arith.constant -64 : i64
  %c1_i32 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %pn = tt.make_tensor_ptr %a, [%m, %m], [%cm64, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x32xf16>>
  %pz = tt.make_tensor_ptr %a, [%c0_i64, %m], [%sa, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x32xf16>>
  %dn, %dz = scf.for %i = %c0 to %c4 step %c1_i32 iter_args(%an = %zero, %az = %zero) -> (tensor<64x64xf32>, tensor<64x64xf32>) : i32 {
    %xn = tt.load %pn : !tt.ptr<tensor<64x32xf16>>
    %nn = tt.dot %xn, %y, %an : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %xz = tt.load %pz : !tt.ptr<tensor<64x32xf16>>
    %nz = tt.dot %xz, %y, %az : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %nn, %nz : tensor<64x64xf32>, tensor<64x64xf32>
  }
  tt.return %dn, %dz : tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

// A dimension or stride computed in the kernel (not an argument the launcher
// can check) is checked in the kernel: a tt.assert before the map.
// CHECK-LABEL: tt.func public @checked_in_kernel
// CHECK-SAME: %{{[^:]*}}: i64 {tt.divisibility = 16 : i32}, %{{[^:]*}}: tensor<32x64xf16>)
// CHECK: %[[S:.*]] = arith.muli
// CHECK: %[[OK:.*]] = arith.cmpi sge, %[[S]], %{{.*}} : i64
// CHECK-NOT: arith.cmpi
// CHECK: tt.assert %[[OK]], "block pointer moved by the copy engine (TMA): its shape and strides must not be negative"
// CHECK: tt.make_tensor_descriptor %arg0, [%{{.*}}, %{{.*}}], [%[[S]], %{{.*}}]
tt.func public @checked_in_kernel(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %s: i64 {tt.divisibility = 16 : i32}, %y: tensor<32x64xf16>) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c100 = arith.constant 100 : i64
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %c1_i32 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %s2 = arith.muli %s, %c2 : i64
  %p = tt.make_tensor_ptr %a, [%c100, %c100], [%s2, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x32xf16>>
  %d = scf.for %i = %c0 to %c4 step %c1_i32 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %x = tt.load %p : !tt.ptr<tensor<64x32xf16>>
    %n = tt.dot %x, %y, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %n : tensor<64x64xf32>
  }
  tt.return %d : tensor<64x64xf32>
}

// -----

// Stores: one in a loop (its next iteration comes after it) and one after a
// read its value does not depend on stay on pointers; one after a read it
// depends on (the read has been performed) goes through a descriptor.
// CHECK-LABEL: tt.func public @store_order
// CHECK: scf.for
// CHECK:   tt.store %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f32>>
// CHECK: tt.load %arg2 : !tt.ptr<f32>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f32>>
// CHECK-NOT: tt.descriptor_store
// CHECK-LABEL: tt.func public @store_after_dependent_read
// CHECK: tt.load %arg2 : !tt.ptr<f32>
// CHECK: tt.descriptor_store
tt.func public @store_order(%c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %s: !tt.ptr<f32>, %x: tensor<64x32xf16>, %y: tensor<32x64xf16>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %c4 = arith.constant 4 : i32
  %c64 = arith.constant 64 : i64
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %pc = tt.make_tensor_ptr %c, [%c64, %c64], [%c64, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x64xf32>>
  scf.for %i = %c0 to %c4 step %c4 : i32 {
    %r = tt.dot %x, %y, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    tt.store %pc, %r : !tt.ptr<tensor<64x64xf32>>
  }
  %unrelated = tt.load %s : !tt.ptr<f32>
  %pd = tt.make_tensor_ptr %d, [%c64, %c64], [%c64, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x64xf32>>
  %r2 = tt.dot %x, %y, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  tt.store %pd, %r2 : !tt.ptr<tensor<64x64xf32>>
  tt.return
}
tt.func public @store_after_dependent_read(%c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %s: !tt.ptr<f32>, %x: tensor<64x32xf16>, %y: tensor<32x64xf16>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %c64 = arith.constant 64 : i64
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %scale = tt.load %s : !tt.ptr<f32>
  %pd = tt.make_tensor_ptr %d, [%c64, %c64], [%c64, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x64xf32>>
  %r = tt.dot %x, %y, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %b = tt.splat %scale : f32 -> tensor<64x64xf32>
  %scaled = arith.mulf %r, %b : tensor<64x64xf32>
  tt.store %pd, %scaled : !tt.ptr<tensor<64x64xf32>>
  tt.return
}

// -----

// Signs: an i64 argument truncated to i32 and widened back (x.to(tl.int32))
// can turn negative in the kernel: it is checked there, not at launch.
// CHECK-LABEL: tt.func public @truncated_argument
// CHECK-SAME: %{{[^:]*}}: i64,
// CHECK: %[[T:.*]] = arith.trunci %arg1 : i64 to i32
// CHECK: arith.cmpi sge
// CHECK: tt.assert
// CHECK: tt.make_tensor_descriptor
tt.func public @truncated_argument(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %m: i64, %y: tensor<32x64xf16>) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %c64 = arith.constant 64 : i64
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %c1_i32 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %m32 = arith.trunci %m : i64 to i32
  %mw = arith.extsi %m32 : i32 to i64
  %p = tt.make_tensor_ptr %a, [%mw, %c64], [%c64, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x32xf16>>
  %d = scf.for %i = %c0 to %c4 step %c1_i32 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %x = tt.load %p : !tt.ptr<tensor<64x32xf16>>
    %n = tt.dot %x, %y, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %n : tensor<64x64xf32>
  }
  tt.return %d : tensor<64x64xf32>
}

// -----

// Only loads in loops with a constant step take the copy engine, whatever
// their stages (a ring streams them, or at one stage the lowering issues
// each copy ahead of its wait): a tile loaded once (no loop) would pay for
// the map its program makes for one copy, and a loop whose step is not a
// constant keeps its loads on pointers too.
// CHECK-LABEL: tt.func public @loads_in_stepped_loops
// CHECK-DAG: %[[B:.*]] = tt.make_tensor_descriptor %arg1
// CHECK-DAG: %[[C:.*]] = tt.make_tensor_descriptor %arg2
// CHECK-NOT: tt.make_tensor_descriptor
// CHECK: tt.load %{{.*}} : tensor<64x32x!tt.ptr<f16>>
// CHECK: scf.for
// CHECK:   tt.descriptor_load %[[B]]
// CHECK: } {tt.num_stages = 1 : i32}
// CHECK: scf.for
// CHECK:   tt.descriptor_load %[[C]]
// CHECK: scf.for
// CHECK:   tt.load %{{.*}} : tensor<64x32x!tt.ptr<f16>>
tt.func public @loads_in_stepped_loops(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32},
                                       %c: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %e: !tt.ptr<f16> {tt.divisibility = 16 : i32},
                                       %y: tensor<32x64xf16>, %step: i32) -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c1_i64 = arith.constant 1 : i64
  %c64 = arith.constant 64 : i64
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %pa = tt.make_tensor_ptr %a, [%c64, %c64], [%c64, %c1_i64], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x32xf16>>
  %pb = tt.make_tensor_ptr %b, [%c64, %c64], [%c64, %c1_i64], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x32xf16>>
  %pc = tt.make_tensor_ptr %c, [%c64, %c64], [%c64, %c1_i64], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x32xf16>>
  %pe = tt.make_tensor_ptr %e, [%c64, %c64], [%c64, %c1_i64], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x32xf16>>
  %xa = tt.load %pa : !tt.ptr<tensor<64x32xf16>>
  %da = tt.dot %xa, %y, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %db = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %xb = tt.load %pb : !tt.ptr<tensor<64x32xf16>>
    %n = tt.dot %xb, %y, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %n : tensor<64x64xf32>
  } {tt.num_stages = 1 : i32}
  %dc = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %xc = tt.load %pc : !tt.ptr<tensor<64x32xf16>>
    %n = tt.dot %xc, %y, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %n : tensor<64x64xf32>
  }
  %de = scf.for %i = %c0 to %c4 step %step iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %xe = tt.load %pe : !tt.ptr<tensor<64x32xf16>>
    %n = tt.dot %xe, %y, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %n : tensor<64x64xf32>
  }
  tt.return %da, %db, %dc, %de : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}
