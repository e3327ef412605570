"""The Triton kernels torch.compile generates for the model zoo, compiled and
timed under Tritium and under Triton, kernel by kernel and config by config.

Two steps, both on the GPU machine:

  python3 bench/bench_inductor_kernels.py collect [--cases bench] [--dir D]
      runs the zoo's cases (bench/torch_zoo.py) under Triton with
      TORCHINDUCTOR_BENCHMARK_KERNEL=1 and keeps each kernel module Inductor
      wrote (the kernel, its heuristics decorator with the configs Inductor
      would try, and get_args/call/benchmark_all_configs) in D, one folder per
      case, each kernel once.  The modules are PyTorch's output: D is an
      ignored folder (default upstream/inductor_kernels), never committed.
  python3 bench/bench_inductor_kernels.py [run] [--dir D] [--match TEXT]
      loads every kernel module of D in one warm process per compiler (fresh
      caches), and for each kernel:
        compile s  Inductor's own precompile of the kernel (every config
                   compiled, launchers built), after a first compile of an
                   unrelated kernel has warmed the process
        ms         benchmark_all_configs: each config's time (Inductor's
                   benchmarker, the same inputs for both compilers, the
                   lowest of three rounds on inputs allocated anew; inf
                   where Inductor refuses a config that spills registers)
        check      sums of the kernel's tensor arguments after one call of
                   its first config on seeded inputs, compared between the
                   compilers
      and prints kernel by kernel compile times, config by config speed
      (Triton's time over Tritium's: above 1 is faster), the geomeans and
      the worst items; the record goes to bench/results.
      --dump DIR also writes each config's build under each compiler (TTGIR,
      LLVM IR, PTX and, with cuobjdump on PATH, SASS) into
      DIR/<compiler>/<case>/<kernel>/<config>.*

A kernel whose worker process dies (a fault on the GPU) is recorded as
failed and the worker starts again after it.
"""
import argparse
import glob
import hashlib
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
DEFAULT_DIR = os.path.join(REPO, "upstream", "inductor_kernels")
KERNEL_NAME = re.compile(r"@triton\.jit\s*\ndef (\w+)\(")


def backend_env(backend, root):
    """The environment of one compiler's process: fresh caches under `root`,
    `import triton` answered by Tritium for "tritium"."""
    import bench_torch_compile
    return bench_torch_compile.case_env(backend, root)


# ---------------------------------------------------------------- collect

def is_kernel_module(text):
    return "@triton.jit" in text and "triton_heuristics" in text and "def get_args(" in text \
        and "async_compile.triton(" not in text


def collect(args):
    import torch_zoo
    cases = torch_zoo.cases(args.cases)
    if args.models:
        cases = [c for c in cases if c[0] in args.models.split(",")]
    os.makedirs(args.dir, exist_ok=True)
    seen = set()
    for name in os.listdir(args.dir):  # kernels kept by an earlier collect
        for path in glob.glob(os.path.join(args.dir, name, "*.py")):
            with open(path) as f:
                seen.add(hashlib.sha256(f.read().encode()).hexdigest())
    import concurrent.futures

    def one(case):
        model, task, precision, mode, dynamic = case
        root = tempfile.mkdtemp(prefix="collect-")
        env = backend_env("triton", root)
        env["TORCHINDUCTOR_BENCHMARK_KERNEL"] = "1"
        env["TORCHINDUCTOR_COMPILE_THREADS"] = "1"  # cases run side by side; the kernels are the same
        cmd = [sys.executable, os.path.join(HERE, "torch_zoo.py"), model, task, precision, mode] + (
            ["dynamic"] if dynamic else [])
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=args.timeout)
        return case, root, proc

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for case, root, proc in pool.map(one, cases):
            label = "_".join(str(x) for x in case[:4]) + ("_dynamic" if case[4] else "")
            kept = 0
            for path in sorted(glob.glob(os.path.join(root, "inductor", "**", "*.py"), recursive=True)):
                with open(path) as f:
                    text = f.read()
                digest = hashlib.sha256(text.encode()).hexdigest()
                if not is_kernel_module(text) or digest in seen:
                    continue
                seen.add(digest)
                name = KERNEL_NAME.search(text).group(1)
                os.makedirs(os.path.join(args.dir, label), exist_ok=True)
                with open(os.path.join(args.dir, label, f"{name}_{digest[:8]}.py"), "w") as f:
                    f.write(text)
                kept += 1
            state = "ok" if proc.returncode == 0 and "ZOO " in proc.stdout and '"error"' not in proc.stdout \
                else "failed: " + proc.stderr[-500:]
            print(f"{label:45s} {kept:4d} new kernels ({state})", flush=True)
            shutil.rmtree(root, ignore_errors=True)
    return 0


# ---------------------------------------------------------------- worker

def kernel_files(directory, match=()):
    files = sorted(glob.glob(os.path.join(directory, "*", "*.py")))
    rel = [os.path.relpath(p, directory) for p in files]
    return [r for r in rel if not match or any(m in r for m in match)]


def worker(args):
    """One compiler's process: compile and time the kernels of --files
    (relative to --dir), from --start on, writing one JSON line per kernel
    to --out as it goes."""
    import importlib.util

    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def _warm(x_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)

    x = torch.zeros(1000, device="cuda")
    _warm[(4,)](x, 1000, BLOCK=256)
    torch.cuda.synchronize()
    # Kernel modules name their file (filename=__file__) for Inductor's
    # autotune cache: a private copy keeps both compilers' runs apart.
    copy_root = tempfile.mkdtemp(prefix="kernels-")
    with open(args.files) as f:
        files = json.load(f)
    with open(args.out, "a") as out:
        for index in range(args.start, len(files)):
            rel = files[index]
            out.write(json.dumps({"start": index}) + "\n")
            out.flush()
            path = os.path.join(copy_root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            shutil.copy(os.path.join(args.dir, rel), path)
            result = {"index": index, "file": rel}
            try:
                with open(path) as f:
                    name = KERNEL_NAME.search(f.read()).group(1)
                spec = importlib.util.spec_from_file_location(f"inductor_kernel_{index}", path)
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
                kernel = getattr(module, name)
                result["kernel"] = name
                if args.dump:  # launchers keep their compiled kernel (`launcher.bin`) only then
                    kernel.inductor_meta["store_cubin"] = True
                t = time.perf_counter()
                kernel.precompile()
                result["compile_s"] = round(time.perf_counter() - t, 4)
                result["configs"] = len(kernel.launchers)
                if args.dump:
                    dump_builds(kernel, os.path.join(args.dump, os.path.splitext(rel)[0]))
                # three rounds, each on inputs of its own (the earlier
                # rounds' kept alive, so that the new ones lie elsewhere in
                # memory), the lowest time of each config kept: a config's
                # time can be several times its own in one round, for
                # either compiler, and not in the next
                result["ms"] = {}
                rounds_args = []
                for _ in range(3):
                    torch.manual_seed(0)
                    rounds_args.append(module.get_args())
                    for launcher, ms in module.benchmark_all_configs(rounds_args[-1]).items():
                        label = config_label(getattr(launcher, "config", launcher))
                        result["ms"][label] = round(min(float(ms), result["ms"].get(label, math.inf)), 5)
                # one call of the first config (the same config under both
                # compilers: with one launcher, run() does not autotune)
                launchers, kernel.launchers = kernel.launchers, kernel.launchers[:1]
                torch.manual_seed(0)
                call_args = module.get_args()
                module.call(call_args)
                torch.cuda.synchronize()
                kernel.launchers = launchers
                result["check"] = [[float(a.double().sum()), float(a.double().abs().sum())]
                                   for a in call_args if isinstance(a, torch.Tensor) and a.is_floating_point()]
            except Exception as e:  # noqa: BLE001 - recorded per kernel
                result["error"] = f"{type(e).__name__}: {str(e)[:400]}"
            out.write(json.dumps(result) + "\n")
            out.flush()
    return 0


def dump_builds(kernel, folder):
    """Each launcher's compiled kernel into folder/<config>.{ttgir,llir,ptx,sass}."""
    os.makedirs(folder, exist_ok=True)
    for launcher in kernel.launchers:
        binary = getattr(launcher, "bin", None)
        asm = getattr(binary, "asm", None) or {}
        stem = os.path.join(folder, re.sub(r"[^A-Za-z0-9_.=-]+", "_", config_label(launcher.config)))
        for key in ("ttgir", "llir", "ptx"):
            if asm.get(key):
                with open(f"{stem}.{key}", "w") as f:
                    f.write(asm[key])
        if asm.get("cubin") and shutil.which("cuobjdump"):
            with open(f"{stem}.cubin", "wb") as f:
                f.write(asm["cubin"])
            sass = subprocess.run(["cuobjdump", "-sass", f"{stem}.cubin"], capture_output=True, text=True).stdout
            os.remove(f"{stem}.cubin")
            with open(f"{stem}.sass", "w") as f:
                f.write(sass)


def config_label(config):
    kwargs = " ".join(f"{k}={v}" for k, v in sorted(config.kwargs.items()))
    return f"{kwargs} w{config.num_warps} s{config.num_stages}"


# ---------------------------------------------------------------- run

def run_backend(backend, directory, files, timeout, dump=None):
    """Every kernel under one compiler: a worker process, started again
    after a kernel that killed it."""
    root = tempfile.mkdtemp(prefix=f"kernels-{backend}-")
    env = backend_env(backend, root)
    files_path = os.path.join(root, "files.json")
    with open(files_path, "w") as f:
        json.dump(files, f)
    out_path = os.path.join(root, "results.jsonl")
    results, start = {}, 0
    deadline = time.monotonic() + timeout
    while start < len(files):
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", "--dir", directory, "--files", files_path,
               "--out", out_path, "--start", str(start)] + (["--dump", os.path.join(dump, backend)] if dump else [])
        try:
            proc = subprocess.run(cmd, env=env, capture_output=True, text=True,
                                  timeout=max(1.0, deadline - time.monotonic()))
            tail = proc.stderr[-1500:]
        except subprocess.TimeoutExpired:
            tail = "timeout"
        last_start = start
        with open(out_path) as f:
            for line in f:
                entry = json.loads(line)
                if "start" in entry:
                    last_start = entry["start"]
                else:
                    results[entry["index"]] = entry
        if len(results) == len(files) or tail == "timeout":
            break
        # the worker died in kernel `last_start`: record it, go on after it
        results.setdefault(last_start, {"index": last_start, "file": files[last_start],
                                         "error": "the process died: " + tail[-600:]})
        start = last_start + 1
    shutil.rmtree(root, ignore_errors=True)
    return results


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(statistics.fmean(math.log(v) for v in values)) if values else None


def report(files, by_backend, record_it=True):
    rows, compile_rows = [], []
    tt, tr = by_backend.get("tritium", {}), by_backend.get("triton", {})
    print(f"\n{'kernel':70s} {'compile s':>17s} {'ratio':>6s}  check")
    for i, rel in enumerate(files):
        a, b = tt.get(i, {}), tr.get(i, {})
        name = os.path.dirname(rel) + "/" + (a.get("kernel") or b.get("kernel") or os.path.basename(rel))
        check = check_state(a, b)
        ca, cb = a.get("compile_s"), b.get("compile_s")
        cratio = cb / ca if ca and cb else None
        compile_rows.append((name, ca, cb, cratio))
        errs = "; ".join(f"{k}: {v['error'][:160]}" for k, v in (("tritium", a), ("triton", b)) if "error" in v)
        print(f"{name[:70]:70s} {fmt(ca, '8.3f')} {fmt(cb, '8.3f')} {fmt(cratio, '6.2f')}  {check} {errs}")
        for config in dict.fromkeys(list(a.get("ms", {})) + list(b.get("ms", {}))):
            ma, mb = a.get("ms", {}).get(config), b.get("ms", {}).get(config)
            timed = ma and mb and math.isfinite(ma) and math.isfinite(mb)
            row = {"work": name, "config": config, "unit": "ms", "tritium": ma, "triton": mb,
                   "ratio": mb / ma if timed else None, "tritium_compile_s": ca, "triton_compile_s": cb,
                   "check": check}
            if "error" in a:
                row["failed"] = ["tritium"]
            rows.append(row)
    speed = [r["ratio"] for r in rows if r["ratio"]]
    both = [(ca, cb) for _, ca, cb, _ in compile_rows if ca and cb]
    notes = []
    if speed:
        notes.append(f"{len(speed)} (kernel, config) items under both: speed geomean {geomean(speed):.3f} "
                     f"(Triton's time / Tritium's), {sum(r < 0.95 for r in speed)} below 0.95")
    if both:
        notes.append(f"{len(both)} kernels compiled by both: Inductor's precompile {sum(c for c, _ in both):.1f} s "
                     f"vs {sum(c for _, c in both):.1f} s ({sum(c for c, _ in both) / sum(c for _, c in both):.2f}x), "
                     f"per-kernel geomean {geomean([ca / cb for ca, cb in both]):.2f}x, "
                     f"{sum(ca > cb for ca, cb in both)} kernels slower to compile than under Triton")
    failed = [n for n, ca, cb, _ in compile_rows if ca is None and cb is not None]
    if failed:
        notes.append(f"{len(failed)} kernels fail under Tritium only: " + ", ".join(failed[:10]))
    mismatched = [r["work"] for r in rows if r["check"] == "differ"]
    if mismatched:
        notes.append(f"{len(set(mismatched))} kernels' results differ: " + ", ".join(sorted(set(mismatched))[:10]))
    print("\n" + "\n".join(notes))
    worst = sorted((r for r in rows if r["ratio"]), key=lambda r: r["ratio"])[:15]
    print("\nslowest items (speed ratio):")
    for r in worst:
        print(f"  {r['ratio']:.3f}  {r['work'][:70]}  [{r['config']}]  {r['tritium']:.4f} vs {r['triton']:.4f} ms")
    slow_compiles = sorted((c for c in compile_rows if c[3]), key=lambda c: c[3])[:15]
    print("\nslowest compiles (Triton's time / Tritium's):")
    for name, ca, cb, cr in slow_compiles:
        print(f"  {cr:.2f}  {name[:80]}  {ca:.3f} vs {cb:.3f} s")
    if record_it:
        try:
            import torch  # noqa: F401 - the record names the GPU (results_page reads torch.cuda)
            from results_page import record
            record("bench_inductor_kernels", rows, headers={"tritium": "Tritium ms", "triton": "Triton ms"},
                   digits={"ratio": 3, "tritium": 4, "triton": 4}, notes=notes)
        except Exception as e:  # noqa: BLE001
            print(f"no record: {e}", file=sys.stderr)
    return rows, notes


def check_state(a, b):
    ca, cb = a.get("check"), b.get("check")
    if ca is None or cb is None:
        return "-"
    if len(ca) != len(cb):
        return "differ"
    for (sa, aa), (sb, ab) in zip(ca, cb):
        scale = max(abs(aa), abs(ab), 1e-30)
        if not (math.isfinite(sa) and math.isfinite(sb)):
            if not (math.isnan(sa) and math.isnan(sb)) and sa != sb:
                return "differ"
            continue
        if abs(sa - sb) > 1e-3 * scale or abs(aa - ab) > 1e-3 * scale:
            return "differ"
    return "same"


def fmt(value, spec):
    return format(value, spec) if value is not None else "-".rjust(int(spec.split(".")[0]))


def run(args):
    files = kernel_files(args.dir, args.match or ())
    if not files:
        print(f"no kernel modules under {args.dir}: run `collect` first", file=sys.stderr)
        return 2
    print(f"{len(files)} kernels from {args.dir}", flush=True)
    by_backend = {}
    for backend in args.backends.split(","):
        t = time.perf_counter()
        by_backend[backend] = run_backend(backend, args.dir, files, args.timeout, args.dump)
        print(f"{backend}: {len(by_backend[backend])} kernels in {time.perf_counter() - t:.1f} s", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"files": files, "results": {b: list(r.values()) for b, r in by_backend.items()}}, f)
    # (no record from a subset, nor from a dumping run: its launchers keep
    # their kernels and each config is disassembled after it compiled)
    report(files, by_backend, record_it=not args.match and not args.dump)
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("step", nargs="?", default="run", choices=("run", "collect"))
    ap.add_argument("--dir", default=DEFAULT_DIR)
    ap.add_argument("--cases", default="bench", help="collect: a case set of torch_zoo.cases")
    ap.add_argument("--models", default="", help="collect: only these models of the case set")
    ap.add_argument("--jobs", type=int, default=4, help="collect: cases run at once")
    ap.add_argument("--match", action="append", help="run: only the kernels whose path contains TEXT")
    ap.add_argument("--backends", default="tritium,triton")
    ap.add_argument("--timeout", type=float, default=500, help="seconds for each compiler's kernels (or each case)")
    ap.add_argument("--json", default=None, help="run: also write every result to this file")
    ap.add_argument("--dump", default=None, help="run: write each config's TTGIR, LLVM IR, PTX and SASS under this folder")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--files", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    ap.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args)
    if args.step == "collect":
        return collect(args)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
