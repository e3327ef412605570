"""Triton's autotuning API: `Config`, `@autotune` and `@heuristics`.

`@autotune(configs, key)` benchmarks every config the first time it sees a
new value of the `key` arguments and reuses the fastest afterwards;
`@heuristics({"BLOCK": fn})` computes meta-parameters from the arguments.
Both wrap a JITFunction (or each other) and forward to its `run`.
"""
from __future__ import annotations

import builtins
from typing import Callable, Dict, List, Optional

from ..errors import TritiumError
from .jit import KernelInterface


class Config:
    """One choice of meta-parameters and launch options."""

    def __init__(self, kwargs: Dict, num_warps: int = 4, num_stages: int = 3, num_ctas: int = 1,
                 maxnreg: Optional[int] = None, pre_hook: Optional[Callable] = None):
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook

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


class Autotuner(KernelInterface):
    def __init__(self, fn, arg_names: List[str], configs: List[Config], key: List[str],
                 reset_to_zero=None, restore_value=None, pre_hook=None, post_hook=None,
                 prune_configs_by: Optional[Dict] = None, warmup=None, rep=None, use_cuda_graph=False,
                 do_bench=None, cache_results=False):
        if not configs:
            configs = [Config({})]
        self.fn = fn
        self.arg_names = arg_names
        self.configs = configs
        self.keys = list(key)
        self.reset_to_zero = [arg_names.index(n) for n in (reset_to_zero or [])]
        self.restore_value = [arg_names.index(n) for n in (restore_value or [])]
        self.pre_hook = pre_hook
        self.post_hook = post_hook
        self.prune_configs_by = prune_configs_by or {}
        self.warmup_ms = warmup if warmup is not None else 25
        self.rep_ms = rep if rep is not None else 100
        self._do_bench = do_bench
        self.cache: Dict = {}
        self.best_config: Optional[Config] = None
        self.configs_timings = None

    def _bench(self, args, kwargs, config: Config) -> float:
        from ..testing import do_bench
        current = dict(kwargs, **config.all_kwargs())

        def kernel_call():
            if config.pre_hook:
                config.pre_hook(dict(zip(self.arg_names, args), **current))
            for i in self.reset_to_zero:
                args[i].zero_()
            self.fn.run(*args, **current)
        bench = self._do_bench or (lambda f: do_bench(f, warmup=self.warmup_ms, rep=self.rep_ms))
        try:
            return bench(kernel_call)
        except TritiumError:
            return float("inf")

    def prune_configs(self, named_args: Dict) -> List[Config]:
        configs = self.configs
        early = self.prune_configs_by.get("early_config_prune")
        if early:
            configs = early(configs, named_args)
        model = self.prune_configs_by.get("perf_model")
        top_k = self.prune_configs_by.get("top_k")
        if model and top_k:
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = int(len(configs) * top_k)
            configs = sorted(configs, key=lambda c: model(**named_args, **c.all_kwargs()))[:top_k]
        return configs

    def run(self, *args, **kwargs):
        named = dict(zip(self.arg_names, args))
        named.update({k: v for k, v in kwargs.items() if k in self.arg_names})
        key = tuple(str(named.get(k)) if not hasattr(named.get(k), "dtype") else
                    str(named[k].dtype) for k in self.keys if k in named)
        config = self.cache.get(key)
        if config is None:
            candidates = self.prune_configs(named)
            if len(candidates) == 1:
                config = candidates[0]
            else:
                timings = {c: self._bench(list(args), {k: v for k, v in kwargs.items() if k not in ("grid",
                                          "warmup")}, c) for c in candidates}
                config = builtins.min(timings, key=timings.get)
                self.configs_timings = timings
            self.cache[key] = config
        self.best_config = config
        if config.pre_hook:
            config.pre_hook(dict(named, **config.all_kwargs()))
        return self.fn.run(*args, **kwargs, **config.all_kwargs())

    def warmup(self, *args, **kwargs):
        return [self.fn.warmup(*args, **kwargs, **c.all_kwargs()) for c in self.prune_configs(kwargs)]


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

    def run(self, *args, **kwargs):
        named = dict(zip(self.arg_names, args), **kwargs)
        for name, compute in self.values.items():
            kwargs[name] = compute(named)
            named[name] = kwargs[name]
        return self.fn.run(*args, **kwargs)

    def warmup(self, *args, **kwargs):
        named = dict(zip(self.arg_names, args), **kwargs)
        for name, compute in self.values.items():
            kwargs[name] = compute(named)
        return self.fn.warmup(*args, **kwargs)


def heuristics(values: Dict[str, Callable]):
    """Decorator: compute meta-parameters from the other arguments."""
    def decorator(fn):
        return Heuristics(fn, fn.arg_names, values)
    return decorator
