"""Random Triton kernels, seeded and reproducible, for compile fuzzing and
differential testing (issue: reliability).

`generate(seed)` returns a valid `Program`: the text of a Python module
with one `kernel` (and sometimes a nested `@triton.jit` helper) written the
way users write Triton, its signature, constexprs, launch grid and
num_warps, the arrays it reads and writes, and `reference`, the source of a
numpy function that computes the same outputs from the same inputs.
`generate_invalid(seed)` returns a program with one mistake planted on a
known line (`error_line`): an undefined name, a runtime value where a
constexpr is needed, a reduction axis out of range, a reshape that does
not fit, a store through a scalar, a dot whose K disagrees, a dtype that
does not exist, a non-power-of-two arange, a load of a non-pointer, a
bitcast between widths, a constexpr division by zero, a failing
static_assert, a call of a plain Python function, a builtin with too few
arguments, a reduction of a scalar, an unknown keyword, a runtime shape, a
range with step 0, a float arange, a block pointer whose shape, strides and
offsets disagree in rank, whose block shape is not a power of two or whose
order is not a permutation, an advance of the wrong rank, a boundary check
of a dimension the block does not have.  A compiler must reject it with an
error at that line.

What a valid kernel may contain:
  * 1-D tiles (BLOCK 16-1024, a masked tail), 2-D tiles (BM x BN, each
    1-64, masks on both edges) or 3-D tiles (BL x BM x BN, each 1-16, masks
    on every edge), up to two inputs of float32, float16, bfloat16, int32
    or int8, and of float64, int16, uint8 or int64 (float16 and bfloat16
    compute in float32, int8, int16 and uint8 in int32, the 64-bit types in
    themselves, as Triton code usually does; references round to bfloat16
    with bf16());
  * element-wise expressions up to depth 4: + - * and safe division,
    maximum/minimum, where over comparisons, abs, exp of -|x|, sqrt of |x|,
    sin (of an argument clamped to [-8, 8]), casts (round trips through
    float16 and bfloat16); for integers also & | ^ and shifts by 0-3;
  * a constexpr-bounded loop accumulating (a for or a while; the accumulator
    sometimes a tuple with an iteration count, rebuilt one element per
    statement or whole, from a stream of its own), an `if` on a
    constexpr flag, an `if` on a runtime scalar, an early `return` of one
    program along axis 0 (its tile keeps the runner's poison, `poison()`);
  * a walk (from a stream of its own): the first input read again through
    a tensor of pointers a loop advances by a constexpr or runtime step,
    reads past the end masked;
  * a nested @jit helper holding a subexpression;
  * the tile reshaped to 1-4 power-of-two dimensions, permuted (tl.permute,
    tl.trans, .T), doubled, permuted back and reshaped back;
  * 2-D: a row vector broadcast over the rows; 2-D and 3-D: a reduction
    (sum, max, min) or a cumsum along any axis, with masked elements made
    neutral first;
  * integers: an atomic_add histogram (int32);
  * or, about one program in seven, a matmul tile: tl.dot over a masked K loop
    (fp16 or fp32 inputs, fp32 accumulator) with an element-wise epilogue
    (in about a third, from a stream of their own, K is a multiple of the
    block and only rows and columns are masked: masks the loop never changes),
    or (a third of those) over block pointers: A and B in either memory
    order (`order`), edges checked with zero padding, C stored through a
    block pointer; dimensions often multiples of 16, so that on Hopper the
    tiles move by TMA (Program.attrs says what the JIT would specialize);
    or a flash-attention tile: the online softmax over key blocks, both
    products on tensor cores, optionally causal, with Q, K, V and O through
    pointers, block pointers (K over its transposed view) or host tensor
    descriptors, query and key counts that cut the blocks; or the
    backward's dK/dV tile (Q read transposed and used again transposed);
    or (about a third of the plain matmul tiles, from a stream of their own)
    a microscaled tile: tl.dot_scaled over a K loop, one operand e2m1, e4m3
    or e5m2 with e8m0 scales, the other bf16 or unscaled fp8;
  * or, about one in ten, tiles through host tensor descriptors (rank 1 or
    2, blocks crossing the array's edges, an element-wise expression stored,
    or in one of four added twice to a zeroed output with a descriptor
    atomic: add, max, min, and, or, xor), or a matmul whose A and B tiles
    are descriptor loads.
Integers wrap in both Triton and numpy int32, so integer outputs compare
exactly; float outputs within a tolerance (Program.rtol / atol).
"""
import dataclasses
import random
from typing import Dict, List, Optional, Tuple

FLOAT_DTYPES = ["float32", "float16", "bfloat16", "float64"]
TL_DTYPE = {"float32": "tl.float32", "float16": "tl.float16", "bfloat16": "tl.bfloat16", "float64": "tl.float64",
            "int32": "tl.int32", "int8": "tl.int8", "int16": "tl.int16", "uint8": "tl.uint8", "int64": "tl.int64"}
SIG_DTYPE = {"float32": "fp32", "float16": "fp16", "bfloat16": "bf16", "float64": "fp64", "int32": "i32", "int8": "i8",
             "int16": "i16", "uint8": "u8", "int64": "i64"}


def poison(dtype: str):
    """What an output element holds before the kernel runs (the runners
    fill outputs with it): NaN, 177 for unsigned integers, -77 for signed."""
    return float("nan") if not is_integer(dtype) else 177 if dtype.startswith("uint") else -77


def is_integer(dtype: str) -> bool:
    return dtype.startswith(("int", "uint"))


def compute_dtype(dtype: str) -> str:
    """What an element-wise program computes in: 64-bit types in themselves,
    narrower integers in int32 and narrower floats in float32."""
    if dtype in ("int64", "float64"):
        return dtype
    return "int32" if is_integer(dtype) else "float32"

# numpy has no bfloat16: references hold bfloat16 values as float32 and
# round with bf16() (to nearest, ties to even, as the GPU's cvt.rn.bf16).
BF16_HELPER = [
    "def bf16(v):",
    "    v = np.asarray(v, np.float32)",
    "    bits = v.view(np.uint32).astype(np.uint64)",
    "    bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16",
    "    return np.where(np.isnan(v), v, (bits & 0xFFFFFFFF).astype(np.uint32).view(np.float32))",
    "",
]


def np_cast(value: str, dtype: str) -> str:
    """numpy source converting `value` to `dtype` (bfloat16: rounded, kept in float32)."""
    return f"bf16({value})" if dtype == "bfloat16" else f"({value}).astype(np.{dtype})"


@dataclasses.dataclass
class Program:
    seed: int
    source: str                          # module text; defines `kernel`
    signature: Dict[str, str]            # runtime parameters, Triton signature strings
    constexprs: Dict[str, object]
    num_warps: int
    grid: Tuple[int, ...]
    inputs: List[Tuple[str, Tuple[int, ...], str]]    # (parameter, shape, dtype)
    outputs: List[Tuple[str, Tuple[int, ...], str]]
    scalars: Dict[str, int]              # runtime scalar arguments
    reference: str                       # defines `reference(arrays) -> {output: array}`
    rtol: float = 0.0
    atol: float = 0.0
    error_line: Optional[int] = None     # invalid programs: where the error must point
    mutation: str = ""
    zero_outputs: Tuple[str, ...] = ()   # outputs that start at zero (atomic targets)
    # parameters passed as host TensorDescriptors over their array: block shape
    descriptors: Dict[str, Tuple[int, ...]] = dataclasses.field(default_factory=dict)
    # what the JIT's specialization would know of the arguments (pointers
    # and integers divisible by 16), for compiling without launching
    attrs: Dict[str, list] = dataclasses.field(default_factory=dict)
    num_stages: int = 3                  # the launch's num_stages

    def arguments(self):
        """Parameter names in signature order."""
        return list(self.signature)


class _Expr:
    """An expression in both languages: Triton source and numpy source;
    `const` when it involves no tensor (such a subtree is never built:
    Python scalars have no `.to`, and Triton rejects some scalar-only
    forms that numpy takes)."""

    def __init__(self, tl_src: str, np_src: str, const: bool = False):
        self.tl, self.np, self.const = tl_src, np_src, const


class _Builder:
    def __init__(self, rng: random.Random, kind: str, leaves: List[_Expr]):
        self.rng, self.kind, self.leaves = rng, kind, leaves  # kind: "float" or "int"

    def constant(self) -> _Expr:
        if self.kind == "int":
            v = self.rng.randint(-9, 9)
            return _Expr(str(v), f"np.int32({v})", const=True)
        v = round(self.rng.uniform(-4, 4), 3)
        return _Expr(repr(v), f"np.float32({v!r})", const=True)

    def expr(self, depth: int) -> _Expr:
        built = self._expr(depth)
        return built if not built.const else self.rng.choice(self.leaves)

    def operand(self, depth: int) -> _Expr:
        """A subexpression that may be a constant (one operand of a binary op)."""
        return self._expr(depth)

    def _expr(self, depth: int) -> _Expr:
        r = self.rng
        if depth <= 0 or r.random() < 0.25:
            return r.choice(self.leaves) if r.random() < 0.8 else self.constant()
        a = self.expr(depth - 1)
        choice = r.randrange(12)
        if choice < 4:
            b = self.operand(depth - 1)
            op = r.choice(["+", "-", "*"])
            return _Expr(f"({a.tl} {op} {b.tl})", f"({a.np} {op} {b.np})")
        if choice == 4:
            b = self.expr(depth - 1)
            f = r.choice(["maximum", "minimum"])
            return _Expr(f"tl.{f}({a.tl}, {b.tl})", f"np.{f}({a.np}, {b.np})")
        if choice == 5:
            b, c, d = self.expr(depth - 1), self.expr(depth - 1), self.expr(depth - 1)
            cmp = r.choice(["<", ">", "<=", ">=", "==", "!="])
            return _Expr(f"tl.where({a.tl} {cmp} {b.tl}, {c.tl}, {d.tl})",
                         f"np.where({a.np} {cmp} {b.np}, {c.np}, {d.np})")
        if choice == 6:
            return _Expr(f"tl.abs({a.tl})", f"np.abs({a.np})")
        if self.kind == "int":
            if choice in (7, 8):
                b = self.expr(depth - 1)
                op = r.choice(["&", "|", "^"])
                return _Expr(f"({a.tl} {op} {b.tl})", f"({a.np} {op} {b.np})")
            if choice == 9:
                s = r.randint(0, 3)
                op = r.choice([">>", "<<"])
                return _Expr(f"({a.tl} {op} {s})", f"({a.np} {op} np.int32({s}))")
            return _Expr(f"(-{a.tl})", f"(-{a.np})")
        if choice == 7:
            b = self.expr(depth - 1)
            return _Expr(f"({a.tl} / (tl.abs({b.tl}) + 1.0))", f"({a.np} / (np.abs({b.np}) + np.float32(1.0)))")
        if choice == 8:
            return _Expr(f"tl.exp(-tl.abs({a.tl}))", f"np.exp(-np.abs({a.np}))")
        if choice == 9:
            return _Expr(f"tl.sqrt(tl.abs({a.tl}))", f"np.sqrt(np.abs({a.np}))")
        if choice == 10:
            # The argument is clamped: `/` is an approximate division on the
            # GPU (as in Triton), and sin of a large argument turns its
            # last-bit error into an absolute one no tolerance would cover.
            return _Expr(f"tl.sin(tl.minimum(tl.maximum({a.tl}, -8.0), 8.0))",
                         f"np.sin(np.minimum(np.maximum({a.np}, np.float32(-8.0)), np.float32(8.0)))")
        # a round trip through float16 or bfloat16 and back
        if r.random() < 0.5:
            return _Expr(f"{a.tl}.to(tl.bfloat16).to(tl.float32)", f"bf16({a.np})")
        return _Expr(f"{a.tl}.to(tl.float16).to(tl.float32)", f"{a.np}.astype(np.float16).astype(np.float32)")


def _pow2(rng: random.Random, lo: int, hi: int) -> int:
    return 1 << rng.randint(lo.bit_length() - 1, hi.bit_length() - 1)


def _shape_round_trip(rng: random.Random, value: str, tile: List[int]) -> List[str]:
    """Kernel lines that take `value` (a tile of shape `tile`) through a
    reshape to a random shape of 1-4 power-of-two dimensions, a permutation
    of them (tl.permute, or tl.trans / .T in 2-D), a doubling, the inverse
    permutation and a reshape back: `s` holds the value doubled."""
    bits = sum(t.bit_length() - 1 for t in tile)
    parts = rng.randint(1, 4)
    cuts = sorted(rng.randint(0, bits) for _ in range(parts - 1))
    view = [1 << (b - a) for a, b in zip([0] + cuts, cuts + [bits])]
    perm = list(range(parts))
    rng.shuffle(perm)
    inverse = [perm.index(d) for d in range(parts)]
    shape = lambda dims: "(" + ", ".join(map(str, dims)) + ("," if len(dims) == 1 else "") + ")"  # noqa: E731
    if parts == 2 and perm == [1, 0] and rng.random() < 0.5:
        forward, backward = ("tl.trans(s)", "s.T") if rng.random() < 0.5 else ("s.T", "tl.trans(s)")
    else:
        forward, backward = f"tl.permute(s, {shape(perm)})", f"tl.permute(s, {shape(inverse)})"
    return [f"    s = tl.reshape({value}, {shape(view)})",
            f"    s = {forward}",
            "    s = s * 2",
            f"    s = {backward}",
            f"    s = tl.reshape(s, {shape(tile)})"]


def generate(seed: int) -> Program:
    """A valid random kernel and its numpy reference."""
    rng = random.Random(seed)
    if rng.random() < 0.15:
        return _generate_dot(seed, rng)
    if rng.random() < 0.12:
        return _generate_descriptor(seed, rng)
    rank = rng.choice([1, 1, 2, 2, 3])
    dtype = rng.choice(["float32", "float32", "float16", "bfloat16", "float64", "int32", "int8", "int16", "uint8",
                        "int64"])
    kind = "int" if is_integer(dtype) else "float"
    n_inputs = rng.choice([1, 2])
    row_vector = rank == 2 and rng.random() < 0.3  # a [BN] input broadcast over the rows
    atomic = kind == "int" and rng.random() < 0.25
    num_warps = rng.choice([1, 2, 4, 8])
    names = ["x", "y"][:n_inputs]
    lines = ["import tritium as triton", "import tritium.language as tl", ""]
    helper = rng.random() < 0.3
    loop = rng.random() < 0.3
    while_loop = loop and rng.random() < 0.4  # the same loop written as a while
    flag = rng.random() < 0.3
    runtime_if = rng.random() < 0.25  # a branch on a runtime scalar
    compute = f"tl.{compute_dtype(dtype)}"
    np_compute = f"np.{compute_dtype(dtype)}"

    leaves = [_Expr(f"{n}", f"{n}") for n in names] + [_Expr("offs_f", "offs_f")]
    if row_vector:
        leaves.append(_Expr("w[None, :]", "w[None, :]"))
    builder = _Builder(rng, kind, leaves)
    body = builder.expr(rng.randint(1, 4))
    helper_src, ref_helper = [], []
    if helper:
        # The helper sees x, y and offs_f only.
        sub = _Builder(rng, kind, [leaf for leaf in leaves if not leaf.tl.startswith("w[")]).expr(2)
        helper_src = ["@triton.jit", "def helper(x, y, offs_f):", f"    return {sub.tl}", ""]
        ref_helper = ["def helper(x, y, offs_f):", f"    return {sub.np}", ""]
        body = _Expr(f"({body.tl} + helper({leaves[0].tl}, {leaves[-2].tl if n_inputs > 1 else leaves[0].tl}, offs_f))",
                     f"({body.np} + helper({leaves[0].np}, {leaves[-2].np if n_inputs > 1 else leaves[0].np}, offs_f))")

    constexprs: Dict[str, object] = {}
    scalars: Dict[str, int] = {}
    signature: Dict[str, str] = {}
    for n in names:
        signature[f"{n}_ptr"] = f"*{SIG_DTYPE[dtype]}"
    if row_vector:
        signature["w_ptr"] = f"*{SIG_DTYPE[dtype]}"
    signature["out_ptr"] = f"*{SIG_DTYPE[dtype]}"
    if atomic:
        signature["hist_ptr"] = "*i32"
    reduce_op = None
    if rank == 1:
        block = _pow2(rng, 16, 1024)
        n = rng.randint(1, 3 * block)
        signature["n"] = "i32"
        scalars["n"] = n
        constexprs["BLOCK"] = block
        params = ", ".join(list(signature) + ["BLOCK: tl.constexpr"])
        index = ["    pid = tl.program_id(0)",
                 "    offs = pid * BLOCK + tl.arange(0, BLOCK)",
                 "    mask = offs < n"]
        shape_in = (n,)
        grid = ((n + block - 1) // block,)
        np_index = ["    offs = np.arange(n)"]
        out_shape = (n,)
    elif rank == 3:
        blocks = [_pow2(rng, 1, 16) for _ in range(3)]
        dims = [rng.randint(1, 3 * b) for b in blocks]
        names3 = ["L", "M", "N"]
        for nm3, d in zip(names3, dims):
            signature[nm3] = "i32"
            scalars[nm3] = d
        # A reduction or scan along one axis needs that axis whole in one program.
        if rng.random() < 0.35:
            reduce_op = rng.choice(["sum", "max", "min", "cumsum"])
            axis3 = rng.randrange(3)
            blocks[axis3] = 1 << (dims[axis3] - 1).bit_length()
            if blocks[0] * blocks[1] * blocks[2] > 2 ** 14:
                reduce_op = None
                blocks[axis3] = _pow2(rng, 1, 16)
        constexprs.update(BL=blocks[0], BM=blocks[1], BN=blocks[2])
        params = ", ".join(list(signature) + ["BL: tl.constexpr", "BM: tl.constexpr", "BN: tl.constexpr"])
        index = ["    d0 = tl.program_id(0) * BL + tl.arange(0, BL)",
                 "    d1 = tl.program_id(1) * BM + tl.arange(0, BM)",
                 "    d2 = tl.program_id(2) * BN + tl.arange(0, BN)",
                 "    offs = (d0[:, None, None] * M + d1[None, :, None]) * N + d2[None, None, :]",
                 "    mask = (d0[:, None, None] < L) & (d1[None, :, None] < M) & (d2[None, None, :] < N)"]
        shape_in = tuple(dims)
        grid = tuple((d + b - 1) // b for d, b in zip(dims, blocks))
        np_index = ["    offs = np.arange(L * M * N).reshape(L, M, N)"]
        out_shape = shape_in
    else:
        bm, bn = _pow2(rng, 1, 64), _pow2(rng, 1, 64)
        while bm * bn > 4096:
            bn //= 2
        m, nn = rng.randint(1, 3 * bm), rng.randint(1, 3 * bn)
        signature["M"] = signature["N"] = "i32"
        scalars.update(M=m, N=nn)
        constexprs.update(BM=bm, BN=bn)
        params = ", ".join(list(signature) + ["BM: tl.constexpr", "BN: tl.constexpr"])
        index = ["    rows = tl.program_id(0) * BM + tl.arange(0, BM)",
                 "    cols = tl.program_id(1) * BN + tl.arange(0, BN)",
                 "    offs = rows[:, None] * N + cols[None, :]",
                 "    mask = (rows[:, None] < M) & (cols[None, :] < N)"]
        shape_in = (m, nn)
        grid = ((m + bm - 1) // bm, (nn + bn - 1) // bn)
        np_index = ["    offs = np.arange(M * N).reshape(M, N)"]
        out_shape = (m, nn)
        # Reductions need the whole row or column in one program.
        if rng.random() < 0.35:
            reduce_op = rng.choice(["sum", "max", "min", "cumsum"])
            axis = rng.choice([0, 1])
            if axis == 1:
                bn = 1 << (nn - 1).bit_length()
                constexprs["BN"] = bn
                grid = ((m + bm - 1) // bm, 1)
            else:
                bm = 1 << (m - 1).bit_length()
                constexprs["BM"] = bm
                grid = (1, (nn + bn - 1) // bn)
            if constexprs["BM"] * constexprs["BN"] > 2 ** 16:
                reduce_op = None  # too large a tile: keep it element-wise
                constexprs.update(BM=_pow2(rng, 1, 64), BN=_pow2(rng, 1, 64))
                while constexprs["BM"] * constexprs["BN"] > 4096:
                    constexprs["BN"] //= 2
                grid = ((m + constexprs["BM"] - 1) // constexprs["BM"], (nn + constexprs["BN"] - 1) // constexprs["BN"])
    if loop:
        constexprs["LOOP"] = rng.randint(1, 3)
        params += ", LOOP: tl.constexpr"
    if flag:
        constexprs["FLAG"] = rng.choice([True, False])
        params += ", FLAG: tl.constexpr"

    lines += helper_src
    # An early return: one program along axis 0 leaves its tile unwritten
    # (element-wise programs only: reductions and histograms need them all).
    skipped = None
    if reduce_op is None and not atomic and rng.random() < 0.15:
        skipped = rng.randrange(grid[0])
        index = index + [f"    if tl.program_id(0) == {skipped}:", "        return"]
    lines += ["@triton.jit", f"def kernel({params}):"] + index
    other = "0" if kind == "int" else "0.0"
    for nm in names:
        lines.append(f"    {nm} = tl.load({nm}_ptr + offs, mask=mask, other={other}).to({compute})")
    if row_vector:
        lines.append(f"    w = tl.load(w_ptr + cols, mask=cols < N, other={other}).to({compute})")
    lines.append(f"    offs_f = offs.to({compute})")
    ref = ["import numpy as np", ""] + BF16_HELPER + ref_helper + ["def reference(arrays):"]
    ref += [f"    {nm} = arrays['{nm}_ptr'].astype({np_compute})" for nm in names]
    if row_vector:
        ref.append(f"    w = arrays['w_ptr'].astype({np_compute})")
    ref += [f"    n = {scalars.get('n', 0)}", f"    L = {scalars.get('L', 0)}", f"    M = {scalars.get('M', 0)}",
            f"    N = {scalars.get('N', 0)}"]
    ref += np_index + [f"    offs_f = offs.astype({np_compute})"]
    # Always a full tile (a constant-free expression may still be narrower).
    value_tl = f"({body.tl}) + tl.zeros_like(offs_f)"
    value_np = f"({body.np}) + np.zeros_like(offs_f)"
    if loop:
        # (a stream of its own) the accumulator carried as a tuple with an
        # iteration count, rebuilt one element per statement or whole
        # (tuples are immutable); the count minus LOOP (zero) is added back,
        # so the result is unchanged
        shape = random.Random(seed * 15485863 + 16).choice([None, None, "element", "whole"])
        if shape:
            lines.append("    acc = (tl.zeros_like(offs_f), tl.zeros_like(offs_f))")
            step = ([f"        acc = (acc[0] + ({value_tl}) * i, acc[1])", "        acc = (acc[0], acc[1] + 1)"]
                    if shape == "element" else [f"        acc = (acc[0] + ({value_tl}) * i, acc[1] + 1)"])
        else:
            lines.append("    acc = tl.zeros_like(offs_f)")
            step = [f"        acc = acc + ({value_tl}) * i"]
        if while_loop:
            lines.append("    i = 0")
            lines.append("    while i < LOOP:")
            lines += step
            lines.append("        i += 1")
        else:
            lines.append("    for i in range(LOOP):")
            lines += step
        if shape:
            lines.append("    acc = acc[0] + (acc[1] - LOOP)")
        ref.append("    acc = np.zeros_like(offs_f)")
        ref.append(f"    for i in range({constexprs['LOOP']}):")
        ref.append(f"        acc = acc + ({value_np}) * {np_compute}(i)")
        value_tl, value_np = "acc", "acc"
    if flag:
        lines.append(f"    v = {value_tl}")
        lines.append("    if FLAG:")
        lines.append("        v = v + 1")
        lines.append("    else:")
        lines.append("        v = v - 1")
        step = "1" if constexprs["FLAG"] else "-1"
        ref.append(f"    v = ({value_np}) + {np_compute}({step})")
        value_tl, value_np = "v", "v"
    if runtime_if:
        scalar = "n" if "n" in scalars else "M"
        threshold = rng.randint(0, 2 * scalars[scalar])
        lines.append(f"    u = {value_tl}")
        lines.append(f"    if {scalar} > {threshold}:")
        lines.append("        u = u * 2")
        lines.append("    else:")
        lines.append("        u = u - 3")
        taken = scalars[scalar] > threshold
        ref.append(f"    u = ({value_np}) * {np_compute}(2)" if taken else f"    u = ({value_np}) - {np_compute}(3)")
        value_tl, value_np = "u", "u"
    # (a stream of its own) a walk: the first input read again through a
    # tensor of pointers that a loop advances by one step a turn (a
    # constexpr, or the runtime row length), the reads past the array's end
    # masked; their sum is added to the value
    walk = random.Random(seed * 15485863 + 18)
    if walk.random() < 0.25:
        x = names[0]
        numel = {1: "n", 2: "M * N", 3: "L * M * N"}[rank]
        steps = walk.randint(1, 4)
        if rank > 1 and walk.random() < 0.5:
            step, step_np = "N", "N"
        else:
            step = step_np = str(walk.randint(1, 64))
        lines += [f"    wp = {x}_ptr + offs",
                  "    wsum = tl.zeros_like(offs_f)",
                  f"    for j in range({steps}):",
                  f"        wsum += tl.load(wp, mask=mask & (offs + j * {step} < {numel}), other={other}).to({compute})",
                  f"        wp += {step}"]
        ref += [f"    xf = {x}.reshape(-1)",
                "    wsum = np.zeros_like(offs_f)",
                f"    for j in range({steps}):",
                f"        idx = offs + j * {step_np}",
                f"        wsum = wsum + np.where(idx < {numel}, xf[np.minimum(idx, {numel} - 1)], 0).astype(offs_f.dtype)"]
        value_tl, value_np = f"({value_tl}) + wsum", f"({value_np}) + wsum"
    # (a stream of its own) the tile through a reshape and a permutation
    # and back, doubled on the way: layouts through tt.reshape and tt.trans
    shuffle = random.Random(seed * 15485863 + 17)
    if shuffle.random() < 0.2:
        tile = ([constexprs["BLOCK"]] if rank == 1 else [constexprs["BM"], constexprs["BN"]] if rank == 2
                else [constexprs["BL"], constexprs["BM"], constexprs["BN"]])
        lines += _shape_round_trip(shuffle, value_tl, tile)
        ref.append(f"    s = ({value_np}) * {np_compute}(2)")
        value_tl, value_np = "s", "s"
    store_dtype = TL_DTYPE[dtype]
    full_np = f"np.broadcast_to(np.asarray({value_np}), {shape_in}).astype({np_compute})"
    if atomic:
        lines.append(f"    tl.atomic_add(hist_ptr + (offs % 7), ({value_tl}).to(tl.int32), mask=mask)")
        ref.append("    hist = np.zeros(7, np.int32)")
        ref.append(f"    np.add.at(hist, (offs % 7).ravel(), {full_np}.ravel().astype(np.int32))")
    extra = ", 'hist_ptr': hist" if atomic else ""
    if reduce_op is None:
        lines.append(f"    tl.store(out_ptr + offs, ({value_tl}).to({store_dtype}), mask=mask)")
        if skipped is None:
            ref.append(f"    return {{'out_ptr': {np_cast(full_np, dtype)}{extra}}}")
        else:
            block0 = constexprs.get("BLOCK") or constexprs.get("BL") or constexprs["BM"]
            ref.append(f"    out = np.array({np_cast(full_np, dtype)})")
            ref.append(f"    out[{skipped * block0}:{(skipped + 1) * block0}] = {poison(dtype)!r}".replace("nan", "np.nan"))
            ref.append("    return {'out_ptr': out}")
        outputs = [("out_ptr", out_shape, dtype)]
    else:
        # The masked elements must never win: the compute type's extremes
        # (a finite bound once lost to a large value in a row).
        extreme = {"int32": "2147483647", "int64": "9223372036854775807"}.get(
            compute_dtype(dtype), 'float("inf")')
        neutral = {"sum": "0", "cumsum": "0", "max": "-" + extreme, "min": extreme}[reduce_op]
        if kind == "float" and reduce_op in ("sum", "cumsum"):
            neutral += ".0"
        lines.append(f"    v_r = tl.where(mask, {value_tl}, {neutral})")
        # The axis whose whole extent one program holds (see the grid above).
        axis = axis3 if rank == 3 else 1 if grid[1] == 1 else 0
        if reduce_op == "cumsum":
            lines.append(f"    r = tl.cumsum(v_r, axis={axis})")
            lines.append(f"    tl.store(out_ptr + offs, r.to({store_dtype}), mask=mask)")
            ref.append(f"    r = np.cumsum({full_np}, axis={axis}).astype({np_compute})")
            outputs = [("out_ptr", out_shape, dtype)]
        else:
            lines.append(f"    r = tl.{reduce_op}(v_r, axis={axis})")
            if rank == 3:
                # the other two axes index the output (kept = their d-vectors and sizes)
                (p, sp), (q, sq) = [(f"d{d}", "LMN"[d]) for d in range(3) if d != axis]
                lines.append(f"    tl.store(out_ptr + {p}[:, None] * {sq} + {q}[None, :], r.to({store_dtype}), "
                             f"mask=({p}[:, None] < {sp}) & ({q}[None, :] < {sq}))")
                outputs = [("out_ptr", tuple(d for a, d in enumerate(shape_in) if a != axis), dtype)]
            elif axis == 1:
                lines.append(f"    tl.store(out_ptr + rows, r.to({store_dtype}), mask=rows < M)")
                outputs = [("out_ptr", (scalars["M"],), dtype)]
            else:
                lines.append(f"    tl.store(out_ptr + cols, r.to({store_dtype}), mask=cols < N)")
                outputs = [("out_ptr", (scalars["N"],), dtype)]
            # tl.max / tl.min drop a NaN against a number (max.f32, arith.maxnumf),
            # as np.fmax / np.fmin do; np.max would carry it
            np_reduce = {"sum": "np.sum", "max": "np.fmax.reduce", "min": "np.fmin.reduce"}[reduce_op]
            ref.append(f"    r = {np_reduce}({full_np}, axis={axis}).astype({np_compute})")
        ref.append(f"    return {{'out_ptr': {np_cast('r', dtype)}{extra}}}")
    if atomic:
        outputs.append(("hist_ptr", (7,), "int32"))
    lines.append("")
    rtol, atol = ((0.0, 0.0) if kind == "int" else (1e-2, 1e-2) if dtype == "float16"
                  else (2e-2, 2e-2) if dtype == "bfloat16" else (1e-7, 1e-7) if dtype == "float64"
                  else (1e-4, 1e-4))
    if reduce_op in ("sum", "cumsum") and kind == "float":
        rtol, atol = rtol * 10 + 1e-3, atol * 10 + 1e-3
    inputs = [(f"{nm}_ptr", shape_in, dtype) for nm in names]
    if row_vector:
        inputs.append(("w_ptr", (scalars["N"],), dtype))
    return Program(seed=seed, source="\n".join(lines), signature=signature, constexprs=constexprs,
                   num_warps=num_warps, grid=grid, inputs=inputs, outputs=outputs, scalars=scalars,
                   reference="\n".join(ref) + "\n", rtol=rtol, atol=atol,
                   zero_outputs=("hist_ptr",) if atomic else ())


def _generate_dot(seed: int, rng: random.Random) -> Program:
    """A matmul tile: C[BM, BN] = A[M, K] @ B[K, N] over a K loop with masked
    tails, fp16 (or fp32) inputs, an fp32 accumulator, and an element-wise
    epilogue from the expression builder; grid over the M and N tiles.  From
    streams of their own: K a multiple of the block with rows and columns
    masked only; pointers carried by the loop and advanced (tutorial 03);
    `tl.range(..., num_stages=)`; a cache or eviction hint on A."""
    choice = rng.random()
    if choice < 0.3:
        return _generate_block_pointer_dot(seed, rng)
    if choice < 0.45:
        return _generate_attention(seed, rng)
    if random.Random(seed * 15485863 + 11).random() < 0.35:  # (a stream of its own: see the docstring)
        return _generate_scaled_dot(seed, random.Random(seed * 15485863 + 12))
    dtype = rng.choice(["float16", "float16", "float32"])
    bm, bn, bk = (rng.choice([16, 32, 64]) for _ in range(3))
    m, n, k = rng.randint(1, 3 * bm), rng.randint(1, 3 * bn), rng.randint(1, 3 * bk)
    # About a third (a stream of its own): K rounded up to a multiple of BK,
    # and the loads mask only rows and columns, masks the K loop never changes.
    whole_k = random.Random(seed * 15485863 + 13).random() < 0.35
    if whole_k:
        k = bk * ((k + bk - 1) // bk)
    a_mask = "rows[:, None] < M" if whole_k else "(rows[:, None] < M) & ((k0 + ks)[None, :] < K)"
    b_mask = "cols[None, :] < N" if whole_k else "((k0 + ks)[:, None] < K) & (cols[None, :] < N)"
    # (another stream) tutorial 03's form: pointers carried by the K loop and
    # advanced each iteration; a per-loop stage count; a cache or eviction hint
    form = random.Random(seed * 15485863 + 15)
    carried = form.random() < 0.4
    loop_stages = form.choice([None, None, 1, 2, 4])
    hint = form.choice(["", "", ', cache_modifier=".cg"', ', eviction_policy="evict_last"'])
    k_loop = (f"    for k0 in tl.range(0, K, BK, num_stages={loop_stages}):" if loop_stages
              else "    for k0 in range(0, K, BK):")
    if carried:
        k_body = ["    a_ptrs = a_ptr + rows[:, None] * K + ks[None, :]",
                  "    b_ptrs = b_ptr + ks[:, None] * N + cols[None, :]",
                  k_loop,
                  f"        a = tl.load(a_ptrs, mask={a_mask}, other=0.0{hint})",
                  f"        b = tl.load(b_ptrs, mask={b_mask}, other=0.0)",
                  f"        acc = tl.dot(a, b, acc, input_precision=\"{{precision}}\")",
                  "        a_ptrs += BK",
                  "        b_ptrs += BK * N"]
    else:
        k_body = [k_loop,
                  "        a = tl.load(a_ptr + rows[:, None] * K + (k0 + ks)[None, :],",
                  f"                    mask={a_mask}, other=0.0{hint})",
                  "        b = tl.load(b_ptr + (k0 + ks)[:, None] * N + cols[None, :],",
                  f"                    mask={b_mask}, other=0.0)",
                  f"        acc = tl.dot(a, b, acc, input_precision=\"{{precision}}\")"]
    num_warps = rng.choice([1, 2, 4, 8])
    precision = "ieee" if dtype == "float32" else "tf32"
    sig = SIG_DTYPE[dtype]
    signature = {"a_ptr": f"*{sig}", "b_ptr": f"*{sig}", "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32"}
    builder = _Builder(rng, "float", [_Expr("acc", "acc"), _Expr("col_f", "col_f")])
    epilogue = builder.expr(rng.randint(0, 2))
    lines = ["import tritium as triton", "import tritium.language as tl", "", "@triton.jit",
             "def kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):",
             "    rows = tl.program_id(0) * BM + tl.arange(0, BM)",
             "    cols = tl.program_id(1) * BN + tl.arange(0, BN)",
             "    ks = tl.arange(0, BK)",
             "    acc = tl.zeros((BM, BN), dtype=tl.float32)"] + [
             line.replace("{precision}", precision) for line in k_body] + [
             "    col_f = (cols[None, :] + rows[:, None] * 0).to(tl.float32)",
             f"    out = ({epilogue.tl}) + tl.zeros_like(acc)",
             "    tl.store(c_ptr + rows[:, None] * N + cols[None, :], out,",
             "             mask=(rows[:, None] < M) & (cols[None, :] < N))", ""]
    ref = ["import numpy as np", ""] + BF16_HELPER + ["def reference(arrays):",
           "    acc = arrays['a_ptr'].astype(np.float64) @ arrays['b_ptr'].astype(np.float64)",
           "    acc = acc.astype(np.float32)",
           f"    col_f = np.broadcast_to(np.arange({n}, dtype=np.float32)[None, :], ({m}, {n}))",
           f"    out = np.broadcast_to(np.asarray({epilogue.np}), ({m}, {n})).astype(np.float32)",
           "    return {'c_ptr': out}", ""]
    # fp16 products are exact in fp32; the sum order differs: relative to the
    # largest value.  fp32 inputs on FMAs (ieee) likewise.
    return Program(seed=seed, source="\n".join(lines), signature=signature,
                   constexprs={"BM": bm, "BN": bn, "BK": bk}, num_warps=num_warps,
                   grid=((m + bm - 1) // bm, (n + bn - 1) // bn),
                   inputs=[("a_ptr", (m, k), dtype), ("b_ptr", (k, n), dtype)],
                   outputs=[("c_ptr", (m, n), "float32")], scalars={"M": m, "N": n, "K": k},
                   reference="\n".join(ref), rtol=2e-3, atol=2e-3)


# tl.dot_scaled's operand formats: the bytes in storage, and (for the
# numpy reference) how a byte decodes.  fp8 bytes that are NaN or inf are
# zeroed by the kernel itself (`FP8_FINITE`), as a user's kernel would
# sanitize them; e8m0 scales are folded into 2^(120..135 - 127).
FP8_FINITE = {"e4m3": ("127", "127"), "e5m2": ("124", "124")}  # (mask, value): (b & mask) == value is not finite
SCALED_DECODE = [
    "E2M1 = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0])",
    "",
    "def decode(x, fmt, packed_axis):",
    "    if fmt == 'bf16':",
    "        return x.astype(np.float64)",
    "    x = x.astype(np.int64)",
    "    if fmt == 'e2m1':",
    "        pair = np.stack([E2M1[x & 15], E2M1[x >> 4]], axis=packed_axis + 1)",
    "        shape = list(x.shape)",
    "        shape[packed_axis] *= 2",
    "        return pair.reshape(shape)",
    "    e_bits, m_bits, bias, mask = (4, 3, 7, 127) if fmt == 'e4m3' else (5, 2, 15, 124)",
    "    x = np.where((x & mask) == mask, 0, x)",
    "    sign = np.where(x >> 7, -1.0, 1.0)",
    "    e = (x >> m_bits) & ((1 << e_bits) - 1)",
    "    m = (x & ((1 << m_bits) - 1)).astype(np.float64) / (1 << m_bits)",
    "    return sign * np.where(e == 0, m * 2.0 ** (1 - bias), (1 + m) * 2.0 ** (e - bias))",
    "",
    "def scales(s):",
    "    return np.repeat(2.0 ** (((s.astype(np.int64) & 15) + 120) - 127), 32, axis=1)",
    "",
]


def _generate_scaled_dot(seed: int, rng: random.Random) -> Program:
    """A microscaled matmul tile: tl.dot_scaled over a K loop, one operand
    in an MX format (e2m1 packed two per byte along K, e4m3 or e5m2) with
    its e8m0 scales, the other bf16 or unscaled fp8, M and N cut by masks."""
    mx = rng.choice(["e2m1", "e4m3", "e5m2"])
    normal = rng.choice(["bf16", "e4m3", "e5m2"])
    mx_lhs = rng.random() < 0.5
    fa, fb = (mx, normal) if mx_lhs else (normal, mx)
    bm, bn = rng.choice([32, 64]), rng.choice([32, 64])
    bk, kt = rng.choice([64, 128]), rng.choice([1, 2])
    m, n, k = rng.randint(1, 2 * bm), rng.randint(1, 2 * bn), kt * bk
    num_warps = rng.choice([4, 8])
    pack_a, pack_b = (2 if fa == "e2m1" else 1), (2 if fb == "e2m1" else 1)
    store = {"bf16": "bfloat16"}
    sig = {f: ("*bf16" if f == "bf16" else "*u8") for f in (fa, fb)}
    signature = {"a_ptr": sig[fa], "b_ptr": sig[fb], "s_ptr": "*u8", "c_ptr": "*fp32", "M": "i32", "N": "i32"}

    def sanitize(name, fmt):
        if fmt not in FP8_FINITE:
            return []
        mask, value = FP8_FINITE[fmt]
        return [f"        {name} = tl.where(({name} & {mask}) == {value}, 0, {name}).to(tl.uint8)"]

    rows_s = "rows" if mx_lhs else "cols"
    lines = ["import tritium as triton", "import tritium.language as tl", "", "@triton.jit",
             "def kernel(a_ptr, b_ptr, s_ptr, c_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,",
             "           KT: tl.constexpr):",
             "    rows = tl.program_id(0) * BM + tl.arange(0, BM)",
             "    cols = tl.program_id(1) * BN + tl.arange(0, BN)",
             "    acc = tl.zeros((BM, BN), dtype=tl.float32)",
             "    for kt in range(KT):",
             f"        ka = kt * (BK // {pack_a}) + tl.arange(0, BK // {pack_a})",
             f"        a = tl.load(a_ptr + rows[:, None] * (KT * BK // {pack_a}) + ka[None, :], mask=rows[:, None] < M,",
             "                    other=0)"] + sanitize("a", fa) + [
             f"        kb = kt * (BK // {pack_b}) + tl.arange(0, BK // {pack_b})",
             "        b = tl.load(b_ptr + kb[:, None] * N + cols[None, :], mask=cols[None, :] < N, other=0)"
             ] + sanitize("b", fb) + [
             "        ks = kt * (BK // 32) + tl.arange(0, BK // 32)",
             f"        s = tl.load(s_ptr + {rows_s}[:, None] * (KT * BK // 32) + ks[None, :],",
             f"                    mask={rows_s}[:, None] < {'M' if mx_lhs else 'N'}, other=0)",
             "        s = ((s & 15) + 120).to(tl.uint8)",
             f"        acc = tl.dot_scaled(a, {'s' if mx_lhs else 'None'}, '{fa}', b, {'None' if mx_lhs else 's'}, "
             f"'{fb}', acc)",
             "    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc, mask=(rows[:, None] < M) & (cols[None, :] < N))",
             ""]
    ref = ["import numpy as np", ""] + SCALED_DECODE + [
        "def reference(arrays):",
        f"    a = decode(arrays['a_ptr'], '{fa}', 1)",
        f"    b = decode(arrays['b_ptr'], '{fb}', 0)",
        f"    f = scales(arrays['s_ptr'])",
        f"    {'a = a * f' if mx_lhs else 'b = b * f.T'}",
        "    return {'c_ptr': (a @ b).astype(np.float32)}", ""]
    inputs = [("a_ptr", (m, k // pack_a), store.get(fa, "uint8")), ("b_ptr", (k // pack_b, n), store.get(fb, "uint8")),
              ("s_ptr", ((m if mx_lhs else n), k // 32), "uint8")]
    # every product is exact in fp32 (bf16 values times powers of two); the
    # sums' order differs: relative to the largest value
    return Program(seed=seed, source="\n".join(lines), signature=signature,
                   constexprs={"BM": bm, "BN": bn, "BK": bk, "KT": kt}, num_warps=num_warps,
                   grid=((m + bm - 1) // bm, (n + bn - 1) // bn), inputs=inputs,
                   outputs=[("c_ptr", (m, n), "float32")], scalars={"M": m, "N": n},
                   reference="\n".join(ref), rtol=1e-3, atol=1e-3)


def _generate_block_pointer_dot(seed: int, rng: random.Random) -> Program:
    """A matmul tile over block pointers: A[M, K] and B[K, N] stored row- or
    column-major (the block pointer's `order`), loaded with boundary checks
    and zero padding as tl.advance moves them along K, C[M, N] (fp32 or the
    input type) stored through a block pointer with boundary checks.  Each
    dimension is a multiple of 16 more often than not: then the JIT knows
    the row strides' alignment and, on Hopper, the tiles move by TMA."""
    dtype = rng.choice(["float16", "bfloat16"])
    bm, bn, bk = rng.choice([32, 64, 128]), rng.choice([32, 64, 128]), rng.choice([16, 32, 64])

    def size(block):
        return 16 * rng.randint(1, max(1, 2 * block // 16)) if rng.random() < 0.6 else rng.randint(1, 2 * block)
    m, n, k = size(bm), size(bn), size(bk)
    a_col, b_col = rng.random() < 0.3, rng.random() < 0.4
    out = rng.choice(["float32", dtype])

    def block_ptr(name, rows, cols, column_major, stride, offsets, block):
        strides, order = (f"(1, {stride})", "(0, 1)") if column_major else (f"({stride}, 1)", "(1, 0)")
        return (f"tl.make_block_ptr({name}, shape=({rows}, {cols}), strides={strides}, offsets={offsets}, "
                f"block_shape={block}, order={order})")
    lines = ["import tritium as triton", "import tritium.language as tl", "", "@triton.jit",
             "def kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_a, stride_b, stride_c, BM: tl.constexpr, "
             "BN: tl.constexpr, BK: tl.constexpr):",
             "    pm = tl.program_id(0)",
             "    pn = tl.program_id(1)",
             f"    a_blk = {block_ptr('a_ptr', 'M', 'K', a_col, 'stride_a', '(pm * BM, 0)', '(BM, BK)')}",
             f"    b_blk = {block_ptr('b_ptr', 'K', 'N', b_col, 'stride_b', '(0, pn * BN)', '(BK, BN)')}",
             "    acc = tl.zeros((BM, BN), dtype=tl.float32)",
             "    for k0 in range(0, K, BK):",
             "        a = tl.load(a_blk, boundary_check=(0, 1), padding_option=\"zero\")",
             "        b = tl.load(b_blk, boundary_check=(0, 1), padding_option=\"zero\")",
             "        acc = tl.dot(a, b, acc)",
             "        a_blk = tl.advance(a_blk, (0, BK))",
             "        b_blk = tl.advance(b_blk, (BK, 0))",
             f"    c_blk = {block_ptr('c_ptr', 'M', 'N', False, 'stride_c', '(pm * BM, pn * BN)', '(BM, BN)')}",
             f"    tl.store(c_blk, acc.to({TL_DTYPE[out]}), boundary_check=(0, 1))", ""]
    a = "arrays['a_ptr'].T" if a_col else "arrays['a_ptr']"
    b = "arrays['b_ptr'].T" if b_col else "arrays['b_ptr']"
    ref = ["import numpy as np", ""] + BF16_HELPER + ["def reference(arrays):",
           f"    acc = {a}.astype(np.float64) @ {b}.astype(np.float64)",
           f"    return {{'c_ptr': {np_cast('acc.astype(np.float32)', out)}}}", ""]
    scalars = {"M": m, "N": n, "K": k, "stride_a": m if a_col else k, "stride_b": k if b_col else n,
               "stride_c": n}
    attrs = {p: [["tt.divisibility", 16]] for p in ("a_ptr", "b_ptr", "c_ptr")}
    attrs.update({p: [["tt.divisibility", 16]] for p, v in scalars.items() if v % 16 == 0})
    rtol = {"float32": 2e-3, "float16": 4e-3, "bfloat16": 2e-2}[out]
    return Program(seed=seed, source="\n".join(lines),
                   signature={"a_ptr": f"*{SIG_DTYPE[dtype]}", "b_ptr": f"*{SIG_DTYPE[dtype]}",
                              "c_ptr": f"*{SIG_DTYPE[out]}", "M": "i32", "N": "i32", "K": "i32",
                              "stride_a": "i32", "stride_b": "i32", "stride_c": "i32"},
                   constexprs={"BM": bm, "BN": bn, "BK": bk}, num_warps=rng.choice([4, 8]),
                   grid=((m + bm - 1) // bm, (n + bn - 1) // bn),
                   inputs=[("a_ptr", (k, m) if a_col else (m, k), dtype), ("b_ptr", (n, k) if b_col else (k, n), dtype)],
                   outputs=[("c_ptr", (m, n), out)], scalars=scalars,
                   reference="\n".join(ref), rtol=rtol, atol=rtol, attrs=attrs)


def _generate_attention(seed: int, rng: random.Random) -> Program:
    """A flash-attention tile: O[BM rows] = softmax(Q K^T * scale) V over
    blocks of BN keys with the online softmax (running maximum and sum,
    the accumulator rescaled each block), keys past N masked to -inf (and,
    causal, keys after the query); Q, K, V and O of fp16 or bf16 through
    pointers, block pointers (K read through its transposed view, order
    (0, 1)) or host tensor descriptors (K transposed after its load; in
    half of those V read transposed and transposed back at the dot, as
    tutorial 06's backward reads q); 2 or 3 stages (with 2, TMA copies of K
    and V land on barriers of their own).  Four in ten are the backward's dK/dV
    tile instead (_generate_attention_backward).  Both choices are drawn
    from streams of their own, so that the other programs stay as they
    were."""
    if random.Random(seed * 104729 + 7).random() < 0.4:  # (a stream of its own: see the docstring)
        return _generate_attention_backward(seed, random.Random(seed * 104729 + 8))
    dtype = rng.choice(["float16", "bfloat16"])
    d = rng.choice([16, 32, 64])
    bm, bn = rng.choice([16, 32, 64, 128]), rng.choice([16, 32, 64])
    m, n = rng.randint(1, 3 * bm), rng.randint(1, 3 * bn)
    causal = rng.random() < 0.4
    access = rng.choice(["pointers", "block pointers", "descriptors"])
    scale = 1.0 / d ** 0.5
    tl_dtype = TL_DTYPE[dtype]
    v_use = "v"
    if access == "descriptors":
        params = "q_desc, k_desc, v_desc, o_desc"
        load_q = "    q = q_desc.load([pid * BM, 0])"
        setup = []
        load_k = "        k = k_desc.load([start, 0]).T"
        load_v = "        v = v_desc.load([start, 0])"
        if random.Random(seed * 7919 + 3).random() < 0.5:
            load_v, v_use = "        vT = v_desc.load([start, 0]).T", "tl.trans(vT)"
        advance = []
        store = f"    o_desc.store([pid * BM, 0], out.to({tl_dtype}))"
    elif access == "block pointers":
        params = "q_ptr, k_ptr, v_ptr, o_ptr"
        setup = ["    q_blk = tl.make_block_ptr(q_ptr, (M, D), (D, 1), (pid * BM, 0), (BM, D), (1, 0))",
                 "    k_blk = tl.make_block_ptr(k_ptr, (D, N), (1, D), (0, 0), (D, BN), (0, 1))",
                 "    v_blk = tl.make_block_ptr(v_ptr, (N, D), (D, 1), (0, 0), (BN, D), (1, 0))",
                 "    o_blk = tl.make_block_ptr(o_ptr, (M, D), (D, 1), (pid * BM, 0), (BM, D), (1, 0))"]
        load_q = "    q = tl.load(q_blk, boundary_check=(0,), padding_option=\"zero\")"
        load_k = "        k = tl.load(k_blk, boundary_check=(1,), padding_option=\"zero\")"
        load_v = "        v = tl.load(v_blk, boundary_check=(0,), padding_option=\"zero\")"
        advance = ["        k_blk = tl.advance(k_blk, (0, BN))", "        v_blk = tl.advance(v_blk, (BN, 0))"]
        store = f"    tl.store(o_blk, out.to({tl_dtype}), boundary_check=(0,))"
    else:
        params = "q_ptr, k_ptr, v_ptr, o_ptr"
        setup = []
        load_q = "    q = tl.load(q_ptr + rows[:, None] * D + dims[None, :], mask=rows[:, None] < M, other=0.0)"
        load_k = ("        k = tl.load(k_ptr + cols[None, :] * D + dims[:, None], mask=cols[None, :] < N, "
                  "other=0.0)")
        load_v = ("        v = tl.load(v_ptr + cols[:, None] * D + dims[None, :], mask=cols[:, None] < N, "
                  "other=0.0)")
        advance = []
        store = (f"    tl.store(o_ptr + rows[:, None] * D + dims[None, :], out.to({tl_dtype}), "
                 "mask=rows[:, None] < M)")
    valid = "(cols[None, :] < N)" + (" & (cols[None, :] <= rows[:, None])" if causal else "")
    lines = ["import tritium as triton", "import tritium.language as tl", "", "@triton.jit",
             f"def kernel({params}, M, N, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):",
             "    pid = tl.program_id(0)",
             "    rows = pid * BM + tl.arange(0, BM)",
             "    dims = tl.arange(0, D)"] + setup + [
             load_q,
             "    m_i = tl.full((BM,), float(\"-inf\"), tl.float32)",
             "    l_i = tl.zeros((BM,), tl.float32)",
             "    acc = tl.zeros((BM, D), tl.float32)",
             "    for start in range(0, N, BN):",
             "        cols = start + tl.arange(0, BN)",
             load_k,
             f"        s = tl.where({valid}, tl.dot(q, k) * {scale!r}, float(\"-inf\"))",
             "        m_new = tl.maximum(m_i, tl.max(s, 1))",
             "        p = tl.exp(s - m_new[:, None])",
             "        alpha = tl.exp(m_i - m_new)",
             "        l_i = l_i * alpha + tl.sum(p, 1)",
             load_v,
             f"        acc = tl.dot(p.to({v_use.replace('tl.trans(', '').rstrip(')')}.dtype), {v_use}, "
             "acc * alpha[:, None])",
             "        m_i = m_new"] + advance + [
             "    out = acc / l_i[:, None]",
             store, ""]
    names = ["q_desc", "k_desc", "v_desc", "o_desc"] if access == "descriptors" else ["q_ptr", "k_ptr", "v_ptr",
                                                                                     "o_ptr"]
    ref = ["import numpy as np", ""] + BF16_HELPER + ["def reference(arrays):",
           f"    q, k, v = (arrays[name].astype(np.float64) for name in {names[:3]!r})",
           f"    s = q @ k.T * {scale!r}",
           (f"    s = np.where(np.arange({n})[None, :] <= np.arange({m})[:, None], s, -np.inf)" if causal
            else "    pass"),
           "    p = np.exp(s - s.max(axis=1, keepdims=True))",
           "    out = (p / p.sum(axis=1, keepdims=True)) @ v",
           f"    return {{{names[3]!r}: {np_cast('out.astype(np.float32)', dtype)}}}", ""]
    sig = SIG_DTYPE[dtype]
    if access == "descriptors":
        blocks = {"q_desc": (bm, d), "k_desc": (bn, d), "v_desc": (bn, d), "o_desc": (bm, d)}
        signature = {name: f"tensordesc<{sig}[{b[0]},{b[1]}]>" for name, b in blocks.items()}
    else:
        blocks = {}
        signature = {name: f"*{sig}" for name in names}
    signature.update({"M": "i32", "N": "i32"})
    attrs = {name: [["tt.divisibility", 16]] for name in names if access != "descriptors"}
    attrs.update({p: [["tt.divisibility", 16]] for p, v in (("M", m), ("N", n)) if v % 16 == 0})
    # p is rounded to the input type before P @ V, as in every flash attention
    rtol = {"float16": 5e-3, "bfloat16": 3e-2}[dtype]
    return Program(seed=seed, source="\n".join(lines), signature=signature,
                   constexprs={"BM": bm, "BN": bn, "D": d}, num_warps=rng.choice([4, 8]),
                   num_stages=rng.choice([2, 3]), grid=((m + bm - 1) // bm,),
                   inputs=[(names[0], (m, d), dtype), (names[1], (n, d), dtype), (names[2], (n, d), dtype)],
                   outputs=[(names[3], (m, d), dtype)], scalars={"M": m, "N": n},
                   reference="\n".join(ref), rtol=rtol, atol=rtol, descriptors=blocks, attrs=attrs)


def _generate_attention_backward(seed: int, rng: random.Random) -> Program:
    """Tutorial 06's dK/dV tile: a program per block of BN keys walks the
    queries BM at a time; with P^T = exp2(K Q^T * scale - m), dV += P^T dO
    and dK += (P^T * (V dO^T - Di)) Q, P^T and dS^T rounded to the input
    type before their products; queries past M (and, causal, before the
    key) masked out of P^T.  Q is read transposed (pointer arithmetic, a
    block pointer over its transposed view, or tl.trans of a descriptor
    load) and used again as tl.trans(qT); dO likewise as tl.trans(do).
    Q, K, V, dO of fp16 or bf16; m, Di and the fp32 outputs through
    pointers, or the outputs through descriptors."""
    dtype = rng.choice(["float16", "bfloat16"])
    d = rng.choice([16, 32, 64])
    bm, bn = rng.choice([16, 32, 64]), rng.choice([16, 32, 64])
    m, n = rng.randint(1, 4 * bm), rng.randint(1, 2 * bn)
    causal = rng.random() < 0.4
    access = rng.choice(["pointers", "block pointers", "descriptors"])
    tl_dtype = TL_DTYPE[dtype]
    # inputs are N(0, 4): scale keeps K Q^T * scale near N(0, 1), and
    # dp_scale V dO^T near N(0, 1/4), so that dS^T stays far inside fp16
    scale, dp_scale = 0.25 / d ** 0.5, 0.0625 / d ** 0.5
    if access == "descriptors":
        params = "q_desc, k_desc, v_desc, do_desc, m_ptr, di_ptr, dk_desc, dv_desc"
        setup = []
        load_k = "    k = k_desc.load([pid * BN, 0])"
        load_v = "    v = v_desc.load([pid * BN, 0])"
        load_qt = "        qT = tl.trans(q_desc.load([start, 0]))"
        load_do = "        do = do_desc.load([start, 0])"
        advance = []
        store = ["    dk_desc.store([pid * BN, 0], dk)", "    dv_desc.store([pid * BN, 0], dv)"]
    elif access == "block pointers":
        params = "q_ptr, k_ptr, v_ptr, do_ptr, m_ptr, di_ptr, dk_ptr, dv_ptr"
        setup = ["    qT_blk = tl.make_block_ptr(q_ptr, (D, M), (1, D), (0, 0), (D, BM), (0, 1))",
                 "    do_blk = tl.make_block_ptr(do_ptr, (M, D), (D, 1), (0, 0), (BM, D), (1, 0))"]
        load_k = "    k = tl.load(k_ptr + cols[:, None] * D + dims[None, :], mask=cols[:, None] < N, other=0.0)"
        load_v = "    v = tl.load(v_ptr + cols[:, None] * D + dims[None, :], mask=cols[:, None] < N, other=0.0)"
        load_qt = "        qT = tl.load(qT_blk, boundary_check=(1,), padding_option=\"zero\")"
        load_do = "        do = tl.load(do_blk, boundary_check=(0,), padding_option=\"zero\")"
        advance = ["        qT_blk = tl.advance(qT_blk, (0, BM))", "        do_blk = tl.advance(do_blk, (BM, 0))"]
        store = ["    tl.store(dk_ptr + cols[:, None] * D + dims[None, :], dk, mask=cols[:, None] < N)",
                 "    tl.store(dv_ptr + cols[:, None] * D + dims[None, :], dv, mask=cols[:, None] < N)"]
    else:
        params = "q_ptr, k_ptr, v_ptr, do_ptr, m_ptr, di_ptr, dk_ptr, dv_ptr"
        setup = []
        load_k = "    k = tl.load(k_ptr + cols[:, None] * D + dims[None, :], mask=cols[:, None] < N, other=0.0)"
        load_v = "    v = tl.load(v_ptr + cols[:, None] * D + dims[None, :], mask=cols[:, None] < N, other=0.0)"
        load_qt = ("        qT = tl.load(q_ptr + rows[None, :] * D + dims[:, None], mask=rows[None, :] < M, "
                   "other=0.0)")
        load_do = ("        do = tl.load(do_ptr + rows[:, None] * D + dims[None, :], mask=rows[:, None] < M, "
                   "other=0.0)")
        advance = []
        store = ["    tl.store(dk_ptr + cols[:, None] * D + dims[None, :], dk, mask=cols[:, None] < N)",
                 "    tl.store(dv_ptr + cols[:, None] * D + dims[None, :], dv, mask=cols[:, None] < N)"]
    keep = "(rows[None, :] < M)" + (" & (rows[None, :] >= cols[:, None])" if causal else "")
    lines = ["import tritium as triton", "import tritium.language as tl", "", "@triton.jit",
             f"def kernel({params}, M, N, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):",
             "    pid = tl.program_id(0)",
             "    cols = pid * BN + tl.arange(0, BN)",
             "    dims = tl.arange(0, D)"] + setup + [
             load_k, load_v,
             "    dk = tl.zeros((BN, D), tl.float32)",
             "    dv = tl.zeros((BN, D), tl.float32)",
             "    for start in range(0, M, BM):",
             "        rows = start + tl.arange(0, BM)",
             load_qt,
             "        m = tl.load(m_ptr + rows, mask=rows < M, other=0.0)",
             f"        pT = tl.where({keep}, tl.math.exp2(tl.dot(k, qT) * {scale!r} - m[None, :]), 0.0)",
             load_do,
             f"        dv += tl.dot(pT.to({tl_dtype}), do)",
             "        di = tl.load(di_ptr + rows, mask=rows < M, other=0.0)",
             f"        dsT = pT * (tl.dot(v, tl.trans(do)) * {dp_scale!r} - di[None, :])",
             f"        dk += tl.dot(dsT.to({tl_dtype}), tl.trans(qT))"] + advance + store + [""]
    names = (["q_desc", "k_desc", "v_desc", "do_desc"] if access == "descriptors"
             else ["q_ptr", "k_ptr", "v_ptr", "do_ptr"])
    outs = ["dk_desc", "dv_desc"] if access == "descriptors" else ["dk_ptr", "dv_ptr"]
    rnd = (lambda v: f"bf16({v}).astype(np.float64)") if dtype == "bfloat16" else \
        (lambda v: f"({v}).astype(np.float16).astype(np.float64)")
    ref = ["import numpy as np", ""] + BF16_HELPER + ["def reference(arrays):",
           f"    q, k, v, do = (arrays[name].astype(np.float64) for name in {names!r})",
           "    m, di = arrays['m_ptr'].astype(np.float64), arrays['di_ptr'].astype(np.float64)",
           f"    pT = np.exp2(k @ q.T * {scale!r} - m[None, :])",
           (f"    pT = np.where(np.arange({m})[None, :] >= np.arange({n})[:, None], pT, 0.0)" if causal
            else "    pass"),
           f"    dv = {rnd('pT')} @ do",
           f"    dk = {rnd(f'pT * (v @ do.T * {dp_scale!r} - di[None, :])')} @ q",
           f"    return {{{outs[0]!r}: dk.astype(np.float32), {outs[1]!r}: dv.astype(np.float32)}}", ""]
    sig = SIG_DTYPE[dtype]
    if access == "descriptors":
        blocks = {"q_desc": (bm, d), "k_desc": (bn, d), "v_desc": (bn, d), "do_desc": (bm, d),
                  "dk_desc": (bn, d), "dv_desc": (bn, d)}
        signature = {name: f"tensordesc<{sig}[{b[0]},{b[1]}]>" for name, b in blocks.items() if name in names}
        signature.update({"m_ptr": "*fp32", "di_ptr": "*fp32"})
        signature.update({name: f"tensordesc<fp32[{bn},{d}]>" for name in outs})
    else:
        blocks = {}
        signature = {name: f"*{sig}" for name in names}
        signature.update({"m_ptr": "*fp32", "di_ptr": "*fp32", "dk_ptr": "*fp32", "dv_ptr": "*fp32"})
    signature.update({"M": "i32", "N": "i32"})
    pointers = [name for name in signature if name.endswith("_ptr")]
    attrs = {name: [["tt.divisibility", 16]] for name in pointers}
    attrs.update({p: [["tt.divisibility", 16]] for p, v in (("M", m), ("N", n)) if v % 16 == 0})
    rtol = {"float16": 5e-3, "bfloat16": 3e-2}[dtype]
    return Program(seed=seed, source="\n".join(lines), signature=signature,
                   constexprs={"BM": bm, "BN": bn, "D": d}, num_warps=rng.choice([4, 8]),
                   grid=((n + bn - 1) // bn,),
                   inputs=[(names[0], (m, d), dtype), (names[1], (n, d), dtype), (names[2], (n, d), dtype),
                           (names[3], (m, d), dtype), ("m_ptr", (m,), "float32"), ("di_ptr", (m,), "float32")],
                   outputs=[(outs[0], (n, d), "float32"), (outs[1], (n, d), "float32")],
                   scalars={"M": m, "N": n}, reference="\n".join(ref), rtol=rtol, atol=rtol,
                   descriptors=blocks, attrs=attrs)


def _generate_descriptor(seed: int, rng: random.Random) -> Program:
    """Tiles through host tensor descriptors: a block of x (rank 1 or 2, any
    of the four dtypes, the array's edges cut through by the grid) loaded
    with desc.load, an element-wise expression of it in the compute type,
    stored with desc.store; or a matmul whose A and B tiles are descriptor
    loads over a K loop (fp16 or bf16, an fp32 accumulator stored as fp32 or
    in the input type; 8 to 256 columns), one program per tile or a few programs over all
    tiles in a flattened persistent loop (sometimes storing each tile's
    index at the top of the tile, sometimes computing the tile's
    coordinates inside the K loop), either loop sometimes marked
    warp_specialize (a TMA producer warp on Hopper), 2 to 4 stages (tutorial 09's
    128x256x64 tile at 4, or persistent at 3 over K loops of up to 6 steps).  Rows are multiples of 16
    bytes, as tensor maps need; blocks past the edges read zeros and store
    nothing."""
    if rng.random() < 0.3:
        bm, bn, bk = rng.choice([64, 128]), rng.choice([32, 64, 128, 256]), rng.choice([32, 64])
        if bn == 256 and rng.random() < 0.5:
            bm, bk = 128, 64  # tutorial 09's tile
        m, n, k = rng.randint(1, 2 * bm), 8 * rng.randint(1, 2 * bn // 8), 8 * rng.randint(1, 3 * bk // 8)
        # (a stream of its own, so the other draws stay as they were) a
        # narrow tile: 8 or 16 columns, whose rows of 16 or 32 bytes TMA
        # moves unswizzled or 32-byte swizzled
        narrow = random.Random(seed * 15485863 + 16)
        if (bm, bn, bk) != (128, 256, 64) and narrow.random() < 0.3:
            bn = narrow.choice([8, 16])
            n = 8 * narrow.randint(1, 2 * bn // 8 + 1)
        dtype = rng.choice(["float16", "bfloat16"])
        # the tile stored as the accumulator (fp32) or in the input type (the
        # 16-bit epilogue: stmatrix into the TMA store's tile)
        out = rng.choice(["float32", dtype])
        # persistent: a few programs over all the tiles in one flattened loop
        programs = rng.choice([None, None, 1, 2, 3, 5])
        # or warp-specialized: the persistent tile loop, or the K loop of a
        # program per tile, marked warp_specialize (a producer warp on Hopper)
        specialize = rng.random() < 0.3
        # (a stream of its own) a persistent loop may record each tile's
        # index at the top of the tile, and may compute the tile's
        # coordinates inside the K loop
        extra = random.Random(seed * 15485863 + 14)
        record = programs is not None and extra.random() < 0.4
        inline = programs is not None and extra.random() < 0.4
        # (a stream of its own) tutorial 09's tile, persistent and flattened,
        # as the bench runs it: 3 stages, 8 warps, stored in the input type;
        # the next tile's K loop writes and stores it a 64-column slab per K
        # step (DeferTileStore.cpp), over K loops of 1 to 6 steps (all four
        # slabs in the loop, or some left to the epilogue)
        slabbed = random.Random(seed * 15485863 + 17)
        deferred = ((bm, bn, bk) == (128, 256, 64) and programs is not None and not specialize
                    and slabbed.random() < 0.5)
        if deferred:
            out = dtype
            k = 8 * slabbed.randint(1, 6 * bk // 8)
        header = ("def kernel(a_desc, b_desc, c_desc, " + ("seen_ptr, " if record else "")
                  + "M, N, K, BM: tl.constexpr, BN: tl.constexpr, "
                  "BK: tl.constexpr" + (", PROGRAMS: tl.constexpr):" if programs else "):"))
        pm_k, pn_k = ("(t // tiles_n)", "(t % tiles_n)") if inline else ("pm", "pn")
        tile = ["    acc = tl.zeros((BM, BN), dtype=tl.float32)",
                ("    for k0 in tl.range(0, K, BK, warp_specialize=True):" if specialize and not programs
                 else "    for k0 in range(0, K, BK):"),
                f"        acc = tl.dot(a_desc.load([{pm_k} * BM, k0]), b_desc.load([k0, {pn_k} * BN]), acc)",
                f"    c_desc.store([pm * BM, pn * BN], acc.to({TL_DTYPE[out]}))"]
        if programs:
            body = (["    tiles_n = tl.cdiv(N, BN)",
                     "    for t in tl.range(tl.program_id(0), tl.cdiv(M, BM) * tiles_n, PROGRAMS, "
                     + ("warp_specialize=True):" if specialize else "flatten=True):")]
                    + (["        tl.store(seen_ptr + t, t)"] if record else [])
                    + ["        pm = t // tiles_n",
                       "        pn = t % tiles_n"] + ["    " + line for line in tile])
        else:
            body = ["    pm = tl.program_id(0)", "    pn = tl.program_id(1)"] + tile
        lines = ["import tritium as triton", "import tritium.language as tl", "", "@triton.jit", header] + body + [""]
        tiles = ((m + bm - 1) // bm) * ((n + bn - 1) // bn)
        seen = f", 'seen_ptr': np.arange({tiles}, dtype=np.int32)" if record else ""
        ref = ["import numpy as np", ""] + BF16_HELPER + ["def reference(arrays):",
               "    acc = arrays['a_desc'].astype(np.float64) @ arrays['b_desc'].astype(np.float64)",
               f"    return {{'c_desc': {np_cast('acc.astype(np.float32)', out)}{seen}}}", ""]
        rtol = {"float32": 2e-3, "float16": 4e-3, "bfloat16": 2e-2}[out]
        # 4 stages of 128x256 tiles leave no room for the whole output tile
        # beside the ring: the epilogue stores it a slab at a time
        stages = 4 if (bm, bn, bk) == (128, 256, 64) else rng.choice([2, 3, 3, 4])
        warps = rng.choice([4, 8])
        if deferred:
            stages, warps = 3, 8
        return Program(seed=seed, source="\n".join(lines),
                       signature=dict({"a_desc": f"tensordesc<{SIG_DTYPE[dtype]}[{bm},{bk}]>",
                                       "b_desc": f"tensordesc<{SIG_DTYPE[dtype]}[{bk},{bn}]>",
                                       "c_desc": f"tensordesc<{SIG_DTYPE[out]}[{bm},{bn}]>"},
                                      **({"seen_ptr": "*i32"} if record else {}),
                                      **{"M": "i32", "N": "i32", "K": "i32"}),
                       constexprs=dict({"BM": bm, "BN": bn, "BK": bk}, **({"PROGRAMS": programs} if programs else {})),
                       num_warps=warps, num_stages=stages,
                       grid=(programs,) if programs else ((m + bm - 1) // bm, (n + bn - 1) // bn),
                       inputs=[("a_desc", (m, k), dtype), ("b_desc", (k, n), dtype)],
                       outputs=[("c_desc", (m, n), out)] + ([("seen_ptr", (tiles,), "int32")] if record else []),
                       scalars={"M": m, "N": n, "K": k},
                       reference="\n".join(ref), rtol=rtol, atol=rtol,
                       descriptors={"a_desc": (bm, bk), "b_desc": (bk, bn), "c_desc": (bm, bn)})
    dtype = rng.choice(["float32", "float16", "int32", "int8"])
    kind = "int" if dtype.startswith("int") else "float"
    compute = "int32" if kind == "int" else "float32"
    size = {"float32": 4, "float16": 2, "int32": 4, "int8": 1}[dtype]
    rank = rng.choice([1, 2])
    builder = _Builder(rng, kind, [_Expr("x", "x")])
    body = builder.expr(rng.randint(1, 3))
    if rank == 1:
        block = (rng.choice([16, 32, 64, 128, 256, 512]),)
        shape = (rng.randint(1, 3 * block[0]),)
        offsets, grid = "[tl.program_id(0) * B0]", ((shape[0] + block[0] - 1) // block[0],)
    else:
        block = (rng.choice([1, 2, 8, 16, 32, 64]), rng.choice([16, 32, 64, 128]))
        # the array's rows, and so its stride, are a multiple of 16 bytes
        shape = (rng.randint(1, 3 * block[0]), (16 // size) * rng.randint(1, 3 * block[1] * size // 16))
        offsets = "[tl.program_id(0) * B0, tl.program_id(1) * B1]"
        grid = tuple((shape[d] + block[d] - 1) // block[d] for d in range(2))
    blocks = ", ".join(f"B{d}: tl.constexpr" for d in range(rank))
    lines = ["import tritium as triton", "import tritium.language as tl", "", "@triton.jit",
             f"def kernel(x_desc, out_desc, {blocks}):",
             f"    x = x_desc.load({offsets}).to({TL_DTYPE[compute]})",
             f"    out = ({body.tl}) + tl.zeros_like(x)"]
    ref = ["import numpy as np", ""] + BF16_HELPER + ["def reference(arrays):",
           f"    x = arrays['x_desc'].astype(np.{compute})",
           f"    out = np.broadcast_to(np.asarray({body.np}), x.shape).astype(np.{compute})"]
    # About one in four: the result goes through two descriptor atomics into
    # a zeroed output (out, then out * 3 + 1), as 32-bit atomics Triton
    # also runs (its 64-bit or executes an illegal instruction on the H100).
    atomic = rng.choice(["add"] if kind == "float" else ["add", "max", "min", "and", "or", "xor"]) \
        if rng.random() < 0.25 else None
    if atomic:
        combine = {"add": "a + b", "max": "np.maximum(a, b)", "min": "np.minimum(a, b)", "and": "a & b",
                   "or": "a | b", "xor": "a ^ b"}[atomic]
        lines += [f"    out_desc.atomic_{atomic}({offsets}, out)",
                  f"    out_desc.atomic_{atomic}({offsets}, out * 3 + 1)", ""]
        ref += [f"    op = lambda a, b: {combine}",
                f"    second = (out * np.{compute}(3) + np.{compute}(1)).astype(np.{compute})",
                f"    return {{'out_desc': op(op(np.zeros_like(out), out), second).astype(np.{compute})}}", ""]
    else:
        lines += [f"    out_desc.store({offsets}, out)", ""]
        ref += ["    return {'out_desc': out}", ""]
    dims = ",".join(str(b) for b in block)
    rtol, atol = (0.0, 0.0) if kind == "int" else (1e-5, 1e-5)
    return Program(seed=seed, source="\n".join(lines),
                   signature={"x_desc": f"tensordesc<{SIG_DTYPE[dtype]}[{dims}]>",
                              "out_desc": f"tensordesc<{SIG_DTYPE[compute]}[{dims}]>"},
                   constexprs={f"B{d}": b for d, b in enumerate(block)}, num_warps=rng.choice([1, 2, 4, 8]),
                   grid=grid, inputs=[("x_desc", shape, dtype)], outputs=[("out_desc", shape, compute)],
                   scalars={}, reference="\n".join(ref), rtol=rtol, atol=atol,
                   descriptors={"x_desc": block, "out_desc": block},
                   zero_outputs=("out_desc",) if atomic else ())


# ---- invalid programs -----------------------------------------------------------------------

MUTATIONS = ["undefined_name", "runtime_arange", "bad_axis", "shape_mismatch", "store_through_scalar",
             "dot_k_mismatch", "bad_dtype", "non_pow2_arange", "load_non_pointer", "bitcast_width",
             "constexpr_division_by_zero", "static_assert", "python_function", "wrong_arity_builtin",
             "reduce_scalar", "bad_keyword", "runtime_zeros_shape", "zero_step_range", "float_arange",
             "block_ptr_rank", "block_ptr_non_pow2", "block_ptr_order", "advance_rank", "block_ptr_boundary_check"]
# (the block_ptr mutations need a pointer parameter)
BLOCK_PTR_MUTATIONS = ("block_ptr_rank", "block_ptr_non_pow2", "block_ptr_order", "advance_rank",
                       "block_ptr_boundary_check")


def generate_invalid(seed: int) -> Program:
    """A valid program with one mistake planted on one line of `kernel`."""
    rng = random.Random(seed ^ 0x5EED)
    program = generate(seed)
    mutation = rng.choice(MUTATIONS)
    lines = program.source.split("\n")
    # After the loads: the element-wise programs' `offs_f = offs.to(...)`,
    # the matmul programs' `acc = tl.zeros(...)`; `var` is that tile.
    # (the descriptor programs': `x = x_desc.load(...)` or the matmul's acc;
    # the backward tile's `dk = tl.zeros(...)`)
    at = next(i for i, line in enumerate(lines)
              if line.strip().startswith(("offs_f = ", "acc = tl.zeros", "x = x_desc.load", "dk = tl.zeros")))
    var = {"o": "offs_f", "a": "acc", "x": "x", "d": "dk"}[lines[at].strip()[0]]
    scalar = next((s for s in ("n", "M", "K") if s in program.signature), None)
    if scalar is None:  # no runtime scalar: a mistake that needs none
        mutation = rng.choice([m for m in MUTATIONS if m not in
                               ("runtime_arange", "store_through_scalar", "reduce_scalar", "runtime_zeros_shape")])
    pointer = next((p for p, ty in program.signature.items() if ty.startswith("*")), None)
    if pointer is None and mutation in BLOCK_PTR_MUTATIONS:  # descriptor programs
        mutation = "undefined_name"
    block = (f"tl.make_block_ptr({pointer}, shape=(16, 16), strides=(16, 1), offsets=(0, 0), "
             "block_shape=(16, 16), order=(1, 0))")
    planted = {
        "undefined_name": f"    bad = {var} + undefined_value",
        "runtime_arange": f"    bad = tl.arange(0, {scalar})",
        "bad_axis": f"    bad = tl.sum({var}, axis=3)",
        "shape_mismatch": f"    bad = tl.reshape({var}, (3, 5))",
        "store_through_scalar": f"    tl.store({scalar}, {var})",
        "dot_k_mismatch": "    bad = tl.dot(tl.zeros((16, 32), tl.float16), tl.zeros((16, 16), tl.float16))",
        "bad_dtype": f"    bad = {var}.to(tl.float24)",
        "non_pow2_arange": "    bad = tl.arange(0, 3)",
        "load_non_pointer": f"    bad = tl.load({var})",
        "bitcast_width": f"    bad = {var}.to(tl.float16, bitcast=True)",
        "constexpr_division_by_zero": "    bad = tl.arange(0, 16 // 0)",
        "static_assert": "    tl.static_assert(1 == 2, \"planted\")",
        "python_function": "    bad = print_nothing()",
        "wrong_arity_builtin": f"    bad = tl.maximum({var})",
        "reduce_scalar": f"    bad = tl.sum({scalar}, axis=0)",
        "bad_keyword": f"    bad = tl.where({var} > 0, {var}, {var}, fill=1)",
        "runtime_zeros_shape": f"    bad = tl.zeros(({scalar},), tl.float32)",
        "zero_step_range": "    for bad in range(0, 4, 0): pass",
        "float_arange": "    bad = tl.arange(0.0, 16.0)",
        "block_ptr_rank": (f"    bad = tl.make_block_ptr({pointer}, shape=(16,), strides=(16, 1), offsets=(0,), "
                           "block_shape=(16,), order=(0,))"),
        "block_ptr_non_pow2": (f"    bad = tl.make_block_ptr({pointer}, shape=(16, 16), strides=(16, 1), "
                               "offsets=(0, 0), block_shape=(16, 12), order=(1, 0))"),
        "block_ptr_order": (f"    bad = tl.make_block_ptr({pointer}, shape=(16, 16), strides=(16, 1), "
                            "offsets=(0, 0), block_shape=(16, 16), order=(0, 0))"),
        "advance_rank": f"    bad = tl.advance({block}, (1,))",
        "block_ptr_boundary_check": f"    bad = tl.load({block}, boundary_check=(2,))",
    }[mutation]
    # at the indentation of that line (a persistent kernel's tile loop nests it)
    indent = lines[at][:len(lines[at]) - len(lines[at].lstrip())]
    lines.insert(at + 1, indent + planted.lstrip())
    return dataclasses.replace(program, source="\n".join(lines), error_line=at + 2, mutation=mutation)
