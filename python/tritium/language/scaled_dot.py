"""tl.dot_scaled: the product of two tiles in OCP microscaling (MX) formats.

An operand is e2m1 (fp4, two per byte), e4m3 or e5m2 (fp8), or bf16 /
fp16, and any operand may have a scale, as Triton takes them: [M, K //
group] for lhs, [N, K // group] for rhs, the group (32 for the MX formats,
16 for NVFP4) being K over the scale's second dimension; a scale is an
e8m0 byte (2^(s - 127); 0xFF is NaN) or a floating-point value (e4m3 for
NVFP4).

Hopper has no scaled MMA, so each operand is upcast to the compute type
(fp16 when either operand is fp16, bf16 otherwise, as Triton does on
targets without native support): fp4 unpacked from its bytes (the low
nibble is the element with the lower index along the packed axis: K, or
M / N with lhs_k_pack / rhs_k_pack False), fp8 converted, the group's
scale multiplied in (an e8m0 scale is a power of two, so exact unless the
result leaves the compute type's range), and, unless fast_math, elements
of a NaN-scaled group set to NaN.  The two upcast tiles then go to tl.dot
with an fp32 accumulator.
"""
from __future__ import annotations

from . import core
from . import semantic
from .. import dtypes as T

FORMATS = ("e2m1", "e4m3", "e5m2", "bf16", "fp16")
_FP8 = {"e4m3": T.float8e4nv, "e5m2": T.float8e5}
_PLAIN = {"bf16": T.bfloat16, "fp16": T.float16}


def _const(value, ty):
    return semantic.scalar_constant(value, ty)


def _dims(x):
    return [int(core._cv(d)) for d in x.shape]


def _unpack_e2m1(packed, axis: int, compute):
    """The fp4 values packed two per byte along `axis`, as `compute` bits:
    the result is twice as long along `axis`."""
    ty16 = T.uint16
    bits = T.bfloat16 if compute == T.bfloat16 else T.float16
    mant = 7 if bits == T.bfloat16 else 10
    bias = 127 if bits == T.bfloat16 else 15
    half = 0x3F00 if bits == T.bfloat16 else 0x3800  # 0.5, the one subnormal
    wide = packed.to(T.uint8, bitcast=True).to(ty16)

    def decode(nibble):
        sign = (nibble & _const(0x8, ty16)) << _const(12, ty16)
        exp = (nibble >> _const(1, ty16)) & _const(0x3, ty16)
        man = nibble & _const(0x1, ty16)
        normal = ((exp + _const(bias - 1, ty16)) << _const(mant, ty16)) | (man << _const(mant - 1, ty16))
        sub = core.where(man == _const(1, ty16), _const(half, ty16), _const(0, ty16))
        return core.where(exp == _const(0, ty16), sub, normal) | sign

    low = decode(wide & _const(0xF, ty16))
    high = decode(wide >> _const(4, ty16))
    pairs = core.join(low, high)  # [..., 2]: element 2i, then 2i + 1
    shape = _dims(packed)
    if axis == len(shape) - 1:
        shape[axis] *= 2
        values = core.reshape(pairs, shape)
    else:  # bring the pair next to the packed axis, then merge them
        order = list(range(axis + 1)) + [len(shape)] + list(range(axis + 1, len(shape)))
        shape[axis] *= 2
        values = core.reshape(core.permute(pairs, order), shape)
    return values.to(bits, bitcast=True)


def _scale_values(scale, compute):
    """e8m0 bytes as `compute` values 2^(s - 127) (0xFF becomes inf; the
    caller turns it into NaN)."""
    s = scale.to(T.uint8, bitcast=True)
    if compute == T.bfloat16:
        return (s.to(T.uint16) << _const(7, T.uint16)).to(T.bfloat16, bitcast=True)
    return (s.to(T.uint32) << _const(23, T.uint32)).to(T.float32, bitcast=True).to(T.float16)


def _upcast(x, scale, fmt, compute, k_axis: int, k_pack: bool, fast_math: bool, name: str):
    other = 1 - k_axis
    if fmt == "e2m1":
        values = _unpack_e2m1(x, k_axis if k_pack else other, compute)
    elif fmt in _FP8:
        values = x.to(_FP8[fmt], bitcast=True).to(compute)
    else:
        values = x.to(compute)
    if scale is None:
        return values
    shape = _dims(values)
    k = shape[k_axis]
    rows, groups = _dims(scale) if len(scale.shape) == 2 else (None, None)
    if rows != shape[other] or not groups or k % groups:
        raise core.SemanticError(f"dot_scaled: {name}_scale must have shape [{shape[other]}, K // group] "
                                 f"([{'M' if k_axis else 'N'}, K // group], K = {k}) for a {name} of {shape}, "
                                 f"got {_dims(scale)}")
    group = k // groups
    e8m0 = scale.dtype in (T.uint8, T.int8)
    s = _scale_values(scale, compute) if e8m0 else scale.to(compute)
    nan = scale.to(T.uint8, bitcast=True) == _const(0xFF, T.uint8) if e8m0 else s != s
    if k_axis == 1:  # lhs [M, K]: groups along the last axis
        grouped = core.reshape(values, [shape[0], groups, group])
        factor = core.expand_dims(s, 2)
        nan_group = core.expand_dims(nan, 2)
    else:  # rhs [K, N], scale [N, K // group]
        grouped = core.reshape(values, [groups, group, shape[1]])
        factor = core.expand_dims(core.permute(s, [1, 0]), 1)
        nan_group = core.expand_dims(core.permute(nan, [1, 0]), 1)
    scaled = grouped * factor
    if not fast_math:
        scaled = core.where(nan_group, _const(float("nan"), compute), scaled)
    return core.reshape(scaled, shape)


def _check(x, scale, fmt, name):
    fmt = core._cv(fmt)
    if fmt not in FORMATS:
        raise core.SemanticError(f"dot_scaled: {name}_format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    if not isinstance(x, core.tensor) or len(x.shape) != 2:
        raise core.SemanticError(f"dot_scaled: {name} must be a 2-D tensor")
    dtype = x.dtype
    if fmt == "e2m1":
        ok = dtype == T.uint8 or dtype == T.int8
    elif fmt in _FP8:
        ok = dtype in (T.uint8, T.int8, _FP8[fmt])
    else:
        ok = dtype == _PLAIN[fmt]
    if not ok:
        expect = "uint8 (two fp4 per byte)" if fmt == "e2m1" else (
            f"uint8 or {_FP8[fmt]}" if fmt in _FP8 else str(_PLAIN[fmt]))
        raise core.SemanticError(f"dot_scaled: a {fmt} {name} must hold {expect}, got {dtype}")
    if scale is not None:
        if not isinstance(scale, core.tensor) or not (scale.dtype in (T.uint8, T.int8) or scale.dtype.is_floating()):
            raise core.SemanticError(f"dot_scaled: {name}_scale must be a uint8 tensor of e8m0 exponents "
                                     f"or a floating-point tensor")
    return fmt


@core.builtin
def dot_scaled(lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format, acc=None, fast_math=False, lhs_k_pack=True,
               rhs_k_pack=True, out_dtype=core.float32):
    lhs_scale, rhs_scale, acc = core._cv(lhs_scale), core._cv(rhs_scale), core._cv(acc)
    fa = _check(lhs, lhs_scale, lhs_format, "lhs")
    fb = _check(rhs, rhs_scale, rhs_format, "rhs")
    compute = T.float16 if "fp16" in (fa, fb) else T.bfloat16
    fast = bool(core._cv(fast_math))
    a = _upcast(lhs, lhs_scale, fa, compute, 1, bool(core._cv(lhs_k_pack)), fast, "lhs")
    b = _upcast(rhs, rhs_scale, fb, compute, 0, bool(core._cv(rhs_k_pack)), fast, "rhs")
    ka, kb = _dims(a)[1], _dims(b)[0]
    if ka != kb:
        raise core.SemanticError(f"dot_scaled: K of lhs ({ka} after unpacking) and of rhs ({kb}) differ")
    return core.dot(a, b, acc, out_dtype=out_dtype)
