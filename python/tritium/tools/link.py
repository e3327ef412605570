"""`python -m triton.tools.link`: one C entry point over the specializations
`triton.tools.compile` wrote.

    python -m triton.tools.link build/*.h -o build/kernel

reads the `// tt-linker:` line of every header and writes kernel.h and
kernel.c.  Specializations that share constexpr values and num_warps /
num_stages (the "algo info" of the line) form one algorithm, whose
dispatcher `<name>_<algo info>(stream, args...)` calls the most specialized
variant whose hints hold for the arguments (a pointer or integer divisible
by 16, an integer equal to 1) and returns CUDA_ERROR_INVALID_VALUE when
none does.  Per kernel name:

    CUresult <name>(CUstream stream, args..., int algo_id);  algorithm algo_id
    CUresult <name>_default(CUstream stream, args...);        algorithm 0
    int <name>_get_num_algos(void);
    void load_<name>(void);  void unload_<name>(void);       every variant

Algorithms are numbered in the order their first header is given.
"""
from __future__ import annotations

import re
from argparse import ArgumentParser, RawDescriptionHelpFormatter
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence


class LinkerError(Exception):
    """A header the linker cannot read, or variants that do not fit together."""


@dataclass
class KernelLinkerMeta:
    """One compiled variant, as its header describes it."""
    orig_kernel_name: str
    arg_names: Sequence[str]
    arg_ctypes: Sequence[str]
    sizes: Sequence[Optional[int]]  # per argument: 16 (divisible), 1 (equal to 1) or None
    sig_hash: str
    triton_suffix: str
    suffix: str
    num_specs: int  # number of specialized arguments

    @property
    def function(self) -> str:
        return f"{self.orig_kernel_name}_{self.sig_hash}_{self.suffix}"


_DIRECTIVE = re.compile(r"//\s*tt-linker:\s*(\w+):(.*):([^:]*)$")
_BACKEND = re.compile(r"//\s*tt-linker-backend:\s*(\w+)")
_VARIANT = re.compile(r"^(\w+?)_([0-9a-f]{8})_((?:\d+[cd])*)$")
_PARAM = re.compile(r"^\s*(\w+)\s+(\w+)\s*$")


class HeaderParser:
    """Collects the variants of the headers it is given, by algorithm
    (`kernels`: "<name>_<algo info>" -> variants)."""

    def __init__(self) -> None:
        self.kernels: Dict[str, List[KernelLinkerMeta]] = defaultdict(list)
        self.backend_name: Optional[str] = None

    def extract_linker_meta(self, header: str) -> None:
        for line in header.splitlines():
            if not line.startswith("//"):
                continue
            backend = _BACKEND.match(line)
            if backend:
                if self.backend_name not in (None, backend.group(1)):
                    raise LinkerError(f"headers of two backends: {self.backend_name} and {backend.group(1)}")
                self.backend_name = backend.group(1)
                continue
            directive = _DIRECTIVE.match(line.rstrip())
            if directive is None:
                continue
            function, c_sig, algo_info = directive.groups()
            variant = _VARIANT.match(function)
            if variant is None:
                raise LinkerError(f"{function} is not a valid kernel name (<name>_<8 hex digits>_<suffix>)")
            name, sig_hash, suffix = variant.groups()
            types, names = self._parameters(c_sig)
            sizes = self._sizes(suffix, len(names), function)
            meta = KernelLinkerMeta(orig_kernel_name=name, arg_names=names, arg_ctypes=types, sizes=sizes,
                                    sig_hash=sig_hash, triton_suffix=suffix, suffix=suffix,
                                    num_specs=sum(s is not None for s in sizes))
            self._add_kernel(f"{name}_{algo_info}", meta)

    @staticmethod
    def _parameters(c_sig: str):
        types, names = [], []
        for param in c_sig.split(","):
            if not param.strip():
                continue
            match = _PARAM.match(param)
            if match is None:
                raise LinkerError(f"'{c_sig}' is not a valid argument signature")
            types.append(match.group(1))
            names.append(match.group(2))
        return types, names

    @staticmethod
    def _sizes(suffix: str, count: int, function: str) -> List[Optional[int]]:
        sizes: List[Optional[int]] = [None] * count
        for index, kind in re.findall(r"(\d+)([cd])", suffix):
            if int(index) >= count:
                raise LinkerError(f"{function}: the suffix names argument {index}, but it has {count}")
            sizes[int(index)] = 1 if kind == "c" else 16
        return sizes

    def _add_kernel(self, name: str, meta: KernelLinkerMeta) -> None:
        if self.kernels.get(name):
            last = self.kernels[name][-1]
            if list(last.arg_ctypes) != list(meta.arg_ctypes):
                raise LinkerError(f"mismatched signature for kernel {name}:\n\texisting sig is: "
                                  f"{','.join(last.arg_ctypes)}\n\tcurrent is: {','.join(meta.arg_ctypes)}")
        self.kernels[name].append(meta)


def _params(types: Sequence[str], names: Sequence[str], leading: str = "TT_StreamTy stream", trailing: str = "") -> str:
    return ", ".join([leading] + [f"{t} {n}" for t, n in zip(types, names)] + ([trailing] if trailing else []))


def gen_signature_with_full_args(m: KernelLinkerMeta) -> str:
    """The arguments of every variant's dispatcher, specialized ones included."""
    return ", ".join(f"{t} {n}" for t, n in zip(m.arg_ctypes, m.arg_names))


def gen_signature(m: KernelLinkerMeta) -> str:
    """The arguments of one variant's launch function (none equal to 1)."""
    return ", ".join(f"{t} {n}" for t, n, s in zip(m.arg_ctypes, m.arg_names, m.sizes) if s != 1)


def _full(m: KernelLinkerMeta, trailing: str = "") -> str:
    return _params(m.arg_ctypes, m.arg_names, trailing=trailing)


def _call(function: str, names: Sequence[str], trailing: str = "") -> str:
    return f"{function}({', '.join(['stream'] + list(names) + ([trailing] if trailing else []))})"


def _by_specialization(metas: Sequence[KernelLinkerMeta]) -> List[KernelLinkerMeta]:
    return sorted(metas, key=lambda m: -m.num_specs)


def make_algo_decls(name: str, metas: Sequence[KernelLinkerMeta]) -> str:
    return f"\nTT_ResultTy {name}({_full(metas[-1])});\nvoid load_{name}(void);\nvoid unload_{name}(void);\n"


def make_global_decl(meta: KernelLinkerMeta) -> str:
    k = meta.orig_kernel_name
    return (f"\nTT_ResultTy {k}_default({_full(meta)});\n"
            f"TT_ResultTy {k}({_full(meta, 'int algo_id')});\n"
            f"void load_{k}(void);\nvoid unload_{k}(void);\n")


def make_get_num_algos_decl(meta: KernelLinkerMeta) -> str:
    return f"int {meta.orig_kernel_name}_get_num_algos(void);\n"


def make_kernel_hints_dispatcher(name: str, metas: Sequence[KernelLinkerMeta]) -> str:
    """The dispatcher of one algorithm over its variants, most specialized
    first, and its load/unload functions."""
    ordered = _by_specialization(metas)
    out = [f"// launcher for: {name}"]
    for m in ordered:
        kept = [(t, n) for t, n, s in zip(m.arg_ctypes, m.arg_names, m.sizes) if s != 1]
        out.append(f"TT_ResultTy {m.function}({_params([t for t, _ in kept], [n for _, n in kept])});")
    out.append("")
    out.append(f"TT_ResultTy {name}({_full(metas[-1])}) {{")
    for m in ordered:
        conditions = [f"((uintptr_t){n} % 16 == 0)" if s == 16 else f"({n} == 1)"
                      for n, s in zip(m.arg_names, m.sizes) if s is not None]
        out.append(f"  if ({' && '.join(conditions) if conditions else '1'})")
        out.append(f"    return {_call(m.function, [n for n, s in zip(m.arg_names, m.sizes) if s != 1])};")
    out.append("")
    out.append("  return TT_ERROR_INVALID_VALUE;")
    out.append("}")
    for mode in ("load", "unload"):
        out.append("")
        out.append(f"// {mode} for: {name}")
        for m in ordered:
            out.append(f"void {mode}_{m.function}(void);")
        out.append(f"void {mode}_{name}(void) {{")
        for m in ordered:
            out.append(f"  {mode}_{m.function}();")
        out.append("}")
    return "\n".join(out) + "\n"


def make_func_pointers(names: Sequence[str], meta: KernelLinkerMeta) -> str:
    k = meta.orig_kernel_name
    rows = "".join(f"  {n},\n" for n in names)
    return (f"typedef TT_ResultTy (*{k}_kernel_func_t)({_full(meta)});\n"
            f"static const {k}_kernel_func_t {k}_kernels[] = {{\n{rows}}};\n")


def make_get_num_algos_def(meta: KernelLinkerMeta) -> str:
    k = meta.orig_kernel_name
    return (f"int {k}_get_num_algos(void) {{\n"
            f"  return (int)(sizeof({k}_kernels) / sizeof({k}_kernels[0]));\n}}\n")


def make_kernel_meta_const_dispatcher(meta: KernelLinkerMeta) -> str:
    k = meta.orig_kernel_name
    return (f"TT_ResultTy {k}({_full(meta, 'int algo_id')}) {{\n"
            f"  if (algo_id < 0 || algo_id >= {k}_get_num_algos())\n"
            f"    return TT_ERROR_INVALID_VALUE;\n"
            f"  return {k}_kernels[algo_id]({', '.join(['stream'] + list(meta.arg_names))});\n}}\n")


def make_kernel_load_def(names: Sequence[str], meta: KernelLinkerMeta) -> str:
    out = ""
    for mode in ("load", "unload"):
        out += f"void {mode}_{meta.orig_kernel_name}(void) {{\n"
        out += "".join(f"  {mode}_{n}();\n" for n in names)
        out += "}\n\n"
    return out


def make_default_algo_kernel(meta: KernelLinkerMeta) -> str:
    k = meta.orig_kernel_name
    return (f"TT_ResultTy {k}_default({_full(meta)}) {{\n"
            f"  return {_call(k, meta.arg_names, '0')};\n}}\n")


# What both generated files start with (the CUDA types behind the names).
CUDA_PRELUDE = """\
#ifndef TT_LINK_INCLUDES
#define TT_LINK_INCLUDES

#include <stdint.h>

#include <cuda.h>

typedef CUstream TT_StreamTy;
typedef CUresult TT_ResultTy;

#define TT_ERROR_INVALID_VALUE CUDA_ERROR_INVALID_VALUE

#endif
"""


def link(headers: Sequence[str], out: Path) -> List[Path]:
    """Links the headers into `out` with .h and .c suffixes; returns both paths."""
    parser = HeaderParser()
    for header in headers:
        parser.extract_linker_meta(Path(header).read_text())
    if not parser.kernels:
        raise LinkerError("no `// tt-linker:` line in the headers: give the .h files triton.tools.compile wrote")
    if parser.backend_name not in (None, "cuda"):
        raise LinkerError(f"headers for backend '{parser.backend_name}': Tritium links CUDA kernels only")
    by_kernel: Dict[str, List[str]] = defaultdict(list)  # kernel name -> its algorithms, in order
    for algo, metas in parser.kernels.items():
        by_kernel[metas[0].orig_kernel_name].append(algo)
    for kernel, algos in by_kernel.items():
        first = parser.kernels[algos[0]][-1]
        for algo in algos[1:]:
            other = parser.kernels[algo][-1]
            if list(other.arg_ctypes) != list(first.arg_ctypes) or list(other.arg_names) != list(first.arg_names):
                raise LinkerError(f"the variants of {kernel} take different arguments: "
                                  f"({gen_signature_with_full_args(first)}) and "
                                  f"({gen_signature_with_full_args(other)})")

    header = CUDA_PRELUDE
    header += "\n".join(make_algo_decls(algo, metas) for algo, metas in parser.kernels.items())
    for kernel, algos in by_kernel.items():
        meta = parser.kernels[algos[0]][0]
        header += "\n" + make_get_num_algos_decl(meta) + make_global_decl(meta)

    source = CUDA_PRELUDE + "\n"
    source += "\n".join(make_kernel_hints_dispatcher(algo, metas) for algo, metas in parser.kernels.items())
    for kernel, algos in by_kernel.items():
        meta = parser.kernels[algos[0]][0]
        source += "\n" + make_func_pointers(algos, meta)
        source += "\n" + make_get_num_algos_def(meta)
        source += "\n" + make_kernel_meta_const_dispatcher(meta)
        source += "\n" + make_kernel_load_def(algos, meta)
        source += make_default_algo_kernel(meta)

    out = Path(out)
    written = [out.with_suffix(".h"), out.with_suffix(".c")]
    written[0].write_text(header)
    written[1].write_text(source)
    return written


def main(argv: Optional[List[str]] = None) -> None:
    parser = ArgumentParser(description="Triton ahead-of-time linker (Tritium).\n\n" +
                            (__doc__ or "").partition("\n\n")[2], formatter_class=RawDescriptionHelpFormatter)
    parser.add_argument("headers", nargs="+", help="headers written by triton.tools.compile")
    parser.add_argument("--out", "-o", type=Path, required=True, help="output path; .h and .c are added")
    parser.add_argument("--prefix", type=str, default="", help="accepted for Triton's command line; unused there too")
    args = parser.parse_args(argv)
    try:
        link(args.headers, args.out)
    except (LinkerError, OSError) as e:
        raise SystemExit(f"error: {e}")


if __name__ == "__main__":
    main()
