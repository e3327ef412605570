"""Two or more builds of the native library on public libraries' kernels
(bench/bench_library_kernels.py), in one GPU call: each round runs Triton
once and every library once, each in its own process, the libraries' order
rotated from round to round; each keeps its caches from round to round (the
first round compiles, the later ones spend their budget timing, so Triton's
slower compiles leave fewer items out after the first); an item's time under each is
the median over the rounds, and its figure is Triton's median time over
that one.  So every build is compared with Triton on the same machine,
minutes apart, and a build's drift within the call shows in its rounds.

    python3 bench/tools/ab_library_kernels.py --cases mamba_rms_norm,gemlite_gemm \\
        [--match TEXT] [--max-configs N] [--budget-s S] [--rounds R] [--json PATH] \\
        NAME=LIBRARY NAME=LIBRARY ...

LIBRARY is a libtritium.so or one packed by scripts/ship_library.sh
(.so.xz, unpacked to a temporary folder).  --budget-s is each process's (no
item starts after it).  Prints one line per item (Triton's time / each
build's), the geomean of each build over the items all of them and Triton
timed, the items whose results differ from Triton's, the spread of each
build's rounds (its largest max/min over the items), and why the other items
were not compared (Triton's worker compiles more slowly: its budget may end
before the builds' do).
"""
import argparse
import json
import lzma
import os
import shutil
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # bench/

import bench_library_kernels as blk  # noqa: E402


def unpack(spec, folder):
    """(name, path of a libtritium.so) from NAME=LIBRARY."""
    name, sep, path = spec.partition("=")
    if not sep or not name or not os.path.isfile(path):
        raise SystemExit(f"ab_library_kernels: {spec!r} is not NAME=LIBRARY with an existing LIBRARY")
    if path.endswith(".xz"):
        out = os.path.join(folder, f"{name}.so")
        with lzma.open(path) as src, open(out, "wb") as dst:
            shutil.copyfileobj(src, dst)
        path = out
    return name, os.path.realpath(path)


def run_rounds(args, builds, run=None, caches=None):
    """{name: [results of each round]} for "triton" and every build; a
    result maps (item, config) to the worker's entry.  `run(backend, args,
    cache_root)` is blk.run_backend (the Tritium build it loads is
    TRITIUM_LIBRARY's); `caches` the folder under which each of them keeps
    its caches across the rounds (fresh ones each round without it)."""
    run = run or blk.run_backend
    cache = (lambda name: os.path.join(caches, name)) if caches else (lambda name: None)
    runs = {"triton": []}
    runs.update({name: [] for name, _ in builds})
    for r in range(args.rounds):
        runs["triton"].append(run("triton", args, cache("triton")))
        print(f"round {r + 1}: triton {timed_count(runs['triton'][-1])} timed", flush=True)
        shift = r % len(builds)
        for name, path in builds[shift:] + builds[:shift]:
            saved = os.environ.get("TRITIUM_LIBRARY")
            os.environ["TRITIUM_LIBRARY"] = path
            try:
                runs[name].append(run("tritium", args, cache(f"build-{name}")))
            finally:
                if saved is None:
                    os.environ.pop("TRITIUM_LIBRARY", None)
                else:
                    os.environ["TRITIUM_LIBRARY"] = saved
            print(f"round {r + 1}: {name} {timed_count(runs[name][-1])} timed", flush=True)
    return runs


def timed_count(result):
    """'N of M entries' for one worker's result: how many it timed."""
    return f"{sum(1 for entry in result.values() if entry.get('ms'))} of {len(result)} entries"


def uncompared(runs, names):
    """{reason: count} over the items some build or Triton reached but not
    all of them timed: each item's first error, in Triton's runs first (a
    worker's budget spent on compiles shows here as 'budget spent')."""
    keys = dict.fromkeys(key for rounds in runs.values() for result in rounds for key in result)
    timed = {who: set(median_times(runs[who])) for who in ["triton"] + names}
    reasons = {}
    for key in keys:
        missing = [who for who in ["triton"] + names if key not in timed[who]]
        if not missing:
            continue
        error = next((res[key]["error"] for res in runs[missing[0]] if res.get(key, {}).get("error")),
                     "not reached")
        reason = f"{missing[0]}: {error.splitlines()[0][:100] if error else 'no time'}"
        reasons[reason] = reasons.get(reason, 0) + 1
    return reasons


def median_times(rounds):
    """{key: median ms over the rounds that timed it}."""
    times = {}
    for result in rounds:
        for key, entry in result.items():
            if entry.get("ms"):
                times.setdefault(key, []).append(entry["ms"])
    return {key: statistics.median(ms) for key, ms in times.items()}


def compare(runs, names):
    """Rows (item, config, Triton's median ms, {name: ratio}, {name: spread},
    [names whose results differ from Triton's]) for the items Triton and
    every build timed, in Triton's order."""
    triton = median_times(runs["triton"])
    medians = {name: median_times(runs[name]) for name in names}
    rows = []
    for key, t in triton.items():
        if not all(key in medians[name] for name in names):
            continue
        ratios = {name: t / medians[name][key] for name in names}
        spread = {}
        for name in names:
            ms = [res[key]["ms"] for res in runs[name] if res.get(key, {}).get("ms")]
            spread[name] = max(ms) / min(ms)
        reference = next((res[key] for res in runs["triton"] if key in res), {})
        differ = [name for name in names
                  if any(blk.check_state(res[key], reference) == "differ" for res in runs[name] if key in res)]
        rows.append((key[0], key[1], t, ratios, spread, differ))
    return rows


def report(rows, names, rounds):
    width = max([len(n) for n in names] + [6])
    print(f"{len(rows)} items under Triton and every build, {rounds} round(s); Triton's time / the build's"
          " (Triton's median ms first: what moves between calls):")
    print(f"{'item':56s} {'config':44s} {'Triton ms':>10s} " + " ".join(f"{n:>{width}s}" for n in names))
    for work, config, triton_ms, ratios, _, differ in rows:
        flag = f"  differ: {', '.join(differ)}" if differ else ""
        print(f"{work[:56]:56s} {config[:44]:44s} {triton_ms:10.4f} " +
              " ".join(f"{ratios[n]:{width}.3f}" for n in names) + flag)
    if rows:
        print("geomean " + ", ".join(f"{n} {blk.geomean([r[3][n] for r in rows]):.3f}" for n in names))
    if rounds > 1 and rows:
        print("largest spread of one build's rounds (max/min ms) " +
              ", ".join(f"{n} {max(r[4][n] for r in rows):.2f}" for n in names))
    differ = [r for r in rows if r[5]]
    if differ:
        print(f"{len(differ)} items whose results differ from Triton's")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("builds", nargs="+", metavar="NAME=LIBRARY")
    ap.add_argument("--cases", required=True)
    ap.add_argument("--match", action="append", default=[])
    ap.add_argument("--max-configs", type=int, default=8)
    ap.add_argument("--budget-s", type=float, default=120)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--json", default="")
    ap.add_argument("--libraries", default=blk.LIBRARIES, help="where the public libraries are")
    args = ap.parse_args(argv)
    args.dump = ""
    for case in args.cases.split(","):
        if case not in blk.CASES:
            ap.error(f"no case {case!r}: {', '.join(blk.CASES)}")
    folder = tempfile.mkdtemp(prefix="ab-libraries-")
    try:
        builds = [unpack(spec, folder) for spec in args.builds]
        names = [name for name, _ in builds]
        if len(set(names)) != len(names) or "triton" in names:
            ap.error("each build needs its own NAME, other than 'triton'")
        runs = run_rounds(args, builds, caches=folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    rows = compare(runs, names)
    report(rows, names, args.rounds)
    for reason, count in sorted(uncompared(runs, names).items(), key=lambda kv: -kv[1]):
        print(f"not compared: {count} items, {reason}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump([{"work": w, "config": c, "triton ms": t, "ratio": r, "spread": s, "differ": d}
                       for w, c, t, r, s, d in rows], f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
