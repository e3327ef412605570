"""Tutorial 09's persistent matmul (bench/persistent_matmul_kernels.py,
matmul_tma_persistent, 128x256x64 tiles, 8 warps, M = N = K = SIZE) from
both compilers, launched by one ctypes launcher (cuLaunchKernel) with the
same tensor maps: the kernels' code told apart from everything around it
(launchers, tensor maps, timing).

  python bench/tools/persistent_cubin_ab.py SIZE TRITIUM_STAGES TRITON_STAGES [--source NAME] [--dump DIR] [--time]
      KERNEL ...

--source picks another kernel of persistent_matmul_kernels.py with the
same parameters (matmul_tma_persistent_ws, the tile loop marked
warp_specialize).

KERNEL is `tritium` or `triton` (that compiler's cubin of the source), or
PATH.cubin:tritium / PATH.cubin:triton: a cubin re-assembled from an edited
PTX dump (`ptxas -arch=sm_90a -lineinfo -o PATH.cubin PATH.ptx`, the .ptx
beside it), launched with that compiler's kernel parameters.

Both compilers first compile and run the kernel through their own JIT; the
tensor maps Triton's launcher encodes are compared byte for byte with
Tritium's (printed), and every ctypes launch uses Tritium's.  Each KERNEL's
result is checked against a float32 product (a variant that drops work is
reported, not refused).  Then:
  default   each KERNEL launched 3 more times, in order, e.g. for
            `ncu --launch-skip 3 --launch-count 1 -k regex:matmul` (the two
            JIT launches and the check come first);
  --time    ROUNDS (env, default 12) interleaved rounds, the order rotating,
            of do_bench (median, L2 flushed) over every KERNEL and both JIT
            launches; TFLOP/s of the median round and the ratio to Triton's
            JIT launch;
  --dump    writes DIR/{tritium,triton}_SOURCE_STAGES.{ptx,cubin,sass};
  --trace   for each KERNEL instrumented by clock_trace.py (its cubin has a
            trace_buf), TRACE_ROUNDS (env, default 2) rounds of TRACE_WARM
            (env, default 20) launches back to back, then the last one's
            records summarized (clock_trace.summarize: cycles per tile and
            where they go, kernel time and SM clock).
"""
import ctypes
import os
import re
import statistics
import subprocess
import sys
import tempfile

os.environ.setdefault("TRITIUM_CACHE_DIR", tempfile.mkdtemp(prefix="tritium-cache-"))
os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton-cache-"))
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, ".."))

import torch  # noqa: E402

import tritium  # noqa: E402
import tritium.language as ttl  # noqa: E402
import tritium.tools.tensor_descriptor as tritium_descriptor  # noqa: E402
from tritium.testing import do_bench  # noqa: E402
from kernel_sources import load_kernels  # noqa: E402
import clock_trace  # noqa: E402

import triton  # noqa: E402
import triton.backends.nvidia.driver as triton_driver  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.tools.tensor_descriptor import TensorDescriptor as TritonDescriptor  # noqa: E402

BM, BN, BK, WARPS = 128, 256, 64, 8
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9

args = sys.argv[1:]
dump = None
if "--dump" in args:
    i = args.index("--dump")
    dump = args[i + 1]
    del args[i:i + 2]
source = "matmul_tma_persistent"
if "--source" in args:
    i = args.index("--source")
    source = args[i + 1]
    del args[i:i + 2]
timing = "--time" in args
tracing = "--trace" in args
args = [a for a in args if a not in ("--time", "--trace")]
size, stages = int(args[0]), {"tritium": int(args[1]), "triton": int(args[2])}
kernels = args[3:]

num_sms = torch.cuda.get_device_properties(0).multi_processor_count
grid = min(num_sms, (size // BM) * (size // BN))
torch.manual_seed(0)
a = torch.randn(size, size, device="cuda", dtype=torch.float16)
b = torch.randn(size, size, device="cuda", dtype=torch.float16)  # N x K
c = torch.empty(size, size, device="cuda", dtype=torch.float16)
want = a.float() @ b.float().T

# The tensor maps Triton's launcher builds (the first element of each
# descriptor's argument list is its PyCUtensorMap).
triton_maps = []
_make_tensordesc_arg = triton_driver.make_tensordesc_arg


def _capturing_make_tensordesc_arg(*a_, **kw):
    out = _make_tensordesc_arg(*a_, **kw)
    triton_maps.append(out[0])
    return out


triton_driver.make_tensordesc_arg = _capturing_make_tensordesc_arg

compiled, jit_launches = {}, {}
for name, compiler, language, descriptor in (("triton", triton, tl, TritonDescriptor),
                                              ("tritium", tritium, ttl, tritium_descriptor.TensorDescriptor)):
    kernel = getattr(load_kernels("persistent_matmul_kernels.py", compiler, language, name), source)
    descs = (descriptor.from_tensor(a, [BM, BK]), descriptor.from_tensor(b, [BN, BK]),
             descriptor.from_tensor(c, [BM, BN]))

    def launch(kernel=kernel, descs=descs, name=name):
        return kernel[(grid,)](*descs, size, size, size, BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN, BLOCK_SIZE_K=BK,
                               GROUP_SIZE_M=8, NUM_SMS=num_sms, num_stages=stages[name], num_warps=WARPS)

    c.fill_(float("nan"))
    k = launch()
    torch.cuda.synchronize()
    md = k.metadata
    get = (lambda key: md[key]) if isinstance(md, dict) else (lambda key: getattr(md, key))
    compiled[name] = {"cubin": k.asm["cubin"], "ptx": k.asm["ptx"], "name": get("name"), "shared": get("shared")}
    jit_launches[f"jit {name}"] = launch
    print(f"{name} JIT: {source}, {stages[name]} stages, {get('shared')} bytes of shared memory, max |error| "
          f"{(c.float() - want).abs().max().item():.3g}")

tritium_maps = {key[0]: value for key, value in tritium_descriptor._MAPS.items()}  # by base address
maps = [tritium_maps[t.data_ptr()] for t in (a, b, c)]
for i, (obj, mine) in enumerate(zip(triton_maps[-3:], maps)):
    # PyCUtensorMapObject: the object header, then the map 128-byte aligned.
    print(f"tensor map {i}: Triton's is byte-identical to Tritium's: {ctypes.string_at(id(obj) + 128, 128) == mine}")
if dump:
    os.makedirs(dump, exist_ok=True)
    for name, k in compiled.items():
        stem = os.path.join(dump, f"{name}_{source}_{stages[name]}")
        with open(stem + ".cubin", "wb") as f:
            f.write(k["cubin"])
        with open(stem + ".ptx", "w") as f:
            f.write(k["ptx"])
        with open(stem + ".sass", "w") as f:
            f.write(subprocess.run(["cuobjdump", "-sass", stem + ".cubin"], capture_output=True, text=True).stdout)

cuda = ctypes.CDLL("libcuda.so.1")
cuda.cuLaunchKernel.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 7 + [ctypes.c_void_p] * 3
cuda.cuModuleGetGlobal_v2.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p]
cuda.cuMemcpyHtoD_v2.argtypes = [ctypes.c_uint64, ctypes.c_void_p, ctypes.c_size_t]


def check(result, what):
    if result:
        raise RuntimeError(f"{what}: CUDA error {result}")


def parameter_kinds(ptx, name):
    """'map' (a 128-byte tensor map), 'u32' or 'u64' per .entry parameter."""
    entry = re.search(r"\.entry\s+" + re.escape(name) + r"\s*\((.*?)\)", ptx, re.S).group(1)
    kinds = []
    for param in entry.split(","):
        if "[128]" in param:
            kinds.append("map")
        elif re.search(r"\.[ub]32", param):
            kinds.append("u32")
        elif re.search(r"\.[ub]64", param):
            kinds.append("u64")
        else:
            raise RuntimeError(f"unexpected parameter {param.strip()}")
    return kinds


def block_threads(ptx):
    """The kernel's thread count from its `.reqntid` / `.maxntid` (a
    warp-specialized kernel has more than 32 * WARPS: its producer warps)."""
    found = re.search(r"\.(?:req|max)ntid\s+(\d+)", ptx)
    return int(found.group(1)) if found else 32 * WARPS


def ctypes_launch(convention, cubin, ptx):
    """A launch function of `cubin` with `convention`'s ('tritium' or
    'triton') kernel parameters and Tritium's tensor maps."""
    k = compiled[convention]
    module, function = ctypes.c_void_p(), ctypes.c_void_p()
    check(cuda.cuModuleLoadData(ctypes.byref(module), ctypes.c_char_p(cubin)), "cuModuleLoadData")
    check(cuda.cuModuleGetFunction(ctypes.byref(function), module, k["name"].encode()), "cuModuleGetFunction")
    records = None
    if b"trace_buf" in cubin:  # instrumented by clock_trace.py: point its trace_buf at zeroed records
        address, size_ = ctypes.c_uint64(), ctypes.c_size_t()
        check(cuda.cuModuleGetGlobal_v2(ctypes.byref(address), ctypes.byref(size_), module, b"trace_buf"),
              "finding trace_buf")
        records = torch.zeros(grid, clock_trace.CAPACITY, dtype=torch.int64, device="cuda")
        pointer = ctypes.c_uint64(records.data_ptr())
        check(cuda.cuMemcpyHtoD_v2(address, ctypes.byref(pointer), 8), "setting trace_buf")
    cuda.cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 100)
    check(cuda.cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k["shared"]),
          "allowing the shared memory")
    values = []
    for tensor, tensor_map in zip((a, b, c), maps):
        values.append(("map", tensor_map))
        if convention == "tritium":  # Tritium passes the base pointer too
            values.append(("u64", tensor.data_ptr()))
        values += [("u32", tensor.shape[0]), ("u32", tensor.shape[1]), ("u64", tensor.stride(0)),
                   ("u64", tensor.stride(1))]
    values += [("u32", size)] * 3
    kinds = parameter_kinds(ptx, k["name"])
    values += [("u64", 0)] * (len(kinds) - len(values))  # Triton's global and profile scratch
    if [kind for kind, _ in values] != kinds:
        raise RuntimeError(f"{convention} parameters {kinds}, built {[kind for kind, _ in values]}")
    storage = [ctypes.create_string_buffer(v, 128) if kind == "map" else
               (ctypes.c_uint32 if kind == "u32" else ctypes.c_uint64)(v) for kind, v in values]
    pointers = (ctypes.c_void_p * len(storage))(*[ctypes.addressof(s) for s in storage])
    threads = block_threads(ptx)

    def launch():
        check(cuda.cuLaunchKernel(function, grid, 1, 1, threads, 1, 1, k["shared"],
                                  torch.cuda.current_stream().cuda_stream, pointers, None), "cuLaunchKernel")
    launch.storage = storage
    launch.records = records
    return launch


launches = {}
for spec in kernels:
    if spec in compiled:
        launches[spec] = ctypes_launch(spec, compiled[spec]["cubin"], compiled[spec]["ptx"])
    else:
        path, convention = spec.rsplit(":", 1)
        with open(path, "rb") as f:
            cubin = f.read()
        with open(path[:-len(".cubin")] + ".ptx") as f:
            ptx = f.read()
        launches[spec] = ctypes_launch(convention, cubin, ptx)
    c.fill_(float("nan"))
    launches[spec]()
    torch.cuda.synchronize()
    print(f"{spec}: max |error| {(c.float() - want).abs().max().item():.3g}")

if tracing:
    k_steps = size // BK
    tiles_per_program = -(-(size // BM) * (size // BN) // grid)
    if tiles_per_program * (2 * k_steps + 1) + 4 > clock_trace.CAPACITY:
        sys.exit(f"--trace: {tiles_per_program} tiles of {k_steps} K steps a program overflow "
                 f"{clock_trace.CAPACITY} records")
    traced = {key: launch for key, launch in launches.items() if launch.records is not None}
    for r in range(int(os.environ.get("TRACE_ROUNDS", "2"))):
        for key, launch in traced.items():
            for _ in range(int(os.environ.get("TRACE_WARM", "20"))):
                launch.records.zero_()
                launch()
            torch.cuda.synchronize()
            # the tensor cores' peak: 4096 fp16 flops a cycle per SM
            clock_trace.summarize(f"{size} round {r} {key}", launch.records.cpu().numpy(), k_steps,
                                  2 * BM * BN * BK // 4096)
elif timing:
    candidates = {**launches, **jit_launches}
    samples = {key: [] for key in candidates}
    keys = list(candidates)
    for r in range(int(os.environ.get("ROUNDS", "12"))):
        for key in keys[r % len(keys):] + keys[:r % len(keys)]:
            ms = do_bench(candidates[key], warmup=25, rep=200, return_mode="median")
            samples[key].append(2 * size ** 3 / ms / 1e9)
    base = statistics.median(samples["jit triton"])
    for key, v in samples.items():
        print(f"{size} {key:40} {statistics.median(v):7.1f} TFLOP/s  / Triton's JIT {statistics.median(v) / base:.3f}"
              f"  (rounds {min(v):.1f}..{max(v):.1f})")
else:
    for launch in launches.values():
        for _ in range(3):
            launch()
    torch.cuda.synchronize()
