"""`tritium.compile`: a @jit function and its specialization -> compiled kernel.

Stages (each one's text is kept in `CompiledKernel.asm`):
  source  the kernel's Python source
  ttir    Triton IR after the C++ `tritium-make-ttir` pipeline (inline,
          rewrite-tensor-pointer, canonicalize, combine, reorder-broadcast,
          cse, symbol-dce, loop-unroll)
Later stages (ttgir, llir, ptx, cubin) come from the NVIDIA backend.
No GPU is needed: the target is named (`cuda:90`, or GPUTarget("cuda", 90, 32)).
"""
from __future__ import annotations

import inspect
import json
import os
import re
import threading
from dataclasses import dataclass
from typing import Any, Dict, Optional, Sequence

from .. import __tritium_version__
from .. import knobs as _knobs
from .._native import native_library
from ..runtime import cache, tuple_args
from ..errors import CompilationError, OptionError, OutOfResources, TritiumError
from ..language.dtypes import dtype_from_signature
from ..runtime.jit import JITFunction
from . import ir_source
from .code_generator import generate_ttir

_MAKE_LAUNCHER_LOCK = threading.Lock()  # (CompiledKernel._make_launcher)

SUPPORTED_ARCHS = (80, 86, 89, 90)


@dataclass(frozen=True)
class GPUTarget:
    """Triton's target triple: backend ("cuda"), compute capability, warp size."""

    backend: str
    arch: int
    warp_size: int = 32

    @staticmethod
    def parse(target) -> "GPUTarget":
        if isinstance(target, GPUTarget):
            t = target
        elif isinstance(target, str):
            m = re.fullmatch(r"cuda:(?:sm_)?(\d+)a?", target.strip())
            if not m:
                raise TritiumError(f"unsupported target '{target}': expected 'cuda:<compute capability>', "
                                   f"e.g. 'cuda:90'")
            t = GPUTarget("cuda", int(m.group(1)), 32)
        else:
            raise TritiumError(f"unsupported target {target!r}")
        if t.backend != "cuda":
            raise TritiumError(f"unsupported backend '{t.backend}': Tritium targets NVIDIA GPUs ('cuda')")
        if t.arch not in SUPPORTED_ARCHS:
            raise TritiumError(f"unsupported compute capability {t.arch}: Tritium supports "
                               f"{', '.join(f'sm_{a}' for a in SUPPORTED_ARCHS)}")
        if t.warp_size != 32:
            raise TritiumError(f"warp size must be 32 on NVIDIA GPUs, got {t.warp_size}")
        return t

    def __str__(self):
        return f"{self.backend}:{self.arch}"


class ASTSource:
    """A @jit function with its specialization, Triton's compile input.

    `signature` maps parameter names (or indices) to type strings ("*fp32",
    "i32", "constexpr"); `constexprs` maps names (or indices, or 1-tuples of
    indices) to values; `attrs` maps names to [["tt.divisibility", 16]].
    """

    def __init__(self, fn: JITFunction, signature: Dict, constexprs: Optional[Dict] = None,
                 attrs: Optional[Dict] = None):
        if not isinstance(fn, JITFunction):
            raise TritiumError(f"compile() needs a @jit function, got {type(fn).__name__}")
        self.fn = fn
        names = fn.arg_names

        def name_of(key):
            if isinstance(key, tuple):
                if len(key) != 1:
                    raise TritiumError(f"nested argument paths are not supported: {key}")
                key = key[0]
            if isinstance(key, int):
                if not 0 <= key < len(names):
                    raise TritiumError(f"argument index {key} is out of range for {fn.__name__}")
                return names[key]
            if key not in names:
                raise TritiumError(f"{fn.__name__} has no parameter '{key}' (parameters: {', '.join(names)})")
            return key

        self.signature = {name_of(k): v for k, v in (signature or {}).items()}
        self.constexprs = {name_of(k): v for k, v in (constexprs or {}).items()}
        self.attrs = {name_of(k): v for k, v in (attrs or {}).items()}
        for p in fn.params:
            if p.name in self.constexprs:
                self.signature.setdefault(p.name, "constexpr")
            elif p.is_constexpr:
                if p.default is not inspect.Parameter.empty:
                    self.constexprs[p.name] = p.default
                    self.signature.setdefault(p.name, "constexpr")
                else:
                    raise TritiumError(f"constexpr parameter '{p.name}' of {fn.__name__} needs a value in "
                                       "constexprs")
            elif p.name not in self.signature:
                raise TritiumError(f"parameter '{p.name}' of {fn.__name__} has no type in the signature")

    def arg_values(self):
        """Per parameter: a dtype (runtime) or the constexpr value wrapped in
        `tl.constexpr` (so that a dtype passed as a constexpr stays a value),
        and its argument attributes (empty for constexprs)."""
        from ..language.core import constexpr
        values, attrs = [], []
        for p in self.fn.params:
            ty = self.signature[p.name]
            if tuple_args.is_tuple_signature(ty):
                values.append(tuple_args.structure_of(ty, self.constexprs.get(p.name, ()), dtype_from_signature))
                attrs.append({})
                continue
            if ty == "constexpr" or p.name in self.constexprs:
                values.append(constexpr(self.constexprs.get(p.name)))
                attrs.append({})
                continue
            try:
                values.append(dtype_from_signature(ty))
            except ValueError as e:
                raise TritiumError(f"parameter '{p.name}': {e}") from None
            a = {}
            for key, value in self.attrs.get(p.name, []):
                a[key] = f"{int(value)} : i32"
            attrs.append(a)
        return values, attrs


class KernelMetadata(dict):
    """A kernel's metadata: a dict whose keys also read as attributes
    (`kernel.metadata.shared`, as Triton's host code writes it)."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None


def _needs_ptx_jit(target) -> bool:
    """True when a kernel compiled for `target` ("cuda:80") cannot run its
    cubin on the current device but can run its PTX: the device is of a
    later major generation (a cubin runs only on its own major version,
    PTX on any later one through the driver's JIT)."""
    from ..runtime import driver
    try:
        compiled = int(str(target).removeprefix("cuda:").rstrip("a"))
        device = int(driver.current_target().removeprefix("cuda:"))
    except (ValueError, TypeError, TritiumError):  # no GPU: loading will say so
        return False
    return compiled // 10 < device // 10


def _launch_hook_knob(name: str) -> property:
    """A class property that reads and sets knobs.runtime.<name> (None
    clears it)."""
    def get(cls):
        return getattr(_knobs.runtime, name)

    def set_(cls, hook):
        setattr(_knobs.runtime, name, hook if hook is not None else _knobs.HookChain())
    return property(get, set_)


class _LaunchHooksOfTheClass(type):
    """`CompiledKernel.launch_enter_hook = f` (Triton's older spelling) sets
    knobs.runtime.launch_enter_hook, and so for the exit hook."""
    launch_enter_hook = _launch_hook_knob("launch_enter_hook")
    launch_exit_hook = _launch_hook_knob("launch_exit_hook")


class CompiledKernel(metaclass=_LaunchHooksOfTheClass):
    """A compiled kernel: its texts per stage (`asm`), metadata, and a launcher.

    `asm` holds "source", "ttir" and, with the NVIDIA backend, "ttgir",
    "llir", "ptx" and "cubin" (bytes).  As in Triton, `kernel[grid](...)`
    takes either the runtime arguments or all of the kernel's arguments
    (constexprs included, which are then skipped), and `_init_handles()`
    loads the kernel, after which `n_regs` is the driver's register count.
    """

    def __init__(self, name: str, asm: Dict[str, Any], metadata: Dict[str, Any]):
        self.name = name
        self.asm = asm
        self.metadata = KernelMetadata(metadata)
        signature = metadata["signature"]
        self._signature = dict(signature)
        self._runtime_leaves = tuple_args.flatten_signature(signature)  # tuple leaves named param.i
        self.runtime_params = [n for n, _ in self._runtime_leaves]
        self._num_params = len(signature)
        self._launcher = None

    @property
    def n_regs(self) -> int:
        launcher = self._launcher
        if launcher is not None and launcher.registers is not None:
            return launcher.registers
        return int(self.metadata.get("registers") or 0)

    @property
    def n_spills(self) -> int:
        return int(self.metadata.get("spills") or 0)

    def _init_handles(self):
        """Loads the kernel on the current device now (the first launch
        would otherwise)."""
        from ..runtime import driver
        launcher = self._launcher or self._make_launcher()
        launcher.function(driver.current_device())

    @property
    def shared(self) -> int:
        return int(self.metadata.get("shared", 0))

    @property
    def hash(self) -> Optional[str]:
        """The compile's cache key (Triton's name): equal for two compiles
        of the same specialization."""
        return self.metadata.get("hash")

    @property
    def num_warps(self) -> int:
        return int(self.metadata["num_warps"])

    def _make_launcher(self):
        """The kernel's one Launcher, made on first use.  Threads launching
        a new kernel at once must share it: a second one would replace the
        first after a thread had loaded the module through it, and the JIT's
        warm path (which reads the module's function from the kernel's
        launcher) would then find none."""
        with _MAKE_LAUNCHER_LOCK:
            if self._launcher is None:
                self._launcher = self._new_launcher()
        return self._launcher

    def _new_launcher(self):
        from ..runtime.launcher import Launcher
        image = self.asm.get("cubin")
        if image is not None and _needs_ptx_jit(self.metadata.get("target")):
            image = None  # a cubin of another GPU generation: run its PTX
        if image is None:
            ptx = self.asm.get("ptx")
            if ptx is None:
                raise TritiumError(f"'{self.name}' was compiled to Triton IR only: this build has no "
                                   "NVIDIA backend to launch it")
            image = ptx.encode() + b"\0"  # the driver JIT-compiles PTX
        return Launcher(self.metadata.get("kernel_name", self.name), image, self.runtime_params,
                        [t for _, t in self._runtime_leaves],
                        int(self.metadata.get("total_num_warps") or self.num_warps), self.shared,
                        int(self.metadata.get("max_warps_per_sm") or 0),
                        self.metadata.get("tensor_descriptors") or (),
                        int(self.metadata.get("global_scratch_size") or 0),
                        int(self.metadata.get("global_scratch_align") or 1),
                        bool(self.metadata.get("global_scratch_internal")),
                        self.metadata.get("nonnegative_args") or ())

    def launch(self, grid, args: Sequence[Any], cooperative: bool = False):
        """Launches with the values of the runtime parameters, in order
        (`cooperative`: every program resident at once, see Launcher)."""
        launcher = self._launcher or self._make_launcher()
        launcher(grid, args, cooperative=cooperative)

    def __getitem__(self, grid):
        def run(*args):
            if len(args) == self._num_params:
                try:  # all of the kernel's arguments: keep the runtime ones, tuples flattened
                    args = tuple_args.flatten_values(self._signature, args)
                except TypeError:
                    pass  # already the runtime values
            return self.launch(grid, args)
        return run

    def __repr__(self):
        return f"CompiledKernel({self.name}, stages={list(self.asm)})"


def take_native_metadata(metadata: Dict[str, Any], stages: Dict[str, Any]) -> None:
    """Copies what the native compile reports (its `stages` dict) into a
    kernel's metadata: the entry's name, shared memory, registers, scratch
    and the launcher's other inputs."""
    for field in ("shared", "registers", "spills", "name", "max_warps_per_sm", "streaming",
                  "tensor_descriptors", "global_scratch_size", "global_scratch_align", "global_scratch_internal",
                  "nonnegative_args", "total_num_warps"):
        if field in stages:
            metadata["kernel_name" if field == "name" else field] = stages[field]
    metadata["maxnreg"] = stages.get("maxnreg") or None


def _backend_options(opts: Dict, target: "GPUTarget", debug_on: bool, maxnreg: Optional[int]) -> Dict:
    """The native compile's options (capi/tritium.h) for compile()'s options."""
    backend_options = {"num_warps": opts["num_warps"], "num_ctas": opts["num_ctas"],
                       "num_stages": opts["num_stages"], "arch": target.arch, "debug": int(debug_on),
                       "enable_fp_fusion": int(bool(opts.get("enable_fp_fusion", True)))}
    if opts.get("enable_reflect_ftz") is not None:
        backend_options["ftz"] = int(bool(opts["enable_reflect_ftz"]))
    if maxnreg is not None:
        backend_options["maxnreg"] = maxnreg
    if opts.get("ptxas_opt") == 0:
        backend_options["ptxas_opt"] = 0
    if opts.get("line_info") == 0:
        backend_options["line_info"] = 0
    dump = os.environ.get("TRITIUM_DUMP_DIR")
    if dump:
        backend_options["dump_dir"] = dump
    return backend_options


TTIR_PIPELINE = "builtin.module(tritium-make-ttir)"


def ttir_pipeline(arch: int) -> str:
    """The make-ttir pipeline for compute capability `arch`: from 90 on,
    block-pointer tiles that feed dots move by TMA (tensor descriptors)."""
    return f"builtin.module(tritium-make-ttir{{compute-capability={int(arch)}}})"


_FRONTEND_HASH: Optional[str] = None


def frontend_hash() -> str:
    """A hash of the Python package's own sources: editing the frontend
    invalidates cached kernels."""
    global _FRONTEND_HASH
    if _FRONTEND_HASH is None:
        import hashlib
        h = hashlib.sha256()
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        for directory, _, names in sorted(os.walk(root)):
            for n in sorted(names):
                if n.endswith(".py"):
                    with open(os.path.join(directory, n), "rb") as f:
                        h.update(f.read())
        _FRONTEND_HASH = h.hexdigest()
    return _FRONTEND_HASH
_TEXT_STAGES = ("source", "ttir", "ttgir", "llir", "ptx")


def _debug_enabled(options: Dict) -> bool:
    if options.get("debug") is not None:
        return bool(options["debug"])
    return os.environ.get("TRITIUM_DEBUG", os.environ.get("TRITON_DEBUG", "0")) not in ("", "0")


def _from_cache(files: Dict[str, bytes], name: str) -> CompiledKernel:
    metadata = json.loads(files["json"])
    asm: Dict[str, Any] = {}
    for stage in _TEXT_STAGES:
        if stage in files:
            asm[stage] = files[stage].decode()
    if "cubin" in files:
        asm["cubin"] = files["cubin"]
    return CompiledKernel(name, asm, metadata)


def compile(src, target=None, options: Optional[Dict] = None, *, signature=None, constexprs=None, attrs=None,
            num_warps: int = 4, num_stages: int = 3, num_ctas: int = 1, debug: Optional[bool] = None,
            stop_after: Optional[str] = None, **kwargs) -> CompiledKernel:
    """Compiles a kernel; no GPU is needed.

        tritium.compile(add_kernel, signature={"x_ptr": "*fp32", "n": "i32"},
                        constexprs={"BLOCK": 1024}, target="cuda:90", num_warps=4)
        triton.compile(ASTSource(add_kernel, signature, constexprs), target=GPUTarget("cuda", 90, 32))
        triton.compile("kernel.ttgir")   # a file of Triton IR (see ir_source.py)

    Results are cached on disk (see tritium.runtime.cache).  `stop_after="ttir"`
    stops after Triton IR (a kernel compiled so cannot be launched).
    """
    if stop_after not in (None, "ttir"):
        raise TritiumError(f"stop_after must be None or 'ttir', got {stop_after!r}")
    if isinstance(src, JITFunction):
        src = ASTSource(src, signature or {}, constexprs, attrs)
    elif not isinstance(src, ASTSource) and not ir_source.is_ir_file(src):
        raise TritiumError(f"compile() needs a @jit function, an ASTSource or the path of a .ttir or .ttgir "
                           f"file, got {src!r}" if isinstance(src, (str, os.PathLike))
                           else f"compile() needs a @jit function or an ASTSource, got {type(src).__name__}")
    opts = {"num_warps": num_warps, "num_stages": num_stages, "num_ctas": num_ctas, "debug": debug}
    opts.update({k: v for k, v in (options or {}).items() if v is not None})
    opts.update(kwargs)
    target_given = target is not None
    target = GPUTarget.parse(target if target_given else "cuda:90")
    nw = opts["num_warps"]
    if not isinstance(nw, int) or nw <= 0 or nw & (nw - 1):
        raise OptionError(f"num_warps must be a power of 2 (from 1 to 32), got {nw}")
    if nw > 32:  # as Triton reports it (an autotuner skips such a config)
        raise OutOfResources(nw * 32, 1024, "threads")
    maxnreg = opts.get("maxnreg")
    if maxnreg is not None and (not isinstance(maxnreg, int) or isinstance(maxnreg, bool)
                                or not 1 <= maxnreg <= 255):
        raise TritiumError(f"maxnreg must be an integer from 1 to 255 (registers per thread), got {maxnreg!r}")
    if _knobs.nvidia.disable_ptxas_opt:  # DISABLE_PTXAS_OPT=1: ptxas -O0 (part of the cache key)
        opts["ptxas_opt"] = 0
    if _knobs.compilation.disable_line_info:  # TRITON_DISABLE_LINE_INFO=1: no .loc, no ptxas -lineinfo
        opts["line_info"] = 0
    debug_on = _debug_enabled(opts)
    if ir_source.is_ir_file(src):
        if stop_after is not None:
            raise TritiumError("stop_after applies to kernels compiled from Python, not to IR files")
        return ir_source.compile_ir_file(src, target if target_given else None, opts,
                                         lambda chosen: _backend_options(opts, chosen, debug_on, maxnreg))
    fn = src.fn
    lib = native_library()
    key = cache.make_key(__tritium_version__, lib.build_id(), frontend_hash(), fn.cache_key, fn.global_constexprs(),
                         sorted(src.signature.items()),
                         sorted((k, repr(v)) for k, v in src.constexprs.items()),
                         sorted((k, repr(v)) for k, v in src.attrs.items()),
                         sorted((k, repr(v)) for k, v in opts.items()), str(target), debug_on, stop_after)
    name = fn.__name__
    files = cache.load(key, name)
    if files is not None:
        return _from_cache(files, name)

    arg_values, arg_attrs = src.arg_values()
    text = generate_ttir(fn, arg_values, arg_attrs, debug_on, nw, target.arch)
    # Named apart from the kernel's file: positions in this buffer are
    # positions in generated IR (the ops carry the Python locations).
    ttir = lib.run_pipeline(text, ttir_pipeline(target.arch), f"<TTIR generated for {name}>")
    asm: Dict[str, Any] = {"source": fn.src, "ttir": ttir}
    metadata: Dict[str, Any] = {"name": name, "kernel_name": name, "target": str(target),
                                "num_warps": nw, "num_stages": opts["num_stages"], "num_ctas": opts["num_ctas"],
                                "signature": dict((p.name, src.signature[p.name]) for p in fn.params),
                                "constexprs": {k: repr(v) for k, v in src.constexprs.items()},
                                "debug": debug_on, "shared": 0, "hash": key}
    if stop_after is None:
        backend_options = _backend_options(opts, target, debug_on, maxnreg)
        stages, cubin = lib.compile_cuda(ttir, backend_options, f"<TTIR of {name}>")
        for stage in ("ttgir", "llir", "ptx"):
            if stage in stages:
                asm[stage] = stages[stage]
        if cubin is not None:
            asm["cubin"] = cubin
        take_native_metadata(metadata, stages)
        if "times_ms" in stages:  # per stage of the native compile, for profiling
            metadata["compile_times_ms"] = stages["times_ms"]
    files = {stage: (v.encode() if isinstance(v, str) else v) for stage, v in asm.items()}
    cache.store(key, name, files, metadata)
    return CompiledKernel(name, asm, metadata)
