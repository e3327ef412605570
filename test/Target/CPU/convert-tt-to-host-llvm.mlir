// RUN: tritium-opt %s -split-input-file -convert-tt-to-host-llvm -verify-diagnostics | FileCheck %s

// A masked copy of contiguous elements: the program id is the first of the
// six grid arguments, the offsets one flat vector, the load one masked
// vector load from the first pointer with its `other`, the store one masked
// vector store; the entry loads each argument from its address and calls
// the kernel.
// CHECK-LABEL: llvm.func internal @copy(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32)
// CHECK: llvm.mul %arg3
// CHECK: %[[P:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (vector<8x!llvm.ptr>, vector<8xi32>) -> vector<8x!llvm.ptr>, f32
// CHECK: %[[P0:.*]] = llvm.extractelement %[[P]][%{{.*}} : i32] : vector<8x!llvm.ptr>
// CHECK: %[[V:.*]] = llvm.intr.masked.load %[[P0]], %{{.*}}, %{{.*}} {alignment = 4 : i32} : (!llvm.ptr, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
// CHECK: llvm.intr.masked.store %{{.*}}, %{{.*}}, %{{.*}} {alignment = 4 : i32} : vector<8xf32>, vector<8xi1> into !llvm.ptr
// CHECK-NOT: masked.gather
// CHECK-LABEL: llvm.func @copy__program(%arg0: !llvm.ptr, %arg1: i32, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32)
// CHECK: %[[S2:.*]] = llvm.getelementptr %arg0[2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[A2:.*]] = llvm.load %[[S2]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[N:.*]] = llvm.load %[[A2]] : !llvm.ptr -> i32
// CHECK: llvm.call @copy(%{{.*}}, %{{.*}}, %[[N]], %arg1, %arg2, %arg3, %arg4, %arg5, %arg6)
tt.func public @copy(%src: !tt.ptr<f32>, %dst: !tt.ptr<f32>, %n: i32) {
  %c8 = arith.constant 8 : i32
  %pid = tt.get_program_id {axis = 0 : i32} : i32
  %base = arith.muli %pid, %c8 : i32
  %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %b = tt.splat %base : i32 -> tensor<8xi32>
  %offs = arith.addi %b, %r : tensor<8xi32>
  %ns = tt.splat %n : i32 -> tensor<8xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<8xi32>
  %other = arith.constant dense<-1.0> : tensor<8xf32>
  %sp = tt.splat %src : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %p = tt.addptr %sp, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %v = tt.load %p, %mask, %other : tensor<8x!tt.ptr<f32>>
  %dp = tt.splat %dst : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %q = tt.addptr %dp, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  tt.store %q, %v, %mask : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

// Every other element: no contiguous rows, so a masked gather and scatter
// over the pointer vector.
// CHECK-LABEL: llvm.func internal @strided(
// CHECK: %[[V:.*]] = llvm.intr.masked.gather %{{.*}}, %{{.*}}, %{{.*}} {alignment = 4 : i32} : (vector<4x!llvm.ptr>, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
// CHECK: llvm.intr.masked.scatter %[[V]], %{{.*}}, %{{.*}} {alignment = 4 : i32} : vector<4xf32>, vector<4xi1> into vector<4x!llvm.ptr>
tt.func public @strided(%src: !tt.ptr<f32>) {
  %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %c2 = arith.constant dense<2> : tensor<4xi32>
  %offs = arith.muli %r, %c2 : tensor<4xi32>
  %sp = tt.splat %src : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
  %p = tt.addptr %sp, %offs : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
  %v = tt.load %p : tensor<4x!tt.ptr<f32>>
  tt.store %p, %v : tensor<4x!tt.ptr<f32>>
  tt.return
}

// -----

// Shape ops on flat vectors: expand_dims is free, broadcast a shuffle whose
// mask repeats each row; a reduction over an axis of 4 halves it twice
// (two pairs of shuffles, two adds).
// CHECK-LABEL: llvm.func internal @shapes(
// CHECK: llvm.shufflevector %{{.*}}, %{{.*}} [0, 0, 0, 0, 1, 1, 1, 1] : vector<2xf32>
// CHECK: llvm.shufflevector %[[X:.*]], %[[X]] [0, 1, 4, 5] : vector<8xf32>
// CHECK: llvm.shufflevector %[[X]], %[[X]] [2, 3, 6, 7] : vector<8xf32>
// CHECK: llvm.fadd %{{.*}} : vector<4xf32>
// CHECK: llvm.shufflevector %[[Y:.*]], %[[Y]] [0, 2] : vector<4xf32>
// CHECK: llvm.shufflevector %[[Y]], %[[Y]] [1, 3] : vector<4xf32>
// CHECK: llvm.fadd %{{.*}} : vector<2xf32>
tt.func public @shapes(%x: tensor<2xf32>) -> tensor<2xf32> {
  %e = tt.expand_dims %x {axis = 1 : i32} : tensor<2xf32> -> tensor<2x1xf32>
  %b = tt.broadcast %e : tensor<2x1xf32> -> tensor<2x4xf32>
  %s = "tt.reduce"(%b) <{axis = 1 : i32}> ({
  ^bb0(%l: f32, %r: f32):
    %a = arith.addf %l, %r : f32
    tt.reduce.return %a : f32
  }) : (tensor<2x4xf32>) -> tensor<2xf32>
  tt.return %s : tensor<2xf32>
}

// -----

// A dot of 2x2 tiles: a, b and c go to stack copies (allocas in the entry
// block); for each block of rows (here both rows at once), the rows of d are
// loaded and carried through the loop over k, where row i adds a[i][k],
// loaded and splat, times row k of b, loaded once; then stored back, and d
// loaded whole.
// CHECK-LABEL: llvm.func internal @dot(
// CHECK-COUNT-3: llvm.alloca %{{.*}} x f32 {alignment = 64 : i64}
// CHECK-COUNT-3: llvm.store %arg{{[0-2]}}, %{{.*}} {alignment = 4 : i64} : vector<4xf32>
// CHECK: ^bb2:
// CHECK: %[[D0:.*]] = llvm.load %{{.*}} : !llvm.ptr -> vector<2xf32>
// CHECK: %[[D1:.*]] = llvm.load %{{.*}} : !llvm.ptr -> vector<2xf32>
// CHECK: llvm.br ^bb3(%{{.*}}, %[[D0]], %[[D1]] : i32, vector<2xf32>, vector<2xf32>)
// CHECK: ^bb3(%[[K:.*]]: i32, %[[R0:.*]]: vector<2xf32>, %[[R1:.*]]: vector<2xf32>):
// CHECK: ^bb4:
// CHECK: %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr -> vector<2xf32>
// CHECK: %[[A0:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: llvm.intr.fma(%{{.*}}, %[[B]], %[[R0]])
// CHECK: %[[A1:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: llvm.intr.fma(%{{.*}}, %[[B]], %[[R1]])
// CHECK: ^bb5:
// CHECK-COUNT-2: llvm.store %{{.*}} : vector<2xf32>, !llvm.ptr
// CHECK: ^bb6:
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<4xf32>
tt.func public @dot(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>, %c: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %d = tt.dot %a, %b, %c : tensor<2x2xf32> * tensor<2x2xf32> -> tensor<2x2xf32>
  tt.return %d : tensor<2x2xf32>
}

// -----

// A reduction of more than 1024 elements runs in loops over a stack copy:
// along axis 0 of 64x32, for the one outer row, the 32 inner elements of
// l = 0 are combined with those of l = 1 .. 63 in order.
// CHECK-LABEL: llvm.func internal @large_reduce(
// CHECK: llvm.alloca %{{.*}} x f32 {alignment = 64 : i64}
// CHECK: llvm.store %arg0, %{{.*}} {alignment = 4 : i64} : vector<2048xf32>
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<32xf32>
// CHECK: ^bb{{[0-9]+}}(%{{.*}}: i32, %[[ACC:.*]]: vector<32xf32>):
// CHECK: %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr -> vector<32xf32>
// CHECK: llvm.fadd %[[ACC]], %[[X]] : vector<32xf32>
// CHECK-NOT: vector<2048xf32>
// CHECK: llvm.return
tt.func public @large_reduce(%x: tensor<64x32xf32>) -> tensor<32xf32> {
  %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %r: f32):
    %a = arith.addf %l, %r : f32
    tt.reduce.return %a : f32
  }) : (tensor<64x32xf32>) -> tensor<32xf32>
  tt.return %s : tensor<32xf32>
}

// -----

// A scalar atomic is one llvm.atomicrmw under its mask (here: none).
// CHECK-LABEL: llvm.func internal @atomic(
// CHECK: llvm.atomicrmw fadd %arg0, %arg1 acq_rel : !llvm.ptr, f32
tt.func public @atomic(%p: !tt.ptr<f32>, %v: f32) -> f32 {
  %0 = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v : (!tt.ptr<f32>, f32) -> f32
  tt.return %0 : f32
}

// -----

// tt.print: a loop over the tensor's elements, one printf each (the
// element's index from the loop counter), then fflush.  tt.assert: the
// runtime's failure function when the and-reduction of the condition is
// false, with the message, file, line, function and program.
// CHECK-LABEL: llvm.func internal @debug(
// CHECK: llvm.urem
// CHECK: %[[E:.*]] = llvm.extractelement %arg0[%{{.*}} : i32] : vector<4xi32>
// CHECK: llvm.call @printf(%{{.*}}, %arg1, %arg2, %arg3, %{{.*}}, %[[E]]) vararg(!llvm.func<i32 (ptr, ...)>)
// CHECK: llvm.call @fflush
// CHECK: "llvm.intr.vector.reduce.and"
// CHECK: llvm.call @tritium_cpu_assert_fail(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %arg1, %arg2, %arg3)
tt.func public @debug(%x: tensor<4xi32>) {
  tt.print "x: " {hex = false, isSigned = array<i32: 1>} : %x : tensor<4xi32>
  %c = arith.constant dense<2> : tensor<4xi32>
  %lt = arith.cmpi slt, %x, %c : tensor<4xi32>
  tt.assert %lt, "x is small" : tensor<4xi1>
  tt.return
}

// -----

// tt.histogram: a loop over the input; a value below the number of bins
// (unsigned, after sign extension) adds one to its bin.
// CHECK-LABEL: llvm.func internal @histogram(
// CHECK: llvm.extractelement %arg0
// CHECK: llvm.sext
// CHECK: llvm.icmp "ult"
// CHECK: llvm.extractelement
// CHECK: llvm.add
// CHECK: llvm.insertelement
tt.func public @histogram(%x: tensor<8xi32>) -> tensor<4xi32> {
  %h = tt.histogram %x : tensor<8xi32> -> tensor<4xi32>
  tt.return %h : tensor<4xi32>
}

// -----

// A libdevice function with a C library twin: the twin, element by element
// in a loop, from a stack copy of the operand into a stack result.
// CHECK-LABEL: llvm.func internal @libdevice(
// CHECK: llvm.store %arg0, %{{.*}} : vector<4xf32>, !llvm.ptr
// CHECK: %[[E:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: %[[R:.*]] = llvm.call @expf(%[[E]]) : (f32) -> f32
// CHECK: llvm.store %[[R]], %{{.*}} : f32, !llvm.ptr
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<4xf32>
tt.func public @libdevice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = tt.extern_elementwise %x {libname = "libdevice", libpath = "", symbol = "__nv_expf", pure = true} : (tensor<4xf32>) -> tensor<4xf32>
  tt.return %y : tensor<4xf32>
}

// -----

tt.func public @extern_function_without_a_host_lowering(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'tt.extern_elementwise' of my_erf has no lowering for the CPU target yet}}
  %y = tt.extern_elementwise %x {libname = "mylib", libpath = "/opt/mylib.bc", symbol = "my_erf", pure = true} : (tensor<4xf32>) -> tensor<4xf32>
  tt.return %y : tensor<4xf32>
}

// -----

// A directed rounding: the sum rounded to nearest, moved one step down by
// its bits where Knuth's two-sum error says the exact sum lies below it.
// CHECK-LABEL: llvm.func internal @libdevice_add_rd(
// CHECK: %[[S:.*]] = llvm.fadd %arg0, %arg1 : vector<4xf32>
// CHECK: %[[ERR:.*]] = llvm.fadd %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK: %[[BITS:.*]] = llvm.bitcast %[[S]] : vector<4xf32> to vector<4xi32>
// CHECK: %[[BELOW:.*]] = llvm.fcmp "olt" %[[ERR]], %{{.*}} : vector<4xf32>
// CHECK: llvm.select %[[BELOW]], %{{.*}}, %[[BITS]] : vector<4xi1>, vector<4xi32>
tt.func public @libdevice_add_rd(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %z = tt.extern_elementwise %x, %y {libname = "libdevice", libpath = "", symbol = "__nv_fadd_rd", pure = true} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  tt.return %z : tensor<4xf32>
}

// -----

// A C library twin with an integer operand: ldexpf(float, int).
// CHECK-LABEL: llvm.func internal @libdevice_ldexp(
// CHECK: llvm.call @ldexpf(%{{.*}}, %{{.*}}) : (f32, i32) -> f32
tt.func public @libdevice_ldexp(%x: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<4xf32> {
  %y = tt.extern_elementwise %x, %n {libname = "libdevice", libpath = "", symbol = "__nv_ldexpf", pure = true} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  tt.return %y : tensor<4xf32>
}

// -----

// libdevice's integer functions are integer ops: __hadd(x, y), (x + y) >> 1
// without overflow, is (x & y) + ((x ^ y) >> 1) with an arithmetic shift;
// __umulhi the high half of the unsigned double-width product.
// CHECK-LABEL: llvm.func internal @libdevice_integers(
// CHECK: %[[XOR:.*]] = llvm.xor %arg0, %arg1 : vector<4xi32>
// CHECK: %[[HALF:.*]] = llvm.ashr %[[XOR]], %{{.*}} : vector<4xi32>
// CHECK: %[[AND:.*]] = llvm.and %arg0, %arg1 : vector<4xi32>
// CHECK: llvm.add %[[AND]], %[[HALF]] : vector<4xi32>
// CHECK: llvm.zext %arg0 : vector<4xi32> to vector<4xi64>
// CHECK: llvm.mul %{{.*}}, %{{.*}} : vector<4xi64>
// CHECK: llvm.lshr
tt.func public @libdevice_integers(%x: tensor<4xi32>, %y: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %h = tt.extern_elementwise %x, %y {libname = "libdevice", libpath = "", symbol = "__nv_hadd", pure = true} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %m = tt.extern_elementwise %x, %y {libname = "libdevice", libpath = "", symbol = "__nv_umulhi", pure = true} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  tt.return %h, %m : tensor<4xi32>, tensor<4xi32>
}

// -----

// A libdevice function with an MLIR equivalent: rsqrt as math.rsqrt (1/sqrt).
// CHECK-LABEL: llvm.func internal @libdevice_rsqrt(
// CHECK: llvm.intr.sqrt(%arg0) : (vector<4xf32>) -> vector<4xf32>
// CHECK: llvm.fdiv
tt.func public @libdevice_rsqrt(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = tt.extern_elementwise %x {libname = "libdevice", libpath = "", symbol = "__nv_rsqrtf", pure = true} : (tensor<4xf32>) -> tensor<4xf32>
  tt.return %y : tensor<4xf32>
}

// -----

// A host tensor descriptor argument (the front end reads its blocks through
// the base, shape and strides that follow it) is an unused pointer.
// CHECK-LABEL: llvm.func internal @descriptor_argument(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i32, %arg3: i64
tt.func public @descriptor_argument(%d: !tt.tensordesc<tensor<16xf32>>, %base: !tt.ptr<f32>, %size: i32, %stride: i64) {
  tt.return
}

// -----

tt.func public @inline_asm(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @below {{'tt.elementwise_inline_asm' has no lowering for the CPU target yet}}
  %y = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<4xi32> -> tensor<4xi32>
  tt.return %y : tensor<4xi32>
}

// -----

// A scan of more than 1024 elements runs in loops over a stack copy: along
// axis 0 of 64x32, reversed, the running sum of 32 inner elements is carried
// from l = 63 down to 0 and each step stored to the stack result.
// CHECK-LABEL: llvm.func internal @large_scan(
// CHECK: llvm.store %arg0, %{{.*}} {alignment = 4 : i64} : vector<2048xf32>
// CHECK: ^bb{{[0-9]+}}(%[[P:.*]]: i32, %[[ACC:.*]]: vector<32xf32>):
// CHECK: llvm.sub %{{.*}}, %[[P]] : i32
// CHECK: %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr -> vector<32xf32>
// CHECK: %[[S:.*]] = llvm.fadd %[[ACC]], %[[X]] : vector<32xf32>
// CHECK: llvm.store %[[S]], %{{.*}} : vector<32xf32>, !llvm.ptr
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<2048xf32>
tt.func public @large_scan(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %s = "tt.scan"(%x) <{axis = 0 : i32, reverse = true}> ({
  ^bb0(%l: f32, %r: f32):
    %a = arith.addf %l, %r : f32
    tt.scan.return %a : f32
  }) : (tensor<64x32xf32>) -> tensor<64x32xf32>
  tt.return %s : tensor<64x32xf32>
}

// -----

// A load of 128 lanes through pointers without contiguous rows gathers in a
// loop over chunks of 16 lanes: the pointers and the mask (as bytes) go to
// the stack, each chunk is one masked gather into the stack result.
// CHECK-LABEL: llvm.func internal @many_lane_gather(
// CHECK: llvm.store %arg0, %{{.*}} {alignment = 8 : i64} : vector<128x!llvm.ptr>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 1 : i64} : vector<128xi8>
// CHECK: ^bb{{[0-9]+}}:
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> vector<16x!llvm.ptr>
// CHECK: llvm.intr.masked.gather %{{.*}} : (vector<16x!llvm.ptr>, vector<16xi1>, vector<16xf16>) -> vector<16xf16>
// CHECK: llvm.add %{{.*}}, %{{.*}} : i32
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<128xf16>
tt.func public @many_lane_gather(%p: tensor<128x!tt.ptr<f16>>, %m: tensor<128xi1>) -> tensor<128xf16> {
  %x = tt.load %p, %m : tensor<128x!tt.ptr<f16>>
  tt.return %x : tensor<128xf16>
}

// -----

// A permutation of more than 1024 lanes (here a 64x64 transpose) goes
// through memory: the source to the stack, then 16 lanes at a time gathered
// by the indices of a constant table (a module global).
// CHECK: llvm.mlir.global internal constant @__tritium_shuffle_{{.*}} : !llvm.array<4096 x i32>
// CHECK-LABEL: llvm.func internal @large_transpose(
// CHECK-DAG: llvm.mlir.addressof @__tritium_shuffle_
// CHECK-DAG: llvm.store %arg0, %{{.*}} : vector<4096xf32>, !llvm.ptr
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<16xi32>
// CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (vector<16x!llvm.ptr>, vector<16xi32>) -> vector<16x!llvm.ptr>, f32
// CHECK: llvm.intr.masked.gather
// CHECK-NOT: llvm.shufflevector {{.*}} : vector<4096xf32>
// CHECK: llvm.return
tt.func public @large_transpose(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x64xf32> -> tensor<64x64xf32>
  tt.return %t : tensor<64x64xf32>
}

// -----

// So does a broadcast to more than 1024 lanes from more than 1024 (a sort
// network's pairs, 2048 lanes to 4096): one shufflevector would make the
// code generator split it into pieces that each look at all 128 registers
// of the source.
// CHECK: llvm.mlir.global internal constant @__tritium_shuffle_{{.*}} : !llvm.array<4096 x i32>
// CHECK-LABEL: llvm.func internal @wide_broadcast(
// CHECK: llvm.store %arg0, %{{.*}} : vector<2048xi32>, !llvm.ptr
// CHECK: llvm.intr.masked.gather
// CHECK-NOT: llvm.shufflevector {{.*}} : vector<2048xi32>
// CHECK: llvm.return
tt.func public @wide_broadcast(%x: tensor<1024x1x2xi32>) -> tensor<1024x2x2xi32> {
  %b = tt.broadcast %x : tensor<1024x1x2xi32> -> tensor<1024x2x2xi32>
  tt.return %b : tensor<1024x2x2xi32>
}

// -----

// A broadcast from fewer lanes stays one shufflevector.
// CHECK-LABEL: llvm.func internal @narrow_broadcast(
// CHECK-NOT: llvm.intr.masked.gather
// CHECK: llvm.shufflevector %{{.*}} : vector<64xf32>
// CHECK-NOT: llvm.intr.masked.gather
// CHECK: llvm.return
tt.func public @narrow_broadcast(%x: tensor<1x64xf32>) -> tensor<64x64xf32> {
  %b = tt.broadcast %x : tensor<1x64xf32> -> tensor<64x64xf32>
  tt.return %b : tensor<64x64xf32>
}

// -----

// A math function on more than 256 elements runs in a loop over 16-lane
// chunks (its polynomial is then expanded on 16 lanes, not on 1024).
// CHECK-LABEL: llvm.func internal @large_exp(
// CHECK: llvm.store %arg0, %{{.*}} : vector<1024xf32>, !llvm.ptr
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<16xf32>
// CHECK-NOT: vector<1024xf32>
// CHECK: llvm.store %{{.*}}, %{{.*}} : vector<16xf32>, !llvm.ptr
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<1024xf32>
tt.func public @large_exp(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = math.exp %x : tensor<1024xf32>
  tt.return %e : tensor<1024xf32>
}

// -----

// fp8 values are their bits: loads read bytes, an upcast decodes them (the
// exponent field rebiased into an f32's, a zero exponent as m * 2^-9), a
// downcast encodes f32 (NaN checked by an unordered compare).
// CHECK-LABEL: llvm.func internal @fp8(
// CHECK: llvm.intr.masked.load %{{.*}} -> vector<16xi8>
// CHECK: llvm.zext %{{.*}} : vector<16xi8> to vector<16xi32>
// CHECK: llvm.bitcast %{{.*}} : vector<16xi32> to vector<16xf32>
// CHECK: llvm.fcmp "uno"
// CHECK: llvm.trunc %{{.*}} : vector<16xi32> to vector<16xi8>
tt.func public @fp8(%p: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}) -> tensor<16xi8> {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %s = tt.splat %p : !tt.ptr<f8E4M3FN> -> tensor<16x!tt.ptr<f8E4M3FN>>
  %a = tt.addptr %s, %r : tensor<16x!tt.ptr<f8E4M3FN>>, tensor<16xi32>
  %x = tt.load %a : tensor<16x!tt.ptr<f8E4M3FN>>
  %f = tt.fp_to_fp %x : tensor<16xf8E4M3FN> -> tensor<16xf32>
  %y = tt.fp_to_fp %f, rounding = rtne : tensor<16xf32> -> tensor<16xf8E5M2>
  %b = tt.bitcast %y : tensor<16xf8E5M2> -> tensor<16xi8>
  tt.return %b : tensor<16xi8>
}

// -----

// A barrier among a program's threads is nothing on the host (one thread a
// program); a combine region may use a scalar defined outside it (here a
// constant), which each lane takes.
// CHECK-LABEL: llvm.func internal @barrier_and_outside_scalar(
// CHECK-NOT: barrier
// CHECK: llvm.fmul %{{.*}}, %{{.*}} : vector<2xf32>
// CHECK: llvm.return
tt.func public @barrier_and_outside_scalar(%x: tensor<4xf32>) -> f32 {
  %half = arith.constant 5.000000e-01 : f32
  gpu.barrier
  %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %r: f32):
    %a = arith.addf %l, %r : f32
    %h = arith.mulf %a, %half : f32
    tt.reduce.return %h : f32
  }) : (tensor<4xf32>) -> f32
  tt.return %s : f32
}

// -----

// A load of more than 1024 lanes by contiguous rows (64 rows of 64) runs in a
// loop over the rows: each one masked vector load from its first pointer.
// Only the rows' first pointers go to the stack (one strided shuffle); a
// load without mask or `other` copies neither, its rows' mask is constant.
// CHECK-LABEL: llvm.func internal @rows(
// CHECK: %[[TRUE:.*]] = llvm.mlir.constant(dense<true> : vector<64xi1>) : vector<64xi1>
// CHECK: %[[BASES:.*]] = llvm.shufflevector %{{.*}}, %{{.*}} [0, 64, 128, 192,
// CHECK: llvm.store %[[BASES]], %{{.*}} : vector<64x!llvm.ptr>, !llvm.ptr
// CHECK-NOT: vector<4096xi8>
// CHECK: ^bb2:
// CHECK: llvm.intr.masked.load %{{.*}}, %[[TRUE]], %{{.*}} : (!llvm.ptr, vector<64xi1>, vector<64xf32>) -> vector<64xf32>
// CHECK: ^bb3:
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<4096xf32>
tt.func public @rows(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) -> tensor<64x64xf32> {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %c = arith.constant dense<64> : tensor<64x1xi32>
  %e = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %m = arith.muli %e, %c : tensor<64x1xi32>
  %b = tt.broadcast %m : tensor<64x1xi32> -> tensor<64x64xi32>
  %f = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %g = tt.broadcast %f : tensor<1x64xi32> -> tensor<64x64xi32>
  %o = arith.addi %b, %g : tensor<64x64xi32>
  %s = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %a = tt.addptr %s, %o : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  %x = tt.load %a : tensor<64x64x!tt.ptr<f32>>
  tt.return %x : tensor<64x64xf32>
}

// -----

// A chain of 16 or more element-wise ops on more than 256 lanes runs in one
// loop over 16-lane chunks: the vector from outside (the range) goes to the
// stack and each chunk is loaded, the splat (of %s) and the splat constant
// are made on 16 lanes, the ops run on vector<16xi32>, and the values used
// after the chain (%v17 and the comparison, an i1 vector, through bytes) go
// to stack slots loaded whole after the loop.
// CHECK-LABEL: llvm.func internal @long_chain(
// CHECK: llvm.store %{{.*}} : vector<1024xi32>, !llvm.ptr
// CHECK: ^bb2:
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<16xi32>
// CHECK-COUNT-16: llvm.{{(add|xor|mul)}} {{.*}} : vector<16xi32>
// CHECK: llvm.icmp "slt" {{.*}} : vector<16xi32>
// CHECK: llvm.zext {{.*}} : vector<16xi1> to vector<16xi8>
// CHECK: ^bb3:
// CHECK-DAG: llvm.load %{{.*}} : !llvm.ptr -> vector<1024xi32>
// CHECK-DAG: llvm.load %{{.*}} : !llvm.ptr -> vector<1024xi8>
// CHECK: llvm.trunc %{{.*}} : vector<1024xi8> to vector<1024xi1>
// CHECK: llvm.return
tt.func public @long_chain(%s: i32) -> (tensor<1024xi32>, tensor<1024xi1>) {
  %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %c = arith.constant dense<3> : tensor<1024xi32>
  %sp = tt.splat %s : i32 -> tensor<1024xi32>
  %v1 = arith.addi %r, %sp : tensor<1024xi32>
  %v2 = arith.muli %v1, %c : tensor<1024xi32>
  %v3 = arith.xori %v2, %v1 : tensor<1024xi32>
  %v4 = arith.addi %v3, %sp : tensor<1024xi32>
  %v5 = arith.muli %v4, %v4 : tensor<1024xi32>
  %v6 = arith.xori %v5, %c : tensor<1024xi32>
  %v7 = arith.addi %v6, %v1 : tensor<1024xi32>
  %v8 = arith.muli %v7, %c : tensor<1024xi32>
  %v9 = arith.xori %v8, %v7 : tensor<1024xi32>
  %v10 = arith.addi %v9, %sp : tensor<1024xi32>
  %v11 = arith.muli %v10, %v10 : tensor<1024xi32>
  %v12 = arith.xori %v11, %c : tensor<1024xi32>
  %v13 = arith.addi %v12, %v1 : tensor<1024xi32>
  %v14 = arith.muli %v13, %c : tensor<1024xi32>
  %v15 = arith.xori %v14, %v13 : tensor<1024xi32>
  %v16 = arith.addi %v15, %sp : tensor<1024xi32>
  %v17 = arith.addi %v16, %v16 : tensor<1024xi32>
  %lt = arith.cmpi slt, %v16, %r : tensor<1024xi32>
  tt.return %v17, %lt : tensor<1024xi32>, tensor<1024xi1>
}

// -----

// A chain of fewer ops stays on whole vectors.
// CHECK-LABEL: llvm.func internal @short_chain(
// CHECK-NOT: vector<16xi32>
// CHECK: llvm.mul %{{.*}} : vector<1024xi32>
// CHECK-NOT: vector<16xi32>
// CHECK: llvm.return
tt.func public @short_chain(%s: i32) -> tensor<1024xi32> {
  %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %sp = tt.splat %s : i32 -> tensor<1024xi32>
  %v1 = arith.addi %r, %sp : tensor<1024xi32>
  %v2 = arith.muli %v1, %v1 : tensor<1024xi32>
  %v3 = arith.xori %v2, %v1 : tensor<1024xi32>
  tt.return %v3 : tensor<1024xi32>
}

// -----

// A dot's zero accumulator of 1024 lanes or more goes to its stack slot as
// a memset, not as a 1024-lane vector store.
// CHECK-LABEL: llvm.func internal @zero_accumulator(
// CHECK: "llvm.intr.memset"(%{{.*}}, %{{.*}}, %{{.*}}) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
// CHECK-NOT: llvm.store %{{.*}} : vector<1024xf32>
// CHECK: llvm.return
tt.func public @zero_accumulator(%a: tensor<32x32xf32>, %b: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %c = arith.constant dense<0.0> : tensor<32x32xf32>
  %d = tt.dot %a, %b, %c : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
  tt.return %d : tensor<32x32xf32>
}
