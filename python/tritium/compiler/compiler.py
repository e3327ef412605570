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

import os
import re
from dataclasses import dataclass, field
from typing import Any, Dict, Optional

from .._native import native_library
from ..errors import CompilationError, TritiumError
from ..language.dtypes import dtype_from_signature
from ..runtime.jit import JITFunction
from .code_generator import generate_ttir

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
                if p.default is not p.default.__class__ and p.default is not None and \
                        p.default is not __import__("inspect").Parameter.empty:
                    self.constexprs[p.name] = p.default
                    self.signature.setdefault(p.name, "constexpr")
                else:
                    raise TritiumError(f"constexpr parameter '{p.name}' of {fn.__name__} needs a value in "
                                       "constexprs")
            elif p.name not in self.signature:
                raise TritiumError(f"parameter '{p.name}' of {fn.__name__} has no type in the signature")

    def arg_values(self):
        """Per parameter: a dtype (runtime) or the constexpr value, and attrs."""
        values, attrs = [], []
        for p in self.fn.params:
            ty = self.signature[p.name]
            if ty == "constexpr" or p.name in self.constexprs:
                values.append(self.constexprs.get(p.name))
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


class CompiledKernel:
    """A compiled kernel: its texts per stage and metadata."""

    def __init__(self, name: str, asm: Dict[str, str], metadata: Dict[str, Any]):
        self.name = name
        self.asm = asm
        self.metadata = metadata

    def launch(self, grid, args):
        raise TritiumError(f"cannot launch '{self.name}': this build of Tritium compiles to Triton IR only; "
                           "the NVIDIA backend and runtime come next")

    def __repr__(self):
        return f"CompiledKernel({self.name}, stages={list(self.asm)})"


TTIR_PIPELINE = "builtin.module(tritium-make-ttir)"


def _debug_enabled(options: Dict) -> bool:
    if options.get("debug") is not None:
        return bool(options["debug"])
    return os.environ.get("TRITIUM_DEBUG", os.environ.get("TRITON_DEBUG", "0")) not in ("", "0")


def compile(src, target=None, options: Optional[Dict] = None, *, signature=None, constexprs=None, attrs=None,
            num_warps: int = 4, num_stages: int = 3, num_ctas: int = 1, debug: Optional[bool] = None,
            **kwargs) -> CompiledKernel:
    """Compiles a kernel without a GPU.

        tritium.compile(add_kernel, signature={"x_ptr": "*fp32", "n": "i32"},
                        constexprs={"BLOCK": 1024}, target="cuda:90", num_warps=4)
        triton.compile(ASTSource(add_kernel, signature, constexprs), target=GPUTarget("cuda", 90, 32))
    """
    if isinstance(src, JITFunction):
        src = ASTSource(src, signature or {}, constexprs, attrs)
    elif not isinstance(src, ASTSource):
        raise TritiumError(f"compile() needs a @jit function or an ASTSource, got {type(src).__name__}")
    opts = {"num_warps": num_warps, "num_stages": num_stages, "num_ctas": num_ctas, "debug": debug}
    opts.update(options or {})
    opts.update(kwargs)
    target = GPUTarget.parse(target if target is not None else "cuda:90")
    nw = opts["num_warps"]
    if not isinstance(nw, int) or nw <= 0 or nw & (nw - 1):
        raise TritiumError(f"num_warps must be a positive power of two, got {nw}")
    fn = src.fn
    arg_values, arg_attrs = src.arg_values()
    text = generate_ttir(fn, arg_values, arg_attrs, _debug_enabled(opts))
    source_name = fn.file_name
    lib = native_library()
    if hasattr(lib, "run_pipeline"):
        ttir = lib.run_pipeline(text, TTIR_PIPELINE, source_name)
    else:
        ttir = lib.parse_and_verify(text, source_name)
    metadata = {"name": fn.__name__, "target": str(target), "num_warps": opts["num_warps"],
                "num_stages": opts["num_stages"], "num_ctas": opts["num_ctas"],
                "signature": dict(src.signature), "constexprs": {k: repr(v) for k, v in src.constexprs.items()},
                "debug": _debug_enabled(opts)}
    return CompiledKernel(fn.__name__, {"source": fn.src, "ttir": ttir}, metadata)
