"""tt.reduce lowered and *run* without a GPU.

TTGIR reductions over many layouts (1-D to 3-D, every axis, warps along and
across the axis, duplicated lanes and warps) go through
ttg-allocate-shared-memory, ttg-membar and convert-ttg-to-llvm; the lockstep
interpreter of lowered_ir_interpreter.py runs the result for every thread
of the CTA (shuffles, shared memory with its race check, barriers) and the
values are compared exactly with a Python reduction.  The combines: an
integer add, and a two-operand (value, index) argmax with the lowest index
winning ties, as tl.argmax lowers."""
import itertools

import pytest

from tritium._native import native_library
from lowered_ir_interpreter import M32, blocked, element_id_ops, simulate, tensor_type

LOWER = "builtin.module(ttg-allocate-shared-memory,ttg-membar,convert-ttg-to-llvm,canonicalize,cse)"


def ttgir(shape, layout, axis, combine, num_warps):
    """A function returning, per result element, the id of the element at
    coordinate 0 along the axis (so the result's position is known) and the
    reduction of x = (id * 0x9E3779B1 + 12345) mod 2^32 >> 24 (small values,
    many ties) along `axis`."""
    ty = tensor_type
    body, idx, terms = element_id_ops(shape)
    T = ty(shape)
    rest = [t for d, t in enumerate(terms) if d != axis]
    base = rest[0] if rest else None
    for k, t in enumerate(rest[1:]):
        body.append(f"%base{k} = arith.addi {base}, {t} : {T}")
        base = f"%base{k}"
    if base is None:
        body.append(f"%zero = arith.constant dense<0> : {T}")
        base = "%zero"
    body.append(f"%k1 = arith.constant dense<-1640531535> : {T}")
    body.append(f"%k2 = arith.constant dense<12345> : {T}")
    body.append(f"%k3 = arith.constant dense<24> : {T}")
    body.append(f"%x0 = arith.muli {idx}, %k1 : {T}")
    body.append(f"%x1 = arith.addi %x0, %k2 : {T}")
    body.append(f"%x = arith.shrui %x1, %k3 : {T}")
    out_shape = [s for d, s in enumerate(shape) if d != axis]
    R = ty(out_shape, f"#ttg.slice<{{dim = {axis}, parent = #b}}>") if out_shape else "i32"
    body.append(f"""%where = "tt.reduce"({base}) <{{axis = {axis} : i32}}> ({{
    ^bb0(%u: i32, %v: i32):
      %w = arith.maxsi %u, %v : i32
      tt.reduce.return %w : i32
    }}) : ({T}) -> {R}""")
    if combine == "add":
        body.append(f"""%z = "tt.reduce"(%x) <{{axis = {axis} : i32}}> ({{
    ^bb0(%a: i32, %c: i32):
      %t = arith.addi %a, %c : i32
      tt.reduce.return %t : i32
    }}) : ({T}) -> {R}""")
        rets, rtys = "%where, %z", f"{R}, {R}"
    else:  # argmax over (x, position along the axis)
        body.append(f"""%z:2 = "tt.reduce"(%x, %r{axis}b) <{{axis = {axis} : i32}}> ({{
    ^bb0(%v1: i32, %j1: i32, %v2: i32, %j2: i32):
      %gt = arith.cmpi sgt, %v1, %v2 : i32
      %eq = arith.cmpi eq, %v1, %v2 : i32
      %lt = arith.cmpi slt, %j1, %j2 : i32
      %tie = arith.andi %eq, %lt : i1
      %take = arith.ori %gt, %tie : i1
      %v = arith.select %take, %v1, %v2 : i32
      %i = arith.select %take, %j1, %j2 : i32
      tt.reduce.return %v, %i : i32, i32
    }}) : ({T}, {T}) -> ({R}, {R})""")
        stride = 1
        for s in shape[axis + 1:]:
            stride *= s
        body.insert(len(body) - 1, f"%st = arith.constant dense<{stride}> : {T}")
        body.insert(len(body) - 1, f"%r{axis}b = arith.divsi {terms[axis]}, %st : {T}")
        rets, rtys = "%where, %z#0, %z#1", f"{R}, {R}, {R}"
    body = "\n    ".join(body)
    return f"""#b = {layout}
module attributes {{"ttg.num-warps" = {num_warps} : i32}} {{
  tt.func @f() -> ({rtys}) {{
    {body}
    tt.return {rets} : {rtys}
  }}
}}
"""


def reference(shape, axis, combine):
    """{base id: results} of `ttgir`'s reduction."""
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    out = {}
    for coord in itertools.product(*[range(s) for s in shape]):
        if coord[axis] != 0:
            continue
        base = sum(c * st for c, st in zip(coord, strides))
        xs = [(((base + k * strides[axis]) * 0x9E3779B1 + 12345) & M32) >> 24 for k in range(shape[axis])]
        if combine == "add":
            out[base] = (sum(xs) & M32,)
        else:
            best = max(xs)
            out[base] = (best, xs.index(best))
    return out


LAYOUTS = [
    # shape, layout, num_warps
    ([128], blocked([1], [32], [4], [0]), 4),  # lanes, then warps
    ([1024], blocked([4], [32], [8], [0]), 8),  # registers wrap: 8 warps along the axis
    ([16], blocked([1], [32], [4], [0]), 4),  # duplicated lanes and warps
    ([32, 64], blocked([1, 4], [8, 4], [4, 1], [1, 0]), 4),
    ([64, 32], blocked([2, 1], [4, 8], [2, 2], [0, 1]), 4),
    ([8, 128], blocked([1, 4], [2, 16], [4, 1], [1, 0]), 4),  # column results: lanes hold different ones
    ([1, 4096], blocked([1, 4], [1, 32], [1, 8], [1, 0]), 8),  # a softmax row
    ([128, 8], blocked([1, 1], [32, 1], [4, 1], [0, 1]), 4),
    ([64, 64], blocked([2, 2], [8, 4], [2, 4], [1, 0]), 8),
    ([4, 8, 16], blocked([1, 2, 2], [2, 4, 4], [2, 1, 2], [2, 1, 0]), 4),
]


@pytest.mark.parametrize("combine", ["add", "argmax"])
@pytest.mark.parametrize("shape,layout,num_warps", LAYOUTS,
                         ids=["x".join(map(str, s)) + f"-{i}" for i, (s, _, _) in enumerate(LAYOUTS)])
def test_lowered_reduce_computes_the_reduction(shape, layout, num_warps, combine):
    for axis in range(len(shape)):
        src = ttgir(shape, layout, axis, combine, num_warps)
        llir = native_library().run_pipeline(src, LOWER, "reduce.ttgir")
        ret = simulate(llir, "f", 32 * num_warps)
        # a tensor result is {register: per-thread values}, a scalar one the values
        per_register = [ret[k] if isinstance(ret[k], dict) else {0: ret[k]} for k in range(len(ret))]
        where, results = per_register[0], per_register[1:]
        expected = reference(shape, axis, combine)
        for reg in range(len(where)):
            for t in range(32 * num_warps):
                got = tuple(r[reg][t] for r in results)
                assert got == expected[where[reg][t]], (
                    f"axis {axis}: result of element {where[reg][t]} (register {reg} of thread {t}) is "
                    f"{got}, expected {expected[where[reg][t]]}")
