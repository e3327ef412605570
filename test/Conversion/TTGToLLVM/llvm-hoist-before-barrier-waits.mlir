// RUN: tritium-opt %s -pass-pipeline='builtin.module(llvm.func(llvm-hoist-before-barrier-waits))' | FileCheck %s

// An iteration of a pipelined loop: the wait for the stage's copies, then
// the descriptor arithmetic of two wgmma ops.  The arithmetic that only
// reads values from before the wait (the slot index, the shared base)
// moves above it, in order; the second descriptor, which reads the first
// wgmma's result, and an addition no wgmma reads, stay.
// CHECK-LABEL: llvm.func @iteration
// CHECK: %[[SHIFTED:.*]] = llvm.shl %arg0, %{{.*}} : i32
// CHECK-NEXT: %[[ADDRESS:.*]] = llvm.add %arg1, %[[SHIFTED]] : i32
// CHECK-NEXT: %[[WIDE:.*]] = llvm.zext %[[ADDRESS]] : i32 to i64
// CHECK-NEXT: %[[DESC:.*]] = llvm.or %[[WIDE]], %{{.*}} : i64
// CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred done; tritium_wait: mbarrier.try_wait
// CHECK-NEXT: %[[D0:.*]] = llvm.inline_asm {{.*}}"wgmma.mma_async {{.*}} %[[DESC]]
// CHECK-NEXT: %[[AFTER:.*]] = llvm.add %[[D0]], %{{.*}} : i64
// CHECK-NEXT: llvm.inline_asm {{.*}}"wgmma.mma_async {{.*}} %[[AFTER]]
// CHECK-NEXT: %[[OFFSET:.*]] = llvm.add %arg1, %{{.*}} : i32
// CHECK-NEXT: llvm.load
module {
  llvm.func @iteration(%slot: i32, %base: i32, %phase: i32, %p: !llvm.ptr<3>) -> i64 {
    %c14 = llvm.mlir.constant(14 : i32) : i32
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %hi = llvm.mlir.constant(4611686293305360384 : i64) : i64
    llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred done; tritium_wait: mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1; @!done bra.uni tritium_wait; }", "r,r" %base, %phase : (i32, i32) -> ()
    %shifted = llvm.shl %slot, %c14 : i32
    %address = llvm.add %base, %shifted : i32
    %wide = llvm.zext %address : i32 to i64
    %desc = llvm.or %wide, %hi : i64
    %d0 = llvm.inline_asm has_side_effects asm_dialect = att "wgmma.mma_async $0, $1;", "=l,l" %desc : (i64) -> i64
    %after = llvm.add %d0, %hi : i64
    %d1 = llvm.inline_asm has_side_effects asm_dialect = att "wgmma.mma_async $0, $1;", "=l,l" %after : (i64) -> i64
    %offset = llvm.add %base, %c8 : i32
    %x = llvm.load %p : !llvm.ptr<3> -> i32
    llvm.return %d1 : i64
  }
}
