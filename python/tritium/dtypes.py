"""Triton's types: scalar dtypes, pointers and blocks (tensors), with their
MLIR spellings.  Unsigned integers are signless in MLIR; their signedness
lives here and picks the unsigned op variants (divui, cmpi ult, extui...).

It imports no other part of Tritium: the language (which re-exports these
as `tl.float16`, `tl.dtype`, ...), the runtime (argument types) and the
compiler all build on it."""
from __future__ import annotations

from enum import Enum
from typing import List, Sequence, Any


class SemanticError(Exception):
    """A kernel uses an operation wrongly (shapes, types, arguments).

    `str()` is the message (Triton's words where Triton has them: code that
    reads an error's `__cause__` compares them); `detail`, when given, is
    what the error at the user's line adds after it (the offending value)."""

    def __init__(self, message: str, detail: str = None):
        super().__init__(message)
        self.detail = detail


# The most elements one tensor may have (Triton's TRITON_MAX_TENSOR_NUMEL): a
# larger tile would not fit the registers of a CTA, and the layout passes
# would spend minutes on it, so it is refused where its type is made.
MAX_TENSOR_NUMEL = 1 << 20


class dtype:
    """A scalar type."""

    class KIND(Enum):
        BOOLEAN = 0
        INT = 1
        FLOAT = 2
        INTEGRAL = 1  # Triton's names of the same kinds
        FLOATING = 2

    class SIGNEDNESS(Enum):
        SIGNED = 0
        UNSIGNED = 1

    SINT_TYPES = ["int8", "int16", "int32", "int64"]
    UINT_TYPES = ["int1", "uint8", "uint16", "uint32", "uint64"]
    FP_TYPES = ["fp8e4nv", "fp8e5", "fp8e4b8", "fp8e5b16", "fp8e4b15", "fp16", "bf16", "fp32", "fp64"]
    # fp8 formats of other targets (AMD's fnuz pair; Triton's e4b15 of pre-Hopper
    # GPUs, which MLIR has no type for: its values travel as i8): they can be
    # loaded, stored and reinterpreted, and a conversion says they are unsupported
    FOREIGN_FP8_TYPES = ["fp8e4b8", "fp8e5b16", "fp8e4b15"]
    STANDARD_FP_TYPES = ["fp16", "bf16", "fp32", "fp64"]
    OTHER_TYPES = ["void"]

    _MLIR = {
        "int1": "i1", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
        "uint8": "i8", "uint16": "i16", "uint32": "i32", "uint64": "i64",
        "fp8e4nv": "f8E4M3FN", "fp8e5": "f8E5M2", "fp8e4b8": "f8E4M3FNUZ", "fp8e5b16": "f8E5M2FNUZ",
        "fp8e4b15": "i8",
        "fp16": "f16", "bf16": "bf16", "fp32": "f32", "fp64": "f64", "void": "void",
    }
    _BITS = {"int1": 1, "int8": 8, "int16": 16, "int32": 32, "int64": 64, "uint8": 8,
             "uint16": 16, "uint32": 32, "uint64": 64, "fp8e4nv": 8, "fp8e5": 8, "fp8e4b8": 8, "fp8e4b15": 8,
             "fp8e5b16": 8, "fp16": 16, "bf16": 16, "fp32": 32, "fp64": 64, "void": 0}

    def __init__(self, name: str):
        if name not in self._MLIR:
            raise ValueError(f"unknown dtype {name}")
        self.name = name
        self.primitive_bitwidth = self._BITS[name]
        self.int_bitwidth = self.primitive_bitwidth if (name in self.SINT_TYPES or name in self.UINT_TYPES) else 0
        self.int_signedness = (dtype.SIGNEDNESS.UNSIGNED if name in self.UINT_TYPES
                               else dtype.SIGNEDNESS.SIGNED)
        self.fp_mantissa_width = {"fp8e4nv": 3, "fp8e5": 2, "fp8e4b8": 3, "fp8e5b16": 2, "fp8e4b15": 3,
                                  "fp16": 10, "bf16": 7, "fp32": 23, "fp64": 52}.get(name, 0)
        self.itemsize = self.primitive_bitwidth // 8

    @property
    def exponent_bias(self) -> int:
        """The exponent bias of a float format (fp16: 15, fp32: 127, fp8e4nv: 7, ...)."""
        bias = {"fp8e4nv": 7, "fp8e5": 15, "fp8e4b8": 8, "fp8e5b16": 16, "fp8e4b15": 15, "fp16": 15,
                "bf16": 127, "fp32": 127, "fp64": 1023}.get(self.name)
        if bias is None:
            raise AttributeError(f"{self.name} is not a floating-point type: it has no exponent bias")
        return bias

    # -- predicates (Triton's names) --
    def is_fp8(self): return self.name.startswith("fp8")
    def is_fp8e4nv(self): return self.name == "fp8e4nv"
    def is_fp8e5(self): return self.name == "fp8e5"
    def is_fp8e4b8(self): return self.name == "fp8e4b8"
    def is_fp8e4b15(self): return self.name == "fp8e4b15"
    def is_fp8e5b16(self): return self.name == "fp8e5b16"
    def is_int8(self): return self.name == "int8"
    def is_int16(self): return self.name == "int16"
    def is_int32(self): return self.name == "int32"
    def is_int64(self): return self.name == "int64"
    def is_uint8(self): return self.name == "uint8"
    def is_uint16(self): return self.name == "uint16"
    def is_uint32(self): return self.name == "uint32"
    def is_uint64(self): return self.name == "uint64"
    def is_fp16(self): return self.name == "fp16"
    def is_bf16(self): return self.name == "bf16"
    def is_fp32(self): return self.name == "fp32"
    def is_fp64(self): return self.name == "fp64"
    def is_int1(self): return self.name == "int1"
    def is_bool(self): return self.is_int1()
    def is_floating(self): return self.name in self.FP_TYPES
    def is_standard_floating(self): return self.name in ("fp16", "bf16", "fp32", "fp64")
    def is_int_signed(self): return self.name in self.SINT_TYPES
    def is_int_unsigned(self): return self.name in self.UINT_TYPES
    def is_int(self): return self.is_int_signed() or self.is_int_unsigned()
    def is_ptr(self): return False
    def is_block(self): return False
    def is_void(self): return self.name == "void"
    def is_const(self): return False

    @staticmethod
    def is_dtype(type_str) -> bool:
        """Whether `type_str` names a scalar type ("fp16", "int32", ...)."""
        return type_str in dtype._MLIR

    def get_int_max_value(self) -> int:
        if self.is_int_signed():
            return 2 ** (self.int_bitwidth - 1) - 1
        if self.is_int_unsigned():
            return 2 ** self.int_bitwidth - 1
        raise ValueError(f"{self.name} is not an integer type")

    def get_int_min_value(self) -> int:
        if self.is_int_signed():
            return -2 ** (self.int_bitwidth - 1)
        if self.is_int_unsigned():
            return 0
        raise ValueError(f"{self.name} is not an integer type")

    def codegen_name(self) -> str:
        """"float16" for fp16, "bfloat16" for bf16, the name otherwise."""
        if self.name.startswith("fp"):
            return "float" + self.name[2:]
        if self.name.startswith("bf"):
            return "bfloat" + self.name[2:]
        return self.name

    def with_element_ty(self, element_ty: "dtype") -> "dtype":
        """This type with `element_ty` as its scalar type (a block keeps its shape)."""
        return element_ty

    def mangle(self) -> str:
        """The type's part of a mangled function name (Triton's spelling)."""
        if self.is_int():
            return ("i" if self.int_signedness == dtype.SIGNEDNESS.SIGNED else "u") + str(self.int_bitwidth)
        if self.is_floating():
            return self.name
        return "V" if self.is_void() else self.name

    def kind(self) -> "dtype.KIND":
        """bool < integer < float: a Python scalar of a lower or equal kind
        takes the tensor's type (signed and unsigned are one kind)."""
        if self.is_bool():
            return dtype.KIND.BOOLEAN
        if self.is_int():
            return dtype.KIND.INT
        return dtype.KIND.FLOAT

    @property
    def scalar(self) -> "dtype":
        return self

    def to_ir(self) -> str:
        return self._MLIR[self.name]

    def to_unsigned(self) -> "dtype":
        return {"int8": uint8, "int16": uint16, "int32": uint32, "int64": uint64}.get(self.name, self)

    def __eq__(self, other):
        return isinstance(other, dtype) and not isinstance(other, (pointer_type, block_type)) \
            and type(other) is type(self) and self.name == other.name

    def __hash__(self):
        return hash(("dtype", self.name))

    def __repr__(self):
        return f"triton.language.{_SHORT_NAMES.get(self.name, self.name)}"

    def __str__(self):
        return self.name

    @property
    def cache_key_part(self) -> str:
        return self.name


class pointer_type(dtype):
    """`!tt.ptr<element_ty>`; `const` pointers are read-only."""

    def __init__(self, element_ty: dtype, address_space: int = 1, const: bool = False):
        self.element_ty = element_ty
        self.address_space = address_space
        self.const = const
        self.name = f"pointer<{element_ty}>"
        self.primitive_bitwidth = 64
        self.int_bitwidth = 0
        self.int_signedness = dtype.SIGNEDNESS.SIGNED
        self.fp_mantissa_width = 0

    def is_ptr(self): return True
    def is_floating(self): return False
    def is_int(self): return False
    def is_int_signed(self): return False
    def is_int_unsigned(self): return False
    def is_bool(self): return False
    def is_fp8(self): return False
    def is_const(self): return self.const

    def kind(self):
        return None

    def mangle(self) -> str:
        return f"P{self.element_ty.mangle()}"

    def to_ir(self) -> str:
        if self.address_space == 1:
            return f"!tt.ptr<{self.element_ty.to_ir()}>"
        return f"!tt.ptr<{self.element_ty.to_ir()}, {self.address_space}>"

    def __eq__(self, other):
        # constness is part of the type (as in Triton): a const and a mutable
        # pointer do not merge at an `if` or a conditional expression
        return isinstance(other, pointer_type) and self.element_ty == other.element_ty \
            and self.address_space == other.address_space and self.const == other.const

    def __hash__(self):
        return hash(("ptr", self.element_ty, self.address_space, self.const))

    def __repr__(self):
        return f"pointer_type({self.element_ty!r}{', const=True' if self.const else ''})"

    __str__ = __repr__


class block_type(dtype):
    """A tensor: `shape` of `element_ty` (a scalar dtype or pointer)."""

    def __init__(self, element_ty: dtype, shape: Sequence[int]):
        self.element_ty = element_ty
        self.shape = tuple(int(s) for s in shape)
        self.numel = 1
        for s in self.shape:
            self.numel *= s
        if self.numel > MAX_TENSOR_NUMEL:
            raise SemanticError(f"a tensor of shape {list(self.shape)}: numel ({self.numel}) exceeds the maximum "
                                f"tensor numel ({MAX_TENSOR_NUMEL})")
        self.name = f"<{self.shape}, {element_ty}>"
        self.primitive_bitwidth = element_ty.primitive_bitwidth
        self.int_bitwidth = element_ty.int_bitwidth
        self.int_signedness = element_ty.int_signedness
        self.fp_mantissa_width = element_ty.fp_mantissa_width

    def is_block(self): return True

    @property
    def scalar(self) -> dtype:
        return self.element_ty

    def get_block_shapes(self) -> List[int]:
        return list(self.shape)

    def with_element_ty(self, element_ty: dtype) -> "block_type":
        return block_type(element_ty, self.shape)

    def mangle(self) -> str:
        return f"{self.element_ty.mangle()}S{'_'.join(map(str, self.shape))}S"

    def kind(self):
        return self.element_ty.kind()

    def to_ir(self) -> str:
        return "tensor<" + "".join(f"{s}x" for s in self.shape) + self.element_ty.to_ir() + ">"

    def __eq__(self, other):
        return isinstance(other, block_type) and self.shape == other.shape \
            and self.element_ty == other.element_ty

    def __hash__(self):
        return hash(("block", self.element_ty, self.shape))

    def __repr__(self):
        return f"block_type({self.element_ty!r}, {list(self.shape)})"

    def __str__(self):  # in messages: int32[4, 8]
        return f"{self.element_ty}[{', '.join(str(s) for s in self.shape)}]"


# A block's type predicates are its element type's (is_block excepted).
for _predicate in ("is_fp8", "is_fp8e4nv", "is_fp8e5", "is_fp8e4b8", "is_fp8e4b15", "is_fp8e5b16", "is_fp16",
                   "is_bf16", "is_fp32", "is_fp64", "is_int1", "is_bool", "is_floating", "is_standard_floating",
                   "is_int_signed", "is_int_unsigned", "is_int", "is_int8", "is_int16", "is_int32", "is_int64",
                   "is_uint8", "is_uint16", "is_uint32", "is_uint64", "is_ptr", "is_void"):
    setattr(block_type, _predicate,
            lambda self, _name=_predicate: getattr(self.element_ty, _name)())

_SHORT_NAMES = {"int1": "int1", "fp8e4nv": "float8e4nv", "fp8e5": "float8e5", "fp8e4b8": "float8e4b8",
                "fp8e4b15": "float8e4b15",
                "fp8e5b16": "float8e5b16", "fp16": "float16", "bf16": "bfloat16", "fp32": "float32",
                "fp64": "float64"}

void = dtype("void")
int1 = dtype("int1")
int8 = dtype("int8")
int16 = dtype("int16")
int32 = dtype("int32")
int64 = dtype("int64")
uint8 = dtype("uint8")
uint16 = dtype("uint16")
uint32 = dtype("uint32")
uint64 = dtype("uint64")
float8e4nv = dtype("fp8e4nv")
float8e5 = dtype("fp8e5")
float8e4b8 = dtype("fp8e4b8")
float8e4b15 = dtype("fp8e4b15")
float8e5b16 = dtype("fp8e5b16")
float16 = dtype("fp16")
bfloat16 = dtype("bf16")
float32 = dtype("fp32")
float64 = dtype("fp64")

def get_int_dtype(bitwidth: int, signed: bool) -> dtype:
    """The integer type of `bitwidth` bits (1, 8, 16, 32, 64) and signedness
    (int1 for 1 bit), as Triton's triton.language.core.get_int_dtype."""
    bitwidth, signed = int(getattr(bitwidth, "value", bitwidth)), bool(getattr(signed, "value", signed))
    if bitwidth == 1:
        return int1
    table = {8: (int8, uint8), 16: (int16, uint16), 32: (int32, uint32), 64: (int64, uint64)}
    if bitwidth not in table:
        raise ValueError(f"Unsupported bitwidth {bitwidth} and signedness {signed}")
    return table[bitwidth][0 if signed else 1]


# Signature strings (`*fp16`, `i32`, `u1`, ...) of tritium.compile and the launcher.
SIGNATURE_TYPES = {
    "i1": int1, "u1": int1, "i8": int8, "i16": int16, "i32": int32, "i64": int64,
    "u8": uint8, "u16": uint16, "u32": uint32, "u64": uint64,
    "fp8e4nv": float8e4nv, "fp8e5": float8e5, "fp8e4b8": float8e4b8, "fp8e5b16": float8e5b16,
    "fp8e4b15": float8e4b15,
    "fp16": float16, "bf16": bfloat16, "fp32": float32, "f32": float32, "fp64": float64,
}


class tensor_descriptor_type:
    """The type of a tensor descriptor parameter: tiles of `block_type`.

    A kernel receives a host TensorDescriptor as several parameters, its
    leaves: the 128-byte tensor map (`!tt.tensordesc<...>`), then the base
    pointer, the shape (i32 each) and the strides (i64 each) of the tensor,
    with which tiles TMA cannot move are loaded through pointers."""

    def __init__(self, block_type: block_type):
        self.block_type = block_type

    # As the type of a tl.tensor holding a descriptor's !tt.tensordesc value
    # where it crosses a branch or loop (compiler/crossing_values.py): a
    # scalar of its own type.
    @property
    def scalar(self):
        return self

    def is_block(self) -> bool:
        return False

    @property
    def rank(self) -> int:
        return len(self.block_type.shape)

    def to_ir(self) -> str:
        return f"!tt.tensordesc<{self.block_type.to_ir()}>"

    def leaf_types(self) -> List[Any]:
        """(name suffix, type) of the parameters, in the kernel's order."""
        leaves = [("", self), (".base", pointer_type(self.block_type.element_ty))]
        leaves += [(f".shape{i}", int32) for i in range(self.rank)]
        leaves += [(f".stride{i}", int64) for i in range(self.rank)]
        return leaves

    def signature(self) -> str:
        element = next(k for k, v in SIGNATURE_TYPES.items() if v == self.block_type.element_ty)
        return f"tensordesc<{element}{list(self.block_type.shape)}>".replace(" ", "")

    def __eq__(self, other):
        return isinstance(other, tensor_descriptor_type) and self.block_type == other.block_type

    def __hash__(self):
        return hash(("tensordesc", self.block_type))

    def __repr__(self):
        return f"tensor_descriptor_type({self.block_type!r})"


def parse_tensordesc_signature(text: str):
    """"tensordesc<fp16[64,64]>" -> (float16, [64, 64]), or None."""
    if not (text.startswith("tensordesc<") and text.endswith("]>") and "[" in text):
        return None
    element, _, dims = text[len("tensordesc<"):-2].partition("[")
    try:
        return SIGNATURE_TYPES[element], [int(d) for d in dims.split(",")]
    except (KeyError, ValueError):
        return None


def dtype_from_signature(text: str) -> dtype:
    """`*fp16` -> pointer_type(float16); `i32` -> int32; `*k*fp32` -> const pointer;
    `tensordesc<fp16[64,64]>` -> a tensor_descriptor_type."""
    text = text.strip()
    if text.startswith("tensordesc<"):
        parsed = parse_tensordesc_signature(text)
        if parsed is None:
            raise ValueError(f"malformed tensor descriptor type '{text}' in signature")
        return tensor_descriptor_type(block_type(*parsed))
    if text.startswith("*"):
        rest = text[1:]
        const = False
        if rest.startswith("k"):
            const, rest = True, rest[1:]
        return pointer_type(dtype_from_signature(rest), const=const)
    if text not in SIGNATURE_TYPES:
        raise ValueError(f"unknown type '{text}' in signature")
    return SIGNATURE_TYPES[text]
