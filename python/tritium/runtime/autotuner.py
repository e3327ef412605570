"""Triton's autotuning API: `Config`, `Autotuner` (`@autotune`) and
`Heuristics` (`@heuristics`), with Triton's constructor arguments,
attributes and hook protocol, so that classes written for Triton's
`Autotuner` subclass this one.

`@autotune(configs, key)` benchmarks every config the first time it sees a
new tuning key and launches the fastest afterwards.  The tuning key, the key
of `self.cache`, is a tuple: the values of the `key` arguments that the call
passes (in `key`'s order), then `str(arg.dtype)` of every argument (in
parameter order) that has a `dtype`.  A subclass may fill `self.cache[key]`
with a Config before calling `Autotuner.run`, which then launches that config
without benchmarking.  `@heuristics({"BLOCK": fn})` computes meta-parameters
from the arguments.  Both wrap a JITFunction (or each other) and forward to
its `run(*args, grid=..., warmup=..., **kwargs)`, so `kernel[grid](...)`,
`kernel.run(...)` and `kernel.warmup(...)` work through any stack of them.

Around each benchmarked launch: the config's `pre_hook(nargs)`, then
`self.pre_hook(nargs)` (by default: `reset_to_zero` zeroes those tensors and
`restore_value` saves copies in `self.restore_copies`; or the user's
`pre_hook`), the launch, and `self.post_hook(nargs, exception=None or the
error)` (by default: the saved values are copied back).  After a benchmark,
`self.pre_hook(nargs, reset_only=True)` runs once before the real launch.
Arguments that are None are skipped by the default hooks.  A config that
does not compile or does not fit the device times as infinity.  With
`cache_results` (or TRITON_CACHE_AUTOTUNING=1) the timings are also kept on
disk in the kernel cache directory, keyed by `triton_key()`, the target, the
kernel's source, the settings that change compiled code, the tuning key and
the configs.  TRITON_PRINT_AUTOTUNING=1 prints each tuning's key, time and
choice; `knobs.autotuning.listener`, when set, is called after each tuning.
A Config's `ir_override` is kept, hashed and printed as in Triton but not
applied: the kernel is launched without it.
"""
from __future__ import annotations

import builtins
import hashlib
import inspect
import json
import os
import time
import warnings
from functools import cached_property
from typing import Callable, Dict, List, Optional, Tuple

from .. import knobs
from ..errors import (ArgumentError, AutotunerError, CompilationError, OutOfResources, PTXASError,
                      TritiumError)
from . import cache
from . import driver
from .jit import JITFunction, KernelInterface

# the fields of a Config, in the order Triton's Config has them
_CONFIG_FIELDS = ("kwargs", "num_warps", "num_ctas", "num_stages", "maxnreg", "pre_hook", "ir_override")


class Config:
    """One choice of meta-parameters (`kwargs`) and launch options
    (`num_warps`, `num_stages`, `num_ctas`, `maxnreg`), with an optional
    `pre_hook(nargs)` called before each launch with this config."""

    def __init__(self, kwargs: Dict, num_warps: int = 4, num_stages: int = 3, num_ctas: int = 1,
                 maxnreg: Optional[int] = None, pre_hook: Optional[Callable] = None, ir_override=None):
        self.kwargs = kwargs
        self.num_warps = num_warps
        self.num_ctas = num_ctas
        self.num_stages = num_stages
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook
        self.ir_override = ir_override

    def __setstate__(self, state):
        self.kwargs = state.get("kwargs", {})
        self.num_warps = state.get("num_warps", 4)
        self.num_stages = state.get("num_stages", 3)
        self.num_ctas = state.get("num_ctas", 1)
        self.maxnreg = state.get("maxnreg", None)
        self.pre_hook = state.get("pre_hook", None)
        self.ir_override = state.get("ir_override", None)

    def all_kwargs(self) -> Dict:
        """The meta-parameters and the options that are set (not None), as
        the keyword arguments of a launch."""
        out = dict(self.kwargs)
        for name in ("num_warps", "num_ctas", "num_stages", "maxnreg", "ir_override"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out

    def __str__(self):
        parts = [f"{k}: {v}" for k, v in self.kwargs.items()]
        parts += [f"num_warps: {self.num_warps}", f"num_ctas: {self.num_ctas}", f"num_stages: {self.num_stages}",
                  f"maxnreg: {self.maxnreg}", f"ir_override: {self.ir_override}"]
        return ", ".join(parts)

    __repr__ = __str__

    def _identity(self):
        # repr() of the values: a config whose meta-parameter is a list still hashes
        return (tuple(sorted((k, repr(v)) for k, v in self.kwargs.items())), self.num_warps, self.num_ctas,
                self.num_stages, self.maxnreg, self.ir_override, self.pre_hook)

    def __hash__(self):
        return hash(self._identity())

    def __eq__(self, other):
        return isinstance(other, Config) and self._identity() == other._identity()


class Autotuner(KernelInterface):
    """Picks the fastest of `configs` for each new tuning key (see the module
    docstring); Triton's `triton.runtime.autotuner.Autotuner`."""

    def __init__(self, fn, arg_names, configs, key, reset_to_zero=None, restore_value=None, pre_hook=None,
                 post_hook=None, prune_configs_by: Optional[Dict] = None, warmup=None, rep=None,
                 use_cuda_graph=False, do_bench=None, cache_results=False):
        """`prune_configs_by` may hold 'early_config_prune' (called as
        `early_config_prune(configs, named_args, **kwargs)`, returns the
        configs to keep), 'perf_model' (called with the arguments and a
        config's all_kwargs(), returns an estimated time) and 'top_k' (how
        many of the best estimated to benchmark: an int, or a float <= 1.0,
        a fraction of the configs)."""
        self.configs = configs if configs else [Config({}, num_warps=4, num_stages=3, num_ctas=1)]
        self.keys = key  # names that are not parameters are left out of the tuning key, as in Triton
        self.cache: Dict[Tuple, Config] = {}
        self.arg_names = arg_names
        self.cache_results = bool((cache_results or knobs.autotuning.cache) and not knobs.runtime.interpret)

        self.reset_to_zero = list(reset_to_zero) if reset_to_zero is not None else []
        self.restore_value = list(restore_value) if restore_value is not None else []
        self.restore_copies: Dict = {}

        # pre_hook(kwargs, reset_only=False) and post_hook(kwargs, exception):
        # the user's, else the ones reset_to_zero and restore_value need, else none
        self.pre_hook = lambda kwargs, reset_only=False: 0
        self.post_hook = lambda kwargs, exception: 0
        self.user_defined_pre_hook = False
        self.user_defined_post_hook = False
        if pre_hook:
            self.pre_hook = pre_hook
            self.user_defined_pre_hook = True
        elif self.reset_to_zero or self.restore_value:
            self.pre_hook = self._reset_and_save
        if post_hook:
            self.post_hook = post_hook
            self.user_defined_post_hook = True
        elif self.restore_value:
            self.post_hook = self._restore_saved

        self.perf_model = None
        self.configs_top_k = 1.0
        self.early_config_prune = None
        if prune_configs_by:
            self.perf_model = prune_configs_by.get("perf_model", self.perf_model)
            self.configs_top_k = prune_configs_by.get("top_k", self.configs_top_k)
            self.early_config_prune = prune_configs_by.get("early_config_prune", self.early_config_prune)

        self.fn = fn
        self.base_fn = fn  # the Python function under any wrappers
        while not inspect.isfunction(self.base_fn) and hasattr(self.base_fn, "fn"):
            self.base_fn = self.base_fn.fn

        self.best_config: Optional[Config] = None
        self.configs_timings: Optional[Dict[Config, List[float]]] = None
        self.bench_time = 0.0
        self.nargs = None

        self._do_bench = do_bench
        self.num_warmups = warmup
        self.num_reps = rep
        self.use_cuda_graph = use_cuda_graph
        if warmup is not None or rep is not None or use_cuda_graph:
            warnings.warn("warmup, rep, and use_cuda_graph parameters are deprecated. See "
                          "https://github.com/triton-lang/triton/pull/4496 for details.", DeprecationWarning,
                          stacklevel=2)
            if use_cuda_graph:
                from ..testing import do_bench_cudagraph
                self._do_bench = lambda kernel_call, quantiles: do_bench_cudagraph(
                    kernel_call, rep=rep if rep is not None else 100, quantiles=quantiles)
            else:
                from ..testing import do_bench as testing_do_bench
                self._do_bench = lambda kernel_call, quantiles: testing_do_bench(
                    kernel_call, warmup=warmup if warmup is not None else 25, rep=rep if rep is not None else 100,
                    quantiles=quantiles)

    # ---- the default hooks (reset_to_zero, restore_value) ----
    def _argument(self, kwargs: Dict, name: str, what: str):
        try:
            return kwargs[name]
        except KeyError:
            raise TritiumError(f"{what}: '{name}' is not an argument of {self.base_fn.__name__}") from None

    def _reset_and_save(self, kwargs: Dict, reset_only: bool = False):
        for name in self.reset_to_zero:
            value = self._argument(kwargs, name, "reset_to_zero")
            if value is not None:
                value.zero_()
        if not reset_only:
            self.restore_copies = {name: value.clone() for name in self.restore_value
                                   if (value := self._argument(kwargs, name, "restore_value")) is not None}

    def _restore_saved(self, kwargs: Dict, exception=None):
        for name, saved in self.restore_copies.items():
            kwargs[name].copy_(saved)
        self.restore_copies = {}

    # ---- benchmarking ----
    @cached_property
    def do_bench(self):
        """`do_bench(kernel_call, quantiles)`: the user's, else the driver's
        benchmarker (triton.testing.do_bench)."""
        if self._do_bench is None:
            return driver.active.get_benchmarker()
        return self._do_bench

    def _bench(self, *args, config: Config, **meta):
        """[median, 20th, 80th percentile] time of one config, in ms
        (infinity where it does not compile or does not fit)."""
        verbose = knobs.autotuning.print
        if verbose:
            print(f"Autotuning kernel {self.base_fn.__name__} with config {config}")
        conflicts = meta.keys() & config.kwargs.keys()
        if conflicts:
            raise ArgumentError(f"Conflicting meta-parameters: {', '.join(sorted(conflicts))}. Make sure that you "
                                "don't re-define auto-tuned symbols.")
        current = dict(meta, **config.all_kwargs())
        full_nargs = {**self.nargs, **current}
        launch = _launch_kwargs(current)

        def kernel_call():
            if config.pre_hook:
                config.pre_hook(full_nargs)
            self.pre_hook(full_nargs)
            try:
                self.fn.run(*args, **launch)
            except Exception as e:
                try:
                    self.post_hook(full_nargs, exception=e)
                finally:
                    raise
            self.post_hook(full_nargs, exception=None)

        try:
            result = self.do_bench(kernel_call, quantiles=(0.5, 0.2, 0.8))
        except (OutOfResources, CompilationError, PTXASError) as e:
            if verbose:
                print(f"Autotuning failed with {e}")
            return [float("inf")] * 3
        # a do_bench that returns one number still compares with the infinities above
        return list(result) if isinstance(result, (list, tuple)) else [result]

    def _jit_function(self):
        fn = self.fn
        while not isinstance(fn, JITFunction) and hasattr(fn, "fn"):
            fn = fn.fn
        return fn

    def check_disk_cache(self, tuning_key, configs, bench_fn) -> bool:
        """Fills `self.cache[tuning_key]` and `self.configs_timings` from the
        disk cache and returns True; or runs `bench_fn()`, stores its timings
        and returns False.  Configs with a pre_hook cannot be stored: then
        it only benchmarks."""
        if not tuning_key or any(config.pre_hook for config in configs):
            bench_fn()
            return False
        fn = self._jit_function()
        try:
            target = str(driver.active.get_current_target())
        except TritiumError:
            target = "no device"
        identity = [cache.triton_key(), target, str(getattr(fn, "cache_key", fn.__name__)),
                    str(sorted(_compile_settings().items())), str(tuning_key)] + [str(c) for c in configs]
        digest = hashlib.sha256("-".join(identity).encode("utf-8")).hexdigest()
        path = os.path.join(cache.cache_dir(), "autotune", digest, f"{fn.__name__[:150]}.autotune.json")
        timings = _load_timings(path, configs)
        if timings is not None:
            self.cache[tuning_key] = builtins.min(timings, key=timings.get)
            self.configs_timings = timings
            return True
        bench_fn()
        try:
            data = json.dumps({"key": [str(k) for k in tuning_key],
                               "configs_timings": [(config.__dict__, timing)
                                                   for config, timing in self.configs_timings.items()
                                                   if not config.pre_hook]})
        except (TypeError, ValueError):  # a meta-parameter JSON cannot hold: the choice stays in memory
            return False
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            cache.write_atomically(path, data.encode())
        except OSError as e:
            cache.warn_unwritable(cache.cache_dir(), e)
        return False

    # ---- launching ----
    def run(self, *args, **kwargs):
        self.nargs = dict(zip(self.arg_names, args))
        used_cached_result = True
        key = None
        if len(self.configs) > 1:
            all_args = {**self.nargs, **kwargs}
            named = {k: v for k, v in all_args.items() if k in self.arg_names}
            key = [named[k] for k in self.keys if k in named]
            key += [str(v.dtype) for v in named.values() if hasattr(v, "dtype")]
            key = tuple(key)
            if key not in self.cache:
                used_cached_result = False
                pruned_configs = self.prune_configs(kwargs)
                if len(pruned_configs) == 1:  # nothing to compare: no benchmark
                    self.cache[key] = pruned_configs[0]
                    used_cached_result = True
                else:
                    def benchmark():
                        start = time.time()
                        timings = {config: self._bench(*args, config=config, **kwargs) for config in pruned_configs}
                        self.bench_time = time.time() - start
                        self.cache[key] = builtins.min(timings, key=timings.get)
                        # the benchmark runs wrote to the arguments
                        self.pre_hook({**self.nargs, **kwargs, **self.cache[key].all_kwargs()}, reset_only=True)
                        self.configs_timings = timings

                    if self.cache_results:
                        used_cached_result = self.check_disk_cache(key, pruned_configs, benchmark)
                    else:
                        benchmark()
                    listener = getattr(knobs.autotuning, "listener", None)
                    if listener is not None:
                        listener(fn=self._jit_function(), key=key, best_config=self.cache[key],
                                 configs_timings=self.configs_timings,
                                 duration=None if used_cached_result else self.bench_time,
                                 cache_hit=used_cached_result)
            config = self.cache[key]
        else:
            config = self.configs[0]
        self.best_config = config
        if knobs.autotuning.print and not used_cached_result:
            print(f"Triton autotuning for function {self.base_fn.__name__},\nwith key as {key},\n"
                  f"finished after {self.bench_time:.2f}s,\nbest config selected: {self.best_config};")
        if config.pre_hook is not None:
            config.pre_hook({**self.nargs, **kwargs, **config.all_kwargs()})
        try:
            return self.fn.run(*args, **kwargs, **_launch_kwargs(config.all_kwargs()))
        finally:
            self.nargs = None

    def prune_configs(self, kwargs: Dict) -> List[Config]:
        """The configs to benchmark: `early_config_prune`'s choice, then the
        `top_k` best by `perf_model`.  Reads `self.nargs`."""
        pruned = self.configs
        if self.early_config_prune:
            pruned = self.early_config_prune(self.configs, self.nargs, **kwargs)
            if not pruned:
                raise AutotunerError("No valid autotuner configs after pruning. `early_config_prune` should "
                                     "return at least one config.")
        if self.perf_model:
            top_k = self.configs_top_k
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = max(1, int(len(self.configs) * top_k))  # a fraction of every config, at least one
            elif not isinstance(top_k, int):
                raise TypeError("Error while pruning configs, top_k must be either 1) a float <= 1.0 or 2) an int")
            if len(pruned) > top_k:
                estimates = {config: self.perf_model(**self.nargs, **kwargs, **config.all_kwargs())
                             for config in pruned}
                pruned = sorted(estimates, key=estimates.get)[:top_k]
        return pruned

    def warmup(self, *args, **kwargs):
        """Compiles every config that pruning keeps, without launching."""
        self.nargs = dict(zip(self.arg_names, args))
        try:
            return [self.fn.warmup(*args, **kwargs, **_launch_kwargs(config.all_kwargs()))
                    for config in self.prune_configs(kwargs)]
        finally:
            self.nargs = None


def _launch_kwargs(kwargs: Dict) -> Dict:
    """A config's keyword arguments as the kernel takes them: Tritium does
    not apply IR overrides, so `ir_override` is not passed on."""
    if "ir_override" not in kwargs:
        return kwargs
    return {k: v for k, v in kwargs.items() if k != "ir_override"}


def _compile_settings() -> Dict[str, object]:
    """The settings outside the kernel that change its compiled code (Triton's
    cache-invalidating environment variables)."""
    return {"debug": bool(knobs.runtime.debug), "disable_line_info": bool(knobs.compilation.disable_line_info),
            "disable_ptxas_opt": bool(knobs.nvidia.disable_ptxas_opt),
            "default_fp_fusion": bool(knobs.language.default_fp_fusion), "fp32_default": knobs.language.fp32_default,
            "override_arch": knobs.runtime.override_arch}


def _load_timings(path: str, configs: List[Config]) -> Optional[Dict[Config, list]]:
    """The stored {config: timing} at `path`, each config the equal one of
    `configs` where there is one; None if absent or unreadable."""
    try:
        with open(path) as f:
            stored = json.load(f)["configs_timings"]
        timings = {}
        for fields, timing in stored:
            loaded = Config(**{k: v for k, v in fields.items() if k in _CONFIG_FIELDS})
            timings[next((c for c in configs if c == loaded), loaded)] = timing
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return timings or None


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None, pre_hook=None,
             post_hook=None, warmup=None, rep=None, use_cuda_graph=False, do_bench=None, cache_results=False):
    """Decorator: pick the fastest of `configs` for each new value of the
    `key` arguments (and of the arguments' dtypes)."""
    def decorator(fn):
        return Autotuner(fn, fn.arg_names, configs, key, reset_to_zero, restore_value, pre_hook=pre_hook,
                         post_hook=post_hook, prune_configs_by=prune_configs_by, warmup=warmup, rep=rep,
                         use_cuda_graph=use_cuda_graph, do_bench=do_bench, cache_results=cache_results)
    return decorator


class Heuristics(KernelInterface):
    """Computes meta-parameters from the arguments: `values` maps a name to
    `fn(args)`, `args` being every argument by name."""

    def __init__(self, fn, arg_names, values) -> None:
        self.fn = fn
        self.values = values
        self.arg_names = arg_names

    def _apply(self, args, kwargs):
        for name, compute in self.values.items():
            kwargs[name] = compute({**dict(zip(self.arg_names, args)), **kwargs})

    def run(self, *args, **kwargs):
        self._apply(args, kwargs)
        return self.fn.run(*args, **kwargs)

    def warmup(self, *args, **kwargs):
        self._apply(args, kwargs)
        return self.fn.warmup(*args, **kwargs)


def heuristics(values: Dict[str, Callable]):
    """Decorator: compute meta-parameters from the other arguments."""
    def decorator(fn):
        return Heuristics(fn, fn.arg_names, values)
    return decorator
