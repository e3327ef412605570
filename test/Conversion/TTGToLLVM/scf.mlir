// RUN: tritium-opt %s -split-input-file -convert-ttg-to-llvm | FileCheck %s
// RUN: tritium-opt %s -split-input-file -tritium-make-llir | FileCheck %s --check-prefix=LLIR

#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>

// scf ops keep their structure and take the converted types: a tensor
// carried by a loop is a struct iter_arg, yielded as a struct; scf.if
// results likewise.  The make-llir pipeline then turns them into branches
// with struct block arguments.
// CHECK-LABEL: llvm.func @loop
// CHECK: %[[INIT:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[1] : !llvm.struct<(f32, f32)>
// CHECK: %[[ACC:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %[[INIT]]) -> (!llvm.struct<(f32, f32)>) : i32 {
// CHECK:   llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// CHECK:   llvm.extractvalue %[[A]][0] : !llvm.struct<(f32, f32)>
// CHECK:   llvm.fadd
// CHECK:   %[[NEXT:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[1] : !llvm.struct<(f32, f32)>
// CHECK:   scf.yield %[[NEXT]] : !llvm.struct<(f32, f32)>
// CHECK: }
// CHECK: %[[RES:.*]] = scf.if %{{.*}} -> (!llvm.struct<(f32, f32)>) {
// CHECK:   scf.yield %[[ACC]] : !llvm.struct<(f32, f32)>
// CHECK: } else {
// CHECK:   scf.yield %[[INIT]] : !llvm.struct<(f32, f32)>
// CHECK: }
// CHECK: llvm.extractvalue %[[RES]][0]
// LLIR-LABEL: llvm.func @loop
// LLIR-NOT: scf.
// LLIR: ^[[HEAD:.*]](%{{.*}}: i32, %{{.*}}: !llvm.struct<(f32, f32)>):
// LLIR: llvm.cond_br
// LLIR: llvm.br ^[[HEAD]](%{{.*}}, %{{.*}} : i32, !llvm.struct<(f32, f32)>)
module attributes {"ttg.num-warps" = 2 : i32} {
  tt.func public @loop(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32, %c: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128xf32, #b>
    %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #b>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %pp = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<128xf32, #b>) : i32 {
      %x = tt.load %pp : tensor<128x!tt.ptr<f32>, #b>
      %s = arith.addf %a, %x : tensor<128xf32, #b>
      scf.yield %s : tensor<128xf32, #b>
    }
    %res = scf.if %c -> tensor<128xf32, #b> {
      scf.yield %acc : tensor<128xf32, #b>
    } else {
      scf.yield %zero : tensor<128xf32, #b>
    }
    tt.store %pp, %res : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// scf.while carries tensors through both regions.
// CHECK-LABEL: llvm.func @while_loop
// CHECK: scf.while (%{{.*}} = %{{.*}}) : (!llvm.struct<(i32)>) -> !llvm.struct<(i32)> {
// CHECK:   scf.condition(%{{.*}}) %{{.*}} : !llvm.struct<(i32)>
// CHECK: } do {
// CHECK: ^bb0(%{{.*}}: !llvm.struct<(i32)>):
// CHECK:   scf.yield %{{.*}} : !llvm.struct<(i32)>
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func public @while_loop(%x: tensor<32xi32, #b>, %go: i1) -> tensor<32xi32, #b> {
    %r = scf.while (%a = %x) : (tensor<32xi32, #b>) -> tensor<32xi32, #b> {
      scf.condition(%go) %a : tensor<32xi32, #b>
    } do {
    ^bb0(%a: tensor<32xi32, #b>):
      %n = arith.addi %a, %a : tensor<32xi32, #b>
      scf.yield %n : tensor<32xi32, #b>
    }
    tt.return %r : tensor<32xi32, #b>
  }
}
