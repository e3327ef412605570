"""`@jit`: a Python function that is compiled as a Triton kernel.

A JITFunction keeps the function's source and signature.  Launching it with
`kernel[grid](*args)` binds the arguments, computes a specialization key
from them (types, values of 1, 16-byte alignment; cheap, since it runs on
every launch), compiles each new specialization once, and launches it.
Calling it from another @jit function inlines it; calling it from plain
Python is an error.
"""
from __future__ import annotations

import ast
import dataclasses
import functools
import hashlib
import inspect
import sys
import textwrap
import threading
import types
import weakref
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .. import dtypes as _dtypes
from .. import knobs as _knobs
from ..compile_time import ConstexprFunction, const, constexpr, constexpr_function  # noqa: F401 (re-exported)
from ..source_parse import parse_source
from ..dtypes import dtype, pointer_type
from ..errors import ArgumentOverflowError, CompilationError, TritiumError
from . import async_compile as _async_compile
from . import driver as _driver
from . import dependencies as _dependencies
from . import specialization_data as _specialization_data
from . import tuple_args
# (Triton's triton.runtime.jit exports these names too)
from ..tools.tensor_descriptor import TensorDescriptor
from .reinterpret import (MockTensor, TensorWrapper, reinterpret, signature_of_dtype,  # noqa: F401
                          type_canonicalisation_dict)

_knobs.hook_added_callbacks.append(lambda: _drop_warm_entries())  # (defined below)


_PACKAGE_DIR = __file__.rsplit("/runtime/", 1)[0]

# The compiler builds on this module (its code generator compiles
# JITFunctions), so this module does not import it: tritium.compiler.compiler
# installs its compile function here when it loads.
_compile: Optional[Callable] = None


def set_compiler(compile_fn: Callable) -> None:
    """Installs the function that compiles a @jit function's new
    specializations: `compile_fn(fn, target=..., options=..., signature=...,
    constexprs=..., attrs=...)`, tritium.compile's signature."""
    global _compile
    _compile = compile_fn


def user_error(message: str) -> CompilationError:
    """A CompilationError located at the innermost caller outside Tritium
    (the user's launch or call line)."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith((_PACKAGE_DIR, "<tritium ")):
        frame = frame.f_back
    if frame is None:
        return CompilationError(message)
    info = inspect.getframeinfo(frame, context=1)
    line = info.code_context[0] if info.code_context else None
    col = (len(line) - len(line.lstrip()) + 1) if line else 1
    return CompilationError(message, file=info.filename, line=info.lineno, col=col, source_line=line)


def _is_constexpr_annotation(annotation) -> bool:
    if annotation is inspect.Parameter.empty:
        return False
    if annotation is constexpr:
        return True
    return isinstance(annotation, str) and annotation.split(".")[-1] == "constexpr"


class _LaunchMetadata:
    """What launch hooks receive: `.get()` gives the kernel's name, the grid,
    and what the function's `launch_metadata(grid, kernel, args)` adds."""

    def __init__(self, fn: "JITFunction", kernel, grid: tuple, args: Dict[str, Any]):
        self.fn, self.kernel, self.grid, self.args = fn, kernel, grid, args
        self._data = None

    def get(self) -> Dict[str, Any]:
        if self._data is None:
            self._data = {"name": self.kernel.name, "grid": self.grid}
            if self.fn.launch_metadata is not None:
                self._data.update(self.fn.launch_metadata(self.grid, self.kernel, self.args))
        return self._data


# every JITFunction, so that adding a launch hook can drop their warm-path entries
_ALL_JIT_FUNCTIONS: "weakref.WeakSet[JITFunction]" = weakref.WeakSet()


def _drop_warm_entries():
    for fn in list(_ALL_JIT_FUNCTIONS):
        fn._warm.clear()


class _JitFunctionInfo:
    """What the jit hooks (knobs.runtime.jit_cache_hook) learn of a function."""

    def __init__(self, module: str, name: str, jit_function: "JITFunction"):
        self.module, self.name, self.jit_function = module, name, jit_function


def annotation_type(annotation) -> str:
    """What a parameter's annotation fixes about its type, as a signature
    string: "u8", "fp16", "*fp32" for a dtype (or its name, e.g. "tl.uint8"),
    "const" for `tl.const` (a pointer the kernel may not store through),
    "" for no annotation or one that says nothing about the type."""
    if annotation is inspect.Parameter.empty or annotation is None:
        return ""
    if annotation is const:
        return "const"
    if isinstance(annotation, pointer_type):
        inner = annotation_type(annotation.element_ty)
        return "*" + inner if inner else ""
    if isinstance(annotation, dtype):
        return signature_of_dtype(annotation) or ""
    if isinstance(annotation, str):
        text = annotation.strip()
        for prefix in ("triton.language.", "tl.", "core."):
            text = text[len(prefix):] if text.startswith(prefix) else text
        if text == "const":
            return "const"
        value = getattr(_dtypes, text, None)
        if isinstance(value, dtype):
            return signature_of_dtype(value) or ""
        text = type_canonicalisation_dict.get(text.replace("_t", ""), "")
        return text if text and text != "void" else ""
    return ""


class KernelParam:
    """One parameter of a @jit function."""

    __slots__ = ("num", "name", "is_constexpr", "is_const", "default", "do_not_specialize",
                 "do_not_specialize_on_alignment", "annotation", "annotation_type")

    def __init__(self, num: int, param: inspect.Parameter, do_not_specialize: bool,
                 do_not_specialize_on_alignment: bool):
        self.num = num
        self.name = param.name
        self.annotation = param.annotation
        self.is_constexpr = _is_constexpr_annotation(param.annotation)
        self.annotation_type = "" if self.is_constexpr else annotation_type(param.annotation)
        # a pointer annotated `const` (Triton's read-only `*k` types)
        self.is_const = not self.is_constexpr and "const" in str(param.annotation)
        self.default = param.default
        self.do_not_specialize = do_not_specialize
        self.do_not_specialize_on_alignment = do_not_specialize_on_alignment


class KernelInterface:
    """`kernel[grid](*args, **kwargs)` launches with `grid`."""

    def __getitem__(self, grid):
        run = self.run

        def launcher(*args, **kwargs):
            return run(*args, grid=grid, warmup=False, **kwargs)
        return launcher


# torch dtype name -> signature string
_TORCH_DTYPES = {
    "torch.float16": "fp16", "torch.bfloat16": "bf16", "torch.float32": "fp32", "torch.float64": "fp64",
    "torch.int8": "i8", "torch.int16": "i16", "torch.int32": "i32", "torch.int64": "i64",
    "torch.uint8": "u8", "torch.uint16": "u16", "torch.uint32": "u32", "torch.uint64": "u64",
    "torch.bool": "i1", "torch.float8_e4m3fn": "fp8e4nv", "torch.float8_e5m2": "fp8e5",
    "torch.float8_e4m3fnuz": "fp8e4b8", "torch.float8_e5m2fnuz": "fp8e5b16",
}
# __cuda_array_interface__ typestr -> signature string
_ARRAY_TYPESTRS = {"<f2": "fp16", "<f4": "fp32", "<f8": "fp64", "|i1": "i8", "<i2": "i16", "<i4": "i32",
                   "<i8": "i64", "|u1": "u8", "<u2": "u16", "<u4": "u32", "<u8": "u64", "|b1": "i1"}


def specialize_arg(value, specialize_value: bool, specialize_alignment: bool) -> Tuple[str, Any]:
    """(signature type, specialization) of one runtime argument.

    The specialization is "1" for integers equal to 1 (they become
    constants), "D" for integers and pointers divisible by 16, else "".
    """
    if value is None:
        return "constexpr", None
    if isinstance(value, bool):
        return "i1", ""
    if isinstance(value, int):
        if specialize_value and value == 1:
            return "constexpr", 1
        if -2**31 <= value < 2**31:
            ty = "i32"
        elif -2**63 <= value < 2**63:
            ty = "i64"
        elif 0 <= value < 2**64:
            ty = "u64"
        else:
            raise ArgumentOverflowError(f"integer argument {value} does not fit in 64 bits")
        return ty, ("D" if specialize_value and specialize_alignment and value % 16 == 0 else "")
    if isinstance(value, float):
        return "fp32", ""
    if isinstance(value, TensorDescriptor):
        return descriptor_signature(value), ""
    data_ptr = getattr(value, "data_ptr", None)
    if data_ptr is not None:
        value_dtype = getattr(value, "dtype", "")
        if isinstance(value, TensorWrapper) and not str(value_dtype).startswith("torch."):
            ty = signature_of_dtype(value_dtype)
        else:
            ty = _TORCH_DTYPES.get(str(value_dtype))
        if ty is None:
            raise TritiumError(f"unsupported tensor dtype {value_dtype}")
        aligned = specialize_alignment and data_ptr() % 16 == 0
        return "*" + ty, ("D" if aligned else "")
    # a GPU array of another library, or a numpy array (the CPU target's)
    for attribute in ("__cuda_array_interface__", "__array_interface__"):
        interface = getattr(value, attribute, None)
        if interface is not None:
            ty = _ARRAY_TYPESTRS.get(interface["typestr"])
            if ty is None:
                raise TritiumError(f"unsupported array typestr {interface['typestr']}")
            aligned = specialize_alignment and interface["data"][0] % 16 == 0
            return "*" + ty, ("D" if aligned else "")
    raise TritiumError(f"unsupported kernel argument of type {type(value).__name__}: {value!r}")


def _python_scalars(values):
    """The launch values with numpy scalars (numpy.float32(2.0),
    numpy.int64(5)) as the Python numbers they hold: they describe
    themselves as arrays, but a kernel takes them by value."""
    numpy = sys.modules.get("numpy")
    if numpy is None:
        return values
    return [v.item() if isinstance(v, numpy.generic) else v for v in values]


def host_copies(values):
    """(values, copies) for a launch under TRITON_INTERPRET=1, as Triton's
    interpreter makes them: each GPU tensor replaced by a host copy, and the
    (GPU tensor, host copy) pairs to copy back after the launch."""
    host, copies = [], []
    for value in values:
        if isinstance(value, TensorDescriptor) and getattr(value.base, "is_cuda", False):
            copy = value.base.detach().cpu()
            host.append(dataclasses.replace(value, base=copy))
            copies.append((value.base, copy))
        elif isinstance(value, TensorWrapper) and value.is_cuda:  # reinterpret(x, dtype): its base is copied
            copy = value.base.detach().cpu()
            host.append(TensorWrapper(copy, value.dtype))
            copies.append((value.base, copy))
        elif tuple_args.is_tuple_argument(value):
            inner, inner_copies = host_copies(value)
            host.append(tuple_args.like(value, inner))
            copies += inner_copies
        elif getattr(value, "is_cuda", False) and hasattr(value, "cpu"):
            copy = value.detach().cpu()
            host.append(copy)
            copies.append((value, copy))
        else:
            host.append(value)
    return host, copies


def runs_on_host(values) -> bool:
    """Whether a launch with these argument values runs on the CPU target:
    some argument is a host array and none lives on a GPU.  A numpy array
    is a host array; a torch CPU tensor is one where no GPU is usable (with
    a GPU, a CPU tensor passed to a kernel is the error it is in Triton;
    TRITON_INTERPRET=1 runs such launches on the CPU)."""
    numpy_array = torch_cpu = False
    for value in values:
        if isinstance(value, TensorDescriptor):  # where its base lives
            value = value.base
        if hasattr(value, "data_ptr"):  # a torch tensor: its device says where it lives
            if getattr(getattr(value, "device", None), "type", None) != "cpu":
                return False
            torch_cpu = True
        elif _has_interface(value, "__cuda_array_interface__"):
            return False
        elif _has_interface(value, "__array_interface__"):
            numpy_array = True
    return numpy_array or (torch_cpu and not _driver.gpu_usable())


def _has_interface(value, name: str) -> bool:
    """hasattr(value, name), where computing the attribute may raise more
    than AttributeError (an array type it cannot describe)."""
    try:
        return hasattr(value, name)
    except Exception:
        return True


# keyword arguments of a launch that are options, not kernel arguments
LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion", "enable_reflect_ftz",
                  "launch_cooperative_grid", "launch_pdl", "arch", "debug")


def native_specialize_impl(backend, arg, is_const: bool = False, specialize_value: bool = True,
                           align: bool = True) -> Tuple[str, Any]:
    """Triton 3.6's name for specialize_arg (the backend is not consulted):
    (signature type, specialization key); `is_const` marks a pointer
    argument read-only (`*k` types)."""
    ty, key = specialize_arg(arg, specialize_value, align)
    if is_const and ty.startswith("*"):
        ty = "*k" + ty[1:]
    return ty, key


def mangle_type(arg, specialize: bool = False) -> str:
    """The signature type of a runtime argument (Triton's mangle_type)."""
    return specialize_arg(arg, specialize, specialize)[0] if arg is not None else "constexpr"


def descriptor_element_signature(desc: TensorDescriptor) -> str:
    """The element type of a host tensor descriptor's base ("fp16")."""
    ty, _ = specialize_arg(desc.base, False, False)
    if not ty.startswith("*"):
        raise TritiumError(f"a tensor descriptor's base must be a GPU tensor, got {type(desc.base).__name__}")
    return ty[1:]


def descriptor_signature(desc: TensorDescriptor) -> str:
    """The kernel signature type of a descriptor: "tensordesc<fp16[64,64]>"."""
    return f"tensordesc<{descriptor_element_signature(desc)}[{','.join(str(int(s)) for s in desc.block_shape)}]>"


def specialization_key(signature: Dict[str, str], constexprs: Dict[str, Any], attrs: Dict[str, Any],
                       options: Dict[str, Any], target: str) -> tuple:
    """The key of one compiled specialization in JITFunction.compiled."""
    return (tuple(signature.items()), tuple((k, repr(v)) for k, v in constexprs.items()),
            tuple((name, repr(values)) for name, values in attrs.items()), tuple(options.items()), target)

# ---- the warm path ----
#
# A dispatcher generated for each @jit function's exact signature does the
# whole warm launch in one Python frame: per runtime argument, a key of what
# its specialization depends on and the value to pass (tensors of the exact
# class torch.Tensor and ints inline, anything else through _warm_spec), one
# dict lookup of (device, keys..., constexpr values, launch options), and a
# call of the entry found: Launcher.warm_entry's launch function for that
# specialization, which packs one launch record and calls the native
# library once.  Anything else (a first call, an unknown argument type, a
# missing or extra argument, an unhashable constexpr) takes the slow path,
# which specializes, compiles, reports errors at the user's line, launches
# and registers the entry.

class _NoTensorClass:
    """Stands for torch.Tensor until PyTorch is imported."""


class _Missing:
    """The default of a parameter without one: its key fails, so a call
    missing it takes the slow path, which reports it."""


_MISSING = _Missing()


def _int_key(v: int, specialize_value: bool, specialize_alignment: bool):
    """The warm-path key of an int argument: what its specialization
    depends on.  A 32-bit int other than a specialized 1 (the common case,
    which the dispatcher computes inline) keys as a bool, 16-divisibility;
    everything else as a str or tuple, so the kinds never compare equal."""
    if specialize_value and v == 1:
        return "one"
    aligned = specialize_value and specialize_alignment and v & 15 == 0
    if -0x80000000 <= v <= 0x7FFFFFFF:
        return aligned
    return ("i64" if -0x8000000000000000 <= v <= 0x7FFFFFFFFFFFFFFF else
            "u64" if 0 <= v <= 0xFFFFFFFFFFFFFFFF else "too wide", aligned)


def _warm_spec(v, specialize_value: bool, specialize_alignment: bool, single_device: bool = True):
    """(key, value to pass) of a runtime argument that is not an exact
    torch.Tensor or int; raises TypeError to send the call down the slow
    path."""
    t = type(v)
    if t is float:
        return float, v
    if t is bool:
        return bool, v
    if v is None:
        return None, None
    if isinstance(v, int):  # an int subclass (bool is handled above)
        v = int(v)
        return _int_key(v, specialize_value, specialize_alignment), v
    data_ptr = getattr(v, "data_ptr", None)
    if data_ptr is not None and getattr(v, "is_cuda", False):
        ptr = data_ptr()
        key = v.dtype if not specialize_alignment or ptr & 15 == 0 else (v.dtype,)
        if not single_device:  # as in _warm_key_lines
            key = (key, v.get_device())  # (no get_device: AttributeError, the slow path)
        return key, ptr
    # (a torch tensor not on the GPU takes the slow path; its interface may
    # raise more than AttributeError)
    interface = None if data_ptr is not None else getattr(v, "__cuda_array_interface__", None)
    if interface is not None:
        ptr = interface["data"][0]
        return ("cai", interface["typestr"], specialize_alignment and ptr & 15 == 0), ptr
    # a host array (numpy): its key matches only entries of launches whose
    # arrays were all on the host (_register_host_warm)
    # (numpy scalars and 0-d arrays, which describe themselves the same way,
    # take the slow path)
    interface = None if data_ptr is not None else getattr(v, "__array_interface__", None)
    if interface is not None and interface.get("shape"):
        ptr = interface["data"][0]
        return ("host", interface["typestr"], specialize_alignment and ptr & 15 == 0), ptr
    raise TypeError  # the slow path says what is wrong


def _warm_key_lines(index: int, name: str, specialize_value: bool, specialize_alignment: bool,
                    single_device: bool = True) -> List[str]:
    """Generated code setting k{index} (key) and v{index} (value to pass) for
    runtime parameter `name`: the common cases inline, as cheap as Python
    gets (no tuple per argument), the rest through _int_key and _warm_spec,
    which give the same keys.  A tensor's key is its dtype when its address
    is 16-byte aligned (or alignment is not specialized), else (dtype,);
    where the process sees several GPUs, paired with the tensor's device, so
    that a tensor on another device than the launch's misses the warm
    entries (registered only by launches whose tensors passed the
    launcher's device check) and meets that check's error."""
    tensor_key = (f"{name}.dtype if v{index} & 15 == 0 else ({name}.dtype,)" if specialize_alignment
                  else f"{name}.dtype")
    if not single_device:
        tensor_key = f"({tensor_key}, {name}.get_device())"
    int_aligned = f"{name} & 15 == 0" if specialize_value and specialize_alignment else "False"
    int_common = f"-0x80000000 <= {name} <= 0x7FFFFFFF" + (f" and {name} != 1" if specialize_value else "")
    return [
        f"    if {name}.__class__ is _Tensor and {name}.is_cuda:",
        f"        v{index} = {name}.data_ptr(); k{index} = {tensor_key}",
        f"    elif {name}.__class__ is int:",
        f"        v{index} = {name}",
        f"        k{index} = {int_aligned} if {int_common} else "
        f"_int_key({name}, {specialize_value}, {specialize_alignment})",
        "    else:",
        f"        k{index}, v{index} = _warm_spec({name}, {specialize_value}, {specialize_alignment}, {single_device})",
    ]


# The functions cache_key is hashing, per thread.
_hashing = threading.local()


class _NameRepr:
    """JITFunction.repr: the name of a compiled specialization (a class, not
    a lambda, so that a JITFunction pickles)."""

    def __init__(self, name: str, user_repr=None):
        self.name, self.user_repr = name, user_repr

    def __call__(self, specialization=None) -> str:
        return self.name if self.user_repr is None else self.user_repr(specialization)


def _function_key(fn, src: str, strict: bool = False) -> str:
    """The cache key of a @jit or constexpr function `fn` whose source is
    `src`: a hash of the source, its first line and the keys of the
    functions it calls, transitively; the globals it and its callees read
    become its `used_reads`.  Functions being hashed further up this
    thread's stack count as "" (that breaks cycles); other threads, which
    may hash `fn` at the same time, never see that placeholder.  `strict`:
    see dependencies.scan."""
    active = getattr(_hashing, "active", None)
    if active is None:
        active = _hashing.active = set()
    if id(fn) in active:
        return ""
    active.add(id(fn))
    try:
        reads, callees = _dependencies.scan(fn, JITFunction, strict=strict)
        h = hashlib.sha256(src.encode())
        h.update(f"line {fn.starting_line}".encode())
        for callee in callees:
            h.update(f"{callee.__qualname__} {callee.cache_key} {bool(callee.noinline)}".encode())
            _dependencies.merge_reads(fn, reads, callee)
    finally:
        active.discard(id(fn))
    fn.used_reads[:] = reads
    return h.hexdigest()


def _constexpr_function_key(fn: ConstexprFunction) -> str:
    """ConstexprFunction.cache_key, as a @jit function's, with Triton's
    rule against plain functions in the body.  Without source (a function
    made by exec), its bytecode and constants stand for the source."""
    try:
        src = fn.src
    except (OSError, TypeError):
        code = fn.fn.__code__
        return hashlib.sha256(code.co_code + repr(code.co_consts).encode()).hexdigest()
    return _function_key(fn, src, strict=True)


ConstexprFunction.key_of = _constexpr_function_key


class JITFunction(KernelInterface):
    """A function decorated with @jit."""

    # Triton's older, class-wide names of the jit hooks (assigned as
    # `JITFunction.cache_hook = f`); knobs.runtime.jit_cache_hook and
    # jit_post_compile_hook take precedence when set.
    cache_hook = None
    compiled_hook = None

    def __init__(self, fn: Callable, version=None, do_not_specialize: Sequence = (),
                 do_not_specialize_on_alignment: Sequence = (), debug: Optional[bool] = None,
                 noinline: Optional[bool] = None, repr=None, launch_metadata=None):
        self.fn = fn
        self.module = fn.__module__
        self.__name__ = fn.__name__
        self.__qualname__ = getattr(fn, "__qualname__", fn.__name__)
        self.__doc__ = fn.__doc__
        self.__globals__ = fn.__globals__
        self.debug = debug
        self.noinline = noinline
        self._repr = repr  # names compiled kernels from their specialization (Triton's jit(repr=...))
        # Triton's `repr` attribute: specialization -> name (the function's
        # name without jit(repr=...)); PyTorch's Inductor calls it and
        # replaces it before pickling
        self.repr = _NameRepr(fn.__name__, repr)
        self.launch_metadata = launch_metadata  # (grid, kernel, args) -> dict, for launch hooks
        self.pre_run_hooks: List[Callable] = []  # called with the arguments before every launch
        _ALL_JIT_FUNCTIONS.add(self)
        self.signature = inspect.signature(fn)

        # As in Triton, an entry names a parameter by its position or its
        # name; an entry that names no parameter (a name the function lacks,
        # an index past the end) is ignored.
        do_not_specialize = tuple(do_not_specialize or ())
        do_not_specialize_on_alignment = tuple(do_not_specialize_on_alignment or ())

        def _listed(i: int, name: str, entries: tuple) -> bool:
            return any(e == name if isinstance(e, str) else (isinstance(e, int) and e == i) for e in entries)
        self.params = [KernelParam(i, p, _listed(i, p.name, do_not_specialize),
                                   _listed(i, p.name, do_not_specialize_on_alignment))
                       for i, p in enumerate(self.signature.parameters.values())]
        self.arg_names = [p.name for p in self.params]
        self.constexpr_indices = [p.num for p in self.params if p.is_constexpr]
        self.constexprs = self.constexpr_indices  # (Triton's name: indices of the constexpr parameters)
        try:
            source_lines, self.starting_line = inspect.getsourcelines(fn)  # (one pass of the tokenizer)
            source = "".join(source_lines)
            self.file_name = inspect.getsourcefile(fn) or "<unknown>"
        except (OSError, TypeError) as e:
            raise TritiumError(f"cannot read the source of {fn.__name__}: {e}") from e
        self.src = textwrap.dedent(source)
        # Drop decorators: the code generator compiles the def alone.
        lines = self.src.splitlines(keepends=True)
        first = next(i for i, l in enumerate(lines) if l.lstrip().startswith(("def ", "async def ")))
        self.src = "".join(lines[first:])
        self.starting_line += first
        self._src_col_offset = len(source.splitlines()[first]) - len(source.splitlines()[first].lstrip()) \
            if source.splitlines() else 0
        # cache_key's memo, as in Triton: None until computed; setting it to
        # None makes the next cache_key hash the sources again
        self.hash: Optional[str] = None
        self.compiled: Dict[Any, Any] = {}
        self._ast: Optional[ast.Module] = None
        self._targets: Dict[int, str] = {}
        self._warm: Dict[Any, Any] = {}
        self._single_device = False
        # The global (and closure) values this function and its callees
        # read, as cache_key saw them (dependencies.py); a launch after one
        # of them changed raises, as in Triton (the kernels compiled would
        # be stale).  Filled in place: the dispatcher holds this list.
        self.used_reads: List[_dependencies.Read] = []
        # The dispatcher (_dispatch, _warm_key) is made on first use
        # (__getattr__): most @jit functions, the language's own included,
        # are never launched, and making one compiles Python code.

    def __getattr__(self, name):
        # Only for attributes not set yet: the dispatcher, made on first use.
        if name in ("_dispatch", "_warm_key", "_dispatch_namespace") and self.__dict__.get("fn") is not None:
            self._dispatch, self._warm_key = self._make_dispatcher(self.__dict__.get("_single_device", False))
            return self.__dict__[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def add_pre_run_hook(self, hook: Callable):
        """Calls `hook(*arguments)` before every launch (Triton's name); such
        launches take the slow path."""
        self.pre_run_hooks.append(hook)
        self._warm.clear()

    @property
    def device_caches(self):
        """Triton's per-device caches: `device_caches[device][0]` is the dict
        of compiled specializations (Tritium keeps one for all devices)."""
        class _PerDevice(dict):
            def __missing__(caches, device):
                return (self.compiled, self._warm)
        return _PerDevice()

    def _unsafe_update_src(self, new_src: str):
        """Replaces the source this function compiles (Triton's hook for
        tests that patch a kernel's text): the parsed AST, hashes and
        compiled specializations are dropped.  The Python function and its
        globals stay as they were."""
        self.src = textwrap.dedent(new_src)
        self.hash = None
        self._ast = None
        self.used_reads.clear()
        self.compiled.clear()
        self._warm.clear()

    # -- Python calls are not allowed --
    def __call__(self, *args, **kwargs):
        raise user_error(f"cannot call @jit function '{self.__name__}' from plain Python: launch it with "
                         f"{self.__name__}[grid](...), or call it from inside another @jit function")

    def __repr__(self):
        return f"JITFunction({self.module}:{self.__qualname__})"

    def lookup_free_name(self, name: str, default=None):
        """The value a free name of the function's body refers to: a cell of
        its closure (a @jit function defined inside another function sees
        the enclosing function's names) or else a global; `default` if
        neither holds it."""
        fn = self.fn
        closure = fn.__closure__
        if closure:
            freevars = fn.__code__.co_freevars
            if name in freevars:
                try:
                    return closure[freevars.index(name)].cell_contents
                except ValueError:  # a cell not yet assigned
                    pass
        return self.__globals__.get(name, default)

    def is_global_name(self, name: str) -> bool:
        """Whether a free name of the body is a global (not a closure cell)."""
        closure = self.fn.__closure__
        return not (closure and name in self.fn.__code__.co_freevars)

    def global_annotated_constexpr(self, name: str) -> bool:
        """Whether the module annotates global `name` as a constexpr
        (`BLOCK: tl.constexpr = 128`, also as a string under
        `from __future__ import annotations`)."""
        annotation = self.__globals__.get("__annotations__", {}).get(name)
        if isinstance(annotation, str):
            return annotation.split(".")[-1] == "constexpr"
        return annotation is constexpr

    @property
    def used_global_vals(self) -> Dict[Tuple[str, int], Tuple[Any, Any]]:
        """Triton's view of used_reads: (name, id(scope)) -> (value, scope)."""
        return {read.key: (read.value, read.scope) for read in self.used_reads}

    @used_global_vals.setter
    def used_global_vals(self, value):
        """Assigning None or {} forgets the globals read (PyTorch's Inductor
        does so before pickling); the next cache_key computation, after
        `hash` is reset, records them again."""
        if value:
            raise TypeError("used_global_vals can only be cleared (set to None or {})")
        self.used_reads.clear()

    # ---- pickling (PyTorch's Inductor sends kernels between processes) ----
    #
    # The compiled specializations, the generated dispatcher and the
    # globals read do not pickle; an unpickled JITFunction has none of
    # them and makes the dispatcher again when its Python function is
    # there (Inductor sets `fn` to None before pickling and reloads the
    # kernel's module when it needs to compile again).

    _UNPICKLED = ("compiled", "_warm", "_dispatch", "_warm_key", "_dispatch_namespace", "used_reads",
                  "_targets", "_ast", "pre_run_hooks")

    def __getstate__(self):
        state = {k: v for k, v in self.__dict__.items() if k not in self._UNPICKLED}
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.compiled, self._warm, self._targets = {}, {}, {}
        self.used_reads, self.pre_run_hooks = [], []
        self._ast = None
        self._dispatch = self._warm_key = self._dispatch_namespace = None
        if self.__dict__.get("fn") is not None:
            for name in ("_dispatch", "_warm_key", "_dispatch_namespace"):
                del self.__dict__[name]  # made on first use (__getattr__)

    def global_constexprs(self) -> tuple:
        """The current values of the global (or closure) constexprs, dtypes and plain numbers (those
        annotated `tl.constexpr` compile as constants) this function (and the @jit functions it calls)
        reads: part of every compile's cache key."""
        self.cache_key  # noqa: B018 - records used_reads
        out = set()
        for read in self.used_reads:
            value = read.current()
            if isinstance(value, (constexpr, dtype, bool, int, float)):
                out.add((read.fn.__name__, read.name, repr(getattr(value, "value", value))))
        return tuple(sorted(out))

    def _changed_global(self) -> Optional[_dependencies.Read]:
        """The first read whose global has changed since cache_key, or None."""
        for read in self.used_reads:
            if not _dependencies.same_value(read.value, read.current()):
                return read
        return None

    def _globals_changed(self) -> bool:
        return self._changed_global() is not None

    def _check_globals(self):
        """Hashes the function (recording the globals it reads; a callee
        that saw another value of one raises); raises RuntimeError when a
        global read then has changed since (Triton's rule)."""
        self.cache_key  # noqa: B018
        read = self._changed_global()
        if read is not None:
            raise RuntimeError(f"Global variable {read.name} has changed since we compiled this kernel, from "
                               f"{_dependencies.shown(read.value)} to {_dependencies.shown(read.current())}: "
                               f"the kernels compiled for {self.__name__} would be stale")

    @property
    def cache_key(self) -> str:
        """A hash of this function's source, its first line, and the keys
        of the @jit and constexpr functions it calls, transitively (a property, as in
        Triton; kept in `hash` until that is reset to None).  Computing it
        records the globals the function and its callees read
        (used_reads)."""
        if self.hash is None:
            key = _function_key(self, self.src)
            if not key:  # being hashed further up the stack: no memo of the placeholder
                return key
            self.hash = key
        return self.hash

    def parse(self) -> ast.Module:
        """The function's AST (parsed once; the code generator never mutates it)."""
        if self._ast is None:
            tree = parse_source(self.src)
            assert isinstance(tree, ast.Module) and len(tree.body) == 1 and isinstance(tree.body[0], ast.FunctionDef)
            self._ast = tree
        return self._ast

    # -- binding and specialization --
    def bind(self, args, kwargs) -> List[Any]:
        """Positional list of every parameter's value (defaults filled)."""
        n = len(self.params)
        if len(args) > n:
            raise user_error(f"{self.__name__}() takes {n} arguments but {len(args)} were given "
                             f"(parameters: {', '.join(self.arg_names)})")
        values = [inspect.Parameter.empty if v is _MISSING else v for v in args]
        values += [inspect.Parameter.empty] * (n - len(args))
        for name, value in kwargs.items():
            try:
                i = self.arg_names.index(name)
            except ValueError:
                raise user_error(f"{self.__name__}() got an unexpected keyword argument '{name}'") from None
            if values[i] is not inspect.Parameter.empty:
                raise user_error(f"{self.__name__}() got multiple values for argument '{name}'")
            values[i] = value
        missing = []
        for p in self.params:
            if values[p.num] is inspect.Parameter.empty:
                if p.default is inspect.Parameter.empty:
                    missing.append(p.name)
                else:
                    values[p.num] = p.default
        if missing:
            raise user_error(f"{self.__name__}() is missing {len(missing)} argument(s): {', '.join(missing)} "
                             f"(parameters: {', '.join(self.arg_names)})")
        return values

    def specialization(self, values: Sequence[Any]):
        """(signature, constexprs, attrs) for bound argument values."""
        signature: Dict[str, str] = {}
        constexprs: Dict[str, Any] = {}
        attrs: Dict[str, Any] = {}
        for p, value in zip(self.params, values):
            if p.is_constexpr:
                signature[p.name] = "constexpr"
                constexprs[p.name] = value
                continue
            if tuple_args.is_tuple_argument(value):
                signature[p.name], constexprs[p.name] = tuple_args.specialize_tuple(
                    value, lambda v: specialize_arg(v, False, False)[0])
                continue
            ty, spec = specialize_arg(value, not p.do_not_specialize, not p.do_not_specialize_on_alignment)
            annotated = p.annotation_type
            if annotated == "const" and ty.startswith("*") and not ty.startswith("*k"):
                ty = "*k" + ty[1:]
            elif annotated and annotated != "const" and not annotated.startswith("*") \
                    and isinstance(value, (int, float)):
                # A number takes its annotated type and is never a constant 1;
                # an annotated integer keeps its divisibility by 16 (Triton
                # specializes it as an unannotated one), a float or bool none.
                # An annotated integer equal to 1 is still its own variant,
                # as in Triton (the same code, under an attribute list of
                # its own that adds no attribute).
                integer = annotated[0] in "iu" and annotated != "u1" and isinstance(value, int)
                one = integer and ty == "constexpr" and spec == 1
                ty, spec = annotated, ("D" if integer and spec == "D" else "one" if one else "")
            signature[p.name] = ty
            if ty == "constexpr":
                constexprs[p.name] = spec
            elif spec == "D":
                attrs[p.name] = [["tt.divisibility", 16]]
            elif spec == "one":
                attrs[p.name] = []
        return signature, constexprs, attrs

    # ---- launching (the warm path: see _warm_spec above) ----

    def _make_dispatcher(self, single_device: bool = False):
        """Generates dispatch(grid, *args, **kwargs), the warm path, and
        warm_key(*args, **kwargs) -> key, for registering entries; both
        from the same lines, so they agree.  With `single_device` (the
        process sees one GPU), the device in the key is 0 without asking."""
        params, key_terms, values, body = [], ["0" if single_device else "_device()"], [], []
        for p in self.params:
            default = "_Missing" if p.default is inspect.Parameter.empty else f"_d{p.num}"
            params.append(f"{p.name}={default}")
            if p.is_constexpr:
                key_terms += [f"{p.name}.__class__", p.name]
                values.append(p.name)
            else:
                body += _warm_key_lines(p.num, p.name, not p.do_not_specialize,
                                        not p.do_not_specialize_on_alignment, single_device)
                key_terms.append(f"k{p.num}")
                values.append(f"v{p.num}")
        options = [o for o in LAUNCH_OPTIONS if o not in self.arg_names]
        key_terms += options
        signature = ", ".join(params + ["*_more"] + [f"{o}=None" for o in options] + ["**_kw"])
        names = ", ".join(p.name for p in self.params) + ("," if len(self.params) == 1 else "")
        option_kwargs = "".join(f", {o}={o}" for o in options)
        lines = [
            f"def dispatch(grid, {signature}):",
            "    if _globals and _globals_changed():",  # the slow path raises
            f"        return _slow(grid, ({names}) + _more, dict(_kw{option_kwargs}))",
            "    try:",
            "        if _more or _kw:",
            "            raise TypeError",
            *("    " + line for line in body),
            f"        entry = _warm[({', '.join(key_terms)},)]",
            "    except (TypeError, KeyError, AttributeError):",
            "        entry = None",
            # outside the handler, so that an error of the slow path is not
            # shown as raised "during handling of" the KeyError
            "    if entry is None:",
            f"        return _slow(grid, ({names}) + _more, dict(_kw{option_kwargs}))",
            "    if grid.__class__ is not tuple and callable(grid):",
            f"        grid = grid(dict(zip(_names, ({names}))))",
            f"    return entry(grid, {', '.join(values)})",
            "",
            f"def warm_key({signature}):",
            *body,
            f"    return ({', '.join(key_terms)},)",
        ]
        namespace = {"_warm_spec": _warm_spec, "_int_key": _int_key, "_Tensor": _NoTensorClass,
                     "_Missing": _MISSING, "_device": _driver.current_device, "_warm": self._warm,
                     "_slow": self._run_slow_launch, "_names": tuple(self.arg_names),
                     "_globals": self.used_reads, "_globals_changed": self._globals_changed}
        for p in self.params:
            if p.default is not inspect.Parameter.empty:
                namespace[f"_d{p.num}"] = p.default
        exec(compile("\n".join(lines) + "\n", f"<tritium dispatcher of {self.__name__}>", "exec"), namespace)
        self._dispatch_namespace = namespace
        return namespace["dispatch"], namespace["warm_key"]

    def __getitem__(self, grid):
        return functools.partial(self._dispatch, grid)

    def run(self, *args, grid, warmup, **kwargs):
        if warmup:
            return self._run_slow(args, kwargs, grid, True)
        return self._dispatch(grid, *args, **kwargs)

    def _run_slow_launch(self, grid, args, kwargs):
        options = {k: v for k, v in kwargs.items() if v is not None or k not in LAUNCH_OPTIONS}
        return self._run_slow(args, options, grid, False)

    def _run_slow(self, args, kwargs, grid, warmup):
        self._check_globals()
        launch_options = {k: kwargs.pop(k) for k in LAUNCH_OPTIONS if k in kwargs and k not in self.arg_names}
        num_warps = launch_options.get("num_warps")
        values = _python_scalars(self.bind(args, kwargs))
        copies = []
        if _knobs.runtime.interpret:  # TRITON_INTERPRET=1: every launch on the CPU target
            values, copies = host_copies(values)
        signature, constexprs, attrs = self.specialization(values)
        if copies or runs_on_host(values):  # numpy arrays or torch CPU tensors: the CPU target
            device, target = -1, "cpu"
        else:
            device = _driver.current_device()
            target = self._targets.get(device)
            if target is None:
                target = self._targets[device] = _driver.current_target()
        arch = None if device < 0 else launch_options.get("arch") or _knobs.runtime.override_arch
        if arch:  # compile for another GPU ("sm80", "90"); such a kernel is for warmup, not this device
            target = "cuda:" + str(arch).removeprefix("sm")
        # launch_pdl (programmatic dependent launch) only lets the next kernel start early: ignoring it is safe
        fp_fusion = launch_options.get("enable_fp_fusion")
        if fp_fusion is None:
            fp_fusion = _knobs.language.default_fp_fusion
        debug = launch_options.get("debug")
        if debug is None:
            debug = self.debug
        if not debug and _knobs.runtime.debug:  # TRITON_DEBUG=1 turns it on everywhere (Triton's rule)
            debug = True
        options = {"num_warps": num_warps or 4, "num_stages": launch_options.get("num_stages") or 3,
                   "num_ctas": launch_options.get("num_ctas") or 1, "maxnreg": launch_options.get("maxnreg"),
                   "enable_fp_fusion": bool(fp_fusion), "debug": debug}
        if launch_options.get("enable_reflect_ftz") is not None:
            # libdevice's __nvvm_reflect("__CUDA_FTZ"): denormals flushed in its functions
            options["enable_reflect_ftz"] = bool(launch_options["enable_reflect_ftz"])
        key = specialization_key(signature, constexprs, attrs, options, target)
        kernel = self.compiled.get(key)
        if kernel is None:
            mode = _async_compile.active()
            if mode is not None:  # compiled in the block's executor, cached when taken
                future = mode.submit((id(self), key), functools.partial(
                    self._compile_specialization, key, signature, constexprs, attrs, options, target, warmup,
                    store=False), functools.partial(self._store_compiled, key))
                if warmup:
                    return future
                kernel = future.result()
            else:
                kernel = self._compile_specialization(key, signature, constexprs, attrs, options, target, warmup)
            if kernel is None:
                return None  # the cache hook vetoed this compile (Triton's contract)
        if warmup:
            return kernel
        grid_size = grid(dict(zip(self.arg_names, values))) if callable(grid) else grid
        if not isinstance(grid_size, (tuple, list)) or not 1 <= len(grid_size) <= 3:
            raise user_error(f"grid must be a tuple of 1 to 3 integers, got {grid_size!r}")
        for hook in self.pre_run_hooks:
            hook(*values)
        enter_hook, exit_hook = _knobs.runtime.launch_enter_hook, _knobs.runtime.launch_exit_hook
        try:
            if enter_hook or exit_hook:
                metadata = _LaunchMetadata(self, kernel, tuple(grid_size), dict(zip(self.arg_names, values)))
                if enter_hook:
                    enter_hook(metadata)
                self._launch(kernel, grid_size, signature, values, device, launch_options, not copies)
                if exit_hook:
                    exit_hook(metadata)
            else:
                self._launch(kernel, grid_size, signature, values, device, launch_options, not copies)
        finally:
            # (TRITON_INTERPRET=1) the results back to the GPU tensors, also
            # what the programs wrote before a failed device assertion
            for tensor, copy in copies:
                tensor.copy_(copy)
        return kernel

    def _launch(self, kernel, grid_size, signature, values, device, launch_options, warm=True):
        """Launches a compiled specialization and registers it for the warm
        path (with `warm`; not for a TRITON_INTERPRET=1 launch, whose values
        are host copies of GPU tensors).  launch_cooperative_grid=True
        launches with every program resident at once (a grid-wide barrier in
        the kernel cannot deadlock), always through here."""
        cooperative = bool(launch_options.get("launch_cooperative_grid"))
        if device < 0:  # the CPU target
            kernel.launch(grid_size, tuple_args.flatten_values(signature, values))
            if warm and not any(tuple_args.is_tuple_signature(ty) for ty in signature.values()):
                self._register_host_warm(kernel, signature, values, launch_options)
            return
        if any(tuple_args.is_tuple_signature(ty) for ty in signature.values()):
            kernel.launch(grid_size, tuple_args.flatten_values(signature, values), cooperative=cooperative)
            return  # no warm-path entry: its keys are per runtime parameter
        runtime_indices = [p.num for p in self.params if signature[p.name] != "constexpr"]
        kernel.launch(grid_size, [values[i] for i in runtime_indices], cooperative=cooperative)
        if not cooperative:
            self._register_warm(kernel, device, runtime_indices, values, launch_options)

    def _register_host_warm(self, kernel, signature, values, launch_options):
        """Remembers a launch on the CPU target for the warm path: its key
        holds each array's ("host", typestr, alignment) (_warm_spec), so
        only launches whose arrays are all host arrays again find it; the
        entry passes the runtime values (array addresses) to the kernel."""
        if _knobs.runtime.launch_enter_hook or _knobs.runtime.launch_exit_hook or self.pre_run_hooks:
            return
        if kernel.metadata.get("bounds_checks"):
            return  # (its launch takes each array's extent; the warm path passes only addresses)
        try:
            key = self._warm_key(*values, **launch_options)
        except (TypeError, AttributeError):
            return
        runtime = [p.num for p in self.params if signature[p.name] != "constexpr"]
        launch = kernel.launch

        def entry(grid, *vals):
            launch(grid, [vals[i] for i in runtime])
            return kernel
        try:
            self._warm[key] = entry
        except TypeError:
            pass  # an unhashable constexpr

    def _register_warm(self, kernel, device, runtime_indices, values, launch_options):
        """Remembers a launched specialization for the warm path (not while
        launch hooks or pre-run hooks are set: those launches must reach
        the hooks)."""
        if _knobs.runtime.launch_enter_hook or _knobs.runtime.launch_exit_hook or self.pre_run_hooks:
            return
        if not self._single_device and _driver.cuda().device_count == 1:
            self._single_device = True
            self._dispatch, self._warm_key = self._make_dispatcher(single_device=True)
        torch = sys.modules.get("torch")
        if torch is not None:
            self._dispatch_namespace["_Tensor"] = torch.Tensor
        self._dispatch_namespace["_device"] = _driver.device_getter()
        try:
            key = self._warm_key(*values, **launch_options)
        except (TypeError, AttributeError):
            return  # an argument the warm path does not handle: always slow
        entry = kernel._launcher.warm_entry(device, runtime_indices, len(values), result=kernel)
        try:
            self._warm[key] = entry
        except TypeError:
            pass  # an unhashable constexpr

    def _compile_specialization(self, key, signature, constexprs, attrs, options, target, warmup, store=True):
        """Compiles one specialization into `compiled` (with `store`; else
        the caller stores it with _store_compiled), calling the jit hooks
        around it; None if the cache hook vetoed it."""
        if _compile is None:
            raise TritiumError("no compiler is installed: import tritium (tritium.compiler installs it)")
        hook_args = None
        cache_hook = _knobs.runtime.jit_cache_hook or JITFunction.cache_hook
        post_compile_hook = _knobs.runtime.jit_post_compile_hook or JITFunction.compiled_hook
        if cache_hook or post_compile_hook:
            data = _specialization_data.serialize(self, signature, constexprs, attrs, options, target, key)
            # (Triton's hooks name the function by its qualified name)
            hook_args = dict(key=key, repr=f"{self.__qualname__}[{signature}, {constexprs}]",
                             fn=_JitFunctionInfo(self.module, self.__qualname__, self),
                             compile={"key": key, "signature": signature, "constants": constexprs,
                                      "attrs": attrs, "configs": [attrs], "target": target, **options,
                                      "specialization_data": data, "is_warmup": warmup},
                             is_manual_warmup=warmup, already_compiled=False)
        if cache_hook and cache_hook(**hook_args) is False:
            return None
        kernel = _compile(self, target=target, options=options, signature=signature, constexprs=constexprs,
                          attrs=attrs)
        if self._repr is not None:
            kernel.name = self._repr(types.SimpleNamespace(signature=dict(signature),
                                                            constants=dict(constexprs), attrs=dict(attrs)))
        if store:
            self.compiled[key] = kernel
        if post_compile_hook:
            post_compile_hook(**hook_args)
        return kernel

    def _store_compiled(self, key, kernel):
        """Caches a kernel compiled in an AsyncCompileMode executor (None: a
        compile the cache hook vetoed); the kernel already there wins."""
        if kernel is None:
            return None
        return self.compiled.setdefault(key, kernel)

    def warmup(self, *args, grid=(1,), **kwargs):
        """Compiles the specialization these arguments select without
        launching it; a torch dtype stands for a tensor of that dtype."""
        args = tuple(MockTensor.wrap_dtype(a) for a in args)
        kwargs = {k: MockTensor.wrap_dtype(v) if k not in LAUNCH_OPTIONS else v for k, v in kwargs.items()}
        return self.run(*args, grid=grid, warmup=True, **kwargs)

    def preload(self, specialization_data: str):
        """Compiles the specialization that a jit hook's
        `compile["specialization_data"]` describes (from this process or
        another), so that a later launch of it does not compile."""
        self._check_globals()
        signature, constexprs, attrs, options, target, key = _specialization_data.deserialize(
            self, specialization_data, specialization_key)
        kernel = self.compiled.get(key)
        if kernel is None:
            kernel = self._compile_specialization(key, signature, constexprs, attrs, options, target, True)
        return kernel


def jit(fn=None, *, version=None, repr=None, launch_metadata=None, do_not_specialize=(),
        do_not_specialize_on_alignment=(), debug=None, noinline=None):
    """Decorator: compile `fn` as a Triton kernel (Triton's `triton.jit`)."""
    def decorator(f):
        return JITFunction(f, version=version, do_not_specialize=do_not_specialize,
                           do_not_specialize_on_alignment=do_not_specialize_on_alignment, debug=debug,
                           noinline=noinline, repr=repr, launch_metadata=launch_metadata)
    if fn is not None:
        return decorator(fn)
    return decorator
