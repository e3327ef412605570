// RUN: tritium-opt %s -tritium-make-llir | FileCheck %s
// RUN: tritium-opt %s -tritium-make-llir="compute-capability=90" | /usr/lib/llvm-22/bin/mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR

// The vector-add kernel as TTGIR (1024 elements per program, four per
// thread over four warps, 16-byte aligned arguments and a bound divisible by
// 16) becomes LLVM and NVVM dialect only: each thread moves two groups of
// four floats with predicated ld.global.v4.b32 / st.global.v4.b32, and the
// result translates to LLVM IR.
// CHECK-LABEL: module attributes {
// CHECK-SAME: ttg.shared = 0 : i32
// CHECK: llvm.func @add_kernel(%{{.*}}: !llvm.ptr<1> {llvm.align = 16 : i64}, %{{.*}}: !llvm.ptr<1> {llvm.align = 16 : i64}, %{{.*}}: !llvm.ptr<1> {llvm.align = 16 : i64}, %{{.*}}: i32)
// CHECK-SAME: attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>}
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK-COUNT-4: "mov.u32 $0, 0x0;\0Amov.u32 $1, 0x0;\0Amov.u32 $2, 0x0;\0Amov.u32 $3, 0x0;\0A@$4 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $5 + 0 ];"
// CHECK: llvm.fadd
// CHECK-COUNT-2: "@$0 st.global.v4.b32 [ $1 + 0 ], { $2, $3, $4, $5 };"
// CHECK: llvm.return
// CHECK-NOT: tt.
// CHECK-NOT: ttg.convert_layout
// CHECK-NOT: arith.
// CHECK-NOT: scf.
// CHECK-NOT: cf.
// CHECK-NOT: builtin.unrealized_conversion_cast

// LLVMIR: define ptx_kernel void @add_kernel(ptr addrspace(1) align 16 %{{.*}}, ptr addrspace(1) align 16 %{{.*}}, ptr addrspace(1) align 16 %{{.*}}, i32 %{{.*}})
// LLVMIR: call range(i32 0, 128) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// LLVMIR: asm sideeffect "mov.u32 $0, 0x0;\0Amov.u32 $1, 0x0;\0Amov.u32 $2, 0x0;\0Amov.u32 $3, 0x0;\0A@$4 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $5 + 0 ];", "=r,=r,=r,=r,b,l"
// LLVMIR: asm sideeffect "@$0 st.global.v4.b32 [ $1 + 0 ], { $2, $3, $4, $5 };", "b,l,r,r,r,r"
// LLVMIR: attributes #0 = { "nvvm.reqntid"="128,1,1" }

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @add_kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %c1024 = arith.constant 1024 : i32
    %pid = tt.get_program_id {axis = 0 : i32} : i32
    %start = arith.muli %pid, %c1024 : i32
    %range = tt.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #blocked>
    %starts = tt.splat %start : i32 -> tensor<1024xi32, #blocked>
    %offs = arith.addi %starts, %range : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %xp = tt.addptr %xs, %offs : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %xv = tt.load %xp, %mask : tensor<1024x!tt.ptr<f32>, #blocked>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %yp = tt.addptr %ys, %offs : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %yv = tt.load %yp, %mask : tensor<1024x!tt.ptr<f32>, #blocked>
    %sum = arith.addf %xv, %yv : tensor<1024xf32, #blocked>
    %os = tt.splat %out : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %op = tt.addptr %os, %offs : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %op, %sum, %mask : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
