// RUN: tritium-opt %s -split-input-file | tritium-opt -split-input-file | FileCheck %s

// Every layout attribute and the shared-memory space print as aliases at the
// top of the module and parse back to the same attribute: blocked,
// slice, nvidia_mma v2 and v3, dot_op A and B, dot_op A of an mma v3 parent,
// swizzled_shared on an immutable buffer and on a mutable view of a larger
// allocation.  The module attributes come back sorted by name.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#mma3 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, "ttg.target" = "cuda:90"} {
  tt.func @layouts(%blocked: tensor<64x64xf32, #blocked>,
                   %slice: tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>,
                   %mma_v2: tensor<64x64xf32, #mma>,
                   %mma_v3: tensor<64x64xf32, #mma3>,
                   %dot_a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>,
                   %dot_b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>,
                   %dot_a_v3: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma3, kWidth = 2}>>,
                   %buf: !ttg.memdesc<64x32xf16, #shared, #ttg.shared_memory>,
                   %view: !ttg.memdesc<64x32xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>, #ttg.shared_memory, mutable, 3x64x32>) {
    tt.return
  }
}

// CHECK-DAG: {{^}}[[BLOCKED:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>{{$}}
// CHECK-DAG: {{^}}[[MMA:#mma[0-9]*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>{{$}}
// CHECK-DAG: {{^}}[[MMA3:#mma[0-9]*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>{{$}}
// CHECK-DAG: {{^}}[[SHARED:#shared[0-9]*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>{{$}}
// CHECK-DAG: {{^}}[[SHARED_T:#shared[0-9]*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>{{$}}
// CHECK-DAG: {{^}}[[SMEM:#smem[0-9]*]] = #ttg.shared_memory{{$}}
// CHECK-DAG: {{^}}[[DOT_A:#dot_op[0-9]*]] = #ttg.dot_op<{opIdx = 0, parent = [[MMA]], kWidth = 2}>{{$}}
// CHECK-DAG: {{^}}[[DOT_B:#dot_op[0-9]*]] = #ttg.dot_op<{opIdx = 1, parent = [[MMA]], kWidth = 2}>{{$}}
// CHECK-DAG: {{^}}[[DOT_A3:#dot_op[0-9]*]] = #ttg.dot_op<{opIdx = 0, parent = [[MMA3]], kWidth = 2}>{{$}}
// CHECK-DAG: {{^}}[[SLICE:#slice[0-9]*]] = #ttg.slice<{dim = 1, parent = [[BLOCKED]]}>{{$}}
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}
// CHECK-LABEL: tt.func @layouts(
// CHECK-SAME: %{{.*}}: tensor<64x64xf32, [[BLOCKED]]>,
// CHECK-SAME: %{{.*}}: tensor<64xf32, [[SLICE]]>,
// CHECK-SAME: %{{.*}}: tensor<64x64xf32, [[MMA]]>,
// CHECK-SAME: %{{.*}}: tensor<64x64xf32, [[MMA3]]>,
// CHECK-SAME: %{{.*}}: tensor<64x32xf16, [[DOT_A]]>,
// CHECK-SAME: %{{.*}}: tensor<32x64xf16, [[DOT_B]]>,
// CHECK-SAME: %{{.*}}: tensor<64x32xf16, [[DOT_A3]]>,
// CHECK-SAME: %{{.*}}: !ttg.memdesc<64x32xf16, [[SHARED]], [[SMEM]]>,
// CHECK-SAME: %{{.*}}: !ttg.memdesc<64x32xf16, [[SHARED_T]], [[SMEM]], mutable, 3x64x32>)
// CHECK-NEXT: tt.return

// -----

// A pipelined Ampere matmul: A and B tiles are copied asynchronously from
// global memory into two-stage shared buffers, waited for, loaded into dot
// operand layouts and multiplied into an mma accumulator carried by the loop;
// a row reduction then yields a slice of the mma layout, and the result is
// converted to a blocked layout for the store.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dotA = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#dotB = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shared3 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, "ttg.target" = "cuda:80"} {
  tt.func public @matmul_kernel(%a_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %K: i32, %stride_am: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c2_i32 = arith.constant 2 : i32
    %c32_i32 = arith.constant 32 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %a_other = arith.constant dense<0.000000e+00> : tensor<64x32xf16, #blocked>
    %a_step = arith.constant dense<32> : tensor<64x32xi32, #blocked>
    %b_step = arith.constant dense<2048> : tensor<32x64xi32, #blocked1>
    %b_stride = arith.constant dense<64> : tensor<32x1xi32, #blocked1>
    // A tile pointers: a_ptr + m * stride_am + k.
    %am = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %am_col = tt.expand_dims %am {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %ak = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %ak_row = tt.expand_dims %ak {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %stride = tt.splat %stride_am : i32 -> tensor<64x1xi32, #blocked>
    %a_rows = arith.muli %am_col, %stride : tensor<64x1xi32, #blocked>
    %a_rows_b = tt.broadcast %a_rows : tensor<64x1xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %a_cols_b = tt.broadcast %ak_row : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %a_offs = arith.addi %a_rows_b, %a_cols_b : tensor<64x32xi32, #blocked>
    %a_base = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %a_ptrs = tt.addptr %a_base, %a_offs : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
    // B tile pointers: b_ptr + k * 64 + n.
    %bk = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %bk_col = tt.expand_dims %bk {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<32x1xi32, #blocked1>
    %bn = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %bn_row = tt.expand_dims %bn {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
    %b_rows = arith.muli %bk_col, %b_stride : tensor<32x1xi32, #blocked1>
    %b_rows_b = tt.broadcast %b_rows : tensor<32x1xi32, #blocked1> -> tensor<32x64xi32, #blocked1>
    %b_cols_b = tt.broadcast %bn_row : tensor<1x64xi32, #blocked1> -> tensor<32x64xi32, #blocked1>
    %b_offs = arith.addi %b_rows_b, %b_cols_b : tensor<32x64xi32, #blocked1>
    %b_base = tt.splat %b_ptr : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked1>
    %b_ptrs = tt.addptr %b_base, %b_offs : tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<32x64xi32, #blocked1>
    // Two-stage buffers for A and B.
    %a_buf = ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16, #shared3, #smem, mutable>
    %b_buf = ttg.local_alloc : () -> !ttg.memdesc<2x32x64xf16, #shared3, #smem, mutable>
    %res:3 = scf.for %k = %c0_i32 to %K step %c32_i32 iter_args(%acc = %zero, %ap = %a_ptrs, %bp = %b_ptrs) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked1>) : i32 {
      %iter = arith.divsi %k, %c32_i32 : i32
      %slot = arith.remsi %iter, %c2_i32 : i32
      %a_slot = ttg.memdesc_index %a_buf[%slot] : !ttg.memdesc<2x64x32xf16, #shared3, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 2x64x32>
      %b_slot = ttg.memdesc_index %b_buf[%slot] : !ttg.memdesc<2x32x64xf16, #shared3, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable, 2x32x64>
      // Columns k.. of A past K are filled with `other`.
      %k_left = arith.subi %K, %k : i32
      %k_left_s = tt.splat %k_left : i32 -> tensor<1x32xi32, #blocked>
      %in_k = arith.cmpi slt, %ak_row, %k_left_s : tensor<1x32xi32, #blocked>
      %a_mask = tt.broadcast %in_k : tensor<1x32xi1, #blocked> -> tensor<64x32xi1, #blocked>
      %ta = ttg.async_copy_global_to_local %ap, %a_slot mask %a_mask other %a_other cacheModifier = cg : tensor<64x32x!tt.ptr<f16>, #blocked> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 2x64x32>
      %tb = ttg.async_copy_global_to_local %bp, %b_slot : tensor<32x64x!tt.ptr<f16>, #blocked1> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable, 2x32x64>
      %group = ttg.async_commit_group tokens %ta, %tb
      %ready = ttg.async_wait %group {num = 0 : i32}
      %a = ttg.local_load %a_slot token %ready : !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 2x64x32> -> tensor<64x32xf16, #dotA>
      %b = ttg.local_load %b_slot token %ready : !ttg.memdesc<32x64xf16, #shared, #smem, mutable, 2x32x64> -> tensor<32x64xf16, #dotB>
      %d = tt.dot %a, %b, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mma>
      %ap_next = tt.addptr %ap, %a_step : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      %bp_next = tt.addptr %bp, %b_step : tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<32x64xi32, #blocked1>
      scf.yield %d, %ap_next, %bp_next : tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked1>
    }
    ttg.local_dealloc %a_buf : !ttg.memdesc<2x64x32xf16, #shared3, #smem, mutable>
    ttg.local_dealloc %b_buf : !ttg.memdesc<2x32x64xf16, #shared3, #smem, mutable>
    // Subtract each row's maximum: the reduction yields a slice of #mma.
    %row_max = "tt.reduce"(%res#0) <{axis = 1 : i32}> ({
    ^bb0(%x: f32, %y: f32):
      %m = arith.maxnumf %x, %y : f32
      tt.reduce.return %m : f32
    }) : (tensor<64x64xf32, #mma>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %row_max_col = tt.expand_dims %row_max {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<64x1xf32, #mma>
    %row_max_b = tt.broadcast %row_max_col : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
    %shifted = arith.subf %res#0, %row_max_b : tensor<64x64xf32, #mma>
    %out = ttg.convert_layout %shifted : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked2>
    %c_base = tt.splat %c_ptr : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked2>
    tt.store %c_base, %out : tensor<64x64x!tt.ptr<f32>, #blocked2>
    tt.return
  }
}

// CHECK-DAG: {{^}}[[BLOCKED:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>{{$}}
// CHECK-DAG: {{^}}[[BLOCKED1:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>{{$}}
// CHECK-DAG: {{^}}[[BLOCKED2:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>{{$}}
// CHECK-DAG: {{^}}[[MMA:#mma[0-9]*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>{{$}}
// CHECK-DAG: {{^}}[[SHARED3:#shared[0-9]*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>{{$}}
// CHECK-DAG: {{^}}[[SHARED:#shared[0-9]*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>{{$}}
// CHECK-DAG: {{^}}[[SMEM:#smem[0-9]*]] = #ttg.shared_memory{{$}}
// CHECK-DAG: {{^}}[[DOT_A:#dot_op[0-9]*]] = #ttg.dot_op<{opIdx = 0, parent = [[MMA]], kWidth = 2}>{{$}}
// CHECK-DAG: {{^}}[[DOT_B:#dot_op[0-9]*]] = #ttg.dot_op<{opIdx = 1, parent = [[MMA]], kWidth = 2}>{{$}}
// CHECK-DAG: {{^}}[[SLICE_M:#slice[0-9]*]] = #ttg.slice<{dim = 1, parent = [[BLOCKED]]}>{{$}}
// CHECK-DAG: {{^}}[[SLICE_K:#slice[0-9]*]] = #ttg.slice<{dim = 0, parent = [[BLOCKED]]}>{{$}}
// CHECK-DAG: {{^}}[[SLICE1_K:#slice[0-9]*]] = #ttg.slice<{dim = 1, parent = [[BLOCKED1]]}>{{$}}
// CHECK-DAG: {{^}}[[SLICE1_N:#slice[0-9]*]] = #ttg.slice<{dim = 0, parent = [[BLOCKED1]]}>{{$}}
// CHECK-DAG: {{^}}[[SLICE_MMA:#slice[0-9]*]] = #ttg.slice<{dim = 1, parent = [[MMA]]}>{{$}}
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32}
// CHECK-LABEL: tt.func public @matmul_kernel(
// CHECK-SAME: %[[A_PTR:.*]]: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %[[B_PTR:.*]]: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %[[C_PTR:.*]]: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %[[K:.*]]: i32, %[[STRIDE_AM:.*]]: i32)
// CHECK: %[[C0:.*]] = arith.constant 0 : i32
// CHECK: %[[C2:.*]] = arith.constant 2 : i32
// CHECK: %[[C32:.*]] = arith.constant 32 : i32
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, [[MMA]]>
// CHECK: %[[A_OTHER:.*]] = arith.constant dense<0.000000e+00> : tensor<64x32xf16, [[BLOCKED]]>
// CHECK: %[[A_STEP:.*]] = arith.constant dense<32> : tensor<64x32xi32, [[BLOCKED]]>
// CHECK: %[[B_STEP:.*]] = arith.constant dense<2048> : tensor<32x64xi32, [[BLOCKED1]]>
// CHECK: %[[B_STRIDE:.*]] = arith.constant dense<64> : tensor<32x1xi32, [[BLOCKED1]]>
// CHECK: %[[AM:.*]] = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, [[SLICE_M]]>
// CHECK: %[[AM_COL:.*]] = tt.expand_dims %[[AM]] {axis = 1 : i32} : tensor<64xi32, [[SLICE_M]]> -> tensor<64x1xi32, [[BLOCKED]]>
// CHECK: %[[AK:.*]] = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, [[SLICE_K]]>
// CHECK: %[[AK_ROW:.*]] = tt.expand_dims %[[AK]] {axis = 0 : i32} : tensor<32xi32, [[SLICE_K]]> -> tensor<1x32xi32, [[BLOCKED]]>
// CHECK: %[[STRIDE:.*]] = tt.splat %[[STRIDE_AM]] : i32 -> tensor<64x1xi32, [[BLOCKED]]>
// CHECK: %[[A_ROWS:.*]] = arith.muli %[[AM_COL]], %[[STRIDE]] : tensor<64x1xi32, [[BLOCKED]]>
// CHECK: %[[A_ROWS_B:.*]] = tt.broadcast %[[A_ROWS]] : tensor<64x1xi32, [[BLOCKED]]> -> tensor<64x32xi32, [[BLOCKED]]>
// CHECK: %[[A_COLS_B:.*]] = tt.broadcast %[[AK_ROW]] : tensor<1x32xi32, [[BLOCKED]]> -> tensor<64x32xi32, [[BLOCKED]]>
// CHECK: %[[A_OFFS:.*]] = arith.addi %[[A_ROWS_B]], %[[A_COLS_B]] : tensor<64x32xi32, [[BLOCKED]]>
// CHECK: %[[A_BASE:.*]] = tt.splat %[[A_PTR]] : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, [[BLOCKED]]>
// CHECK: %[[A_PTRS:.*]] = tt.addptr %[[A_BASE]], %[[A_OFFS]] : tensor<64x32x!tt.ptr<f16>, [[BLOCKED]]>, tensor<64x32xi32, [[BLOCKED]]>
// CHECK: %[[BK:.*]] = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, [[SLICE1_K]]>
// CHECK: %[[BK_COL:.*]] = tt.expand_dims %[[BK]] {axis = 1 : i32} : tensor<32xi32, [[SLICE1_K]]> -> tensor<32x1xi32, [[BLOCKED1]]>
// CHECK: %[[BN:.*]] = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, [[SLICE1_N]]>
// CHECK: %[[BN_ROW:.*]] = tt.expand_dims %[[BN]] {axis = 0 : i32} : tensor<64xi32, [[SLICE1_N]]> -> tensor<1x64xi32, [[BLOCKED1]]>
// CHECK: %[[B_ROWS:.*]] = arith.muli %[[BK_COL]], %[[B_STRIDE]] : tensor<32x1xi32, [[BLOCKED1]]>
// CHECK: %[[B_ROWS_B:.*]] = tt.broadcast %[[B_ROWS]] : tensor<32x1xi32, [[BLOCKED1]]> -> tensor<32x64xi32, [[BLOCKED1]]>
// CHECK: %[[B_COLS_B:.*]] = tt.broadcast %[[BN_ROW]] : tensor<1x64xi32, [[BLOCKED1]]> -> tensor<32x64xi32, [[BLOCKED1]]>
// CHECK: %[[B_OFFS:.*]] = arith.addi %[[B_ROWS_B]], %[[B_COLS_B]] : tensor<32x64xi32, [[BLOCKED1]]>
// CHECK: %[[B_BASE:.*]] = tt.splat %[[B_PTR]] : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, [[BLOCKED1]]>
// CHECK: %[[B_PTRS:.*]] = tt.addptr %[[B_BASE]], %[[B_OFFS]] : tensor<32x64x!tt.ptr<f16>, [[BLOCKED1]]>, tensor<32x64xi32, [[BLOCKED1]]>
// CHECK: %[[A_BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16, [[SHARED3]], [[SMEM]], mutable>
// CHECK: %[[B_BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x32x64xf16, [[SHARED3]], [[SMEM]], mutable>
// CHECK: %[[RES:.*]]:3 = scf.for %[[KK:.*]] = %[[C0]] to %[[K]] step %[[C32]] iter_args(%[[ACC:.*]] = %[[ZERO]], %[[AP:.*]] = %[[A_PTRS]], %[[BP:.*]] = %[[B_PTRS]]) -> (tensor<64x64xf32, [[MMA]]>, tensor<64x32x!tt.ptr<f16>, [[BLOCKED]]>, tensor<32x64x!tt.ptr<f16>, [[BLOCKED1]]>) : i32 {
// CHECK: %[[ITER:.*]] = arith.divsi %[[KK]], %[[C32]] : i32
// CHECK: %[[SLOT:.*]] = arith.remsi %[[ITER]], %[[C2]] : i32
// CHECK: %[[A_SLOT:.*]] = ttg.memdesc_index %[[A_BUF]][%[[SLOT]]] : !ttg.memdesc<2x64x32xf16, [[SHARED3]], [[SMEM]], mutable> -> !ttg.memdesc<64x32xf16, [[SHARED]], [[SMEM]], mutable, 2x64x32>
// CHECK: %[[B_SLOT:.*]] = ttg.memdesc_index %[[B_BUF]][%[[SLOT]]] : !ttg.memdesc<2x32x64xf16, [[SHARED3]], [[SMEM]], mutable> -> !ttg.memdesc<32x64xf16, [[SHARED]], [[SMEM]], mutable, 2x32x64>
// CHECK: %[[K_LEFT:.*]] = arith.subi %[[K]], %[[KK]] : i32
// CHECK: %[[K_LEFT_S:.*]] = tt.splat %[[K_LEFT]] : i32 -> tensor<1x32xi32, [[BLOCKED]]>
// CHECK: %[[IN_K:.*]] = arith.cmpi slt, %[[AK_ROW]], %[[K_LEFT_S]] : tensor<1x32xi32, [[BLOCKED]]>
// CHECK: %[[A_MASK:.*]] = tt.broadcast %[[IN_K]] : tensor<1x32xi1, [[BLOCKED]]> -> tensor<64x32xi1, [[BLOCKED]]>
// CHECK: %[[TA:.*]] = ttg.async_copy_global_to_local %[[AP]], %[[A_SLOT]] mask %[[A_MASK]] other %[[A_OTHER]] cacheModifier = cg : tensor<64x32x!tt.ptr<f16>, [[BLOCKED]]> -> !ttg.memdesc<64x32xf16, [[SHARED]], [[SMEM]], mutable, 2x64x32>
// CHECK: %[[TB:.*]] = ttg.async_copy_global_to_local %[[BP]], %[[B_SLOT]] : tensor<32x64x!tt.ptr<f16>, [[BLOCKED1]]> -> !ttg.memdesc<32x64xf16, [[SHARED]], [[SMEM]], mutable, 2x32x64>
// CHECK: %[[GROUP:.*]] = ttg.async_commit_group tokens %[[TA]], %[[TB]]
// CHECK: %[[READY:.*]] = ttg.async_wait %[[GROUP]] {num = 0 : i32}
// CHECK: %[[A:.*]] = ttg.local_load %[[A_SLOT]] token %[[READY]] : !ttg.memdesc<64x32xf16, [[SHARED]], [[SMEM]], mutable, 2x64x32> -> tensor<64x32xf16, [[DOT_A]]>
// CHECK: %[[B:.*]] = ttg.local_load %[[B_SLOT]] token %[[READY]] : !ttg.memdesc<32x64xf16, [[SHARED]], [[SMEM]], mutable, 2x32x64> -> tensor<32x64xf16, [[DOT_B]]>
// CHECK: %[[D:.*]] = tt.dot %[[A]], %[[B]], %[[ACC]] : tensor<64x32xf16, [[DOT_A]]> * tensor<32x64xf16, [[DOT_B]]> -> tensor<64x64xf32, [[MMA]]>
// CHECK: %[[AP_NEXT:.*]] = tt.addptr %[[AP]], %[[A_STEP]] : tensor<64x32x!tt.ptr<f16>, [[BLOCKED]]>, tensor<64x32xi32, [[BLOCKED]]>
// CHECK: %[[BP_NEXT:.*]] = tt.addptr %[[BP]], %[[B_STEP]] : tensor<32x64x!tt.ptr<f16>, [[BLOCKED1]]>, tensor<32x64xi32, [[BLOCKED1]]>
// CHECK: scf.yield %[[D]], %[[AP_NEXT]], %[[BP_NEXT]] : tensor<64x64xf32, [[MMA]]>, tensor<64x32x!tt.ptr<f16>, [[BLOCKED]]>, tensor<32x64x!tt.ptr<f16>, [[BLOCKED1]]>
// CHECK: ttg.local_dealloc %[[A_BUF]] : !ttg.memdesc<2x64x32xf16, [[SHARED3]], [[SMEM]], mutable>
// CHECK: ttg.local_dealloc %[[B_BUF]] : !ttg.memdesc<2x32x64xf16, [[SHARED3]], [[SMEM]], mutable>
// CHECK: %[[ROW_MAX:.*]] = "tt.reduce"(%[[RES]]#0) <{axis = 1 : i32}> ({
// CHECK: arith.maxnumf
// CHECK: tt.reduce.return
// CHECK: }) : (tensor<64x64xf32, [[MMA]]>) -> tensor<64xf32, [[SLICE_MMA]]>
// CHECK: %[[ROW_MAX_COL:.*]] = tt.expand_dims %[[ROW_MAX]] {axis = 1 : i32} : tensor<64xf32, [[SLICE_MMA]]> -> tensor<64x1xf32, [[MMA]]>
// CHECK: %[[ROW_MAX_B:.*]] = tt.broadcast %[[ROW_MAX_COL]] : tensor<64x1xf32, [[MMA]]> -> tensor<64x64xf32, [[MMA]]>
// CHECK: %[[SHIFTED:.*]] = arith.subf %[[RES]]#0, %[[ROW_MAX_B]] : tensor<64x64xf32, [[MMA]]>
// CHECK: %[[OUT:.*]] = ttg.convert_layout %[[SHIFTED]] : tensor<64x64xf32, [[MMA]]> -> tensor<64x64xf32, [[BLOCKED2]]>
// CHECK: %[[C_BASE:.*]] = tt.splat %[[C_PTR]] : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, [[BLOCKED2]]>
// CHECK: tt.store %[[C_BASE]], %[[OUT]] : tensor<64x64x!tt.ptr<f32>, [[BLOCKED2]]>
// CHECK: tt.return

// -----

// Staging a tile through shared memory: an immutable buffer initialized from
// a tensor and read back without a token, a mutable buffer written with
// local_store and read through a sub-tile view, commit groups and waits with
// no tokens, and a copy with every cache and eviction option.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, "ttg.target" = "cuda:90"} {
  tt.func @stage_through_shared(%x: tensor<64x32xf16, #blocked>, %ptrs: tensor<64x32x!tt.ptr<f16>, #blocked>, %mask: tensor<64x32xi1, #blocked>, %other: tensor<64x32xf16, #blocked>) -> (tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, tensor<64x16xf16, #blocked>) {
    %frozen = ttg.local_alloc %x : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    %a = ttg.local_load %frozen : !ttg.memdesc<64x32xf16, #shared, #smem> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #plain, #smem, mutable>
    ttg.local_store %x, %buf : tensor<64x32xf16, #blocked> -> !ttg.memdesc<64x32xf16, #plain, #smem, mutable>
    %right = ttg.memdesc_subslice %buf [0, 16] : !ttg.memdesc<64x32xf16, #plain, #smem, mutable> -> !ttg.memdesc<64x16xf16, #plain, #smem, mutable, 64x32>
    %cols = ttg.local_load %right : !ttg.memdesc<64x16xf16, #plain, #smem, mutable, 64x32> -> tensor<64x16xf16, #blocked>
    %t = ttg.async_copy_global_to_local %ptrs, %buf mask %mask other %other cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<64x32x!tt.ptr<f16>, #blocked> -> !ttg.memdesc<64x32xf16, #plain, #smem, mutable>
    %g = ttg.async_commit_group
    %w = ttg.async_wait {num = 1 : i32}
    %w2 = ttg.async_wait %t, %g {num = 0 : i32}
    ttg.local_dealloc %buf : !ttg.memdesc<64x32xf16, #plain, #smem, mutable>
    ttg.local_dealloc %frozen : !ttg.memdesc<64x32xf16, #shared, #smem>
    tt.return %a, %cols : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, tensor<64x16xf16, #blocked>
  }
}

// CHECK-DAG: {{^}}[[BLOCKED:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>{{$}}
// CHECK-DAG: {{^}}[[MMA:#mma[0-9]*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>{{$}}
// CHECK-DAG: {{^}}[[SHARED:#shared[0-9]*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>{{$}}
// CHECK-DAG: {{^}}[[PLAIN:#shared[0-9]*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>{{$}}
// CHECK-DAG: {{^}}[[SMEM:#smem[0-9]*]] = #ttg.shared_memory{{$}}
// CHECK-DAG: {{^}}[[DOT_A:#dot_op[0-9]*]] = #ttg.dot_op<{opIdx = 0, parent = [[MMA]], kWidth = 2}>{{$}}
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}
// CHECK-LABEL: tt.func @stage_through_shared(
// CHECK-SAME: %[[X:.*]]: tensor<64x32xf16, [[BLOCKED]]>, %[[PTRS:.*]]: tensor<64x32x!tt.ptr<f16>, [[BLOCKED]]>, %[[MASK:.*]]: tensor<64x32xi1, [[BLOCKED]]>, %[[OTHER:.*]]: tensor<64x32xf16, [[BLOCKED]]>)
// CHECK-SAME: -> (tensor<64x32xf16, [[DOT_A]]>, tensor<64x16xf16, [[BLOCKED]]>)
// CHECK: %[[FROZEN:.*]] = ttg.local_alloc %[[X]] : (tensor<64x32xf16, [[BLOCKED]]>) -> !ttg.memdesc<64x32xf16, [[SHARED]], [[SMEM]]>
// CHECK: %[[A:.*]] = ttg.local_load %[[FROZEN]] : !ttg.memdesc<64x32xf16, [[SHARED]], [[SMEM]]> -> tensor<64x32xf16, [[DOT_A]]>
// CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, [[PLAIN]], [[SMEM]], mutable>
// CHECK: ttg.local_store %[[X]], %[[BUF]] : tensor<64x32xf16, [[BLOCKED]]> -> !ttg.memdesc<64x32xf16, [[PLAIN]], [[SMEM]], mutable>
// CHECK: %[[RIGHT:.*]] = ttg.memdesc_subslice %[[BUF]] [0, 16] : !ttg.memdesc<64x32xf16, [[PLAIN]], [[SMEM]], mutable> -> !ttg.memdesc<64x16xf16, [[PLAIN]], [[SMEM]], mutable, 64x32>
// CHECK: %[[COLS:.*]] = ttg.local_load %[[RIGHT]] : !ttg.memdesc<64x16xf16, [[PLAIN]], [[SMEM]], mutable, 64x32> -> tensor<64x16xf16, [[BLOCKED]]>
// CHECK: %[[T:.*]] = ttg.async_copy_global_to_local %[[PTRS]], %[[BUF]] mask %[[MASK]] other %[[OTHER]] cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<64x32x!tt.ptr<f16>, [[BLOCKED]]> -> !ttg.memdesc<64x32xf16, [[PLAIN]], [[SMEM]], mutable>
// CHECK: %[[G:.*]] = ttg.async_commit_group{{$}}
// CHECK: %{{.*}} = ttg.async_wait {num = 1 : i32}
// CHECK: %{{.*}} = ttg.async_wait %[[T]], %[[G]] {num = 0 : i32}
// CHECK: ttg.local_dealloc %[[BUF]] : !ttg.memdesc<64x32xf16, [[PLAIN]], [[SMEM]], mutable>
// CHECK: ttg.local_dealloc %[[FROZEN]] : !ttg.memdesc<64x32xf16, [[SHARED]], [[SMEM]]>
// CHECK: tt.return %[[A]], %[[COLS]] : tensor<64x32xf16, [[DOT_A]]>, tensor<64x16xf16, [[BLOCKED]]>

// -----

// A Hopper tile: the wgmma accumulator (mma v3, one warpgroup along M) and
// its A operand loaded from shared memory into registers, then converted
// between layouts.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma3 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, "ttg.target" = "cuda:90"} {
  tt.func @hopper_tile(%a_buf: !ttg.memdesc<64x16xf16, #shared, #ttg.shared_memory>, %acc: tensor<64x64xf32, #blocked>) -> (tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma3, kWidth = 2}>>, tensor<64x64xf32, #blocked>) {
    %a = ttg.local_load %a_buf : !ttg.memdesc<64x16xf16, #shared, #ttg.shared_memory> -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma3, kWidth = 2}>>
    %c = ttg.convert_layout %acc : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma3>
    %back = ttg.convert_layout %c : tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #blocked>
    tt.return %a, %back : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma3, kWidth = 2}>>, tensor<64x64xf32, #blocked>
  }
}

// CHECK-DAG: {{^}}[[BLOCKED:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>{{$}}
// CHECK-DAG: {{^}}[[MMA3:#mma[0-9]*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>{{$}}
// CHECK-DAG: {{^}}[[SHARED:#shared[0-9]*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>{{$}}
// CHECK-DAG: {{^}}[[SMEM:#smem[0-9]*]] = #ttg.shared_memory{{$}}
// CHECK-DAG: {{^}}[[DOT_A3:#dot_op[0-9]*]] = #ttg.dot_op<{opIdx = 0, parent = [[MMA3]], kWidth = 2}>{{$}}
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}
// CHECK-LABEL: tt.func @hopper_tile(
// CHECK-SAME: %[[A_BUF:.*]]: !ttg.memdesc<64x16xf16, [[SHARED]], [[SMEM]]>, %[[ACC:.*]]: tensor<64x64xf32, [[BLOCKED]]>)
// CHECK-SAME: -> (tensor<64x16xf16, [[DOT_A3]]>, tensor<64x64xf32, [[BLOCKED]]>)
// CHECK: %[[A:.*]] = ttg.local_load %[[A_BUF]] : !ttg.memdesc<64x16xf16, [[SHARED]], [[SMEM]]> -> tensor<64x16xf16, [[DOT_A3]]>
// CHECK: %[[C:.*]] = ttg.convert_layout %[[ACC]] : tensor<64x64xf32, [[BLOCKED]]> -> tensor<64x64xf32, [[MMA3]]>
// CHECK: %[[BACK:.*]] = ttg.convert_layout %[[C]] : tensor<64x64xf32, [[MMA3]]> -> tensor<64x64xf32, [[BLOCKED]]>
// CHECK: tt.return %[[A]], %[[BACK]]

// -----

// A CTA barrier between a store to a buffer and a load from it: no operands,
// no results, no attributes, and it prints back as the bare op name.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @barrier(%x: tensor<16x16xf16, #blocked>, %buf: !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory, mutable>) -> tensor<16x16xf16, #blocked> {
    ttg.local_store %x, %buf : tensor<16x16xf16, #blocked> -> !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory, mutable>
    ttg.barrier
    %y = ttg.local_load %buf : !ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory, mutable> -> tensor<16x16xf16, #blocked>
    tt.return %y : tensor<16x16xf16, #blocked>
  }
}

// CHECK-LABEL: tt.func @barrier(
// CHECK: ttg.local_store
// CHECK-NEXT: ttg.barrier{{$}}
// CHECK-NEXT: ttg.local_load

// -----

// Warp specialization round-trips: the op with its two regions and the
// partition's warp count, the terminator, per-warp arrivals, a polled wait,
// and the tensor-map acquire.
// CHECK-LABEL: tt.func @warp_specialized
// CHECK: ttg.fence_tensormap_acquire %{{.*}} : !tt.tensordesc<tensor<64x64xf16>>
// CHECK: ttg.warp_specialize default {
// CHECK:   ttg.arrive_barrier %{{.*}}, %{{.*}} : !ttg.memdesc<1xi64
// CHECK:   ttg.warp_yield
// CHECK: } partition num_warps(1) {
// CHECK:   ttg.wait_barrier %{{.*}}, %{{.*}} {poll} : !ttg.memdesc<1xi64
// CHECK:   ttg.warp_yield
// CHECK: }
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.total-num-warps" = 5 : i32} {
  tt.func @warp_specialized(%desc: !tt.tensordesc<tensor<64x64xf16>>, %phase: i32, %pred: i1) {
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttg.fence_tensormap_acquire %desc : !tt.tensordesc<tensor<64x64xf16>>
    ttg.warp_specialize default {
      ttg.arrive_barrier %bar, %pred : !ttg.memdesc<1xi64, #shared, #smem, mutable>
      ttg.warp_yield
    } partition num_warps(1) {
      ttg.wait_barrier %bar, %phase {poll} : !ttg.memdesc<1xi64, #shared, #smem, mutable>
      ttg.warp_yield
    }
    tt.return
  }
}

// -----

// A ring of 2-D tiles (what ttg-pipeline allocates for staged operands) may
// carry the tiles' own 2-D shared layout, swizzled or NVMMA: the tiles are
// stacked along the leading dimension.
// CHECK-LABEL: tt.func @ring_of_two_dimensional_tiles
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<4x64x128xf32, #shared, #smem, mutable>
// CHECK: ttg.memdesc_index %{{.*}}[%{{.*}}] : !ttg.memdesc<4x64x128xf32, #shared, #smem, mutable> -> !ttg.memdesc<64x128xf32, #shared, #smem, mutable, 4x64x128>
#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @ring_of_two_dimensional_tiles(%slot: i32) {
    %ring = ttg.local_alloc : () -> !ttg.memdesc<4x64x128xf32, #shared, #smem, mutable>
    %tile = ttg.memdesc_index %ring[%slot] : !ttg.memdesc<4x64x128xf32, #shared, #smem, mutable> -> !ttg.memdesc<64x128xf32, #shared, #smem, mutable, 4x64x128>
    ttg.local_dealloc %ring : !ttg.memdesc<4x64x128xf32, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// A ring of 1-D vectors (what ttg-pipeline allocates for a loop's loads of
// per-row statistics) carries the vectors' 1-D shared layout.
// CHECK-LABEL: tt.func @ring_of_vectors
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x32xf32, #shared, #smem, mutable>
// CHECK: ttg.memdesc_index %{{.*}}[%{{.*}}] : !ttg.memdesc<3x32xf32, #shared, #smem, mutable> -> !ttg.memdesc<32xf32, #shared, #smem, mutable, 3x32>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @ring_of_vectors(%slot: i32) {
    %ring = ttg.local_alloc : () -> !ttg.memdesc<3x32xf32, #shared, #smem, mutable>
    %vector = ttg.memdesc_index %ring[%slot] : !ttg.memdesc<3x32xf32, #shared, #smem, mutable> -> !ttg.memdesc<32xf32, #shared, #smem, mutable, 3x32>
    ttg.local_dealloc %ring : !ttg.memdesc<3x32xf32, #shared, #smem, mutable>
    tt.return
  }
}
