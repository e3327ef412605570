// RUN: tritium-opt %s -ttg-pipeline=num-stages=2 | FileCheck %s --check-prefix=TWO
// RUN: tritium-opt %s -ttg-pipeline=num-stages=3 | FileCheck %s --check-prefix=THREE

// TMA loads whose tiles the body first reads at different ops (attention:
// K by the first dot, V by the second).  With 2 stages they get a barrier
// ring each: each stage expects each tile's bytes on its own barrier, and
// the loop waits for K's slot at its top and for V's slot right before the
// second dot, so the first dot does not wait for V's copy.  With 3 stages
// the copies were issued two iterations ahead: one ring, one expect of
// both tiles' bytes, one wait at the top.
// TWO-LABEL: tt.func public @tma_groups_by_reader
// TWO: %[[BK:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
// TWO-COUNT-2: ttg.init_barrier
// TWO: %[[BV:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
// TWO-COUNT-2: ttg.init_barrier
// TWO: ttg.barrier_expect %{{.*}}, 8192, %{{.*}}
// TWO-NEXT: ttg.memdesc_index %[[BV]]
// TWO-NEXT: ttg.barrier_expect %{{.*}}, 8192, %{{.*}}
// TWO: scf.for {{.*}} iter_args(%{{[^ ]*}} = %{{[^ ]*}}, %{{[^ ]*}} = %c1_i32{{[_0-9]*}}, %[[EXTRACT:[^ ]*]] = %c0_i32{{[_0-9]*}}, %[[PHASE:[^ ]*]] = %c0_i32{{[_0-9]*}})
// TWO: %[[K:.*]] = ttg.memdesc_index %[[BK]][%[[EXTRACT]]]
// TWO-NEXT: ttg.wait_barrier %[[K]], %[[PHASE]]
// TWO: ttg.warp_group_dot
// TWO: %[[V:.*]] = ttg.memdesc_index %[[BV]][%[[EXTRACT]]]
// TWO-NEXT: ttg.wait_barrier %[[V]], %[[PHASE]]
// TWO-NEXT: ttg.warp_group_dot
// TWO: scf.yield
// TWO-COUNT-4: ttg.inval_barrier
// THREE-LABEL: tt.func public @tma_groups_by_reader
// THREE: ttg.local_alloc : () -> !ttg.memdesc<3x1xi64
// THREE-NOT: ttg.local_alloc : () -> !ttg.memdesc<3x1xi64
// THREE: ttg.barrier_expect %{{.*}}, 16384, %{{.*}}
// THREE: scf.for
// THREE: ttg.wait_barrier
// THREE-NOT: ttg.wait_barrier
// THREE: scf.yield
// THREE-COUNT-3: ttg.inval_barrier
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:90"} {
  tt.func public @tma_groups_by_reader(%kd: !tt.tensordesc<tensor<64x64xf16>>, %vd: !tt.tensordesc<tensor<64x64xf16>>, %q: !ttg.memdesc<128x64xf16, #nvmma, #smem>, %n: i32) -> tensor<128x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
      %k = tt.descriptor_load %kd[%i, %c0] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
      %sk = ttg.local_alloc %k : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      %s = ttg.warp_group_dot %q, %sk, %zero : !ttg.memdesc<128x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<128x64xf32, #mma>
      %p = arith.truncf %s : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
      %pa = ttg.convert_layout %p : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %v = tt.descriptor_load %vd[%i, %c0] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
      %sv = ttg.local_alloc %v : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      %o = ttg.warp_group_dot %pa, %sv, %acc : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<128x64xf32, #mma>
      scf.yield %o : tensor<128x64xf32, #mma>
    }
    tt.return %r : tensor<128x64xf32, #mma>
  }
}

