// RUN: tritium-opt %s -split-input-file -tt-rewrite-tensor-pointer -verify-diagnostics | FileCheck %s

// A 2-D load with both dimensions checked and zero padding: element (i, j)
// is at base + (o0 + i) * sm + (o1 + j) * 1, computed in i64; the mask is
// 0 <= o0 + i < m and 0 <= o1 + j < n; the padding is the other value.
// CHECK-LABEL: tt.func @load_2d_boundary_check_padding
// CHECK-SAME: (%[[BASE:[^:]*]]: !tt.ptr<f16>, %[[M:[^:]*]]: i64, %[[N:[^:]*]]: i64, %[[SM:[^:]*]]: i64, %[[O0:[^:]*]]: i32, %[[O1:[^:]*]]: i32)
// CHECK-NOT: tt.make_tensor_ptr
// CHECK: %[[PAD:.*]] = arith.constant dense<0.000000e+00> : tensor<32x64xf16>
// CHECK: %[[R0:.*]] = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
// CHECK: %[[R0W:.*]] = arith.extsi %[[R0]] : tensor<32xi32> to tensor<32xi64>
// CHECK: %[[O0W:.*]] = arith.extsi %[[O0]] : i32 to i64
// CHECK: %[[O0S:.*]] = tt.splat %[[O0W]] : i64 -> tensor<32xi64>
// CHECK: %[[IDX0:.*]] = arith.addi %[[O0S]], %[[R0W]] : tensor<32xi64>
// CHECK: %[[R1:.*]] = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
// CHECK: %[[IDX1:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<64xi64>
// CHECK: %[[BASES:.*]] = tt.splat %[[BASE]] : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
// CHECK: %[[SMS:.*]] = tt.splat %[[SM]] : i64 -> tensor<32xi64>
// CHECK: %[[D0:.*]] = arith.muli %[[IDX0]], %[[SMS]] : tensor<32xi64>
// CHECK: %[[D0E:.*]] = tt.expand_dims %[[D0]] {axis = 1 : i32} : tensor<32xi64> -> tensor<32x1xi64>
// CHECK: %[[D0B:.*]] = tt.broadcast %[[D0E]] : tensor<32x1xi64> -> tensor<32x64xi64>
// CHECK: %[[P0:.*]] = tt.addptr %[[BASES]], %[[D0B]] : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi64>
// CHECK: %[[D1:.*]] = arith.muli %[[IDX1]], %{{.*}} : tensor<64xi64>
// CHECK: %[[D1E:.*]] = tt.expand_dims %[[D1]] {axis = 0 : i32} : tensor<64xi64> -> tensor<1x64xi64>
// CHECK: %[[D1B:.*]] = tt.broadcast %[[D1E]] : tensor<1x64xi64> -> tensor<32x64xi64>
// CHECK: %[[PTRS:.*]] = tt.addptr %[[P0]], %[[D1B]] : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi64>
// CHECK: %[[MS:.*]] = tt.splat %[[M]] : i64 -> tensor<32xi64>
// CHECK: %[[GE0:.*]] = arith.cmpi sge, %[[IDX0]], %{{.*}} : tensor<32xi64>
// CHECK: %[[LT0:.*]] = arith.cmpi slt, %[[IDX0]], %[[MS]] : tensor<32xi64>
// CHECK: %[[IN0:.*]] = arith.andi %[[GE0]], %[[LT0]] : tensor<32xi1>
// CHECK: %[[IN0E:.*]] = tt.expand_dims %[[IN0]] {axis = 1 : i32} : tensor<32xi1> -> tensor<32x1xi1>
// CHECK: %[[IN0B:.*]] = tt.broadcast %[[IN0E]] : tensor<32x1xi1> -> tensor<32x64xi1>
// CHECK: %[[NS:.*]] = tt.splat %[[N]] : i64 -> tensor<64xi64>
// CHECK: %[[LT1:.*]] = arith.cmpi slt, %[[IDX1]], %[[NS]] : tensor<64xi64>
// CHECK: %[[IN1B:.*]] = tt.broadcast %{{.*}} : tensor<1x64xi1> -> tensor<32x64xi1>
// CHECK: %[[MASK:.*]] = arith.andi %[[IN0B]], %[[IN1B]] : tensor<32x64xi1>
// CHECK: %[[V:.*]] = tt.load %[[PTRS]], %[[MASK]], %[[PAD]] cacheModifier = cg : tensor<32x64x!tt.ptr<f16>>
// CHECK: tt.return %[[V]]
tt.func @load_2d_boundary_check_padding(%base: !tt.ptr<f16>, %m: i64, %n: i64, %sm: i64, %o0: i32, %o1: i32) -> tensor<32x64xf16> {
  %c1 = arith.constant 1 : i64
  %bp = tt.make_tensor_ptr %base, [%m, %n], [%sm, %c1], [%o0, %o1] {order = array<i32: 1, 0>} : !tt.ptr<tensor<32x64xf16>>
  %v = tt.load %bp cacheModifier = cg {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<32x64xf16>>
  tt.return %v : tensor<32x64xf16>
}

// -----

// NaN padding of a float tile is a NaN other value; a load without
// boundaryCheck has neither mask nor other.
// CHECK-LABEL: tt.func @load_nan_padding_and_unchecked
// CHECK: %[[NAN:.*]] = arith.constant dense<0x7FC00000> : tensor<16xf32>
// CHECK: %[[CHECKED:.*]] = tt.load %{{.*}}, %{{.*}}, %[[NAN]] : tensor<16x!tt.ptr<f32>>
// CHECK: %[[UNCHECKED:.*]] = tt.load %{{[^,]*}} : tensor<16x!tt.ptr<f32>>
// CHECK: tt.return %[[CHECKED]], %[[UNCHECKED]]
tt.func @load_nan_padding_and_unchecked(%base: !tt.ptr<f32>, %k: i64, %o: i32) -> (tensor<16xf32>, tensor<16xf32>) {
  %c1 = arith.constant 1 : i64
  %bp = tt.make_tensor_ptr %base, [%k], [%c1], [%o] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  %a = tt.load %bp {boundaryCheck = array<i32: 0>, padding = 2 : i32} : !tt.ptr<tensor<16xf32>>
  %b = tt.load %bp {padding = 2 : i32} : !tt.ptr<tensor<16xf32>>
  tt.return %a, %b : tensor<16xf32>, tensor<16xf32>
}

// -----

// A store checks only the listed dimension (1): the mask has no term for
// dimension 0 and keeps the store's eviction policy.
// CHECK-LABEL: tt.func @store_checks_one_dim
// CHECK-SAME: (%[[BASE:[^:]*]]: !tt.ptr<f32>, %[[M:[^:]*]]: i64, %[[N:[^:]*]]: i64, %[[V:[^:]*]]: tensor<8x16xf32>)
// CHECK-NOT: tt.splat %[[M]]
// CHECK: tt.addptr %{{.*}}, %{{.*}} : tensor<8x16x!tt.ptr<f32>>, tensor<8x16xi64>
// CHECK: %[[PTRS:.*]] = tt.addptr %{{.*}}, %{{.*}} : tensor<8x16x!tt.ptr<f32>>, tensor<8x16xi64>
// CHECK-NEXT: %{{.*}} = arith.constant dense<0> : tensor<16xi64>
// CHECK-NEXT: %[[NS:.*]] = tt.splat %[[N]] : i64 -> tensor<16xi64>
// CHECK: %[[MASK:.*]] = tt.broadcast %{{.*}} : tensor<1x16xi1> -> tensor<8x16xi1>
// CHECK-NEXT: tt.store %[[PTRS]], %[[V]], %[[MASK]] evictionPolicy = evict_last : tensor<8x16x!tt.ptr<f32>>
tt.func @store_checks_one_dim(%base: !tt.ptr<f32>, %m: i64, %n: i64, %v: tensor<8x16xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %bp = tt.make_tensor_ptr %base, [%m, %n], [%n, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<8x16xf32>>
  tt.store %bp, %v evictionPolicy = evict_last {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<8x16xf32>>
  tt.return
}

// -----

// tt.advance adds its deltas to the offsets; the load then starts there.
// CHECK-LABEL: tt.func @advance
// CHECK-SAME: (%[[BASE:[^:]*]]: !tt.ptr<f32>, %[[K:[^:]*]]: i64, %[[O:[^:]*]]: i32, %[[D:[^:]*]]: i32)
// CHECK: %[[NEW:.*]] = arith.addi %[[O]], %[[D]] : i32
// CHECK: %[[W:.*]] = arith.extsi %[[NEW]] : i32 to i64
// CHECK: tt.splat %[[W]] : i64 -> tensor<16xi64>
// CHECK-NOT: tt.advance
// CHECK: tt.load
tt.func @advance(%base: !tt.ptr<f32>, %k: i64, %o: i32, %d: i32) -> tensor<16xf32> {
  %c1 = arith.constant 1 : i64
  %bp = tt.make_tensor_ptr %base, [%k], [%c1], [%o] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  %next = tt.advance %bp, [%d] : !tt.ptr<tensor<16xf32>>
  %v = tt.load %next : !tt.ptr<tensor<16xf32>>
  tt.return %v : tensor<16xf32>
}

// -----

// A block pointer carried by scf.for becomes its parts (base, shape, stride,
// offset) as iteration arguments; the body advances the offset, and the
// loop's final block pointer is rebuilt from the loop's results.
// CHECK-LABEL: tt.func @for_carried
// CHECK-SAME: (%[[BASE:[^:]*]]: !tt.ptr<f32>, %[[K:[^:]*]]: i64)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : i32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<16xf32>
// CHECK: %[[R:.*]]:5 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]], %[[B:.*]] = %[[BASE]], %[[S:.*]] = %[[K]], %[[ST:.*]] = %[[C1]], %[[OFF:.*]] = %[[C0]]) -> (tensor<16xf32>, !tt.ptr<f32>, i64, i64, i32)
// CHECK: %[[OW:.*]] = arith.extsi %[[OFF]] : i32 to i64
// CHECK: tt.splat %[[B]] : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
// CHECK: tt.splat %[[ST]] : i64 -> tensor<16xi64>
// CHECK: tt.splat %[[S]] : i64 -> tensor<16xi64>
// CHECK: %[[V:.*]] = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x!tt.ptr<f32>>
// CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], %[[V]] : tensor<16xf32>
// CHECK: %[[NEXT:.*]] = arith.addi %[[OFF]], %[[C16]] : i32
// CHECK: scf.yield %[[SUM]], %[[B]], %[[S]], %[[ST]], %[[NEXT]] : tensor<16xf32>, !tt.ptr<f32>, i64, i64, i32
// CHECK: arith.extsi %[[R]]#4 : i32 to i64
// CHECK: tt.splat %[[R]]#1 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
// CHECK: tt.store %{{.*}}, %[[R]]#0 : tensor<16x!tt.ptr<f32>>
tt.func @for_carried(%base: !tt.ptr<f32>, %k: i64) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %c16 = arith.constant 16 : i32
  %c4 = arith.constant 4 : i32
  %step = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %bp = tt.make_tensor_ptr %base, [%k], [%c1], [%c0] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  %r:2 = scf.for %i = %c0 to %c4 step %step iter_args(%acc = %zero, %p = %bp) -> (tensor<16xf32>, !tt.ptr<tensor<16xf32>>) : i32 {
    %v = tt.load %p {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<16xf32>>
    %a = arith.addf %acc, %v : tensor<16xf32>
    %next = tt.advance %p, [%c16] : !tt.ptr<tensor<16xf32>>
    scf.yield %a, %next : tensor<16xf32>, !tt.ptr<tensor<16xf32>>
  }
  tt.store %r#1, %r#0 : !tt.ptr<tensor<16xf32>>
  tt.return
}

// -----

// A block pointer chosen by scf.if becomes the if's results, one per part.
// CHECK-LABEL: tt.func @if_result
// CHECK: %[[R:.*]]:4 = scf.if %{{.*}} -> (!tt.ptr<f32>, i64, i64, i32) {
// CHECK: %[[MOVED:.*]] = arith.addi
// CHECK: scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %[[MOVED]] : !tt.ptr<f32>, i64, i64, i32
// CHECK: } else {
// CHECK: scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !tt.ptr<f32>, i64, i64, i32
// CHECK: }
// CHECK: arith.extsi %[[R]]#3 : i32 to i64
// CHECK: tt.load
tt.func @if_result(%base: !tt.ptr<f32>, %k: i64, %c: i1) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %c16 = arith.constant 16 : i32
  %bp = tt.make_tensor_ptr %base, [%k], [%c1], [%c0] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  %q = scf.if %c -> !tt.ptr<tensor<16xf32>> {
    %n = tt.advance %bp, [%c16] : !tt.ptr<tensor<16xf32>>
    scf.yield %n : !tt.ptr<tensor<16xf32>>
  } else {
    scf.yield %bp : !tt.ptr<tensor<16xf32>>
  }
  %v = tt.load %q : !tt.ptr<tensor<16xf32>>
  tt.return %v : tensor<16xf32>
}

// -----

// Negative: loads and stores through tensors of pointers, and loops without
// block pointers, are left alone.
// CHECK-LABEL: tt.func @no_block_pointers
// CHECK-SAME: (%[[P:[^:]*]]: tensor<16x!tt.ptr<f32>>, %[[M:[^:]*]]: tensor<16xi1>)
// CHECK-NEXT: %[[V:.*]] = tt.load %[[P]], %[[M]] : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT: tt.store %[[P]], %[[V]], %[[M]] : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT: tt.return
tt.func @no_block_pointers(%p: tensor<16x!tt.ptr<f32>>, %m: tensor<16xi1>) {
  %v = tt.load %p, %m : tensor<16x!tt.ptr<f32>>
  tt.store %p, %v, %m : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// An unused private function taking a block pointer has been inlined
// already; it is skipped and left for symbol-dce.
// CHECK-LABEL: tt.func private @inlined_helper
// CHECK: tt.load %{{.*}} : !tt.ptr<tensor<16xf32>>
tt.func private @inlined_helper(%p: !tt.ptr<tensor<16xf32>>) -> tensor<16xf32> {
  %v = tt.load %p : !tt.ptr<tensor<16xf32>>
  tt.return %v : tensor<16xf32>
}

// -----

// A kernel that takes a block pointer argument cannot be rewritten.
// expected-error @+1 {{block pointers cannot be passed to or returned from a function; 'takes_block_pointer' must be inlined first}}
tt.func public @takes_block_pointer(%p: !tt.ptr<tensor<16xf32>>) {
  tt.return
}

// -----

// A block pointer passed to a call is reported at the call, and the callee
// that takes it at its definition.
// expected-error @+1 {{block pointers cannot be passed to or returned from a function; 'callee' must be inlined first}}
tt.func private @callee(%p: !tt.ptr<tensor<16xf32>>) {
  tt.return
}
tt.func public @caller(%base: !tt.ptr<f32>, %k: i64) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %bp = tt.make_tensor_ptr %base, [%k], [%c1], [%c0] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  // expected-error @+1 {{'tt.call' on a block pointer is not supported by tt-rewrite-tensor-pointer}}
  tt.call @callee(%bp) : (!tt.ptr<tensor<16xf32>>) -> ()
  tt.return
}

// -----

// A block pointer carried by scf.while is reported at the loop.
tt.func public @while_carried(%base: !tt.ptr<f32>, %k: i64, %c: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %bp = tt.make_tensor_ptr %base, [%k], [%c1], [%c0] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  // expected-error @+1 {{'scf.while' on a block pointer is not supported by tt-rewrite-tensor-pointer}}
  %r = scf.while (%p = %bp) : (!tt.ptr<tensor<16xf32>>) -> !tt.ptr<tensor<16xf32>> {
    scf.condition(%c) %p : !tt.ptr<tensor<16xf32>>
  } do {
  ^bb0(%p: !tt.ptr<tensor<16xf32>>):
    scf.yield %p : !tt.ptr<tensor<16xf32>>
  }
  tt.return
}

// -----

// NaN padding needs a floating-point tile.
tt.func public @nan_padding_int(%base: !tt.ptr<i32>, %k: i64) -> tensor<16xi32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %bp = tt.make_tensor_ptr %base, [%k], [%c1], [%c0] {order = array<i32: 0>} : !tt.ptr<tensor<16xi32>>
  // expected-error @+1 {{padding = nan needs a floating-point tile, got 'i32'}}
  %v = tt.load %bp {boundaryCheck = array<i32: 0>, padding = 2 : i32} : !tt.ptr<tensor<16xi32>>
  tt.return %v : tensor<16xi32>
}
