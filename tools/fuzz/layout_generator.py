"""Random layout conversions, seeded and reproducible, as TTGIR files for
`triton.compile(path)` (layout fuzzing; issue: reliability).

`generate(seed)` returns a `LayoutProgram`: a kernel that loads an M x N
tile (int32 or float16) in one distributed layout, optionally stores it to
shared memory in a random shared layout and loads it back, converts it (and
its offsets) to a second distributed layout and stores it where it came
from.  The output equals the input for every pair, so any wrong register,
lane or warp in a conversion shows as a wrong element.  A third of the
programs instead sum the int32 tile along one axis (tt.reduce, the result
in the slice layout) or take its running sum (tt.scan, forward or
reverse) in the drawn layout; a ninth take the argmax along an axis (a
two-operand tt.reduce), transpose the tile (tt.trans) or flatten it
(tt.reshape) in a linear layout, or permute it along an axis (tt.gather,
the indices in the second layout).  One copy in thirty is of a 256 x 256
to 512 x 256 int32 tile, larger than shared memory: converted in parts.

The layouts, in Triton's printed syntax:
  * #ttg.blocked with random sizePerThread, threadsPerWarp, warpsPerCTA and
    order (tiles larger or smaller than the tensor: repeated or wrapped);
  * #ttg.nvidia_mma v2 ([16, 8]) and v3 ([16, n, 16], 4 or 8 warps), and
    #ttg.dot_op over a v2 parent;
  * #ttg.linear with random bases: the tensor's coordinate bits dealt to
    register, lane and warp bits in a random order, lane and warp bits left
    over broadcasting (zero bases), and sometimes mixed by XOR (a swizzled,
    still invertible map);
  * intermediate #ttg.swizzled_shared (random vec, perPhase, maxPhase,
    order) or #ttg.nvmma_shared (where the tile holds whole swizzle rows).
"""
import random
from dataclasses import dataclass
from typing import List, Optional

from kernel_generator import _pow2  # a power of two in [lo, hi], as the kernel generator draws them

CTA_FIELDS = "CTAsPerCGA=[1, 1], CTASplitNum=[1, 1], CTAOrder=[1, 0]"


@dataclass
class LayoutProgram:
    seed: int
    source: str        # the TTGIR text
    m: int
    n: int
    dtype: str         # "i32" or "f16"
    num_warps: int
    src: str
    dst: str
    shared: Optional[str]
    # "copy"; "sum" (z = x summed along `axis`), "cumsum" (its running sum),
    # "argmax" (the index of the largest along `axis`), "trans" (z = x.T),
    # "reshape" (z = x flattened) or "gather" (x permuted along `axis`)
    op: str = "copy"
    axis: int = 0
    reverse: bool = False


def _split(rng: random.Random, total: int) -> List[int]:
    """Two powers of two whose product is `total` (a power of two)."""
    first = 1 << rng.randint(0, total.bit_length() - 1)
    return [first, total // first]


def _list(values) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def blocked(rng: random.Random, warps: int) -> str:
    order = rng.choice([[1, 0], [0, 1]])
    return (f"#ttg.blocked<{{sizePerThread={_list([_pow2(rng, 1, 8), _pow2(rng, 1, 8)])}, "
            f"threadsPerWarp={_list(_split(rng, 32))}, warpsPerCTA={_list(_split(rng, warps))}, "
            f"order={_list(order)}, {CTA_FIELDS}}}>")


def mma_v2(rng: random.Random, warps: int) -> str:
    return (f"#ttg.nvidia_mma<{{versionMajor=2, versionMinor=0, warpsPerCTA={_list(_split(rng, warps))}, "
            f"{CTA_FIELDS}, instrShape=[16, 8]}}>")


def mma_v3(rng: random.Random, warps: int) -> str:
    """A wgmma accumulator layout: whole warpgroups along M three times in
    four (what wgmma computes), any split of the warps otherwise (what
    Triton's layout tests convert)."""
    whole = [w for w in (4, 8) if w <= warps and warps % w == 0]
    if whole and rng.random() < 0.75:
        along_m = rng.choice(whole)
        split = [along_m, warps // along_m]
    else:
        split = _split(rng, warps)
    return (f"#ttg.nvidia_mma<{{versionMajor=3, versionMinor=0, warpsPerCTA={_list(split)}, "
            f"{CTA_FIELDS}, instrShape=[16, {_pow2(rng, 8, 256)}, 16]}}>")


def dot_operand(rng: random.Random, warps: int) -> str:
    return f"#ttg.dot_op<{{parent={mma_v2(rng, warps)}, opIdx={rng.randint(0, 1)}, kWidth={rng.choice([2, 4, 8])}}}>"


def linear_bases(rng: random.Random, warps: int, m: int, n: int):
    """Random (register, lane, warp) bases over the m x n tile's coordinate bits."""
    coordinate_bits = [[1 << b, 0] for b in range(m.bit_length() - 1)] + \
                      [[0, 1 << b] for b in range(n.bit_length() - 1)]
    rng.shuffle(coordinate_bits)
    lane_bits, warp_bits = 5, warps.bit_length() - 1
    hardware = lane_bits + warp_bits
    registers = max(0, len(coordinate_bits) - hardware) + rng.randint(0, 1)  # maybe one more: a broadcast register
    images = coordinate_bits + [[0, 0]] * (registers + hardware - len(coordinate_bits))
    # Deal the images to register, lane and warp bits in a random order (the
    # coordinate bits in front when there are more hardware bits than them,
    # so that every element is held).
    rng.shuffle(images)
    if rng.random() < 0.5:  # mix: basis j ^= basis i, an invertible change of basis
        for _ in range(rng.randint(1, 4)):
            i, j = rng.sample(range(len(images)), 2)
            images[j] = [images[j][0] ^ images[i][0], images[j][1] ^ images[i][1]]
    return images[:registers], images[registers:registers + lane_bits], images[registers + lane_bits:]


def format_linear(regs, lanes, warps) -> str:
    fmt = lambda bases: "[" + ", ".join(_list(b) for b in bases) + "]"  # noqa: E731
    return f"#ttg.linear<{{register={fmt(regs)}, lane={fmt(lanes)}, warp={fmt(warps)}, block=[]}}>"


def linear(rng: random.Random, warps: int, m: int, n: int) -> str:
    """Random bases over the m x n tile's coordinate bits."""
    return format_linear(*linear_bases(rng, warps, m, n))


def distributed(rng: random.Random, warps: int, m: int, n: int) -> str:
    kinds = ["blocked", "blocked", "linear", "linear", "mma_v2", "dot", "mma_v3"]
    kind = rng.choice(kinds)
    if kind == "blocked":
        return blocked(rng, warps)
    if kind == "linear":
        return linear(rng, warps, m, n)
    if kind == "mma_v2":
        return mma_v2(rng, warps)
    if kind == "mma_v3":
        return mma_v3(rng, warps)
    return dot_operand(rng, warps)


def shared_layout(rng: random.Random, dtype: str, m: int, n: int) -> str:
    """A swizzled layout, or an NVMMA one where the tile holds whole swizzle
    rows (its contiguous dimension a multiple of the swizzle's bytes) and
    whole 8-row periods, as the verifier requires."""
    transposed = rng.random() < 0.5
    bits = 32 if dtype == "i32" else 16
    contiguous_bytes, rows = (m if transposed else n) * bits // 8, n if transposed else m
    swizzles = [s for s in (32, 64, 128) if contiguous_bytes % s == 0] if rows % 8 == 0 else []
    if rng.random() < 0.7 or not swizzles:
        return (f"#ttg.swizzled_shared<{{vec={_pow2(rng, 1, 8)}, perPhase={_pow2(rng, 1, 4)}, "
                f"maxPhase={_pow2(rng, 1, 8)}, order={_list(rng.choice([[1, 0], [0, 1]]))}, {CTA_FIELDS}}}>")
    return (f"#ttg.nvmma_shared<{{swizzlingByteWidth={rng.choice(swizzles)}, "
            f"transposed={'true' if transposed else 'false'}, elementBitWidth={bits}, {CTA_FIELDS}}}>")


def _load_tile(m: int, n: int, dtype: str) -> str:
    """The body's first lines: %offs (row-major offsets) and %x (the tile at
    x_ptr), both in #src."""
    t = f"tensor<{m}x{n}"
    return f"""    %cols = arith.constant dense<{n}> : tensor<{m}x1xi32, #src>
    %r = tt.make_range {{end = {m} : i32, start = 0 : i32}} : tensor<{m}xi32, #ttg.slice<{{dim = 1, parent = #src}}>>
    %c = tt.make_range {{end = {n} : i32, start = 0 : i32}} : tensor<{n}xi32, #ttg.slice<{{dim = 0, parent = #src}}>>
    %r2 = tt.expand_dims %r {{axis = 1 : i32}} : tensor<{m}xi32, #ttg.slice<{{dim = 1, parent = #src}}>> -> tensor<{m}x1xi32, #src>
    %rs = arith.muli %r2, %cols : tensor<{m}x1xi32, #src>
    %c2 = tt.expand_dims %c {{axis = 0 : i32}} : tensor<{n}xi32, #ttg.slice<{{dim = 0, parent = #src}}>> -> tensor<1x{n}xi32, #src>
    %cb = tt.broadcast %c2 : tensor<1x{n}xi32, #src> -> {t}xi32, #src>
    %rb = tt.broadcast %rs : tensor<{m}x1xi32, #src> -> {t}xi32, #src>
    %offs = arith.addi %rb, %cb : {t}xi32, #src>
    %xs = tt.splat %x_ptr : !tt.ptr<{dtype}> -> {t}x!tt.ptr<{dtype}>, #src>
    %xp = tt.addptr %xs, %offs : {t}x!tt.ptr<{dtype}>, #src>, {t}xi32, #src>
    %x = tt.load %xp : {t}x!tt.ptr<{dtype}>, #src>
"""


def _module(src: str, warps: int, body: str, extra_aliases: str = "", dtype: str = "i32") -> str:
    """The module around `body`: `kernel(x_ptr, z_ptr)` over `dtype`."""
    return f"""#src = {src}
{extra_aliases}module attributes {{"ttg.num-warps" = {warps} : i32, "ttg.num-ctas" = 1 : i32, "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @kernel(%x_ptr: !tt.ptr<{dtype}> {{tt.divisibility = 16 : i32}}, %z_ptr: !tt.ptr<{dtype}> {{tt.divisibility = 16 : i32}}) {{
{body}    tt.return
  }}
}}
"""


def sum_ttgir(m: int, n: int, warps: int, src: str, axis: int) -> str:
    """z[k] = sum of x along `axis` (int32, wrapping), through the slice
    layout the reduction gives, converted to a plain 1-D layout to store."""
    k = n if axis == 0 else m
    out = f"#ttg.blocked<{{sizePerThread=[1], threadsPerWarp=[32], warpsPerCTA=[{warps}], order=[0]}}>"
    slice_ = f"#ttg.slice<{{dim = {axis}, parent = #src}}>"
    body = _load_tile(m, n, "i32") + f"""    %s = "tt.reduce"(%x) <{{axis = {axis} : i32}}> ({{
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tt.reduce.return %t : i32
    }}) : (tensor<{m}x{n}xi32, #src>) -> tensor<{k}xi32, {slice_}>
    %o = ttg.convert_layout %s : tensor<{k}xi32, {slice_}> -> tensor<{k}xi32, #out>
    %i = tt.make_range {{end = {k} : i32, start = 0 : i32}} : tensor<{k}xi32, #out>
    %zs = tt.splat %z_ptr : !tt.ptr<i32> -> tensor<{k}x!tt.ptr<i32>, #out>
    %zp = tt.addptr %zs, %i : tensor<{k}x!tt.ptr<i32>, #out>, tensor<{k}xi32, #out>
    tt.store %zp, %o : tensor<{k}x!tt.ptr<i32>, #out>
"""
    return _module(src, warps, body, f"#out = {out}\n")


def cumsum_ttgir(m: int, n: int, warps: int, src: str, axis: int, reverse: bool) -> str:
    """z = the running sum of x along `axis` (from the end when `reverse`),
    in x's layout."""
    t = f"tensor<{m}x{n}"
    body = _load_tile(m, n, "i32") + f"""    %y = "tt.scan"(%x) <{{axis = {axis} : i32, reverse = {str(reverse).lower()}}}> ({{
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tt.scan.return %t : i32
    }}) : ({t}xi32, #src>) -> {t}xi32, #src>
    %zs = tt.splat %z_ptr : !tt.ptr<i32> -> {t}x!tt.ptr<i32>, #src>
    %zp = tt.addptr %zs, %offs : {t}x!tt.ptr<i32>, #src>, {t}xi32, #src>
    tt.store %zp, %y : {t}x!tt.ptr<i32>, #src>
"""
    return _module(src, warps, body)


def argmax_ttgir(m: int, n: int, warps: int, src: str, axis: int) -> str:
    """z[k] = the index of the largest x along `axis` (the first on ties): a
    two-operand tt.reduce over the values and their axis coordinates."""
    k = n if axis == 0 else m
    t = f"tensor<{m}x{n}xi32, #src>"
    out = f"#ttg.blocked<{{sizePerThread=[1], threadsPerWarp=[32], warpsPerCTA=[{warps}], order=[0]}}>"
    slice_ = f"tensor<{k}xi32, #ttg.slice<{{dim = {axis}, parent = #src}}>>"
    index = (f"    %idx = tt.broadcast %r2 : tensor<{m}x1xi32, #src> -> {t}\n" if axis == 0 else
             "    %idx = arith.addi %cb, %zero : " + t + "\n")
    body = _load_tile(m, n, "i32") + f"""    %zero = arith.constant dense<0> : {t}
{index}    %s:2 = "tt.reduce"(%x, %idx) <{{axis = {axis} : i32}}> ({{
    ^bb0(%a: i32, %ai: i32, %b: i32, %bi: i32):
      %gt = arith.cmpi sgt, %a, %b : i32
      %eq = arith.cmpi eq, %a, %b : i32
      %first = arith.cmpi slt, %ai, %bi : i32
      %tie = arith.andi %eq, %first : i1
      %take = arith.ori %gt, %tie : i1
      %v = arith.select %take, %a, %b : i32
      %vi = arith.select %take, %ai, %bi : i32
      tt.reduce.return %v, %vi : i32, i32
    }}) : ({t}, {t}) -> ({slice_}, {slice_})
    %o = ttg.convert_layout %s#1 : {slice_} -> tensor<{k}xi32, #out>
    %i = tt.make_range {{end = {k} : i32, start = 0 : i32}} : tensor<{k}xi32, #out>
    %zs = tt.splat %z_ptr : !tt.ptr<i32> -> tensor<{k}x!tt.ptr<i32>, #out>
    %zp = tt.addptr %zs, %i : tensor<{k}x!tt.ptr<i32>, #out>, tensor<{k}xi32, #out>
    tt.store %zp, %o : tensor<{k}x!tt.ptr<i32>, #out>
"""
    return _module(src, warps, body, f"#out = {out}\n")


def trans_ttgir(m: int, n: int, warps: int, bases) -> str:
    """z (n x m) = x transposed by tt.trans, in the linear layout `bases`
    with the coordinates swapped (every element stays in its thread)."""
    swapped = [[[b[1], b[0]] for b in level] for level in bases]
    t, tt_ = f"tensor<{m}x{n}xi32, #src>", f"tensor<{n}x{m}xi32, #dst>"
    body = _load_tile(m, n, "i32") + f"""    %rows = tt.broadcast %r2 : tensor<{m}x1xi32, #src> -> {t}
    %mm = arith.constant dense<{m}> : {t}
    %cm = arith.muli %cb, %mm : {t}
    %offs_t = arith.addi %cm, %rows : {t}
    %y = tt.trans %x {{order = array<i32: 1, 0>}} : {t} -> {tt_}
    %oy = tt.trans %offs_t {{order = array<i32: 1, 0>}} : {t} -> {tt_}
    %zs = tt.splat %z_ptr : !tt.ptr<i32> -> tensor<{n}x{m}x!tt.ptr<i32>, #dst>
    %zp = tt.addptr %zs, %oy : tensor<{n}x{m}x!tt.ptr<i32>, #dst>, {tt_}
    tt.store %zp, %y : tensor<{n}x{m}x!tt.ptr<i32>, #dst>
"""
    return _module(format_linear(*bases), warps, body, f"#dst = {format_linear(*swapped)}\n")


def reshape_ttgir(m: int, n: int, warps: int, bases) -> str:
    """z (m * n) = x flattened by tt.reshape, in the 1-D linear layout of
    `bases` with each coordinate (r, c) flattened to r * n + c."""
    flat = [[[b[0] * n + b[1]] for b in level] for level in bases]
    t, f = f"tensor<{m}x{n}xi32, #src>", f"tensor<{m * n}xi32, #dst>"
    body = _load_tile(m, n, "i32") + f"""    %y = tt.reshape %x : {t} -> {f}
    %oy = tt.reshape %offs : {t} -> {f}
    %zs = tt.splat %z_ptr : !tt.ptr<i32> -> tensor<{m * n}x!tt.ptr<i32>, #dst>
    %zp = tt.addptr %zs, %oy : tensor<{m * n}x!tt.ptr<i32>, #dst>, {f}
    tt.store %zp, %y : tensor<{m * n}x!tt.ptr<i32>, #dst>
"""
    return _module(format_linear(*bases), warps, body, f"#dst = {format_linear(*flat)}\n")


def gather_ttgir(m: int, n: int, warps: int, src: str, dst: str, axis: int) -> str:
    """z[i][j] = x[g(i)][j] (axis 0) or x[i][g(j)] (axis 1) by tt.gather,
    the indices in #dst (another layout): g(c) = (5 c + 3) mod the axis
    length, a permutation."""
    length = m if axis == 0 else n
    t, d = f"tensor<{m}x{n}xi32, #src>", f"tensor<{m}x{n}xi32, #dst>"
    coord = (f"    %sh = arith.constant dense<{n.bit_length() - 1}> : {d}\n"
             f"    %coord = arith.shrui %offs_dst, %sh : {d}\n" if axis == 0 else
             f"    %lowmask = arith.constant dense<{n - 1}> : {d}\n"
             f"    %coord = arith.andi %offs_dst, %lowmask : {d}\n")
    body = _load_tile(m, n, "i32") + f"""    %offs_dst = ttg.convert_layout %offs : {t} -> {d}
{coord}    %five = arith.constant dense<5> : {d}
    %three = arith.constant dense<3> : {d}
    %wrap = arith.constant dense<{length - 1}> : {d}
    %c5 = arith.muli %coord, %five : {d}
    %c53 = arith.addi %c5, %three : {d}
    %idx = arith.andi %c53, %wrap : {d}
    %y = tt.gather %x[%idx] {{axis = {axis} : i32}} : ({t}, {d}) -> {d}
    %zs = tt.splat %z_ptr : !tt.ptr<i32> -> tensor<{m}x{n}x!tt.ptr<i32>, #dst>
    %zp = tt.addptr %zs, %offs_dst : tensor<{m}x{n}x!tt.ptr<i32>, #dst>, {d}
    tt.store %zp, %y : tensor<{m}x{n}x!tt.ptr<i32>, #dst>
"""
    return _module(src, warps, body, f"#dst = {dst}\n")


def copy_ttgir(m: int, n: int, dtype: str, warps: int, src: str, dst: str, shared: Optional[str]) -> str:
    """z = x through a conversion from #src to #dst (and a shared-memory
    round trip in `shared` first, when given)."""
    aliases = f"#dst = {dst}\n#smem = #ttg.shared_memory\n"
    round_trip, value = "", "%x"
    t = f"tensor<{m}x{n}"
    if shared:
        aliases += f"#interm = {shared}\n"
        round_trip = f"""    %s0 = ttg.local_alloc %x : ({t}x{dtype}, #src>) -> !ttg.memdesc<{m}x{n}x{dtype}, #interm, #smem>
    %x1 = ttg.local_load %s0 : !ttg.memdesc<{m}x{n}x{dtype}, #interm, #smem> -> {t}x{dtype}, #src>
"""
        value = "%x1"
    body = _load_tile(m, n, dtype) + round_trip + f"""    %y = ttg.convert_layout {value} : {t}x{dtype}, #src> -> {t}x{dtype}, #dst>
    %offs_dst = ttg.convert_layout %offs : {t}xi32, #src> -> {t}xi32, #dst>
    %zs = tt.splat %z_ptr : !tt.ptr<{dtype}> -> {t}x!tt.ptr<{dtype}>, #dst>
    %zp = tt.addptr %zs, %offs_dst : {t}x!tt.ptr<{dtype}>, #dst>, {t}xi32, #dst>
    tt.store %zp, %y : {t}x!tt.ptr<{dtype}>, #dst>
"""
    return _module(src, warps, body, aliases, dtype)


def large_copy(seed: int, rng: random.Random) -> LayoutProgram:
    """A copy of a tile larger than shared memory (256 KiB or 512 KiB of
    int32): the conversion runs in parts where both layouts repeat along a
    dimension in registers, else it is out of resources ("too big")."""
    # at most 512 elements per thread (the compile of more takes minutes)
    warps = rng.choice([4, 8])
    m, n = rng.choice([(256, 256), (512, 256), (256, 512)] if warps == 8 else [(256, 256)])
    src, dst = distributed(rng, warps, m, n), distributed(rng, warps, m, n)
    return LayoutProgram(seed, copy_ttgir(m, n, "i32", warps, src, dst, None), m, n, "i32", warps, src, dst, None)


def generate(seed: int) -> LayoutProgram:
    rng = random.Random(seed)
    warps = rng.choice([1, 2, 4, 4, 8])
    m, n = _pow2(rng, 1, 128), _pow2(rng, 1, 128)
    dtype = rng.choice(["i32", "f16"])
    src, dst = distributed(rng, warps, m, n), distributed(rng, warps, m, n)
    shared = shared_layout(rng, dtype, m, n) if rng.random() < 0.3 else None
    # A third of the programs reduce or scan the tile instead (int32), drawn
    # from a stream of their own; a third of the rest (from a third stream)
    # run one of the later ops: argmax, tt.trans, tt.reshape, tt.gather.
    ops = random.Random(f"op {seed}")
    op = ops.choice(["copy", "copy", "copy", "copy", "sum", "cumsum"])
    later = random.Random(f"later op {seed}")
    if op == "copy" and later.random() < 1 / 3:
        op = later.choice(["argmax", "trans", "reshape", "gather"])
    large = random.Random(f"large {seed}")
    if op == "copy" and large.random() < 1 / 30:
        return large_copy(seed, large)
    if op == "copy":
        return LayoutProgram(seed, copy_ttgir(m, n, dtype, warps, src, dst, shared), m, n, dtype, warps, src,
                             dst, shared)
    if op in ("trans", "reshape"):
        bases = linear_bases(later, warps, m, n)
        source = (trans_ttgir if op == "trans" else reshape_ttgir)(m, n, warps, bases)
        return LayoutProgram(seed, source, m, n, "i32", warps, format_linear(*bases), "", None, op)
    axis, reverse = ops.randint(0, 1), ops.random() < 0.5
    if op == "argmax":
        source = argmax_ttgir(m, n, warps, src, axis)
    elif op == "gather":
        source = gather_ttgir(m, n, warps, src, dst, axis)
    elif op == "sum":
        source = sum_ttgir(m, n, warps, src, axis)
    else:
        source = cumsum_ttgir(m, n, warps, src, axis, reverse)
    return LayoutProgram(seed, source, m, n, "i32", warps, src, dst if op == "gather" else "", None, op, axis,
                         reverse and op == "cumsum")
