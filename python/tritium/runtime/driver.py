"""The CUDA side of the runtime, through the native library's C ABI
(capi/tritium.h): device queries, module loading and kernel launches.

The driver itself is dlopen()ed by the native library on first use, so
importing tritium works on machines without a GPU; only these calls fail
there, with a TritiumError saying why.
"""
from __future__ import annotations

import ctypes
import sys
import threading
from typing import Dict, Optional, Tuple

from .._native import native_library
from .. import backends as _backends
from ..backends.compiler import GPUTarget
from ..backends.driver import DriverBase
from ..errors import TritiumError

_c_int_p = ctypes.POINTER(ctypes.c_int)
_c_void_pp = ctypes.POINTER(ctypes.c_void_p)


class CudaError(TritiumError):
    """A CUDA driver call failed (the message names the call and the error)."""


class CudaRuntime:
    def __init__(self):
        lib = native_library()
        self._lib = lib
        d = lib._dll
        d.tritium_cuda_init.argtypes = [_c_int_p, _c_void_pp]
        d.tritium_cuda_init.restype = ctypes.c_int
        d.tritium_cuda_device_properties.argtypes = [ctypes.c_int, _c_int_p, _c_int_p, _c_int_p, _c_int_p,
                                                     _c_void_pp]
        d.tritium_cuda_device_properties.restype = ctypes.c_int
        d.tritium_cuda_load.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint, ctypes.c_int, _c_void_pp,
                                        _c_void_pp, _c_int_p, _c_void_pp]
        d.tritium_cuda_load.restype = ctypes.c_int
        # The launch path calls this with one bytes object (the launch
        # record) and without argtypes: ctypes' cheapest call.
        launch = d["tritium_cuda_launch"]
        launch.restype = ctypes.c_int
        self.launch_params = d["tritium_cuda_launch_params"]
        self.launch_params.restype = ctypes.c_int
        self.launch_cooperative = d["tritium_cuda_launch_cooperative"]
        self.launch_cooperative.restype = ctypes.c_int
        d.tritium_cuda_last_launched.argtypes = []
        d.tritium_cuda_last_launched.restype = ctypes.c_uint64
        d.tritium_cuda_synchronize.argtypes = [_c_void_pp]
        d.tritium_cuda_synchronize.restype = ctypes.c_int
        d.tritium_cuda_memory.argtypes = [ctypes.c_int, ctypes.c_uint64, ctypes.POINTER(ctypes.c_uint64),
                                          _c_void_pp]
        d.tritium_cuda_memory.restype = ctypes.c_int
        d.tritium_cuda_stream_capturing.argtypes = [ctypes.c_uint64, ctypes.POINTER(ctypes.c_int), _c_void_pp]
        d.tritium_cuda_stream_capturing.restype = ctypes.c_int
        d.tritium_cuda_error_text.argtypes = [ctypes.c_int, _c_void_pp]
        d.tritium_cuda_error_text.restype = None
        _u64_p, _u32_p = ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_uint32)
        d.tritium_cuda_encode_tensor_map.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_uint64,
                                                     _u64_p, _u64_p, _u32_p, ctypes.c_int, ctypes.c_int,
                                                     _c_void_pp]
        d.tritium_cuda_encode_tensor_map.restype = ctypes.c_int
        self._d = d
        self.launch = launch
        self.last_launched = d.tritium_cuda_last_launched
        count = ctypes.c_int(0)
        diag = ctypes.c_void_p()
        if d.tritium_cuda_init(ctypes.byref(count), ctypes.byref(diag)) != 0:
            raise CudaError(f"no usable GPU: {lib._take_string(diag)}")
        self.device_count = count.value
        self._properties = {}

    def device_properties(self, device: int) -> dict:
        props = self._properties.get(device)
        if props is None:
            major, minor, sms, smem = (ctypes.c_int() for _ in range(4))
            diag = ctypes.c_void_p()
            if self._d.tritium_cuda_device_properties(device, ctypes.byref(major), ctypes.byref(minor),
                                                      ctypes.byref(sms), ctypes.byref(smem),
                                                      ctypes.byref(diag)) != 0:
                raise CudaError(self._lib._take_string(diag))
            props = {"major": major.value, "minor": minor.value, "capability": major.value * 10 + minor.value,
                     "multiprocessor_count": sms.value, "max_shared_mem": smem.value}
            self._properties[device] = props
        return props

    def load(self, image: bytes, name: str, shared: int, device: int) -> Tuple[int, int, int]:
        module, function, regs = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_int()
        diag = ctypes.c_void_p()
        if self._d.tritium_cuda_load(image, name.encode(), shared, device, ctypes.byref(module),
                                     ctypes.byref(function), ctypes.byref(regs), ctypes.byref(diag)) != 0:
            raise CudaError(self._lib._take_string(diag))
        return module.value, function.value, regs.value

    def encode_tensor_map(self, data_type: int, address: int, dims, strides, box, swizzle: int,
                          nan_fill: bool) -> bytes:
        """The 128-byte CUDA tensor map (cuTensorMapEncodeTiled); `dims`,
        `strides` (bytes, dimensions 1 ..) and `box` innermost first."""
        rank = len(dims)
        buffer = ctypes.create_string_buffer(128 + 64)
        start = (-ctypes.addressof(buffer)) % 64  # the driver writes a 64-byte aligned map
        diag = ctypes.c_void_p()
        if self._d.tritium_cuda_encode_tensor_map(
                ctypes.addressof(buffer) + start, data_type, rank, address, (ctypes.c_uint64 * rank)(*dims),
                (ctypes.c_uint64 * max(rank - 1, 1))(*strides), (ctypes.c_uint32 * rank)(*box), swizzle,
                int(nan_fill), ctypes.byref(diag)) != 0:
            raise CudaError(self._lib._take_string(diag))
        return buffer.raw[start:start + 128]

    def allocate(self, device: int, size: int) -> int:
        """The address of `size` new bytes of global memory on `device`."""
        address, diag = ctypes.c_uint64(0), ctypes.c_void_p()
        if self._d.tritium_cuda_memory(device, size, ctypes.byref(address), ctypes.byref(diag)) != 0:
            raise CudaError(self._lib._take_string(diag))
        return address.value

    def stream_capturing(self, stream: int) -> bool:
        """Whether `stream` is being captured into a CUDA graph."""
        capturing, diag = ctypes.c_int(0), ctypes.c_void_p()
        if self._d.tritium_cuda_stream_capturing(stream, ctypes.byref(capturing), ctypes.byref(diag)) != 0:
            raise CudaError(self._lib._take_string(diag))
        return bool(capturing.value)

    def error_text(self, result: int) -> str:
        text = ctypes.c_void_p()
        self._d.tritium_cuda_error_text(result, ctypes.byref(text))
        return self._lib._take_string(text)

    def synchronize(self):
        diag = ctypes.c_void_p()
        if self._d.tritium_cuda_synchronize(ctypes.byref(diag)) != 0:
            raise CudaError(self._lib._take_string(diag))


_runtime: Optional[CudaRuntime] = None
_lock = threading.Lock()


def cuda() -> CudaRuntime:
    """The process-wide CUDA runtime (raises CudaError without a GPU)."""
    global _runtime
    if _runtime is None:
        with _lock:
            if _runtime is None:
                _runtime = CudaRuntime()
    return _runtime


# kernel names by CUfunction handle, to name the last kernel launched
_names_by_function: Dict[int, str] = {}


def name_function(function: int, name: str) -> None:
    """Records the kernel name of a loaded CUfunction, for last_launched."""
    _names_by_function[function] = name


def last_launched() -> str:
    """The name of the kernel Tritium launched last ("" if none), the
    likely culprit of an asynchronous error found later."""
    if _runtime is None:
        return ""
    return _names_by_function.get(_runtime.last_launched(), "")


# ---- the caller's device and stream (PyTorch's when it is in use) ----
#
# Both are asked on every launch, so the PyTorch entry points are looked up
# once (and again only while PyTorch has not been imported yet).

_device_getter = None
_stream_getter = None


def _resolve_torch():
    global _device_getter, _stream_getter
    torch = sys.modules.get("torch")
    if torch is None:
        return False
    raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    _stream_getter = raw_stream if raw_stream is not None else \
        (lambda device: torch.cuda.current_stream(device).cuda_stream)
    get_device = getattr(torch._C, "_cuda_getDevice", None) or torch.cuda.current_device
    is_initialized = torch.cuda.is_initialized

    def device_before_init():
        # Until PyTorch initializes CUDA its current device is 0; once it has,
        # ask it directly from then on (initialization is never undone).
        global _device_getter
        if is_initialized():
            _device_getter = get_device
            return get_device()
        return 0
    _device_getter = get_device if is_initialized() else device_before_init
    return True


def current_device() -> int:
    if _device_getter is None and not _resolve_torch():
        return 0
    return _device_getter()


def device_getter():
    """The function () -> current device to call on every launch: PyTorch's
    own once PyTorch is loaded (a wrapper until it has initialized CUDA),
    else current_device."""
    if _device_getter is None:
        _resolve_torch()
    return _device_getter or current_device


def current_stream(device: int) -> int:
    """The raw CUstream PyTorch launches on (0, the legacy default stream,
    without PyTorch)."""
    if _stream_getter is None and not _resolve_torch():
        return 0
    return _stream_getter(device)


def stream_getter():
    """The function (device) -> raw CUstream to call on every launch:
    PyTorch's own when PyTorch is loaded, else current_stream."""
    if _stream_getter is None:
        _resolve_torch()
    return _stream_getter or current_stream


def synchronize():
    """Waits for the GPU; an asynchronous kernel error (e.g. an illegal
    address) raises CudaError naming the last kernel Tritium launched."""
    try:
        cuda().synchronize()
    except CudaError as e:
        last = last_launched()
        raise CudaError(f"{e} (last kernel launched by Tritium: '{last}')" if last else str(e)) from None


def current_target() -> str:
    """The target of the current device, e.g. "cuda:90"."""
    return f"cuda:{cuda().device_properties(current_device())['capability']}"


# ---- Triton's `triton.runtime.driver.active` ----
#
# Host code written for Triton asks the active driver for device properties
# (tutorial 02 sizes its persistent grid with them) and for the current
# device and stream.

class _DriverUtils:
    def get_device_properties(self, device: int) -> dict:
        """Triton's keys: multiprocessor_count, max_shared_mem (bytes per
        block, opt-in), max_num_regs (32-bit registers per SM: 65536 on
        every NVIDIA GPU since sm_50) and warpSize."""
        props = cuda().device_properties(device)
        return {"multiprocessor_count": props["multiprocessor_count"], "max_shared_mem": props["max_shared_mem"],
                "max_num_regs": 65536, "warpSize": 32}


_gpu_usable: Optional[bool] = None


def gpu_usable() -> bool:
    """Whether this process can use a CUDA GPU (CudaDriver.is_active, asked
    once)."""
    global _gpu_usable
    if _gpu_usable is None:
        _gpu_usable = CudaDriver.is_active()
    return _gpu_usable


class CudaDriver(DriverBase):
    """Triton's `CudaDriver` (`backends["nvidia"].driver`): the object
    `triton.runtime.driver.active` is, with the current device, stream and
    target and the device properties."""
    utils = _DriverUtils()

    @classmethod
    def is_active(cls) -> bool:
        """Whether a CUDA GPU is usable (Triton asks PyTorch; without
        PyTorch, whether the CUDA driver finds a device)."""
        try:
            import torch  # (optional: imported only by the code that asks)
            return bool(torch.cuda.is_available()) and getattr(torch.version, "hip", None) is None
        except ImportError:
            try:
                return cuda().device_count > 0
            except TritiumError:
                return False

    def get_current_device(self) -> int:
        return current_device()

    def get_current_stream(self, device: Optional[int] = None) -> int:
        return current_stream(current_device() if device is None else device)

    def get_current_target(self):
        """The current device's GPUTarget (backend "cuda", arch such as 90, warp size 32)."""
        return GPUTarget.parse(current_target())

    def get_benchmarker(self):
        """The function the autotuner times configs with by default:
        `triton.testing.do_bench(fn, quantiles=...)`."""
        from ..testing import do_bench
        return do_bench

    def get_active_torch_device(self):
        import torch  # (optional, and heavy: imported only by the code that asks for it)
        return torch.device("cuda", current_device())

    def get_device_interface(self):
        import torch  # (optional, and heavy: imported only by the code that asks for it)
        return torch.cuda


_ActiveDriver = CudaDriver  # (the name host code of earlier Tritium versions used)

active = CudaDriver()


def set_active(new_driver) -> None:
    """Makes `new_driver` the active driver (Triton's
    `triton.runtime.driver.set_active`; PyTorch's Inductor calls it with
    `backends["nvidia"].driver()` unless the active one is already a
    CudaDriver)."""
    global active
    active = new_driver


def reset_active() -> None:
    """Makes a new CudaDriver the active driver again."""
    global active
    active = CudaDriver()


class DriverConfig:
    """Triton's `triton.runtime.driver.driver`: `.active` (the active
    driver, this module's `active`), `.default`, `set_active`,
    `reset_active`."""

    @property
    def active(self):
        return active

    @property
    def default(self):
        return CudaDriver()

    def set_active(self, new_driver) -> None:
        set_active(new_driver)

    def reset_active(self) -> None:
        reset_active()


driver = DriverConfig()

# backends["nvidia"].driver is this class (the backends package cannot
# import this module: this module imports backends.compiler).
_backends.backends["nvidia"].driver = CudaDriver
