"""Triton's autotuning API: `Config`, `@autotune` and `@heuristics`.

`@autotune(configs, key)` benchmarks every config the first time it sees a
new value of the `key` arguments (and of the dtypes of the tensor
arguments), and launches the fastest afterwards; `@heuristics({"BLOCK": fn})`
computes meta-parameters from the arguments.  Both wrap a JITFunction (or
each other) and forward to its `run(*args, grid=..., warmup=..., **kwargs)`,
so `kernel[grid](...)`, `kernel[lambda meta: ...](...)`, `kernel.run(...)`
and `kernel.warmup(...)` work through any stack of them.

Around each benchmarked launch: the config's `pre_hook`, then the tuner's
pre-hook (`reset_to_zero` zeroes tensors, `restore_value` saves copies; or
the user's `pre_hook`), the launch, and the tuner's post-hook (`restore_value`
copies the saved values back; or the user's `post_hook`).  A config that
does not compile or does not fit the device times as infinity.  With
`cache_results`, the choice is also kept on disk in the kernel cache
directory, keyed by the kernel's source, the configs and the tuning key.
`TRITON_PRINT_AUTOTUNING=1` prints each tuning's key, time and choice.
"""
from __future__ import annotations

import builtins
import hashlib
import json
import os
import time
from typing import Callable, Dict, List, Optional

from .. import knobs
from .. import testing
from ..errors import CompilationError, OutOfResources, TritiumError
from . import cache
from .jit import KernelInterface


class Config:
    """One choice of meta-parameters and launch options."""

    def __init__(self, kwargs: Dict, num_warps: int = 4, num_stages: int = 3, num_ctas: int = 1,
                 maxnreg: Optional[int] = None, pre_hook: Optional[Callable] = None, ir_override=None):
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook
        self.ir_override = ir_override

    def all_kwargs(self) -> Dict:
        out = dict(self.kwargs)
        for name in ("num_warps", "num_stages", "num_ctas", "maxnreg"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out

    def __str__(self):
        parts = [f"{k}: {v}" for k, v in self.kwargs.items()]
        parts += [f"num_warps: {self.num_warps}", f"num_ctas: {self.num_ctas}",
                  f"num_stages: {self.num_stages}", f"maxnreg: {self.maxnreg}"]
        return ", ".join(parts)

    __repr__ = __str__

    def _identity(self):
        return (tuple(sorted((k, repr(v)) for k, v in self.kwargs.items())), self.num_warps, self.num_stages,
                self.num_ctas, self.maxnreg, self.pre_hook)

    def __hash__(self):
        return hash(self._identity())

    def __eq__(self, other):
        return isinstance(other, Config) and self._identity() == other._identity()


class Autotuner(KernelInterface):
    def __init__(self, fn, arg_names: List[str], configs: List[Config], key: List[str],
                 reset_to_zero=None, restore_value=None, pre_hook=None, post_hook=None,
                 prune_configs_by: Optional[Dict] = None, warmup=None, rep=None, use_cuda_graph=False,
                 do_bench=None, cache_results=False):
        self.configs = configs if configs else [Config({})]
        self.fn = fn
        self.base_fn = fn
        while not hasattr(self.base_fn, "src") and hasattr(self.base_fn, "fn"):
            self.base_fn = self.base_fn.fn
        self.arg_names = list(arg_names)
        self.keys = list(key)  # names that are not parameters are ignored, as in Triton
        self.reset_to_zero = self._parameter_names(reset_to_zero, "reset_to_zero")
        self.restore_value = self._parameter_names(restore_value, "restore_value")
        self.restore_copies: Dict = {}
        self.user_pre_hook = pre_hook
        self.user_post_hook = post_hook
        self.pre_hook = pre_hook or self._default_pre_hook
        self.post_hook = post_hook or self._default_post_hook
        prune_configs_by = prune_configs_by or {}
        self.early_config_prune = prune_configs_by.get("early_config_prune")
        self.perf_model = prune_configs_by.get("perf_model")
        self.configs_top_k = prune_configs_by.get("top_k", 1.0)
        self.num_warmups = warmup if warmup is not None else 25
        self.num_reps = rep if rep is not None else 100
        self.use_cuda_graph = use_cuda_graph
        self.cache_results = cache_results or knobs.autotuning.cache
        self._user_do_bench = do_bench
        self.cache: Dict = {}
        self.best_config: Optional[Config] = None
        self.configs_timings = None
        self.bench_time = 0.0
        self.nargs = None

    def _parameter_names(self, names, what: str) -> List[str]:
        names = list(names or [])
        for name in names:
            if name not in self.arg_names:
                raise TritiumError(f"{what}: '{name}' is not a parameter of {self.base_fn.__name__}")
        return names

    # ---- hooks ----
    def _default_pre_hook(self, nargs: Dict, reset_only: bool = False):
        for name in self.reset_to_zero:
            nargs[name].zero_()
        if not reset_only:
            self.restore_copies = {name: nargs[name].clone() for name in self.restore_value}

    def _default_post_hook(self, nargs: Dict, exception=None):
        for name, copy in self.restore_copies.items():
            nargs[name].copy_(copy)
        self.restore_copies = {}

    # ---- benchmarking ----
    def do_bench(self, fn, quantiles=None):
        if self._user_do_bench is not None:
            return self._user_do_bench(fn, quantiles=quantiles)
        if self.use_cuda_graph:
            return testing.do_bench_cudagraph(fn, rep=self.num_reps, quantiles=quantiles)
        return testing.do_bench(fn, warmup=self.num_warmups, rep=self.num_reps, quantiles=quantiles)

    def _bench(self, *args, config: Config, **meta):
        conflicts = set(meta) & set(config.kwargs)
        if conflicts:
            raise TritiumError(f"Conflicting meta-parameters: {', '.join(sorted(conflicts))}. Make sure that you "
                               "don't re-define auto-tuned symbols.")
        current = dict(meta, **config.all_kwargs())
        full_nargs = {**self.nargs, **current}

        def kernel_call():
            if config.pre_hook:
                config.pre_hook(full_nargs)
            self.pre_hook(full_nargs)
            try:
                self.fn.run(*args, **current)
            except Exception as e:
                try:
                    self.post_hook(full_nargs, exception=e)
                finally:
                    raise
            self.post_hook(full_nargs, exception=None)

        try:
            result = self.do_bench(kernel_call, quantiles=(0.5, 0.2, 0.8))
        except (OutOfResources, CompilationError):
            return [float("inf")] * 3
        return list(result) if isinstance(result, (list, tuple)) else [result]

    def prune_configs(self, kwargs: Dict) -> List[Config]:
        pruned = self.configs
        if self.early_config_prune:
            pruned = self.early_config_prune(self.configs, self.nargs, **kwargs)
            if not pruned:
                raise TritiumError("Autotuner error: No valid autotuner configs after pruning. "
                                   "`early_config_prune` should return at least one config.")
        if self.perf_model:
            top_k = self.configs_top_k
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = int(len(self.configs) * top_k)
            elif not isinstance(top_k, int):
                raise TypeError("prune_configs_by's top_k must be an int, or a float <= 1.0 (a fraction)")
            if len(pruned) > top_k:
                estimates = {config: self.perf_model(**self.nargs, **kwargs, **config.all_kwargs())
                             for config in pruned}
                pruned = sorted(estimates, key=estimates.get)[:max(1, top_k)]
        return pruned

    # ---- launching ----
    def _tuning_key(self, kwargs: Dict) -> tuple:
        named = {**self.nargs, **{k: v for k, v in kwargs.items() if k in self.arg_names}}
        key = [named[k] for k in self.keys if k in named]
        key += [str(v.dtype) for v in named.values() if hasattr(v, "dtype")]
        return tuple(key)

    def _disk_cache_path(self, key: tuple) -> Optional[str]:
        if not self.cache_results:
            return None
        base = self.base_fn
        identity = [getattr(base, "cache_key", ""), repr(key), [str(c) for c in self.configs]]
        digest = hashlib.sha256(json.dumps(identity, default=str).encode()).hexdigest()
        return os.path.join(cache.cache_dir(), "autotune", digest + ".json")

    def _load_cached_choice(self, key: tuple) -> Optional[Config]:
        path = self._disk_cache_path(key)
        if path is None or not os.path.exists(path):
            return None
        try:
            with open(path) as f:
                index = json.load(f)["config_index"]
            return self.configs[index]
        except (OSError, ValueError, KeyError, IndexError, TypeError):
            return None  # unreadable or from another config list: tune again

    def _store_choice(self, key: tuple, config: Config):
        path = self._disk_cache_path(key)
        if path is None:
            return
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            data = json.dumps({"key": repr(key), "config": str(config),
                               "config_index": self.configs.index(config)}).encode()
            cache.write_atomically(path, data)
        except OSError as e:  # the choice stays in memory
            cache.warn_unwritable(cache.cache_dir(), e)

    def run(self, *args, **kwargs):
        self.nargs = dict(zip(self.arg_names, args))
        used_cached_result = True
        key = None
        if len(self.configs) > 1:
            key = self._tuning_key(kwargs)
            if key not in self.cache:
                config = self._load_cached_choice(key)
                if config is None:
                    used_cached_result = False
                    start = time.time()
                    candidates = self.prune_configs(kwargs)
                    timings = {config: self._bench(*args, config=config, **kwargs) for config in candidates}
                    self.bench_time = time.time() - start
                    config = builtins.min(timings, key=timings.get)
                    self.configs_timings = timings
                    self._store_choice(key, config)
                self.cache[key] = config
                if self.user_pre_hook is None:  # the benchmark runs wrote to them
                    self.pre_hook({**self.nargs, **kwargs, **config.all_kwargs()}, reset_only=True)
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
            return self.fn.run(*args, **kwargs, **config.all_kwargs())
        finally:
            self.nargs = None

    def warmup(self, *args, **kwargs):
        self.nargs = dict(zip(self.arg_names, args))
        try:
            return [self.fn.warmup(*args, **kwargs, **config.all_kwargs()) for config in self.prune_configs(kwargs)]
        finally:
            self.nargs = None


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None, pre_hook=None,
             post_hook=None, warmup=None, rep=None, use_cuda_graph=False, do_bench=None, cache_results=False):
    """Decorator: pick the fastest of `configs` for each new value of `key`."""
    def decorator(fn):
        return Autotuner(fn, fn.arg_names, configs, key, reset_to_zero, restore_value, pre_hook, post_hook,
                         prune_configs_by, warmup, rep, use_cuda_graph, do_bench, cache_results)
    return decorator


class Heuristics(KernelInterface):
    def __init__(self, fn, arg_names: List[str], values: Dict[str, Callable]):
        self.fn = fn
        self.arg_names = arg_names
        self.values = values

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
