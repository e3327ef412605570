// RUN: tritium-opt %s -split-input-file -ttg-allocate-shared-memory -ttg-membar | FileCheck %s

#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// A kernel starts with nothing pending: its first scratch op needs no
// barrier, and a lone scratch op is followed by none.
// CHECK-LABEL: tt.func @first_scratch_op
// CHECK-NOT: ttg.barrier
// CHECK: ttg.convert_layout
// CHECK-NOT: ttg.barrier
// CHECK: tt.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @first_scratch_op(%x: tensor<64x64xf32, #a>) -> tensor<64x64xf32, #b> {
    %y = ttg.convert_layout %x : tensor<64x64xf32, #a> -> tensor<64x64xf32, #b>
    tt.return %y : tensor<64x64xf32, #b>
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// Two conversions share the same scratch bytes: the second writes what the
// first read (WAR), so exactly one barrier separates them.
// CHECK-LABEL: tt.func @consecutive_scratch_ops
// CHECK-NOT: ttg.barrier
// CHECK: %[[Y:.*]] = ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32}
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.convert_layout %[[Y]] {allocation.offset = 0 : i32}
// CHECK-NOT: ttg.barrier
// CHECK: tt.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @consecutive_scratch_ops(%x: tensor<64x64xf32, #a>) -> tensor<64x64xf32, #a> {
    %y = ttg.convert_layout %x : tensor<64x64xf32, #a> -> tensor<64x64xf32, #b>
    %z = ttg.convert_layout %y : tensor<64x64xf32, #b> -> tensor<64x64xf32, #a>
    tt.return %z : tensor<64x64xf32, #a>
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// The only scratch op of a loop body conflicts with itself across the back
// edge (the next iteration writes what this one read), so it gets a barrier
// inside the loop even though nothing precedes the loop.  A conversion
// after the loop waits for the loop's last one.
// CHECK-LABEL: tt.func @scratch_in_loop
// CHECK-NOT: ttg.barrier
// CHECK: scf.for
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.convert_layout
// CHECK-NOT: ttg.barrier
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.convert_layout
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @scratch_in_loop(%x: tensor<64x64xf32, #a>, %n: i32) -> tensor<64x64xf32, #a> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #b>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #b>) : i32 {
      %y = ttg.convert_layout %x : tensor<64x64xf32, #a> -> tensor<64x64xf32, #b>
      %s = arith.addf %acc, %y : tensor<64x64xf32, #b>
      scf.yield %s : tensor<64x64xf32, #b>
    }
    %out = ttg.convert_layout %r : tensor<64x64xf32, #b> -> tensor<64x64xf32, #a>
    tt.return %out : tensor<64x64xf32, #a>
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// (Negative case.)  A scratch op before a loop that touches no shared
// memory needs no barrier, and neither does the loop.
// CHECK-LABEL: tt.func @scratch_before_plain_loop
// CHECK-NOT: ttg.barrier
// CHECK: tt.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @scratch_before_plain_loop(%x: tensor<64x64xf32, #a>, %n: i32) -> tensor<64x64xf32, #b> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %y = ttg.convert_layout %x : tensor<64x64xf32, #a> -> tensor<64x64xf32, #b>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %y) -> (tensor<64x64xf32, #b>) : i32 {
      %s = arith.addf %acc, %y : tensor<64x64xf32, #b>
      scf.yield %s : tensor<64x64xf32, #b>
    }
    tt.return %r : tensor<64x64xf32, #b>
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory

// An explicit buffer: the first store needs nothing; a load after a store
// waits for it (RAW); a store after a load waits for the load (WAR); two
// loads in a row do not wait for each other (RAR).
// CHECK-LABEL: tt.func @explicit_buffer
// CHECK-NOT: ttg.barrier
// CHECK: ttg.local_store
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: arith.addf
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_store
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NOT: ttg.barrier
// CHECK: tt.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @explicit_buffer(%x: tensor<32x16xf16, #a>) -> tensor<32x16xf16, #a> {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
    ttg.local_store %x, %buf : tensor<32x16xf16, #a> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
    %y = ttg.local_load %buf : !ttg.memdesc<32x16xf16, #shared, #smem, mutable> -> tensor<32x16xf16, #a>
    %y2 = ttg.local_load %buf : !ttg.memdesc<32x16xf16, #shared, #smem, mutable> -> tensor<32x16xf16, #a>
    %s = arith.addf %y, %y2 : tensor<32x16xf16, #a>
    ttg.local_store %s, %buf : tensor<32x16xf16, #a> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
    %z = ttg.local_load %buf : !ttg.memdesc<32x16xf16, #shared, #smem, mutable> -> tensor<32x16xf16, #a>
    ttg.local_dealloc %buf : !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
    tt.return %z : tensor<32x16xf16, #a>
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#smem = #ttg.shared_memory

// A local_alloc with a source writes its buffer, so the load after it waits
// (RAW).  Accesses through views count as accesses to the whole buffer the
// view comes from: a store to one stage and a load of the other still get a
// barrier between them.  (Both buffers live together, so the store does not
// wait for the first load.)
// CHECK-LABEL: tt.func @initialized_and_views
// CHECK: ttg.local_alloc %{{.*}} {allocation.offset
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_load
// CHECK: %[[S0:.*]] = ttg.memdesc_index
// CHECK: %[[S1:.*]] = ttg.memdesc_index
// CHECK-NOT: ttg.barrier
// CHECK: ttg.local_store %{{.*}}, %[[S0]]
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_load %[[S1]]
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @initialized_and_views(%x: tensor<32x16xf16, #a>) -> (tensor<32x16xf16, #a>, tensor<32x16xf16, #a>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x32x16xf16, #shared3, #smem, mutable>
    %t = ttg.local_alloc %x : (tensor<32x16xf16, #a>) -> !ttg.memdesc<32x16xf16, #shared, #smem>
    %y = ttg.local_load %t : !ttg.memdesc<32x16xf16, #shared, #smem> -> tensor<32x16xf16, #a>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %s0 = ttg.memdesc_index %buf[%c0] : !ttg.memdesc<2x32x16xf16, #shared3, #smem, mutable> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable, 2x32x16>
    %s1 = ttg.memdesc_index %buf[%c1] : !ttg.memdesc<2x32x16xf16, #shared3, #smem, mutable> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable, 2x32x16>
    ttg.local_store %y, %s0 : tensor<32x16xf16, #a> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable, 2x32x16>
    %z = ttg.local_load %s1 : !ttg.memdesc<32x16xf16, #shared, #smem, mutable, 2x32x16> -> tensor<32x16xf16, #a>
    ttg.local_dealloc %buf : !ttg.memdesc<2x32x16xf16, #shared3, #smem, mutable>
    tt.return %y, %z : tensor<32x16xf16, #a>, tensor<32x16xf16, #a>
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory

// Two buffers live at the same time get disjoint bytes, so stores to both
// need no barrier between them (negative case); loading the first then
// waits once, and the second load is covered by the same barrier.
// CHECK-LABEL: tt.func @disjoint_buffers
// CHECK: ttg.local_alloc {allocation.offset = [[OFF_A:[0-9]+]] : i32}
// CHECK: ttg.local_alloc {allocation.offset = [[OFF_B:[0-9]+]] : i32}
// CHECK-NOT: ttg.barrier
// CHECK: ttg.local_store
// CHECK-NEXT: ttg.local_store
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.local_load
// CHECK-NOT: ttg.barrier
// CHECK: tt.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @disjoint_buffers(%x: tensor<32x16xf16, #a>) -> (tensor<32x16xf16, #a>, tensor<32x16xf16, #a>) {
    %ba = ttg.local_alloc : () -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
    %bb = ttg.local_alloc : () -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
    ttg.local_store %x, %ba : tensor<32x16xf16, #a> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
    ttg.local_store %x, %bb : tensor<32x16xf16, #a> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
    %ya = ttg.local_load %ba : !ttg.memdesc<32x16xf16, #shared, #smem, mutable> -> tensor<32x16xf16, #a>
    %yb = ttg.local_load %bb : !ttg.memdesc<32x16xf16, #shared, #smem, mutable> -> tensor<32x16xf16, #a>
    tt.return %ya, %yb : tensor<32x16xf16, #a>, tensor<32x16xf16, #a>
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory

// scf.if: a store in only the then branch is still pending after the if
// (the state is the union of both branches), so the load after it waits.
// In the second if, both branches load after the store before the if: each
// branch gets its own barrier, and the load after the if, a read after
// reads, none.
// CHECK-LABEL: tt.func @if_branches
// CHECK: scf.if
// CHECK-NOT: ttg.barrier
// CHECK: ttg.local_store
// CHECK-NEXT: }
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_load
// CHECK: ttg.local_store
// CHECK-NEXT: scf.if
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_load
// CHECK: } else {
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_load
// CHECK: }
// CHECK-NOT: ttg.barrier
// CHECK: ttg.local_load
// CHECK-NOT: ttg.barrier
// CHECK: tt.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @if_branches(%x: tensor<32x16xf16, #a>, %c: i1) -> tensor<32x16xf16, #a> {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
    scf.if %c {
      ttg.local_store %x, %buf : tensor<32x16xf16, #a> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
    }
    %y = ttg.local_load %buf : !ttg.memdesc<32x16xf16, #shared, #smem, mutable> -> tensor<32x16xf16, #a>
    ttg.local_store %y, %buf : tensor<32x16xf16, #a> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
    %z = scf.if %c -> (tensor<32x16xf16, #a>) {
      %l = ttg.local_load %buf : !ttg.memdesc<32x16xf16, #shared, #smem, mutable> -> tensor<32x16xf16, #a>
      scf.yield %l : tensor<32x16xf16, #a>
    } else {
      %l = ttg.local_load %buf : !ttg.memdesc<32x16xf16, #shared, #smem, mutable> -> tensor<32x16xf16, #a>
      %m = arith.addf %l, %l : tensor<32x16xf16, #a>
      scf.yield %m : tensor<32x16xf16, #a>
    }
    %w = ttg.local_load %buf : !ttg.memdesc<32x16xf16, #shared, #smem, mutable> -> tensor<32x16xf16, #a>
    %r = arith.addf %z, %w : tensor<32x16xf16, #a>
    tt.return %r : tensor<32x16xf16, #a>
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// A barrier already in the IR clears what is pending: no second barrier
// is added before the conversion that follows it.
// CHECK-LABEL: tt.func @existing_barrier
// CHECK: ttg.convert_layout
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.convert_layout
// CHECK-NOT: ttg.barrier
// CHECK: tt.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @existing_barrier(%x: tensor<64x64xf32, #a>) -> tensor<64x64xf32, #a> {
    %y = ttg.convert_layout %x : tensor<64x64xf32, #a> -> tensor<64x64xf32, #b>
    ttg.barrier
    %z = ttg.convert_layout %y : tensor<64x64xf32, #b> -> tensor<64x64xf32, #a>
    tt.return %z : tensor<64x64xf32, #a>
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory

// scf.while: a load in "after" conflicts, across the back edge, with the
// store in "before"; the store waits for the previous iteration's load
// (WAR), the load for the store (RAW).
// CHECK-LABEL: tt.func @while_loop
// CHECK: scf.while
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_store
// CHECK: scf.condition
// CHECK: } do {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_load
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @while_loop(%x: tensor<32x16xf16, #a>, %c: i1) -> tensor<32x16xf16, #a> {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
    %r = scf.while (%v = %x) : (tensor<32x16xf16, #a>) -> tensor<32x16xf16, #a> {
      ttg.local_store %v, %buf : tensor<32x16xf16, #a> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
      scf.condition(%c) %v : tensor<32x16xf16, #a>
    } do {
    ^bb0(%w: tensor<32x16xf16, #a>):
      %l = ttg.local_load %buf : !ttg.memdesc<32x16xf16, #shared, #smem, mutable> -> tensor<32x16xf16, #a>
      scf.yield %l : tensor<32x16xf16, #a>
    }
    tt.return %r : tensor<32x16xf16, #a>
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// A call of a function that uses shared memory counts as touching every
// byte: with a conversion pending, a barrier goes before the call, and the
// conversion after it waits for the callee.  A call of a function that
// does not use shared memory needs nothing (negative case).  The device
// function starts with nothing pending (its caller synchronized).
// CHECK-LABEL: tt.func @caller
// CHECK: ttg.convert_layout
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: tt.call @uses_smem
// CHECK-NEXT: tt.call @no_smem
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.convert_layout
// CHECK-LABEL: tt.func private @uses_smem
// CHECK-NOT: ttg.barrier
// CHECK: tt.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @caller(%x: tensor<64x64xf32, #a>) -> tensor<64x64xf32, #b> {
    %y = ttg.convert_layout %x : tensor<64x64xf32, #a> -> tensor<64x64xf32, #b>
    %z = tt.call @uses_smem(%y) : (tensor<64x64xf32, #b>) -> tensor<64x64xf32, #a>
    %w = tt.call @no_smem(%z) : (tensor<64x64xf32, #a>) -> tensor<64x64xf32, #a>
    %v = ttg.convert_layout %w : tensor<64x64xf32, #a> -> tensor<64x64xf32, #b>
    tt.return %v : tensor<64x64xf32, #b>
  }
  tt.func private @uses_smem(%y: tensor<64x64xf32, #b>) -> tensor<64x64xf32, #a> {
    %z = ttg.convert_layout %y : tensor<64x64xf32, #b> -> tensor<64x64xf32, #a>
    tt.return %z : tensor<64x64xf32, #a>
  }
  tt.func private @no_smem(%z: tensor<64x64xf32, #a>) -> tensor<64x64xf32, #a> {
    %s = arith.addf %z, %z : tensor<64x64xf32, #a>
    tt.return %s : tensor<64x64xf32, #a>
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory

// An async copy writes its buffer: the load after the async_wait waits for
// every thread's copies (the barrier goes after the wait, right before the
// load).
// CHECK-LABEL: tt.func @async_copy
// CHECK: ttg.async_copy_global_to_local
// CHECK-NOT: ttg.barrier
// CHECK: ttg.async_wait
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_load
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @async_copy(%ptrs: tensor<16x64x!tt.ptr<f16>, #a>) -> tensor<16x64xf16, #a> {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %ptrs, %buf : tensor<16x64x!tt.ptr<f16>, #a> -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    %w = ttg.async_wait %g {num = 0 : i32}
    %l = ttg.local_load %buf token %w : !ttg.memdesc<16x64xf16, #shared, #smem, mutable> -> tensor<16x64xf16, #a>
    tt.return %l : tensor<16x64xf16, #a>
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory

// A barrier between a copy and its wait orders nothing: the copy lands when
// its thread waits.  The write after the wait still needs a barrier of its
// own (the epilogue of a pipelined loop whose scratch reuses the ring: the
// zero-filling copies of the last, masked-off iterations raced with it).
// CHECK-LABEL: tt.func @copy_lands_at_the_wait
// CHECK: ttg.async_copy_global_to_local
// CHECK: gpu.barrier
// CHECK-NEXT: ttg.async_wait
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_store
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @copy_lands_at_the_wait(%ptrs: tensor<16x64x!tt.ptr<f16>, #a>, %x: tensor<16x64xf16, #a>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %ptrs, %buf : tensor<16x64x!tt.ptr<f16>, #a> -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    gpu.barrier
    %w = ttg.async_wait %g {num = 0 : i32}
    ttg.local_store %x, %buf : tensor<16x64xf16, #a> -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory

// In a pipelined loop, a barrier later in the body (here between the store
// and the load of another buffer) does not order the copy issued before it:
// the next iteration's read of the ring waits on a barrier after its
// ttg.async_wait.  The copy waits for the read before it (WAR).
// CHECK-LABEL: tt.func @ring_read_after_wait
// CHECK: scf.for
// CHECK-NEXT: ttg.async_wait
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.async_copy_global_to_local
// CHECK: ttg.local_store
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NOT: ttg.barrier
// CHECK: scf.yield
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @ring_read_after_wait(%ptrs: tensor<16x64x!tt.ptr<f16>, #a>, %x: tensor<16x64xf16, #a>, %n: i32) -> tensor<16x64xf16, #a> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %ring = ttg.local_alloc : () -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable>
    %other = ttg.local_alloc : () -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable>
    %t0 = ttg.async_copy_global_to_local %ptrs, %ring : tensor<16x64x!tt.ptr<f16>, #a> -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable>
    %g0 = ttg.async_commit_group tokens %t0
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<16x64xf16, #a>) : i32 {
      %w = ttg.async_wait {num = 1 : i32}
      %l = ttg.local_load %ring : !ttg.memdesc<16x64xf16, #shared, #smem, mutable> -> tensor<16x64xf16, #a>
      %t = ttg.async_copy_global_to_local %ptrs, %ring : tensor<16x64x!tt.ptr<f16>, #a> -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable>
      %g = ttg.async_commit_group tokens %t
      ttg.local_store %l, %other : tensor<16x64xf16, #a> -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable>
      %o = ttg.local_load %other : !ttg.memdesc<16x64xf16, #shared, #smem, mutable> -> tensor<16x64xf16, #a>
      %s = arith.addf %acc, %o : tensor<16x64xf16, #a>
      scf.yield %s : tensor<16x64xf16, #a>
    }
    tt.return %r : tensor<16x64xf16, #a>
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory

// Nested loops: the inner store waits for the store of the previous inner
// iteration (WAW) and for the outer body's load of the previous outer
// iteration (WAR), both reaching it through back edges; the load after the
// inner loop waits for its stores (RAW).  One barrier each, none elsewhere.
// CHECK-LABEL: tt.func @nested_loops
// CHECK: scf.for
// CHECK-NOT: ttg.barrier
// CHECK: scf.for
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_store
// CHECK-NEXT: }
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NOT: ttg.barrier
// CHECK: tt.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @nested_loops(%x: tensor<32x16xf16, #a>, %n: i32) -> tensor<32x16xf16, #a> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<32x16xf16, #a>) : i32 {
      scf.for %j = %c0 to %n step %c1 : i32 {
        ttg.local_store %acc, %buf : tensor<32x16xf16, #a> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
      }
      %l = ttg.local_load %buf : !ttg.memdesc<32x16xf16, #shared, #smem, mutable> -> tensor<32x16xf16, #a>
      scf.yield %l : tensor<32x16xf16, #a>
    }
    tt.return %r : tensor<32x16xf16, #a>
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory

// mbarrier inits and invals are thread 0's alone: its program order orders
// them, so none needs a CTA barrier against another.  A barrier between the
// inits and the first expect (expects and copies count as every thread's,
// see getSharedMemoryAccess), none before the wait (reads after reads),
// one before the invals (every wait must be over); re-initializing after
// the invals needs none.
// CHECK-LABEL: tt.func @one_thread_barrier_ops
// CHECK: ttg.init_barrier
// CHECK-NEXT: ttg.memdesc_index
// CHECK-NEXT: ttg.init_barrier
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.barrier_expect
// CHECK-NEXT: ttg.wait_barrier
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.inval_barrier
// CHECK-NEXT: ttg.inval_barrier
// CHECK-NEXT: ttg.init_barrier
// CHECK-NEXT: tt.return
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @one_thread_barrier_ops(%phase: i32, %pred: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %bars = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #shared, #smem, mutable>
    %b0 = ttg.memdesc_index %bars[%c0] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
    ttg.init_barrier %b0, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
    %b1 = ttg.memdesc_index %bars[%c1] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
    ttg.init_barrier %b1, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
    ttg.barrier_expect %b0, 16384, %pred : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
    ttg.wait_barrier %b0, %phase : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
    ttg.inval_barrier %b0 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
    ttg.inval_barrier %b1 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
    ttg.init_barrier %b0, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 2x1>
    tt.return
  }
}

// -----

// ttg.warp_specialize: a barrier right before it (the last point every warp
// reaches), then each region alone from nothing pending.  In the default
// region the conversion back to back with another gets its barrier; the
// partition's copies into the ring the default region reads need none (the
// regions meet on mbarriers), and nothing follows the op.
// CHECK-LABEL: tt.func @specialized
// CHECK: ttg.init_barrier
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.warp_specialize default {
// CHECK: %[[Y:.*]] = ttg.convert_layout
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.convert_layout %[[Y]]
// CHECK-NOT: ttg.barrier{{$}}
// CHECK: } partition num_warps(1) {
// CHECK-NOT: ttg.barrier{{$}}
// CHECK: ttg.warp_yield
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90", "ttg.total-num-warps" = 5 : i32} {
  tt.func @specialized(%a: !tt.tensordesc<tensor<64x64xf16>>, %x: tensor<32x32xf32, #a>, %k: i32) -> tensor<32x32xf32, #a> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %ring = ttg.local_alloc : () -> !ttg.memdesc<1x64x64xf16, #nvmma, #smem, mutable>
    %fulls = ttg.local_alloc : () -> !ttg.memdesc<1x1xi64, #shared, #smem, mutable>
    %full = ttg.memdesc_index %fulls[%c0] : !ttg.memdesc<1x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable, 1x1>
    %slot = ttg.memdesc_index %ring[%c0] : !ttg.memdesc<1x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 1x64x64>
    ttg.init_barrier %full, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 1x1>
    ttg.warp_specialize default {
      ttg.wait_barrier %full, %c0 : !ttg.memdesc<1xi64, #shared, #smem, mutable, 1x1>
      %v = ttg.local_load %slot : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 1x64x64> -> tensor<64x64xf16, #a>
      %y = ttg.convert_layout %x : tensor<32x32xf32, #a> -> tensor<32x32xf32, #b>
      %z = ttg.convert_layout %y : tensor<32x32xf32, #b> -> tensor<32x32xf32, #a>
      ttg.warp_yield
    } partition num_warps(1) {
      scf.for %i = %c0 to %k step %c1 : i32 {
        ttg.barrier_expect %full, 8192, %true : !ttg.memdesc<1xi64, #shared, #smem, mutable, 1x1>
        ttg.async_tma_copy_global_to_local %a[%i, %c0] %slot, %full, %true : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable, 1x1> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 1x64x64>
      }
      ttg.warp_yield
    }
    tt.return %x : tensor<32x32xf32, #a>
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory

// A TMA store's copy engine reads its tile until the issuing thread's
// ttg.async_tma_store_wait, not until a barrier: the write after the wait
// gets a barrier of its own even though one came between the store and the
// wait.  A wait for all but the newest store (pendings = 1) does the same
// for the older ones.
// CHECK-LABEL: tt.func @store_reads_until_the_wait
// CHECK: ttg.async_tma_copy_local_to_global
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: ttg.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_store
// CHECK: ttg.async_tma_copy_local_to_global
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: ttg.async_tma_store_wait {pendings = 1 : i32}
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_store
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @store_reads_until_the_wait(%d: !tt.tensordesc<tensor<16x64xf16>>, %x: tensor<16x64xf16, #a>, %i: i32) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<16x64xf16, #nvmma, #smem, mutable>
    ttg.local_store %x, %buf : tensor<16x64xf16, #a> -> !ttg.memdesc<16x64xf16, #nvmma, #smem, mutable>
    ttg.async_tma_copy_local_to_global %d[%i, %i] %buf : !tt.tensordesc<tensor<16x64xf16>>, !ttg.memdesc<16x64xf16, #nvmma, #smem, mutable>
    gpu.barrier
    ttg.async_tma_store_wait {pendings = 0 : i32}
    ttg.local_store %x, %buf : tensor<16x64xf16, #a> -> !ttg.memdesc<16x64xf16, #nvmma, #smem, mutable>
    ttg.async_tma_copy_local_to_global %d[%i, %i] %buf : !tt.tensordesc<tensor<16x64xf16>>, !ttg.memdesc<16x64xf16, #nvmma, #smem, mutable>
    gpu.barrier
    ttg.async_tma_store_wait {pendings = 1 : i32}
    ttg.local_store %x, %buf : tensor<16x64xf16, #a> -> !ttg.memdesc<16x64xf16, #nvmma, #smem, mutable>
    tt.return
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory

// A wait for all groups covers only committed copies: the copy issued
// before the first wait lands at the second, after its commit, and the
// write after that wait gets a barrier.  A wait alone in an scf.if counts
// too.
// CHECK-LABEL: tt.func @commit_then_wait
// CHECK: ttg.async_commit_group
// CHECK-NEXT: ttg.async_wait {num = 0 : i32}
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_store
// CHECK: scf.if
// CHECK-NEXT: ttg.async_wait
// CHECK-NEXT: {{^ +\}$}}
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.local_store
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @commit_then_wait(%ptrs: tensor<16x64x!tt.ptr<f16>, #a>, %x: tensor<16x64xf16, #a>, %c: i1) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %ptrs, %buf : tensor<16x64x!tt.ptr<f16>, #a> -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable>
    %w0 = ttg.async_wait {num = 0 : i32}
    gpu.barrier
    %g = ttg.async_commit_group tokens %t
    %w1 = ttg.async_wait {num = 0 : i32}
    ttg.local_store %x, %buf : tensor<16x64xf16, #a> -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable>
    %t2 = ttg.async_copy_global_to_local %ptrs, %buf : tensor<16x64x!tt.ptr<f16>, #a> -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable>
    %g2 = ttg.async_commit_group tokens %t2
    gpu.barrier
    scf.if %c {
      %w2 = ttg.async_wait {num = 0 : i32}
    }
    ttg.local_store %x, %buf : tensor<16x64xf16, #a> -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// A tensor map made in the kernel is encoded in its shared scratch by the
// issuing thread alone: maps made back to back (their scratch the same
// bytes) need no barrier between them, a conversion whose scratch those
// bytes are gets one before it.
// CHECK-LABEL: tt.func public @tensor_map_drafts
// CHECK: tt.make_tensor_descriptor
// CHECK-NEXT: tt.make_tensor_descriptor
// CHECK-NEXT: ttg.barrier
// CHECK-NEXT: ttg.convert_layout
#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90", ttg.global_scratch_size = 256 : i32} {
  tt.func public @tensor_map_drafts(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32, %s: i64 {tt.divisibility = 16 : i32}, %scratch: !tt.ptr<i8> {tt.global_scratch}, %x: tensor<32x16xf16, #a>) -> (!tt.tensordesc<tensor<16x32xf32>>, !tt.tensordesc<tensor<16x32xf32>>, tensor<32x16xf16, #b>) {
    %c1 = arith.constant 1 : i64
    %m0 = tt.make_tensor_descriptor %p, [%n, %n], [%s, %c1] scratch %scratch : !tt.ptr<i8> {padding = 1 : i32, scratch_offset = 0 : i32} : !tt.ptr<f32> -> !tt.tensordesc<tensor<16x32xf32>>
    %m1 = tt.make_tensor_descriptor %p, [%n, %n], [%s, %c1] scratch %scratch : !tt.ptr<i8> {padding = 1 : i32, scratch_offset = 128 : i32} : !tt.ptr<f32> -> !tt.tensordesc<tensor<16x32xf32>>
    %y = ttg.convert_layout %x : tensor<32x16xf16, #a> -> tensor<32x16xf16, #b>
    tt.return %m0, %m1, %y : !tt.tensordesc<tensor<16x32xf32>>, !tt.tensordesc<tensor<16x32xf32>>, tensor<32x16xf16, #b>
  }
}
