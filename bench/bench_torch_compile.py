"""torch.compile on Tritium and on Triton, side by side: the model zoo of
bench/torch_zoo.py, each case in a fresh Python process with fresh caches
(Inductor's, Triton's, Tritium's) and Inductor's default settings (its pool
of compile worker processes included), under each compiler in turn.

`import triton` means Tritium in a case's process (and in Inductor's compile
workers, which inherit the environment) through scripts/triton_alias first
on PYTHONPATH; under Triton the installed Triton answers.

Per case and compiler: the cold first call (s, compile included), the
time Inductor's timers give to compiling and loading Triton kernels, the
warm time per call or training step (ms), the error against eager, and the
kernel count.  Ratio: Triton's cold time over Tritium's.

  python3 bench/bench_torch_compile.py [--cases bench|autotune|sweep|matrix|none]
      [--models a,b [--tasks infer,train] [--precisions fp32,bf16] [--modes default,...]]
      [--dynamic MODEL] [--backends tritium,triton] [--jobs N] [--timeout S] [--json FILE]

--jobs runs that many cases at once (for a correctness sweep: the times are
then not comparable).  The bench set takes longer than one GPU call: run it
in parts (--cases none --models ...) with --json, then --merge the files.
The record goes to bench/results/bench_torch_compile.json (or
$TRITIUM_RESULTS_DIR) when the `bench` case set ran under both compilers
with one job at a time, and to bench_torch_compile_autotune.json for the
`autotune` set (inference under max-autotune-no-cudagraphs); otherwise it
is a partial record.
"""
import argparse
import concurrent.futures
import json
import math
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import torch_zoo  # noqa: E402

# Inductor timers (torch._dynamo.utils.compilation_time_metrics) that cover
# compiling Triton kernels without overlapping: `async_compile.precompile`,
# the kernels compiled in the main process (all of them until the pool of
# compile workers has warmed up), and `async_compile.wait`, the wait for the
# kernels the workers compiled (loading each one's result included).  Both
# run inside PyCodeCache.load_by_key_path (the generated module's import) and
# contain CachingAutotuner.precompile, so those are not added.
KERNEL_COMPILE_TIMERS = ("async_compile.precompile", "async_compile.wait")


def case_env(backend, root):
    env = dict(os.environ)
    # Both compilers keep their kernels in TRITON_CACHE_DIR, as they do
    # under Inductor when nothing else is set: Inductor's own launcher
    # loads a kernel's cubin from <TRITON_CACHE_DIR>/<hash>/<name>.cubin,
    # and where it finds none, launches through CompiledKernel.run.
    for var, sub in (("TORCHINDUCTOR_CACHE_DIR", "inductor"), ("TRITON_CACHE_DIR", "triton"),
                     ("XDG_CACHE_HOME", "xdg")):
        env[var] = os.path.join(root, sub)
    env.pop("TRITIUM_CACHE_DIR", None)
    env.pop("TRITIUM_AS_TRITON", None)
    path = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    if backend == "tritium":
        path = [os.path.join(REPO, "scripts", "triton_alias"), os.path.join(REPO, "python")] + path
    env["PYTHONPATH"] = os.pathsep.join(path)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def run_until_result(cmd, env, timeout):
    """Runs a case's process as the leader of a new process group until it
    prints its result line (or exits, or `timeout` s pass), then kills the
    group: the process and Inductor's compile workers, whose shutdown at
    exit takes seconds and measures nothing.  Returns (stdout, the tail of
    stderr)."""
    with tempfile.TemporaryFile(mode="w+") as err:
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=err, text=True,
                                start_new_session=True)

        def kill_group():
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        timer = threading.Timer(timeout, kill_group)
        timer.start()
        lines = []
        try:
            for line in proc.stdout:
                lines.append(line)
                if line.startswith("ZOO "):
                    break
        finally:
            timer.cancel()
            kill_group()
            proc.wait()
            proc.stdout.close()
        timed_out = not any(line.startswith("ZOO ") for line in lines) and proc.returncode == -signal.SIGKILL
        err.seek(0)
        tail = "timeout" if timed_out else err.read()[-4000:]
    return "".join(lines), tail


def run_case(backend, case, timeout, profile=False, profile_cold=False):
    model, task, precision, mode, dynamic = case
    root = tempfile.mkdtemp(prefix=f"zoo-{backend}-")
    env = case_env(backend, root)
    if profile:
        env["ZOO_PROFILE"] = "1"
    if profile_cold:
        env["ZOO_PROFILE_COLD"] = "1"
        if backend == "tritium":
            env["TRITIUM_COMPILE_LOG"] = os.path.join(root, "compiles.jsonl")
    cmd = [sys.executable, os.path.join(HERE, "torch_zoo.py"), model, task, precision, mode] + (
        ["dynamic"] if dynamic else [])
    t0 = time.perf_counter()
    try:
        out, tail = run_until_result(cmd, env, timeout)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    result = None
    for line in out.splitlines():
        if line.startswith("ZOO "):
            result = json.loads(line[4:])
    if result is None:
        result = {"model": model, "task": task, "precision": precision, "mode": mode, "dynamic": dynamic,
                  "error": "no result: " + tail[-1500:]}
    elif "error" in result:
        result["stderr"] = tail[-3000:]
    result["backend"] = backend
    result["process_s"] = round(time.perf_counter() - t0, 2)
    result.update(WHERE)
    return result


def where():
    """What a record says of the run beyond the zoo's own fields: the date,
    the host's CPU, the commit of this checkout and the command line
    (results_page)."""
    import datetime
    from results_page import _command, _commit, _cpu
    commit, modified = _commit()
    return {"date": datetime.date.today().isoformat(), "cpu": _cpu(), "commit": commit, "modified": modified,
            "command": _command(sys.argv)}


WHERE = {}


def print_profiles(results):
    """Each profiled case's warm call, kernel by kernel (GPU microseconds
    under each compiler), the largest difference first."""
    by = {}
    for r in results:
        if r.get("profile"):
            by.setdefault(label(r), {})[r["backend"]] = r["profile"]
    for case, pair in by.items():
        print(f"\nprofile of one warm call, {case}: " + ", ".join(
            f"{b} {p['device_ms']:.3f} ms on the GPU in {p['launches']} launches" for b, p in pair.items()))
        rows = {}
        for b, p in pair.items():
            for name, calls, us in p["top"]:
                rows.setdefault(name, {})[b] = (calls, us)
        diff = lambda kv: -abs(kv[1].get("tritium", (0, 0))[1] - kv[1].get("triton", (0, 0))[1])  # noqa: E731
        for name, got in sorted(rows.items(), key=diff)[:25]:
            cells = "  ".join(f"{b} {got[b][0]:3d}x {got[b][1]:9.1f} us" if b in got else f"{b} {'-':>17s}"
                              for b in ("tritium", "triton"))
            print(f"  {name[:80]:80s} {cells}")
        for b, p in pair.items():
            print(f"  host time of five warm calls under {b}, by function (calls, own s, cumulative s):")
            for name, calls, own, cum in p.get("host_top", [])[:15]:
                print(f"    {name[:80]:80s} {calls:7d} {own:8.4f} {cum:8.4f}")


def print_cold_profiles(results):
    """Each cold-profiled case: the compiles done in the case's own process
    and the functions that took the most of its cold call."""
    for r in results:
        p = r.get("cold_profile")
        if not p:
            continue
        print(f"\ncold call of {label(r)} under {r['backend']} (cProfile), compiles in this process: "
              + ", ".join(f"{k} {calls}x {cum:.2f} s" for k, (calls, cum) in p["compiles"].items()))
        log = p.get("compile_log")
        if log:
            print(f"  Tritium's compiles: {log['compiles']} ({log['in_case_process']} in the case's process), "
                  f"native ms summed: " + ", ".join(f"{k} {v:.0f}" for k, v in log["native_ms"].items()))
            print("  per process (pid, compiles, s, first start s, last end s, cache hits): "
                  + "; ".join(" ".join(str(x) for x in row) for row in log["per_process"]))
        for title, rows in (("cumulative", p["cumulative_top"]), ("own", p["own_top"])):
            print(f"  by {title} time (calls, own s, cumulative s):")
            for name, calls, own, cum in rows[:25]:
                print(f"    {name[:80]:80s} {calls:7d} {own:8.3f} {cum:8.3f}")


def kernel_compile_s(result):
    timers = result.get("compile") or {}
    return round(sum(timers.get(k, 0.0) for k in KERNEL_COMPILE_TIMERS), 3)


def errors(r):
    """The errors against eager: output (or loss), gradients, weights."""
    return "/".join(f"{r[k]:.2e}" for k in ("err", "grad_err", "param_err") if k in r)


def label(r):
    return " ".join([r["model"], r["task"], r["precision"], r["mode"]] + (["dynamic"] if r["dynamic"] else []))


# The case sets of torch_zoo.cases that have a record of their own, by the
# record's script name.
RECORDS = {"bench": "bench_torch_compile", "autotune": "bench_torch_compile_autotune"}


def report(results, case_set):
    """Prints the side-by-side table of `results` and the totals the issue's
    targets are stated in, and writes the record: a whole one of `case_set`
    when it names one of RECORDS (the set's cases, both compilers, one case
    at a time), else a partial one of the bench set's."""
    full = case_set in RECORDS
    by = {(label(r), r["backend"]): r for r in results}
    rows = []
    print(f"\n{'case':55s} {'cold s':>15s} {'kernel compile s':>17s} {'warm ms':>17s} {'err':>19s}")
    for case in dict.fromkeys(label(r) for r in results):
        t, r = by.get((case, "tritium")), by.get((case, "triton"))
        ok = lambda x: x is not None and "error" not in x  # noqa: E731
        row = {"work": case, "unit": "s"}
        if ok(t):
            row.update(tritium=t["cold_s"], tritium_compile_s=kernel_compile_s(t), tritium_warm_ms=t["warm_ms"],
                       tritium_err=errors(t), kernels=t.get("kernels"))
        elif t is not None:
            row["failed"] = ["tritium"]
            row["tritium_error"] = t["error"][:300]
        if ok(r):
            row.update(triton=r["cold_s"], triton_compile_s=kernel_compile_s(r), triton_warm_ms=r["warm_ms"],
                       triton_err=errors(r))
        elif r is not None:
            row.setdefault("failed", []).append("triton")
        if ok(t) and ok(r):
            row["ratio"] = r["cold_s"] / t["cold_s"] if t["cold_s"] else None
            row["warm_ratio"] = r["warm_ms"] / t["warm_ms"] if t["warm_ms"] else None
        rows.append(row)
        fmt = lambda x, k, f: format(x[k], f) if ok(x) else ("FAIL" if x else "-")  # noqa: E731
        print(f"{case:55s} {fmt(t, 'cold_s', '7.2f'):>7s} {fmt(r, 'cold_s', '7.2f'):>7s} "
              f"{kernel_compile_s(t) if ok(t) else '-':>8} {kernel_compile_s(r) if ok(r) else '-':>8} "
              f"{fmt(t, 'warm_ms', '8.3f'):>8s} {fmt(r, 'warm_ms', '8.3f'):>8s} "
              f"{errors(t) if ok(t) else '-':>27s} {errors(r) if ok(r) else '-':>27s}")
    notes = totals(rows) + [failure_note(case, x) for case in dict.fromkeys(label(r) for r in results)
                            for x in (by.get((case, "tritium")), by.get((case, "triton")))
                            if x is not None and "error" in x]
    print("\n".join(notes))
    measured, differing = measured_on(results)
    if differing:
        notes.append(f"the cases' records differ in: {', '.join(differing)} (the other fields as stated)")
    try:
        from results_page import record
        record(RECORDS.get(case_set, RECORDS["bench"]), rows, headers={"tritium": "Tritium cold s", "triton": "Triton cold s",
                                                     "ratio": "cold: Triton / Tritium",
                                                     "tritium_compile_s": "Tritium compile s",
                                                     "triton_compile_s": "Triton compile s",
                                                     "tritium_warm_ms": "Tritium warm ms",
                                                     "triton_warm_ms": "Triton warm ms",
                                                     "warm_ratio": "warm: Triton / Tritium",
                                                     "tritium_err": "Tritium err", "triton_err": "Triton err"},
               digits={"warm_ratio": 3, "ratio": 3, "tritium_compile_s": 2, "triton_compile_s": 2,
                       "tritium_warm_ms": 3, "triton_warm_ms": 3}, notes=notes, measured=measured,
               partial=None if full and not {"gpu", "commit"} & set(differing) else
               "a subset of the zoo, cases run in parallel, or parts run on different GPUs or commits")
    except Exception as e:  # noqa: BLE001
        print(f"no record: {e}", file=sys.stderr)


def failure_note(case, result):
    """One line for a case a compiler did not finish: its error, and the
    seconds its process ran (a timeout's lower bound on the first call)."""
    ran = f" after {result['process_s']:.0f} s" if "process_s" in result else ""
    return f"{case}: no figure under {result['backend']}: {result['error'].splitlines()[0][:200]}{ran}"


def measured_on(results):
    """Where and when the cases ran, as the record states it (the date of
    the first, the GPU, the host's CPU, the commit and torch's version the
    cases record), and which of these differ between cases."""
    measured, differing = {}, []
    for key in ("date", "gpu", "cpu", "commit", "modified", "torch"):
        values = {json.dumps(r.get(key)) for r in results if key in r}
        if not values:
            continue
        if len(values) > 1 and key != "date":
            differing.append(key)
        measured[key] = min(json.loads(v) for v in values) if key == "date" else json.loads(sorted(values)[0])
    if "torch" in measured:
        measured["versions"] = {"torch": measured.pop("torch")}
    commands = list(dict.fromkeys(r["command"] for r in results if r.get("command")))
    if commands:  # the runs whose results the record joins (each part's --json, say)
        measured["command"] = commands[0] if len(commands) == 1 else "; ".join(commands)
    return measured, differing


def totals(rows):
    """Summed over the cases both compilers ran: first call and kernel
    compile (Tritium's over Triton's), and the geomean of the warm ratios
    (Triton's time over Tritium's)."""
    both = [r for r in rows if r.get("ratio")]
    if not both:
        return []
    cold = [sum(r[k] for r in both) for k in ("tritium", "triton")]
    compile_s = [sum(r[k] for r in both) for k in ("tritium_compile_s", "triton_compile_s")]
    warm = math.exp(statistics.fmean(math.log(r["warm_ratio"]) for r in both if r.get("warm_ratio")))
    return [f"{len(both)} cases under both: first call {cold[0]:.1f} s vs {cold[1]:.1f} s "
            f"({cold[0] / cold[1]:.2f}x), kernel compile {compile_s[0]:.1f} s vs {compile_s[1]:.1f} s "
            f"({compile_s[0] / compile_s[1]:.2f}x), warm geomean {warm:.3f}x"]


def merge(paths):
    """The results of several --json files (runs of parts of the bench set,
    say one call each), each case's two compilers taken from one file so
    that they ran on one machine; whole when the bench set is covered."""
    merged, seen = [], {}
    for path in paths:
        with open(path) as f:
            part = json.load(f)
        cases = {}
        for r in part:
            cases.setdefault(label(r), {})[r["backend"]] = r
        for case, pair in cases.items():
            if case in seen or set(pair) != {"tritium", "triton"}:
                continue  # a case already taken, or one compiler only: not a side-by-side figure
            seen[case] = path
            merged += pair.values()
    for case_set in RECORDS:
        wanted = {label({"model": m, "task": t, "precision": p, "mode": mode, "dynamic": d})
                  for m, t, p, mode, d in torch_zoo.cases(case_set)}
        if wanted == set(seen):
            return merged, case_set
    closest = max(RECORDS, key=lambda name: len(set(seen) & {label(
        {"model": m, "task": t, "precision": p, "mode": mode, "dynamic": d})
        for m, t, p, mode, d in torch_zoo.cases(name)}))
    wanted = {label({"model": m, "task": t, "precision": p, "mode": mode, "dynamic": d})
              for m, t, p, mode, d in torch_zoo.cases(closest)}
    print(f"not the {closest} set: missing {', '.join(sorted(wanted - set(seen))) or 'nothing'}; "
          f"beyond it {', '.join(sorted(set(seen) - wanted)) or 'nothing'}")
    return merged, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", default="bench", help="a case set of torch_zoo.cases (bench, autotune, sweep, matrix), "
                    "or none to take only --models x --tasks x --precisions x --modes")
    ap.add_argument("--models", default="")
    ap.add_argument("--tasks", default="infer,train")
    ap.add_argument("--precisions", default="fp32")
    ap.add_argument("--modes", default="default")
    ap.add_argument("--dynamic", default="", help="models also run with dynamic=True (default mode, fp32)")
    ap.add_argument("--backends", default="tritium,triton")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--profile", action="store_true", help="profile one warm call of each case and compare "
                    "its kernels (ZOO_PROFILE in bench/torch_zoo.py)")
    ap.add_argument("--profile-cold", action="store_true", help="profile each case's cold call in its "
                    "process (ZOO_PROFILE_COLD in bench/torch_zoo.py; its cold times are then not comparable)")
    ap.add_argument("--json", default=None, help="also write every result to this file")
    ap.add_argument("--merge", nargs="+", help="report the results of these --json files together (runs of "
                    "parts of the bench set) instead of running cases")
    args = ap.parse_args()
    if args.merge:
        results, case_set = merge(args.merge)
        report(results, case_set)
        return 0
    WHERE.update(where())
    split = lambda s: [x for x in s.split(",") if x]  # noqa: E731
    cases = [] if args.cases == "none" else torch_zoo.cases(args.cases)
    cases += [(m, t, p, mode, False) for m in split(args.models) for t in split(args.tasks)
              for p in split(args.precisions) for mode in split(args.modes)]
    cases += [(m, t, "fp32", "default", True) for m in split(args.dynamic) for t in split(args.tasks)]
    backends = split(args.backends)
    jobs = [(b, c) for c in dict.fromkeys(cases) for b in backends]
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_case, b, c, args.timeout, args.profile, args.profile_cold)
                   for b, c in jobs]
        for future in concurrent.futures.as_completed(futures):
            r = future.result()
            results.append(r)
            if args.json:  # rewritten after every case: a run cut short keeps what it has
                with open(args.json, "w") as f:
                    json.dump(results, f, indent=1)
            state = r.get("error") or f"cold {r['cold_s']:.2f} s, warm {r['warm_ms']:.3f} ms, err {errors(r)}, " \
                                      f"kernels {r.get('kernels')}, kernel compile {kernel_compile_s(r):.2f} s"
            print(f"{r['backend']:8s} {label(r):55s} {state}", flush=True)
            if "error" in r:
                print("    " + "\n    ".join(r.get("stderr", "").strip().splitlines()[-25:]), flush=True)

    print_profiles(results)
    print_cold_profiles(results)
    whole = (not args.profile_cold and args.jobs == 1 and set(backends) == {"tritium", "triton"}
             and args.cases in RECORDS and not (args.models or args.dynamic))
    report(results, args.cases if whole else None)
    return 0 if all("error" not in r for r in results if r["backend"] == "tritium") else 1


if __name__ == "__main__":
    sys.exit(main())
