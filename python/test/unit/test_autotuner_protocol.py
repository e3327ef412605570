"""Triton's Autotuner/Config/Heuristics protocol, as code written for Triton
uses it (no GPU: the kernel is a fake that records its launches):

- a subclass shaped like flash-linear-attention's CachedAutotuner: it calls
  `super().__init__` with Triton's positional and keyword arguments, reads
  `user_defined_pre_hook`, `reset_to_zero`, ..., replaces `pre_hook` and
  `post_hook`, and overrides `run` to fill `self.cache[key]` with a config
  under a tuning key it builds itself before `Autotuner.run` launches it;
- the tuning key: the `key` arguments' values, then str(dtype) of every
  argument with a dtype;
- the hooks' call signatures and when run() and a benchmark call them;
- the disk cache (`check_disk_cache`), pruning, Config's fields;
- Triton's compiler identity `triton_key()`, the peak-figure helpers of
  triton.testing (their formulas, on given device attributes) and
  `tl.standard._log2`.
"""
import json
import os
import pickle

import pytest

import tritium as triton
import tritium.language as tl
from tritium import testing
from tritium.runtime.autotuner import Autotuner

from conftest import compile_ttir


class FakeDtype:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return self.name


class FakeTensor:
    """Has a dtype (so it enters the tuning key) and the methods the default
    hooks call; records zero_ / clone / copy_."""

    def __init__(self, dtype="torch.float16", value=0):
        self.dtype = FakeDtype(dtype)
        self.value = value
        self.log = []

    def zero_(self):
        self.log.append("zero")
        self.value = 0

    def clone(self):
        self.log.append("clone")
        return FakeTensor(str(self.dtype), self.value)

    def copy_(self, other):
        self.log.append("copy")
        self.value = other.value


class FakeKernel:
    """Stands in for a JITFunction: records what the autotuner launches."""
    arg_names = ["x", "y", "n", "BLOCK"]
    __name__ = "fake_kernel"

    def __init__(self):
        self.runs = []

    def run(self, *args, grid, warmup, **kwargs):
        self.runs.append(kwargs)
        if args and isinstance(args[0], FakeTensor):
            args[0].value += 1  # a launch writes to x


def no_bench(fn, quantiles):
    pytest.fail("benchmarked although the config was cached")


# ---- a subclass in the shape of fla's CachedAutotuner ----------------------------------------------------

class PrefilledAutotuner(Autotuner):
    """Builds the tuning key as Triton's run does, fills self.cache with a
    stored choice, then lets Autotuner.run launch; replaces the default hooks
    after construction with ones that skip None arguments."""

    def __init__(self, fn, arg_names, configs, key, reset_to_zero, restore_value, stored=None, **kwargs):
        super().__init__(fn, arg_names, configs, key, reset_to_zero, restore_value, **kwargs)
        self.stored = stored or {}
        self.kernel_name = fn.fn.__name__ if hasattr(fn, "fn") else fn.__name__
        if not self.user_defined_pre_hook and (self.reset_to_zero or self.restore_value):
            def pre_hook(kw, reset_only=False):
                for name in self.reset_to_zero:
                    if kw[name] is not None:
                        kw[name].zero_()
                if not reset_only:
                    self.restore_copies = {n: kw[n].clone() for n in self.restore_value if kw[n] is not None}
            self.pre_hook = pre_hook
        if not self.user_defined_post_hook and self.restore_value:
            def post_hook(kw, exception):
                for name, saved in self.restore_copies.items():
                    kw[name].copy_(saved)
                self.restore_copies = {}
            self.post_hook = post_hook

    @staticmethod
    def build_key(arg_names, key_names, args, kwargs):
        named = {**dict(zip(arg_names, args)), **kwargs}
        tracked = {k: v for k, v in named.items() if k in arg_names}
        key = [tracked[name] for name in key_names if name in tracked]
        key += [str(v.dtype) for v in tracked.values() if hasattr(v, "dtype")]
        return tuple(key)

    def run(self, *args, **kwargs):
        key = self.build_key(self.arg_names, self.keys, args, kwargs)
        if key not in self.cache and key in self.stored:
            best = self.stored[key]
            self.cache[key] = triton.Config(best["kwargs"], num_warps=best["num_warps"],
                                            num_stages=best["num_stages"], num_ctas=best["num_ctas"],
                                            maxnreg=best.get("maxnreg"), pre_hook=None,
                                            ir_override=best.get("ir_override"))
        return super().run(*args, **kwargs)


CONFIGS = [triton.Config({"BLOCK": 64}, num_warps=2), triton.Config({"BLOCK": 128}, num_warps=4)]


def make_prefilled(**kwargs):
    fake = FakeKernel()
    tuner = PrefilledAutotuner(fake, fake.arg_names, CONFIGS, ["n"], ["y"], ["x"], pre_hook=None, post_hook=None,
                               prune_configs_by=None, warmup=None, rep=None, use_cuda_graph=False,
                               do_bench=kwargs.pop("do_bench", no_bench), cache_results=False, **kwargs)
    return fake, tuner


def test_subclass_constructs_with_tritons_arguments_and_attributes():
    fake, tuner = make_prefilled()
    assert tuner.fn is fake and tuner.base_fn is fake and tuner.kernel_name == "fake_kernel"
    assert tuner.configs is CONFIGS and tuner.keys == ["n"] and tuner.arg_names == fake.arg_names
    assert tuner.cache == {} and isinstance(tuner.cache, dict)
    assert tuner.reset_to_zero == ["y"] and tuner.restore_value == ["x"]
    assert tuner.user_defined_pre_hook is False and tuner.user_defined_post_hook is False
    assert tuner.early_config_prune is None and tuner.perf_model is None and tuner.configs_top_k == 1.0
    assert tuner.num_warmups is None and tuner.num_reps is None and tuner.use_cuda_graph is False
    assert tuner.cache_results is False
    assert tuner.do_bench is no_bench  # the user's benchmark function, Triton's do_bench(kernel_call, quantiles)
    # the subclass's hooks replaced the defaults
    assert tuner.pre_hook.__name__ == "pre_hook" and tuner.post_hook.__name__ == "post_hook"


def test_prefilled_cache_is_launched_without_benchmarking():
    stored_key = (1000, "torch.float16", "torch.float32")
    fake, tuner = make_prefilled(stored={stored_key: {"kwargs": {"BLOCK": 256}, "num_warps": 8, "num_stages": 2,
                                                     "num_ctas": 1}})
    x, y = FakeTensor("torch.float16"), FakeTensor("torch.float32")
    tuner[(4,)](x, y, 1000)
    assert list(tuner.cache) == [stored_key]
    assert tuner.best_config is tuner.cache[stored_key] and tuner.best_config.kwargs == {"BLOCK": 256}
    assert fake.runs == [{"BLOCK": 256, "num_warps": 8, "num_ctas": 1, "num_stages": 2}]
    assert x.log == [] and y.log == []  # no benchmark: no hook ran
    assert tuner.nargs is None


def test_ir_override_is_kept_but_not_passed_to_the_kernel():
    fake = FakeKernel()
    config = triton.Config({"BLOCK": 32}, ir_override="kernel.ttgir")
    tuner = Autotuner(fake, fake.arg_names, [config], ["n"], None, None)
    tuner[(1,)](None, None, 1)
    assert config.all_kwargs()["ir_override"] == "kernel.ttgir" and "ir_override" not in fake.runs[-1]


def test_tuning_key_format():
    fake = FakeKernel()
    seen = []
    tuner = Autotuner(fake, fake.arg_names, CONFIGS, ["n", "not_a_parameter", "y"], None, None,
                      do_bench=lambda fn, quantiles: seen.append(1) or [1.0, 1.0, 1.0])
    x, y = FakeTensor("torch.bfloat16"), FakeTensor("torch.int32")
    tuner.run(x, y, n=7, grid=(1,), warmup=False)
    # the key arguments present, in key order; then the dtypes in parameter order
    assert list(tuner.cache) == [(7, y, "torch.bfloat16", "torch.int32")]
    assert len(seen) == 2
    tuner.run(x, y, n=7, grid=(1,), warmup=False)
    assert len(seen) == 2  # cached


def test_hooks_are_called_with_tritons_arguments():
    calls = []

    def pre_hook(kwargs, reset_only=False):
        calls.append(("pre", sorted(kwargs), reset_only))

    def post_hook(kwargs, exception):
        calls.append(("post", sorted(kwargs), exception))

    def config_hook(nargs):
        calls.append(("config", sorted(nargs)))

    configs = [triton.Config({"BLOCK": 64}, pre_hook=config_hook), triton.Config({"BLOCK": 128})]
    times = iter([[2.0, 2.0, 2.0], [1.0, 1.0, 1.0]])
    fake = FakeKernel()
    tuner = triton.autotune(configs, key=["n"], pre_hook=pre_hook, post_hook=post_hook,
                            do_bench=lambda fn, quantiles: (fn(), next(times))[1])(fake)
    assert tuner.user_defined_pre_hook is True and tuner.user_defined_post_hook is True
    assert tuner.pre_hook is pre_hook and tuner.post_hook is post_hook
    tuner[(1,)](None, None, 10)
    names = ["BLOCK", "grid", "n", "num_ctas", "num_stages", "num_warps", "warmup", "x", "y"]
    assert calls == [("config", names), ("pre", names, False), ("post", names, None),
                     ("pre", names, False), ("post", names, None),
                     ("pre", names, True)]  # after the benchmark, before the launch
    assert tuner.best_config is configs[1]
    assert tuner.configs_timings == {configs[0]: [2.0, 2.0, 2.0], configs[1]: [1.0, 1.0, 1.0]}
    assert tuner.bench_time >= 0


def test_post_hook_gets_the_launch_error():
    seen = []

    class Failing(FakeKernel):
        def run(self, *args, grid, warmup, **kwargs):
            raise triton.OutOfResources(300000, 232448, "shared memory")

    fake = Failing()
    tuner = Autotuner(fake, fake.arg_names, CONFIGS, ["n"], None, None,
                      post_hook=lambda kwargs, exception: seen.append(exception),
                      do_bench=lambda fn, quantiles: fn())
    tuner.nargs = {"x": None, "y": None, "n": 1}  # as run() sets it
    assert tuner._bench(None, None, 1, grid=(1,), warmup=False, config=CONFIGS[0]) == [float("inf")] * 3
    assert len(seen) == 1 and isinstance(seen[0], triton.OutOfResources)


def test_default_hooks_reset_save_and_restore_and_skip_none():
    fake = FakeKernel()
    tuner = Autotuner(fake, fake.arg_names, CONFIGS, ["n"], reset_to_zero=["y"], restore_value=["x"],
                      do_bench=lambda fn, quantiles: (fn(), [1.0, 1.0, 1.0])[1])
    assert tuner.user_defined_pre_hook is False and tuner.user_defined_post_hook is False
    x, y = FakeTensor(value=5), FakeTensor(value=3)
    tuner[(1,)](x, y, 10)
    # per benchmark run: y zeroed, x saved, launched (x += 1), x restored; then one reset; then the launch
    assert y.log == ["zero", "zero", "zero"]
    assert x.log == ["clone", "copy", "clone", "copy"] and x.value == 6
    assert tuner.restore_copies == {}
    # an argument that is None is skipped
    tuner.pre_hook({"x": None, "y": None})
    assert tuner.restore_copies == {}
    with pytest.raises(triton.TritiumError, match="reset_to_zero: 'y' is not an argument of fake_kernel"):
        tuner.pre_hook({"x": None})


def test_no_reset_or_restore_means_hooks_that_do_nothing():
    fake = FakeKernel()
    tuner = Autotuner(fake, fake.arg_names, CONFIGS, ["n"], None, None)
    assert tuner.pre_hook({}) == 0 and tuner.pre_hook({}, reset_only=True) == 0
    assert tuner.post_hook({}, exception=None) == 0


def test_single_config_and_single_pruned_config_skip_the_benchmark():
    fake = FakeKernel()
    one = Autotuner(fake, fake.arg_names, [triton.Config({"BLOCK": 32})], ["n"], None, None, do_bench=no_bench)
    one[(1,)](None, None, 1)
    assert one.cache == {} and one.best_config.kwargs == {"BLOCK": 32}
    pruned = Autotuner(fake, fake.arg_names, CONFIGS, ["n"], None, None, do_bench=no_bench,
                       prune_configs_by={"early_config_prune": lambda configs, nargs, **kw: configs[1:]})
    pruned[(1,)](None, None, 1)
    assert pruned.cache == {(1,): CONFIGS[1]}


def test_prune_configs_by_perf_model_and_top_k():
    fake = FakeKernel()
    estimates = {64: 3.0, 128: 1.0, 256: 2.0}
    configs = [triton.Config({"BLOCK": b}) for b in estimates]
    tuner = Autotuner(fake, fake.arg_names, configs, ["n"], None, None,
                      prune_configs_by={"perf_model": lambda **kw: estimates[kw["BLOCK"]], "top_k": 2})
    tuner.nargs = {"x": None, "y": None, "n": 1}
    assert [c.kwargs["BLOCK"] for c in tuner.prune_configs({})] == [128, 256]
    tuner.configs_top_k = 0.1  # a fraction: at least one config
    assert [c.kwargs["BLOCK"] for c in tuner.prune_configs({})] == [128]
    tuner.configs_top_k = "2"
    with pytest.raises(TypeError, match="top_k must be"):
        tuner.prune_configs({})
    tuner.early_config_prune = lambda configs, nargs, **kw: []
    with pytest.raises(triton.runtime.errors.AutotunerError, match="No valid autotuner configs after pruning"):
        tuner.prune_configs({})


def test_deprecated_benchmark_arguments_warn_and_are_kept():
    fake = FakeKernel()
    with pytest.warns(DeprecationWarning, match="warmup, rep, and use_cuda_graph"):
        tuner = Autotuner(fake, fake.arg_names, CONFIGS, ["n"], None, None, warmup=5, rep=20)
    assert tuner.num_warmups == 5 and tuner.num_reps == 20 and callable(tuner.do_bench)


def test_default_benchmarker_is_the_drivers():
    fake = FakeKernel()
    tuner = Autotuner(fake, fake.arg_names, CONFIGS, ["n"], None, None)
    assert tuner.do_bench is testing.do_bench is triton.runtime.driver.active.get_benchmarker()


def test_check_disk_cache_stores_and_loads_timings(monkeypatch, tmp_path):
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(tmp_path))
    fake = FakeKernel()
    times = iter([[2.0, 2.0, 2.0], [1.0, 1.0, 1.0]])
    first = Autotuner(fake, fake.arg_names, CONFIGS, ["n"], None, None, cache_results=True,
                      do_bench=lambda fn, quantiles: next(times))
    assert first.cache_results is True
    first[(1,)](None, None, 10)
    [path] = [os.path.join(d, f) for d, _, files in os.walk(tmp_path / "autotune") for f in files]
    assert path.endswith("fake_kernel.autotune.json")
    stored = json.load(open(path))
    assert stored["key"] == ["10"] and len(stored["configs_timings"]) == 2
    second = Autotuner(FakeKernel(), fake.arg_names, CONFIGS, ["n"], None, None, cache_results=True,
                       do_bench=no_bench)
    assert second.check_disk_cache((10,), CONFIGS, lambda: pytest.fail("benchmarked")) is True
    assert second.cache[(10,)] is CONFIGS[1] and second.configs_timings[CONFIGS[0]] == [2.0, 2.0, 2.0]
    # no tuning key, or a config with a pre_hook: only the benchmark
    ran = []
    assert second.check_disk_cache((), CONFIGS, lambda: ran.append(1)) is False and ran == [1]


def test_config_fields_and_protocol():
    hook = print
    c = triton.Config({"BLOCK": 64}, num_warps=8, num_stages=2, num_ctas=1, maxnreg=128, pre_hook=hook)
    assert (c.kwargs, c.num_warps, c.num_stages, c.num_ctas, c.maxnreg, c.pre_hook, c.ir_override) == \
        ({"BLOCK": 64}, 8, 2, 1, 128, hook, None)
    assert c.all_kwargs() == {"BLOCK": 64, "num_warps": 8, "num_ctas": 1, "num_stages": 2, "maxnreg": 128}
    assert str(c) == "BLOCK: 64, num_warps: 8, num_ctas: 1, num_stages: 2, maxnreg: 128, ir_override: None"
    assert triton.Config({"BLOCK": 64}, ir_override="k.ttgir").all_kwargs()["ir_override"] == "k.ttgir"
    plain = triton.Config({"BLOCK": 64})
    assert plain == triton.Config(**plain.__dict__) and hash(plain) == hash(triton.Config({"BLOCK": 64}))
    assert plain != triton.Config({"BLOCK": 64}, pre_hook=hook)
    restored = pickle.loads(pickle.dumps(plain))
    assert restored == plain and restored.ir_override is None
    old = triton.Config.__new__(triton.Config)
    old.__setstate__({"kwargs": {"A": 1}, "num_warps": 2})  # a pickle from before ir_override existed
    assert (old.num_stages, old.num_ctas, old.maxnreg, old.ir_override) == (3, 1, None, None)


def test_heuristics_protocol():
    fake = FakeKernel()
    h = triton.heuristics({"BLOCK": lambda args: args["n"] * 2})(fake)
    assert isinstance(h, triton.Heuristics) and h.fn is fake and h.arg_names == fake.arg_names
    h[(1,)](None, None, 8)
    assert fake.runs[-1]["BLOCK"] == 16


# ---- triton_key, triton.testing's peak figures, tl.standard._log2 -------------------------------------------

def test_triton_key_names_the_compiler():
    from tritium._native import native_library
    from tritium.compiler.compiler import triton_key
    from tritium.runtime import cache
    from tritium.version import __tritium_version__
    key = triton_key()
    assert isinstance(key, str) and key == cache.triton_key()
    assert key == f"{__tritium_version__}-{native_library().build_id()}-{cache.frontend_hash()}"


A100 = {"multiprocessor_count": 108, "mem_clock_rate": 1215000, "mem_bus_width": 5120, "major": 8, "minor": 0}
V100 = {"multiprocessor_count": 80, "mem_clock_rate": 877000, "mem_bus_width": 4096, "major": 7, "minor": 0}


@pytest.fixture
def device_attributes(monkeypatch):
    """Replaces the driver query: testing._device_attributes(device) answers
    from `table` (device index -> attributes)."""
    table = {}
    monkeypatch.setattr(testing, "_device_attributes", lambda device: table[device])
    return table


def test_get_dram_gbps(device_attributes):
    device_attributes[1] = A100
    # 1215 MHz x 5120 bits x 2 (DDR) / 8: the A100-40GB's 1555 GB/s
    assert testing.get_dram_gbps(1) == pytest.approx(1555.2)
    assert testing.get_dram_gbps(device=1) == testing.get_dram_gbps(1)


def test_get_max_tensorcore_tflops(device_attributes):
    device_attributes[1] = A100
    clock_khz = 1410000
    # 432 sub-cores x 1.41 GHz x 512 ops: the A100's 312 dense fp16 TFLOPS
    assert testing.get_max_tensorcore_tflops(tl.float16, clock_khz, 1) == pytest.approx(311.87, rel=1e-4)
    assert testing.get_max_tensorcore_tflops(FakeDtype("torch.bfloat16"), clock_khz, 1) == \
        testing.get_max_tensorcore_tflops(tl.float16, clock_khz, 1)
    assert testing.get_max_tensorcore_tflops(FakeDtype("torch.float32"), clock_khz, device=1) == \
        pytest.approx(155.93, rel=1e-4)
    for eight_bit in (tl.float8e4nv, tl.float8e5, FakeDtype("torch.int8"), FakeDtype("torch.float8_e4m3fn")):
        assert testing.get_max_tensorcore_tflops(eight_bit, clock_khz, 1) == pytest.approx(623.74, rel=1e-4)
    with pytest.raises(RuntimeError, match="dtype not supported"):
        testing.get_max_tensorcore_tflops(FakeDtype("torch.float64"), clock_khz, 1)
    device_attributes[2] = V100
    assert testing.get_max_tensorcore_tflops(FakeDtype("torch.float16"), 1530000, 2) == \
        pytest.approx(320 * 1530000 * 256 * 1e-9)
    with pytest.raises(AssertionError):
        testing.get_max_tensorcore_tflops(FakeDtype("torch.float32"), 1530000, 2)


def test_get_max_simd_tflops(device_attributes):
    device_attributes[1] = A100
    # 432 sub-cores x 1.41 GHz x 32 fp32 ops: the A100's 19.5 fp32 TFLOPS
    assert testing.get_max_simd_tflops(FakeDtype("torch.float32"), 1410000, 1) == pytest.approx(19.49, rel=1e-3)
    assert testing.get_max_simd_tflops(tl.bfloat16, 1410000, 1) == pytest.approx(38.98, rel=1e-3)
    with pytest.raises(RuntimeError, match="dtype not supported"):
        testing.get_max_simd_tflops(FakeDtype("torch.int8"), 1410000, 1)
    device_attributes[2] = V100
    with pytest.raises(RuntimeError, match="dtype not supported"):
        testing.get_max_simd_tflops(FakeDtype("torch.bfloat16"), 1530000, 2)


def test_peak_helpers_default_to_the_current_device(device_attributes, monkeypatch):
    monkeypatch.setattr(testing, "_device_index", lambda device: 3 if not device else device)
    device_attributes[3] = A100
    assert testing.get_dram_gbps() == pytest.approx(1555.2)


def test_standard_log2_at_compile_time():
    assert [tl.standard._log2(n) for n in (1, 2, 3, 16, 1024)] == [0, 1, 1, 4, 10]
    assert tl.standard._log2(tl.constexpr(64)) == 6
    assert tl.standard._is_power_of_two(64) and not tl.standard._is_power_of_two(48)

    @triton.jit
    def kernel(x_ptr, BLOCK: tl.constexpr):
        n_dims: tl.constexpr = tl.standard._log2(BLOCK)
        tl.store(x_ptr + tl.arange(0, n_dims * 2), 1)

    assert "tensor<16xi32>" in compile_ttir(kernel, {"x_ptr": "*i32"}, {"BLOCK": 256})
