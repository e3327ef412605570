"""tt.scan compiled without a GPU.

* Kernels using tl.cumsum / tl.cumprod / tl.associative_scan (reverse too),
  1-D and 2-D along each axis, compile to PTX that scans across lanes with
  shfl.sync.up (.down when reversed) and, when warps lie along the axis,
  through shared memory behind a bar.sync.
* A combine function returning the wrong type is a CompilationError.
* The lowered code is *run*: TTGIR scans over many layouts go through
  ttg-allocate-shared-memory and convert-ttg-to-llvm, and a small lockstep
  interpreter of the resulting LLVM/NVVM ops (all threads of the CTA, warp
  shuffles, shared memory, scf.if, barriers) computes the results, compared
  exactly with a Python scan; it also reports a shared-memory read of data
  another thread wrote since the last barrier.  Integer combines (add, and
  a non-commutative affine composition over two operands) keep the
  comparison exact and the argument order visible."""
import itertools
import re

import pytest

import tritium as triton
import tritium.language as tl
from tritium._native import native_library
from lowered_ir_interpreter import M32, RaceError, blocked, element_id_ops, simulate, tensor_type

# ---------------------------------------------------------------------------
# Kernels compiled for cuda:90
# ---------------------------------------------------------------------------


@triton.jit
def cumsum_1d(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(out_ptr + offs, tl.cumsum(tl.load(x_ptr + offs), 0))


@triton.jit
def cumprod_2d(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(out_ptr + offs, tl.cumprod(tl.load(x_ptr + offs), AXIS))


@triton.jit
def cumsum_2d(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr, REVERSE: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(out_ptr + offs, tl.cumsum(tl.load(x_ptr + offs), AXIS, reverse=REVERSE))


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def running_max_reverse(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.associative_scan(x, 0, _max_combine, reverse=True))


@triton.jit
def _pair_combine(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2


@triton.jit
def linear_recurrence(a_ptr, b_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    _, h = tl.associative_scan((tl.load(a_ptr + offs), tl.load(b_ptr + offs)), 0, _pair_combine)
    tl.store(out_ptr + offs, h)


@triton.jit
def _bad_combine(a, b):
    return (a + b).to(tl.float16)


@triton.jit
def bad_scan(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(out_ptr + offs, tl.associative_scan(tl.load(x_ptr + offs), 0, _bad_combine))


def _ptx(fn, signature, constexprs, num_warps=4):
    kernel = triton.compile(fn, signature=signature, constexprs=constexprs, target="cuda:90", num_warps=num_warps)
    return kernel.asm["ptx"]


PAIR = {"x_ptr": "*fp32", "out_ptr": "*fp32"}


@pytest.mark.parametrize("n", [32, 128, 1024])
def test_cumsum_1d_ptx(n):
    ptx = _ptx(cumsum_1d, PAIR, {"N": n})
    assert "shfl.sync.up" in ptx
    # 4 warps lie along the axis once it is longer than one warp's lanes
    assert ("bar.sync" in ptx) == (n > 32)


# Tiles whose default layout puts lanes and warps along the scanned axis:
# 128x8 gets threadsPerWarp [4, 8], warpsPerCTA [4, 1]; 32x128 gets
# threadsPerWarp [1, 32], warpsPerCTA [1, 4].
TILE_FOR_AXIS = {0: (128, 8), 1: (32, 128)}


@pytest.mark.parametrize("axis", [0, 1])
def test_cumprod_2d_ptx(axis):
    m, n = TILE_FOR_AXIS[axis]
    ptx = _ptx(cumprod_2d, {"x_ptr": "*i32", "out_ptr": "*i32"}, {"M": m, "N": n, "AXIS": axis})
    assert "shfl.sync.up" in ptx
    assert "mul.lo.s32" in ptx
    assert "bar.sync" in ptx  # warp totals through shared memory


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumsum_2d_ptx(axis, reverse):
    m, n = TILE_FOR_AXIS[axis]
    ptx = _ptx(cumsum_2d, PAIR, {"M": m, "N": n, "AXIS": axis, "REVERSE": reverse})
    assert ("shfl.sync.down" if reverse else "shfl.sync.up") in ptx
    assert ("shfl.sync.up" if reverse else "shfl.sync.down") not in ptx


def test_scan_along_registers_only_needs_no_communication():
    # 32x128 f32: threadsPerWarp [1, 32], warpsPerCTA [1, 4]: each thread
    # holds whole columns, so a column scan stays in registers.
    ptx = _ptx(cumsum_2d, PAIR, {"M": 32, "N": 128, "AXIS": 0, "REVERSE": False})
    assert "shfl.sync" not in ptx and "bar.sync" not in ptx


@triton.jit
def cumsum_rows_upcast(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(out_ptr + offs, tl.cumsum(tl.load(x_ptr + offs).to(tl.float32), 0))


def test_scan_across_warps_holds_one_chunk_of_totals_at_a_time():
    # A chunk-local cumsum (flash-linear-attention's form): a 64x64 fp16
    # tile scanned along its rows in the fp32 store's layout, [1, 4] x
    # [2, 16] x [4, 1]: every thread holds 8 chunks of 4 lines, each chunk
    # spread over 2 lanes and 4 warps, so 31 warp totals of each line come
    # back through shared memory.  Loaded and combined chunk by chunk, ptxas
    # (CUDA 13.0) fits the kernel in 72 registers; loaded all before they
    # were combined, the 124 totals took 96 (151 in fla's kernel, with its
    # masks).
    kernel = triton.compile(cumsum_rows_upcast, signature={"x_ptr": "*fp16", "out_ptr": "*fp32"},
                            constexprs={"M": 64, "N": 64}, target="cuda:90", num_warps=4,
                            attrs={p: [["tt.divisibility", 16]] for p in ("x_ptr", "out_ptr")})
    assert "bar.sync" in kernel.asm["ptx"]
    assert kernel.n_regs <= 80, kernel.n_regs


def test_associative_scan_reverse_ptx():
    ptx = _ptx(running_max_reverse, PAIR, {"N": 256})
    assert "shfl.sync.down" in ptx and "shfl.sync.up" not in ptx
    assert "max.f32" in ptx


def test_two_operand_scan_ptx():
    ptx = _ptx(linear_recurrence, {"a_ptr": "*fp32", "b_ptr": "*fp32", "out_ptr": "*fp32"}, {"N": 512})
    assert ptx.count("shfl.sync.up") >= 2 * 5  # both operands through every lane step
    assert "bar.sync" in ptx


def test_combine_returning_another_type_is_a_compilation_error():
    with pytest.raises(triton.CompilationError, match="combine function"):
        triton.compile(bad_scan, signature=PAIR, constexprs={"N": 128}, target="cuda:90")


# ---------------------------------------------------------------------------
# Running the lowered code
# ---------------------------------------------------------------------------

LOWER = "builtin.module(ttg-allocate-shared-memory,convert-ttg-to-llvm,canonicalize,cse)"


def ttgir(shape, layout, axis, reverse, combine, num_warps):
    """A function returning the row-major id of each element and the scan
    results; the scanned values are computed from the ids (x = id * 0x9E3779B1
    + 12345, y = id * 77 + 3, wrapping i32), so the interpreter needs no
    inputs and the ids say which element each register holds."""
    ty = tensor_type
    body, idx, _ = element_id_ops(shape)
    T = ty(shape)
    body.append(f"%k1 = arith.constant dense<-1640531535> : {T}")
    body.append(f"%k2 = arith.constant dense<12345> : {T}")
    body.append(f"%x0 = arith.muli {idx}, %k1 : {T}")
    body.append(f"%x = arith.addi %x0, %k2 : {T}")
    body.append(f"%k3 = arith.constant dense<77> : {T}")
    body.append(f"%k4 = arith.constant dense<3> : {T}")
    body.append(f"%y0 = arith.muli {idx}, %k3 : {T}")
    body.append(f"%y = arith.addi %y0, %k4 : {T}")
    rev = "true" if reverse else "false"
    if combine == "add":
        body.append(f"""%z = "tt.scan"(%x) <{{axis = {axis} : i32, reverse = {rev}}}> ({{
    ^bb0(%a: i32, %c: i32):
      %t = arith.addi %a, %c : i32
      tt.scan.return %t : i32
    }}) : ({T}) -> {T}""")
        rets, rtys = f"{idx}, %z", f"{T}, {T}"
    elif combine == "affine":  # (a1,b1) then (a2,b2): (a1*a2, b1*a2 + b2): not commutative
        body.append(f"""%z:2 = "tt.scan"(%x, %y) <{{axis = {axis} : i32, reverse = {rev}}}> ({{
    ^bb0(%a1: i32, %b1: i32, %a2: i32, %b2: i32):
      %p = arith.muli %a1, %a2 : i32
      %q = arith.muli %b1, %a2 : i32
      %r = arith.addi %q, %b2 : i32
      tt.scan.return %p, %r : i32, i32
    }}) : ({T}, {T}) -> ({T}, {T})""")
        rets, rtys = f"{idx}, %z#0, %z#1", f"{T}, {T}, {T}"
    body = "\n    ".join(body)
    return f"""#b = {layout}
module attributes {{"ttg.num-warps" = {num_warps} : i32}} {{
  tt.func @f() -> ({rtys}) {{
    {body}
    tt.return {rets} : {rtys}
  }}
}}
"""


def reference(shape, axis, reverse, combine):
    """The scan results of `ttgir`, per element id."""
    n = 1
    for s in shape:
        n *= s
    x = [(i * 0x9E3779B1 + 12345) & M32 for i in range(n)]
    y = [(i * 77 + 3) & M32 for i in range(n)]
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    outs = [[None] * n for _ in range(1 if combine == "add" else 2)]
    for coord in itertools.product(*[range(s) for s in shape]):
        if coord[axis] != 0:
            continue
        line = [sum(c * st for c, st in zip(coord, strides)) + k * strides[axis] for k in range(shape[axis])]
        if reverse:
            line = line[::-1]
        acc = None
        for i in line:
            cur = (x[i],) if combine == "add" else (x[i], y[i])
            if acc is None:
                acc = cur
            elif combine == "add":
                acc = ((acc[0] + cur[0]) & M32,)
            else:
                acc = ((acc[0] * cur[0]) & M32, (acc[1] * cur[0] + cur[1]) & M32)
            for o, v in zip(outs, acc):
                o[i] = v
    return outs


def lower_and_run(shape, layout, axis, reverse, combine, num_warps):
    src = ttgir(shape, layout, axis, reverse, combine, num_warps)
    llir = native_library().run_pipeline(src, LOWER, "scan.ttgir")
    ret = simulate(llir, "f", 32 * num_warps)
    ids, results = ret[0], [ret[k] for k in range(1, len(ret))]
    return ids, results


LAYOUTS = [
    # shape, layout, num_warps
    ([128], blocked([1], [32], [4], [0]), 4),  # lanes, then warps
    ([1024], blocked([4], [32], [4], [0]), 4),  # + registers, 2 chunks over the warps
    ([512], blocked([1], [32], [4], [0]), 4),  # 4 chunks of one element
    ([16], blocked([1], [32], [4], [0]), 4),  # shorter than the lanes: duplicates
    ([256], blocked([2], [32], [1], [0]), 1),  # chunks in one warp
    ([32, 64], blocked([1, 4], [8, 4], [4, 1], [1, 0]), 4),
    ([64, 32], blocked([2, 1], [4, 8], [2, 2], [0, 1]), 4),
    ([16, 16], blocked([1, 1], [4, 8], [2, 2], [1, 0]), 4),
    ([128, 8], blocked([1, 1], [32, 1], [4, 1], [0, 1]), 4),
    ([8, 128], blocked([1, 4], [1, 32], [1, 4], [1, 0]), 4),
    ([64, 64], blocked([2, 2], [8, 4], [2, 4], [1, 0]), 8),
    ([4, 8, 16], blocked([1, 2, 2], [2, 4, 4], [2, 1, 2], [2, 1, 0]), 4),
]


@pytest.mark.parametrize("combine", ["add", "affine"])
@pytest.mark.parametrize("reverse", [False, True], ids=["forward", "reverse"])
@pytest.mark.parametrize("shape,layout,num_warps", LAYOUTS,
                         ids=["x".join(map(str, s)) + f"-{i}" for i, (s, _, _) in enumerate(LAYOUTS)])
def test_lowered_scan_computes_the_scan(shape, layout, num_warps, reverse, combine):
    for axis in range(len(shape)):
        ids, results = lower_and_run(shape, layout, axis, reverse, combine, num_warps)
        expected = reference(shape, axis, reverse, combine)
        for k, (got, ref) in enumerate(zip(results, expected)):
            for reg in range(len(ids)):
                for t in range(32 * num_warps):
                    i = ids[reg][t]
                    assert got[reg][t] == ref[i], (
                        f"axis {axis}: result {k} of element {i} (register {reg} of thread {t}) "
                        f"is {got[reg][t]}, expected {ref[i]}")


def test_interpreter_catches_a_missing_barrier():
    src = ttgir([128], LAYOUTS[0][1], 0, False, "add", 4)
    llir = native_library().run_pipeline(src, LOWER, "scan.ttgir")
    assert "nvvm.barrier0" in llir
    with pytest.raises(RaceError):
        simulate(llir.replace("nvvm.barrier0", ""), "f", 128)
