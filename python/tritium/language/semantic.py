"""The semantics of Triton's operations: type promotion, broadcasting,
pointer arithmetic, and the TTIR each operation becomes.

Every function takes and returns `core.tensor`s and writes ops through the
current builder (set by the code generator for the duration of a compile).
A user mistake raises `SemanticError`; the code generator reports it at the
kernel's source line.
"""
from __future__ import annotations

import math
import numbers
import threading
import warnings
from typing import List, Optional, Sequence, Tuple

from .. import dtypes as T
from .. import ir
from ..compile_time import constexpr
from ..dtypes import SemanticError, block_type, dtype, pointer_type  # noqa: F401 (SemanticError: re-exported)


_state = threading.local()


def builder() -> ir.Builder:
    b = getattr(_state, "builder", None)
    if b is None:
        raise SemanticError("triton.language functions can only be called inside a @jit function")
    return b


def warn_at_user_line(message: str):
    """A UserWarning located at the kernel line being compiled."""
    loc = getattr(builder(), "loc", None) if getattr(_state, "builder", None) is not None else None
    if loc is not None:
        warnings.warn_explicit(message, UserWarning, loc.file, loc.line)
    else:
        warnings.warn(message, UserWarning, stacklevel=3)


def set_builder(b: Optional[ir.Builder]) -> Optional[ir.Builder]:
    previous = getattr(_state, "builder", None)
    _state.builder = b
    return previous


# core.tensor, whose operators call the functions of this module: core
# imports this module and sets it when it loads.
_TENSOR = None


def _tensor(handle, ty):
    return _TENSOR(handle, ty)


def _is_tensor(x) -> bool:
    return isinstance(x, _TENSOR)


def _unwrap_constexpr(x):
    while isinstance(x, constexpr):
        x = x.value
    return x


# ---- constants ----------------------------------------------------------------

def _int_type_for(value: int) -> dtype:
    if -2**31 <= value < 2**31:
        return T.int32
    if 2**31 <= value < 2**32:
        return T.uint32
    if -2**63 <= value < 2**63:
        return T.int64
    if 0 <= value < 2**64:
        return T.uint64
    raise SemanticError(f"integer {value} does not fit in 64 bits")


def _float_type_for(value: float) -> dtype:
    """float32 for a Python float that float32 holds without overflow or
    going subnormal (zero, infinities and NaN included), else float64 (as
    Triton types `1e50` or `1e-40`)."""
    magnitude = abs(value)
    if magnitude in (0.0, float("inf")) or value != value or 2.0**-126 <= magnitude <= (2 - 2.0**-23) * 2.0**127:
        return T.float32
    return T.float64


def literal(value, ty: dtype) -> str:
    """The MLIR attribute literal of a Python number in scalar type `ty`."""
    if ty.name == "fp8e4b15":  # no MLIR type: its values are i8 bit patterns
        bits = _fp8e4b15_bits(float(value))
        return str(bits - 256 if bits >= 128 else bits)  # MLIR prints i8 as signed
    if ty.is_floating():
        return ir.float_literal(float(value), ty.to_ir())
    if ty.is_bool():
        return "true" if value else "false"
    value = int(value)
    bits = ty.int_bitwidth
    value &= (1 << bits) - 1
    if value >= 1 << (bits - 1):  # MLIR prints signless ints as signed
        value -= 1 << bits
    return str(value)


def _fp8e4b15_bits(x: float) -> int:
    """The fp8e4b15 encoding of `x`: a sign bit, 4 exponent bits of bias 15
    and 3 mantissa bits (an fp16 below 2 with its top exponent bit and low 7
    mantissa bits dropped), no infinities or NaNs; rounded to nearest even,
    saturated at +-1.875."""
    if x != x or x in (math.inf, -math.inf):
        raise SemanticError(f"fp8e4b15 has no infinities or NaNs, got {x}")
    sign = 0x80 if math.copysign(1.0, x) < 0 else 0
    a = abs(x)
    if a < 2.0 ** -14:  # subnormal: the code counts units of 2^-17
        code = round(a / 2.0 ** -17)
    else:
        e = math.frexp(a)[1] - 1  # a = m * 2^e, 1 <= m < 2
        code = (e + 15) * 8 + round((a / 2.0 ** e - 1.0) * 8)  # a mantissa of 8 carries into the exponent
    return sign | min(code, 0x7F)


def scalar_constant(value, ty: dtype):
    b = builder()
    text = literal(value, ty) if ty.is_bool() else f"{literal(value, ty)} : {ty.to_ir()}"  # `true` is typed
    return _tensor(b.constant(text, ty.to_ir()), ty)


def full(shape: Sequence[int], value, ty: dtype):
    """A tensor of `shape` filled with a Python number or a scalar tensor."""
    shape = [int(s) for s in shape]
    _check_target_fp8(ty, conversion=False)
    if _is_tensor(value):
        value = cast(value, ty)
        if not shape:
            return value
        return splat(value, shape)
    if not shape:
        return scalar_constant(value, ty)
    bty = block_type(ty, shape)
    b = builder()
    return _tensor(b.constant(f"dense<{literal(value, ty)}> : {bty.to_ir()}", bty.to_ir()), bty)


def to_tensor(x, like_type: Optional[dtype] = None):
    """A Python number or constexpr as a scalar tensor."""
    x = _unwrap_constexpr(x)
    if _is_tensor(x):
        return x
    if isinstance(x, bool):
        return scalar_constant(x, T.int1)
    if isinstance(x, numbers.Integral):
        return scalar_constant(int(x), like_type or _int_type_for(int(x)))
    if isinstance(x, numbers.Real):
        return scalar_constant(float(x), like_type or _float_type_for(float(x)))
    raise SemanticError(f"cannot convert {x!r} of type {type(x).__name__} to a tensor")


# ---- program ids ----------------------------------------------------------------

def _check_axis(axis, what: str) -> int:
    axis = _unwrap_constexpr(axis)
    if axis not in (0, 1, 2):
        raise SemanticError(f"{what} axis must be 0, 1, or 2 but got {axis}")  # Triton's words
    return axis


def program_id(axis):
    axis = _check_axis(axis, "program_id")
    return _tensor(builder().create1("tt.get_program_id", [], "i32", {"axis": ir.i32_attr(axis)}), T.int32)


def num_programs(axis):
    axis = _check_axis(axis, "num_programs")
    return _tensor(builder().create1("tt.get_num_programs", [], "i32", {"axis": ir.i32_attr(axis)}), T.int32)


# ---- shapes -------------------------------------------------------------------

def _shape(x) -> List[int]:
    return list(x.type.shape) if x.type.is_block() else []


def _is_pow2(n: int) -> bool:
    return n > 0 and (n & (n - 1)) == 0


def check_shape(shape: Sequence[int]):
    """Every dimension of a tensor is a power of 2 (Triton's rule and words)."""
    for i, s in enumerate(shape):
        if not _is_pow2(s):
            raise SemanticError(f"Shape element {i} must be a power of 2", f"got shape {list(shape)}")


def arange(start, end):
    start, end = _unwrap_constexpr(start), _unwrap_constexpr(end)
    if not isinstance(start, int) or not isinstance(end, int):
        raise SemanticError("arange's arguments must be constexpr integers "
                            f"(got {type(start).__name__} and {type(end).__name__})")
    if start < 0 or end <= start:
        raise SemanticError(f"arange needs 0 <= start < end, got start={start}, end={end}")
    if not _is_pow2(end - start):
        raise SemanticError("arange's range must be a power of 2", f"got end - start = {end - start}")
    if end > 2**31:
        raise SemanticError("arange's end must fit in int32")
    ty = block_type(T.int32, [end - start])
    b = builder()
    return _tensor(b.create1("tt.make_range", [], ty.to_ir(),
                             {"start": ir.i32_attr(start), "end": ir.i32_attr(end)}), ty)


def splat(x, shape: Sequence[int]):
    if x.type.is_block():
        raise SemanticError("cannot splat a block tensor")
    ty = block_type(x.type, shape)
    return _tensor(builder().create1("tt.splat", [x.handle], ty.to_ir()), ty)


def expand_dims(x, axis: int):
    if not x.type.is_block():
        return splat(x, [1])
    shape = _shape(x)
    if not -len(shape) - 1 <= axis <= len(shape):
        raise SemanticError(f"expand_dims axis {axis} is out of range for a rank-{len(shape)} tensor")
    if axis < 0:
        axis += len(shape) + 1
    new_shape = shape[:axis] + [1] + shape[axis:]
    ty = block_type(x.type.scalar, new_shape)
    return _tensor(builder().create1("tt.expand_dims", [x.handle], ty.to_ir(),
                                     {"axis": ir.i32_attr(axis)}), ty)


def broadcast_to(x, shape: Sequence[int]):
    shape = [int(s) for s in shape]
    if not x.type.is_block():
        return splat(x, shape)
    src = _shape(x)
    if src == shape:
        return x
    if len(src) != len(shape):
        raise SemanticError(f"cannot broadcast a tensor of shape {src} to shape {shape}: ranks differ")
    for i, (a, b) in enumerate(zip(src, shape)):
        if a != b and a != 1:
            raise SemanticError(f"cannot broadcast a tensor of shape {src} to shape {shape}: "
                                f"dimension {i} is {a}, not 1 or {b}")
    ty = block_type(x.type.scalar, shape)
    return _tensor(builder().create1("tt.broadcast", [x.handle], ty.to_ir()), ty)


def broadcast_shapes(a: Sequence[int], b: Sequence[int]) -> List[int]:
    a, b = list(a), list(b)
    while len(a) < len(b):
        a.insert(0, 1)
    while len(b) < len(a):
        b.insert(0, 1)
    out = []
    for i, (x, y) in enumerate(zip(a, b)):
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            raise SemanticError(f"shapes {list(a)} and {list(b)} do not broadcast: "
                                f"dimension {i} is {x} in one and {y} in the other")
    return out


def broadcast_pair(lhs, rhs):
    """Both operands brought to one shape: scalars splat, missing leading
    dimensions are added, size-1 dimensions repeat."""
    ls, rs = lhs.type.is_block(), rhs.type.is_block()
    if not ls and not rs:
        return lhs, rhs
    if not ls:
        return splat(lhs, _shape(rhs)), rhs
    if not rs:
        return lhs, splat(rhs, _shape(lhs))
    shape = broadcast_shapes(_shape(lhs), _shape(rhs))
    while len(_shape(lhs)) < len(shape):
        lhs = expand_dims(lhs, 0)
    while len(_shape(rhs)) < len(shape):
        rhs = expand_dims(rhs, 0)
    return broadcast_to(lhs, shape), broadcast_to(rhs, shape)


def reshape(x, shape: Sequence[int], can_reorder: bool = False):
    shape = [int(_unwrap_constexpr(s)) for s in shape]
    numel = 1
    for s in shape:
        numel *= s
    if not x.type.is_block():
        x = splat(x, [1])
    if numel != x.type.numel:
        raise SemanticError(f"cannot reshape a tensor of {x.type.numel} elements "
                            f"(shape {_shape(x)}) to shape {shape}")
    check_shape(shape)
    ty = block_type(x.type.scalar, shape)
    attrs = {"allow_reorder": "unit"} if can_reorder else None
    return _tensor(builder().create1("tt.reshape", [x.handle], ty.to_ir(), attrs), ty)


def permute(x, dims: Sequence[int]):
    dims = [int(_unwrap_constexpr(d)) for d in dims]
    shape = _shape(x)
    if sorted(dims) != list(range(len(shape))):
        raise SemanticError(f"permute's dims {dims} are not a permutation of 0..{len(shape) - 1}")
    ty = block_type(x.type.scalar, [shape[d] for d in dims])
    return _tensor(builder().create1("tt.trans", [x.handle], ty.to_ir(),
                                     {"order": ir.i32_array_attr(dims)}), ty)


def join(a, b):
    a, b = broadcast_pair(a, b)
    if a.type != b.type:
        raise SemanticError(f"join needs operands of one type, got {a.type} and {b.type}")
    if not a.type.is_block():
        a, b = splat(a, [1]), splat(b, [1])
        joined = join(a, b)
        return reshape(joined, [2])
    ty = block_type(a.type.scalar, _shape(a) + [2])
    return _tensor(builder().create1("tt.join", [a.handle, b.handle], ty.to_ir()), ty)


def split(x):
    """The halves of a tensor of rank 2 or more along its last dimension
    (core.split makes the two scalars of a tensor of shape [2])."""
    shape = _shape(x)
    if not shape or shape[-1] != 2:
        raise SemanticError(f"split needs a tensor whose last dimension is 2, got shape {shape}")
    if len(shape) == 1:
        raise SemanticError("split of a tensor of shape [2] gives two scalars: tl.split makes them")
    ty = block_type(x.type.scalar, shape[:-1])
    lhs, rhs = builder().create("tt.split", [x.handle], [ty.to_ir(), ty.to_ir()])
    return _tensor(lhs, ty), _tensor(rhs, ty)


def cat(a, b, can_reorder: bool = False):
    if a.type != b.type or not a.type.is_block():
        raise SemanticError(f"cat needs two tensors of one type, got {a.type} and {b.type}")
    shape = _shape(a)
    ty = block_type(a.type.scalar, [shape[0] * 2] + shape[1:])
    return _tensor(builder().create1("tt.cat", [a.handle, b.handle], ty.to_ir()), ty)


# ---- casts ----------------------------------------------------------------------

def _with_scalar(ty: dtype, scalar: dtype) -> dtype:
    return block_type(scalar, ty.shape) if ty.is_block() else scalar


def _check_target_fp8(*types: dtype, conversion: bool):
    """fp8 formats of other targets: AMD's fnuz pair is refused in any use
    (as Triton refuses it on NVIDIA GPUs); fp8e4b15 may be loaded, stored,
    filled and bitcast, but not converted, and warns from sm_90 on (where
    Triton deprecates it)."""
    for t in types:
        if t.name in ("fp8e4b8", "fp8e5b16") or (conversion and t.name in dtype.FOREIGN_FP8_TYPES):
            raise SemanticError(f"type {t.name} not supported in this architecture. The supported fp8 dtypes "
                                "are ('fp8e4nv', 'fp8e5')")
        if t.name == "fp8e4b15" and builder().arch >= 90:
            warn_at_user_line("fp8e4b15 is deprecated in this architecture and will be removed in a future "
                              "release; use fp8e4nv")


def bitcast(x, dst: dtype):
    src_sca = x.type.scalar
    if src_sca == dst:
        return x
    _check_target_fp8(src_sca, dst, conversion=False)
    if src_sca.primitive_bitwidth != dst.primitive_bitwidth:
        raise SemanticError(f"cannot bitcast {src_sca} ({src_sca.primitive_bitwidth} bits) to "
                            f"{dst} ({dst.primitive_bitwidth} bits)")
    ty = _with_scalar(x.type, dst)
    if src_sca.is_ptr() != dst.is_ptr() or src_sca.to_ir() != dst.to_ir():
        return _tensor(builder().create1("tt.bitcast", [x.handle], ty.to_ir()), ty)
    return _tensor(x.handle, ty)  # e.g. int32 <-> uint32: same MLIR type


def cast(x, dst: dtype, fp_downcast_rounding: Optional[str] = None):
    """Triton's `.to(dst)`: value conversion between numbers and pointers."""
    x = to_tensor(x)
    src = x.type.scalar
    if isinstance(dst, block_type):
        dst = dst.scalar
    if src == dst:
        return x
    ty = _with_scalar(x.type, dst)
    t = ty.to_ir()
    b = builder()
    if fp_downcast_rounding is not None and not (src.is_floating() and dst.is_floating()
                                                 and dst.primitive_bitwidth < src.primitive_bitwidth):
        raise SemanticError("fp_downcast_rounding applies only to float-to-narrower-float casts")
    _check_target_fp8(src, dst, conversion=True)
    # same MLIR type (int32 <-> uint32): nothing to emit
    if src.to_ir() == dst.to_ir() and not src.is_ptr() and not dst.is_ptr():
        return _tensor(x.handle, ty)
    if src.is_floating() and dst.is_floating():
        if src.is_fp8() or dst.is_fp8() or fp_downcast_rounding == "rtz":
            rounding = fp_downcast_rounding or "rtne"
            props = {"rounding": ir.i32_attr({"rtz": 0, "rtne": 1}[rounding])} \
                if dst.primitive_bitwidth < src.primitive_bitwidth else None
            return _tensor(b.create1("tt.fp_to_fp", [x.handle], t, props), ty)
        if src.is_bf16() and dst.is_fp16() or src.is_fp16() and dst.is_bf16():
            return cast(cast(x, T.float32), dst)
        op = "arith.truncf" if dst.primitive_bitwidth < src.primitive_bitwidth else "arith.extf"
        return _tensor(b.create1(op, [x.handle], t), ty)
    if src.is_int() and dst.is_int():
        if dst.is_bool():
            zero = full(_shape(x), 0, src)
            return _tensor(b.create1("arith.cmpi", [x.handle, zero.handle], t, {"predicate": "1 : i64"}), ty)
        if dst.int_bitwidth < src.int_bitwidth:
            return _tensor(b.create1("arith.trunci", [x.handle], t), ty)
        op = "arith.extsi" if src.is_int_signed() else "arith.extui"
        return _tensor(b.create1(op, [x.handle], t), ty)
    if src.is_floating() and dst.is_int():
        if dst.is_bool():
            zero = full(_shape(x), 0, src)
            return _tensor(b.create1("arith.cmpf", [x.handle, zero.handle], t, {"predicate": "13 : i64"}), ty)
        op = "arith.fptosi" if dst.is_int_signed() else "arith.fptoui"
        return _tensor(b.create1(op, [x.handle], t), ty)
    if src.is_int() and dst.is_floating():
        op = "arith.sitofp" if (src.is_int_signed() and not src.is_bool()) else "arith.uitofp"
        return _tensor(b.create1(op, [x.handle], t), ty)
    if src.is_ptr() and dst.is_int():
        if dst.int_bitwidth != 64:
            raise SemanticError(f"pointers cast only to 64-bit integers, not {dst}")
        return _tensor(b.create1("tt.ptr_to_int", [x.handle], t), ty)
    if src.is_int() and dst.is_ptr():
        if src.int_bitwidth != 64:
            raise SemanticError(f"only 64-bit integers cast to pointers, not {src}")
        return _tensor(b.create1("tt.int_to_ptr", [x.handle], t), ty)
    if src.is_ptr() and dst.is_ptr():
        return _tensor(b.create1("tt.bitcast", [x.handle], t), ty)
    raise SemanticError(f"cannot cast {src} to {dst}")


# ---- promotion --------------------------------------------------------------------

def integer_promote(a: dtype, b: dtype) -> dtype:
    if a.int_signedness == b.int_signedness:
        return a if a.int_bitwidth > b.int_bitwidth else b
    if a.is_int_unsigned():
        return a if a.int_bitwidth >= b.int_bitwidth else b
    return b if b.int_bitwidth >= a.int_bitwidth else a


def computation_type(a: dtype, a_is_scalar: bool, b: dtype, b_is_scalar: bool, div_or_mod: bool) -> dtype:
    """The type two operands are converted to (Triton's rules: C's usual
    conversions, with PyTorch-like weak Python scalars)."""
    if a_is_scalar != b_is_scalar:
        scalar_ty, tensor_ty = (a, b) if a_is_scalar else (b, a)
        if scalar_ty.kind().value <= tensor_ty.kind().value:
            if div_or_mod and tensor_ty in (T.float16, T.bfloat16):
                return T.float32
            return tensor_ty
    if a.is_fp64() or b.is_fp64():
        return T.float64
    if a.is_fp32() or b.is_fp32():
        return T.float32
    if a.is_fp16() or b.is_fp16():
        return T.float32 if div_or_mod else T.float16
    if a.is_bf16() or b.is_bf16():
        if div_or_mod:
            return T.float32
        return T.bfloat16 if a.is_bf16() and b.is_bf16() else T.float32
    if a.is_fp8() or b.is_fp8():
        if a == b:
            return a
        return T.float16
    if not a.is_int() or not b.is_int():
        raise SemanticError(f"unexpected operand types {a} and {b}")
    if div_or_mod and a.int_signedness != b.int_signedness:
        raise SemanticError(f"Cannot use /, // or % with {a} and {b} because they have different signedness; "
                            "cast one of them first")
    return integer_promote(a, b)


def _python_scalar_type(x) -> dtype:
    if isinstance(x, bool):
        return T.int1
    if isinstance(x, numbers.Integral):
        return _int_type_for(int(x))
    return T.float32


def binary_operands(lhs, rhs, allow_lhs_ptr=False, allow_rhs_ptr=False, arithmetic_check=True,
                    div_or_mod=False):
    """Brings both operands to tensors of one shape and (for numbers) one type."""
    lhs, rhs = _unwrap_constexpr(lhs), _unwrap_constexpr(rhs)
    lhs_is_number = not _is_tensor(lhs)
    rhs_is_number = not _is_tensor(rhs)
    if lhs_is_number and rhs_is_number:
        lhs, rhs = to_tensor(lhs), to_tensor(rhs)
        lhs_is_number = rhs_is_number = False
    lhs_sca = _python_scalar_type(lhs) if lhs_is_number else lhs.type.scalar
    rhs_sca = _python_scalar_type(rhs) if rhs_is_number else rhs.type.scalar
    _check_ptr(lhs_sca, rhs_sca, allow_lhs_ptr)
    _check_ptr(rhs_sca, lhs_sca, allow_rhs_ptr)
    if arithmetic_check and not lhs_sca.is_ptr() and not rhs_sca.is_ptr():
        ret = computation_type(lhs_sca, lhs_is_number, rhs_sca, rhs_is_number, div_or_mod)
        if lhs_is_number and isinstance(lhs, numbers.Integral) and ret.is_int():
            _check_fits(lhs, ret)
        if rhs_is_number and isinstance(rhs, numbers.Integral) and ret.is_int():
            _check_fits(rhs, ret)
        # A number beside a block becomes a dense constant of the block's
        # shape directly (one cached constant, no scalar + tt.splat).
        lhs = full(_shape(rhs), lhs, ret) if lhs_is_number else cast(lhs, ret)
        rhs = full(_shape(lhs), rhs, ret) if rhs_is_number else cast(rhs, ret)
    else:
        lhs = to_tensor(lhs) if lhs_is_number else lhs
        rhs = to_tensor(rhs) if rhs_is_number else rhs
    return broadcast_pair(lhs, rhs)


def _check_fits(value: int, ty: dtype):
    bits = ty.int_bitwidth
    lo, hi = (0, 2**bits - 1) if ty.is_int_unsigned() else (-2**(bits - 1), 2**(bits - 1) - 1)
    if ty.is_bool():
        lo, hi = 0, 1
    if not lo <= int(value) <= hi:
        raise SemanticError(f"constant {value} is out of range: it does not fit in {ty}")


def _check_ptr(a: dtype, b: dtype, allow_a_ptr: bool):
    if a.is_ptr():
        if not allow_a_ptr:
            raise SemanticError(f"invalid operands of type {a} and {b}")
        if b.is_ptr() and a != b:
            raise SemanticError(f"invalid operands of type {a} and {b}")
        if b.is_floating():
            raise SemanticError(f"cannot add a float ({b}) to a pointer ({a})")


# ---- arithmetic -----------------------------------------------------------------

def _binop(op: str, a, b):
    return _tensor(builder().create1(op, [a.handle, b.handle], a.type.to_ir()), a.type)


def _pointer_offset(offset):
    """An offset as tt.addptr reads it: signed.  An unsigned offset narrower
    than 64 bits is zero-extended to int64 first, so that uint8 200 moves
    forward 200 elements (as in Triton), not back 56."""
    sca = offset.type.scalar
    if sca.is_int_unsigned() and sca.int_bitwidth < 64:
        return cast(offset, T.int64)
    return offset


def add(a, b):
    a, b = binary_operands(a, b, True, True)
    if a.type.scalar.is_ptr() and b.type.scalar.is_ptr():
        raise SemanticError("cannot add two pointers")
    if b.type.scalar.is_ptr():
        a, b = b, a
    if a.type.scalar.is_ptr():
        b = _pointer_offset(b)
        return _tensor(builder().create1("tt.addptr", [a.handle, b.handle], a.type.to_ir()), a.type)
    return _binop("arith.addf" if a.type.scalar.is_floating() else "arith.addi", a, b)


def sub(a, b):
    a, b = binary_operands(a, b, True, False)
    if a.type.scalar.is_ptr():
        b = _pointer_offset(b)
        return _tensor(builder().create1("tt.addptr", [a.handle, neg(b).handle], a.type.to_ir()), a.type)
    return _binop("arith.subf" if a.type.scalar.is_floating() else "arith.subi", a, b)


def mul(a, b):
    a, b = binary_operands(a, b)
    return _binop("arith.mulf" if a.type.scalar.is_floating() else "arith.muli", a, b)


def truediv(a, b):
    a, b = _unwrap_constexpr(a), _unwrap_constexpr(b)
    a, b = binary_operands(a, b, div_or_mod=True)
    sca = a.type.scalar
    if sca.is_int():
        # int / int is a float division, as in Python
        a, b = cast(a, T.float32), cast(b, T.float32)
    return _binop("arith.divf", a, b)


def floordiv(a, b):
    a, b = binary_operands(a, b, div_or_mod=True)
    sca = a.type.scalar
    if sca.is_floating():
        raise SemanticError("// is not supported on floats; use / and floor")
    return _binop("arith.divsi" if sca.is_int_signed() else "arith.divui", a, b)


def fdiv(a, b, ieee_rounding: bool = False):
    a, b = to_tensor(a), to_tensor(b)
    if not a.type.scalar.is_floating() or not b.type.scalar.is_floating():
        raise SemanticError("fdiv needs float operands")
    a, b = binary_operands(a, b, div_or_mod=True)
    return _binop("arith.divf", a, b)


def mod(a, b):
    a, b = binary_operands(a, b, div_or_mod=True)
    sca = a.type.scalar
    if sca.is_floating():
        return _binop("arith.remf", a, b)
    # C semantics (truncated), as in Triton
    return _binop("arith.remsi" if sca.is_int_signed() else "arith.remui", a, b)


def _integer_operands(op_name: str, a, b):
    """The operands of a bitwise or shift operator, promoted; both must be
    integers (Triton's message names both types)."""
    ta, tb = (to_tensor(x).type.scalar for x in (a, b))
    if not (ta.is_int() and tb.is_int()):
        raise SemanticError(f"invalid operands of type {ta} and {tb}: {op_name} needs integer operands")
    return binary_operands(a, b)


def _int_binop(op_name: str, signed_op: str, a, b):
    a, b = _integer_operands(op_name, a, b)
    return _binop(signed_op, a, b)


def and_(a, b): return _int_binop("&", "arith.andi", a, b)
def or_(a, b): return _int_binop("|", "arith.ori", a, b)
def xor_(a, b): return _int_binop("^", "arith.xori", a, b)
def shl(a, b): return _int_binop("<<", "arith.shli", a, b)


def lshr(a, b):
    return _int_binop(">>", "arith.shrui", a, b)


def ashr(a, b):
    return _int_binop(">>", "arith.shrsi", a, b)


def shr(a, b):
    """`a >> b`: arithmetic when `a` itself is signed, logical otherwise
    (decided before promotion, as in Triton: int8 >> uint8 shifts in the
    sign bit although the operands are promoted to uint8)."""
    signed = to_tensor(a).type.scalar.is_int_signed()
    a, b = _integer_operands(">>", a, b)
    return _binop("arith.shrsi" if signed else "arith.shrui", a, b)


def minimum(a, b, propagate_nan: bool = False):
    a, b = binary_operands(a, b)
    sca = a.type.scalar
    if sca.is_floating():
        return _binop("arith.minimumf" if propagate_nan else "arith.minnumf", a, b)
    return _binop("arith.minsi" if sca.is_int_signed() else "arith.minui", a, b)


def maximum(a, b, propagate_nan: bool = False):
    a, b = binary_operands(a, b)
    sca = a.type.scalar
    if sca.is_floating():
        return _binop("arith.maximumf" if propagate_nan else "arith.maxnumf", a, b)
    return _binop("arith.maxsi" if sca.is_int_signed() else "arith.maxui", a, b)


def clamp(x, lo, hi, propagate_nan: bool = False):
    x, lo = binary_operands(x, lo)
    x, hi = binary_operands(x, hi)
    lo = broadcast_to(lo, _shape(x)) if x.type.is_block() else lo
    hi = broadcast_to(hi, _shape(x)) if x.type.is_block() else hi
    if not x.type.scalar.is_floating():
        return minimum(maximum(x, lo), hi)
    props = {"propagateNan": ir.i32_attr(65535 if propagate_nan else 0)}
    return _tensor(builder().create1("tt.clamp", [x.handle, lo.handle, hi.handle], x.type.to_ir(), props),
                   x.type)


def neg(x):
    x = to_tensor(x)
    sca = x.type.scalar
    if sca.is_ptr():
        raise SemanticError("cannot negate a pointer")
    if sca.is_floating():
        return _tensor(builder().create1("arith.negf", [x.handle], x.type.to_ir()), x.type)
    return sub(full(_shape(x), 0, sca), x)


def invert(x):
    x = to_tensor(x)
    sca = x.type.scalar
    if not sca.is_int():
        raise SemanticError(f"~ needs an integer operand, got {sca}")
    return xor_(x, full(_shape(x), -1 if not sca.is_bool() else 1, sca))


def logical_not(x):
    x = to_tensor(x)
    if not x.type.scalar.is_bool():
        x = cast(x, T.int1)
    return xor_(x, full(_shape(x), 1, T.int1))


def _as_bool(x):
    x = to_tensor(x)
    return x if x.type.scalar.is_bool() else cast(x, T.int1)


def logical_and(a, b):
    a, b = broadcast_pair(_as_bool(a), _as_bool(b))
    return _binop("arith.andi", a, b)


def logical_or(a, b):
    a, b = broadcast_pair(_as_bool(a), _as_bool(b))
    return _binop("arith.ori", a, b)


# ---- comparisons ------------------------------------------------------------------

# arith.cmpf predicates (ordered, except != which is unordered as in C)
_CMPF = {"==": 1, ">": 2, ">=": 3, "<": 4, "<=": 5, "!=": 13}
# arith.cmpi predicates: eq ne slt sle sgt sge ult ule ugt uge
_CMPI_SIGNED = {"==": 0, "!=": 1, "<": 2, "<=": 3, ">": 4, ">=": 5}
_CMPI_UNSIGNED = {"==": 0, "!=": 1, "<": 6, "<=": 7, ">": 8, ">=": 9}


def compare(op: str, a, b):
    a, b = binary_operands(a, b, True, True)
    sca = a.type.scalar
    ty = _with_scalar(a.type, T.int1)
    if sca.is_ptr():
        a, b = cast(a, T.int64), cast(b, T.int64)
        sca = T.uint64
    if sca.is_floating():
        name, pred = "arith.cmpf", _CMPF[op]
    else:
        name = "arith.cmpi"
        pred = (_CMPI_SIGNED if sca.is_int_signed() else _CMPI_UNSIGNED)[op]
    return _tensor(builder().create1(name, [a.handle, b.handle], ty.to_ir(),
                                     {"predicate": f"{pred} : i64"}), ty)


def where(cond, x, y):
    cond = to_tensor(cond)
    if not cond.type.scalar.is_bool():
        warn_at_user_line(f"tl.where with a non-boolean condition ({cond.type.scalar}) reads it as `cond != 0`; "
                          "compare explicitly (Triton plans to make this an error)")
    cond = _as_bool(cond)
    x, y = binary_operands(x, y, True, True)
    if x.type.is_block() or cond.type.is_block():
        shape = broadcast_shapes(_shape(cond), _shape(x))
        cond_b = cond
        while len(_shape(cond_b)) < len(shape):
            cond_b = expand_dims(cond_b, 0)
        cond = broadcast_to(cond_b, shape) if cond_b.type.is_block() else splat(cond_b, shape)
        x = _broadcast_any(x, shape)
        y = _broadcast_any(y, shape)
    return _tensor(builder().create1("arith.select", [cond.handle, x.handle, y.handle], x.type.to_ir()),
                   x.type)


def _broadcast_any(x, shape):
    if not x.type.is_block():
        return splat(x, shape)
    while len(_shape(x)) < len(shape):
        x = expand_dims(x, 0)
    return broadcast_to(x, shape)


# ---- math -------------------------------------------------------------------------

def _float_unary(op: str, x, name: str):
    x = to_tensor(x)
    if not x.type.scalar.is_floating():
        raise SemanticError(f"{name} needs a float operand, got {x.type.scalar}")
    return _tensor(builder().create1(op, [x.handle], x.type.to_ir()), x.type)


def math_unary(name: str, x):
    ops = {"exp": "math.exp", "exp2": "math.exp2", "log": "math.log", "log2": "math.log2",
           "sin": "math.sin", "cos": "math.cos", "sqrt": "math.sqrt", "rsqrt": "math.rsqrt",
           "floor": "math.floor", "ceil": "math.ceil", "erf": "math.erf"}
    return _float_unary(ops[name], x, name)


def abs_(x):
    x = to_tensor(x)
    sca = x.type.scalar
    if sca.is_fp8():
        # no fp8 arithmetic in LLVM: clear the sign bit of the byte
        return bitcast(and_(bitcast(x, T.int8), 0x7F), sca)
    if sca.is_floating():
        return _tensor(builder().create1("math.absf", [x.handle], x.type.to_ir()), x.type)
    if sca.is_int_signed():
        return _tensor(builder().create1("math.absi", [x.handle], x.type.to_ir()), x.type)
    if sca.is_int_unsigned():
        return x
    raise SemanticError(f"abs needs a number, got {sca}")


def fma(x, y, z):
    x, y = binary_operands(x, y)
    x, z = binary_operands(x, z)
    x, y = binary_operands(x, y)
    if not x.type.scalar.is_floating():
        raise SemanticError("fma needs float operands")
    return _tensor(builder().create1("math.fma", [x.handle, y.handle, z.handle], x.type.to_ir()), x.type)


def precise_sqrt(x):
    x = to_tensor(x)
    if not x.type.scalar.is_fp32():
        raise SemanticError(f"sqrt_rn needs fp32, got {x.type.scalar}")
    return _tensor(builder().create1("tt.precise_sqrt", [x.handle], x.type.to_ir()), x.type)


def precise_div(x, y):
    x, y = binary_operands(x, y)
    if not x.type.scalar.is_fp32():
        raise SemanticError(f"div_rn needs fp32, got {x.type.scalar}")
    return _tensor(builder().create1("tt.precise_divf", [x.handle, y.handle], x.type.to_ir()), x.type)


def umulhi(x, y):
    x, y = binary_operands(x, y)
    if not x.type.scalar.is_int() or x.type.scalar.int_bitwidth not in (32, 64):
        raise SemanticError(f"umulhi needs 32- or 64-bit integers, got {x.type.scalar}")
    return _tensor(builder().create1("tt.mulhiui", [x.handle, y.handle], x.type.to_ir()), x.type)


# ---- memory -----------------------------------------------------------------------

_CACHE = {"": 1, ".ca": 2, ".cg": 3, ".wb": 4, ".cs": 5, ".wt": 6, ".cv": 7}
_EVICT = {"": 1, "evict_normal": 1, "evict_first": 2, "evict_last": 3}


def _cache_modifier(value: str) -> int:
    value = _unwrap_constexpr(value) or ""
    if value not in _CACHE:
        raise SemanticError(f"cache modifier '{value}' is not one of {sorted(k for k in _CACHE if k)}")
    return _CACHE[value]


def _eviction(value: str) -> int:
    value = _unwrap_constexpr(value) or ""
    if value not in _EVICT:
        raise SemanticError(f"eviction policy '{value}' is not one of {sorted(k for k in _EVICT if k)}")
    return _EVICT[value]


def _is_block_pointer(ptr) -> bool:
    sca = ptr.type.scalar
    return not ptr.type.is_block() and sca.is_ptr() and sca.element_ty.is_block()


def _boundary_check(boundary_check, rank: int) -> List[int]:
    boundary_check = _unwrap_constexpr(boundary_check)
    if boundary_check is None:
        return []
    if isinstance(boundary_check, int):
        boundary_check = [boundary_check]
    dims = sorted(int(_unwrap_constexpr(d)) for d in boundary_check)
    for d in dims:
        if not 0 <= d < rank:
            raise SemanticError(f"boundary_check dimension {d} is out of range for a rank-{rank} block")
    return dims


def load(ptr, mask=None, other=None, boundary_check=None, padding_option="", cache_modifier="",
         eviction_policy="", volatile=False):
    ptr = to_tensor(ptr)
    mask, other = _unwrap_constexpr(mask), _unwrap_constexpr(other)
    padding_option = _unwrap_constexpr(padding_option) or ""
    volatile = bool(_unwrap_constexpr(volatile))
    props = {"cache": ir.i32_attr(_cache_modifier(cache_modifier)),
             "evict": ir.i32_attr(_eviction(eviction_policy)),
             "isVolatile": ir.bool_attr(volatile)}
    b = builder()
    if _is_block_pointer(ptr):
        if mask is not None or other is not None:
            raise SemanticError("a load through a block pointer takes boundary_check and padding_option, "
                                "not mask and other")
        tile = ptr.type.scalar.element_ty
        dims = _boundary_check(boundary_check, len(tile.shape))
        if padding_option not in ("", "zero", "nan"):
            raise SemanticError(f"padding_option must be 'zero' or 'nan', got '{padding_option}'")
        if padding_option == "nan" and not tile.scalar.is_floating():
            raise SemanticError("padding_option='nan' needs a float block")
        props["boundaryCheck"] = ir.i32_array_attr(dims)
        if padding_option:
            props["padding"] = ir.i32_attr(1 if padding_option == "zero" else 2)
        props["operandSegmentSizes"] = ir.i32_array_attr([1, 0, 0])
        return _tensor(b.create1("tt.load", [ptr.handle], tile.to_ir(), props), tile)
    if not ptr.type.scalar.is_ptr():
        raise SemanticError(f"load needs a pointer or a tensor of pointers, got {ptr.type}")
    if boundary_check is not None or padding_option:
        raise SemanticError("boundary_check and padding_option apply only to block pointers")
    elt = ptr.type.scalar.element_ty
    operands = [ptr]
    if mask is not None:
        mask = _as_bool(mask)
        if ptr.type.is_block():
            mask = _broadcast_any(mask, _shape(ptr))
        elif mask.type.is_block():
            ptr = _broadcast_any(ptr, _shape(mask))
            operands = [ptr]
        operands.append(mask)
    if other is not None:
        if mask is None:
            raise SemanticError("load's 'other' needs a mask")
        other = to_tensor(other, elt) if not _is_tensor(other) else other
        other = cast(other, elt)
        if ptr.type.is_block():
            other = _broadcast_any(other, _shape(ptr))
        operands.append(other)
    if elt.is_bool():
        # booleans live in memory as bytes: load i8 and compare with 0
        operands[0] = _bool_pointer_as_bytes(operands[0])
        if other is not None:
            operands[-1] = cast(operands[-1], T.int8)
        elt = T.int8
    result_ty = _with_scalar(operands[0].type, elt)
    props["operandSegmentSizes"] = ir.i32_array_attr([1, 1 if mask is not None else 0,
                                                     1 if other is not None else 0])
    loaded = _tensor(b.create1("tt.load", [o.handle for o in operands], result_ty.to_ir(), props), result_ty)
    if ptr.type.scalar.element_ty.is_bool():
        return cast(loaded, T.int1)
    return loaded


def _bool_pointer_as_bytes(ptr):
    """A pointer (tensor) to i1 reinterpreted as a pointer to i8."""
    byte_ptr = pointer_type(T.int8, ptr.type.scalar.address_space)
    ty = _with_scalar(ptr.type, byte_ptr)
    return _tensor(builder().create1("tt.bitcast", [ptr.handle], ty.to_ir()), ty)


def store(ptr, value, mask=None, boundary_check=None, cache_modifier="", eviction_policy=""):
    ptr = to_tensor(ptr)
    mask = _unwrap_constexpr(mask)
    props = {"cache": ir.i32_attr(_cache_modifier(cache_modifier)),
             "evict": ir.i32_attr(_eviction(eviction_policy))}
    b = builder()
    if _is_block_pointer(ptr):
        if mask is not None:
            raise SemanticError("a store through a block pointer takes boundary_check, not mask")
        tile = ptr.type.scalar.element_ty
        value = cast(to_tensor(value, tile.scalar), tile.scalar)
        value = _broadcast_any(value, list(tile.shape))
        props["boundaryCheck"] = ir.i32_array_attr(_boundary_check(boundary_check, len(tile.shape)))
        b.create("tt.store", [ptr.handle, value.handle], [], props)
        return None
    if not ptr.type.scalar.is_ptr():
        raise SemanticError(f"store needs a pointer or a tensor of pointers, got {ptr.type}")
    if ptr.type.scalar.is_const():
        raise SemanticError("Cannot store to a constant pointer (a parameter annotated tl.const)")
    elt = ptr.type.scalar.element_ty
    value = to_tensor(value, elt) if not _is_tensor(value) else value
    if value.type.is_block() and not ptr.type.is_block():
        ptr = _broadcast_any(ptr, _shape(value))
    if ptr.type.is_block():
        value = _broadcast_any(value, _shape(ptr))
    if elt.is_bool():
        # booleans live in memory as bytes
        elt = T.int8
        ptr = _bool_pointer_as_bytes(ptr)
    value = cast(value, elt)
    operands = [ptr.handle, value.handle]
    if mask is not None:
        mask = _as_bool(mask)
        if ptr.type.is_block():
            mask = _broadcast_any(mask, _shape(ptr))
        operands.append(mask.handle)
    b.create("tt.store", operands, [], props)
    return None


# ---- atomics ------------------------------------------------------------------------

_SEM = {"relaxed": 1, "acquire": 2, "release": 3, "acq_rel": 4}
_SCOPE = {"gpu": 1, "cta": 2, "sys": 3}
_RMW = {"and": 1, "or": 2, "xor": 3, "add": 4, "fadd": 5, "max": 6, "min": 7, "umax": 8, "umin": 9,
        "xchg": 10}


def _sem_scope(sem, scope) -> Tuple[str, str]:
    sem = _unwrap_constexpr(sem)
    scope = _unwrap_constexpr(scope)
    sem = "acq_rel" if sem is None else sem
    scope = "gpu" if scope is None else scope
    if not isinstance(sem, str) or sem not in _SEM:
        raise SemanticError(f"sem must be one of {list(_SEM)}, got {sem!r}")
    if not isinstance(scope, str) or scope not in _SCOPE:
        raise SemanticError(f"scope must be one of {list(_SCOPE)}, got {scope!r}")
    return ir.i32_attr(_SEM[sem]), ir.i32_attr(_SCOPE[scope])


def _atomic_operands(ptr, val, mask):
    ptr = to_tensor(ptr)
    if not ptr.type.scalar.is_ptr():
        raise SemanticError(f"atomics need a pointer or a tensor of pointers, got {ptr.type}")
    if ptr.type.scalar.is_const():
        raise SemanticError("cannot do an atomic through a constant pointer")
    elt = ptr.type.scalar.element_ty
    val = to_tensor(val, elt) if not _is_tensor(val) else val
    if val.type.is_block() and not ptr.type.is_block():
        ptr = _broadcast_any(ptr, _shape(val))
    if ptr.type.is_block():
        val = _broadcast_any(val, _shape(ptr))
    val = cast(val, elt)
    mask = _unwrap_constexpr(mask)
    if mask is not None:
        mask = _as_bool(mask)
        if ptr.type.is_block():
            mask = _broadcast_any(mask, _shape(ptr))
        elif mask.type.is_block():
            raise SemanticError(f"the mask of an atomic on a scalar pointer must be a scalar, got {mask.type}")
    return ptr, val, mask


def _check_atomic_dtype(name: str, elt):
    """Raises unless PTX has an atomic `name` on elements of `elt`:
    add on 32/64-bit integers and fp16/bf16/fp32/fp64; max/min on 32/64-bit
    integers and fp32/fp64; and/or/xor on 32/64-bit integers; xchg on any
    32/64-bit type; cas on any 16/32/64-bit type."""
    if elt.is_ptr() or elt.is_block() or not (elt.is_int() or elt.is_floating()):
        raise SemanticError(f"atomic_{name} does not support {elt}")
    bits = elt.primitive_bitwidth
    if elt.is_bool() or elt.is_fp8():
        ok = False
    elif name == "cas":
        ok = bits in (16, 32, 64)
    elif name == "add":
        ok = bits in (32, 64) or elt in (T.float16, T.bfloat16)
    elif name in ("and", "or", "xor"):
        ok = elt.is_int() and bits in (32, 64)
    else:  # max, min, xchg
        ok = bits in (32, 64)
    if not ok:
        raise SemanticError(f"atomic_{name} does not support {elt}")


def atomic_rmw(kind: str, ptr, val, mask=None, sem=None, scope=None):
    ptr, val, mask = _atomic_operands(ptr, val, mask)
    sca = val.type.scalar
    _check_atomic_dtype(kind, sca)
    sem_attr, scope_attr = _sem_scope(sem, scope)
    if kind in ("max", "min") and sca.is_floating():
        return _float_atomic_minmax(kind, ptr, val, mask, sem, scope)
    if kind == "add" and sca.is_floating():
        kind = "fadd"
    if kind in ("max", "min") and sca.is_int_unsigned():
        kind = "u" + kind
    props = {"atomic_rmw_op": ir.i32_attr(_RMW[kind]), "sem": sem_attr, "scope": scope_attr}
    operands = [ptr.handle, val.handle] + ([mask.handle] if mask is not None else [])
    return _tensor(builder().create1("tt.atomic_rmw", operands, val.type.to_ir(), props), val.type)


def _float_atomic_minmax(kind: str, ptr, val, mask, sem, scope):
    """Float atomic max/min through integer atomics on the same bits.  IEEE
    floats with the sign bit clear order like their bits as signed integers;
    with the sign bit set, like their bits as unsigned integers in reverse.
    So max is a signed max where val's sign bit is clear and an unsigned min
    where it is set (min the reverse).  Splitting on the sign bit rather
    than on `val >= 0` sends -0.0 down the negative path, so
    max(-1.0, -0.0) is -0.0 (Triton's split leaves -1.0 there)."""
    sca = val.type.scalar
    ity, uty = (T.int32, T.uint32) if sca == T.float32 else (T.int64, T.uint64)
    shape = _shape(val)
    iptr_ty = _with_scalar(ptr.type, pointer_type(ity, ptr.type.scalar.address_space))
    iptr = _tensor(builder().create1("tt.bitcast", [ptr.handle], iptr_ty.to_ir()), iptr_ty)
    ival = bitcast(val, ity)
    sign_clear = compare(">=", ival, full(shape, 0, ity))
    pos_mask, neg_mask = sign_clear, logical_not(sign_clear)
    if mask is not None:
        pos_mask, neg_mask = logical_and(pos_mask, mask), logical_and(neg_mask, mask)
    pos_kind, neg_kind = ("max", "umin") if kind == "max" else ("min", "umax")
    pos = atomic_rmw(pos_kind, iptr, ival, pos_mask, sem, scope)
    neg = atomic_rmw(neg_kind, iptr, bitcast(ival, uty), neg_mask, sem, scope)
    return bitcast(where(sign_clear, pos, bitcast(neg, ity)), sca)


def atomic_cas(ptr, cmp, val, sem=None, scope=None):
    ptr, val, _ = _atomic_operands(ptr, val, None)
    _check_atomic_dtype("cas", val.type.scalar)
    cmp = cast(_broadcast_any(to_tensor(cmp, val.type.scalar), _shape(val)) if val.type.is_block()
               else to_tensor(cmp, val.type.scalar), val.type.scalar)
    if cmp.type.is_block() and not val.type.is_block():
        raise SemanticError(f"atomic_cas on a scalar pointer needs a scalar cmp, got {cmp.type}")
    sem_attr, scope_attr = _sem_scope(sem, scope)
    return _tensor(builder().create1("tt.atomic_cas", [ptr.handle, cmp.handle, val.handle], val.type.to_ir(),
                                     {"sem": sem_attr, "scope": scope_attr}), val.type)


# ---- dot ------------------------------------------------------------------------------

_PRECISION = {"tf32": 0, "tf32x3": 1, "ieee": 2, "bf16x3": 3, "bf16x6": 4}


def dot(a, b, acc=None, input_precision=None, max_num_imprecise_acc=None, out_dtype=T.float32):
    input_precision = _unwrap_constexpr(input_precision)
    out_dtype = _unwrap_constexpr(out_dtype) or T.float32
    if not a.type.is_block() or not b.type.is_block():
        raise SemanticError("dot needs two tensors")
    sa, sb = _shape(a), _shape(b)
    if len(sa) != len(sb) or len(sa) < 2:
        raise SemanticError(f"dot needs two tensors of one rank, 2 or more, got shapes {sa} and {sb}")
    if len(sa) > 3:
        # Leading batch dimensions fold into one: a 3-D dot, reshaped back.
        if sa[:-2] != sb[:-2]:
            raise SemanticError(f"dot's batch dimensions must agree: {sa} and {sb}")
        batch = 1
        for d in sa[:-2]:
            batch *= d
        acc3 = None if acc is None else reshape(acc, [batch] + _shape(acc)[-2:])
        out = dot(reshape(a, [batch] + sa[-2:]), reshape(b, [batch] + sb[-2:]), acc3, input_precision,
                  max_num_imprecise_acc, out_dtype)
        return reshape(out, sa[:-1] + [sb[-1]])
    if sa[-1] != sb[-2]:
        raise SemanticError(f"dot's inner dimensions must agree: first operand is {sa}, second is {sb}")
    if len(sa) == 3 and sa[0] != sb[0]:
        raise SemanticError(f"dot's batch dimensions must agree: {sa} and {sb}")
    # Any power-of-two size works: tiles that no tensor-core instruction
    # fits run on the CUDA cores (ttg-accelerate-matmul).
    ea, eb = a.type.scalar, b.type.scalar
    if ea != eb and not (ea.is_fp8() and eb.is_fp8()):
        raise SemanticError(f"dot's operands must have one element type, got {ea} and {eb}")
    # The result type follows Triton's rule: int8 operands give int32; fp32
    # and bf16 operands give fp32 and fp64 gives fp64 whatever out_dtype
    # says; fp16 and fp8 operands give out_dtype (fp32 or fp16).
    if ea.is_int():
        if ea.int_bitwidth != 8:
            raise SemanticError(f"integer dot needs int8 operands, got {ea}")
        ret = T.int32
    elif out_dtype == T.bfloat16:
        raise SemanticError("dot's out_dtype=bfloat16 is unsupported: use out_dtype=float32 or float16 and "
                            "cast the result with .to(tl.bfloat16)")
    elif ea.is_fp32() or ea == T.bfloat16:
        ret = T.float32
    elif ea == T.float64:
        ret = T.float64
    else:
        ret = out_dtype
        if ret not in (T.float32, T.float16):
            raise SemanticError(f"dot's out_dtype must be float32 or float16, got {ret}")
    if input_precision is None:
        input_precision = "tf32" if ea.is_fp32() else "ieee"
    input_precision = input_precision.lower()
    if input_precision not in _PRECISION:
        raise SemanticError(f"input_precision must be one of {list(_PRECISION)}, got '{input_precision}'")
    out_shape = sa[:-1] + [sb[-1]]
    ty = block_type(ret, out_shape)
    if acc is None:
        acc_t = full(out_shape, 0, ret)
    else:
        acc_t = acc
        if _shape(acc_t) != out_shape:
            raise SemanticError(f"dot's accumulator must have shape {out_shape}, got {_shape(acc_t)}")
        if acc_t.type.scalar != ret:
            if acc_t.type.scalar.is_floating() and ret.is_floating():
                ty = acc_t.type
            else:
                raise SemanticError(f"dot's accumulator type {acc_t.type.scalar} does not suit {ret}")
    max_acc = _unwrap_constexpr(max_num_imprecise_acc)
    if max_acc is None:
        max_acc = 0
    elif ea.is_fp8() and max_acc > sa[-1]:  # (it bounds fp8 accumulation; other types ignore it)
        raise SemanticError(f"max_num_imprecise_acc ({max_acc}) must be <= K ({sa[-1]})")
    props = {"inputPrecision": ir.i32_attr(_PRECISION[input_precision]),
             "maxNumImpreciseAcc": ir.i32_attr(max_acc)}
    return _tensor(builder().create1("tt.dot", [a.handle, b.handle, acc_t.handle], ty.to_ir(), props), ty)


# ---- hints ------------------------------------------------------------------------------

def _attach_hint(x, key: str, values):
    values = [int(_unwrap_constexpr(v)) for v in (values if isinstance(values, (list, tuple)) else [values])]
    rank = max(1, len(_shape(x)))
    if len(values) == 1 and rank > 1:
        values = values * rank
    if len(values) != rank:
        raise SemanticError(f"{key} needs {rank} values, got {len(values)}")
    op = builder().defining_op(x.handle)
    if op is None:
        return x  # block arguments carry hints through the launcher's specialization
    if op.attributes is None:
        op.attributes = {}
    op.attributes[key] = "dense<[" + ", ".join(str(v) for v in values) + f"]> : tensor<{len(values)}xi32>"
    return x


def multiple_of(x, values):
    return _attach_hint(x, "tt.divisibility", values)


def max_contiguous(x, values):
    return _attach_hint(x, "tt.contiguity", values)


def max_constancy(x, values):
    return _attach_hint(x, "tt.constancy", values)


def assume(cond):
    cond = _as_bool(cond)
    if cond.type.is_block():
        raise SemanticError("assume needs a scalar condition")
    builder().create("llvm.intr.assume", [cond.handle], [],
                     {"op_bundle_sizes": "array<i32>", "operandSegmentSizes": ir.i32_array_attr([1, 0])})


def debug_barrier():
    builder().create("gpu.barrier", [], [])


# ---- block pointers --------------------------------------------------------------------

def make_block_ptr(base, shape, strides, offsets, block_shape, order):
    base = to_tensor(base)
    if not base.type.scalar.is_ptr() or base.type.is_block():
        raise SemanticError("make_block_ptr's base must be a scalar pointer")
    block_shape = [int(_unwrap_constexpr(s)) for s in block_shape]
    order = [int(_unwrap_constexpr(o)) for o in order]
    rank = len(block_shape)
    for name, vals in (("shape", shape), ("strides", strides), ("offsets", offsets)):
        if len(vals) != rank:
            raise SemanticError(f"make_block_ptr's {name} needs {rank} entries (one per block dimension), "
                                f"got {len(vals)}")
    if sorted(order) != list(range(rank)):
        raise SemanticError(f"make_block_ptr's order {order} is not a permutation of 0..{rank - 1}")
    if any(not _is_pow2(s) for s in block_shape):
        raise SemanticError(f"block_shape must hold powers of two, got {block_shape}")
    shape_v = [cast(to_tensor(s), T.int64) for s in shape]
    strides_v = [cast(to_tensor(s), T.int64) for s in strides]
    offsets_v = [cast(to_tensor(s), T.int32) for s in offsets]
    elt = base.type.scalar.element_ty
    tile = block_type(elt, block_shape)
    ptr_ty = pointer_type(tile)
    operands = [base.handle] + [v.handle for v in shape_v + strides_v + offsets_v]
    return _tensor(builder().create1("tt.make_tensor_ptr", operands, ptr_ty.to_ir(),
                                     {"order": ir.i32_array_attr(order)}), ptr_ty)


def advance(ptr, offsets):
    if not _is_block_pointer(ptr):
        raise SemanticError("advance needs a block pointer (from make_block_ptr)")
    rank = len(ptr.type.scalar.element_ty.shape)
    if len(offsets) != rank:
        raise SemanticError(f"advance needs {rank} offsets, got {len(offsets)}")
    offs = [cast(to_tensor(o), T.int32) for o in offsets]
    return _tensor(builder().create1("tt.advance", [ptr.handle] + [o.handle for o in offs], ptr.type.to_ir()),
                   ptr.type)


# ---- tensor descriptors ------------------------------------------------------------------

def tma_tile_supported(shape: Sequence[int], element_bits: int) -> bool:
    """Whether the copy engine moves blocks of `shape` (the rules of the
    native library's layout::whyNotTmaTile): 8 to 64-bit elements, an
    innermost dimension of a multiple of 16 bytes, and box dimensions of
    at most 256 elements (a swizzled 2-D tile and the outermost dimension
    are cut into boxes)."""
    if not 1 <= len(shape) <= 5 or element_bits not in (8, 16, 32, 64):
        return False
    if (shape[-1] * element_bits // 8) % 16:
        return False
    swizzled = len(shape) == 2 and element_bits <= 32 and shape[0] % 8 == 0 and shape[1] * element_bits // 8 >= 32
    if swizzled:
        return True
    return all(size <= 256 for size in shape[1:])


def _descriptor_indices(desc, offsets, what: str):
    offsets = _unwrap_constexpr(offsets)
    if not isinstance(offsets, (list, tuple)):
        offsets = [offsets]
    rank = desc.type.rank
    if len(offsets) != rank:
        raise SemanticError(f"{what} needs {rank} offsets (one per block dimension), got {len(offsets)}")
    return [_index_scalar(o, what) for o in offsets]


def _index_scalar(offset, what: str):
    """An integer scalar offset as int32 (descriptor coordinates are)."""
    offset = to_tensor(_unwrap_constexpr(offset))
    if offset.type.is_block() or not offset.type.scalar.is_int():
        raise SemanticError(f"{what} offsets must be integer scalars, got {offset.type}")
    return cast(offset, T.int32)


def _descriptor_uses_tma(desc) -> bool:
    if desc.handle is None:
        return False  # made in the kernel without a tensor map
    block = desc.type.block_type
    return builder().arch >= 90 and tma_tile_supported(block.shape, block.element_ty.primitive_bitwidth)


def make_tensor_descriptor(base, shape, strides, block_shape, padding_option="zero"):
    """A descriptor made inside the kernel.  On Hopper, where the copy
    engine moves its blocks, the program encodes a tensor map for it
    (tt.make_tensor_descriptor, in the kernel's global scratch memory, which
    `triton.set_allocator` provides at launch) and its loads and stores go
    through TMA; elsewhere, and in noinline functions (which have no scratch
    memory of their own), its tiles move through pointers (boundary-checked
    block loads and stores).  Atomics, gathers and scatters always go
    through pointers, from its parts.  Returns (handle, base, shape,
    strides, type), of which core.make_tensor_descriptor makes the
    descriptor: handle None where the tiles move through pointers."""
    base = to_tensor(base)
    if not base.type.scalar.is_ptr() or base.type.is_block():
        raise SemanticError("make_tensor_descriptor's base must be a scalar pointer")
    block_shape = [int(_unwrap_constexpr(s)) for s in _unwrap_constexpr(block_shape)]
    rank = len(block_shape)
    shape, strides = list(_unwrap_constexpr(shape)), list(_unwrap_constexpr(strides))
    if not 1 <= rank <= 5:
        raise SemanticError(f"a tensor descriptor has rank 1 to 5, got rank {rank}")
    if len(shape) != rank or len(strides) != rank:
        raise SemanticError(f"make_tensor_descriptor needs {rank} shape and stride entries (one per block "
                            f"dimension), got {len(shape)} and {len(strides)}")
    if any(not _is_pow2(s) for s in block_shape):
        raise SemanticError(f"block_shape must hold powers of two, got {block_shape}")
    last = _unwrap_constexpr(strides[-1])
    if isinstance(last, int) and last != 1:
        raise SemanticError(f"the last dimension of a tensor descriptor must be contiguous (stride 1), got {last}")
    padding_option = _unwrap_constexpr(padding_option)
    if padding_option not in ("zero", "nan"):
        raise SemanticError(f"padding_option must be 'zero' or 'nan', got {padding_option!r}")
    ty = T.tensor_descriptor_type(block_type(base.type.scalar.element_ty, block_shape))

    def part(value):  # a number stays a constant (a stride of 1 keeps the pointer path vectorized)
        value = _unwrap_constexpr(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return constexpr(value)
        return to_tensor(value)
    shape, strides = [part(s) for s in shape], [part(s) for s in strides]
    handle = None
    block = ty.block_type
    if builder().arch >= 90 and builder().device_tensor_maps and \
            tma_tile_supported(block.shape, block.element_ty.primitive_bitwidth):
        sizes = [cast(to_tensor(_unwrap_constexpr(s)), T.int32).handle for s in shape]
        steps = [cast(to_tensor(_unwrap_constexpr(s)), T.int64).handle for s in strides]
        handle = builder().create1(
            "tt.make_tensor_descriptor", [base.handle] + sizes + steps, ty.to_ir(),
            {"padding": ir.i32_attr(1 if padding_option == "zero" else 2),
             "operandSegmentSizes": ir.i32_array_attr([1, rank, rank, 0])})
    return handle, base, shape, strides, ty


def _descriptor_block_pointer(desc, offsets):
    """A block pointer to the descriptor's block at `offsets` (the path of
    tiles the copy engine cannot move, and of targets without one)."""
    block = desc.type.block_type
    rank = desc.type.rank
    return make_block_ptr(desc.base, desc.shape, desc.strides, offsets, list(block.shape),
                          list(range(rank - 1, -1, -1)))


def descriptor_load(desc, offsets):
    indices = _descriptor_indices(desc, offsets, "load")
    block = desc.type.block_type
    if _descriptor_uses_tma(desc):
        return _tensor(builder().create1("tt.descriptor_load", [desc.handle] + [i.handle for i in indices],
                                         block.to_ir()), block)
    return load(_descriptor_block_pointer(desc, indices), boundary_check=list(range(desc.type.rank)),
                padding_option=getattr(desc, "padding", "zero"))


def descriptor_store(desc, offsets, value):
    indices = _descriptor_indices(desc, offsets, "store")
    value = _descriptor_value(desc, value, "store")
    if _descriptor_uses_tma(desc):
        builder().create("tt.descriptor_store", [desc.handle] + [i.handle for i in indices] + [value.handle], [])
        return
    store(_descriptor_block_pointer(desc, indices), value, boundary_check=list(range(desc.type.rank)))


# ---- descriptor atomics, gather and scatter ----------------------------------------------
# Through pointers on every target (Triton moves them with TMA reductions and,
# on Blackwell, TMA gathers): each element of the block is addressed from the
# descriptor's base, shape and strides, and elements outside the tensor are
# masked off, which is what the copy engine's clipping does.

# the element types Triton accepts for each descriptor atomic
_DESCRIPTOR_ATOMIC_DTYPES = {
    "add": ("uint32", "int32", "uint64", "float32", "float16", "bfloat16"),
    "min": ("uint32", "int32", "uint64", "int64", "float16", "bfloat16"),
    "max": ("uint32", "int32", "uint64", "int64", "float16", "bfloat16"),
    "and": ("uint32", "int32", "uint64", "int64"),
    "or": ("uint32", "int32", "uint64", "int64"),
    "xor": ("uint32", "int32", "uint64", "int64"),
}  # (names of tritium.language dtypes)


def _descriptor_element_pointers(desc, indices):
    """Pointers to the elements at `indices` (one integer index tensor per
    descriptor dimension, broadcastable to one shape) and the mask of those
    inside the tensor (0 <= index < size in every dimension)."""
    ptr, inside = desc.base, None
    for index, size, stride in zip(indices, desc.shape, desc.strides):
        index64 = cast(index, T.int64)
        ptr = add(ptr, mul(index64, cast(to_tensor(stride), T.int64)))
        ok = logical_and(compare(">=", index64, 0), compare("<", index64, cast(to_tensor(size), T.int64)))
        inside = ok if inside is None else logical_and(inside, ok)
    return ptr, inside


def _block_indices(desc, starts):
    """Per dimension d, the indices starts[d] + arange(block[d]), shaped to
    broadcast along the block's other dimensions."""
    shape = list(desc.type.block_type.shape)
    out = []
    for d, (start, size) in enumerate(zip(starts, shape)):
        index = add(start, arange(0, size))
        for axis in range(len(shape)):
            if axis != d:
                index = expand_dims(index, axis)
        out.append(index)
    return out


def _descriptor_value(desc, value, what: str):
    """`value` as a tile of the descriptor's block (a scalar broadcast), in
    its element type; a tile of another shape is an error naming `what`."""
    block = desc.type.block_type
    value = to_tensor(value)
    if not value.type.is_block():
        value = _broadcast_any(value, list(block.shape))
    if list(value.type.shape) != list(block.shape):
        raise SemanticError(f"{what} of a {list(value.type.shape)} tile through a descriptor of block shape "
                            f"{list(block.shape)}")
    return cast(value, block.element_ty)


def descriptor_atomic(kind: str, desc, offsets, value):
    """desc.atomic_<kind>(offsets, value): an element-wise atomic of the
    block at `offsets` with `value` (relaxed, GPU scope, as a TMA reduction
    is); elements outside the tensor are left alone.  Returns nothing."""
    what = f"atomic_{kind}"
    elt = desc.type.block_type.element_ty
    allowed = _DESCRIPTOR_ATOMIC_DTYPES[kind]
    if elt not in [getattr(T, name) for name in allowed]:
        raise SemanticError(f"{what} through a tensor descriptor supports {', '.join(allowed)}; "
                            f"this descriptor holds {elt}")
    if kind in ("min", "max") and elt in (T.float16, T.bfloat16):
        raise SemanticError(f"{what} of {elt} through a tensor descriptor is not supported by Tritium yet "
                            "(it needs a TMA reduction, which is not lowered); use a float32 or integer tensor")
    indices = _descriptor_indices(desc, offsets, what)
    value = _descriptor_value(desc, value, what)
    ptr, inside = _descriptor_element_pointers(desc, _block_indices(desc, indices))
    ptr = _broadcast_any(ptr, _shape(value))
    atomic_rmw(kind, ptr, value, _broadcast_any(inside, _shape(value)), sem="relaxed", scope="gpu")
    return None


def _gather_operands(desc, x_offsets, y_offset, what: str):
    """Checks a gather/scatter (Triton's rules: a 2-D descriptor whose block
    is one row, 1-D integer row offsets of at least 8 rows, at least 32
    bytes of columns) and returns the [rows, 1] and [1, columns] indices."""
    block = desc.type.block_type
    shape = list(block.shape)
    if len(shape) != 2 or shape[0] != 1:
        raise SemanticError(f"{what} needs a 2-D descriptor whose block is one row ([1, N]), got block shape {shape}")
    rows = to_tensor(_unwrap_constexpr(x_offsets))
    if not rows.type.is_block() or len(_shape(rows)) != 1 or not rows.type.scalar.is_int():
        raise SemanticError(f"{what}'s row offsets must be a 1-D integer tensor, got {rows.type}")
    if _shape(rows)[0] < 8:
        raise SemanticError(f"{what} needs at least 8 rows, got {_shape(rows)[0]}")
    bits = block.element_ty.primitive_bitwidth
    min_cols = 32 // bits * 8
    if shape[1] < min_cols:
        raise SemanticError(f"{what} of {block.element_ty} needs a block of at least {min_cols} columns, "
                            f"got {shape[1]}")
    column = _index_scalar(y_offset, what)
    return expand_dims(rows, 1), expand_dims(add(column, arange(0, shape[1])), 0)


def descriptor_gather(desc, x_offsets, y_offset):
    """desc.gather(x_offsets, y_offset): rows x_offsets[i], columns
    y_offset .. y_offset + N - 1 of a descriptor whose block is [1, N], as a
    [len(x_offsets), N] tile; elements outside the tensor load as zero."""
    rows, columns = _gather_operands(desc, x_offsets, y_offset, "gather")
    ptr, inside = _descriptor_element_pointers(desc, [rows, columns])
    shape = [_shape(rows)[0], _shape(columns)[1]]
    return load(_broadcast_any(ptr, shape), _broadcast_any(inside, shape), other=0)


def descriptor_scatter(desc, value, x_offsets, y_offset):
    """desc.scatter(value, x_offsets, y_offset): stores the rows of `value`
    to rows x_offsets[i] (columns from y_offset); elements outside the
    tensor are not stored."""
    rows, columns = _gather_operands(desc, x_offsets, y_offset, "scatter")
    shape = [_shape(rows)[0], _shape(columns)[1]]
    value = to_tensor(value)
    if not value.type.is_block():
        value = _broadcast_any(value, shape)
    if _shape(value) != shape:
        raise SemanticError(f"scatter of a {_shape(value)} tile to {shape[0]} rows of {shape[1]} columns")
    ptr, inside = _descriptor_element_pointers(desc, [rows, columns])
    store(_broadcast_any(ptr, shape), cast(value, desc.type.block_type.element_ty), _broadcast_any(inside, shape))


# ---- debugging ---------------------------------------------------------------------------

def device_print(prefix: str, args, hex: bool = False):
    args = [to_tensor(a) for a in args]
    signed = [1 if a.type.scalar.is_int_signed() else 0 for a in args]
    props = {"prefix": ir.str_attr(prefix), "hex": ir.bool_attr(hex), "isSigned": ir.i32_array_attr(signed)}
    builder().create("tt.print", [a.handle for a in args], [], props)


def device_assert(cond, msg: str):
    cond = _as_bool(cond)
    builder().create("tt.assert", [cond.handle], [], {"message": ir.str_attr(msg)})


# ---- external and inline asm ------------------------------------------------------------

def cast_to_overload(args, overloads):
    """`args` (tensors) as an external function's overloads take them: as
    they are when `overloads` (tuples of scalar dtypes) has their types,
    else, as in Triton, all cast to their common arithmetic type when that
    is an overload; unchanged otherwise (the lookup then reports them)."""
    key = tuple(a.type.scalar for a in args)
    if key in overloads or len(args) < 2:
        return args
    try:
        common = key[0]
        for t in key[1:]:
            common = computation_type(common, False, t, False, False)
    except SemanticError:
        return args
    if (common,) * len(args) in overloads:
        return [cast(a, common) for a in args]
    return args


def extern_elementwise(lib_name: str, lib_path: str, args, arg_type_symbol_dict, is_pure: bool):
    args = [to_tensor(a) for a in args]
    # broadcast all arguments to one shape
    shape: List[int] = []
    for a in args:
        shape = broadcast_shapes(shape, _shape(a)) if shape or a.type.is_block() else shape
    if shape:
        args = [_broadcast_any(a, shape) for a in args]
    key = tuple(a.type.scalar for a in args)
    if key not in arg_type_symbol_dict:
        raise SemanticError(f"no overload of this function takes ({', '.join(str(k) for k in key)}); "
                            f"it takes one of {[tuple(str(t) for t in k) for k in arg_type_symbol_dict]}")
    symbol, ret = arg_type_symbol_dict[key]
    ty = _with_scalar(args[0].type, ret)
    props = {"libname": ir.str_attr(lib_name), "libpath": ir.str_attr(lib_path),
             "symbol": ir.str_attr(symbol), "pure": ir.bool_attr(is_pure)}
    return _tensor(builder().create1("tt.extern_elementwise", [a.handle for a in args], ty.to_ir(), props), ty)


def inline_asm_elementwise(asm: str, constraints: str, args, dtypes_, is_pure: bool, pack: int):
    args = [to_tensor(a) for a in args]
    shape: List[int] = []
    for a in args:
        if a.type.is_block():
            shape = broadcast_shapes(shape, _shape(a))
    if shape:
        args = [_broadcast_any(a, shape) for a in args]
    single = not isinstance(dtypes_, (list, tuple))
    result_dtypes = [dtypes_] if single else list(dtypes_)
    tys = [block_type(d, shape) if shape else d for d in result_dtypes]
    props = {"asm_string": ir.str_attr(asm), "constraints": ir.str_attr(constraints),
             "pure": ir.bool_attr(is_pure), "packed_element": ir.i32_attr(pack)}
    results = builder().create("tt.elementwise_inline_asm", [a.handle for a in args],
                               [t.to_ir() for t in tys], props)
    out = [_tensor(r, t) for r, t in zip(results, tys)]
    return out[0] if single else tuple(out)


# ---- histogram, gather -------------------------------------------------------------------

def histogram(x, num_bins: int, mask=None):
    """result[i] = number of elements of the 1-D integer tensor `x` equal to
    i, for i in [0, num_bins); other values, and elements where `mask` is
    false, are not counted.  Inputs narrower than 32 bits are widened to
    int32 first (zero-extended when unsigned), so tt.histogram compares
    values of at least 32 bits."""
    num_bins = int(_unwrap_constexpr(num_bins))
    if not x.type.is_block() or len(_shape(x)) != 1 or not x.type.scalar.is_int():
        raise SemanticError(f"histogram needs a 1-D integer tensor, got {x.type}")
    if not _is_pow2(num_bins):
        raise SemanticError(f"histogram's num_bins must be a power of two, got {num_bins}")
    if x.type.scalar.int_bitwidth < 32:
        x = cast(x, T.int32)
    mask = _unwrap_constexpr(mask)
    if mask is not None:
        # num_bins itself is never counted.
        x = where(mask, x, num_bins)
    ty = block_type(T.int32, [num_bins])
    return _tensor(builder().create1("tt.histogram", [x.handle], ty.to_ir()), ty)


def gather(src, index, axis: int):
    axis = int(_unwrap_constexpr(axis))
    ss, si = _shape(src), _shape(index)
    if len(ss) != len(si):
        raise SemanticError(f"gather's source and index need one rank, got {ss} and {si}")
    if not 0 <= axis < len(ss):
        raise SemanticError(f"gather's axis {axis} is out of range for rank {len(ss)}")
    for d in range(len(ss)):
        if d != axis and ss[d] != si[d]:
            raise SemanticError(f"gather's index dimension {d} is {si[d]}, the source's is {ss[d]}")
    if not index.type.scalar.is_int():
        raise SemanticError("gather's index must be integers")
    ty = block_type(src.type.scalar, si)
    return _tensor(builder().create1("tt.gather", [src.handle, index.handle], ty.to_ir(),
                                     {"axis": ir.i32_attr(axis)}), ty)


# ---- reductions and scans ------------------------------------------------------------------
#
# The combine function is a @jit function: the code generator that is
# compiling the kernel generates it (once per element types) and the region
# calls it; the TTIR pipeline inlines the call.

def combine_caller():
    caller = getattr(_state, "combine_caller", None)
    if caller is None:
        raise SemanticError("reductions can only be used inside a @jit function")
    return caller


def set_combine_caller(caller):
    previous = getattr(_state, "combine_caller", None)
    _state.combine_caller = caller
    return previous


def _combine_region(combine_fn, scalar_types: List[dtype], return_op: str) -> str:
    b = builder()
    n = len(scalar_types)
    args = b.new_block_args([t.to_ir() for t in scalar_types] * 2)
    block = b.open_block(args)
    values = [_tensor(a, t) for a, t in zip(args, scalar_types * 2)]
    results = combine_caller()(combine_fn, values)
    results = list(results) if isinstance(results, tuple) else [results]
    if len(results) != n:
        b.close_block()
        raise SemanticError(f"the combine function must return {n} value(s), one per operand, got {len(results)}")
    results = [to_tensor(_unwrap_constexpr(r)) for r in results]
    for r, t in zip(results, scalar_types):
        if r.type != t:
            b.close_block()
            raise SemanticError(f"the combine function returns {r.type} for an operand of type {t}; "
                                "it must return the operands' types")
    b.create(return_op, [r.handle for r in results], [])
    b.close_block()
    return ir.Builder.render_region(block)


def _reduction_inputs(input, axis):
    inputs = list(input) if isinstance(input, tuple) else [input]
    inputs = [to_tensor(_unwrap_constexpr(x)) for x in inputs]
    if axis is None:
        inputs = [reshape(x, [x.type.numel], can_reorder=True) if x.type.is_block() else x for x in inputs]
        axis = 0
    shape = _shape(inputs[0])
    if not shape:
        raise SemanticError("cannot reduce a scalar: reductions need a tensor")
    for x in inputs[1:]:
        if _shape(x) != shape:
            raise SemanticError(f"reduced tensors must share one shape, got {shape} and {_shape(x)}")
    if not isinstance(axis, int) or not -len(shape) <= axis < len(shape):
        raise SemanticError(f"axis {axis} is out of range for a tensor of rank {len(shape)}")
    if axis < 0:
        axis += len(shape)
    return inputs, axis, shape


def reduce(input, axis, combine_fn, keep_dims: bool = False):
    inputs, axis, shape = _reduction_inputs(input, axis)
    scalar_types = [x.type.scalar for x in inputs]
    region = _combine_region(combine_fn, scalar_types, "tt.reduce.return")
    out_shape = shape[:axis] + shape[axis + 1:]
    result_types = [block_type(t, out_shape) if out_shape else t for t in scalar_types]
    results = builder().create("tt.reduce", [x.handle for x in inputs], [t.to_ir() for t in result_types],
                               {"axis": ir.i32_attr(axis)}, regions=[region])
    outs = [_tensor(h, t) for h, t in zip(results, result_types)]
    if keep_dims:
        outs = [expand_dims(o, axis) for o in outs]
    return tuple(outs) if isinstance(input, tuple) else outs[0]


def scan(input, axis, combine_fn, reverse: bool = False):
    inputs, axis, shape = _reduction_inputs(input, axis)
    scalar_types = [x.type.scalar for x in inputs]
    region = _combine_region(combine_fn, scalar_types, "tt.scan.return")
    results = builder().create("tt.scan", [x.handle for x in inputs], [x.type.to_ir() for x in inputs],
                               {"axis": ir.i32_attr(axis), "reverse": ir.bool_attr(reverse)}, regions=[region])
    outs = [_tensor(h, x.type) for h, x in zip(results, inputs)]
    return tuple(outs) if isinstance(input, tuple) else outs[0]
