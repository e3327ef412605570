"""`tritium.compile`: a @jit function and its specialization -> compiled kernel.

Stages (each one's text is kept in `CompiledKernel.asm`):
  source  the kernel's Python source
  ttir    Triton IR after the C++ `tritium-make-ttir` pipeline (inline,
          rewrite-tensor-pointer, canonicalize, combine, reorder-broadcast,
          cse, split-loop-pointers, symbol-dce, loop-unroll)
Later stages (ttgir, llir, ptx, cubin) come from the NVIDIA backend.
No GPU is needed: the target is named (`cuda:90`, or GPUTarget("cuda", 90, 32)).
"""
from __future__ import annotations

import inspect
import json
import os
import time
from typing import Any, Dict, Optional

from .. import knobs as _knobs
from .._native import native_library
from ..backends import backends as _backends
from ..backends.compiler import BaseBackend, GPUTarget
from ..compile_time import constexpr
from ..dtypes import dtype_from_signature
from ..errors import CompilationError, OptionError, OutOfResources, TritiumError  # noqa: F401
from ..runtime import cache, tuple_args
# the hash of the Python sources, part of every kernel's key; triton_key() is
# Triton's name for the compiler's identity (torch inductor imports it from here)
from ..runtime.cache import frontend_hash, triton_key  # noqa: F401
from ..runtime.jit import JITFunction, set_compiler
from ..version import __tritium_version__
from . import ir_source
from .code_generator import generate_ttir
from . import ttir_tree
from .compiled_kernel import CompiledKernel, KernelMetadata, from_cache, take_native_metadata  # noqa: F401
from .host_kernel import HostKernel


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

    @property
    def name(self) -> str:
        return self.fn.__name__

    @property
    def constants(self) -> Dict:
        """The constexpr values keyed by 1-tuples of parameter indices
        (Triton's ASTSource.constants)."""
        names = self.fn.arg_names
        return {(names.index(k),): v for k, v in self.constexprs.items()}

    def make_ir(self, target, options, codegen_fns, module_map, context):
        """The kernel's Triton IR before the TTIR passes, as a tree with
        Triton's binding methods (compiler/ttir_tree.py), its function
        first; Triton's make_ir with the same parameters."""
        arg_values, arg_attrs = self.arg_values()
        num_warps = getattr(options, "num_warps", 4) if options is not None else 4
        target = GPUTarget.parse(target) if target is not None else None
        debug = _debug_enabled({"debug": getattr(options, "debug", None)})
        text = generate_ttir(self.fn, arg_values, arg_attrs, debug, num_warps, target.arch if target else 90)
        return ttir_tree.parse(text, self.fn.__name__)

    def arg_values(self):
        """Per parameter: a dtype (runtime) or the constexpr value wrapped in
        `tl.constexpr` (so that a dtype passed as a constexpr stays a value),
        and its argument attributes (empty for constexprs)."""
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


def make_backend(target) -> BaseBackend:
    """The backend that compiles for `target` (Triton's make_backend): the
    NVIDIA backend, for a GPUTarget or a "cuda:90" string."""
    target = GPUTarget.parse(target)
    actives = [b.compiler for b in _backends.values() if b.compiler.supports_target(target)]
    if len(actives) != 1:
        raise RuntimeError(f"{len(actives)} compatible backends for target ({target.backend}) ({actives}). "
                           "There should only be one.")
    return actives[0](target)


def _backend_options(opts: Dict, target: "GPUTarget", debug_on: bool, maxnreg: Optional[int]) -> Dict:
    """The native compile's options (capi/tritium.h) for compile()'s options."""
    backend_options = {"num_warps": opts["num_warps"], "num_ctas": opts["num_ctas"],
                       "num_stages": opts["num_stages"], "arch": target.arch, "debug": int(debug_on),
                       "enable_fp_fusion": int(bool(opts.get("enable_fp_fusion", True)))}
    if opts.get("enable_reflect_ftz") is not None:
        backend_options["ftz"] = int(bool(opts["enable_reflect_ftz"]))
    if maxnreg is not None and maxnreg <= 255:
        # (a cap above the 255 registers a thread can have caps nothing:
        # ptxas ignores such a .maxnreg, as it does in Triton's kernels)
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
    block-pointer tiles that feed dots in loops move by TMA (tensor
    descriptors)."""
    return f"builtin.module(tritium-make-ttir{{compute-capability={int(arch)}}})"


def _debug_enabled(options: Dict) -> bool:
    if options.get("debug") is not None:
        return bool(options["debug"])
    return os.environ.get("TRITIUM_DEBUG", os.environ.get("TRITON_DEBUG", "0")) not in ("", "0")


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
    ns = opts["num_stages"]
    if not isinstance(ns, int) or isinstance(ns, bool) or ns < 0:
        raise OptionError(f"num_stages must be a non-negative integer, got {ns!r}")
    maxnreg = opts.get("maxnreg")
    # (as in Triton, a cap above the hardware's 255 registers a thread is
    # accepted and caps nothing; mamba's autotune lists 256)
    if maxnreg is not None and (not isinstance(maxnreg, int) or isinstance(maxnreg, bool) or maxnreg < 1):
        raise TritiumError(f"maxnreg must be a positive integer (registers per thread), got {maxnreg!r}")
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
    # (what makes the cubins is part of the key: another ptxas builds other ones)
    ptx_compiler = lib.ptx_compiler_id() if target.backend != "cpu" else None
    key = cache.make_key(__tritium_version__, lib.build_id(), ptx_compiler, frontend_hash(), fn.cache_key,
                         fn.global_constexprs(),
                         sorted(src.signature.items()),
                         sorted((k, repr(v)) for k, v in src.constexprs.items()),
                         sorted((k, repr(v)) for k, v in src.attrs.items()),
                         sorted((k, repr(v)) for k, v in opts.items()), str(target), debug_on, stop_after)
    name = fn.__name__
    if target.backend == "cpu":
        return _compile_for_host(src, opts, key, debug_on, stop_after, lib)
    started = time.time()
    files = cache.load(key, name)
    if files is not None:
        kernel = from_cache(files, name)
        kernel.src = src
        _log_compile(name, started, None)
        return kernel

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
    kernel = CompiledKernel(name, asm, metadata)
    kernel.src = src
    _log_compile(name, started, metadata.get("compile_times_ms", {}))
    return kernel


def _log_compile(name: str, started: float, native_ms: Optional[Dict]) -> None:
    """With TRITIUM_COMPILE_LOG=path: one JSON line a GPU compile, appended
    to the file by whichever process compiled (Inductor's compile workers
    included): the process, the kernel, when it started (Unix time), how
    long it took, and its native stages in ms (null when the cache served
    it).  A line is one write on a file opened for appending, so processes
    do not interleave within lines."""
    path = os.environ.get("TRITIUM_COMPILE_LOG")
    if not path:
        return
    line = json.dumps({"pid": os.getpid(), "name": name, "start": round(started, 6),
                       "s": round(time.time() - started, 6), "native_ms": native_ms}) + "\n"
    with open(path, "a") as f:
        f.write(line)


def _compile_for_host(src: ASTSource, opts: Dict, key: str, debug_on: bool, stop_after, lib):
    """compile() for target "cpu": Triton IR, then a host object file
    (tritium_cpu_compile), linked in memory.  The object file is cached with
    the IR, under the key of the compile and the host's description (CPU
    and vector features), and linked again from there (tritium_cpu_load).
    Under TRITON_INTERPRET=1, where a kernel typically runs once on a test's
    small inputs, the machine code comes from LLVM's fast code generator:
    a 64x64 tl.sort compiles in 1.9 s instead of 5.8 and runs in 155 us
    instead of 71 (2-core host)."""
    fn, name = src.fn, src.fn.__name__
    host = lib.cpu_host()
    codegen = "fast" if _knobs.runtime.interpret else "optimized"
    params = tuple_args.flatten_signature({p.name: src.signature[p.name] for p in fn.params})
    if stop_after is None:
        key = cache.make_key(key, host, codegen)
        files = cache.load(key, name)
        if files is not None and "o" in files:
            metadata = json.loads(files["json"])
            asm = {stage: files[stage].decode() for stage in ("source", "ttir", "llir") if stage in files}
            kernel = HostKernel(name, asm, metadata, lib.load_cpu(files["o"], name), params)
            kernel.src = src
            return kernel
    arg_values, arg_attrs = src.arg_values()
    text = generate_ttir(fn, arg_values, arg_attrs, debug_on, opts["num_warps"], 0)
    ttir = lib.run_pipeline(text, ttir_pipeline(0), f"<TTIR generated for {name}>")
    # In debug mode, loads and stores through pointer arguments assert that
    # they stay in the argument's buffer (whose extent the launch passes).
    bounds_checks = debug_on
    if bounds_checks:
        ttir = lib.run_pipeline(ttir, "builtin.module(tritium-cpu-bounds-checks)", f"<TTIR of {name}>")
    signature = {p.name: src.signature[p.name] for p in fn.params}
    metadata: Dict[str, Any] = {"name": name, "kernel_name": name, "target": "cpu", "num_warps": opts["num_warps"],
                                "num_stages": opts["num_stages"], "num_ctas": 1, "signature": signature,
                                "constexprs": {k: repr(v) for k, v in src.constexprs.items()}, "debug": debug_on,
                                "bounds_checks": bounds_checks, "shared": 0, "host": host, "cpu_codegen": codegen,
                                "hash": key}
    asm: Dict[str, Any] = {"source": fn.src, "ttir": ttir}
    if stop_after == "ttir":
        return CompiledKernel(name, asm, metadata)
    program, llir, image = lib.compile_cpu(ttir, name, f"<TTIR of {name}>", fast_codegen=codegen == "fast")
    asm["llir"] = llir
    cache.store(key, name, {"source": fn.src.encode(), "ttir": ttir.encode(), "llir": llir.encode(), "o": image},
                metadata)
    kernel = HostKernel(name, asm, metadata, program, params)
    kernel.src = src
    return kernel


set_compiler(compile)  # @jit functions compile their new specializations with it
