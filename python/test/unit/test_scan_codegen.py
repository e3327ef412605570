"""tt.scan compiled without a GPU.

* Kernels using tl.cumsum / tl.cumprod / tl.associative_scan (reverse too),
  1-D and 2-D along each axis, compile to PTX that scans across lanes with
  shfl.sync.up (.down when reversed) and, when warps lie along the axis,
  through shared memory behind a bar.sync.
* A combine function returning the wrong type is a CompilationError.
* The lowered code is *run*: TTGIR scans over many layouts go through
  allocate-shared-memory and convert-ttg-to-llvm, and a small lockstep
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

LOWER = "builtin.module(allocate-shared-memory,convert-ttg-to-llvm,canonicalize,cse)"


def width_of(t):
    m = re.fullmatch(r"i(\d+)", t.strip())
    if not m:
        raise NotImplementedError(f"type {t}")
    return int(m.group(1))





class RaceError(AssertionError):
    pass


def simulate(llir, func, num_threads, warp=32):
    """Runs the straight-line body of llvm.func @func for every thread in
    lockstep and returns what it returns (a struct is a dict of fields, a
    scalar a list with one value per thread).  Integers only; values are kept
    unsigned.  A load of a shared-memory byte that another thread stored
    since the last barrier raises RaceError."""
    lines = llir.splitlines()
    start = next(i for i, l in enumerate(lines) if f"llvm.func @{func}(" in l)
    env = {}
    T = num_threads
    mem = {}  # byte address -> (value, width, writer, epoch)
    epoch = 0
    masks = [[True] * T]
    ret = None
    name_re = re.compile(r"%[\w.$-]+")

    def val(n):
        return env[n]

    def const_or(n):
        return [int(n)] * T if re.fullmatch(r"-?\d+", n) else env[n]

    for line in lines[start + 1:]:
        s = re.sub(r"\s*loc\(.*\)$", "", line.strip())
        if not s:
            continue
        if s == "}":
            if len(masks) == 1:
                break
            masks.pop()
            continue
        m = re.match(r"(?:(%[\w.$-]+) = )?([\w.]+)\s*(.*)$", s)
        res, op, rest = m.group(1), m.group(2), m.group(3)
        mask = masks[-1]
        operands = name_re.findall(rest.split(" : ")[0]) if op != "llvm.mlir.constant" else []
        tail = rest.rsplit(" : ", 1)[-1] if " : " in rest else ""
        if op == "llvm.mlir.constant":
            mm = re.match(r"\((-?\d+) : (i\d+)\)", rest)
            if mm:
                w = width_of(mm.group(2))
                env[res] = [int(mm.group(1)) & ((1 << w) - 1)] * T
            elif rest.startswith("(true)"):
                env[res] = [1] * T
            elif rest.startswith("(false)"):
                env[res] = [0] * T
            else:
                raise NotImplementedError(s)
        elif op in ("llvm.mlir.undef", "llvm.mlir.poison"):
            env[res] = {} if "struct" in rest else [0] * T
        elif op == "llvm.mlir.addressof":
            env[res] = [0] * T
        elif op == "nvvm.read.ptx.sreg.tid.x":
            env[res] = list(range(T))
        elif op in ("llvm.add", "llvm.sub", "llvm.mul", "llvm.and", "llvm.or", "llvm.xor", "llvm.shl",
                    "llvm.lshr"):
            w = width_of(tail)
            a, b = val(operands[0]), val(operands[1])
            f = {"llvm.add": lambda x, y: x + y, "llvm.sub": lambda x, y: x - y, "llvm.mul": lambda x, y: x * y,
                 "llvm.and": lambda x, y: x & y, "llvm.or": lambda x, y: x | y, "llvm.xor": lambda x, y: x ^ y,
                 "llvm.shl": lambda x, y: x << y, "llvm.lshr": lambda x, y: x >> y}[op]
            env[res] = [f(x, y) & ((1 << w) - 1) for x, y in zip(a, b)]
        elif op == "llvm.icmp":
            pred = re.match(r'"(\w+)"', rest).group(1)
            w = width_of(tail)

            def sgn(x):
                return x - (1 << w) if x >> (w - 1) else x
            a, b = val(operands[0]), val(operands[1])
            f = {"eq": lambda x, y: x == y, "ne": lambda x, y: x != y, "ult": lambda x, y: x < y,
                 "ule": lambda x, y: x <= y, "ugt": lambda x, y: x > y, "uge": lambda x, y: x >= y,
                 "slt": lambda x, y: sgn(x) < sgn(y), "sle": lambda x, y: sgn(x) <= sgn(y),
                 "sgt": lambda x, y: sgn(x) > sgn(y), "sge": lambda x, y: sgn(x) >= sgn(y)}[pred]
            env[res] = [int(f(x, y)) for x, y in zip(a, b)]
        elif op == "llvm.select":
            c, a, b = (val(o) for o in operands)
            env[res] = [x if k else y for k, x, y in zip(c, a, b)]
        elif op in ("llvm.zext", "llvm.trunc"):
            w = width_of(tail.split(" to ")[1])
            env[res] = [x & ((1 << w) - 1) for x in val(operands[0])]
        elif op == "nvvm.shfl.sync":
            kind = rest.split()[0]
            _, v, o, _ = operands
            v, o = val(v), val(o)
            out = []
            for t in range(T):
                lane, base = t % warp, t - t % warp
                if kind == "up":
                    src = lane - o[t] if lane - o[t] >= 0 else lane
                elif kind == "down":
                    src = lane + o[t] if lane + o[t] < warp else lane
                elif kind == "idx":
                    src = o[t] % warp
                elif kind == "bfly":
                    src = lane ^ o[t]
                out.append(v[base + src])
            env[res] = out
        elif op == "llvm.getelementptr":
            idx = re.search(r"\[(.*?)\]", rest).group(1).split(", ")
            base = val(re.match(r"(%[\w.$-]+)", rest).group(1))
            elem = tail.rsplit(", ", 1)[-1]
            size = 1 if elem == "i8" else width_of(elem) // 8
            assert len(idx) == 1, s
            off = const_or(idx[0])
            env[res] = [p + size * (x - (1 << 32) if x >> 31 else x) for p, x in zip(base, off)]
        elif op == "llvm.store":
            v, p = val(operands[0]), val(operands[1])
            w = width_of(tail.split(", ")[0])
            pending = {}
            for t in range(T):
                if mask[t]:
                    if p[t] in pending and pending[p[t]][0] != v[t]:
                        raise RaceError(f"threads store different values at {p[t]}: {s}")
                    pending[p[t]] = (v[t], t)
            for addr, (x, t) in pending.items():
                mem[addr] = (x, w, t, epoch)
        elif op == "llvm.load":
            p = val(operands[0])
            w = width_of(tail.split(" -> ")[1])
            out = []
            for t in range(T):
                x, ww, writer, e = mem[p[t]]
                assert ww == w
                if e == epoch and writer != t:
                    raise RaceError(f"thread {t} reads {p[t]} written by {writer} without a barrier: {s}")
                out.append(x)
            env[res] = out
        elif op == "nvvm.barrier0":
            assert all(masks[-1]), "barrier under a condition"
            epoch += 1
        elif op == "scf.if":
            c = val(operands[0])
            masks.append([a and bool(k) for a, k in zip(mask, c)])
        elif op == "llvm.extractvalue":
            pos = [int(x) for x in re.search(r"\[(.*?)\]", rest).group(1).split(", ")]
            v = val(operands[0])
            for k in pos:
                v = v[k]
            env[res] = v
        elif op == "llvm.insertvalue":
            pos = [int(x) for x in re.search(r"\[(.*?)\]", rest).group(1).split(", ")]
            v, agg = val(operands[0]), val(operands[1])

            def ins(a, pos):
                a = dict(a)
                a[pos[0]] = v if len(pos) == 1 else ins(a.get(pos[0], {}), pos[1:])
                return a
            env[res] = ins(agg, pos)
        elif op == "llvm.return":
            ret = val(operands[0])
        else:
            raise NotImplementedError(s)
    return ret


M32 = (1 << 32) - 1


def blocked(spt, tpw, wpc, order):
    f = lambda v: "[" + ", ".join(map(str, v)) + "]"  # noqa: E731
    return f"#ttg.blocked<{{sizePerThread = {f(spt)}, threadsPerWarp = {f(tpw)}, warpsPerCTA = {f(wpc)}, order = {f(order)}}}>"


def ttgir(shape, layout, axis, reverse, combine, num_warps):
    """A function returning the row-major id of each element and the scan
    results; the scanned values are computed from the ids (x = id * 0x9E3779B1
    + 12345, y = id * 77 + 3, wrapping i32), so the interpreter needs no
    inputs and the ids say which element each register holds."""
    rank = len(shape)
    ty = lambda shp, enc="#b": f"tensor<{'x'.join(map(str, shp))}xi32, {enc}>"  # noqa: E731
    body = []
    strides = [1] * rank
    for d in range(rank - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    idx = None
    for d in range(rank):
        # The range along d has #b with every other dim sliced off (the
        # highest first); expand_dims puts them back, the lowest first.
        others = [o for o in range(rank) if o != d]
        encs, present = ["#b"], list(range(rank))
        for o in reversed(others):
            encs.append(f"#ttg.slice<{{dim = {present.index(o)}, parent = {encs[-1]}}}>")
            present.remove(o)
        body.append(f"%r{d} = tt.make_range {{start = 0 : i32, end = {shape[d]} : i32}} : {ty([shape[d]], encs[-1])}")
        cur, curshape = f"%r{d}", [shape[d]]
        for k, o in enumerate(others):
            pos = sum(1 for x in present if x < o)
            present = sorted(present + [o])
            newshape = curshape[:pos] + [1] + curshape[pos:]
            src_enc, dst_enc = encs[len(others) - k], encs[len(others) - k - 1]
            body.append(f"%e{d}_{o} = tt.expand_dims {cur} {{axis = {pos} : i32}} : "
                        f"{ty(curshape, src_enc)} -> {ty(newshape, dst_enc)}")
            cur, curshape = f"%e{d}_{o}", newshape
        if rank > 1:
            body.append(f"%bc{d} = tt.broadcast {cur} : {ty(curshape)} -> {ty(shape)}")
            cur = f"%bc{d}"
        body.append(f"%s{d} = arith.constant dense<{strides[d]}> : {ty(shape)}")
        body.append(f"%m{d} = arith.muli {cur}, %s{d} : {ty(shape)}")
        if idx is None:
            idx = f"%m{d}"
        else:
            body.append(f"%i{d} = arith.addi {idx}, %m{d} : {ty(shape)}")
            idx = f"%i{d}"
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
        body.append(f"""%z = tt.scan %x axis = {axis} reverse = {rev} ({{
    ^bb0(%a: i32, %c: i32):
      %t = arith.addi %a, %c : i32
      tt.scan.return %t : i32
    }}) : ({T}) -> {T}""")
        rets, rtys = f"{idx}, %z", f"{T}, {T}"
    elif combine == "affine":  # (a1,b1) then (a2,b2): (a1*a2, b1*a2 + b2): not commutative
        body.append(f"""%z:2 = tt.scan %x, %y axis = {axis} reverse = {rev} ({{
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
