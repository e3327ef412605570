"""Forms of Triton code as people write it, compiled without a GPU: dtypes
passed as constexprs, early returns, @jit functions defined in an
enclosing function, tl.debug_barrier, parameter annotations, negative
range() steps, tensors of one element, numbers used as tensors, the numel
limit, Triton's error wording, the import surface of `triton` 3.6
(version, knobs, tools, backends, errors, _internal_testing helpers) and the
autotuner's semantics (driven with a fake kernel, so no GPU is needed).
The same forms run on the GPU in python/test/gpu/test_everyday_forms.py."""
import importlib
import re
import time
from typing import Any, NamedTuple

import pytest

import tritium as triton
import tritium.language as tl
from conftest import compile_ttir


def compile_cuda(fn, signature, constexprs=None, **kwargs):
    return triton.compile(fn, signature=signature, constexprs=constexprs or {}, target="cuda:90", **kwargs)


# ---- values and names -------------------------------------------------------------------------

@triton.jit
def k_dtype_constexpr(x_ptr, BLOCK: tl.constexpr, ACC_DTYPE: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=ACC_DTYPE)
    acc += tl.load(x_ptr + tl.arange(0, BLOCK)).to(ACC_DTYPE)
    tl.store(x_ptr + tl.arange(0, BLOCK), acc.to(tl.float16))


@pytest.mark.parametrize("acc,ir", [(tl.float32, "f32"), (tl.float64, "f64")])
def test_a_dtype_passed_as_constexpr_stays_a_dtype(acc, ir):
    t = compile_ttir(k_dtype_constexpr, {"x_ptr": "*fp16"}, {"BLOCK": 64, "ACC_DTYPE": acc})
    assert re.search(rf"arith\.extf %\w+ : tensor<64xf16> to tensor<64x{ir}>", t)


@triton.jit
def k_optional_bias(x_ptr, bias_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    if bias_ptr is not None:
        x += tl.load(bias_ptr + tl.arange(0, BLOCK))
    tl.store(x_ptr + tl.arange(0, BLOCK), x)


def test_a_pointer_argument_is_not_none_and_none_is():
    # `ptr is not None` holds at compile time for a runtime argument (it is
    # never a compile-time None), as in Triton; a None argument skips the
    # branch.
    with_bias = compile_ttir(k_optional_bias, {"x_ptr": "*fp32", "bias_ptr": "*fp32"}, {"BLOCK": 64})
    without = compile_ttir(k_optional_bias, {"x_ptr": "*fp32", "bias_ptr": "constexpr"}, {"BLOCK": 64,
                                                                                        "bias_ptr": None})
    assert with_bias.count("tt.load") == 2 and "arith.addf" in with_bias
    assert without.count("tt.load") == 1 and "arith.addf" not in without


def make_closure_kernel():
    FACTOR = tl.constexpr(3)

    @triton.jit
    def combine(a, b):
        return a + b

    @triton.jit
    def scale(x):
        return x * FACTOR

    @triton.jit
    def kernel(x_ptr, BLOCK: tl.constexpr):
        x = scale(tl.load(x_ptr + tl.arange(0, BLOCK)))
        tl.store(x_ptr, tl.reduce(x, 0, combine))
        tl.store(x_ptr + tl.arange(0, BLOCK), tl.associative_scan(x, 0, combine))
    return kernel


def test_jit_functions_from_an_enclosing_function_resolve_through_the_closure():
    t = compile_ttir(make_closure_kernel(), {"x_ptr": "*fp32"}, {"BLOCK": 32})
    assert "tt.reduce" in t and "tt.scan" in t
    assert re.search(r"arith\.constant dense<3\.0+e\+00> : tensor<32xf32>", t)


def test_a_non_constexpr_closure_number_is_refused_as_a_global_is():
    # (in Triton's words for a closure variable: "n is not defined")
    n = 7

    @triton.jit
    def kernel(x_ptr):
        tl.store(x_ptr, n)
    with pytest.raises(triton.CompilationError, match=r"n is not defined in the @jit function: .*constexpr\(7\)"):
        compile_ttir(kernel, {"x_ptr": "*i32"})


GLOBAL_NUMBER = 3
ANNOTATED_GLOBAL_NUMBER: tl.constexpr = 5


def test_a_global_number_is_a_constant_where_annotated_constexpr_or_the_knob_allows_it(monkeypatch):
    @triton.jit
    def annotated(x_ptr):
        tl.store(x_ptr, ANNOTATED_GLOBAL_NUMBER)

    @triton.jit
    def plain(x_ptr):
        tl.store(x_ptr, GLOBAL_NUMBER)
    assert re.search(r"arith\.constant 5 : i32", compile_ttir(annotated, {"x_ptr": "*i32"}))
    with pytest.raises(triton.CompilationError, match=r"cannot use global variable 'GLOBAL_NUMBER'"):
        compile_ttir(plain, {"x_ptr": "*i32"})
    monkeypatch.setenv("TRITON_ALLOW_NON_CONSTEXPR_GLOBALS", "1")
    assert re.search(r"arith\.constant 3 : i32", compile_ttir(plain, {"x_ptr": "*i32"}))


@triton.jit
def k_numbers_as_tensors(out_ptr, BLOCK: tl.constexpr):
    acc = 0
    acc = acc.to(tl.int64)
    value = 1
    ones = tl.full([BLOCK], value=value, dtype=value.dtype)
    tl.store(out_ptr + tl.arange(0, BLOCK), ones + acc)


def test_numbers_used_as_tensors_become_scalar_tensors():
    t = compile_ttir(k_numbers_as_tensors, {"out_ptr": "*i64"}, {"BLOCK": 16})
    # full(1, dtype=int32) + int64(0), folded: a tensor of int64 ones
    assert re.search(r"arith\.constant dense<1> : tensor<16xi64>", t)


@triton.jit
def k_float_literal(out_ptr, VALUE: tl.constexpr):
    val = VALUE + 0.0  # a Python float, typed as a literal is
    tl.store(out_ptr.to(tl.pointer_type(val.dtype)), val)


@pytest.mark.parametrize("value, ir_type", [(1e50, "f64"), (-1e50, "f64"), (1e-40, "f64"), (1e10, "f32"),
                                            (1.0, "f32"), (0.0, "f32"), (float("inf"), "f32"),
                                            (float("nan"), "f32"), (3.0e38, "f32")])
def test_a_float_literal_is_float32_unless_float32_cannot_hold_it(value, ir_type):
    # Triton's rule (upstream test_constexpr): float64 past float32's range
    # or below its smallest normal number
    t = compile_ttir(k_float_literal, {"out_ptr": "*fp32"}, {"VALUE": value})
    assert re.search(r"arith\.constant .* : " + ir_type, t), t


@triton.jit
def k_float_overflowing_a_tensor(x_ptr, out_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(out_ptr + tl.arange(0, 16), x * 1e50 - 1e50)


def test_a_float_literal_past_a_tensors_range_rounds_to_infinity():
    # x * 1e50 - 1e50 in float32 (a Python float does not widen the tensor):
    # the constant is +inf, where it once failed to pack
    t = compile_ttir(k_float_overflowing_a_tensor, {"x_ptr": "*fp32", "out_ptr": "*fp32"})
    assert re.search(r"(%\w+) = arith\.constant dense<0x7F800000> : tensor<16xf32>", t), t
    assert re.search(r"arith\.mulf %\w+, %cst : tensor<16xf32>", t) and re.search(r"arith\.subf %\w+, %cst", t), t


@triton.jit
def k_number_indexed_as_tile(out_ptr, N, BN: tl.constexpr):
    rows = 0
    cols = tl.arange(0, BN)
    offs = rows[:, None] * N + cols[None, :]
    tl.store(out_ptr + offs, offs + rows[None])


def test_numbers_take_the_indexing_of_scalar_tensors():
    # found by reducing a generated kernel: Triton runs `rows = 0; rows[:, None]` ([1, 1])
    t = compile_ttir(k_number_indexed_as_tile, {"out_ptr": "*i32", "N": "i32"}, {"BN": 16})
    assert "tt.expand_dims %cst {axis = 0 : i32} : tensor<1xi32> -> tensor<1x1xi32>" in t
    assert "tt.store" in t and "tensor<1x16x!tt.ptr<i32>>" in t


# ---- early returns ------------------------------------------------------------------------------

@triton.jit
def pick(x, flag):
    if flag > 0:
        if flag > 10:
            return x * 3
        return x * 2
    return x + 1


@triton.jit
def k_returns(x_ptr, n, flag, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    if pid * BLOCK >= n:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, pick(tl.load(x_ptr + offs), flag))


def test_early_returns_become_scf_if_over_the_rest_of_the_function():
    t = compile_ttir(k_returns, {"x_ptr": "*fp32", "n": "i32", "flag": "i32"}, {"BLOCK": 64})
    # the early exit, then pick's three paths merged into one value
    assert t.count("scf.if") >= 3
    assert re.search(r"scf\.if %\w+ -> \(tensor<64xf32>\)", t)
    compile_cuda(k_returns, {"x_ptr": "*fp32", "n": "i32", "flag": "i32"}, {"BLOCK": 64})


@triton.jit
def k_return_in_loop(x_ptr, n):
    for i in range(n):
        if i > 3:
            return
        tl.store(x_ptr + i, 1.0)


@triton.jit
def returns_value_or_nothing(x, flag):
    if flag > 0:
        return x
    return


@triton.jit
def k_inconsistent_returns(x_ptr, flag):
    returns_value_or_nothing(tl.load(x_ptr), flag)


def test_returns_that_cannot_be_merged_are_errors_at_the_line():
    with pytest.raises(triton.CompilationError, match="return inside a loop is not supported"):
        compile_ttir(k_return_in_loop, {"x_ptr": "*fp32", "n": "i32"})
    with pytest.raises(triton.CompilationError, match="Inconsistent return types"):
        compile_ttir(k_inconsistent_returns, {"x_ptr": "*fp32", "flag": "i32"})


# ---- control flow and conditions ------------------------------------------------------------------

@triton.jit
def k_count_down(x_ptr, lo, STEP: tl.constexpr):
    for i in range(15, lo, STEP):
        tl.store(x_ptr + i, i)


def test_a_constant_negative_step_counts_down():
    t = compile_ttir(k_count_down, {"x_ptr": "*i32", "lo": "i32"}, {"STEP": -2})
    # a counter over [0, 15 - lo) by 2, the loop variable 15 - counter
    assert re.search(r"%\w+ = arith\.subi %c15_i32, %arg1 : i32", t)  # 15 - lo
    assert re.search(r"scf\.for %(\w+) = %c0_i32 to %\w+ step %c2_i32", t)
    with pytest.raises(triton.CompilationError, match="step must not be zero"):
        compile_ttir(k_count_down, {"x_ptr": "*i32", "lo": "i32"}, {"STEP": 0})


@triton.jit
def k_one_element(x_ptr, out_ptr):
    x = tl.load(x_ptr + tl.arange(0, 1))
    first = tl.full((1,), 5, dtype=tl.int32).item()
    if x:
        tl.store(out_ptr, first)


def test_one_element_tensors_read_as_scalars():
    t = compile_ttir(k_one_element, {"x_ptr": "*i32", "out_ptr": "*i32"})
    assert t.count("tt.reduce.return") == 2 and "scf.if" in t


@triton.jit
def k_split_to_scalars(x_ptr, out_ptr):
    first, second = tl.split(tl.load(x_ptr + tl.arange(0, 2)))
    tl.store(out_ptr, first * 10 + second)


def test_a_two_element_split_gives_two_scalars():
    # as Triton's test_split_to_scalar: split [1, 2], then read each half
    t = compile_ttir(k_split_to_scalars, {"x_ptr": "*fp32", "out_ptr": "*fp32"})
    assert "tt.split" in t and t.count("tt.reduce.return") == 2
    assert re.search(r"tt\.store %\w+, %\w+ : !tt\.ptr<f32>", t), t


@triton.jit
def k_barrier(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) + 1)
    tl.debug_barrier()
    tl.store(x_ptr + BLOCK + offs, tl.load(x_ptr + BLOCK - 1 - offs))


def test_debug_barrier_lowers_to_bar_sync():
    k = compile_cuda(k_barrier, {"x_ptr": "*fp32"}, {"BLOCK": 128})
    assert "gpu.barrier" in k.asm["ttir"]
    assert re.search(r"\bbar\.sync\s+0;", k.asm["ptx"])


# ---- annotations and names --------------------------------------------------------------------------

@triton.jit
def k_annotated(x_ptr: tl.const, out_ptr, v: tl.uint8, w: "tl.float16"):
    tl.store(out_ptr + v, tl.load(x_ptr) + w)


def test_annotations_fix_argument_types_and_ir_names_the_arguments():
    sig, _, _ = k_annotated.specialization([FakeTensor(0x1000), FakeTensor(0x2000), 3, 1.5])
    assert sig == {"x_ptr": "*kfp32", "out_ptr": "*fp32", "v": "u8", "w": "fp16"}
    # an annotated 1 is not specialized away
    assert k_annotated.specialization([FakeTensor(0x1000), FakeTensor(0x2000), 1, 1.0])[0]["v"] == "u8"
    # an annotated integer keeps its divisibility by 16, as in Triton (upstream test_cache::test_annotation)
    _, _, attrs = k_annotated.specialization([FakeTensor(0x1000), FakeTensor(0x2000), 32, 16.0])
    assert attrs.get("v") == [["tt.divisibility", 16]] and "w" not in attrs
    assert "v" not in k_annotated.specialization([FakeTensor(0x1000), FakeTensor(0x2000), 33, 16.0])[2]
    # an annotated 1 is a variant of its own (Triton keys it apart) that adds no attribute
    assert k_annotated.specialization([FakeTensor(0x1000), FakeTensor(0x2000), 1, 1.0])[2]["v"] == []
    t = compile_ttir(k_annotated, sig)
    # as in Triton's IR, the arguments are %arg0, %arg1, ... (v and w the third and fourth)
    assert "%arg2: i8" in t and "%arg3: f16" in t and "arith.extf %arg3" in t


@triton.jit
def k_store_to_const(x_ptr: tl.const):
    tl.store(x_ptr, 1.0)


def test_storing_through_a_const_pointer_is_an_error():
    with pytest.raises(triton.CompilationError, match="Cannot store to a constant pointer"):
        compile_ttir(k_store_to_const, {"x_ptr": "*kfp32"})


class FakeTensor:
    def __init__(self, ptr, dtype="torch.float32"):
        self.ptr, self.dtype = ptr, dtype

    def data_ptr(self):
        return self.ptr


# ---- limits and Triton's wording ---------------------------------------------------------------------------

@triton.jit
def k_huge(x_ptr, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1)


def test_a_tensor_over_the_numel_limit_fails_at_once():
    start = time.perf_counter()
    with pytest.raises(triton.CompilationError, match=r"numel \(4194304\) exceeds the maximum tensor numel"):
        compile_ttir(k_huge, {"x_ptr": "*i32"}, {"BLOCK": 1 << 22})
    assert time.perf_counter() - start < 5


@triton.jit
def k_ops(x_ptr, y_ptr, OP: tl.constexpr):
    x = tl.load(x_ptr)
    y = tl.load(y_ptr)
    if OP == "and":
        z = x & y
    else:
        z = x / y
    tl.store(x_ptr, z)


def test_operator_errors_use_tritons_wording():
    with pytest.raises(triton.CompilationError, match="invalid operands of type fp32 and int32"):
        compile_ttir(k_ops, {"x_ptr": "*fp32", "y_ptr": "*i32"}, {"OP": "and"})
    with pytest.raises(triton.CompilationError, match="because they have different signedness"):
        compile_ttir(k_ops, {"x_ptr": "*i32", "y_ptr": "*u32"}, {"OP": "div"})


@triton.jit
def k_shift(x_ptr, y_ptr):
    tl.store(x_ptr, tl.load(x_ptr) >> tl.load(y_ptr))


def test_right_shift_follows_the_left_operand_signedness():
    assert "arith.shrsi" in compile_ttir(k_shift, {"x_ptr": "*i8", "y_ptr": "*u8"})
    assert "arith.shrui" in compile_ttir(k_shift, {"x_ptr": "*u8", "y_ptr": "*i8"})


@triton.jit
def k_topk(x_ptr, z_ptr, N: tl.constexpr, K: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 4)[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(z_ptr + tl.arange(0, 4)[:, None] * K + tl.arange(0, K)[None, :], tl.topk(x, K))


@triton.jit
def k_topk_sum(x_ptr, z_ptr, N: tl.constexpr, K: tl.constexpr):
    tl.store(z_ptr, tl.sum(tl.topk(tl.load(x_ptr + tl.arange(0, N)), K), axis=0))


def test_topk_is_a_sort_then_a_max_over_rows():
    t = compile_ttir(k_topk, {"x_ptr": "*fp32", "z_ptr": "*fp32"}, {"N": 64, "K": 8})
    assert re.search(r"tt\.reshape %\w+ : tensor<4x64xf32> -> tensor<4x8x8xf32>", t)
    with pytest.raises(triton.CompilationError, match="topk needs k to be a power of two"):
        compile_ttir(k_topk_sum, {"x_ptr": "*fp32", "z_ptr": "*fp32"}, {"N": 64, "K": 6})


@triton.jit
def k_smid(out_ptr):
    tl.store(out_ptr + tl.program_id(0), tl.extra.cuda.smid())
    tl.store(out_ptr, tl.extra.cuda.globaltimer().to(tl.int32))


def test_special_registers_through_inline_asm_without_operands():
    ptx = compile_cuda(k_smid, {"out_ptr": "*i32"}).asm["ptx"]
    assert ptx.count("%smid") == 1 and "%globaltimer" in ptx


@triton.jit
def k_fma(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, x * x + 1.0)


def test_enable_fp_fusion_reaches_the_backend():
    assert "fma.rn.f32" in compile_cuda(k_fma, {"x_ptr": "*fp32"}).asm["ptx"]
    assert "fma.rn.f32" not in compile_cuda(k_fma, {"x_ptr": "*fp32"}, enable_fp_fusion=False).asm["ptx"]


# ---- the import surface -------------------------------------------------------------------------------------

def test_version_is_the_triton_api_version():
    assert triton.__version__ == "3.6.0" and triton.__version__ >= "3.0.0"
    assert triton.__tritium_version__ == "0.1.0"


@pytest.mark.parametrize("module", [
    "tritium.tools.tensor_descriptor", "tritium.language.extra.libdevice", "tritium.language.extra.cuda.libdevice",
    "tritium.knobs", "tritium.runtime.errors", "tritium.runtime.driver", "tritium.runtime.jit",
    "tritium.runtime.autotuner", "tritium.runtime._allocation", "tritium.backends", "tritium.backends.compiler",
    "tritium.compiler.errors", "tritium.testing"])
def test_triton_modules_import(module):
    importlib.import_module(module)


def test_names_triton_code_reaches_for():
    from tritium.language.extra.libdevice import fast_dividef  # noqa: F401
    from tritium.tools.tensor_descriptor import TensorDescriptor
    assert triton.TritonError is triton.TritiumError
    assert issubclass(triton.compiler.errors.CompilationError, triton.TritonError)
    for name in ("set_allocator", "reinterpret", "TensorWrapper", "constexpr_function", "AsyncCompileMode",
                 "must_use_result", "knobs", "testing"):
        assert hasattr(triton, name), name
    for name in ("float8e4b15", "pi32_t", "const", "constexpr_type", "str_to_ty", "topk", "item", "PropagateNan"):
        assert hasattr(tl, name), name
    assert tl.str_to_ty("float32", None) is tl.float32 and tl.float16.exponent_bias == 15
    with pytest.raises(triton.TritiumError, match="strides must be multiples of 16 bytes"):
        TensorDescriptor(FakeTensor(0), [4, 3], [3, 1], [4, 4])


def test_knobs_read_the_environment_unless_set(monkeypatch, tmp_path):
    from tritium import knobs
    from tritium.runtime import cache
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(tmp_path / "a"))
    assert knobs.cache.dir == str(tmp_path / "a") == cache.cache_dir()
    with knobs.cache.scope():
        knobs.cache.dir = str(tmp_path / "b")
        assert cache.cache_dir() == str(tmp_path / "b")
    assert knobs.cache.dir == str(tmp_path / "a")
    hook = knobs.runtime.launch_enter_hook
    fn = lambda *a: None  # noqa: E731
    hook.add(fn)
    assert hook and fn in hook.calls
    hook.remove(fn)
    assert not hook and knobs.runtime.copy().reset().jit_cache_hook is None


def test_jit_cache_hook_can_veto_a_compile(monkeypatch):
    from tritium import knobs
    seen = []

    def veto(**kwargs):
        seen.append(kwargs["fn"].name)
        return False
    monkeypatch.setattr(knobs.runtime, "jit_cache_hook", veto)
    monkeypatch.setattr("tritium.runtime.driver.current_device", lambda: 0)
    monkeypatch.setattr("tritium.runtime.driver.current_target", lambda: "cuda:90")
    assert k_fma.warmup(FakeTensor(0x1000), grid=(1,)) is None
    assert seen == ["k_fma"]


def test_the_class_wide_jit_hooks_of_older_tritons_are_called(monkeypatch):
    # `JITFunction.cache_hook = f` (Triton's upstream test_cache): once per
    # new specialization, before the compile; compiled_hook after it
    from tritium.runtime.jit import JITFunction
    calls = []
    monkeypatch.setattr(JITFunction, "cache_hook", lambda **kwargs: calls.append(("cache", kwargs["fn"].name)))
    monkeypatch.setattr(JITFunction, "compiled_hook", lambda **kwargs: calls.append(("compiled", kwargs["fn"].name)))
    monkeypatch.setattr("tritium.runtime.driver.current_device", lambda: 0)
    monkeypatch.setattr("tritium.runtime.driver.current_target", lambda: "cuda:90")
    monkeypatch.setattr(k_fma, "compiled", {})
    for _ in range(3):
        k_fma.warmup(FakeTensor(0x1000), grid=(1,))
    assert calls == [("cache", "k_fma"), ("compiled", "k_fma")]


def test_constexpr_function_runs_in_python():
    @triton.constexpr_function
    def double(x):
        return 2 * x

    @triton.jit
    def kernel(x_ptr, N: tl.constexpr):
        tl.store(x_ptr + tl.arange(0, double(N)), 1)
    assert "tensor<32xi32>" in compile_ttir(kernel, {"x_ptr": "*i32"}, {"N": 16})


# ---- the autotuner, with a fake kernel ------------------------------------------------------------------------

class FakeKernel:
    """Records runs: what the autotuner passes to the kernel it wraps."""
    arg_names = ["x", "n", "BLOCK"]
    __name__ = "fake_kernel"

    def __init__(self):
        self.runs = []

    def run(self, *args, grid, warmup, **kwargs):
        self.runs.append((args, grid, kwargs))


class FakeBuffer:
    def __init__(self):
        self.zeroed = 0

    def zero_(self):
        self.zeroed += 1


def test_autotune_passes_grid_and_options_and_resets_to_zero(monkeypatch, capsys):
    monkeypatch.setenv("TRITON_PRINT_AUTOTUNING", "1")
    configs = [triton.Config({"BLOCK": 64}, num_warps=2), triton.Config({"BLOCK": 128}, num_warps=4)]
    fake = FakeKernel()
    times = iter([[3.0], [1.0]])
    tuner = triton.Autotuner(fake, fake.arg_names, configs, key=["n"], reset_to_zero=["x"],
                             do_bench=lambda fn, quantiles: (fn(), next(times))[1])
    grid = lambda meta: (meta["BLOCK"],)  # noqa: E731
    buffer = FakeBuffer()
    tuner[grid](buffer, 1000)
    assert tuner.best_config is configs[1]
    # two benchmark runs and the real one, each with grid and the config's options
    assert [r[2]["BLOCK"] for r in fake.runs] == [64, 128, 128]
    assert all(r[1] is grid and r[2]["num_warps"] in (2, 4) for r in fake.runs)
    assert buffer.zeroed == 3  # before each benchmark run, and once before the real run
    assert "best config selected: BLOCK: 128" in capsys.readouterr().out
    tuner[grid](buffer, 1000)  # cached: no benchmark, no reset
    assert len(fake.runs) == 4 and buffer.zeroed == 3


def test_autotune_prune_messages_and_conflicts():
    fake = FakeKernel()
    configs = [triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})]
    tuner = triton.Autotuner(fake, fake.arg_names, configs, key=["n"],
                             prune_configs_by={"early_config_prune": lambda cs, nargs, **kw: []})
    with pytest.raises(triton.TritonError, match="No valid autotuner configs after pruning"):
        tuner[(1,)](None, 10)
    tuner = triton.Autotuner(fake, fake.arg_names, configs, key=["n"], do_bench=lambda fn, quantiles: [1.0])
    with pytest.raises(triton.TritiumError, match="Conflicting meta-parameters: BLOCK"):
        tuner[(1,)](None, 10, BLOCK=32)


def test_autotune_caches_its_choice_on_disk(monkeypatch, tmp_path):
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(tmp_path))
    configs = [triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})]
    times = iter([[2.0], [1.0]])
    first = triton.Autotuner(FakeKernel(), FakeKernel.arg_names, configs, key=["n"], cache_results=True,
                             do_bench=lambda fn, quantiles: next(times))
    first[(1,)](None, 10)
    second = triton.Autotuner(FakeKernel(), FakeKernel.arg_names, configs, key=["n"], cache_results=True,
                              do_bench=lambda fn, quantiles: pytest.fail("tuned again"))
    second[(1,)](None, 10)
    assert second.best_config is configs[1]


# ---- tuples ------------------------------------------------------------------------------------------------

@triton.jit
def _incremented(values):
    return tl.tuple([v + 1 for v in values])


@triton.jit
def _store_all(ptrs, values):
    for i in tl.static_range(len(values)):
        tl.store(ptrs[i], values[i])


@triton.jit
def k_tuples(ptrs, scale: tl.constexpr, values, flags):
    tl.static_assert(flags[1] is None)
    _store_all(ptrs, _incremented(values))
    tl.store(ptrs[0], values[0] * scale + flags[0])


def test_tuple_arguments_flatten_into_named_parameters():
    ptrs = (FakeTensor(0x1000), FakeTensor(0x2000))
    sig, constexprs, attrs = k_tuples.specialization([ptrs, 2, (3, 4), (5, None)])
    assert sig == {"ptrs": "(*fp32,*fp32)", "scale": "constexpr", "values": "(i32,i32)", "flags": "(i32,constexpr)"}
    assert repr(constexprs["flags"]) == "(<runtime>, None)"
    from tritium.compiler.compiler import ASTSource
    k = triton.compile(ASTSource(k_tuples, sig, constexprs, attrs), target="cuda:90")
    header = next(line for line in k.asm["ttir"].splitlines() if "tt.func public @k_tuples" in line)
    # each parameter's name is in its location, as in Triton's IR: %arg0: !tt.ptr<f32> loc("ptrs.0"(#loc))
    names = re.findall(r'%arg\d+: [^,]*? loc\("([\w.]+)"\(', header)
    assert names == ["ptrs.0", "ptrs.1", "values.0", "values.1", "flags.0"]
    assert k.runtime_params == names
    from tritium.runtime import tuple_args
    assert tuple_args.flatten_values(sig, [ptrs, 2, (3, 4), (5, None)]) == [*ptrs, 3, 4, 5]
    assert tuple_args.parse("(*fp32,(i32,constexpr),())") == ["*fp32", ["i32", "constexpr"], []]


@triton.jit
def _one_tuple(x):
    return tl.tuple([x + 1])


@triton.jit
def _empty_tuple(x):
    return ()


@triton.jit
def k_tuple_returns(x_ptr):
    t = _one_tuple(tl.load(x_ptr))
    e = _empty_tuple(t[0])
    tl.static_assert(len(t) == 1 and len(e) == 0)
    tl.static_assert(((3, 4) or (5, 6)) == (3, 4))
    tl.static_assert((0 and (1,)) == 0)
    tl.store(x_ptr, t[0])


def test_functions_returning_tuples_return_tuples_and_boolean_operators_give_operands():
    compile_ttir(k_tuple_returns, {"x_ptr": "*fp32"})


def test_a_one_in_a_tuple_is_specialized_like_a_plain_argument():
    sig, constexprs, _ = k_tuples.specialization([(FakeTensor(0), FakeTensor(16)), 2, (1, 7), (1, None)])
    assert sig["values"] == "(constexpr,i32)" and constexprs["values"][0] == 1


@triton.jit
def _bumped(values):
    return tl.tuple([v + 1 for v in values])  # (upstream test_tuple.py::test_index)


@triton.jit
def k_tuple_elements(x_ptr, y_ptr, n):
    pair = _bumped((tl.load(x_ptr), tl.load(y_ptr)))
    acc = (tl.zeros([16], tl.float32), tl.zeros([16], tl.float32), 3)
    for i in range(n):  # a tuple carried by a loop: its tensors are iteration arguments
        acc = (acc[0] + pair[0], acc[1] + pair[1], acc[2])
    if n > 5:  # and merged by a runtime `if`
        acc = (acc[1], acc[0], 3)
    tl.static_assert(acc[2] == 3)
    tl.store(x_ptr + tl.arange(0, 16), acc[0] + acc[1])


def test_tuples_are_carried_by_loops_and_merged_by_branches():
    t = compile_ttir(k_tuple_elements, {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32"})
    # (it was compiled as if the loop did nothing: the tuple was not carried)
    assert re.search(r"scf\.for .* iter_args\(%\w+ = %\w+, %\w+ = %\w+\) -> \(tensor<16xf32>, tensor<16xf32>\)", t)
    assert re.search(r"scf\.if .* -> \(tensor<16xf32>, tensor<16xf32>\)", t) or t.count("arith.select") >= 2


@triton.jit
def e_tuple_changes_length(x_ptr, n):
    acc = (tl.zeros([16], tl.float32), tl.zeros([16], tl.float32))
    for i in range(n):
        acc = (acc[0] + 1.0,)
    tl.store(x_ptr + tl.arange(0, 16), acc[0])


@triton.jit
def e_tuple_constant_becomes_runtime(x_ptr, n):
    acc = (tl.zeros([16], tl.float32), 0)
    for i in range(n):
        acc = (acc[0] + 1.0, i)
    tl.store(x_ptr + tl.arange(0, 16), acc[0])


@triton.jit
def e_constant_tuple_becomes_runtime(x_ptr, n):
    acc = (0, 0)
    for i in range(n):
        acc = (acc[0] + tl.arange(0, 16), acc[1])
    tl.store(x_ptr + tl.arange(0, 16), acc[0])


@triton.jit
def e_tensor_element_assigned(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    x[0] = 1.0
    tl.store(x_ptr + tl.arange(0, 16), x)


@triton.jit
def e_tuple_element_assigned(x_ptr):
    t = tl.tuple([5, 6, 7])  # (upstream test_tuple.py::test_modifying_tuples)
    t[0] = 0
    tl.store(x_ptr, t[0])


@triton.jit
def e_tuple_element_updated(x_ptr):
    t = (tl.load(x_ptr), tl.load(x_ptr + 1))
    t[1] += 1.0
    tl.store(x_ptr, t[1])


@pytest.mark.parametrize("kernel,message", [
    (e_tuple_changes_length, "is a tuple of 2 on one side but a tuple of 1 on the other"),
    (e_tuple_constant_becomes_runtime, r"element \[1\] is the constant 0 before the loop but a runtime value"),
    (e_constant_tuple_becomes_runtime, "holds only compile-time values before the loop but runtime values"),
    (e_tensor_element_assigned, "an element of a tensor cannot be assigned"),
    (e_tuple_element_assigned, "tuples are immutable in a @jit function"),
    (e_tuple_element_updated, "tuples are immutable in a @jit function"),
])
def test_bad_tuple_updates_point_at_the_line(kernel, message):
    sig = {"x_ptr": "*fp32", "n": "i32", "i": "i32"}
    import inspect
    params = inspect.signature(kernel.fn).parameters
    with pytest.raises(triton.CompilationError, match=message):
        compile_ttir(kernel, {k: v for k, v in sig.items() if k in params})


@triton.jit
def k_range_keywords(z_ptr, N: tl.constexpr, STEP: tl.constexpr):
    acc = 0
    for i in tl.static_range(0, N, step=STEP):
        acc += i
    tl.store(z_ptr, acc)
    total = 0
    for j in tl.range(0, N, step=STEP, num_stages=1):
        total += j
    tl.store(z_ptr + 1, total)


def test_range_steps_given_by_keyword_are_honoured():
    # sum(range(0, 100, 7)) = 735: the unrolled loop folds to it, the scf.for steps by 7
    t = compile_ttir(k_range_keywords, {"z_ptr": "*i32"}, {"N": 100, "STEP": 7})
    assert "arith.constant 735 : i32" in t and re.search(r"scf\.for .* step %c7_i32", t)


@triton.jit
def k_abs(x_ptr, z_ptr, SIZE: tl.constexpr):
    offs = tl.arange(0, SIZE)
    tl.store(z_ptr + offs, tl.abs(tl.load(x_ptr + offs)))


def test_abs_of_fp8_clears_the_sign_bit():
    t = compile_ttir(k_abs, {"x_ptr": "*fp8e5", "z_ptr": "*fp8e5"}, {"SIZE": 64})
    assert "tt.bitcast" in t and re.search(r"arith\.andi %\w+, %\w+ : tensor<64xi8>", t)
    compile_cuda(k_abs, {"x_ptr": "*fp8e4nv", "z_ptr": "*fp8e4nv"}, {"SIZE": 64})


def test_annotation_names_as_triton_writes_them():
    from tritium.runtime.jit import annotation_type
    assert [annotation_type(a) for a in ("tl.uint1", "tl.int64", "tl.float16", "const", tl.pointer_type(tl.int8))] \
        == ["u1", "i64", "fp16", "const", "*i8"]
    assert annotation_type("torch.Tensor") == "" and annotation_type(int) == ""


@triton.jit
def k_fp8_bitcast(x_ptr, y_ptr, DTYPE: tl.constexpr):
    bits = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(y_ptr + tl.arange(0, 16), bits.to(DTYPE, bitcast=True).to(tl.int8, bitcast=True))


@triton.jit
def k_to_fp8_toward_zero(x_ptr, y_ptr, FP8: tl.constexpr):
    offs = tl.arange(0, 128)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs).to(FP8, fp_downcast_rounding="rtz"))


def test_rounding_toward_zero_to_fp8_is_float8e5_only():
    # float8e5 is the high byte of a float16: rounded toward zero to f16, then truncated
    ptx = triton.compile(k_to_fp8_toward_zero, signature={"x_ptr": "*fp32", "y_ptr": "*fp8e5"},
                         constexprs={"FP8": tl.float8e5}, target="cuda:90").asm["ptx"]
    assert "cvt.rz.f16.f32" in ptx and "cvt.rn.satfinite" not in ptx
    with pytest.raises(triton.CompilationError,
                       match=r"test_triton_forms\.py:\d+:\d+: error: rounding toward zero to 8-bit floats "
                             r"exists for float8e5 \(f8E5M2\) only"):
        triton.compile(k_to_fp8_toward_zero, signature={"x_ptr": "*fp32", "y_ptr": "*fp8e4nv"},
                       constexprs={"FP8": tl.float8e4nv}, target="cuda:90")


def test_fp8_formats_of_other_targets_are_refused_as_triton_refuses_them():
    for name in ("float8e4b8", "float8e5b16"):
        with pytest.raises(triton.CompilationError, match="not supported in this architecture"):
            compile_ttir(k_fp8_bitcast, {"x_ptr": "*i8", "y_ptr": "*i8"}, {"DTYPE": getattr(tl, name)})
    # bitcasts of fp8e4b15 pass, with Triton's deprecation warning on sm_90, at the user's line
    with pytest.warns(UserWarning, match="fp8e4b15 is deprecated in this architecture") as record:
        compile_ttir(k_fp8_bitcast, {"x_ptr": "*i8", "y_ptr": "*i8"}, {"DTYPE": tl.float8e4b15})
    assert record[0].filename == __file__
    compile_ttir(k_fp8_bitcast, {"x_ptr": "*i8", "y_ptr": "*i8"}, {"DTYPE": tl.float8e4nv})


@triton.jit
def k_fill_fp8e4b15(y_ptr, VALUE: tl.constexpr):
    tl.store(y_ptr + tl.arange(0, 16), tl.full((16,), VALUE, tl.float8e4b15))


@pytest.mark.filterwarnings("ignore:fp8e4b15 is deprecated")
@pytest.mark.parametrize("value, bits", [(0.0, 0), (-0.0, -128), (1.5, 124), (-1.5, -4), (1.875, 127), (9.0, 127),
                                         (1.0625, 120), (1.1875, 122), (2.0 ** -17, 1), (2.0 ** -14, 8)])
def test_a_fp8e4b15_fill_is_its_bit_pattern(value, bits):
    # fp8e4b15 has no MLIR type (its tensors are i8): a constant is its encoding,
    # bias 15, 3 mantissa bits, rounded to nearest even, saturated, no inf/NaN
    t = compile_ttir(k_fill_fp8e4b15, {"y_ptr": "*fp8e4b15"}, {"VALUE": value})
    assert f"arith.constant dense<{bits}> : tensor<16xi8>" in t


def test_where_on_a_non_boolean_condition_warns_as_triton_does():
    @triton.jit
    def k(x_ptr):
        a = tl.full((64, ), 0, tl.uint32)
        tl.store(x_ptr + tl.arange(0, 64), tl.where(a, 1.0, 2.0))
    with pytest.warns(UserWarning, match=r"tl.where with a non-boolean condition \(uint32\)"):
        compile_ttir(k, {"x_ptr": "*fp32"})


@triton.jit
def k_sqrt(x_ptr):
    from_libdevice = tl.extra.cuda.libdevice.sqrt(tl.load(x_ptr))
    tl.store(x_ptr, from_libdevice)


def test_arch_override_and_reflect_ftz_options(monkeypatch):
    from tritium import knobs
    monkeypatch.setattr("tritium.runtime.driver.current_device", lambda: 0)
    monkeypatch.setattr("tritium.runtime.driver.current_target", lambda: "cuda:90")
    x = FakeTensor(0x1000)
    assert "cuda:80" in k_sqrt.warmup(x, grid=(1,), arch="sm80").asm["ttgir"]
    monkeypatch.setattr(knobs.runtime, "override_arch", "sm89")
    assert "cuda:89" in k_sqrt.warmup(x, grid=(1,)).asm["ttgir"]
    monkeypatch.setattr(knobs.runtime, "override_arch", None)
    assert "cuda:90" in k_sqrt.warmup(x, grid=(1,)).asm["ttgir"]
    assert ".ftz.f32" in k_sqrt.warmup(x, grid=(1,), enable_reflect_ftz=True).asm["ptx"]
    assert ".ftz.f32" not in k_sqrt.warmup(x, grid=(1,), enable_reflect_ftz=False).asm["ptx"]


def test_fresh_knobs_leave_no_environment_behind():
    import os
    from tritium import _internal_testing, knobs
    fresh, reset = _internal_testing._fresh_knobs_impl()
    assert "TRITON_OVERRIDE_ARCH" not in os.environ
    fresh().runtime.override_arch = "sm80"
    assert os.environ["TRITON_OVERRIDE_ARCH"] == "sm80"
    reset()
    assert "TRITON_OVERRIDE_ARCH" not in os.environ and knobs.runtime.override_arch is None


# ---- forms from Triton's test_core.py ---------------------------------------------------------

@triton.jit
def k_void_ternary(ret, x_true, x_false):
    pid = tl.program_id(0)
    tl.store(ret, tl.load(x_true)) if pid % 2 == 0 else tl.store(ret, tl.load(x_false))


def test_a_runtime_ternary_of_two_void_calls_is_an_if():
    t = compile_ttir(k_void_ternary, {"ret": "*fp32", "x_true": "*fp32", "x_false": "*fp32"})
    assert "scf.if" in t and t.count("tt.store") == 2 and "scf.yield" not in t.split("scf.if")[1].split("}")[0]


@triton.jit
def k_expand_dims_axes(dummy, AXES: tl.constexpr, SCALAR: tl.constexpr):
    x = tl.arange(0, 16)
    if SCALAR:
        x = tl.sum(x)
    tl.expand_dims(x, AXES)


@pytest.mark.parametrize("axes,scalar,message", [
    (-3, False, "invalid axis -3. Expected -2 <= axis < 2"),
    (2, False, "invalid axis 2. Expected -2 <= axis < 2"),
    (1, True, "invalid axis 1. Expected -1 <= axis < 1"),
    ((0, 0), False, "duplicate axes, normalized axes = [0, 0]"),
    ((0, -3), False, "duplicate axes, normalized axes = [0, 0]"),
])
def test_expand_dims_checks_its_axes(axes, scalar, message):
    with pytest.raises(triton.CompilationError) as info:
        compile_ttir(k_expand_dims_axes, {"dummy": "*fp32"}, {"AXES": axes, "SCALAR": scalar})
    assert message in str(info.value)


def test_expand_dims_takes_several_axes():
    @triton.jit
    def k(out):
        x = tl.expand_dims(tl.arange(0, 16), (0, -1))
        tl.static_assert(x.shape == [1, 16, 1])
        tl.store(out + tl.arange(0, 16)[None, :, None], x)
    compile_ttir(k, {"out": "*i32"})


# ---- named tuples ---------------------------------------------------------------------------------

class _View(NamedTuple):
    ptr: Any
    shape: tuple
    stride: tuple


class _Closure(NamedTuple):
    fn: Any
    captured: tuple


@triton.jit
def _view_of(shape, ptr, stride):
    return _View(shape=shape, ptr=ptr, stride=stride)  # a named tuple made in @jit code and returned


@triton.jit
def _scale(x, a):
    return x * tl.load(a)


@triton.jit
def k_named_tuples(closure, src, dst, BLOCK: tl.constexpr):
    tl.static_assert(isinstance(src.stride[1].type, tl.constexpr_type))  # a specialized 1 stays constexpr
    x_view = _view_of(src.shape, src.ptr, src.stride)
    offs = tl.arange(0, BLOCK)
    mask = (offs[:, None] < x_view.shape[0]) & (offs[None, :] < x_view.shape[1])
    x = tl.load(x_view.ptr + offs[:, None] * x_view.stride[0] + offs[None, :] * x_view.stride[1], mask=mask)
    y = closure.fn(x, *closure.captured)
    tl.store(dst.ptr + offs[:, None] * dst.stride[0] + offs[None, :] * dst.stride[1], y, mask=mask)


def test_named_tuples_keep_their_fields_through_arguments_calls_and_returns():
    from tritium.compiler.compiler import ASTSource
    args = [_Closure(_scale, (FakeTensor(0x100),)), _View(FakeTensor(0x1000), (30, 20), (20, 1)),
            _View(FakeTensor(0x2000), (30, 20), (20, 1)), 32]
    sig, constexprs, attrs = k_named_tuples.specialization(args)
    assert sig["src"] == "(*fp32,(i32,i32),(i32,constexpr))" and sig["closure"] == "(constexpr,(*fp32))"
    assert repr(constexprs["src"]).startswith("_View(ptr=<runtime>")
    ttir = triton.compile(ASTSource(k_named_tuples, sig, constexprs, attrs), target="cuda:90").asm["ttir"]
    assert ttir.count("tt.load") == 2 and "arith.mulf" in ttir and "tt.store" in ttir


def test_more_warps_than_a_block_can_hold_is_out_of_resources_as_in_triton():
    # an autotuner then skips the config (Triton's test_exceed_threads)
    @triton.jit
    def k(x):
        pass
    from tritium.errors import OutOfResources
    with pytest.raises(OutOfResources, match=r"out of resource: threads, Required: 4096, Hardware limit: 1024"):
        compile_cuda(k, {"x": "*fp32"}, num_warps=128)
    with pytest.raises(triton.TritonError, match="num_warps must be a power of 2"):
        compile_cuda(k, {"x": "*fp32"}, num_warps=3)
    with pytest.raises(AssertionError, match="must be a power of 2"):  # Triton asserts it
        compile_cuda(k, {"x": "*fp32"}, num_warps=3)
    with pytest.raises(triton.TritonError, match="num_stages must be a non-negative integer, got -1"):
        compile_cuda(k, {"x": "*fp32"}, num_stages=-1)


# ---- assignment expressions --------------------------------------------------------------------

@triton.jit
def k_walrus(x_ptr, n):
    x = (y := tl.load(x_ptr))
    if (z := x + y) > 0:
        z = z * 2
    i = 0
    while (i := i + 1) < n:
        tl.store(x_ptr + i, i)
    tl.store(x_ptr, z + i)


def test_an_assignment_expression_binds_its_name_and_is_its_value():
    t = compile_ttir(k_walrus, {"x_ptr": "*i32", "n": "i32"})
    # x and y are the one load; z = x + y feeds the condition and, doubled or not, the store
    load = re.search(r"(%\w+) = tt\.load %arg0", t).group(1)  # x_ptr
    z = re.search(rf"(%\w+) = arith\.addi {load}, {load} : i32", t).group(1)
    assert re.search(rf"arith\.cmpi sgt, {z}, %c0_i32", t)
    # a name the while condition binds is carried: the condition computes i + 1 from the
    # carried value and forwards it to the body and to the loop's result
    m = re.search(r"(%\w+) = scf\.while \((%\w+) = %c0_i32\) : \(i32\) -> i32 \{\s*"
                  r"(%\w+) = arith\.addi \2, %c1_i32 : i32\s*"
                  r"(%\w+) = arith\.cmpi slt, \3, %arg1 : i32\s*"
                  r"scf\.condition\(\4\) \3 : i32", t)
    assert m, t
    assert re.search(rf"arith\.addi %\w+, {m.group(1)} : i32", t)  # z + i after the loop


@triton.jit
def k_walrus_first_in_condition(p):
    i = 0
    while (x := tl.load(p + i)) > 0:
        tl.store(p + i, x + 1)
        i += 1
    tl.store(p, x)


def test_a_name_first_bound_in_a_while_condition_reaches_the_body_and_the_end():
    # the condition's value of x goes to the body and out of the loop (its last value)
    t = compile_ttir(k_walrus_first_in_condition, {"p": "*i32"})
    m = re.search(r"(%\w+):2 = scf\.while \(%\w+ = %c0_i32\) : \(i32\) -> \(i32, i32\) \{.*?"
                  r"(%\w+) = tt\.load .*?scf\.condition\(%\w+\) %\w+, \2 : i32, i32", t, re.S)
    assert m, t
    assert re.search(rf"tt\.store %arg0, {m.group(1)}#1 : !tt\.ptr<i32>", t)


def test_assignment_expressions_in_comprehensions_and_runtime_ternaries():
    @triton.jit
    def comprehension(p):
        y = 0
        t = [(y := y + k) for k in range(3)]  # binds the enclosing y, as in Python
        tl.store(p, y + t[2])

    @triton.jit
    def ternary(p, n):
        z = (y := tl.load(p + 1)) if n > 0 else 3  # y would exist in one branch only
        tl.store(p, z)
    assert re.search(r"tt\.store %arg0, %c6_i32", compile_ttir(comprehension, {"p": "*i32"}))
    with pytest.raises(triton.CompilationError, match=r"assignment expression inside a conditional expression "
                                                      r"whose condition is a runtime value"):
        compile_ttir(ternary, {"p": "*i32", "n": "i32"})


def test_the_non_constexpr_globals_knob_covers_closure_numbers(monkeypatch):
    n = 7

    @triton.jit
    def kernel(x_ptr):
        tl.store(x_ptr, n)
    monkeypatch.setenv("TRITON_ALLOW_NON_CONSTEXPR_GLOBALS", "1")
    assert re.search(r"arith\.constant 7 : i32", compile_ttir(kernel, {"x_ptr": "*i32"}))


# ---- noinline functions ----------------------------------------------------------------------

@triton.jit(noinline=True)
def _scaled_noinline(val, i):
    return val * i


@triton.jit
def k_noinline_with_a_block(x_ptr):
    offs = tl.arange(0, 128)
    tl.store(x_ptr + offs, _scaled_noinline(tl.load(x_ptr + offs), 2))


@triton.jit
def k_noinline_with_scalars(x_ptr):
    tl.store(x_ptr, _scaled_noinline(tl.load(x_ptr), 2))


def test_a_noinline_function_takes_scalars_only_as_in_triton():
    with pytest.raises(triton.CompilationError, match=r"Function _scaled_noinline is marked noinline, but was "
                                                      r"called with non-scalar argument val:fp32\[128\]"):
        compile_ttir(k_noinline_with_a_block, {"x_ptr": "*fp32"})
    assert "tt.store" in compile_ttir(k_noinline_with_scalars, {"x_ptr": "*fp32"})


@triton.jit
def k_convert(x_ptr, y_ptr, TO: tl.constexpr):
    offs = tl.arange(0, 1024)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs).to(TO))


@pytest.mark.parametrize("src, dst, to, instruction", [
    ("*fp32", "*fp8e4nv", tl.float8e4nv, "cvt.rn.satfinite.e4m3x2.f32"),
    ("*fp16", "*fp8e5", tl.float8e5, "cvt.rn.satfinite.e5m2x2.f16x2"),
    ("*fp8e4nv", "*fp16", tl.float16, "cvt.rn.f16x2.e4m3x2"),
])
def test_fp8_conversions_take_two_elements_an_instruction(src, dst, to, instruction):
    # 1024 elements over 4 warps: 8 a thread, converted in pairs by the x2
    # instructions (4 a thread), as Triton converts them.
    ptx = triton.compile(k_convert, signature={"x_ptr": src, "y_ptr": dst}, constexprs={"TO": to},
                         target="cuda:90", num_warps=4,
                         attrs={p: [["tt.divisibility", 16]] for p in ("x_ptr", "y_ptr")}).asm["ptx"]
    assert ptx.count(instruction) == 4, ptx.count(instruction)


@triton.jit
def k_symmetric_clamp(x_ptr, y_ptr, lo_ptr):
    offs = tl.arange(0, 256)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.clamp(x, -448.0, 448.0))
    tl.store(lo_ptr + offs, tl.clamp(x, -1.0, 448.0))


def test_symmetric_clamp_is_one_min_xorsign_abs():
    # clamp(x, -c, c) on sm_90: min(|x|, c) with x's sign, one instruction
    # (Triton's lowering); other bounds keep max then min.
    ptx = triton.compile(k_symmetric_clamp, signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "lo_ptr": "*fp32"},
                         target="cuda:90", num_warps=4).asm["ptx"]
    assert ptx.count("min.xorsign.abs.f32") == 2 and ptx.count("max.f32") == 2, ptx
