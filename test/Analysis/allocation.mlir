// RUN: tritium-opt %s -split-input-file -ttg-allocate-shared-memory | FileCheck %s

#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>

// Scratch buffers live only while their op runs, so the scratch of two
// layout conversions shares the same bytes (the ttg-membar pass puts a
// barrier between them).  Rows to columns transposes, so its tile pads
// every 16-element row by 2 (bank-conflict model, see
// layout/BankConflicts.h): 32 x 18 x 4 = 2304 in all.
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 2304 : i32}
// CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32}
// CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32}
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @scratch_shares(%x: tensor<32x16xf32, #row>) -> tensor<32x16xf32, #row> {
    %y = ttg.convert_layout %x : tensor<32x16xf32, #row> -> tensor<32x16xf32, #col>
    %z = ttg.convert_layout %y : tensor<32x16xf32, #col> -> tensor<32x16xf32, #row>
    tt.return %z : tensor<32x16xf32, #row>
  }
}

// -----

#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory

// Buffers whose lives overlap get disjoint bytes, largest first at the
// lowest free offset.  The conversions' padded scratch (2304 B) is placed
// first, at 0; %b (2048 B) lives with the conversion inside the loop:
// 2304.  %a is used inside the loop, so it lives until the loop's end and
// overlaps all three: 4352.  Total 4352 + 1024.
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 5376 : i32}
// CHECK: %[[A:.*]] = ttg.local_alloc {allocation.offset = 4352 : i32} : () -> !ttg.memdesc<32x16xf16
// CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32}
// CHECK: %[[B:.*]] = ttg.local_alloc {allocation.offset = 2304 : i32} : () -> !ttg.memdesc<64x16xf16
// CHECK: scf.for
// CHECK:   ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32}
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @lifetimes(%x: tensor<32x16xf32, #row>, %n: i32) -> tensor<32x16xf32, #col> {
    %a = ttg.local_alloc : () -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
    %y = ttg.convert_layout %x : tensor<32x16xf32, #row> -> tensor<32x16xf32, #col>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x16xf16, #shared, #smem, mutable>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %z = ttg.convert_layout %x : tensor<32x16xf32, #row> -> tensor<32x16xf32, #col>
      ttg.local_dealloc %a : !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
    }
    ttg.local_dealloc %b : !ttg.memdesc<64x16xf16, #shared, #smem, mutable>
    tt.return %y : tensor<32x16xf32, #col>
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [0, 1]}>
#one = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// No buffer where nothing crosses threads: a conversion that only renames a
// thread's registers, an atomic whose result is unused, a tensor atomic
// without duplicated threads.  A used scalar atomic broadcasts its result
// (4 bytes; a function's total is rounded up to 16).
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 16 : i32}
// CHECK: ttg.convert_layout %{{.*}} : tensor<8x64xf32
// CHECK-NOT: allocation.offset
// CHECK: tt.atomic_rmw add, relaxed, gpu, %{{.*}}, %{{.*}} {allocation.offset = 0 : i32}
// CHECK-NOT: allocation.offset
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @no_buffers(%x: tensor<8x64xf32, #a>, %p: !tt.ptr<i32>, %ps: tensor<128x!tt.ptr<i32>, #one>, %v: tensor<128xi32, #one>) -> (tensor<8x64xf32, #b>, i32, tensor<128xi32, #one>) {
    %y = ttg.convert_layout %x : tensor<8x64xf32, #a> -> tensor<8x64xf32, #b>
    %c1 = arith.constant 1 : i32
    %unused = tt.atomic_rmw add, relaxed, gpu, %p, %c1 : (!tt.ptr<i32>, i32) -> i32
    %used = tt.atomic_rmw add, relaxed, gpu, %p, %c1 : (!tt.ptr<i32>, i32) -> i32
    %t = tt.atomic_rmw add, relaxed, gpu, %ps, %v : (tensor<128x!tt.ptr<i32>, #one>, tensor<128xi32, #one>) -> tensor<128xi32, #one>
    tt.return %y, %used, %t : tensor<8x64xf32, #b>, i32, tensor<128xi32, #one>
  }
}

// -----

#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>

// A device function may run while its caller's buffers are live, so each
// function gets its own range: the kernel's at 0, the helper's after it.
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 4608 : i32}
// CHECK-LABEL: tt.func @kernel
// CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32}
// CHECK-LABEL: tt.func private @helper
// CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 2304 : i32}
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @kernel(%x: tensor<32x16xf32, #row>) -> tensor<32x16xf32, #row> {
    %y = ttg.convert_layout %x : tensor<32x16xf32, #row> -> tensor<32x16xf32, #col>
    %z = tt.call @helper(%y) : (tensor<32x16xf32, #col>) -> tensor<32x16xf32, #row>
    tt.return %z : tensor<32x16xf32, #row>
  }
  tt.func private @helper(%y: tensor<32x16xf32, #col>) -> tensor<32x16xf32, #row> {
    %z = ttg.convert_layout %y : tensor<32x16xf32, #col> -> tensor<32x16xf32, #row>
    tt.return %z : tensor<32x16xf32, #row>
  }
}

// -----

#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#rowb = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [2, 2], order = [1, 0]}>

// The 64x64 f32 transpose XOR-swizzles 16-byte chunks of its tile instead
// of padding it, so it takes exactly the tile (64 x 64 x 4 = 16384 B); a
// conversion between two row layouts that only spread their warps
// differently is conflict-free row-major and takes the same.
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 16384 : i32}
// CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32}
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @transpose(%x: tensor<64x64xf32, #row>) -> tensor<64x64xf32, #col> {
    %y = ttg.convert_layout %x : tensor<64x64xf32, #row> -> tensor<64x64xf32, #col>
    tt.return %y : tensor<64x64xf32, #col>
  }
}

// -----

#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#rowb = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [2, 2], order = [1, 0]}>

// (Second half of the case above: no padding within one layout family.)
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 16384 : i32}
// CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32}
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @same_family(%x: tensor<64x64xf32, #row>) -> tensor<64x64xf32, #rowb> {
    %y = ttg.convert_layout %x : tensor<64x64xf32, #row> -> tensor<64x64xf32, #rowb>
    tt.return %y : tensor<64x64xf32, #rowb>
  }
}

// -----

// A tensor map made in the kernel is encoded in 128 bytes of shared scratch,
// 128-byte aligned (tensormap.replace's rule): above a 192-byte buffer that
// lives across it, it starts at 256, not at 192.
// CHECK-LABEL: module attributes {{{.*}}ttg.shared = 384 : i32
// CHECK: ttg.local_alloc {allocation.offset = 0 : i32}
// CHECK: tt.make_tensor_descriptor {{.*}}allocation.offset = 256 : i32
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.target" = "cuda:90", ttg.global_scratch_size = 128 : i32} {
  tt.func public @tensor_map_draft(%p: !tt.ptr<f32>, %n: i32, %s: i64, %scratch: !tt.ptr<i8> {tt.global_scratch}) -> !tt.tensordesc<tensor<16x32xf32>> {
    %c1 = arith.constant 1 : i64
    %buf = ttg.local_alloc : () -> !ttg.memdesc<48xf32, #shared, #smem, mutable>
    %m = tt.make_tensor_descriptor %p, [%n, %n], [%s, %c1] scratch %scratch : !tt.ptr<i8> {padding = 1 : i32, scratch_offset = 0 : i32} : !tt.ptr<f32> -> !tt.tensordesc<tensor<16x32xf32>>
    ttg.local_dealloc %buf : !ttg.memdesc<48xf32, #shared, #smem, mutable>
    tt.return %m : !tt.tensordesc<tensor<16x32xf32>>
  }
}
