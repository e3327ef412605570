"""A lockstep interpreter of lowered LLVM/NVVM IR, for running the code
convert-ttg-to-llvm writes without a GPU: every thread of the CTA executes
the straight-line body of one llvm.func together (warp shuffles, shared
memory with a race check, scf.if, barriers).  Integers and vectors of
them (a vector value is a tuple per thread).  Used by the scan, reduce and
convert-layout codegen tests."""
import re

def width_of(t):
    m = re.fullmatch(r"i(\d+)", t.strip())
    if not m:
        raise NotImplementedError(f"type {t}")
    return int(m.group(1))


def vector_of(t):
    """(length, element width) of a vector<NxiW> type, or None."""
    m = re.fullmatch(r"vector<(\d+)x(i\d+)>", t.strip())
    return (int(m.group(1)), width_of(m.group(2))) if m else None


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
            vector = vector_of(rest.split(":", 1)[-1])
            env[res] = {} if "struct" in rest else [(0,) * vector[0]] * T if vector else [0] * T
        elif op == "llvm.insertelement":
            v, vec, i = (val(o) for o in operands)
            env[res] = [vt[:k] + (x,) + vt[k + 1:] for x, vt, k in zip(v, vec, i)]
        elif op == "llvm.extractelement":
            vec, i = (val(o) for o in operands)
            env[res] = [vt[k] for vt, k in zip(vec, i)]
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
        elif op in ("llvm.intr.smax", "llvm.intr.smin", "llvm.intr.umax", "llvm.intr.umin", "llvm.sdiv",
                    "llvm.udiv", "llvm.ashr"):
            w = width_of(tail.split("->")[-1])

            def sgn(x):
                return x - (1 << w) if x >> (w - 1) else x
            a, b = val(operands[0]), val(operands[1])
            f = {"llvm.intr.smax": lambda x, y: max(sgn(x), sgn(y)), "llvm.intr.smin": lambda x, y: min(sgn(x), sgn(y)),
                 "llvm.intr.umax": max, "llvm.intr.umin": min,
                 "llvm.sdiv": lambda x, y: int(sgn(x) / sgn(y)), "llvm.udiv": lambda x, y: x // y,
                 "llvm.ashr": lambda x, y: sgn(x) >> y}[op]
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
            vector = vector_of(tail.split(", ")[0])
            n, w = vector if vector else (1, width_of(tail.split(", ")[0]))
            pending = {}
            for t in range(T):
                if mask[t]:
                    for k in range(n):
                        x, addr = (v[t][k] if vector else v[t]), p[t] + k * max(1, w // 8)
                        if addr in pending and pending[addr][0] != x:
                            raise RaceError(f"threads store different values at {addr}: {s}")
                        pending[addr] = (x, t)
            for addr, (x, t) in pending.items():
                mem[addr] = (x, w, t, epoch)
        elif op == "llvm.load":
            p = val(operands[0])
            vector = vector_of(tail.split(" -> ")[1])
            n, w = vector if vector else (1, width_of(tail.split(" -> ")[1]))
            out = []
            for t in range(T):
                elements = []
                for k in range(n):
                    addr = p[t] + k * max(1, w // 8)
                    x, ww, writer, e = mem[addr]
                    assert ww == w
                    if e == epoch and writer != t:
                        raise RaceError(f"thread {t} reads {addr} written by {writer} without a barrier: {s}")
                    elements.append(x)
                out.append(tuple(elements) if vector else elements[0])
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


def tensor_type(shape, enc="#b"):
    return f"tensor<{'x'.join(map(str, shape))}xi32, {enc}>"


def element_id_ops(shape):
    """TTGIR lines (layout alias #b) computing each element's row-major id as
    a tensor of `shape`, from make_range / expand_dims / broadcast; returns
    (lines, name of the id tensor, name of the per-dimension terms m_d =
    coordinate_d * stride_d)."""
    rank = len(shape)
    ty = tensor_type
    body = []
    strides = [1] * rank
    for d in range(rank - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    idx = None
    terms = []
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
        terms.append(f"%m{d}")
        if idx is None:
            idx = f"%m{d}"
        else:
            body.append(f"%i{d} = arith.addi {idx}, %m{d} : {ty(shape)}")
            idx = f"%i{d}"
    return body, idx, terms
