"""`triton.reinterpret`: a tensor passed to kernels as another dtype of the
same width (`TensorWrapper`), Triton's names of dtypes
(`type_canonicalisation_dict`, e.g. "float16" and "half" -> "fp16"), and the
signature string of a triton.language dtype."""
from __future__ import annotations

from typing import Optional

from ..dtypes import SIGNATURE_TYPES


def signature_of_dtype(ty) -> Optional[str]:
    """The signature string of a triton.language dtype (uint32 -> "u32")."""
    for text, candidate in SIGNATURE_TYPES.items():
        if candidate == ty and text not in ("u1", "f32"):
            return text
    return None


# Triton's names of dtypes (numpy's, torch's, its own) -> signature strings
type_canonicalisation_dict = {
    "bool": "i1", "int1": "i1", "uint1": "u1", "float8e4nv": "fp8e4nv", "float8e5": "fp8e5",
    "float8e4b15": "fp8e4b15",
    "float8_e4m3fn": "fp8e4nv", "float8e4b8": "fp8e4b8", "float8_e4m3fnuz": "fp8e4b8", "float8_e5m2": "fp8e5",
    "float8e5b16": "fp8e5b16", "float8_e5m2fnuz": "fp8e5b16", "half": "fp16", "float16": "fp16",
    "bfloat16": "bf16", "float": "fp32", "float32": "fp32", "double": "fp64", "float64": "fp64",
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8", "uint16": "u16",
    "uint32": "u32", "uint64": "u64", "void": "void",
}
for _canonical in set(type_canonicalisation_dict.values()):
    type_canonicalisation_dict[_canonical] = _canonical


class TensorWrapper:
    """A tensor whose memory a kernel reads as another dtype of the same
    width (`triton.reinterpret(x, tl.uint32)`): launches pass the base
    tensor's address and the signature says `dtype`."""

    def __init__(self, base, dtype):
        self.dtype = dtype
        self.base = base
        self.data = base.data
        self.device = base.device
        self.shape = self.base.shape

    @property
    def is_cuda(self) -> bool:
        return bool(getattr(self.base, "is_cuda", False))

    def data_ptr(self) -> int:
        return self.base.data_ptr()

    def stride(self, *args):
        return self.base.stride(*args)

    def numel(self) -> int:
        return self.base.numel()

    def element_size(self) -> int:
        return self.base.element_size()

    def dim(self) -> int:
        return self.base.dim()

    def cpu(self):
        return TensorWrapper(self.base.cpu(), self.dtype)

    def copy_(self, other):
        self.base.copy_(other.base if isinstance(other, TensorWrapper) else other)

    def clone(self):
        return TensorWrapper(self.base.clone(), self.dtype)

    def to(self, device):
        return TensorWrapper(self.base.to(device), self.dtype)

    def new_empty(self, sizes):
        return TensorWrapper(self.base.new_empty(sizes), self.dtype)

    def __str__(self):
        return f"TensorWrapper[{self.dtype}]({self.base})"


def reinterpret(tensor, dtype):
    """`tensor` seen by kernels as `dtype` (a triton.language dtype of the same width)."""
    if isinstance(tensor, TensorWrapper):
        if dtype == tensor.base.dtype:
            return tensor.base  # back to the original interpretation
        return TensorWrapper(tensor.base, dtype)
    if hasattr(tensor, "data_ptr"):
        return TensorWrapper(tensor, dtype)
    raise TypeError(f"cannot reinterpret a {type(tensor).__name__}")


class MockTensor:
    """A stand-in for a tensor argument of `warmup` (Triton's name): only its dtype matters."""

    def __init__(self, dtype, shape=None):
        self.dtype = dtype
        self.shape = shape or [1]

    @staticmethod
    def data_ptr():
        return 0

    @staticmethod
    def wrap_dtype(arg):
        """A MockTensor for a torch dtype (what `warmup` accepts in place of
        a tensor), anything else unchanged."""
        if type(arg).__name__ == "dtype" and type(arg).__module__ == "torch":
            return MockTensor(arg)
        return arg
