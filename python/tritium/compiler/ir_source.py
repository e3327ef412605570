"""Compiling a file of Triton IR: `triton.compile("kernel.ttgir")`.

Triton's own tests write TTGIR by hand (a layout conversion between two
chosen layouts, a reduction over an MMA layout) and compile the file.  The
file's suffix says where compilation starts: `.ttir` runs the whole NVIDIA
pipeline, `.ttgir` only the lowering to LLVM and PTX (its layouts are
taken as written, as Triton does), for the GPU the module's `ttg.target`
names unless compile() is given one.  The kernel is the module's public
`tt.func`; its argument types give the launch signature (`!tt.ptr<f16>`
is "*fp16", `i32` is "i32"), and a TTGIR module's `ttg.num-warps` gives the
warp count.  Errors in the text point at the file's lines.
"""
from __future__ import annotations

import os
import re
from typing import Any, Dict, List, Tuple

from .._native import native_library
from ..backends.compiler import GPUTarget
from ..errors import CompilationError, TritiumError
from ..runtime import cache
from ..version import __tritium_version__
from .compiled_kernel import CompiledKernel, from_cache, take_native_metadata

SUFFIXES = {".ttir": "ttir", ".ttgir": "ttgir"}

_SCALARS = {"i1": "i1", "i8": "i8", "i16": "i16", "i32": "i32", "i64": "i64", "f16": "fp16", "bf16": "bf16",
            "f32": "fp32", "f64": "fp64", "f8E4M3FN": "fp8e4nv", "f8E5M2": "fp8e5", "f8E4M3FNUZ": "fp8e4b8",
            "f8E5M2FNUZ": "fp8e5b16"}
_POINTER = re.compile(r"!tt\.ptr<([^,>]+)(?:,\s*\d+)?>")


def is_ir_file(src: Any) -> bool:
    """Whether `src` names a file of Triton IR (a path with an IR suffix)."""
    return isinstance(src, (str, os.PathLike)) and os.path.splitext(os.fspath(src))[1] in SUFFIXES


def _split_top_level(text: str) -> List[str]:
    """`text` split at the commas outside any bracket."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "<({[":
            depth += 1
        elif ch in ">)}]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:])
    return parts


def _kernel_header(printed: str, path: str) -> Tuple[str, str]:
    """The name and the argument list of the module's public tt.func."""
    match = re.search(r"tt\.func public @([\w$.]+)\(", printed)
    if not match:
        raise CompilationError(f"{path}: no public tt.func to compile (the kernel must be `tt.func public`)")
    depth, i = 1, match.end()
    while depth and i < len(printed):
        depth += {"(": 1, ")": -1}.get(printed[i], 0)
        i += 1
    return match[1], printed[match.end():i - 1]


def signature_of(printed: str, path: str) -> Tuple[str, Dict[str, str]]:
    """The kernel's name and its signature ({argument: "*fp16" | "i32" | ...})
    from the printed (parsed and verified) module."""
    name, arguments = _kernel_header(printed, path)
    signature = {}
    for index, argument in enumerate(_split_top_level(arguments)):
        m = re.match(r"\s*%([\w$.]+)\s*:\s*(.*)", argument, re.S)
        if not m:
            raise CompilationError(f"{path}: cannot read argument {index} of @{name}: {argument.strip()}")
        arg_name, type_text = m[1], re.split(r"\s+(?:\{|loc\()", m[2].strip(), 1)[0]  # without attributes, loc
        pointer = _POINTER.fullmatch(type_text)
        element = pointer[1].strip() if pointer else type_text
        if element not in _SCALARS:
            raise CompilationError(f"{path}: argument %{arg_name} of @{name} has type {type_text}; a kernel "
                                   "compiled from IR takes pointers to scalars and scalars "
                                   f"({', '.join(_SCALARS)})")
        signature[arg_name] = ("*" if pointer else "") + _SCALARS[element]
    return name, signature


def _module_int(printed: str, attribute: str):
    m = re.search(r'"?' + re.escape(attribute) + r'"?\s*=\s*(\d+)\s*:\s*i32', printed)
    return int(m[1]) if m else None


def compile_ir_file(path, target, opts: Dict[str, Any], backend_options_for):
    """Compiles the IR file `path` for `target` (a GPUTarget; None: the
    module's `ttg.target`, else cuda:90); returns a CompiledKernel.  `opts`
    are compile()'s options, `backend_options_for(target)` the native
    options they map to (input stage and warps are set here)."""
    path = os.fspath(path)
    stage = SUFFIXES[os.path.splitext(path)[1]]
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise TritiumError(f"cannot read {path}: {e.strerror or e}") from None
    lib = native_library()
    printed = lib.parse_and_verify(text, path)
    name, signature = signature_of(printed, path)
    num_warps = opts["num_warps"]
    if stage == "ttgir":
        num_warps = _module_int(printed, "ttg.num-warps") or num_warps
        threads = _module_int(printed, "ttg.threads-per-warp")
        if threads not in (None, 32):
            raise CompilationError(f"{path}: ttg.threads-per-warp is {threads}; NVIDIA GPUs have 32 threads per warp")
        ctas = _module_int(printed, "ttg.num-ctas")
        if ctas not in (None, 1):
            raise CompilationError(f"{path}: ttg.num-ctas is {ctas}; Tritium runs one CTA per CTA group")
    if target is None:
        named = re.search(r'ttg\.target"?\s*=\s*"(cuda:\d+)"', printed)
        target = GPUTarget.parse(named[1] if named else "cuda:90")
    options = dict(backend_options_for(target), input=stage, num_warps=num_warps)
    key = cache.make_key(__tritium_version__, lib.build_id(), lib.ptx_compiler_id(), "ir-file", stage, text,
                         sorted((k, repr(v)) for k, v in options.items()), str(target))
    files = cache.load(key, name)
    if files is not None:
        return from_cache(files, name)
    stages, cubin = lib.compile_cuda(text, options, path)
    asm: Dict[str, Any] = {stage: text}
    for produced in ("ttgir", "llir", "ptx"):
        if stages.get(produced):  # (a TTGIR input is not printed again: its stage stays the file's text)
            asm[produced] = stages[produced]
    if cubin is not None:
        asm["cubin"] = cubin
    metadata: Dict[str, Any] = {"name": name, "kernel_name": name, "target": str(target),
                                "num_warps": num_warps, "num_stages": opts["num_stages"],
                                "num_ctas": opts["num_ctas"], "signature": signature, "constexprs": {},
                                "debug": bool(options.get("debug")), "shared": 0}
    take_native_metadata(metadata, stages)
    cache.store(key, name, {k: (v.encode() if isinstance(v, str) else v) for k, v in asm.items()}, metadata)
    return CompiledKernel(name, asm, metadata)
