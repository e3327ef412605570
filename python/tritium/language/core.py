"""The objects a kernel computes with: `tensor` (an SSA value with a Triton
type), `constexpr` (a compile-time Python value, from compile_time.py), and
the builtins of `triton.language` that wrap `semantic`.

Builtins run only while a kernel is being compiled; calling one from plain
Python raises a clear error.
"""
from __future__ import annotations

import builtins as _py
import functools
from typing import List, Optional, Sequence

from ..compile_time import base_value, const, constexpr, constexpr_function, constexpr_type  # noqa: F401 (re-exported)
from ..dtypes import (block_type, dtype, dtype_from_signature, get_int_dtype, pointer_type,  # noqa: F401
                      tensor_descriptor_type,
                      void, int1, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float8e4nv, float8e5,
                      float8e4b8, float8e5b16, float16, bfloat16, float32, float64)
from ..runtime.jit import jit
from ..runtime.reinterpret import type_canonicalisation_dict
from . import semantic
from .semantic import SemanticError

TRITON_BUILTIN = "__triton_builtin__"


def builtin(fn):
    """Marks a function the code generator calls directly (not a @jit body)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    setattr(wrapper, TRITON_BUILTIN, True)
    return wrapper


def is_builtin(fn) -> bool:
    return getattr(fn, TRITON_BUILTIN, False)


def _cv(x):
    return x.value if isinstance(x, constexpr) else x


# Triton's names, which library code uses (a default `descending:
# tl.constexpr = tl.core.CONSTEXPR_0`, helpers unwrapping their arguments)
CONSTEXPR_0 = constexpr(0)


def _unwrap_if_constexpr(x):
    """The value of a constexpr (elementwise for lists and tuples); anything else as it is."""
    if isinstance(x, list):
        return [_unwrap_if_constexpr(e) for e in x]
    if isinstance(x, _py.tuple) and not hasattr(type(x), "_fields"):
        return _py.tuple(_unwrap_if_constexpr(e) for e in x)
    return _cv(x)


class tuple_type(_py.tuple):
    """`tl.tuple(values)`: a tuple of tensors and compile-time values, as
    @jit code builds and passes them (a Python tuple while compiling)."""
    __triton_builtin__ = True

    def __new__(cls, values=()):
        return _py.tuple.__new__(cls, values)

    def __add__(self, other):
        return tuple_type(_py.tuple(self) + _py.tuple(other))


class PropagateNan:
    """Values of the `propagate_nan` argument of minimum/maximum/clamp."""
    NONE = False
    ALL = True


def str_to_ty(name: str, c=None) -> dtype:
    """A dtype from a signature string ("fp32", "*fp16", "i32", "u8") or a
    Triton dtype name ("float32", "bfloat16", "uint8")."""
    pointer = name.startswith("*")
    base = name[1:] if pointer else name
    base = type_canonicalisation_dict.get(base, base)
    return dtype_from_signature(("*" if pointer else "") + base)


class tensor(base_value):
    """A value of a kernel: a scalar or a block, with its Triton type."""

    def __init__(self, handle, type: dtype):
        self.handle = handle
        self.type = type
        self.dtype = type.scalar
        self.shape = tuple(constexpr(s) for s in type.shape) if type.is_block() else ()
        self.numel = constexpr(type.numel) if type.is_block() else constexpr(1)

    def __repr__(self):
        return f"tensor({self.handle.name}, {self.type})"

    def __bool__(self):
        raise SemanticError("a tensor has no truth value at compile time; use it in `if` inside the kernel "
                            "(the code generator turns that into a branch) or compare it explicitly")

    # arithmetic
    def __add__(self, o): return semantic.add(self, o)
    def __radd__(self, o): return semantic.add(o, self)
    def __sub__(self, o): return semantic.sub(self, o)
    def __rsub__(self, o): return semantic.sub(o, self)
    def __mul__(self, o): return semantic.mul(self, o)
    def __rmul__(self, o): return semantic.mul(o, self)
    def __truediv__(self, o): return semantic.truediv(self, o)
    def __rtruediv__(self, o): return semantic.truediv(o, self)
    def __floordiv__(self, o): return semantic.floordiv(self, o)
    def __rfloordiv__(self, o): return semantic.floordiv(o, self)
    def __mod__(self, o): return semantic.mod(self, o)
    def __rmod__(self, o): return semantic.mod(o, self)
    def __neg__(self): return semantic.neg(self)
    def __pos__(self): return self
    def __invert__(self): return semantic.invert(self)
    def __and__(self, o): return semantic.and_(self, o)
    def __rand__(self, o): return semantic.and_(o, self)
    def __or__(self, o): return semantic.or_(self, o)
    def __ror__(self, o): return semantic.or_(o, self)
    def __xor__(self, o): return semantic.xor_(self, o)
    def __rxor__(self, o): return semantic.xor_(o, self)
    def __lshift__(self, o): return semantic.shl(self, o)
    def __rlshift__(self, o): return semantic.shl(o, self)
    def __rshift__(self, o): return semantic.shr(self, o)
    def __rrshift__(self, o): return semantic.shr(o, self)
    def __pow__(self, o):
        raise SemanticError("** is not supported on tensors; use tl.exp/log or repeated multiplication")

    # comparisons
    def __eq__(self, o): return semantic.compare("==", self, o)
    def __ne__(self, o): return semantic.compare("!=", self, o)
    def __lt__(self, o): return semantic.compare("<", self, o)
    def __le__(self, o): return semantic.compare("<=", self, o)
    def __gt__(self, o): return semantic.compare(">", self, o)
    def __ge__(self, o): return semantic.compare(">=", self, o)
    __hash__ = object.__hash__

    def logical_and(self, o): return semantic.logical_and(self, o)
    def logical_or(self, o): return semantic.logical_or(self, o)

    # indexing: x[None, :] and x[:, None] insert dimensions
    def __getitem__(self, slices):
        if not isinstance(slices, tuple):
            slices = (slices,)
        result = self
        dim = 0
        for s in slices:
            s = _cv(s)
            if s is None:
                result = semantic.expand_dims(result, dim)
                dim += 1
            elif isinstance(s, slice) and s.start is None and s.stop is None and s.step is None:
                dim += 1
            else:
                raise SemanticError(f"unsupported tensor index {s!r}: only None and ':' are allowed")
        return result

    # methods of Triton's tensor
    def to(self, dtype, fp_downcast_rounding=None, bitcast=False):
        return cast(self, dtype, fp_downcast_rounding, bitcast)

    def __getattr__(self, name):
        fn = _TENSOR_METHODS.get(name)
        if fn is None:
            raise AttributeError(f"tensor has no attribute '{name}'")
        return functools.partial(fn, self)

    @property
    def T(self):
        return trans(self)


semantic._TENSOR = tensor


# ---- builtins --------------------------------------------------------------------------

def _dtype(x) -> dtype:
    x = _cv(x)
    if not isinstance(x, dtype):
        raise SemanticError(f"expected a dtype, got {x!r}")
    return x


def _shape_list(shape) -> List[int]:
    shape = _cv(shape)
    if isinstance(shape, (int,)):
        shape = [shape]
    out = []
    for s in shape:
        s = _cv(s)
        if not isinstance(s, int):
            what = f"a runtime {s.dtype} value" if isinstance(s, tensor) else repr(s)
            raise SemanticError(f"shapes must be constexpr integers, got {what} "
                                f"(mark the parameter tl.constexpr, or use a constant)")
        out.append(s)
    return out


@builtin
def program_id(axis):
    return semantic.program_id(axis)


@builtin
def num_programs(axis):
    return semantic.num_programs(axis)


@builtin
def arange(start, end):
    return semantic.arange(start, end)


@builtin
def full(shape, value, dtype):
    shape = _shape_list(shape)
    semantic.check_shape(shape)
    return semantic.full(shape, _cv(value), _dtype(dtype))


@builtin
def zeros(shape, dtype):
    return full(shape, 0, dtype)


@builtin
def cast(input, dtype, fp_downcast_rounding=None, bitcast=False):
    dtype = _dtype(dtype)
    fp_downcast_rounding = _cv(fp_downcast_rounding)
    if _cv(bitcast):
        return semantic.bitcast(semantic.to_tensor(input), dtype)
    return semantic.cast(input, dtype, fp_downcast_rounding)


@builtin
def load(pointer, mask=None, other=None, boundary_check=(), padding_option="", cache_modifier="",
         eviction_policy="", volatile=False):
    boundary_check = _cv(boundary_check)
    return semantic.load(pointer, mask, other, boundary_check if boundary_check else None, padding_option,
                         cache_modifier, eviction_policy, volatile)


@builtin
def store(pointer, value, mask=None, boundary_check=(), cache_modifier="", eviction_policy=""):
    boundary_check = _cv(boundary_check)
    return semantic.store(pointer, value, mask, boundary_check if boundary_check else None, cache_modifier,
                          eviction_policy)


def _atomic(kind):
    @builtin
    def op(pointer, val, mask=None, sem=None, scope=None):
        return semantic.atomic_rmw(kind, pointer, val, mask, sem, scope)
    op.__name__ = f"atomic_{kind}"
    return op


atomic_add = _atomic("add")
atomic_max = _atomic("max")
atomic_min = _atomic("min")
atomic_and = _atomic("and")
atomic_or = _atomic("or")
atomic_xor = _atomic("xor")
atomic_xchg = _atomic("xchg")


@builtin
def atomic_cas(pointer, cmp, val, sem=None, scope=None):
    return semantic.atomic_cas(pointer, cmp, val, sem, scope)


@builtin
def where(condition, x, y):
    return semantic.where(condition, x, y)


@builtin
def minimum(x, y, propagate_nan=False):
    return semantic.minimum(x, y, bool(_cv(propagate_nan)))


@builtin
def maximum(x, y, propagate_nan=False):
    return semantic.maximum(x, y, bool(_cv(propagate_nan)))


@builtin
def clamp(x, min, max, propagate_nan=False):
    return semantic.clamp(x, min, max, bool(_cv(propagate_nan)))


@builtin
def reshape(input, *shape, can_reorder=False):
    if len(shape) == 1 and isinstance(_cv(shape[0]), (list, tuple)):
        shape = _cv(shape[0])
    return semantic.reshape(input, _shape_list(shape), bool(_cv(can_reorder)))


@builtin
def view(input, *shape):
    if len(shape) == 1 and isinstance(_cv(shape[0]), (list, tuple)):
        shape = _cv(shape[0])
    return semantic.reshape(input, _shape_list(shape), True)


@builtin
def ravel(x, can_reorder=False):
    return semantic.reshape(x, [x.type.numel], bool(_cv(can_reorder)))


@builtin
def permute(input, *dims):
    if len(dims) == 1 and isinstance(_cv(dims[0]), (list, tuple)):
        dims = _cv(dims[0])
    return semantic.permute(input, dims)


@builtin
def trans(input, *dims):
    if len(dims) == 1 and isinstance(_cv(dims[0]), (list, tuple)):
        dims = _cv(dims[0])
    if not dims:
        # As Triton 3.6: the last two dimensions swap (a 2-D tensor transposes).
        rank = len(input.type.shape)
        if rank < 2:
            raise SemanticError(f"trans without dims needs a tensor of rank 2 or more, got rank {rank}")
        dims = tuple(_py.range(rank - 2)) + (rank - 1, rank - 2)
    return semantic.permute(input, dims)


@builtin
def expand_dims(input, axis):
    axis = _cv(axis)
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    input = semantic.to_tensor(input)
    rank = len(input.type.shape) if input.type.is_block() else 0
    new_rank = rank + len(axes)
    normalized = []
    for a in (_cv(a) for a in axes):
        if not isinstance(a, int) or not -new_rank <= a < new_rank:
            raise semantic.SemanticError(f"invalid axis {a}. Expected {-new_rank} <= axis < {new_rank}")
        normalized.append(a + new_rank if a < 0 else a)
    if len(set(normalized)) != len(normalized):
        raise semantic.SemanticError(f"expand_dims received duplicate axes, normalized axes = {normalized}")
    for a in sorted(normalized):
        input = semantic.expand_dims(input, a)
    return input


@builtin
def broadcast(input, other):
    return semantic.broadcast_pair(semantic.to_tensor(input), semantic.to_tensor(other))


@builtin
def broadcast_to(input, *shape):
    if len(shape) == 1 and isinstance(_cv(shape[0]), (list, tuple)):
        shape = _cv(shape[0])
    return semantic.broadcast_to(semantic.to_tensor(input), _shape_list(shape))


@builtin
def join(a, b):
    return semantic.join(semantic.to_tensor(a), semantic.to_tensor(b))


@jit
def _take_first(a, b):
    return a


@builtin
def split(a):
    """The two halves of `a` along its last dimension (of size 2); a tensor
    of shape [2] gives two scalars (its halves of shape [1], reduced, as
    Triton does)."""
    if isinstance(a, tensor) and a.type.is_block() and list(a.type.shape) == [2]:
        lhs, rhs = semantic.split(semantic.reshape(a, [1, 2]))
        return reduce(lhs, 0, _take_first), reduce(rhs, 0, _take_first)
    return semantic.split(a)


@builtin
def cat(input, other, can_reorder=False):
    return semantic.cat(input, other, bool(_cv(can_reorder)))


@builtin
def dot(input, other, acc=None, input_precision=None, allow_tf32=None, max_num_imprecise_acc=None,
        out_dtype=float32):
    if allow_tf32 is not None and input_precision is None:
        input_precision = "tf32" if _cv(allow_tf32) else "ieee"
    return semantic.dot(input, other, acc, input_precision, max_num_imprecise_acc, out_dtype)


@builtin
def multiple_of(input, values):
    return semantic.multiple_of(input, _cv(values))


@builtin
def max_contiguous(input, values):
    return semantic.max_contiguous(input, _cv(values))


@builtin
def max_constancy(input, values):
    return semantic.max_constancy(input, _cv(values))


@builtin
def assume(cond):
    return semantic.assume(cond)


@builtin
def debug_barrier():
    return semantic.debug_barrier()


class tensor_descriptor:
    """A tensor descriptor inside a kernel (a host TensorDescriptor
    argument): `load` and `store` move whole blocks of `block_shape`,
    through the copy engine (TMA) on Hopper where it can move them, through
    pointers elsewhere.  Elements outside the tensor load as zero and are
    not stored."""

    def __init__(self, handle, base, shape, strides, type, leaves=None, padding="zero"):
        self.handle = handle  # the !tt.tensordesc value
        self.padding = padding  # what elements outside the tensor load as, where blocks go through pointers
        self.base = base
        self.shape = list(shape)
        self.strides = list(strides)
        self.type = type
        self._leaves = leaves

    @property
    def block_type(self):
        return self.type.block_type

    @property
    def block_shape(self):
        return [constexpr(s) for s in self.type.block_type.shape]

    @property
    def dtype(self):
        return self.type.block_type.element_ty

    def leaves(self):
        """The kernel parameters it is made of, in order (to pass it on to
        a @jit function)."""
        if self._leaves is None:
            raise SemanticError("a tensor descriptor made in the kernel (tl.make_tensor_descriptor) cannot be "
                                "passed to another @jit function yet; make it where it is used")
        return list(self._leaves)

    def load(self, offsets):
        return semantic.descriptor_load(self, offsets)

    def store(self, offsets, value):
        return semantic.descriptor_store(self, offsets, value)

    # element-wise atomics of a block with a tile (nothing is returned)
    def atomic_add(self, offsets, value):
        return semantic.descriptor_atomic("add", self, offsets, value)

    def atomic_min(self, offsets, value):
        return semantic.descriptor_atomic("min", self, offsets, value)

    def atomic_max(self, offsets, value):
        return semantic.descriptor_atomic("max", self, offsets, value)

    def atomic_and(self, offsets, value):
        return semantic.descriptor_atomic("and", self, offsets, value)

    def atomic_or(self, offsets, value):
        return semantic.descriptor_atomic("or", self, offsets, value)

    def atomic_xor(self, offsets, value):
        return semantic.descriptor_atomic("xor", self, offsets, value)

    def gather(self, *args):
        """Rows args[0] (a 1-D tensor), columns from args[1], of a 2-D
        descriptor whose block is one row."""
        if len(args) != 2:
            raise SemanticError(f"gather takes the row offsets and the column offset (2-D only), got {len(args)} "
                                "arguments")
        return semantic.descriptor_gather(self, *args)

    def scatter(self, value, *args):
        if len(args) != 2:
            raise SemanticError(f"scatter takes a value, the row offsets and the column offset (2-D only), got "
                                f"{len(args)} offset arguments")
        return semantic.descriptor_scatter(self, value, *args)

    def __repr__(self):
        return f"tensor_descriptor({self.type.block_type})"


@builtin
def make_tensor_descriptor(base, shape, strides, block_shape, padding_option="zero"):
    handle, base, shape, strides, ty = semantic.make_tensor_descriptor(base, shape, strides, block_shape,
                                                                       padding_option)
    return tensor_descriptor(handle, base, shape, strides, ty, leaves=None,
                             padding=_unwrap_if_constexpr(padding_option))


@builtin
def load_tensor_descriptor(desc, offsets):
    return desc.load(offsets)


@builtin
def store_tensor_descriptor(desc, offsets, value):
    return desc.store(offsets, value)


@builtin
def make_block_ptr(base, shape, strides, offsets, block_shape, order):
    return semantic.make_block_ptr(base, list(shape), list(strides), list(offsets), _cv(block_shape), _cv(order))


@builtin
def advance(base, offsets):
    return semantic.advance(base, list(offsets))


@builtin
def histogram(input, num_bins, mask=None):
    return semantic.histogram(input, num_bins, mask)


@builtin
def gather(src, index, axis):
    return semantic.gather(src, index, axis)


@builtin
def inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack):
    return semantic.inline_asm_elementwise(_cv(asm), _cv(constraints), list(args), _cv(dtype),
                                           bool(_cv(is_pure)), int(_cv(pack)))


def extern(fn):
    """Marks a function that calls an external library's functions through
    `extern_elementwise`, as Triton's `core.extern` does: a builtin, called
    with the caller's values while the kernel is compiled."""
    return builtin(fn)


@builtin
def extern_elementwise(lib_name, lib_path, args, arg_type_symbol_dict, is_pure, _semantic=None, _builder=None,
                       check_args=True):
    """The element-wise function of an external library (`lib_name`, the
    bitcode at `lib_path`) whose overload takes the arguments' scalar types:
    `arg_type_symbol_dict` maps a tuple of argument dtypes to the pair
    (symbol, result dtype).  Arguments are broadcast to one shape; without
    an exact overload they are brought to their common arithmetic type first
    (unless `check_args` is false), as in Triton."""
    args = [semantic.to_tensor(a) for a in args]
    if _cv(check_args):
        args = semantic.cast_to_overload(args, arg_type_symbol_dict)
    return semantic.extern_elementwise(_cv(lib_name), _cv(lib_path), args, arg_type_symbol_dict,
                                       bool(_cv(is_pure)))


@builtin
def device_print(prefix, *args, hex=False):
    return semantic.device_print(_cv(prefix), list(args), bool(_cv(hex)))


def _tensor_method(fn):
    return fn


# filled by the package once every module is loaded: name -> function(tensor, ...)
_TENSOR_METHODS = {}


def _register_tensor_methods(namespace):
    for name in ("broadcast_to", "reshape", "view", "permute", "trans", "expand_dims", "ravel", "split",
                 "sum", "max", "min", "argmax", "argmin", "xor_sum", "reduce", "cumsum", "cumprod",
                 "associative_scan", "sort", "flip", "histogram", "gather", "abs", "exp", "exp2", "log",
                 "log2", "sin", "cos", "sqrt", "rsqrt", "floor", "ceil", "erf", "sigmoid", "softmax",
                 "logical_and", "logical_or", "cast", "reduce_or", "join", "item", "topk",
                 # (Triton's tensor members too: a pointer's store and atomics, a block
                 # pointer's advance, and the rest of the math functions)
                 "store", "advance", "atomic_cas", "atomic_xchg", "atomic_add", "atomic_max", "atomic_min",
                 "atomic_and", "atomic_or", "atomic_xor", "cdiv", "fma", "umulhi", "sqrt_rn", "fdiv",
                 "div_rn"):
        if name in namespace:
            _TENSOR_METHODS[name] = namespace[name]


# ---- compile-time helpers, loops ------------------------------------------------------

@builtin
def static_assert(cond, msg=""):
    """Checked by the code generator at compile time."""
    raise SemanticError("static_assert is handled by the code generator")


@builtin
def static_print(*values, sep=" ", end="\n"):
    """Printed by the code generator at compile time."""
    raise SemanticError("static_print is handled by the code generator")


@builtin
def device_assert(cond, msg=""):
    """Checked on the device in debug mode (handled by the code generator)."""
    raise SemanticError("device_assert is handled by the code generator")


class range:
    """`for i in tl.range(start, end, step, num_stages=..., loop_unroll_factor=...)`: a
    runtime loop with options for the compiler."""

    def __init__(self, arg1, arg2=None, step=None, num_stages=None, loop_unroll_factor=None,
                 disallow_acc_multi_buffer=False, flatten=False, warp_specialize=False):
        raise SemanticError("tl.range can only be used as the iterator of a for loop in a @jit function")


class static_range:
    """`for i in tl.static_range(start, end, step)`: unrolled at compile time."""

    def __init__(self, arg1, arg2=None, step=None):
        raise SemanticError("tl.static_range can only be used as the iterator of a for loop in a @jit function")


# ---- reductions and scans ----------------------------------------------------------------

@builtin
def reduce(input, axis, combine_fn, keep_dims=False):
    """Reduces `input` (a tensor or a tuple of tensors) along `axis` with the
    @jit function `combine_fn`; axis=None reduces every element."""
    return semantic.reduce(input, _cv(axis), combine_fn, bool(_cv(keep_dims)))


@builtin
def associative_scan(input, axis, combine_fn, reverse=False):
    """Inclusive scan of `input` along `axis` with the @jit `combine_fn`."""
    return semantic.scan(input, _cv(axis), combine_fn, bool(_cv(reverse)))
