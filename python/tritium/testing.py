"""Benchmarking and checking helpers with Triton's names (triton.testing),
and the device's peak figures that performance models read."""
from __future__ import annotations

import functools
import statistics
from typing import Callable, Dict, List, Optional


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
    """Triton's benchmark description for perf_report: the function runs
    once per value of `x_vals` (given to the arguments `x_names`) and per
    value of `line_vals` (given to `line_arg`), with `args` fixed; each
    line is drawn with the name in `line_names` and, when `styles` is given,
    its (color, line style)."""

    def __init__(self, x_names, x_vals, line_arg, line_vals, line_names, plot_name, args=None, xlabel="",
                 ylabel="", x_log=False, y_log=False, styles=None):
        self.x_names, self.x_vals = x_names, x_vals
        self.line_arg, self.line_vals, self.line_names = line_arg, line_vals, line_names
        self.plot_name, self.args = plot_name, args or {}
        self.xlabel, self.ylabel = xlabel, ylabel
        self.x_log, self.y_log, self.styles = x_log, y_log, styles


class BenchmarkTable:
    """One benchmark's results where pandas is not installed (with it,
    Mark.run(return_df=True) returns pandas DataFrames, as Triton does):
    `columns`, `rows`, and `table[column]` -> that column's values."""

    def __init__(self, columns: List[str], rows: List[list]):
        self.columns, self.rows = list(columns), [list(r) for r in rows]

    def __getitem__(self, column: str) -> list:
        k = self.columns.index(column)
        return [row[k] for row in self.rows]

    def __len__(self) -> int:
        return len(self.rows)

    def to_string(self) -> str:
        """The table as pandas prints it: a row index, right-aligned columns."""
        cells = [[""] + [str(c) for c in self.columns]]
        formatted = [_format_column([row[k] for row in self.rows]) for k in range(len(self.columns))]
        for i in range(len(self.rows)):
            cells.append([str(i)] + [column[i] for column in formatted])
        widths = [max(len(row[k]) for row in cells) for k in range(len(cells[0]))]
        lines = []
        for row in cells:
            lines.append(row[0].ljust(widths[0]) + "".join("  " + c.rjust(w) for c, w in zip(row[1:], widths[1:])))
        return "\n".join(line.rstrip() for line in lines)

    def to_csv(self, path: str, precision: int = 6) -> None:
        import csv  # (light, but needed only here)
        with open(path, "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(self.columns)
            for row in self.rows:
                writer.writerow(["" if v is None else f"{v:.{precision}f}" if isinstance(v, float) else v
                                 for v in row])


def _format_column(values: list) -> List[str]:
    """A column's values as text: floats with one number of decimals (the
    most any needs at 6 significant digits, at most 6), as pandas does."""
    floats = [v for v in values if isinstance(v, float)]
    decimals = 0
    for v in floats:
        text = f"{v:.6g}"
        if "e" not in text and "." in text:
            decimals = max(decimals, len(text.split(".")[1]))
    decimals = min(max(decimals, 1), 6)
    return ["NaN" if v is None else f"{v:.{decimals}f}" if isinstance(v, float) else str(v) for v in values]


class Mark:
    """What perf_report makes of a function: `mark.run(...)` runs its
    benchmarks; calling the mark calls the function."""

    def __init__(self, fn, benchmarks):
        self.fn = fn
        self.benchmarks = benchmarks

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)

    def _run(self, bench: Benchmark, save_path: str, show_plots: bool, print_data: bool, diff_col=False,
             save_precision=6, **kwargs):
        import os  # (light, but needed only here)
        x_names = list(bench.x_names)
        mean_labels = [f"{name} ({bench.ylabel})" for name in bench.line_names]
        rows, lows, highs = [], [], []
        for x in bench.x_vals:
            xs = list(x) if isinstance(x, (list, tuple)) else [x] * len(x_names)
            if len(xs) != len(x_names):
                raise ValueError(f"Expected {len(x_names)} values, got {x}")
            means, mins, maxs = [], [], []
            for y in bench.line_vals:
                result = self.fn(**dict(zip(x_names, xs)), **{bench.line_arg: y}, **bench.args, **kwargs)
                if isinstance(result, (tuple, list)) and len(result) == 3:
                    mean, low, high = result
                else:
                    mean, low, high = result, None, None
                means.append(mean)
                mins.append(low)
                maxs.append(high)
            rows.append(xs + means)
            lows.append(mins)
            highs.append(maxs)
        columns = x_names + mean_labels
        if diff_col and len(columns) == 2:
            columns.append("Diff")
            for row in rows:
                row.append(None if row[1] is None or row[0] is None else row[1] - row[0])
        table = BenchmarkTable(columns, rows)
        if save_path:
            os.makedirs(save_path, exist_ok=True)
        if bench.plot_name and (show_plots or save_path):
            _plot(bench, rows, lows, highs, mean_labels,
                  os.path.join(save_path, f"{bench.plot_name}.png") if save_path else None, show_plots)
        if print_data:
            print(bench.plot_name + ":")
            print(table.to_string())
        if save_path:
            table.to_csv(os.path.join(save_path, f"{bench.plot_name}.csv"), save_precision)
        return table

    def run(self, show_plots=False, print_data=False, save_path="", return_df=False, **kwargs):
        """Runs every benchmark: prints its table (print_data), draws its
        lines with matplotlib (show_plots shows them; save_path saves
        <plot_name>.png, <plot_name>.csv and results.html there).  With
        return_df, returns the tables (pandas DataFrames where pandas is
        installed), one per benchmark, or the one table of a single one."""
        import os  # (light, but needed only here)
        single = isinstance(self.benchmarks, Benchmark)
        benchmarks = [self.benchmarks] if single else list(self.benchmarks)
        tables = []
        try:
            for bench in benchmarks:
                tables.append(self._run(bench, save_path, show_plots, print_data, **kwargs))
        finally:
            if save_path:
                os.makedirs(save_path, exist_ok=True)
                with open(os.path.join(save_path, "results.html"), "w") as html:
                    html.write("<html><body>\n")
                    for bench in benchmarks[:len(tables)]:
                        html.write(f"<image src=\"{bench.plot_name}.png\"/>\n")
                    html.write("</body></html>\n")
        if not return_df:
            return None
        try:
            import pandas as pd  # (optional)
            tables = [pd.DataFrame(t.rows, columns=t.columns) for t in tables]
        except ImportError:
            pass
        return tables[0] if single else tables


def _plot(bench: Benchmark, rows, lows, highs, mean_labels, png_path: Optional[str], show: bool) -> None:
    """Draws a benchmark's lines over its first x argument, with the band
    between each line's minima and maxima where the function returned them."""
    try:
        from matplotlib.figure import Figure  # (optional, and heavy)
    except ImportError:
        import warnings
        warnings.warn(f"matplotlib is not installed: no plot of '{bench.plot_name}'", stacklevel=3)
        return
    if show:
        import matplotlib.pyplot as plt
        figure = plt.figure()
    else:
        figure = Figure()  # (no pyplot, so no GUI backend is chosen)
    ax = figure.add_subplot()
    xs = [row[0] for row in rows]
    n_x = len(bench.x_names)
    for i, label in enumerate(mean_labels):
        color = bench.styles[i][0] if bench.styles else None
        style = bench.styles[i][1] if bench.styles else None
        ax.plot(xs, [row[n_x + i] for row in rows], label=label, color=color, ls=style)
        low, high = [r[i] for r in lows], [r[i] for r in highs]
        if all(v is not None for v in low + high) and rows:
            ax.fill_between(xs, [float(v) for v in low], [float(v) for v in high], alpha=0.15, color=color)
    ax.legend()
    ax.set_xlabel(bench.xlabel or bench.x_names[0])
    ax.set_ylabel(bench.ylabel)
    ax.set_xscale("log" if bench.x_log else "linear")
    ax.set_yscale("log" if bench.y_log else "linear")
    if png_path:
        figure.savefig(png_path)
    if show:
        plt.show()
        plt.close(figure)


def perf_report(benchmarks):
    """Decorator (Triton's): the function becomes a Mark, whose `.run(...)`
    runs the benchmarks (one Benchmark or a list), prints their tables and
    plots them (see Mark.run)."""
    return lambda fn: Mark(fn, benchmarks)


# ---- the device's peak figures (Triton's helpers for performance models) ----

def nvsmi(attrs: List[str]) -> List[int]:
    """`nvidia-smi --query-gpu=<attrs>` of GPU 0, as integers (e.g.
    nvsmi(["clocks.max.sm"]) is the highest SM clock in MHz)."""
    import subprocess
    out = subprocess.check_output(["nvidia-smi", "-i", "0", "--query-gpu=" + ",".join(attrs),
                                   "--format=csv,noheader,nounits"])
    return [int(x) for x in out.decode().split(",")]


# CUdevice_attribute numbers (cuda.h) of the figures below
_CU_DEVICE_ATTRIBUTES = {"multiprocessor_count": 16, "mem_clock_rate": 36, "mem_bus_width": 37, "major": 75,
                         "minor": 76}


@functools.lru_cache(maxsize=None)
def _device_attributes(device: int) -> Dict[str, int]:
    """The device's SM count, peak memory clock (kHz), memory bus width
    (bits) and compute capability (major, minor), from the CUDA driver."""
    import ctypes
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError as e:
        raise RuntimeError(f"cannot load the CUDA driver (libcuda.so.1): {e}") from None
    handle, value = ctypes.c_int(), ctypes.c_int()
    if cuda.cuInit(0) != 0 or cuda.cuDeviceGet(ctypes.byref(handle), int(device)) != 0:
        raise RuntimeError(f"CUDA device {device} is not available")
    out = {}
    for name, attribute in _CU_DEVICE_ATTRIBUTES.items():
        if cuda.cuDeviceGetAttribute(ctypes.byref(value), attribute, handle) != 0:
            raise RuntimeError(f"the CUDA driver does not report attribute {attribute} ({name}) of device {device}")
        out[name] = value.value
    return out


def _device_index(device) -> int:
    """`device`, or the current CUDA device where it is None or 0 (as
    Triton's `if not device`); device 0 without torch."""
    if device:
        return int(getattr(device, "index", device))
    try:
        import torch  # (optional, and heavy: imported when a helper that needs it runs)
    except ImportError:
        return 0
    return torch.cuda.current_device()


def _dtype_name(dtype) -> str:
    """"float16" for torch.float16, "fp16" for tl.float16."""
    name = str(dtype)
    return name[len("torch."):] if name.startswith("torch.") else name


# tensor-core operations per sub-core (a quarter of an SM) per clock, sm_80 and later
_TENSORCORE_OPS = ((256, {"float32", "int32", "fp32"}),
                   (512, {"float16", "bfloat16", "int16", "fp16", "bf16"}),
                   (1024, {"int8", "fp8e4nv", "fp8e4b15", "fp8e5", "float8_e4m3fn", "float8_e5m2"}))


def get_dram_gbps(device=None) -> float:
    """The device's DRAM bandwidth in GB/s: memory clock (kHz) x bus width
    (bits) x 2 (double data rate) / 8 bits per byte."""
    props = _device_attributes(_device_index(device))
    return props["mem_clock_rate"] * props["mem_bus_width"] * 2 / 1e6 / 8


def get_max_tensorcore_tflops(dtype, clock_rate, device=None) -> float:
    """Peak tensor-core throughput in TFLOPS (TOPS for integers) at SM clock
    `clock_rate` (kHz) for operands of `dtype` (a torch or tl dtype): 4
    sub-cores per SM, 256 (fp32/tf32), 512 (16-bit) or 1024 (8-bit)
    operations per sub-core per clock from sm_80 on, 256 (fp16 only) before."""
    props = _device_attributes(_device_index(device))
    num_subcores = props["multiprocessor_count"] * 4
    name = _dtype_name(dtype)
    if props["major"] < 8:
        if name not in ("float16", "fp16"):
            raise AssertionError(f"tensor cores before sm_80 take float16, not {dtype}")
        ops_per_sub_core = 256  # 2 4x4x4 tensor cores
    else:
        ops_per_sub_core = next((ops for ops, names in _TENSORCORE_OPS if name in names), None)
        if ops_per_sub_core is None:
            raise RuntimeError("dtype not supported")
    return num_subcores * clock_rate * ops_per_sub_core * 1e-9


def get_max_simd_tflops(dtype, clock_rate, device=None) -> float:
    """Peak throughput of the SIMD (non-tensor-core) units in TFLOPS at SM
    clock `clock_rate` (kHz): 4 sub-cores per SM, 32 fp32 or 64 16-bit
    operations per sub-core per clock (bfloat16 from sm_80 on)."""
    props = _device_attributes(_device_index(device))
    num_subcores = props["multiprocessor_count"] * 4
    name = _dtype_name(dtype)
    if name in ("float32", "fp32"):
        ops_per_sub_core = 32
    elif name in ("float16", "fp16") or (props["major"] >= 8 and name in ("bfloat16", "bf16")):
        ops_per_sub_core = 64
    else:
        raise RuntimeError("dtype not supported")
    return num_subcores * clock_rate * ops_per_sub_core * 1e-9
