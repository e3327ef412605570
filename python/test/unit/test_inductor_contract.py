"""The `triton` surface PyTorch's Inductor (torch 2.11) uses, answered by
Tritium through scripts/triton_alias, and kernels written in the shape
Inductor generates, compiled for cuda:90 the way Inductor compiles them
(ASTSource with a `triton_meta`-style signature, constants and attrs keyed
by 1-tuples of parameter indices), and run on the CPU target against numpy.
No GPU and no torch are needed."""
import copy
import os
import pickle
import subprocess
import sys

import pytest

import tritium as triton
import tritium.language as tl
from tritium.compiler.compiler import ASTSource, GPUTarget, make_backend
from tritium.language.extra import libdevice

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
TARGET = GPUTarget("cuda", 90, 32)

# What Inductor imports and reads, in the order a first run reaches it.
_SURFACE = r'''
import inspect, pickle, sys
import triton
assert triton.__name__ == "tritium", triton.__name__
import triton.language as tl
from triton import Config
from triton.compiler import CompiledKernel
from triton.runtime.autotuner import OutOfResources, PTXASError
from triton.runtime.jit import JITFunction, KernelInterface
from triton.compiler.compiler import ASTSource, CompiledKernel as CK2, make_backend
from triton.backends.compiler import GPUTarget
from triton.language.extra import libdevice
assert tl.extra.libdevice is libdevice
from triton.language.standard import _log2
from triton import knobs
from triton.runtime.cache import triton_key, get_cache_manager, default_cache_dir
from triton.compiler.compiler import triton_key as triton_key2
assert isinstance(triton_key(), str) and triton_key() == triton_key2()
from triton.runtime.driver import driver
import triton.backends
assert "nvidia" in triton.backends.backends and "cpu" not in triton.backends.backends
nv = triton.backends.backends["nvidia"]
assert isinstance(driver.active, nv.driver) and isinstance(triton.runtime.driver.active, nv.driver)
assert callable(nv.driver.is_active) and callable(triton.runtime.driver.set_active)
from triton.backends import BaseBackend  # (mutation analysis of user kernels)
from triton.backends.driver import DriverBase
assert issubclass(nv.compiler, BaseBackend) and issubclass(nv.driver, DriverBase)
triton.runtime.driver.set_active(nv.driver())
assert isinstance(driver.active, nv.driver)
backend = make_backend(GPUTarget("cuda", 90, 32))
assert isinstance(backend.hash(), str) and "90" in backend.hash()
opts = backend.parse_options({"num_warps": 8, "num_stages": 2, "debug": True, "sanitize_overflow": False})
assert (opts.num_warps, opts.num_stages, opts.debug, opts.sanitize_overflow) == (8, 2, True, False)
assert opts.num_ctas == 1 and opts.cluster_dims == (1, 1, 1) and isinstance(opts.hash(), str)
assert tl.core._unwrap_if_constexpr(tl.constexpr(3)) == 3
assert tl.core.get_int_dtype(32, True) == tl.int32
assert callable(tl.math.exp) and callable(libdevice.tanh)
assert knobs.runtime.launch_enter_hook is not None and not knobs.runtime.launch_enter_hook
assert "num_warps" in inspect.signature(Config.__init__).parameters
try:
    from triton.runtime.errors import IntelGPUError  # guarded by Inductor: absence is an ImportError
except ImportError:
    pass
print("OK")
'''


def test_surface_through_alias():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(REPO, "scripts", "triton_alias"),
                                                       os.path.join(REPO, "python")]))
    result = subprocess.run([sys.executable, "-c", _SURFACE], env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("OK")


# ---- kernels in the shape Inductor generates ----

@triton.jit
def inductor_pointwise(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    x1 = xindex % 64
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.load(in_ptr1 + (x1), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp3 = tl.full([1], 0, tl.int32)
    tmp4 = triton_helpers_maximum(tmp3, tmp2)
    tl.store(out_ptr0 + (x0), tmp4, xmask)


@triton.jit
def triton_helpers_maximum(a, b):
    mask = a > b
    mask |= a != a
    return tl.where(mask, a, b)


@triton.jit
def inductor_persistent_reduction(in_out_ptr0, in_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr):
    R0_BLOCK: tl.constexpr = 128
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_mask = r0_index < r0_numel
    roffset = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_index + 128 * x0), r0_mask & xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(r0_mask & xmask, tmp1, float("-inf"))
    tmp4 = tl.max(tmp3, 1)[:, None]
    tmp5 = tmp0 - tmp4
    tmp6 = libdevice.exp(tmp5)
    tmp8 = tl.where(r0_mask & xmask, tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK]), 0)
    tmp9 = tl.sum(tmp8, 1)[:, None]
    tmp10 = libdevice.log(tmp9) + tmp4
    tl.debug_barrier()
    tl.store(in_out_ptr0 + (x0), tmp10, xmask)


@triton.jit
def welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    delta = mean_2 - mean_1
    new_weight = weight_1 + weight_2
    w2_over_w = tl.where(new_weight == 0.0, 0.0, weight_2 / new_weight)
    return (mean_1 + delta * w2_over_w, m2_1 + m2_2 + delta * delta * weight_1 * w2_over_w, new_weight)


@triton.jit
def inductor_looped_welford(in_ptr0, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK: tl.constexpr,
                            R0_BLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    x0 = xindex
    tmp2_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp2_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp2_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        tmp0 = tl.load(in_ptr0 + (r0_index + r0_numel * x0), r0_mask & xmask, eviction_policy='evict_first',
                       other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp2_mean_next, tmp2_m2_next, tmp2_weight_next = welford_combine(
            tmp2_mean, tmp2_m2, tmp2_weight, tmp1, tl.zeros_like(tmp1), tl.full(tmp1.shape, 1.0, tl.float32))
        tmp2_mean = tl.where(r0_mask & xmask, tmp2_mean_next, tmp2_mean)
        tmp2_m2 = tl.where(r0_mask & xmask, tmp2_m2_next, tmp2_m2)
        tmp2_weight = tl.where(r0_mask & xmask, tmp2_weight_next, tmp2_weight)
    tmp3, tmp4, tmp5 = tl.reduce((tmp2_mean, tmp2_m2, tmp2_weight), 1, welford_combine)
    tl.store(out_ptr0 + (x0), tmp3[:, None], xmask)
    tl.store(out_ptr1 + (x0), libdevice.rsqrt(tmp4[:, None] / r0_numel + 1e-05), xmask)


@triton.jit
def inductor_indirect_assert(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    tmp0 = tl.load(in_ptr0 + (xindex), xmask)
    tmp1 = tl.full([XBLOCK], 512, tl.int32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp0 < 0
    tmp4 = tl.where(tmp3, tmp2, tmp0)
    tl.device_assert(((0 <= tmp4) & (tmp4 < 512)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 512")
    tmp6 = tl.load(in_ptr1 + (tmp4), xmask)
    tmp7 = libdevice.tanh(tmp6) * libdevice.erf(tmp6) + tl.math.sqrt(tl.abs(tmp6))
    tl.store(out_ptr0 + (xindex), tmp7, xmask)


def _attrs(*indices):
    return {(i,): [["tt.divisibility", 16]] for i in indices}


CASES = {
    "pointwise": (inductor_pointwise,
                  {"in_ptr0": "*fp32", "in_ptr1": "*fp32", "out_ptr0": "*fp32", "xnumel": "i32", "XBLOCK": "constexpr"},
                  {"XBLOCK": 1024}, _attrs(0, 1, 2, 3), 4, False),
    "persistent_reduction": (inductor_persistent_reduction,
                             {"in_out_ptr0": "*fp32", "in_ptr0": "*fp32", "xnumel": "i32", "r0_numel": "i32",
                              "XBLOCK": "constexpr"},
                             {"XBLOCK": 8}, _attrs(0, 1, 2, 3), 8, False),
    "looped_welford": (inductor_looped_welford,
                       {"in_ptr0": "*fp32", "out_ptr0": "*fp32", "out_ptr1": "*fp32", "xnumel": "i32",
                        "r0_numel": "i32", "XBLOCK": "constexpr", "R0_BLOCK": "constexpr"},
                       {"XBLOCK": 1, "R0_BLOCK": 2048}, _attrs(0, 1, 2, 4), 16, False),
    "indirect_assert": (inductor_indirect_assert,
                        {"in_ptr0": "*i64", "in_ptr1": "*fp32", "out_ptr0": "*fp32", "xnumel": "i32",
                         "XBLOCK": "constexpr"},
                        {"XBLOCK": 256}, _attrs(0, 1, 2, 3), 4, True),
}


def _compile(case):
    fn, signature, constants, attrs, num_warps, debug = CASES[case]
    options = {"num_warps": num_warps, "num_stages": 1, "debug": debug, "sanitize_overflow": False}
    return triton.compile(ASTSource(fn, signature, dict(constants), attrs), target=TARGET, options=options)


@pytest.mark.parametrize("case", sorted(CASES))
def test_inductor_shaped_kernel_compiles(case):
    fn, signature, constants, _, num_warps, debug = CASES[case]
    kernel = _compile(case)
    assert isinstance(kernel.asm["cubin"], bytes) and kernel.asm["ptx"]
    assert kernel.src.fn is fn and kernel.src.signature == signature
    assert kernel.src.constants == {(fn.arg_names.index(k),): v for k, v in constants.items()}
    md = kernel.metadata
    assert md.num_warps == num_warps and md.name == fn.__name__ and md.num_ctas == 1
    assert isinstance(md.shared, int) and kernel.shared == md.shared
    assert kernel.num_ctas == 1 and kernel.cluster_dims == (1, 1, 1)
    assert kernel.packed_metadata == (num_warps, 1, md.shared, 1, 1, 1)
    assert isinstance(kernel.hash, str) and kernel.n_spills >= 0 and kernel.n_regs >= 0
    assert callable(kernel.run) and kernel.module is None
    # no launch_enter_hook: Inductor burns None in as the launch metadata
    assert kernel.launch_metadata((1, 1, 1), 0, *([None] * len(fn.arg_names))) is None
    if debug:
        assert "__assertfail" in kernel.asm["ptx"]
    # the compile is cached: a second compile gives the same hash and source
    again = _compile(case)
    assert again.hash == kernel.hash and again.src.fn is fn


def test_run_signature_and_unpickled_kernel_fields():
    """Inductor unpickles a CompiledKernel by updating its __dict__ with
    None for run, function and module; the properties still answer."""
    kernel = _compile("pointwise")
    state = dict(kernel.__dict__, run=None, function=None, module=None, packed_metadata=kernel.packed_metadata)
    clone = triton.compiler.CompiledKernel.__new__(triton.compiler.CompiledKernel)
    clone.__dict__.update(state)
    assert callable(clone.run) and clone.module is None and clone.packed_metadata == kernel.packed_metadata
    import inspect
    params = list(inspect.signature(kernel.run).parameters)
    assert params[:9] == ["grid_x", "grid_y", "grid_z", "stream", "function", "packed_metadata",
                          "launch_metadata", "launch_enter_hook", "launch_exit_hook"]


def test_kernel_survives_inductors_worker_round_trip():
    """Inductor's TritonCompileResult pickles a compiled kernel as its
    __dict__ with the metadata as a dict, and unpickles it by writing a
    named tuple made from that dict into a new kernel's __dict__; the
    kernel then still reads its metadata as a mapping and as attributes,
    and launches from it."""
    from collections import namedtuple
    kernel = _compile("pointwise")
    metadata = kernel.metadata
    as_dict = metadata._asdict() if hasattr(metadata, "_asdict") else metadata
    state = {k: v for k, v in kernel.__dict__.items() if k != "src"}  # (the test's function pickles by name only)
    state = pickle.loads(pickle.dumps(dict(state, metadata=as_dict, packed_metadata=kernel.packed_metadata,
                                           module=None, function=None, run=None)))
    clone = triton.compiler.CompiledKernel.__new__(triton.compiler.CompiledKernel)
    fields = tuple(state["metadata"].keys())
    clone.__dict__.update(dict(state, metadata=namedtuple("KernelMetadata", sorted(fields))(**state["metadata"])))
    assert clone.metadata.get("shared") == kernel.shared == clone.metadata.shared == clone.shared
    assert clone.num_warps == kernel.num_warps and clone.hash == kernel.hash
    assert clone.packed_metadata == kernel.packed_metadata and callable(clone.run)
    # a named tuple set through the attribute is kept as the kernel's metadata
    clone.metadata = namedtuple("KernelMetadata", sorted(fields))(**state["metadata"])
    assert clone.metadata["num_warps"] == kernel.num_warps


def test_jit_function_attributes_and_pickling():
    fn = inductor_looped_welford
    assert fn.constexprs == [5, 6]
    assert fn.repr(fn) == "inductor_looped_welford"
    fn.cache_key  # noqa: B018 - records the globals read
    # Inductor's CachingAutotuner.prepare_for_pickle, on a copy (the Python
    # function itself pickles by reference only, as in Triton: its module
    # name is the JITFunction)
    clone = copy.copy(fn)
    assert clone.arg_names == fn.arg_names and clone.constexprs == fn.constexprs
    assert clone._dispatch is not None and not clone.compiled
    clone.fn = None
    clone.__globals__ = None
    clone.used_global_vals = None
    clone.repr = type(fn.repr)(clone.repr(clone))
    again = pickle.loads(pickle.dumps(clone))
    assert again.fn is None and again.__name__ == fn.__name__ and again.repr(None) == "inductor_looped_welford"
    assert again.src == fn.src and again.constexprs == [5, 6]
    # an ASTSource of an unpickled function still names its constants
    src = ASTSource(clone, CASES["looped_welford"][1], {"XBLOCK": 1, "R0_BLOCK": 2048})
    assert pickle.loads(pickle.dumps(src)).constants == {(5,): 1, (6,): 2048}


def test_make_backend_and_options():
    backend = make_backend(TARGET)
    assert backend.hash() == make_backend("cuda:90").hash() != make_backend("cuda:80").hash()
    opts = backend.parse_options({"num_warps": 2, "unknown_option": 1, "maxnreg": None})
    assert opts.num_warps == 2 and opts.maxnreg is None and opts.arch == "sm90"
    assert opts.max_num_imprecise_acc_default == 2 ** 30 and "fp8e4nv" in opts.supported_fp8_dtypes
    with pytest.raises(Exception):
        make_backend(GPUTarget("hip", 90, 64))


def test_cache_manager_paths(tmp_path):
    from tritium.runtime import cache
    # (knobs.cache.scope() restores the knob as unset: a monkeypatched
    # attribute would stay set to the old value, hiding the environment from
    # the tests after this one)
    with triton.knobs.cache.scope():
        triton.knobs.cache.dir = str(tmp_path)
        manager = cache.get_cache_manager("abc")
        path = manager.put(b"data", "k.bin")
        assert path == os.path.join(str(tmp_path), "abc", "k.bin") and manager.get_file("k.bin") == path
        manager.put_group("k.json", {"k.bin": path})
        assert manager.get_group("k.json") == {"k.bin": path}


# max-autotune's mm template as Inductor writes it out (bench/kernels/inductor_mm.py, the
# source the benches time)
sys.path.insert(0, os.path.join(REPO, "bench"))
from kernel_sources import load_kernels  # noqa: E402

inductor_mm_template = load_kernels("inductor_mm.py", triton, tl, "contract").inductor_mm


def _mm_template_constants(M, N, K, allow_tf32, block):
    return {"M": M, "N": N, "K": K, "stride_am": K, "stride_ak": 1, "stride_bk": N, "stride_bn": 1,
            "ALLOW_TF32": allow_tf32, "ACC_TYPE": tl.float32, "BLOCK_M": block[0], "BLOCK_N": block[1],
            "BLOCK_K": block[2], "GROUP_M": 8}


@pytest.mark.parametrize("block,num_warps,num_stages", [((32, 64, 32), 8, 5), ((64, 128, 32), 4, 3),
                                                         ((64, 64, 16), 4, 2)])
def test_inductor_mm_template_fma_streams_both_operands(block, num_warps, num_stages):
    # fp32 inputs without TF32: the dot runs on FMAs, both operands staged in
    # shared tiles, and both stream through rings of cp.async copies: no
    # load of A or B is left in the K loop.
    signature = {"A": "*fp32", "B": "*fp32", "C": "*fp32", **{k: "constexpr" for k in (
        "M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn", "ALLOW_TF32", "ACC_TYPE", "BLOCK_M",
        "BLOCK_N", "BLOCK_K", "GROUP_M")}}
    src = ASTSource(inductor_mm_template, signature, _mm_template_constants(2048, 2048, 2048, False, block),
                    _attrs(0, 1, 2))
    kernel = triton.compile(src, target=TARGET, options={"num_warps": num_warps, "num_stages": num_stages})
    ttgir = kernel.asm["ttgir"]
    loop = ttgir[ttgir.index("scf.for"):]
    loop = loop[:loop.index("scf.yield")]
    assert "tt.load" not in loop, loop
    assert loop.count("ttg.async_copy_global_to_local") == 2
    assert "cp.async" in kernel.asm["ptx"]


# ---- the same kernels run on the CPU target, against numpy ----

np = pytest.importorskip("numpy")


def test_inductor_shaped_kernels_run_on_the_cpu():
    rng = np.random.default_rng(0)
    # pointwise: relu(x + bias broadcast over rows of 64)
    x = rng.standard_normal(1000).astype(np.float32)
    bias = rng.standard_normal(64).astype(np.float32)
    out = np.empty_like(x)
    inductor_pointwise[(triton.cdiv(1000, 256),)](x, bias, out, 1000, XBLOCK=256)
    np.testing.assert_allclose(out, np.maximum(x + np.resize(bias, 1000), 0), rtol=1e-6)
    # persistent reduction: logsumexp over rows of 100 (in a stride of 128)
    rows = rng.standard_normal((13, 128)).astype(np.float32)
    lse = np.empty(13, np.float32)
    inductor_persistent_reduction[(triton.cdiv(13, 8),)](lse, rows, 13, 100, XBLOCK=8)
    r = rows[:, :100].astype(np.float64)
    np.testing.assert_allclose(lse, np.log(np.exp(r - r.max(1, keepdims=True)).sum(1)) + r.max(1), rtol=1e-5)
    # looped welford: mean and 1/sqrt(var + eps) of rows of 3000, in blocks of 1024
    data = rng.standard_normal((3, 3000)).astype(np.float32) * 2 + 1
    mean, rstd = np.empty(3, np.float32), np.empty(3, np.float32)
    inductor_looped_welford[(3,)](data, mean, rstd, 3, 3000, XBLOCK=1, R0_BLOCK=1024)
    d = data.astype(np.float64)
    np.testing.assert_allclose(mean, d.mean(1), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(rstd, 1 / np.sqrt(d.var(1) + 1e-5), rtol=1e-4)
    # indirect load with Inductor's bounds assert (debug), negative indices wrapped
    index = rng.integers(-512, 512, 700).astype(np.int64)
    table = rng.standard_normal(512).astype(np.float32)
    got = np.empty(700, np.float32)
    inductor_indirect_assert[(triton.cdiv(700, 256),)](index, table, got, 700, XBLOCK=256, debug=True)
    t = table[index % 512].astype(np.float64)
    import math
    want = np.tanh(t) * np.array([math.erf(v) for v in t]) + np.sqrt(np.abs(t))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    # max-autotune's mm template, fp32 without TF32, sizes that leave partial
    # tiles in M and N
    a = rng.standard_normal((70, 48)).astype(np.float32)
    b = rng.standard_normal((48, 40)).astype(np.float32)
    c = np.full((70, 40), np.nan, np.float32)
    grid = (triton.cdiv(70, 32) * triton.cdiv(40, 32),)
    inductor_mm_template[grid](a, b, c, **_mm_template_constants(70, 40, 48, False, (32, 32, 16)))
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5, atol=1e-5)
