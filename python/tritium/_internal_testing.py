"""`triton._internal_testing`: the helpers Triton's own test files import
(target predicates, dtype lists, random inputs and conversions between
numpy arrays and device tensors).  Tritium provides them under the same
names so that Triton's upstream tests run against it as a measure
(scripts/triton_suite.sh); its own tests do not use them.

Tritium targets NVIDIA GPUs only and has no interpreter: every AMD and
Intel predicate answers False, `is_interpreter()` answers False.
"""
from __future__ import annotations

import os

import numpy as np

from . import knobs
from . import language as tl
from .runtime import driver
from .runtime.jit import TensorWrapper, reinterpret, type_canonicalisation_dict

int_dtypes = ["int8", "int16", "int32", "int64"]
uint_dtypes = ["uint8", "uint16", "uint32", "uint64"]
integral_dtypes = int_dtypes + uint_dtypes
float_dtypes = ["float16", "float32", "float64"]
float_dtypes_with_bfloat16 = float_dtypes + ["bfloat16"]
dtypes = integral_dtypes + float_dtypes
dtypes_with_bfloat16 = dtypes + ["bfloat16"]
torch_float8_dtypes = ["float8_e4m3fn", "float8_e5m2"]
torch_dtypes = ["bool"] + int_dtypes + ["uint8"] + float_dtypes + ["bfloat16"]
tma_dtypes = sorted(set(integral_dtypes + float_dtypes_with_bfloat16) - {"int64", "uint64", "float64"})


def is_interpreter() -> bool:
    return False


def get_current_target():
    return driver.active.get_current_target()


def is_cuda() -> bool:
    return get_current_target().backend == "cuda"


def _capability_major() -> int:
    return get_current_target().arch // 10


def is_ampere_or_newer() -> bool:
    return is_cuda() and _capability_major() >= 8


def is_hopper() -> bool:
    return is_cuda() and _capability_major() == 9


def is_hopper_or_newer() -> bool:
    return is_cuda() and _capability_major() >= 9


def is_blackwell() -> bool:
    return is_cuda() and _capability_major() == 10


def is_rubin() -> bool:
    """Compute capability 10.7 (Triton's name for its newest NVIDIA parts)."""
    return is_cuda() and get_current_target().arch == 107


def is_sm12x() -> bool:
    return is_cuda() and _capability_major() == 12


def _never() -> bool:
    return False


is_hip = is_hip_cdna = is_hip_cdna2 = is_hip_cdna3 = is_hip_cdna4 = _never
is_hip_gfx11 = is_hip_gfx12 = is_hip_gfx1250 = is_xpu = _never
is_hip_mi200 = is_hip_mi300 = is_hip_mi350 = _never


def get_arch() -> str:
    return str(get_current_target().arch)


def supports_tma(byval_only: bool = False) -> bool:
    """Tensor descriptors do not lower in Tritium yet."""
    return False


def supports_ws() -> bool:
    return False


def _range_of(dtype_str: str):
    info = np.iinfo(getattr(np, dtype_str))
    return int(info.min), int(info.max)


def numpy_random(shape, dtype_str, rs=None, low=None, high=None):
    """Random values of `dtype_str` (a numpy dtype name, "bfloat16", a float8
    name or "bool"), reproducible: RandomState(17) unless `rs` is given.
    Integers avoid 0 (tests divide by them); bfloat16 is float32 with the
    low 16 bits cleared; float8 values are raw bytes from [20, 40)."""
    if isinstance(shape, int):
        shape = (shape,)
    if rs is None:
        rs = np.random.RandomState(seed=17)
    if dtype_str in int_dtypes + uint_dtypes:
        lo, hi = _range_of(dtype_str)
        low = lo if low is None else max(low, lo)
        high = hi if high is None else min(high, hi)
        x = rs.randint(low, high, shape, dtype=np.dtype(dtype_str))
        x[x == 0] = 1
        return x
    if dtype_str.startswith("float8"):
        return rs.randint(20, 40, shape, dtype=np.int8)
    if dtype_str in float_dtypes:
        return rs.normal(0, 1, shape).astype(dtype_str)
    if dtype_str == "bfloat16":
        return (rs.normal(0, 1, shape).astype("float32").view("uint32") & np.uint32(0xFFFF0000)).view("float32")
    if dtype_str in ("bool", "int1", "bool_"):
        return rs.normal(0, 1, shape) > 0.0
    raise RuntimeError(f"unknown dtype {dtype_str}")


def to_triton(x: np.ndarray, device, dst_type=None):
    """A device tensor with the values of `x`: unsigned arrays travel as the
    signed type of their width, reinterpreted as unsigned; `dst_type`
    "bfloat16" converts float32, a float8 name reinterprets the bytes."""
    import torch  # (optional, and heavy: imported when a helper that needs it runs)
    t = x.dtype.name
    if t in uint_dtypes:
        signed = t[1:]
        return reinterpret(torch.tensor(x.view(signed), device=device), getattr(tl, t))
    if dst_type and "float8" in dst_type:
        return reinterpret(torch.tensor(x, device=device), getattr(tl, dst_type))
    if t == "float32" and dst_type == "bfloat16":
        return torch.tensor(x, device=device).bfloat16()
    return torch.tensor(x, device=device)


def torch_dtype_name(dtype) -> str:
    if isinstance(dtype, tl.dtype):
        return {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32", "fp64": "float64",
                "int1": "bool"}.get(dtype.name, dtype.name)
    import torch  # (optional, and heavy: imported when a helper that needs it runs)
    if isinstance(dtype, torch.dtype):
        return str(dtype).split(".")[-1]
    raise TypeError(f"not a triton or torch dtype: {type(dtype)}")


def to_numpy(x):
    """A host numpy array of a device tensor (a TensorWrapper keeps its
    reinterpreted dtype; bfloat16 becomes float32)."""
    import torch  # (optional, and heavy: imported when a helper that needs it runs)
    if isinstance(x, TensorWrapper):
        return x.base.cpu().numpy().astype(getattr(np, torch_dtype_name(x.dtype)))
    if isinstance(x, torch.Tensor):
        if x.dtype is torch.bfloat16:
            return x.cpu().float().numpy()
        return x.cpu().numpy()
    raise ValueError(f"not a triton-compatible tensor: {x}")


def str_to_triton_dtype(x: str):
    return tl.str_to_ty(type_canonicalisation_dict[x], None)


def unwrap_tensor(t):
    return t.base if isinstance(t, TensorWrapper) else t


def default_alloc_fn(size: int, align: int, stream):
    import torch  # (optional, and heavy: imported when a helper that needs it runs)
    return torch.empty(size, dtype=torch.int8, device="cuda")


def _fresh_knobs_impl(skipped_attr=None):
    """(fresh, reset): `fresh()` gives every knob group its defaults (except
    the groups named in `skipped_attr`) with their environment variables
    removed, and returns the knobs module; `reset()` restores them, and
    removes the variables a test set that were not set before (a knob set
    with `propagate_env` writes its variable)."""
    import pytest  # (imported by the test suites that call this, not by Tritium)
    skipped_attr = set(skipped_attr or ())
    monkeypatch = pytest.MonkeyPatch()
    groups = {name: group for name, group in vars(knobs).items()
              if isinstance(group, knobs.base_knobs) and name not in skipped_attr}
    saved_propagate = knobs.propagate_env
    unset_before = []

    def fresh():
        for name, group in groups.items():
            setattr(knobs, name, group.copy().reset())
            for descriptor in group.knob_descriptors.values():
                if descriptor.key in os.environ:
                    monkeypatch.delenv(descriptor.key)
                else:
                    unset_before.append(descriptor.key)
        knobs.propagate_env = True
        return knobs

    def reset():
        for name, group in groups.items():
            setattr(knobs, name, group)
        monkeypatch.undo()  # first: it restores what was set before
        for key in unset_before:
            os.environ.pop(key, None)
        knobs.propagate_env = saved_propagate

    return fresh, reset
