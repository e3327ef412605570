"""triton.language functions written in the language itself: reductions
with their combine functions, scans, softmax, sigmoid, argmax/argmin,
interleave, zeros_like, cdiv (flip and sort are in sorting.py).  Each is a @jit function the code
generator compiles and inlines like a user's own helper."""
from __future__ import annotations

from ..runtime.jit import jit
from . import core
from . import math as _math
from . import semantic
from .core import constexpr


# ---- compile-time helpers (Triton's private names, which libraries call) ----

@core.constexpr_function
def _log2(i):
    """floor(log2(i)) of a positive integer, 0 for i <= 1: the number of
    halvings of a power-of-two block size."""
    log2 = 0
    n = i
    while n > 1:
        n >>= 1
        log2 += 1
    return log2


@core.constexpr_function
def _is_power_of_two(i):
    return (i & (i - 1)) == 0 and i != 0


# ---- combine functions ----

@jit
def _sum_combine(a, b):
    return a + b


@jit
def _prod_combine(a, b):
    return a * b


@jit
def _max_combine(a, b):
    return core.maximum(a, b)


@jit
def _max_propagate_nan_combine(a, b):
    return core.maximum(a, b, propagate_nan=True)


@jit
def _min_combine(a, b):
    return core.minimum(a, b)


@jit
def _min_propagate_nan_combine(a, b):
    return core.minimum(a, b, propagate_nan=True)


@jit
def _first_combine(a, b):
    return a


@jit
def _xor_combine(a, b):
    return a ^ b


@jit
def _or_combine(a, b):
    return a | b


@jit
def _and_combine(a, b):
    return a & b


@jit
def _argmax_combine(value1, index1, value2, index2, tie_break_left: core.constexpr):
    # Triton's rule: the larger value wins; on a tie the lower index when
    # tie_break_left, else either (no tie test: cheaper).  NaN compares
    # false both ways, so where a NaN ends up depends on the reduction order,
    # as in Triton (torch.argmax would always pick it).
    if tie_break_left:
        take1 = (value1 > value2) | ((value1 == value2) & (index1 < index2))
    else:
        take1 = value1 > value2
    return core.where(take1, value1, value2), core.where(take1, index1, index2)


@jit
def _argmax_combine_tie_break_left(value1, index1, value2, index2):
    return _argmax_combine(value1, index1, value2, index2, True)


@jit
def _argmax_combine_tie_break_fast(value1, index1, value2, index2):
    return _argmax_combine(value1, index1, value2, index2, False)


@jit
def _argmin_combine(value1, index1, value2, index2, tie_break_left: core.constexpr):
    if tie_break_left:
        take1 = (value1 < value2) | ((value1 == value2) & (index1 < index2))
    else:
        take1 = value1 < value2
    return core.where(take1, value1, value2), core.where(take1, index1, index2)


@jit
def _argmin_combine_tie_break_left(value1, index1, value2, index2):
    return _argmin_combine(value1, index1, value2, index2, True)


@jit
def _argmin_combine_tie_break_fast(value1, index1, value2, index2):
    return _argmin_combine(value1, index1, value2, index2, False)


# ---- reductions ----

def _promote_for_sum(input, dtype):
    dtype = core._cv(dtype)
    if dtype is not None:
        return input.to(dtype)
    sca = input.dtype
    if sca.is_int() and sca.int_bitwidth < 32:
        return input.to(core.int32 if sca.is_int_signed() else core.uint32)
    if sca.is_bool():
        return input.to(core.int32)
    return input


@core.builtin
def sum(input, axis=None, keep_dims=False, dtype=None):
    input = _promote_for_sum(input, dtype)
    return core.reduce(input, axis, _sum_combine, keep_dims=keep_dims)


@core.builtin
def max(input, axis=None, return_indices=False, return_indices_tie_break_left=True, keep_dims=False,
        propagate_nan=False):
    if core._cv(return_indices):
        return argmax(input, axis, tie_break_left=return_indices_tie_break_left, keep_dims=keep_dims,
                      _return_value=True)
    fn = _max_propagate_nan_combine if core._cv(propagate_nan) else _max_combine
    return core.reduce(input, axis, fn, keep_dims=keep_dims)


@core.builtin
def min(input, axis=None, return_indices=False, return_indices_tie_break_left=True, keep_dims=False,
        propagate_nan=False):
    if core._cv(return_indices):
        return argmin(input, axis, tie_break_left=return_indices_tie_break_left, keep_dims=keep_dims,
                      _return_value=True)
    fn = _min_propagate_nan_combine if core._cv(propagate_nan) else _min_combine
    return core.reduce(input, axis, fn, keep_dims=keep_dims)


def _indices_like(input, axis):
    axis = core._cv(axis)
    shape = [core._cv(s) for s in input.shape]
    if axis is None:
        flat = core.reshape(input, [input.type.numel])
        return flat, 0, core.arange(0, input.type.numel)
    if axis < 0:
        axis += len(shape)
    idx = core.arange(0, shape[axis])
    for d in range(len(shape)):
        if d != axis:
            idx = semantic.expand_dims(idx, d)
    return input, axis, semantic.broadcast_to(idx, shape)


@core.builtin
def argmax(input, axis, tie_break_left=True, keep_dims=False, _return_value=False):
    values, axis, indices = _indices_like(input, axis)
    fn = _argmax_combine_tie_break_left if core._cv(tie_break_left) else _argmax_combine_tie_break_fast
    value, index = core.reduce((values, indices), axis, fn, keep_dims=keep_dims)
    return (value, index) if _return_value else index


@core.builtin
def argmin(input, axis, tie_break_left=True, keep_dims=False, _return_value=False):
    values, axis, indices = _indices_like(input, axis)
    fn = _argmin_combine_tie_break_left if core._cv(tie_break_left) else _argmin_combine_tie_break_fast
    value, index = core.reduce((values, indices), axis, fn, keep_dims=keep_dims)
    return (value, index) if _return_value else index


@core.builtin
def xor_sum(input, axis=None, keep_dims=False):
    if not input.dtype.is_int():
        raise core.SemanticError(f"xor_sum needs integers, got {input.dtype}")
    return core.reduce(input, axis, _xor_combine, keep_dims=keep_dims)


@core.builtin
def reduce_or(input, axis, keep_dims=False):
    return core.reduce(input, axis, _or_combine, keep_dims=keep_dims)


# ---- scans ----

@core.builtin
def cumsum(input, axis=0, reverse=False, dtype=None):
    # as in Triton, a bf16 scan runs (and returns) in fp32: rounding every
    # partial sum to 8 bits of mantissa would drift along the axis
    input = _promote_for_sum(_promote_bf16_to_fp32(input), dtype)
    return core.associative_scan(input, axis, _sum_combine, reverse)


@core.builtin
def cumprod(input, axis=0, reverse=False):
    return core.associative_scan(_promote_bf16_to_fp32(input), axis, _prod_combine, reverse)


def _promote_bf16_to_fp32(input):
    return input.to(core.float32) if input.dtype.is_bf16() else input


@core.builtin
def item(input):
    """The one element of a tensor of one element, as a scalar (Triton's
    `x.item()`; a condition of one element is read the same way)."""
    if not isinstance(input, core.tensor) or not input.type.is_block():
        return input
    if input.type.numel != 1:
        raise core.SemanticError(f"item() needs a tensor of exactly one element, got shape "
                                 f"{list(input.type.shape)}")
    return core.reduce(core.reshape(input, [1]), 0, _first_combine)


# ---- element-wise helpers ----

@jit
def cdiv(x, div):
    """ceil(x / div) for integers."""
    return (x + div - 1) // div


@jit
def sigmoid(x):
    return 1 / (1 + _math.exp(-x))


@jit
def softmax(x, ieee_rounding=False):
    z = x - max(x, 0)
    num = _math.exp(z)
    den = sum(num, 0)
    return _math.fdiv(num, den, ieee_rounding)


@jit
def zeros_like(input):
    return core.zeros(input.shape, input.dtype)


@jit
def swizzle2d(i, j, size_i, size_j, size_g):
    """Grouped ordering of a 2-D grid (as in the matmul tutorial)."""
    ij = i * size_j + j
    size_gj = size_g * size_j
    group_id = ij // size_gj
    off_i = group_id * size_g
    size_g = core.minimum(size_i - off_i, size_g)
    ij = ij % size_gj
    new_i = off_i + ij % size_g
    new_j = ij // size_g
    return new_i, new_j


@core.builtin
def interleave(a, b):
    c = core.join(a, b)
    if len(c.shape) == 1:
        return c
    return core.reshape(c, c.shape[:-2] + (c.shape[-2] * 2,))


@core.builtin
def ravel(x, can_reorder=False):
    return core.reshape(x, [x.type.numel], can_reorder=can_reorder)
