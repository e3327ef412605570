// RUN: tritium-opt %s -split-input-file -test-print-streaming-kernel -verify-diagnostics -o /dev/null

// A streaming kernel only reads, computes element-wise and writes, with
// addresses that never depend on loaded data.  The runtime runs these with
// fewer programs per SM; everything else keeps the hardware's occupancy.

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// Masked loads of two inputs, math through exp and a division, a masked store.
// expected-remark @below {{streaming kernel}}
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @silu_mul_add(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
    %c512 = arith.constant 512 : i32
    %one = arith.constant dense<1.0> : tensor<512xf32, #blocked>
    %pid = tt.get_program_id {axis = 0 : i32} : i32
    %start = arith.muli %pid, %c512 : i32
    %range = tt.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #blocked>
    %starts = tt.splat %start : i32 -> tensor<512xi32, #blocked>
    %offs = arith.addi %starts, %range : tensor<512xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #blocked>
    %mask = arith.cmpi slt, %offs, %ns : tensor<512xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %xp = tt.addptr %xs, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %xv = tt.load %xp, %mask : tensor<512x!tt.ptr<f32>, #blocked>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %yp = tt.addptr %ys, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %yv = tt.load %yp, %mask : tensor<512x!tt.ptr<f32>, #blocked>
    %neg = arith.negf %xv : tensor<512xf32, #blocked>
    %e = math.exp %neg : tensor<512xf32, #blocked>
    %d = arith.addf %e, %one : tensor<512xf32, #blocked>
    %s = arith.divf %xv, %d : tensor<512xf32, #blocked>
    %r = arith.addf %s, %yv : tensor<512xf32, #blocked>
    %os = tt.splat %out : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %op = tt.addptr %os, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    tt.store %op, %r, %mask : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// A gather: the second load's offsets are loaded data.
// expected-remark @below {{not a streaming kernel: a load whose address, mask or other value depends on loaded data}}
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @gather(%idx: !tt.ptr<i32>, %src: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
    %range = tt.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #blocked>
    %is = tt.splat %idx : !tt.ptr<i32> -> tensor<512x!tt.ptr<i32>, #blocked>
    %ip = tt.addptr %is, %range : tensor<512x!tt.ptr<i32>, #blocked>, tensor<512xi32, #blocked>
    %i = tt.load %ip : tensor<512x!tt.ptr<i32>, #blocked>
    %ss = tt.splat %src : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %sp = tt.addptr %ss, %i : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %v = tt.load %sp : tensor<512x!tt.ptr<f32>, #blocked>
    %os = tt.splat %out : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %op = tt.addptr %os, %range : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    tt.store %op, %v : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// A scatter: the store's mask is loaded data.
// expected-remark @below {{not a streaming kernel: a store whose address or mask depends on loaded data}}
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @masked_by_data(%src: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
    %zero = arith.constant dense<0.0> : tensor<512xf32, #blocked>
    %range = tt.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #blocked>
    %ss = tt.splat %src : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %sp = tt.addptr %ss, %range : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %v = tt.load %sp : tensor<512x!tt.ptr<f32>, #blocked>
    %positive = arith.cmpf ogt, %v, %zero : tensor<512xf32, #blocked>
    %os = tt.splat %out : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %op = tt.addptr %os, %range : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    tt.store %op, %v, %positive : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// A layout conversion left in the kernel goes through shared memory.
// expected-remark @below {{not a streaming kernel: 'ttg.convert_layout'}}
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @converts(%src: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
    %range = tt.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #a>
    %ss = tt.splat %src : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #a>
    %sp = tt.addptr %ss, %range : tensor<512x!tt.ptr<f32>, #a>, tensor<512xi32, #a>
    %v = tt.load %sp : tensor<512x!tt.ptr<f32>, #a>
    %w = ttg.convert_layout %v : tensor<512xf32, #a> -> tensor<512xf32, #b>
    %rb = tt.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #b>
    %os = tt.splat %out : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
    %op = tt.addptr %os, %rb : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    tt.store %op, %w : tensor<512x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// A loop: its own latency hiding, left alone.
// expected-remark @below {{not a streaming kernel: 'scf.for'}}
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @loop(%src: !tt.ptr<f32>, %out: !tt.ptr<f32>, %k: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %range = tt.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #blocked>
    %ss = tt.splat %src : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %os = tt.splat %out : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    scf.for %i = %c0 to %k step %c1 : i32 {
      %sp = tt.addptr %ss, %range : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      %v = tt.load %sp : tensor<512x!tt.ptr<f32>, #blocked>
      %op = tt.addptr %os, %range : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      tt.store %op, %v : tensor<512x!tt.ptr<f32>, #blocked>
    }
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// Atomics are not streams.
// expected-remark @below {{not a streaming kernel: 'tt.atomic_rmw'}}
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @atomic(%src: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
    %range = tt.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #blocked>
    %ss = tt.splat %src : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %sp = tt.addptr %ss, %range : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %v = tt.load %sp : tensor<512x!tt.ptr<f32>, #blocked>
    %os = tt.splat %out : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %op = tt.addptr %os, %range : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %old = tt.atomic_rmw fadd, acq_rel, gpu, %op, %v : (tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xf32, #blocked>) -> tensor<512xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// Only stores (a fill): nothing is read, so there is no stream to tune.
// expected-remark @below {{not a streaming kernel: no tensor load}}
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @fill(%out: !tt.ptr<f32>) {
    %zero = arith.constant dense<0.0> : tensor<512xf32, #blocked>
    %range = tt.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #blocked>
    %os = tt.splat %out : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %op = tt.addptr %os, %range : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    tt.store %op, %zero : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
