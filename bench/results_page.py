#!/usr/bin/env python3
"""Benchmark results: the JSON record each bench script writes at the end of
a run, and the page of current figures (bench/RESULTS.md) made from them.

A record is one file per script, `<script>.json`, written to
$TRITIUM_RESULTS_DIR when that is set, else to bench/results/: the rows the
script printed (work, Tritium's figure, Triton's, the reference library's,
unit, ratio, and columns such as the configs chosen), the date, the GPU
(torch.cuda.get_device_name), the commit, the package versions and the
command line.  A run that measured less than the whole bench (`--quick`, or
only some cases) writes `<script>.partial.json`, which the page ignores.

    from results_page import record
    record("bench_matmul", rows, reference="cuBLAS")

    python3 bench/results_page.py update [DIR]

`update` copies the records found in DIR (default bench/results) into
bench/results/ (a record older than the one there is skipped), rewrites
bench/RESULTS.md from bench/results/ (one section per bench, then the
hand-maintained bench/results/triton_suite.md and library_corpus.md as they
are), and moves each
section it replaces, or drops, to bench/results/archive.md under its date,
newest first.  With unchanged records it changes neither file.

Ratio: Tritium's figure over Triton's for throughputs (GB/s, TFLOP/s), and
Triton's time over Tritium's for times (ms, us); above 1 Tritium is faster.

Standard library only; torch is consulted only when the calling script has
already imported it.
"""
import datetime
import hashlib
import json
import math
import os
import re
import shlex
import statistics
import subprocess
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
STORE = os.path.join(HERE, "results")
PAGE = os.path.join(HERE, "RESULTS.md")
ARCHIVE = os.path.join(STORE, "archive.md")
# Sections kept as Markdown files and copied into the page as they are:
# Triton's upstream tests (scripts/triton_suite_table.py) and the public
# libraries' tests (scripts/library_corpus.sh writes its table.md).
HAND_SECTIONS = [os.path.join(STORE, "triton_suite.md"), os.path.join(STORE, "library_corpus.md")]

# The benches in page order: script, title, what the figures are.
BENCHES = [
    ("bench_elementwise", "Element-wise kernels",
     "Same kernel sources for both compilers (`bench/kernels/tutorials.py`: tutorial 01's vector add; "
     "`bench/kernels/elementwise.py`), in one process.  Bandwidths count "
     "each input read once and each output written once: the median of 5 rounds with the backends interleaved, "
     "each a median of CUDA-event timings with the L2 flushed (`bench/bench_timing.py`).  First call: compile, "
     "load, launch and synchronize with empty caches.  Host time per launch: a tiny kernel, the median of 9 "
     "interleaved rounds of 2,000 launches.  torch: `torch.add`, the eager chain, `copy_(src.t())`, "
     "`x.add_(1)`."),
    ("bench_reductions", "Reductions and scans",
     "Same kernel sources for both compilers (`bench/kernels/tutorials.py`: tutorial 02's softmax and tutorial "
     "05's layer norm forward; `bench/kernels/reductions.py`: the softmax with the bf16 row upcast to fp32 "
     "after the load, row argmax, row sums over a loop of 32 x 128 tiles, row cumsum), one program per row (row sums: 32 rows), the tutorials' launch "
     "heuristics.  GB/s = bytes read and written / time, the median of 5 interleaved rounds."),
    ("bench_matmul", "Matmul, tutorial 03",
     "Triton's tutorial-03 kernel on pointers (`bench/kernels/tutorials.py`: grouped program order, fp32 "
     "accumulator, output in the input type, fp16 for fp8), the same source for both compilers.  Each compiler "
     "keeps its fastest config of the tutorial's list; those and cuBLAS (`torch.matmul`; `torch._scaled_mm` "
     "with unit scales for fp8, B column-major) are timed in 6 rounds whose order rotates, with the L2 flushed, "
     "and the median round counts.  TFLOP/s = 2 M N K / time.  Cold compile: the first call of a config no "
     "process has compiled, in a warm process.  Configs: (BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, stages, warps)."),
    ("bench_persistent_matmul", "Tensor-descriptor matmul, tutorial 09",
     "Triton's tutorial-09 kernels on host tensor descriptors (`bench/kernels/persistent_matmul.py`, fp16, B "
     "stored N x K): `matmul_tma` (a program per tile), `matmul_tma_persistent` (a program per SM striding over "
     "the tiles, flattened), `matmul_tma_persistent_ws` (the same tile loop marked `warp_specialize`).  Each "
     "compiler's config by the median of 3 rounds, then 15 rounds whose order rotates; the median round "
     "counts, and `rounds` is the spread of the per-round ratios.  cuBLAS: `torch.matmul(a, b.T)`.  "
     "Configs: (BLOCK_M, BLOCK_N, BLOCK_K, stages, warps)."),
    ("bench_attention", "Attention forward, tutorial 06",
     "Tutorial 06's forward (`bench/kernels/attention.py`) on plain pointers (`attn_fwd`), host tensor "
     "descriptors (`attn_fwd_tma`) and block pointers (`attn_fwd_block_ptr`), fp16, Z=4 H=32 N=4096; `best` is "
     "each compiler's faster kernel.  Configs by the median of 3 rounds, then 6 rounds whose order rotates.  "
     "TFLOP/s = 4 Z H N^2 D / time, halved for causal.  cuDNN and FlashAttention-2: torch SDPA's backends.  "
     "Configs: (BLOCK_M, BLOCK_N, stages, warps)."),
    ("bench_attention_bwd", "Attention backward, tutorial 06",
     "Tutorial 06's backward (`bench/kernels/attention_bwd.py`: a preprocess, then dK, dV and dQ in one kernel) "
     "on plain pointers (`attn_bwd`), block pointers (`attn_bwd_block_ptr`) and tensor descriptors made in the "
     "kernel (`attn_bwd_tma`), fp16, Z=4 H=32 N=4096, the same O and log-sum-exp for both compilers; `best` is "
     "each compiler's faster kernel; 6 rounds whose order rotates.  TFLOP/s = 2.5 x 4 Z H N^2 D / time, halved "
     "for causal.  cuDNN and FlashAttention-2: torch SDPA's backward.  Configs: (BLOCK_M1, BLOCK_N1, BLOCK_M2, "
     "BLOCK_N2, stages, warps)."),
    ("bench_inductor_mm", "Inductor's mm template, config by config",
     "The matmul template torch.compile's max-autotune generates (`bench/kernels/inductor_mm.py`: sizes and "
     "strides baked in, grouped program order, `acc += tl.dot(a, b, allow_tf32=...)`), every config of "
     "Inductor's mm list (PyTorch 2.11), fp32 with TF32 off (CUDA-core dots, 2048^3), fp32 with TF32 and bf16 "
     "(4096^3); each config timed under both compilers in 2 interleaved rounds, the better round counting.  "
     "Compile: the config's first call in a warm process.  Configs: (BLOCK_M, BLOCK_N, BLOCK_K, stages, "
     "warps)."),
    ("bench_corpus", "Performance corpus, item by item",
     "Kernels the compiler was not tuned on, every config timed under both compilers in one run "
     "(`bench/bench_corpus.py`; attention at Z=4 H=32 N=4096): a flash-attention forward written as users "
     "write it (`attention`: `bench/kernels/attention_one_loop.py`, plain pointers, one loop, causal by "
     "`tl.where`, fp16 and bf16, head dims 64 and 128); tutorial 06's forward and backward on plain pointers, "
     "block pointers and tensor descriptors (`attention_forms`, `attention_bwd`); tutorial 03 over its config "
     "lists (fp16, bf16, fp8 at 4096^3); its column-major, batched, split-K and grouped (MoE-style) forms "
     "(`matmul_forms`); Inductor's mm template over Inductor's configs (fp32, TF32, bf16); tutorial 09's "
     "TMA matmuls (`persistent_matmul`); tutorials 01, 02, 05's forward and backward and the libdevice asin "
     "over sizes.  Per item the better of two interleaved do_bench medians; ratio Tritium / Triton per item; "
     "compile: the item's first call in a warm process.  Configs: attention forward (BLOCK_M, BLOCK_N, "
     "stages, warps); backward (BLOCK_M1, BLOCK_N1, BLOCK_M2, BLOCK_N2, stages, warps); tutorial 03 "
     "(BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, stages, warps), split-K with SPLIT_K and grouped with programs "
     "per SM in GROUP_M's place; mm template and TMA matmuls (BLOCK_M, BLOCK_N, BLOCK_K, stages, warps).  "
     "`tritium spills` is ptxas's bytes of spill stores and `triton spills` Triton's `n_spills` (32-bit "
     "words): the two columns are not comparable."),
    ("bench_inductor_kernels", "Kernels torch.compile generates, kernel by kernel",
     "The Triton kernels Inductor generates for the model zoo (`bench/bench_inductor_kernels.py collect`: "
     "`bench/torch_zoo.py`'s bench cases under Triton with `TORCHINDUCTOR_BENCHMARK_KERNEL=1`; pointwise, "
     "reduction and persistent-reduction kernels with the configs Inductor's heuristics give them), each "
     "loaded in one warm process per compiler with empty caches.  Compile: Inductor's own precompile of the "
     "kernel (every config compiled, launchers built).  Time: Inductor's benchmark_all_configs, config by "
     "config, on the same seeded inputs, the lowest of three rounds on inputs allocated anew; ratio = "
     "Triton's time / Tritium's.  Configs: the block sizes, warps (w) and stages (s)."),
    ("bench_library_kernels", "Public libraries' kernels, config by config",
     "Kernels of public Triton libraries (`bench/bench_library_kernels.py`: Mamba-2's chunked scan, RMSNorm, "
     "gated RMSNorm and decoding state update; flash-linear-attention's chunked gated linear attention and delta "
     "rule; gemlite's 4-bit quantized linear layer, GEMM and GEMV; attorch's LayerNorm, cross-entropy loss and "
     "Linear with a GELU epilogue; sources in the ignored `upstream/libraries/`).  "
     "Each operation runs once with every kernel launch recorded; each launch is replayed once per config of the "
     "kernel's own autotune list as its pruner leaves it for that launch, in one process per compiler with empty "
     "caches.  Time: the lower of two rounds, each the median of CUDA-event timings with the "
     "L2 flushed; ratio = Triton's time / Tritium's.  Compile: a config's first replay in a warm process.  "
     "check: the tensor arguments' sums after one replay, compared between the compilers."),
    ("bench_torch_compile", "torch.compile on the model zoo",
     "`torch.compile` of `bench/torch_zoo.py`'s bench set (every model's inference in fp32, and a training "
     "step of mlp, gpt2 and resnet18) under each compiler, each case in a fresh process with fresh caches "
     "and Inductor's default settings, one case at a time.  Cold s: the first compiled call (or step), "
     "compile included; ratio = Triton's cold time / Tritium's.  compile s: Inductor's timers of Triton-kernel "
     "compilation (`async_compile.precompile` + `async_compile.wait`).  warm ms: a compiled call once warm, "
     "the lowest of the medians of five rounds of 20 (host-bound on these models: rounds of one case can "
     "differ by 1.5x); warm_ratio = Triton's / Tritium's.  err: max |compiled - eager| / max |eager| "
     "(training: loss / gradients / weights after the optimizer step)."),
    ("bench_torch_compile_autotune", "torch.compile under max-autotune",
     "`torch.compile(mode=\"max-autotune-no-cudagraphs\")` of `bench/torch_zoo.py`'s autotune set (the "
     "inference of mlp, gpt2 and resnet18 in fp32) under each compiler, as `bench_torch_compile` runs its "
     "bench set: a fresh process with fresh caches per case, Inductor's default settings otherwise, one case "
     "at a time.  Inductor compiles and times its matmul templates' configs (on a pool of threads) and tunes "
     "the other kernels' configs by coordinate descent in the first call.  Columns as in that bench."),
    ("bench_cpu", "The CPU target",
     "Tritium's CPU target (`target=\"cpu\"`: kernels launched with numpy arrays run compiled on the host's "
     "threads) against Triton's interpreter (`TRITON_INTERPRET=1`, the same kernel sources, on torch CPU "
     "tensors) and torch on the CPU (numpy where torch is not installed), in one run on one host: tutorial "
     "01's vector add, tutorial 02's softmax, tutorial 03's matmul in fp32.  The interpreter runs at the small "
     "sizes only; `error` marks a row a compiler failed (the notes give the error).  Best of 3 wall-clock runs "
     "after a first (compiling) call; the copy row is the host's memory bandwidth."),
    ("compile_ttir", "Compile time to Triton IR",
     "Tritium alone, no GPU: each tutorial kernel compiled to Triton IR once cold, then 20 more times with the "
     "disk cache bypassed.  `frontend` (Python AST to TTIR text) and `native` (the C++ parse and TTIR "
     "pipeline) split the median; `cached`: a compile served from the disk cache."),
]
TITLES = {script: title for script, title, _ in BENCHES}
# Records named other than the bench file that writes them.
SOURCES = {"bench_torch_compile_autotune": "bench_torch_compile.py --cases autotune"}
ABOUT = {script: about for script, _, about in BENCHES}
ORDER = [script for script, _, _ in BENCHES]

# Command-line flags of the benches that measure less than the whole bench.
PARTIAL_FLAGS = ("--quick", "--cases", "--kernels")
THROUGHPUT_UNITS = ("GB/s", "TFLOP/s")
TIME_UNITS = ("ms", "us", "s")
HEADERS = {"work": "work", "kernel": "kernel", "tritium": "Tritium", "triton": "Triton", "unit": "unit",
           "ratio": "Tritium / Triton", "config": "configs: Tritium / Triton", "rounds": "rounds"}


# ----------------------------------------------------------------------------
# Writing a record (called by the bench scripts)

def ratio(tritium, triton, unit):
    """Tritium's figure over Triton's for a throughput, Triton's over
    Tritium's for a time; None when either is missing or zero."""
    if not tritium or not triton:
        return None
    if unit in TIME_UNITS:
        return triton / tritium
    return tritium / triton


def labelled_rows(rows, reference="torch"):
    """Record rows from the (label, {backend: (value, correct) or None})
    pairs that bench_elementwise.py and bench_reductions.py print; the unit
    is the label's last parenthesis, e.g. "softmax fp32 8192x1024 (GB/s)"."""
    out = []
    for label, res in rows:
        match = re.match(r"^(.*?)\s*\(([^()]*)\)\s*$", label)
        work, unit = (match.group(1), match.group(2)) if match else (label, "")
        row = {"work": work, "unit": unit}
        wrong, failed = [], []
        for name, key in (("tritium", "tritium"), ("triton", "triton"), (reference, "reference")):
            if name not in res:
                continue
            value = res[name]
            if value is None:
                failed.append(key)
                continue
            if isinstance(value, (tuple, list)):
                value, ok = value[0], value[1]
                if not ok:
                    wrong.append(key)
            row[key] = value
        row["ratio"] = ratio(row.get("tritium"), row.get("triton"), unit)
        if wrong:
            row["wrong"] = wrong
        if failed:
            row["failed"] = failed
        out.append(row)
    return out


def _config(chosen, tritium_key, triton_key):
    t, r = chosen.get(tritium_key), chosen.get(triton_key)
    if t is None and r is None:
        return None
    show = lambda c: "-" if c is None else "(" + ", ".join(str(x) for x in c) + ")"  # noqa: E731
    return f"{show(t)} / {show(r)}"


def case_rows(measured, unit="TFLOP/s", reference=None, others=(), kernels=None, best=False):
    """Record rows from (label, figures, chosen) per case, as the GPU benches
    hold them: `figures` maps "tritium", "triton" (or "tritium KERNEL",
    "triton KERNEL" when `kernels` are given), `reference` and `others` to a
    figure or to a list of per-round figures (then the median counts and
    `rounds` gives the spread of the per-round ratios); `chosen` maps the
    same backend keys to their configs.  `best`: a row per case with each
    compiler's best kernel."""
    def value(v):
        return statistics.median(v) if isinstance(v, (list, tuple)) and v else (v if v else None)

    out = []
    for label, figures, chosen in measured:
        common = {"unit": unit}
        if reference:
            common["reference"] = value(figures.get(reference))
        for other in others:
            common[other] = value(figures.get(other))
        for kernel in (kernels or [None]) + (["best"] if best and kernels else []):
            row = {"work": label}
            if kernel is None:
                tk, rk = "tritium", "triton"
            else:
                row["kernel"] = kernel
                tk, rk = f"tritium {kernel}", f"triton {kernel}"
            if kernel == "best":
                row["tritium"] = max((value(v) for k, v in figures.items() if k.startswith("tritium ") and value(v)),
                                     default=None)
                row["triton"] = max((value(v) for k, v in figures.items() if k.startswith("triton ") and value(v)),
                                    default=None)
            else:
                row["tritium"], row["triton"] = value(figures.get(tk)), value(figures.get(rk))
            row.update(common)
            row["ratio"] = ratio(row["tritium"], row["triton"], unit)
            t_rounds, r_rounds = figures.get(tk), figures.get(rk)
            if isinstance(t_rounds, (list, tuple)) and isinstance(r_rounds, (list, tuple)) and t_rounds and r_rounds:
                per_round = sorted(a / b for a, b in zip(t_rounds, r_rounds) if b)
                if per_round:
                    row["rounds"] = f"{per_round[0]:.3f}..{per_round[-1]:.3f}"
            if kernel != "best":
                config = _config(chosen, tk, rk)
                if config:
                    row["config"] = config
            out.append(row)
    return out


def _git(*args):
    try:
        done = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def _commit():
    """(short commit, whether tracked files differ from it), from git or
    $TRITIUM_COMMIT; (None, None) when neither is there."""
    commit = _git("rev-parse", "--short=7", "HEAD")
    if commit:
        status = _git("status", "--porcelain", "--untracked-files=no")
        return commit, bool(status) if status is not None else None
    return os.environ.get("TRITIUM_COMMIT") or None, None


def _gpu():
    torch = sys.modules.get("torch")
    try:
        if torch is not None and torch.cuda.is_available():
            return torch.cuda.get_device_name()
    except Exception:  # noqa: BLE001 - a record without the GPU's name is still a record
        pass
    return None


def _cpu():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return f"{line.split(':', 1)[1].strip()}, {os.cpu_count()} cores"
    except OSError:
        pass
    return None


def _versions():
    versions = {}
    tritium = sys.modules.get("tritium")
    for name in ("torch", "triton", "tritium"):
        module = sys.modules.get(name)
        if module is None or (name == "triton" and module is tritium):
            continue
        version = getattr(module, "__tritium_version__", None) if name == "tritium" else None
        version = version or getattr(module, "__version__", None)
        if version:
            versions[name] = str(version)
    return versions


def _command(argv):
    script = argv[0] if argv else ""
    if script and os.path.isabs(script):
        try:
            script = os.path.relpath(script, REPO)
        except ValueError:
            pass
    elif script:
        script = os.path.relpath(os.path.abspath(script), REPO)
    return shlex.join(["python3", script, *argv[1:]])


def _clean(value):
    """JSON-safe copy: NaN and infinities become None, tuples lists."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


def record(script, rows, reference=None, headers=None, digits=None, notes=(), partial=None, directory=None,
           measured=None):
    """Write the record of this run of `script` and return its path (None
    when it could not be written; the reason goes to stderr, the run goes
    on).  `rows`: dicts with "work", "tritium", "triton", "reference",
    "unit", "ratio" and any further columns; `reference`: the name of the
    reference column (torch, cuBLAS, cuDNN); `headers`: column titles that
    differ from the defaults; `digits`: decimals per column where not 1
    (3 for the ratio); `partial`: why the run does not stand for the
    whole bench (PARTIAL_FLAGS are detected); `measured`: where and when the
    rows were measured ("date", "time", "gpu", "cpu", "commit", "modified",
    "versions"), for rows joined from records of other runs."""
    try:
        argv = list(sys.argv)
        if partial is None:
            partial = " ".join(flag for flag in PARTIAL_FLAGS if flag in argv) or None
        commit, modified = _commit()
        data = {
            "script": script,
            "title": TITLES.get(script, script),
            "date": datetime.date.today().isoformat(),
            "time": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "gpu": _gpu(),
            "cpu": _cpu(),
            "commit": commit,
            "modified": modified,
            "versions": _versions(),
            "command": _command(argv),
            "reference": reference,
            "headers": dict(headers or {}),
            "digits": dict(digits or {}),
            "rows": list(rows),
            "notes": list(notes),
        }
        for key, value in (measured or {}).items():
            data[key] = value
        if partial:
            data["partial"] = partial
        directory = directory or os.environ.get("TRITIUM_RESULTS_DIR") or STORE
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, script + (".partial" if partial else "") + ".json")
        _write(path, json.dumps(_clean(data), indent=1) + "\n")
        print(f"results: {path}", file=sys.stderr)
        return path
    except Exception as e:  # noqa: BLE001 - the figures are printed already; a record is a copy of them
        print(f"results: no record written for {script}: {type(e).__name__}: {e}", file=sys.stderr)
        return None


def _write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


# ----------------------------------------------------------------------------
# The page

def load_records(directory):
    """{script: record} of the whole-bench records (`<script>.json`) in
    `directory`."""
    records = {}
    if not os.path.isdir(directory):
        return records
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".json") or name.count(".") != 1:
            continue
        path = os.path.join(directory, name)
        try:
            with open(path) as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            print(f"results: skipped {path}: {e}", file=sys.stderr)
            continue
        if isinstance(data, dict) and data.get("script") and isinstance(data.get("rows"), list) \
                and not data.get("partial"):
            records[data["script"]] = data
    return records


def digest(data):
    return hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()[:12]


def _number(value, column, digits):
    if value is None:
        return "-"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int):
        return str(value)
    return f"{value:.{digits.get(column, 3 if column == 'ratio' else 1)}f}"


def _cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(data):
    """The record's rows as a markdown table; columns no row fills are left out."""
    rows = data["rows"]
    headers = dict(HEADERS, reference=data.get("reference") or "reference")
    headers.update(data.get("headers") or {})
    skip = {"wrong", "failed"}
    extra = []
    for row in rows:
        for key in row:
            if key not in HEADERS and key not in ("reference",) and key not in skip and key not in extra:
                extra.append(key)
    numeric = [k for k in extra if any(isinstance(r.get(k), (int, float)) for r in rows)]
    textual = [k for k in extra if k not in numeric]
    columns = ["work", "kernel", "tritium", "triton", "reference"] + numeric + ["unit", "ratio", "config",
                                                                               "rounds"] + textual
    columns = [c for c in columns if any(r.get(c) is not None or c in (r.get("failed") or []) for r in rows)]
    lines = ["| " + " | ".join(_cell(headers.get(c, c)) for c in columns) + " |",
             "|" + "---|" * len(columns)]
    for row in rows:
        cells = []
        for c in columns:
            text = _number(row.get(c), c, data.get("digits") or {})
            if c in ("tritium", "triton", "reference"):
                if c in (row.get("wrong") or []):
                    text += " (wrong)"
                if c in (row.get("failed") or []):
                    text = "failed"
            cells.append(_cell(text))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _where(data):
    where = data.get("gpu") or data.get("cpu") or "no GPU"
    if data.get("commit"):
        where += f", commit {data['commit']}" + (" with local changes" if data.get("modified") else "")
    return where


def section(data):
    """The page section of one record: a marker line (what `update` reads
    back), heading, description, the line with date, GPU and commit, then
    the archivable part: command, table, notes."""
    script = data["script"]
    meta = {"script": script, "digest": digest(data), "date": data.get("date"), "where": _where(data),
            "title": data.get("title") or TITLES.get(script, script)}
    lines = [f"<!-- results-section {json.dumps(meta, sort_keys=True)} -->",
             f"## {meta['title']}, `bench/{SOURCES.get(script, script + '.py')}`", ""]
    if ABOUT.get(script):
        lines += textwrap.wrap(ABOUT[script], 110, break_on_hyphens=False, break_long_words=False) + [""]
    lines += [f"Measured {data.get('date')} on {_where(data)}.", ""]
    lines += archivable(data)
    return lines


def archivable(data):
    versions = ", ".join(f"{k} {v}" for k, v in sorted((data.get("versions") or {}).items()))
    lines = [f"`{data.get('command')}`" + (f" ({versions})" if versions else ""), ""]
    lines += table(data)
    notes = [n for n in data.get("notes") or [] if n]
    if notes:
        lines += [""] + [f"- {n}" for n in notes]
    return lines + [""]


HEADER = """# Benchmark results

Current figures of the side-by-side benchmarks in `bench/`: Tritium and Triton compile the same kernel
source in one process, beside the library torch calls for the same work.  Each section below is made
from the record of the bench's latest whole run, `bench/results/<script>.json`, which the script writes
at the end of a run (to `$TRITIUM_RESULTS_DIR` instead when that is set, as on the GPU machine).
`python3 bench/results_page.py update [DIR]` takes the records from DIR, rewrites this page and moves the
sections it replaces to `bench/results/archive.md`, which holds the earlier tables by date.
`python3 bench/plot_results.py` draws the ratios (`docs/performance.png`).

Tritium / Triton: Tritium's throughput over Triton's, or Triton's time over Tritium's for times (ms,
us); above 1, Tritium is faster.  The sections for Triton's upstream tests and for public libraries'
tests are copied from their tables (`bench/results/triton_suite.md`, `bench/results/library_corpus.md`).
"""

HAND_MARK = "<!-- hand-maintained: bench/results/{}, copied here by results_page.py update -->"


def page(records):
    lines = HEADER.rstrip("\n").split("\n") + [""]
    scripts = [s for s in ORDER if s in records] + sorted(s for s in records if s not in ORDER)
    for script in scripts:
        lines += section(records[script])
    for path in HAND_SECTIONS:
        if os.path.exists(path):
            with open(path) as f:
                text = f.read().strip("\n")
            lines += [HAND_MARK.format(os.path.basename(path))] + text.split("\n") + [""]
    return "\n".join(lines).rstrip("\n") + "\n"


SECTION_RE = re.compile(r"^<!-- results-section (\{.*\}) -->$")


def page_sections(text):
    """[(meta, lines)] of the generated sections in a page's text."""
    sections, current = [], None
    for line in text.split("\n"):
        match = SECTION_RE.match(line)
        if match or line.startswith("<!-- "):
            if current:
                sections.append(current)
            current = None
            if match:
                try:
                    current = (json.loads(match.group(1)), [])
                except ValueError:
                    current = None
            continue
        if current:
            current[1].append(line)
    if current:
        sections.append(current)
    return sections


def archive_entry(meta, lines):
    """The archive's entry for a page section: a heading with date, GPU and
    commit, then the section from its command line on."""
    start = next((i + 1 for i, line in enumerate(lines) if line.startswith("Measured ")), None)
    body = lines[start:] if start is not None else lines
    while body and not body[0].strip():
        body = body[1:]
    while body and not body[-1].strip():
        body = body[:-1]
    mark = json.dumps({"script": meta.get("script"), "digest": meta.get("digest")}, sort_keys=True)
    return [f"<!-- archived {mark} -->", f"## {meta.get('date')}, {meta.get('where')}: {meta.get('title')}",
            ""] + body + [""]


ARCHIVE_HEADER = """# Benchmark results: archive

Earlier tables of the benchmarks and of the measurements around them, newest first, each under its date,
GPU and (where known) commit, with the command that made it (some name tools that `bench/tools/` no
longer holds).  The current figures are in `bench/RESULTS.md`; `bench/results_page.py update` adds the
sections it replaces there.
"""

DATE_HEADING = re.compile(r"^## (\d{4}-\d{2}-\d{2})\b")


def add_to_archive(text, entry, date, mark):
    """`text` with `entry` (lines) placed before the first entry dated on
    or before `date`; unchanged when an entry with `mark` is there."""
    if mark in text:
        return text
    lines = text.rstrip("\n").split("\n") if text.strip() else ARCHIVE_HEADER.rstrip("\n").split("\n")
    at = len(lines)
    for i, line in enumerate(lines):
        match = DATE_HEADING.match(line)
        if match and match.group(1) <= (date or ""):
            at = i - 1 if i > 0 and lines[i - 1].startswith("<!-- archived ") else i
            break
    if at == len(lines) and lines[-1].strip():
        entry = [""] + entry
    return "\n".join(lines[:at] + entry + lines[at:]).rstrip("\n") + "\n"


def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except FileNotFoundError:
        return ""


def update(directory=STORE):
    directory = os.path.abspath(directory)
    if os.path.abspath(directory) != os.path.abspath(STORE):
        stored = load_records(STORE)
        incoming = load_records(directory)
        if not incoming:
            print(f"results: no records in {directory}", file=sys.stderr)
        os.makedirs(STORE, exist_ok=True)
        for script, data in incoming.items():
            old = stored.get(script)
            if old and (old.get("time") or old.get("date") or "") > (data.get("time") or data.get("date") or ""):
                print(f"results: kept bench/results/{script}.json, newer than {directory}'s", file=sys.stderr)
                continue
            _write(os.path.join(STORE, script + ".json"), json.dumps(data, indent=1) + "\n")
    records = load_records(STORE)
    new_page = page(records)
    old_page = _read(PAGE)
    archive = _read(ARCHIVE)
    new_digests = {script: digest(data) for script, data in records.items()}
    moved = []
    for meta, lines in page_sections(old_page):
        if new_digests.get(meta.get("script")) == meta.get("digest"):
            continue
        entry = archive_entry(meta, lines)
        before = archive
        archive = add_to_archive(archive, entry, meta.get("date"), entry[0])
        if archive != before:
            moved.append(f"{meta.get('script')} of {meta.get('date')}")
    if archive != _read(ARCHIVE):
        _write(ARCHIVE, archive)
    if new_page != old_page:
        _write(PAGE, new_page)
    print(f"results: {len(records)} records; page {'rewritten' if new_page != old_page else 'unchanged'}; "
          f"archived: {', '.join(moved) if moved else 'nothing'}")
    return 0


def main(argv):
    if len(argv) >= 1 and argv[0] == "update" and len(argv) <= 2:
        return update(argv[1] if len(argv) == 2 else STORE)
    if "--help" in argv or "-h" in argv:
        print(__doc__)
        return 0
    print("usage: python3 bench/results_page.py update [DIR]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
