// RUN: tritium-opt %s -split-input-file -ttg-allocate-shared-memory -convert-ttg-to-llvm="compute-capability=80" -verify-diagnostics

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// bf16 atomic adds (atom.add.noftz.bf16) need sm_90.
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @bf16_add_sm80(%p: !tt.ptr<bf16>, %v: bf16) {
    // expected-error@+2 {{atomic add of bf16 needs sm_90 or newer (target is sm_80)}}
    // expected-error@+1 {{failed to legalize operation 'tt.atomic_rmw'}}
    %old = tt.atomic_rmw fadd, relaxed, gpu, %p, %v : (!tt.ptr<bf16>, bf16) -> bf16
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// PTX has no scalar float max: the front end lowers float max to integer
// atomics, so one reaching the lowering is an error.
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @float_max(%p: !tt.ptr<f32>, %v: f32) {
    // expected-error@+2 {{no PTX atomic for this operation on 'f32' (max)}}
    // expected-error@+1 {{failed to legalize operation 'tt.atomic_rmw'}}
    %old = tt.atomic_rmw max, relaxed, gpu, %p, %v : (!tt.ptr<f32>, f32) -> f32
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// No 16-bit integer adds.
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @add_i16(%p: !tt.ptr<i16>, %v: i16) {
    // expected-error@+2 {{no PTX atomic for this operation on 'i16' (add)}}
    // expected-error@+1 {{failed to legalize operation 'tt.atomic_rmw'}}
    %old = tt.atomic_rmw add, relaxed, gpu, %p, %v : (!tt.ptr<i16>, i16) -> i16
    tt.return
  }
}

// -----

// No 8-bit compare-and-swap.
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @cas_i8(%q: !tt.ptr<i8>, %c: i8) {
    // expected-error@+2 {{no PTX atomic for this operation on 'i8' (cas)}}
    // expected-error@+1 {{failed to legalize operation 'tt.atomic_cas'}}
    %old = tt.atomic_cas relaxed, gpu, %q, %c, %c : (!tt.ptr<i8>, i8, i8) -> i8
    tt.return
  }
}
