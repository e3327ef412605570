// RUN: tritium-opt %s -split-input-file -ttg-lower-tensor-descriptors -verify-diagnostics | FileCheck %s

// A load through a descriptor: a 128-byte swizzled NVMMA tile (64 fp16 per
// row), an mbarrier, one arrival expecting the tile's 8192 bytes, the copy,
// a wait for phase 0, the barrier's invalidation and a local_load into the
// load's layout.  A store: the tile from registers, the copy out and the
// wait until it has read the tile (no extra proxy fence: the NVMMA
// local_alloc fences its own writes).  The argument records the plan.
// CHECK-DAG: #[[NVMMA:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
// CHECK-LABEL: tt.func public @copy
// CHECK-SAME: %arg0: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}
// CHECK-SAME: %arg1: !tt.tensordesc<tensor<64x64xf16>> {tt.tma_box = array<i32: 64, 64>, tt.tma_swizzle = 128 : i32}
// CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #[[NVMMA]], #smem, mutable>
// CHECK: %[[BAR:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1xi64
// CHECK: ttg.init_barrier %[[BAR]], 1
// CHECK: ttg.barrier_expect %[[BAR]], 8192, %true
// CHECK: ttg.async_tma_copy_global_to_local %arg0[%arg2, %arg3] %[[BUF]], %[[BAR]], %true
// CHECK: ttg.wait_barrier %[[BAR]], %c0_i32
// CHECK: ttg.inval_barrier %[[BAR]]
// CHECK: %[[X:.*]] = ttg.local_load %[[BUF]] : !ttg.memdesc<64x64xf16, #[[NVMMA]], #smem, mutable> -> tensor<64x64xf16, #blocked>
// CHECK: %[[OUT:.*]] = ttg.local_alloc %[[X]] : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #[[NVMMA]], #smem>
// CHECK-NOT: ttg.fence_async_shared
// CHECK: ttg.async_tma_copy_local_to_global %arg1[%arg2, %arg3] %[[OUT]]
// CHECK: ttg.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NOT: tt.descriptor
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @copy(%in: !tt.tensordesc<tensor<64x64xf16>>, %out: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %j: i32) {
    %x = tt.descriptor_load %in[%i, %j] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    tt.descriptor_store %out[%i, %j], %x : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked>
    tt.return
  }
}

// -----

// Blocks that do not fit a swizzle (rank 3; 16-byte rows) land in a plain
// row-major tile; the outermost dimension over 256 is cut into boxes of 256.
// A store from such a tile fences its register writes for the copy engine.
// CHECK-DAG: #[[PLAIN3:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
// CHECK-DAG: #[[PLAIN2:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-LABEL: tt.func public @plain_tiles
// CHECK-SAME: {tt.tma_box = array<i32: 2, 4, 32>, tt.tma_swizzle = 0 : i32}
// CHECK-SAME: {tt.tma_box = array<i32: 256, 4>, tt.tma_swizzle = 0 : i32}
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x4x32xf32, #[[PLAIN3]], #smem, mutable>
// CHECK: ttg.barrier_expect %{{.*}}, 1024, %true
// CHECK: ttg.local_alloc %{{.*}} -> !ttg.memdesc<512x4xf32, #[[PLAIN2]], #smem>
// CHECK-NEXT: ttg.fence_async_shared
// CHECK-NEXT: ttg.async_tma_copy_local_to_global
#b3 = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 4, 8], warpsPerCTA = [2, 1, 2], order = [2, 1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @plain_tiles(%a: !tt.tensordesc<tensor<2x4x32xf32>>, %b: !tt.tensordesc<tensor<512x4xf32>>, %i: i32,
                              %y: tensor<512x4xf32, #b2>) -> tensor<2x4x32xf32, #b3> {
    %x = tt.descriptor_load %a[%i, %i, %i] : !tt.tensordesc<tensor<2x4x32xf32>> -> tensor<2x4x32xf32, #b3>
    tt.descriptor_store %b[%i, %i], %y : !tt.tensordesc<tensor<512x4xf32>>, tensor<512x4xf32, #b2>
    tt.return %x : tensor<2x4x32xf32, #b3>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @rows_too_narrow(%in: !tt.tensordesc<tensor<64x4xf16>>, %i: i32) -> tensor<64x4xf16, #blocked> {
    // expected-error @+1 {{the copy engine cannot move blocks of 'tensor<64x4xf16>': the innermost block dimension is 8 bytes; the copy engine needs a multiple of 16}}
    %x = tt.descriptor_load %in[%i, %i] : !tt.tensordesc<tensor<64x4xf16>> -> tensor<64x4xf16, #blocked>
    tt.return %x : tensor<64x4xf16, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:80"} {
  tt.func public @before_hopper(%in: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) -> tensor<64x64xf16, #blocked> {
    // expected-error @+1 {{tensor descriptors move tiles with the copy engine (TMA), which needs Hopper (cuda:90) or later}}
    %x = tt.descriptor_load %in[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    tt.return %x : tensor<64x64xf16, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func private @helper(%in: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) -> tensor<64x64xf16, #blocked> {
    // expected-error @+1 {{a tensor descriptor used here must be a kernel argument (a host TensorDescriptor)}}
    %x = tt.descriptor_load %in[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    tt.return %x : tensor<64x64xf16, #blocked>
  }
}

// -----

// A tile read back only to be stored in a shared tile of the same layout (a
// dot operand) is that tile: the dot reads the copy's buffer, and a
// transposed use reads it through ttg.memdesc_trans; no local_load.
// CHECK-LABEL: tt.func public @dot_operands
// CHECK: %[[A:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #[[NV:.*]], #smem, mutable>
// CHECK: ttg.async_tma_copy_global_to_local %arg0[%arg2, %arg2] %[[A]]
// CHECK: %[[B:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #[[NV]], #smem, mutable>
// CHECK: ttg.async_tma_copy_global_to_local %arg1[%arg2, %arg2] %[[B]]
// CHECK: %[[BT:.*]] = ttg.memdesc_trans %[[B]]
// CHECK-NOT: ttg.local_load
// CHECK: ttg.warp_group_dot %[[A]], %[[BT]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blockedT = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#nvmmaT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @dot_operands(%a: !tt.tensordesc<tensor<64x64xf16>>, %b: !tt.tensordesc<tensor<64x64xf16>>, %i: i32,
                               %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %x = tt.descriptor_load %a[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    %sx = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
    %y = tt.descriptor_load %b[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    %yt = tt.trans %y {order = array<i32: 1, 0>} : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blockedT>
    %sy = ttg.local_alloc %yt : (tensor<64x64xf16, #blockedT>) -> !ttg.memdesc<64x64xf16, #nvmmaT, #smem>
    %d = ttg.warp_group_dot %sx, %sy, %c : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmmaT, #smem> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// Descriptors made in the kernel: the kernel gets its global scratch as a
// last argument, each tensor map still used a 128-byte slot of it (in
// program order; the unused one is erased), the module one program's
// scratch size; their loads and stores go through TMA like a kernel
// argument's, with no plan recorded (the map is encoded from the same one).
// The base and the stride are known multiples of 16 bytes: no check.  The
// maps are the user's: the scratch is not the runtime's.  The two are made
// one after the other: the first's fences are the second's (it is marked,
// and acquired right after the second).
// CHECK-NOT: ttg.global_scratch_internal
// CHECK: ttg.global_scratch_size = 256 : i32
// CHECK-LABEL: tt.func public @made_in_kernel
// CHECK-NOT: tt.assert
// CHECK-SAME: %arg3: !tt.ptr<i8> {tt.global_scratch}
// CHECK: %[[A:.*]] = tt.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %c1_i64] scratch %arg3 : !tt.ptr<i8> {padding = 1 : i32, scratch_offset = 0 : i32, ttg.tensormap_fences_deferred}
// CHECK-NOT: tt.make_tensor_descriptor
// CHECK: %[[B:.*]] = tt.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %c1_i64] scratch %arg3 : !tt.ptr<i8> {padding = 2 : i32, scratch_offset = 128 : i32}
// CHECK-NEXT: ttg.fence_tensormap_acquire %[[A]]
// CHECK: ttg.async_tma_copy_global_to_local %[[A]][%arg1, %arg1]
// CHECK: ttg.async_tma_copy_local_to_global %[[B]][%arg1, %arg1]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @made_in_kernel(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32, %s: i64 {tt.divisibility = 16 : i32}) {
    %c1 = arith.constant 1 : i64
    %a = tt.make_tensor_descriptor %p, [%n, %n], [%s, %c1] {padding = 1 : i32} : !tt.ptr<f16> -> !tt.tensordesc<tensor<64x64xf16>>
    %unused = tt.make_tensor_descriptor %p, [%n, %n], [%s, %c1] {padding = 1 : i32} : !tt.ptr<f16> -> !tt.tensordesc<tensor<32x64xf16>>
    %b = tt.make_tensor_descriptor %p, [%n, %n], [%s, %c1] {padding = 2 : i32} : !tt.ptr<f16> -> !tt.tensordesc<tensor<64x64xf16>>
    %x = tt.descriptor_load %a[%n, %n] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    tt.descriptor_store %b[%n, %n], %x : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked>
    tt.return
  }
}

// -----

// A map made for a block pointer (tt.from_block_pointer) is the only one:
// the module says the runtime provides the scratch.
// CHECK: module attributes {{.*}}ttg.global_scratch_internal, ttg.global_scratch_size = 128 : i32
// CHECK-LABEL: tt.func public @made_for_block_pointer
// CHECK: tt.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %c1_i64] scratch %arg4 : !tt.ptr<i8> {padding = 1 : i32, scratch_offset = 0 : i32, tt.from_block_pointer}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @made_for_block_pointer(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32, %s: i64 {tt.divisibility = 16 : i32}, %out: tensor<64x64x!tt.ptr<f16>, #blocked>) {
    %c1 = arith.constant 1 : i64
    %a = tt.make_tensor_descriptor %p, [%n, %n], [%s, %c1] {padding = 1 : i32, tt.from_block_pointer} : !tt.ptr<f16> -> !tt.tensordesc<tensor<64x64xf16>>
    %x = tt.descriptor_load %a[%n, %n] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    tt.store %out, %x : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// Where the axis information does not prove the copy engine's alignment
// rules (the base and every stride but the innermost a multiple of 16
// bytes): a stride that is a kernel argument (%s, an i64 of unknown
// divisibility, 4-byte elements) is the launcher's to check, marked with the
// elements it must be a multiple of, the reason and the divisibility the
// kernel may then take (3 * %s would then be proven); any other (%s + 1, for
// the second map) and an unproven base (2 elements, 8 bytes, past an aligned
// one) get a tt.assert before the op.  The stride of 4 * 8 = 32 bytes is
// proven.
// CHECK-LABEL: tt.func public @made_with_unknown_alignment
// CHECK-SAME: %arg2: i64 {tt.divisibility = 4 : i32, tt.multiple_at_launch = 4 : i32, tt.multiple_at_launch_why = "tensor descriptor made in the kernel at {{.*}}lower-tensor-descriptors.mlir:{{[0-9]+}}: its stride 0 (4-byte elements) must be a multiple of 16 bytes (the copy engine's rule)"}
// CHECK-NOT: tt.assert
// CHECK: tt.make_tensor_descriptor %arg0
// CHECK: %[[C4:.*]] = arith.constant 4 : i64
// CHECK: %[[BYTES:.*]] = arith.muli %[[NEXT:.*]], %[[C4]] : i64
// CHECK: %[[LOW:.*]] = arith.andi %[[BYTES]], %c15_i64 : i64
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[LOW]], %c0_i64{{.*}} : i64
// CHECK: tt.assert %[[OK]], "tensor descriptor made in the kernel: its stride 0 (4-byte elements) must be a multiple of 16 bytes (the copy engine's rule)" : i1
// CHECK-NOT: tt.assert
// CHECK: tt.make_tensor_descriptor %arg0, [%arg1, %arg1], [%[[NEXT]],
// CHECK: %[[ADDRESS:.*]] = tt.ptr_to_int %[[SHIFTED:.*]] : !tt.ptr<f32> -> i64
// CHECK: arith.andi %[[ADDRESS]], %c15_i64
// CHECK: tt.assert %{{.*}}, "tensor descriptor made in the kernel: its base address must be a multiple of 16 bytes (the copy engine's rule)" : i1
// CHECK-NOT: tt.assert
// CHECK: tt.make_tensor_descriptor %[[SHIFTED]]
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @made_with_unknown_alignment(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32, %s: i64) {
    %c1 = arith.constant 1 : i64
    %c2 = arith.constant 2 : i32
    %c8 = arith.constant 8 : i64
    %a = tt.make_tensor_descriptor %p, [%n, %n], [%s, %c1] {padding = 1 : i32} : !tt.ptr<f32> -> !tt.tensordesc<tensor<16x32xf32>>
    %s1 = arith.addi %s, %c1 : i64
    %b = tt.make_tensor_descriptor %p, [%n, %n], [%s1, %c1] {padding = 1 : i32} : !tt.ptr<f32> -> !tt.tensordesc<tensor<16x32xf32>>
    %q = tt.addptr %p, %c2 : !tt.ptr<f32>, i32
    %c = tt.make_tensor_descriptor %q, [%n, %n], [%c8, %c1] {padding = 1 : i32} : !tt.ptr<f32> -> !tt.tensordesc<tensor<16x32xf32>>
    %x = tt.descriptor_load %a[%n, %n] : !tt.tensordesc<tensor<16x32xf32>> -> tensor<16x32xf32, #blocked>
    %y = tt.descriptor_load %b[%n, %n] : !tt.tensordesc<tensor<16x32xf32>> -> tensor<16x32xf32, #blocked>
    %z = arith.addf %x, %y : tensor<16x32xf32, #blocked>
    tt.descriptor_store %c[%n, %n], %z : !tt.tensordesc<tensor<16x32xf32>>, tensor<16x32xf32, #blocked>
    tt.return
  }
}

// -----

// A tensor map made outside the kernel function has no scratch of its own.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func private @helper(%p: !tt.ptr<f16>, %n: i32, %s: i64) -> tensor<64x64xf16, #blocked> attributes {noinline = true} {
    %c1 = arith.constant 1 : i64
    // expected-error@+1 {{a tensor map made in the kernel needs the kernel's scratch memory}}
    %a = tt.make_tensor_descriptor %p, [%n, %n], [%s, %c1] {padding = 1 : i32} : !tt.ptr<f16> -> !tt.tensordesc<tensor<64x64xf16>>
    %x = tt.descriptor_load %a[%n, %n] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    tt.return %x : tensor<64x64xf16, #blocked>
  }
}

// -----

// Maps made in a block whose operands are ready at its first map move up to
// it (%d, made last, joins %a and %b; %c's base is computed after %a, so it
// stays); then maps made in a row share fences while no op between them
// reads one or holds a region: %a, %b and %d share theirs (%a and %b are
// acquired right after %d) and %c, after a load through %b, keeps its own.
// CHECK-LABEL: tt.func public @rows_of_maps
// CHECK: %[[A:.*]] = tt.make_tensor_descriptor {{.*}}scratch_offset = 0 : i32, ttg.tensormap_fences_deferred}
// CHECK-NEXT: %[[B:.*]] = tt.make_tensor_descriptor {{.*}}scratch_offset = 128 : i32, ttg.tensormap_fences_deferred}
// CHECK-NEXT: %[[D:.*]] = tt.make_tensor_descriptor {{.*}}scratch_offset = 384 : i32}
// CHECK-NEXT: ttg.fence_tensormap_acquire %[[A]]
// CHECK-NEXT: ttg.fence_tensormap_acquire %[[B]]
// CHECK-NOT: ttg.fence_tensormap_acquire
// CHECK: %[[Q:.*]] = tt.addptr
// CHECK-NEXT: %[[C:.*]] = tt.make_tensor_descriptor %[[Q]], {{.*}}scratch_offset = 256 : i32}
// CHECK-NOT: ttg.fence_tensormap_acquire
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @rows_of_maps(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32, %s: i64 {tt.divisibility = 16 : i32}) {
    %c1 = arith.constant 1 : i64
    %c64 = arith.constant 64 : i32
    %a = tt.make_tensor_descriptor %p, [%n, %n], [%s, %c1] {padding = 1 : i32} : !tt.ptr<f16> -> !tt.tensordesc<tensor<64x64xf16>>
    %b = tt.make_tensor_descriptor %p, [%n, %n], [%s, %c1] {padding = 1 : i32} : !tt.ptr<f16> -> !tt.tensordesc<tensor<64x64xf16>>
    %x = tt.descriptor_load %b[%n, %n] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    %q = tt.addptr %p, %c64 : !tt.ptr<f16>, i32
    %c = tt.make_tensor_descriptor %q, [%n, %n], [%s, %c1] {padding = 1 : i32} : !tt.ptr<f16> -> !tt.tensordesc<tensor<64x64xf16>>
    tt.descriptor_store %c[%n, %n], %x : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked>
    %d = tt.make_tensor_descriptor %p, [%n, %n], [%s, %c1] {padding = 1 : i32} : !tt.ptr<f16> -> !tt.tensordesc<tensor<64x64xf16>>
    tt.descriptor_store %d[%n, %n], %x : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked>
    tt.descriptor_store %a[%n, %n], %x : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked>
    tt.return
  }
}

// -----

// The copies of a loop body of one stage are issued together, each as early
// as it may be: the second load's copy goes up to right after the first's
// (past the first's wait and the work that uses it), so both are in flight
// at once; each wait stays at its load.  A store ahead of a load keeps the
// load's copy below it, and a map made in the kernel keeps the copies that
// read it below its acquire.
// CHECK-LABEL: tt.func public @copies_issued_early
// CHECK: scf.for
// CHECK: ttg.async_tma_copy_global_to_local %arg0
// CHECK-NOT: ttg.wait_barrier
// CHECK: ttg.async_tma_copy_global_to_local %arg1
// CHECK: ttg.wait_barrier
// CHECK: arith.mulf
// CHECK: ttg.wait_barrier
// CHECK: arith.addf
// CHECK: scf.yield
// CHECK: ttg.async_tma_copy_local_to_global %arg2
// CHECK: ttg.async_tma_copy_global_to_local %arg0
// CHECK: %[[M1:.*]] = tt.make_tensor_descriptor
// CHECK: ttg.fence_tensormap_acquire %[[M1]]
// CHECK: ttg.async_tma_copy_global_to_local %[[M1]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @copies_issued_early(%k: !tt.tensordesc<tensor<64x64xf16>>, %v: !tt.tensordesc<tensor<64x64xf16>>,
                                      %out: !tt.tensordesc<tensor<64x64xf16>>, %p: !tt.ptr<f16> {tt.divisibility = 16 : i32},
                                      %n: i32, %acc0: tensor<64x64xf16, #blocked>) -> tensor<64x64xf16, #blocked> {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %r = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %acc0) -> (tensor<64x64xf16, #blocked>) : i32 {
      %x = tt.descriptor_load %k[%i, %c0] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
      %s = arith.mulf %x, %acc : tensor<64x64xf16, #blocked>
      %y = tt.descriptor_load %v[%i, %c0] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
      %t = arith.addf %s, %y : tensor<64x64xf16, #blocked>
      scf.yield %t : tensor<64x64xf16, #blocked>
    }
    tt.descriptor_store %out[%c0, %c0], %r : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked>
    %z = tt.descriptor_load %k[%c0, %c0] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    %c1 = arith.constant 1 : i64
    %c64i = arith.constant 64 : i64
    %m1 = tt.make_tensor_descriptor %p, [%n, %n], [%c64i, %c1] {padding = 1 : i32} : !tt.ptr<f16> -> !tt.tensordesc<tensor<64x64xf16>>
    %m2 = tt.make_tensor_descriptor %p, [%n, %n], [%c64i, %c1] {padding = 1 : i32} : !tt.ptr<f16> -> !tt.tensordesc<tensor<64x64xf16>>
    %w = tt.descriptor_load %m1[%c0, %c0] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    %w1 = tt.descriptor_load %m2[%c0, %c0] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    %u0 = arith.addf %z, %w : tensor<64x64xf16, #blocked>
    %u = arith.addf %u0, %w1 : tensor<64x64xf16, #blocked>
    tt.return %u : tensor<64x64xf16, #blocked>
  }
}
