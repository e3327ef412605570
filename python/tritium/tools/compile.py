"""`python -m triton.tools.compile`: ahead-of-time compilation of one
specialization of a @jit kernel into C.

    python -m triton.tools.compile /path/to/kernel.py -n add_kernel \\
        --signature "*fp32:16, *fp32:16, *fp32:16, i32, 1024" --grid "n/1024, 1, 1" \\
        --num-warps 4 --target cuda:90:32 --out-name add -o build/add

writes build/add.<hash>_<suffix>.h and .c: the kernel's cubin embedded as
a byte array, `load_<name>()` / `unload_<name>()`, and the launch function

    CUresult <name>(CUstream stream, CUdeviceptr x_ptr, ..., int32_t n);

where <name> is `<out name>_<hash>_<suffix>`: <hash> is the first 8 hex
digits of the SHA-256 of the signature's items and
"warps<W>xstages<S>", <suffix> lists the specialized arguments ("0d" for
argument 0 divisible by 16, "3c" for argument 3 equal to 1).  The header's
`// tt-linker:` line is what `triton.tools.link` reads.

The signature has one item per kernel parameter: a type ("*fp16", "i32",
"fp32", ...) with an optional hint (":16" divisible by 16, ":1" equal to 1,
which makes it a compile-time constant left out of the launch function),
or a number, which makes the parameter a constexpr of that value.  The
grid is three C expressions over the launch function's arguments (the
kernel's integer and float constexprs are defined there too).

The launch function passes what the cubin's entry takes, which is what
Tritium's launcher passes: the runtime arguments in order, then, for a
kernel with global scratch memory (tensor maps it makes, e.g. block
pointers moved by TMA on sm_90), the address of `grid size x
global_scratch_size` bytes it allocates stream-ordered for the launch
(cuMemAllocAsync, freed with cuMemFreeAsync after it).  It launches
total_num_warps * 32 threads with the kernel's dynamic shared memory
(allowed above 48 KiB at load).  The parameter list is checked against the
PTX `.entry` before anything is written.

The kernel's file is executed with its folder first on sys.path.
"""
from __future__ import annotations

import hashlib
import importlib.util
import re
import sys
from argparse import ArgumentParser, RawDescriptionHelpFormatter
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Tuple


@dataclass
class CompileArgs:
    """The command line's options (Triton's class of the same name)."""
    path: str = ""
    kernel_name: str = ""
    signature: str = ""
    grid: str = ""
    target: Optional[str] = None
    num_warps: int = 1
    num_stages: int = 3
    out_name: Optional[str] = None
    out_path: Optional[Path] = None


class AOTError(Exception):
    """A signature, grid or kernel the ahead-of-time compiler cannot take."""


# signature type -> the launch function's C type
_C_TYPES = {"i1": "int8_t", "i8": "int8_t", "i16": "int16_t", "i32": "int32_t", "i64": "int64_t",
            "u1": "uint8_t", "u8": "uint8_t", "u16": "uint16_t", "u32": "uint32_t", "u64": "uint64_t",
            "fp16": "float", "bf16": "float", "fp32": "float", "f32": "float", "fp64": "double"}

# bytes the kernel parameter of a signature type takes (fp16 and bf16 are
# passed as their 16-bit patterns)
_PARAM_BYTES = {"i1": 1, "i8": 1, "u1": 1, "u8": 1, "i16": 2, "u16": 2, "fp16": 2, "bf16": 2,
                "i32": 4, "u32": 4, "fp32": 4, "f32": 4, "i64": 8, "u64": 8, "fp64": 8}

_C_KEYWORDS = frozenset(
    "auto break case char const continue default do double else enum extern float for goto if inline int long "
    "register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while "
    "_Bool _Complex _Imaginary bool true false".split())

# names the launch function declares besides the kernel's arguments
_LAUNCH_LOCALS = frozenset(("stream", "result", "gX", "gY", "gZ", "global_scratch", "args"))


def c_type(ty: str) -> str:
    """The C type the launch function takes an argument of signature type `ty` as."""
    if ty.startswith("*"):
        return "CUdeviceptr"
    if ty.startswith("tensordesc"):
        raise AOTError(f"a tensor descriptor parameter ({ty}) cannot be compiled ahead of time: make the "
                       "descriptor in the kernel (tl.make_tensor_descriptor) from a pointer instead")
    try:
        return _C_TYPES[ty]
    except KeyError:
        raise AOTError(f"unknown type '{ty}' in the signature (expected e.g. *fp16, i32, fp32, or a number "
                       "for a constexpr)") from None


def _number(text: str):
    """int or float of `text`, or None."""
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return None


def hash_signature(items: List[str]) -> str:
    """The 8 hex digits that name a specialization: of its signature's
    items and "warps<W>xstages<S>"."""
    return hashlib.sha256(" ".join(items).encode()).hexdigest()[:8]


def _load_kernel(path: str, name: str):
    """The @jit function `name` of the Python file at `path`."""
    from tritium.runtime.jit import JITFunction
    file = Path(path)
    if not file.is_file():
        raise AOTError(f"no kernel file at {path}")
    sys.path.insert(0, str(file.parent.resolve()))
    spec = importlib.util.spec_from_file_location(file.stem, file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not hasattr(module, name):
        raise AOTError(f"{path} has no '{name}'")
    kernel = getattr(module, name)
    while not isinstance(kernel, JITFunction) and hasattr(kernel, "fn"):  # autotune/heuristics wrappers
        kernel = kernel.fn
    if not isinstance(kernel, JITFunction):
        raise AOTError(f"'{name}' in {path} is not a @triton.jit function")
    return kernel


def _parse_target(text: Optional[str]):
    from tritium.backends.compiler import GPUTarget
    from tritium.errors import TritiumError
    if not text:
        from tritium.runtime import driver
        try:
            return GPUTarget.parse(driver.current_target())
        except TritiumError as e:
            print(f"note: no usable GPU ({e}); compiling for cuda:90 (choose with --target)", file=sys.stderr)
            return GPUTarget("cuda", 90, 32)
    parts = text.strip().split(":")
    if len(parts) not in (2, 3) or not parts[1]:
        raise AOTError(f"--target must be <backend>:<arch>[:<warp size>], e.g. cuda:90:32; got '{text}'")
    arch = parts[1].removeprefix("sm_").rstrip("a")
    if not arch.isdigit() or (len(parts) == 3 and not parts[2].isdigit()):
        raise AOTError(f"--target must be <backend>:<arch>[:<warp size>], e.g. cuda:90:32; got '{text}'")
    return GPUTarget.parse(GPUTarget(parts[0], int(arch), int(parts[2]) if len(parts) == 3 else 32))


_PTX_WIDTH = re.compile(r"\.param\s+(?:\.align\s+\d+\s+)?\.([busf])(\d+)(?:\s+\.ptr(?:\s+\.\w+)*(?:\s+\.align\s+\d+)?)?"
                        r"\s+\w+(?:\[(\d+)\])?")


def entry_param_bytes(ptx: str, entry: str) -> List[int]:
    """The byte size of every parameter of `.entry <entry>` in the PTX."""
    match = re.search(r"\.entry\s+" + re.escape(entry) + r"\s*\((.*?)\)", ptx, re.S)
    if match is None:
        raise AOTError(f"the PTX has no .entry {entry}")
    sizes = []
    for param in match.group(1).split(","):
        if not param.strip():
            continue
        m = _PTX_WIDTH.search(param)
        if m is None:
            raise AOTError(f"cannot read the PTX parameter '{param.strip()}' of {entry}")
        sizes.append(int(m.group(3)) if m.group(3) else int(m.group(2)) // 8)
    return sizes


def _c_number(value) -> Optional[Tuple[str, str]]:
    """(C type, literal) of an integer or float constexpr, else None."""
    if isinstance(value, bool):
        return "int64_t", str(int(value))
    if isinstance(value, int):
        return ("int64_t", f"{value}LL") if -2 ** 63 <= value < 2 ** 63 else None
    if isinstance(value, float):
        return "double", repr(value) if value == value and abs(value) != float("inf") else None
    return None


_F16_HELPER = """\
/* IEEE half of a float, rounded to nearest even (the bits the kernel takes). */
static uint16_t tt_f32_to_f16(float value) {
  uint32_t x, sign, exponent, mantissa, half, rest, midpoint, shift;
  int e;
  memcpy(&x, &value, sizeof(x));
  sign = (x >> 16) & 0x8000u;
  exponent = (x >> 23) & 0xffu;
  mantissa = x & 0x7fffffu;
  if (exponent == 0xffu)
    return (uint16_t)(sign | 0x7c00u | (mantissa ? 0x200u : 0u));
  e = (int)exponent - 127 + 15;
  if (e >= 31)
    return (uint16_t)(sign | 0x7c00u);
  if (e <= 0) {
    if (e < -10)
      return (uint16_t)sign;
    mantissa |= 0x800000u;
    shift = (uint32_t)(14 - e);
    half = mantissa >> shift;
    rest = mantissa & ((1u << shift) - 1u);
    midpoint = 1u << (shift - 1u);
    if (rest > midpoint || (rest == midpoint && (half & 1u)))
      half++;
    return (uint16_t)(sign | half);
  }
  half = sign | ((uint32_t)e << 10) | (mantissa >> 13);
  rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
    half++;
  return (uint16_t)half;
}
"""

_BF16_HELPER = """\
/* bfloat16 of a float, rounded to nearest even (the bits the kernel takes). */
static uint16_t tt_f32_to_bf16(float value) {
  uint32_t x;
  memcpy(&x, &value, sizeof(x));
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return (uint16_t)((x >> 16) | 0x40u);
  return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}
"""


def _bytes_initializer(data: bytes) -> str:
    rows = []
    for start in range(0, len(data), 16):
        rows.append("  " + ", ".join(f"0x{b:02x}" for b in data[start:start + 16]) + ",")
    return "\n".join(rows)


def _header_text(p: dict) -> str:
    launch_params = ", ".join(["CUstream stream"] + p["c_params"])
    return f"""\
#ifndef TT_KERNEL_INCLUDES
#define TT_KERNEL_INCLUDES

#include <cuda.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#endif

// tt-linker-backend: cuda

void unload_{p["name"]}(void);
void load_{p["name"]}(void);
// tt-linker: {p["name"]}:{", ".join(p["full_c_params"])}:{p["algo_info"]}
CUresult {p["name"]}({launch_params});
"""


def _large_shared_code(name: str, entry: str, shared: int) -> str:
    """Load-time code that allows a kernel more than 48 KiB of dynamic
    shared memory (with the carveout that gives shared memory all it can,
    as Tritium's runtime and Triton's launcher do)."""
    if shared <= 49152:
        return ""
    return f"""\
  if ({shared} > optin) {{
    unload_{name}();
    {name}_fail(CUDA_ERROR_INVALID_VALUE, "'{entry}' needs {shared} bytes of shared memory per block, more than "
                "the device allows");
    return;
  }}
  cuFuncSetAttribute({name}_func, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, CU_SHAREDMEM_CARVEOUT_MAX_SHARED);
  if ((result = cuFuncSetAttribute({name}_func, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, {shared})) !=
      CUDA_SUCCESS) {{
    unload_{name}();
    {name}_fail(result, "allowing '{entry}' {shared} bytes of shared memory");
    return;
  }}
"""


def _source_text(p: dict) -> str:
    name, shared = p["name"], p["shared"]
    launch_params = ", ".join(["CUstream stream"] + p["c_params"])
    helpers = "".join(h for h, needed in ((_F16_HELPER, p["needs_f16"]), (_BF16_HELPER, p["needs_bf16"]))
                      if needed)
    constants = "".join(f"  const {t} {n} = {v};\n  (void){n};\n" for n, t, v in p["grid_constants"])
    checks = "".join(f"  if ({cond})\n    return CUDA_ERROR_INVALID_VALUE; /* {why} */\n"
                     for cond, why in p["checks"])
    conversions = "".join(f"  {line}\n" for line in p["conversions"])
    scratch_alloc = scratch_free = ""
    if p["scratch_size"]:
        scratch_alloc = f"""\
  /* {p["scratch_size"]} bytes of global scratch per program, {p["scratch_align"]}-byte aligned */
  result = cuMemAllocAsync(&global_scratch, (size_t)gX * gY * gZ * {p["scratch_size"]}u, stream);
  if (result != CUDA_SUCCESS)
    return result;
  if (global_scratch % {p["scratch_align"]}u) {{
    cuMemFreeAsync(global_scratch, stream);
    return CUDA_ERROR_INVALID_VALUE;
  }}
"""
        scratch_free = "  cuMemFreeAsync(global_scratch, stream);\n"
    args = ", ".join(p["arg_pointers"])
    args_decl = f"  void *args[{len(p['arg_pointers'])}] = {{ {args} }};\n" if p["arg_pointers"] else \
        "  void **args = NULL;\n"
    tuning = _large_shared_code(name, p["entry"], shared)
    device_decls = device_query = ""
    if tuning:  # (the device's limits are read only where the code uses them)
        device_decls = "  CUdevice device;\n  int optin = 0;\n"
        device_query = f"""\
  if ((result = cuCtxGetDevice(&device)) != CUDA_SUCCESS ||
      (result = cuDeviceGetAttribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device)) !=
          CUDA_SUCCESS) {{
    {name}_fail(result, "reading the current device's shared memory limit");
    return;
  }}
"""
    image_note = "cubin" if p["image_kind"] == "cubin" else "PTX (NUL-terminated; the driver compiles it)"
    return f"""\
/* {name}: kernel '{p["entry"]}' compiled ahead of time by Tritium for {p["target"]}.
{p["docstring"]}
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cuda.h>

/* The kernel's {image_note}, {len(p["image"])} bytes. */
unsigned char {name}_cubin[{len(p["image"])}] = {{
{_bytes_initializer(p["image"])}
}};

CUmodule {name}_mod = NULL;
CUfunction {name}_func = NULL;
static CUresult {name}_load_result = CUDA_SUCCESS;

{helpers}static CUresult {name}_fail(CUresult result, const char *what) {{
  const char *text = NULL;
  cuGetErrorString(result, &text);
  fprintf(stderr, "Triton Error [CUDA]: %s: %s\\n", what, text ? text : "unknown error");
  {name}_load_result = result;
  return result;
}}

void unload_{name}(void) {{
  if ({name}_mod != NULL)
    cuModuleUnload({name}_mod);
  {name}_mod = NULL;
  {name}_func = NULL;
  {name}_load_result = CUDA_SUCCESS;
}}

/* Loads the kernel into the current CUDA context.  On failure it prints
   the error and the next launch returns it. */
void load_{name}(void) {{
  CUresult result;
{device_decls}  if ({name}_func != NULL)
    return;
{device_query}  if ((result = cuModuleLoadData(&{name}_mod, {name}_cubin)) != CUDA_SUCCESS) {{
    {name}_mod = NULL;
    {name}_fail(result, "loading the module of '{p["entry"]}'");
    return;
  }}
  if ((result = cuModuleGetFunction(&{name}_func, {name}_mod, "{p["entry"]}")) != CUDA_SUCCESS) {{
    cuModuleUnload({name}_mod);
    {name}_mod = NULL;
    {name}_func = NULL;
    {name}_fail(result, "finding kernel '{p["entry"]}'");
    return;
  }}
{tuning}  {name}_load_result = CUDA_SUCCESS;
}}

/* Launches '{p["entry"]}' on `stream` over the grid ({p["grid_text"]}):
   {p["threads"]} threads per program, {shared} bytes of dynamic shared memory. */
CUresult {name}({launch_params}) {{
  CUresult result;
  unsigned int gX, gY, gZ;
  CUdeviceptr global_scratch = 0;
{constants}  if ({name}_func == NULL) {{
    load_{name}();
    if ({name}_func == NULL)
      return {name}_load_result;
  }}
  gX = (unsigned int)({p["grid"][0]});
  gY = (unsigned int)({p["grid"][1]});
  gZ = (unsigned int)({p["grid"][2]});
  if (gX == 0 || gY == 0 || gZ == 0)
    return CUDA_SUCCESS;
{checks}{conversions}{scratch_alloc}{args_decl}\
  result = cuLaunchKernel({name}_func, gX, gY, gZ, {p["threads"]}, 1, 1, {shared},
                          stream, args, NULL);
{scratch_free}  (void)global_scratch;
  return result;
}}
"""


def compile_kernel(args: CompileArgs) -> Tuple[str, List[Path]]:
    """Compiles as the command line does; returns the launch function's
    name and the files written (.h, .c)."""
    from tritium.compiler.compiler import ASTSource, compile as compile_source

    out_name = args.out_name or args.kernel_name
    if not re.fullmatch(r"[A-Za-z_]\w*", out_name or ""):
        raise AOTError(f"the output name '{out_name}' is not a C identifier (set --out-name)")
    out_path = Path(args.out_path) if args.out_path else Path(out_name)
    kernel = _load_kernel(args.path, args.kernel_name)
    grid = [g.strip() for g in args.grid.split(",")]
    if not 1 <= len(grid) <= 3 or not all(grid):
        raise AOTError(f"--grid takes 1 to 3 comma-separated C expressions, got '{args.grid}'")
    grid += ["1"] * (3 - len(grid))

    items = [s.strip(" ") for s in args.signature.split(",")]
    names = kernel.arg_names
    if len(items) != len(names):
        raise AOTError(f"the signature has {len(items)} items but {kernel.__name__} has {len(names)} parameters "
                       f"({', '.join(names)})")
    meta_sig = f"warps{args.num_warps}xstages{args.num_stages}"
    sig_hash = hash_signature(items + [meta_sig])

    hints: Dict[int, int] = {}
    constants: Dict[str, object] = {}
    types: Dict[str, str] = {}
    for i, (item, name) in enumerate(zip(items, names)):
        value = _number(item)
        if value is not None:
            constants[name] = value
            continue
        if kernel.params[i].is_constexpr:
            raise AOTError(f"'{name}' is a constexpr parameter: give its value in the signature, got '{item}'")
        ty, _, hint = item.partition(":")
        types[name] = ty.strip()
        if hint:
            h = _number(hint.strip())
            if h not in (1, 16):
                raise AOTError(f"only the hints 1 and 16 are valid, got '{item}' for '{name}'")
            hints[i] = h
    for i, h in hints.items():
        if h == 1:
            constants[names[i]] = 1
    signature = {name: ("constexpr" if name in constants else types[name]) for name in names}
    attrs = {(i,): [["tt.divisibility", 16]] for i, h in hints.items() if h == 16}

    # the launch function's parameters (runtime arguments) and the full
    # list the linker dispatches on (with the arguments specialized to 1)
    runtime = [(name, types[name]) for name in names if name not in constants]
    full = [(name, types[name]) for i, name in enumerate(names) if name not in constants or hints.get(i) == 1]
    for name, ty in full:
        if name in _C_KEYWORDS or name in _LAUNCH_LOCALS:
            raise AOTError(f"parameter '{name}' is a C keyword or a name the launch function uses itself: "
                           "rename it to compile the kernel ahead of time")
        c_type(ty)

    target = _parse_target(args.target)
    src = ASTSource(kernel, signature, constexprs=constants, attrs=attrs)
    compiled = compile_source(src, target=target, options={"num_warps": args.num_warps,
                                                         "num_stages": args.num_stages})
    metadata = compiled.metadata
    entry = metadata.get("kernel_name") or kernel.__name__

    scratch_size = int(metadata.get("global_scratch_size") or 0)
    scratch_align = max(1, int(metadata.get("global_scratch_align") or 1))
    expected = [8 if ty.startswith("*") else _PARAM_BYTES[ty] for _, ty in runtime] + ([8] if scratch_size else [])
    ptx = compiled.asm.get("ptx")
    if ptx is not None:
        found = entry_param_bytes(ptx, entry)
        if found != expected:
            raise AOTError(f"the kernel '{entry}' takes parameters of {found} bytes, but the launch would pass "
                           f"{expected} (runtime arguments {[n for n, _ in runtime]}"
                           f"{' and the global scratch address' if scratch_size else ''})")

    arg_pointers, conversions, checks = [], [], []
    needs_f16 = needs_bf16 = False
    for name, ty in runtime:
        if ty in ("fp16", "bf16"):
            helper = "tt_f32_to_f16" if ty == "fp16" else "tt_f32_to_bf16"
            needs_f16 |= ty == "fp16"
            needs_bf16 |= ty == "bf16"
            conversions.append(f"uint16_t tt_{name}_bits = {helper}({name});")
            arg_pointers.append(f"&tt_{name}_bits")
        else:
            arg_pointers.append(f"&{name}")
    if scratch_size:
        arg_pointers.append("&global_scratch")
    nonnegative = {int(a) for a in metadata.get("nonnegative_args") or ()}
    for k, (name, ty) in enumerate(runtime):
        if k in nonnegative and ty[:1] in "iu" and ty[1:].isdigit():
            bits = int(ty[1:])
            why = "a block pointer moved by TMA takes it as a dimension or a stride"
            if ty[0] == "i":
                checks.append((f"{name} < 0", why))
            else:
                checks.append((f"(uint64_t){name} >= {1 << (bits - 1)}ULL", why))
    multiples = {int(a["arg"]): a for a in metadata.get("multiple_at_launch_args") or ()}
    for k, (name, ty) in enumerate(runtime):
        if k in multiples and ty[:1] in "iu" and ty[1:].isdigit():
            multiple = int(multiples[k]["multiple_of"])
            why = str(multiples[k]["why"]).replace("*/", "* /")
            checks.append((f"{name} % {multiple} != 0", why))

    grid_constants = []
    runtime_names = {n for n, _ in runtime}
    for name, value in constants.items():
        number = _c_number(value)
        if number and name not in runtime_names and name not in _C_KEYWORDS and name not in _LAUNCH_LOCALS:
            grid_constants.append((name, number[0], number[1]))

    image = compiled.asm.get("cubin")
    image_kind = "cubin"
    if image is None:
        image, image_kind = compiled.asm["ptx"].encode() + b"\0", "ptx"
    const_sig = "x".join(str(v) for v in constants.values())
    doc = [f"{k}={v}" for k, v in constants.items()] + [f"num_warps={args.num_warps}",
                                                         f"num_stages={args.num_stages}"]
    suffix = "".join(f"{i}c" if hints[i] == 1 else f"{i}d" for i in sorted(hints))
    func_name = f"{out_name}_{sig_hash}_{suffix}"
    threads = int(metadata.get("total_num_warps") or metadata["num_warps"]) * 32
    params = {
        "name": func_name, "entry": entry, "target": str(target),
        "c_params": [f"{c_type(ty)} {name}" for name, ty in runtime],
        "full_c_params": [f"{c_type(ty)} {name}" for name, ty in full],
        "algo_info": f"{const_sig}_{meta_sig}",
        "docstring": "\n".join(f" * {line}" for line in [f"signature: {args.signature}"] + doc),
        "image": image, "image_kind": image_kind, "shared": int(metadata.get("shared") or 0),
        "threads": threads,
        "grid": grid, "grid_text": ", ".join(grid), "grid_constants": grid_constants,
        "arg_pointers": arg_pointers, "conversions": conversions, "checks": checks,
        "needs_f16": needs_f16, "needs_bf16": needs_bf16,
        "scratch_size": scratch_size, "scratch_align": scratch_align,
    }
    written = []
    out_path.parent.mkdir(parents=True, exist_ok=True)
    for ext, text in ((".h", _header_text(params)), (".c", _source_text(params))):
        file = out_path.with_suffix(f".{sig_hash}_{suffix}{ext}")
        file.write_text(text)
        written.append(file)
    return func_name, written


DESCRIPTION = (__doc__ or "").partition("\n\n")[2]


def main(argv: Optional[List[str]] = None) -> None:
    parser = ArgumentParser(description="Triton ahead-of-time compiler (Tritium).\n\n" + DESCRIPTION,
                            formatter_class=RawDescriptionHelpFormatter)
    parser.add_argument("path", help="Python file that defines the kernel (it is executed)")
    parser.add_argument("--kernel-name", "-n", type=str, default="", required=True, help="name of the kernel")
    parser.add_argument("--target", "-t", type=str, default=None,
                        help="<backend>:<arch>:<warp size>, e.g. cuda:90:32 (default: the current GPU's)")
    parser.add_argument("--num-warps", "-w", type=int, default=1, help="warps per program")
    parser.add_argument("--num-stages", "-ns", type=int, default=3, help="software pipelining stages")
    parser.add_argument("--out-name", "-on", type=str, default=None,
                        help="name of the launch function before its suffix (default: the kernel's)")
    parser.add_argument("--out-path", "-o", type=Path, default=None,
                        help="output path without extension (default: the out name)")
    parser.add_argument("--signature", "-s", type=str, required=True, help="the kernel's signature")
    parser.add_argument("--grid", "-g", type=str, required=True, help="launch grid: three C expressions")
    args = CompileArgs(**vars(parser.parse_args(argv)))
    from tritium.errors import TritiumError
    try:
        compile_kernel(args)
    except (AOTError, TritiumError) as e:
        sys.exit(f"error: {e}")


if __name__ == "__main__":
    main()
