// RUN: tritium-opt %s -split-input-file -verify-diagnostics

// A pointer's address space is non-negative.
// expected-error@+1 {{address space must be non-negative, got -1}}
tt.func @f(%p: !tt.ptr<f32, -1>) {
  tt.return
}

// -----

// A block pointer's tile holds numbers, not pointers.
// expected-error@+1 {{a block pointer's tile cannot hold pointers}}
tt.func @f(%p: !tt.ptr<tensor<16x!tt.ptr<f32>>>) {
  tt.return
}

// -----

// A call names an existing tt.func.
tt.func @f() {
  // expected-error@+1 {{'missing' does not reference a valid tt.func}}
  tt.call @missing() : () -> ()
  tt.return
}

// -----

// A call passes as many operands as the callee takes.
tt.func private @g(%a: i32)
tt.func @f(%a: i32) {
  // expected-error@+1 {{passes 2 operands to 'g', which takes 1}}
  tt.call @g(%a, %a) : (i32, i32) -> ()
  tt.return
}

// -----

// A call passes operands of the callee's types.
tt.func private @g(%a: i32)
tt.func @f(%a: i64) {
  // expected-error@+1 {{operand #0 has type 'i64', callee expects 'i32'}}
  tt.call @g(%a) : (i64) -> ()
  tt.return
}

// -----

// A call returns what the callee returns.
tt.func private @g() -> i32
tt.func @f() {
  // expected-error@+1 {{result #0 has type 'f32', callee returns 'i32'}}
  %r = tt.call @g() : () -> f32
  tt.return
}

// -----

// A return yields as many values as the function returns.
tt.func @f(%a: i32) -> i32 {
  // expected-error@+1 {{returns 0 values but the function returns 1}}
  tt.return
}

// -----

// A return yields values of the function's result types.
tt.func @f(%a: i64) -> i32 {
  // expected-error@+1 {{value #0 has type 'i64', the function returns 'i32'}}
  tt.return %a : i64
}

// -----

// The grid has three axes.
tt.func @f() {
  // expected-error@+1 {{attribute 'axis' failed to satisfy constraint}}
  %p = tt.get_program_id {axis = 3 : i32} : i32
  tt.return
}

// -----

// make_range's bounds are signed: a negative start is not a huge one.
tt.func @f() {
  // expected-error@+1 {{result must be a 1-D tensor of 16 elements}}
  %r = tt.make_range {start = -16 : i32, end = 0 : i32} : tensor<32xi32>
  tt.return
}

// -----

// make_range needs end > start.
tt.func @f() {
  // expected-error@+1 {{end (0) must be greater than start (16)}}
  %r = tt.make_range {start = 16 : i32, end = 0 : i32} : tensor<16xi32>
  tt.return
}

// -----

// make_range's length is a power of two.
tt.func @f() {
  // expected-error@+1 {{length end - start = 100 must be a power of two}}
  %r = tt.make_range {start = 0 : i32, end = 100 : i32} : tensor<100xi32>
  tt.return
}

// -----

// make_range's result holds exactly end - start elements.
tt.func @f() {
  // expected-error@+1 {{result must be a 1-D tensor of 64 elements}}
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<32xi32>
  tt.return
}

// -----

// splat repeats its operand's type.
tt.func @f(%a: i32) {
  // expected-error@+1 {{result element type 'i64' must equal the operand type 'i32'}}
  %t = tt.splat %a : i32 -> tensor<16xi64>
  tt.return
}

// -----

// broadcast keeps the element type.
tt.func @f(%a: tensor<1x16xi32>) {
  // expected-error@+1 {{source and result element types must match}}
  %t = tt.broadcast %a : tensor<1x16xi32> -> tensor<8x16xi64>
  tt.return
}

// -----

// broadcast keeps the rank.
tt.func @f(%a: tensor<16xi32>) {
  // expected-error@+1 {{source rank 1 differs from result rank 2}}
  %t = tt.broadcast %a : tensor<16xi32> -> tensor<8x16xi32>
  tt.return
}

// -----

// broadcast only grows size-1 dimensions.
tt.func @f(%a: tensor<2x16xi32>) {
  // expected-error@+1 {{cannot broadcast dimension 0 from 2 to 8: only size-1 dimensions broadcast}}
  %t = tt.broadcast %a : tensor<2x16xi32> -> tensor<8x16xi32>
  tt.return
}

// -----

// expand_dims inserts at a position from 0 to the rank.
tt.func @f(%a: tensor<16xi32>) {
  // expected-error@+1 {{axis 2 is out of range [0, 1]}}
  %t = tt.expand_dims %a {axis = 2 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  tt.return
}

// -----

// expand_dims inserts a 1 at axis.
tt.func @f(%a: tensor<16xi32>) {
  // expected-error@+1 {{result must have shape [1, 16]}}
  %t = tt.expand_dims %a {axis = 0 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  tt.return
}

// -----

// reshape keeps the element type.
tt.func @f(%a: tensor<4x4xi32>) {
  // expected-error@+1 {{source and result element types must match}}
  %t = tt.reshape %a : tensor<4x4xi32> -> tensor<16xf32>
  tt.return
}

// -----

// reshape keeps the element count.
tt.func @f(%a: tensor<4x4xi32>) {
  // expected-error@+1 {{cannot reshape 16 elements into 32}}
  %t = tt.reshape %a : tensor<4x4xi32> -> tensor<32xi32>
  tt.return
}

// -----

// trans's order is a permutation.
tt.func @f(%a: tensor<4x8xi32>) {
  // expected-error@+1 {{order must be a permutation of 0..1}}
  %t = tt.trans %a {order = array<i32: 1, 1>} : tensor<4x8xi32> -> tensor<8x4xi32>
  tt.return
}

// -----

// trans permutes the shape by its order.
tt.func @f(%a: tensor<4x8xi32>) {
  // expected-error@+1 {{result dimension 0 must be 8 (source dimension 1), got 4}}
  %t = tt.trans %a {order = array<i32: 1, 0>} : tensor<4x8xi32> -> tensor<4x8xi32>
  tt.return
}

// -----

// join appends a dimension of 2.
tt.func @f(%a: tensor<16xi32>) {
  // expected-error@+1 {{result must have shape [16, 2]}}
  %t = tt.join %a, %a : tensor<16xi32> -> tensor<2x16xi32>
  tt.return
}

// -----

// split needs a last dimension of 2.
tt.func @f(%a: tensor<16x4xi32>) {
  // expected-error@+1 {{the last dimension must be 2, got 4}}
  %l, %r = tt.split %a : tensor<16x4xi32> -> tensor<16xi32>
  tt.return
}

// -----

// split drops the last dimension.
tt.func @f(%a: tensor<16x2xi32>) {
  // expected-error@+1 {{results must have shape [16]}}
  %l, %r = tt.split %a : tensor<16x2xi32> -> tensor<8xi32>
  tt.return
}

// -----

// cat doubles dimension 0.
tt.func @f(%a: tensor<16xi32>) {
  // expected-error@+1 {{result must have shape [32]}}
  %t = tt.cat %a, %a : tensor<16xi32> -> tensor<64xi32>
  tt.return
}

// -----

// addptr offsets have the pointers' shape.
tt.func @f(%p: tensor<16x!tt.ptr<f32>>, %o: tensor<32xi32>) {
  // expected-error@+1 {{requires the same shape for all operands and results}}
  %q = tt.addptr %p, %o : tensor<16x!tt.ptr<f32>>, tensor<32xi32>
  tt.return
}

// -----

// A load produces the pointee type.
tt.func @f(%p: tensor<16x!tt.ptr<f32>>) {
  // expected-error@+1 {{failed to verify that result type matches the pointee of ptr}}
  %v = "tt.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<16x!tt.ptr<f32>>) -> tensor<16xf16>
  tt.return
}

// -----

// A load's mask is i1 of the pointers' shape.
tt.func @f(%p: tensor<16x!tt.ptr<f32>>, %m: tensor<16xi32>) {
  // expected-error@+1 {{operand #1 must be}}
  %v = "tt.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<16x!tt.ptr<f32>>, tensor<16xi32>) -> tensor<16xf32>
  tt.return
}

// -----

// 'other' fills masked-off elements, so it needs a mask.
tt.func @f(%p: tensor<16x!tt.ptr<f32>>, %o: tensor<16xf32>) {
  // expected-error@+1 {{'other' needs a mask}}
  %v = "tt.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

// Block-pointer loads are bounded by boundaryCheck, not masks.
tt.func @f(%p: !tt.ptr<tensor<16xf32>>, %m: tensor<16xi1>) {
  // expected-error@+1 {{a load through a block pointer takes no mask; use boundaryCheck}}
  %v = tt.load %p, %m : !tt.ptr<tensor<16xf32>>
  tt.return
}

// -----

// padding only applies to block pointers.
tt.func @f(%p: tensor<16x!tt.ptr<f32>>) {
  // expected-error@+1 {{padding needs a block pointer}}
  %v = tt.load %p {padding = 1 : i32} : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// boundaryCheck only applies to block pointers.
tt.func @f(%p: tensor<16x!tt.ptr<f32>>) {
  // expected-error@+1 {{boundaryCheck needs a block pointer}}
  %v = tt.load %p {boundaryCheck = array<i32: 0>} : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// boundaryCheck names dimensions of the tile.
tt.func @f(%p: !tt.ptr<tensor<16x16xf32>>) {
  // expected-error@+1 {{boundaryCheck dimension 2 is out of range for rank 2}}
  %v = tt.load %p {boundaryCheck = array<i32: 2>} : !tt.ptr<tensor<16x16xf32>>
  tt.return
}

// -----

// Block-pointer stores take no mask either.
tt.func @f(%p: !tt.ptr<tensor<16xf32>>, %v: tensor<16xf32>, %m: tensor<16xi1>) {
  // expected-error@+1 {{a store through a block pointer takes no mask; use boundaryCheck}}
  tt.store %p, %v, %m : !tt.ptr<tensor<16xf32>>
  tt.return
}

// -----

// A store writes the pointee type.
tt.func @f(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf16>) {
  // expected-error@+1 {{failed to verify that value type matches the pointee of ptr}}
  "tt.store"(%p, %v) : (tensor<16x!tt.ptr<f32>>, tensor<16xf16>) -> ()
  tt.return
}

// -----

// An atomic's value is what the pointer points to.
tt.func @f(%p: !tt.ptr<f32>, %v: f16) {
  // expected-error@+1 {{value type 'f16' must be the pointee type 'f32'}}
  %o = tt.atomic_rmw fadd, relaxed, gpu, %p, %v : (!tt.ptr<f32>, f16) -> f16
  tt.return
}

// -----

// An atomic returns the old value, of the pointee type.
tt.func @f(%p: !tt.ptr<f32>, %v: f32) {
  // expected-error@+1 {{result type 'f16' must be the pointee type 'f32'}}
  %o = tt.atomic_rmw fadd, relaxed, gpu, %p, %v : (!tt.ptr<f32>, f32) -> f16
  tt.return
}

// -----

// An atomic's mask is i1 of the pointers' shape.
tt.func @f(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>, %m: tensor<8xi1>) {
  // expected-error@+1 {{mask must be 'tensor<16xi1>'}}
  %o = tt.atomic_rmw fadd, relaxed, gpu, %p, %v, %m : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>, tensor<8xi1>) -> tensor<16xf32>
  tt.return
}

// -----

// fadd adds floats.
tt.func @f(%p: !tt.ptr<i32>, %v: i32) {
  // expected-error@+1 {{fadd needs a float element type, got 'i32'}}
  %o = tt.atomic_rmw fadd, relaxed, gpu, %p, %v : (!tt.ptr<i32>, i32) -> i32
  tt.return
}

// -----

// Integer atomics take integers.
tt.func @f(%p: !tt.ptr<f32>, %v: f32) {
  // expected-error@+1 {{umax needs an integer element type, got 'f32'}}
  %o = tt.atomic_rmw umax, relaxed, gpu, %p, %v : (!tt.ptr<f32>, f32) -> f32
  tt.return
}

// -----

// Compare-and-swap compares and stores one type.
tt.func @f(%p: !tt.ptr<i32>, %c: i32, %v: i64) {
  // expected-error@+1 {{cmp and val must have the same type}}
  %o = tt.atomic_cas acq_rel, gpu, %p, %c, %v : (!tt.ptr<i32>, i32, i64) -> i32
  tt.return
}

// -----

// A dot multiplies matrices (or batches of them).
tt.func @f(%a: tensor<16xf16>, %b: tensor<16xf16>, %c: tensor<16xf32>) {
  // expected-error@+1 {{operands must all be 2-D, or all 3-D with a batch dimension}}
  %d = tt.dot %a, %b, %c : tensor<16xf16> * tensor<16xf16> -> tensor<16xf32>
  tt.return
}

// -----

// A dot's inner dimensions agree.
tt.func @f(%a: tensor<16x32xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error@+1 {{a is 16x32 and b is 16x16: inner dimensions must agree}}
  %d = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  tt.return
}

// -----

// A dot's accumulator is M x N.
tt.func @f(%a: tensor<16x32xf16>, %b: tensor<32x64xf16>, %c: tensor<16x32xf32>) {
  // expected-error@+1 {{accumulator must be 16x64, got 16x32}}
  %d = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x64xf16> -> tensor<16x32xf32>
  tt.return
}

// -----

// A batched dot's batch dimensions agree.
tt.func @f(%a: tensor<2x16x16xf16>, %b: tensor<4x16x16xf16>, %c: tensor<2x16x16xf32>) {
  // expected-error@+1 {{batch dimensions must agree}}
  %d = tt.dot %a, %b, %c : tensor<2x16x16xf16> * tensor<4x16x16xf16> -> tensor<2x16x16xf32>
  tt.return
}

// -----

// A dot's operands share an element type (fp8 formats may mix).
tt.func @f(%a: tensor<16x16xf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>) {
  // expected-error@+1 {{a and b element types differ ('f16' vs 'bf16')}}
  %d = tt.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
  tt.return
}

// -----

// Integer dots accumulate in integers, float dots in floats.
tt.func @f(%a: tensor<16x16xf16>, %c: tensor<16x16xi32>) {
  // expected-error@+1 {{accumulator type 'i32' does not suit operands of type 'f16'}}
  %d = tt.dot %a, %a, %c : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xi32>
  tt.return
}

// -----

// maxNumImpreciseAcc counts products, never negative.
tt.func @f(%a: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error@+1 {{attribute 'maxNumImpreciseAcc' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
  %d = tt.dot %a, %a, %c {maxNumImpreciseAcc = -1 : i32} : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  tt.return
}

// -----

// A reduction axis exists in the operand.
tt.func @f(%x: tensor<16xf32>) {
  // expected-error@+1 {{axis 1 is out of range for rank 1}}
  %r = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

// Operands reduced together share a shape.
tt.func @f(%x: tensor<16xf32>, %i: tensor<32xi32>) {
  // expected-error@+1 {{operands must all have the same shape}}
  %r:2 = "tt.reduce"(%x, %i) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    tt.reduce.return %a, %ai : f32, i32
  }) : (tensor<16xf32>, tensor<32xi32>) -> (f32, i32)
  tt.return
}

// -----

// A reduction drops its axis from the shape.
tt.func @f(%x: tensor<16x8xf32>) {
  // expected-error@+1 {{result type 'tensor<16xf32>' must be 'f32' with shape [8]}}
  %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<16x8xf32>) -> tensor<16xf32>
  tt.return
}

// -----

// The combine region takes two scalars per operand.
tt.func @f(%x: tensor<16xf32>) {
  // expected-error@+1 {{combine region must take 2 arguments (two per operand), got 3}}
  %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32, %c: f32):
    tt.reduce.return %a : f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

// The combine region's arguments have the operands' element types.
tt.func @f(%x: tensor<16xf32>) {
  // expected-error@+1 {{combine region argument #1 has type 'f16', expected 'f32'}}
  %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f16):
    tt.reduce.return %a : f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

// The combine region yields one value per operand.
tt.func @f(%x: tensor<16xf32>) {
  // expected-error@+1 {{combine region must yield 1 values, got 2}}
  %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a, %b : f32, f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

// The combine region yields the operands' element types.
tt.func @f(%x: tensor<16xf32>) {
  // expected-error@+1 {{combine region yields 'i32' for operand #0, expected 'f32'}}
  %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %i = arith.fptosi %a : f32 to i32
    tt.reduce.return %i : i32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

// A scan keeps its operands' types.
tt.func @f(%x: tensor<16xi32>) {
  // expected-error@+1 {{results must have the operands' types}}
  %r = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tt.scan.return %s : i32
  }) : (tensor<16xi32>) -> tensor<8xi32>
  tt.return
}

// -----

// A scan axis exists in the operand.
tt.func @f(%x: tensor<16xi32>) {
  // expected-error@+1 {{axis -1 is out of range for rank 1}}
  %r = "tt.scan"(%x) <{axis = -1 : i32, reverse = false}> ({
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tt.scan.return %s : i32
  }) : (tensor<16xi32>) -> tensor<16xi32>
  tt.return
}

// -----

// A histogram counts a 1-D tensor into 1-D bins.
tt.func @f(%x: tensor<4x16xi32>) {
  // expected-error@+1 {{input and result must be 1-D}}
  %h = tt.histogram %x : tensor<4x16xi32> -> tensor<16xi32>
  tt.return
}

// -----

// A histogram has a power-of-two number of bins.
tt.func @f(%x: tensor<64xi32>) {
  // expected-error@+1 {{the number of bins (12) must be a power of two}}
  %h = tt.histogram %x : tensor<64xi32> -> tensor<12xi32>
  tt.return
}

// -----

// A histogram counts integers.
tt.func @f(%x: tensor<64xf32>) {
  // expected-error@+1 {{operand #0 must be ranked tensor of integer values}}
  %h = tt.histogram %x : tensor<64xf32> -> tensor<16xi32>
  tt.return
}

// -----

// gather's axis exists in the source.
tt.func @f(%s: tensor<16x8xf32>, %i: tensor<16x4xi32>) {
  // expected-error@+1 {{axis 2 is out of range for rank 2}}
  %g = tt.gather %s[%i] {axis = 2 : i32} : (tensor<16x8xf32>, tensor<16x4xi32>) -> tensor<16x4xf32>
  tt.return
}

// -----

// gather's indices have the source's rank.
tt.func @f(%s: tensor<16x8xf32>, %i: tensor<16xi32>) {
  // expected-error@+1 {{indices must have the source's rank}}
  %g = tt.gather %s[%i] {axis = 0 : i32} : (tensor<16x8xf32>, tensor<16xi32>) -> tensor<16xf32>
  tt.return
}

// -----

// gather's result has the indices' shape.
tt.func @f(%s: tensor<16x8xf32>, %i: tensor<16x4xi32>) {
  // expected-error@+1 {{result must have the shape of the indices}}
  %g = tt.gather %s[%i] {axis = 1 : i32} : (tensor<16x8xf32>, tensor<16x4xi32>) -> tensor<16x8xf32>
  tt.return
}

// -----

// gather keeps the element type.
tt.func @f(%s: tensor<16x8xf32>, %i: tensor<16x4xi32>) {
  // expected-error@+1 {{result must have the source's element type}}
  %g = tt.gather %s[%i] {axis = 1 : i32} : (tensor<16x8xf32>, tensor<16x4xi32>) -> tensor<16x4xf16>
  tt.return
}

// -----

// Outside the gather axis, indices and source agree.
tt.func @f(%s: tensor<16x8xf32>, %i: tensor<8x4xi32>) {
  // expected-error@+1 {{indices dimension 0 is 8 but the source's is 16}}
  %g = tt.gather %s[%i] {axis = 1 : i32} : (tensor<16x8xf32>, tensor<8x4xi32>) -> tensor<8x4xf32>
  tt.return
}

// -----

// Narrowing float conversions state their rounding.
tt.func @f(%x: tensor<16xf32>) {
  // expected-error@+1 {{a conversion to a narrower type needs a rounding mode}}
  %y = tt.fp_to_fp %x : tensor<16xf32> -> tensor<16xf8E4M3FN>
  tt.return
}

// -----

// bitcast keeps the bit width.
tt.func @f(%x: tensor<16xf32>) {
  // expected-error@+1 {{cannot bitcast 32-bit values to 16-bit values}}
  %y = tt.bitcast %x : tensor<16xf32> -> tensor<16xi16>
  tt.return
}

// -----

// mulhiui works on 32- and 64-bit integers.
tt.func @f(%x: tensor<16xi16>) {
  // expected-error@+1 {{needs 32- or 64-bit integers, got 16 bits}}
  %y = tt.mulhiui %x, %x : tensor<16xi16>
  tt.return
}

// -----

// Inline asm packs a power-of-two number of elements.
tt.func @f(%x: tensor<16xi32>) {
  // expected-error@+1 {{packed_element must be a positive power of two, got 3}}
  %y = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 3 : i32, pure = true} %x : tensor<16xi32> -> tensor<16xi32>
  tt.return
}

// -----

// Inline asm tensors split evenly into packs.
tt.func @f(%x: tensor<2xi32>) {
  // expected-error@+1 {{tensor of 2 elements is not a multiple of packed_element}}
  %y = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %x : tensor<2xi32> -> tensor<2xi32>
  tt.return
}

// -----

// Inline asm produces at least one result.
tt.func @f(%x: i32) {
  // expected-error@+1 {{needs at least one result}}
  "tt.elementwise_inline_asm"(%x) {asm_string = "st.global.b32 [$0], 0;", constraints = "r", packed_element = 1 : i32, pure = false} : (i32) -> ()
  tt.return
}

// -----

// Inline asm operands and results have one shape.
tt.func @f(%x: tensor<16xi32>) {
  // expected-error@+1 {{all non-scalar operands/results must have the same shape}}
  %y = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<16xi32> -> tensor<32xi32>
  tt.return
}

// -----

// make_tensor_ptr takes one shape, stride and offset per tile dimension.
tt.func @f(%base: !tt.ptr<f16>, %s: i64, %o: i32) {
  // expected-error@+1 {{shape, strides and offsets need one value per tile dimension (2)}}
  %p = tt.make_tensor_ptr %base, [%s], [%s], [%o] {order = array<i32: 0>} : !tt.ptr<tensor<16x16xf16>>
  tt.return
}

// -----

// make_tensor_ptr's order is a permutation.
tt.func @f(%base: !tt.ptr<f16>, %s: i64, %o: i32) {
  // expected-error@+1 {{order must be a permutation of 0..1}}
  %p = tt.make_tensor_ptr %base, [%s, %s], [%s, %s], [%o, %o] {order = array<i32: 0, 0>} : !tt.ptr<tensor<16x16xf16>>
  tt.return
}

// -----

// advance takes one offset per tile dimension.
tt.func @f(%p: !tt.ptr<tensor<16x16xf16>>, %o: i32) {
  // expected-error@+1 {{needs 2 offsets (one per tile dimension), got 1}}
  %q = tt.advance %p, [%o] : !tt.ptr<tensor<16x16xf16>>
  tt.return
}

// -----

// print carries one signedness flag per operand.
tt.func @f(%x: tensor<16xi32>) {
  // expected-error@+1 {{isSigned needs one flag per operand (1), got 2}}
  tt.print "x" {hex = false, isSigned = array<i32: 1, 0>} : %x : tensor<16xi32>
  tt.return
}

// -----

tt.func @descriptor_indices(%d: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) -> tensor<64x64xf16> {
  // expected-error @+1 {{'tt.descriptor_load' op needs 2 indices (one per block dimension), got 1}}
  %x = tt.descriptor_load %d[%i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  tt.return %x : tensor<64x64xf16>
}

// -----

tt.func @descriptor_tile(%d: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %x: tensor<64x32xf16>) {
  // expected-error @+1 {{'tt.descriptor_store' op moves tiles of type 'tensor<64x64xf16>', got 'tensor<64x32xf16>'}}
  tt.descriptor_store %d[%i, %i], %x : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x32xf16>
  tt.return
}

// -----

// expected-error @+1 {{a tensor descriptor's block has rank 1 to 5, got 6}}
tt.func @descriptor_rank(%d: !tt.tensordesc<tensor<1x1x1x1x1x16xf16>>) {
  tt.return
}

// -----

tt.func @make_tensor_descriptor_rank(%p: !tt.ptr<f16>, %n: i32, %s: i64) {
  // expected-error@+1 {{needs 2 shape and stride entries (one per block dimension), got 1 and 1}}
  %d = tt.make_tensor_descriptor %p, [%n], [%s] {padding = 1 : i32} : !tt.ptr<f16> -> !tt.tensordesc<tensor<64x64xf16>>
  tt.return
}

// -----

tt.func @make_tensor_descriptor_element(%p: !tt.ptr<f32>, %n: i32, %s: i64) {
  // expected-error@+1 {{base points to 'f32' but the block holds 'f16'}}
  %d = tt.make_tensor_descriptor %p, [%n, %n], [%s, %s] {padding = 1 : i32} : !tt.ptr<f32> -> !tt.tensordesc<tensor<64x64xf16>>
  tt.return
}
