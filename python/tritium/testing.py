"""Benchmarking and checking helpers with Triton's names (triton.testing)."""
from __future__ import annotations

import statistics
from typing import Callable, List, Optional


def do_bench(fn: Callable, warmup: float = 25, rep: float = 100, grad_to_none=None,
             quantiles: Optional[List[float]] = None, return_mode: str = "mean"):
    """Runtime of `fn` in milliseconds, measured with CUDA events on the
    current stream; the L2 cache is flushed before every run."""
    import torch  # (optional, and heavy: imported when a helper that needs it runs)
    fn()
    torch.cuda.synchronize()
    cache = torch.empty(int(256e6 // 4), dtype=torch.int, device="cuda")
    try:
        times = _timed_runs(fn, cache, warmup, rep, grad_to_none)
    finally:
        # Freed here rather than with the frame: where something keeps this
        # frame alive (under compute-sanitizer something does, and autotuning
        # then held one 244 MiB buffer per benchmarked config), it holds no
        # GPU memory.
        del cache
    return _summarize(times, quantiles, return_mode)


def _timed_runs(fn, cache, warmup: float, rep: float, grad_to_none) -> List[float]:
    """do_bench's loop: an estimate from 5 runs, warmup runs, then the
    timed runs (each after flushing the L2 cache by zeroing `cache`)."""
    import torch  # (optional, and heavy: imported when a helper that needs it runs)
    start_event = torch.cuda.Event(enable_timing=True)
    end_event = torch.cuda.Event(enable_timing=True)
    start_event.record()
    for _ in range(5):
        cache.zero_()
        fn()
    end_event.record()
    torch.cuda.synchronize()
    estimate_ms = start_event.elapsed_time(end_event) / 5
    n_warmup = max(1, int(warmup / max(estimate_ms, 1e-6)))
    n_repeat = max(1, int(rep / max(estimate_ms, 1e-6)))
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(n_repeat)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(n_repeat)]
    for _ in range(n_warmup):
        fn()
    for i in range(n_repeat):
        if grad_to_none is not None:
            for x in grad_to_none:
                x.grad = None
        cache.zero_()
        starts[i].record()
        fn()
        ends[i].record()
    del cache  # (see do_bench)
    torch.cuda.synchronize()
    return [s.elapsed_time(e) for s, e in zip(starts, ends)]


def do_bench_cudagraph(fn: Callable, rep: float = 20, grad_to_none=None, quantiles: Optional[List[float]] = None,
                       return_mode: str = "mean"):
    """Runtime of `fn` in milliseconds, as Triton's do_bench_cudagraph: the
    calls are captured in one CUDA graph (on a side stream) and the graph
    is replayed; each of 10 replays gives one time per call."""
    import torch  # (optional, and heavy: imported when a helper that needs it runs)
    with torch.cuda.stream(torch.cuda.Stream()):
        fn()
        torch.cuda.synchronize()
        start_event = torch.cuda.Event(enable_timing=True)
        end_event = torch.cuda.Event(enable_timing=True)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            fn()
        torch.cuda.synchronize()
        start_event.record()
        graph.replay()
        end_event.record()
        torch.cuda.synchronize()
        n_repeat = max(1, int(rep / max(start_event.elapsed_time(end_event), 1e-6)))
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            for _ in range(n_repeat):
                if grad_to_none is not None:
                    for x in grad_to_none:
                        x.grad = None
                fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(10):
            start_event.record()
            graph.replay()
            end_event.record()
            torch.cuda.synchronize()
            times.append(start_event.elapsed_time(end_event) / n_repeat)
    return _summarize(times, quantiles, return_mode)


def _summarize(times: List[float], quantiles: Optional[List[float]], return_mode: str):
    """do_bench's answer: the requested quantiles, or one statistic."""
    if quantiles is not None:
        ordered = sorted(times)
        out = [ordered[min(len(ordered) - 1, int(q * len(ordered)))] for q in quantiles]
        return out[0] if len(out) == 1 else out
    return {"mean": statistics.fmean, "median": statistics.median, "min": min, "max": max,
            "all": lambda t: t}[return_mode](times)


def assert_close(x, y, atol=None, rtol=None, err_msg=""):
    """Asserts two tensors (or arrays, or numbers) are close."""
    import numpy as np  # (optional: imported when a helper that needs it runs)

    def to_numpy(v):
        if hasattr(v, "detach"):
            v = v.detach()
            if v.dtype.__str__() == "torch.bfloat16":
                v = v.float()
            return v.cpu().numpy()
        return np.asarray(v)
    a, b = to_numpy(x), to_numpy(y)
    atol = 1e-2 if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    np.testing.assert_allclose(a, b, atol=atol, rtol=rtol, err_msg=err_msg, equal_nan=True)


class Benchmark:
    """Triton's benchmark description for perf_report."""

    def __init__(self, x_names, x_vals, line_arg, line_vals, line_names, plot_name, args=None, xlabel="",
                 ylabel="", x_log=False, y_log=False, styles=None):
        self.x_names, self.x_vals = x_names, x_vals
        self.line_arg, self.line_vals, self.line_names = line_arg, line_vals, line_names
        self.plot_name, self.args = plot_name, args or {}
        self.xlabel, self.ylabel = xlabel, ylabel


def perf_report(benchmarks):
    """Decorator: `fn.run(print_data=True)` runs every configuration and
    prints a table (no plotting)."""
    benchmarks = benchmarks if isinstance(benchmarks, list) else [benchmarks]

    def decorator(fn):
        def run(show_plots=False, print_data=True, save_path=None, **kwargs):
            for bench in benchmarks:
                rows = []
                for x in bench.x_vals:
                    xs = x if isinstance(x, (list, tuple)) else [x] * len(bench.x_names)
                    row = list(xs)
                    for line in bench.line_vals:
                        args = dict(zip(bench.x_names, xs), **{bench.line_arg: line}, **bench.args, **kwargs)
                        result = fn(**args)
                        row.append(result[0] if isinstance(result, tuple) else result)
                    rows.append(row)
                if print_data:
                    print(bench.plot_name)
                    print("\t".join(list(bench.x_names) + list(bench.line_names)))
                    for row in rows:
                        print("\t".join(f"{v:.3f}" if isinstance(v, float) else str(v) for v in row))
        fn.run = run
        return fn
    return decorator
