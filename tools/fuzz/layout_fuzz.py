"""Layout fuzzing: random layout conversions, reductions, scans, argmaxes,
transposes, reshapes and gathers (layout_generator.py) compiled from TTGIR
(`triton.compile(path)`) and, where torch sees a GPU, run: the output must
equal torch's result for the same input bit for bit.

Outcomes per seed:
  ok        compiled (and, on a GPU, every element right);
  refused   a layout the TTG verifier rejects (printed, not a failure: the
            generator's choice, e.g. a kWidth the parent cannot take);
  unsupported  a scan the scan lowering does not take (its documented
            limits; counted apart; since ttg-legalize-reduction-layouts such
            scans go through a blocked layout, so none is expected);
  too big   the conversion's scratch exceeds shared memory (OutOfResources;
            a known limit, counted apart);
  failed    any other error;  wrong  a wrong element;
  fault     the kernel faulted (e.g. an illegal address); the worker's CUDA
            context is then lost, and its later seeds are only compiled
            ("unrun"): they run again in a pool of fresh workers, round
            after round, until none is left;
  crash     a worker died or no seed finished for --stall seconds.
Usage: python tools/fuzz/layout_fuzz.py [--count N] [--first SEED] [--jobs J]
       python tools/fuzz/layout_fuzz.py --show SEED
Exit status 1 when any seed failed, was wrong or crashed.
"""
import argparse
import collections
import multiprocessing
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

from layout_generator import generate  # noqa: E402

_WORKDIR = None
_POISONED = False  # a kernel of this worker faulted: its CUDA context is gone


def _gpu():
    try:
        import torch
        return torch if torch.cuda.is_available() else None
    except ImportError:
        return None


def expected(program, x, torch):
    """What the program writes for input `x`: x itself, its int32 sums along
    the axis, or its running sums (sums wrap as int32 additions do)."""
    if program.op == "copy":
        return x
    if program.op == "sum":
        return x.to(torch.int64).sum(dim=program.axis).to(torch.int32)
    if program.op == "argmax":
        return torch.argmax(x, dim=program.axis).to(torch.int32)  # the first on ties, as the kernel
    if program.op == "trans":
        return x.t().contiguous()
    if program.op == "reshape":
        return x.reshape(-1)
    if program.op == "gather":
        length = x.shape[program.axis]
        coord = torch.arange(length, device=x.device)
        index = ((coord * 5 + 3) % length).to(torch.int64)
        index = index[:, None].expand_as(x) if program.axis == 0 else index[None, :].expand_as(x)
        return torch.gather(x, program.axis, index)
    wide = x.to(torch.int64)
    if program.reverse:
        wide = wide.flip(program.axis)
    running = torch.cumsum(wide, dim=program.axis)
    if program.reverse:
        running = running.flip(program.axis)
    return running.to(torch.int32)


def check_seed(seed: int) -> dict:
    """One program: compile it (and run it where there is a GPU)."""
    global _WORKDIR, _POISONED
    import tritium
    from tritium.errors import OutOfResources
    if _WORKDIR is None:
        _WORKDIR = tempfile.mkdtemp(prefix="tritium-layout-fuzz-")
    program = generate(seed)
    path = os.path.join(_WORKDIR, f"layout{seed}.ttgir")
    with open(path, "w") as f:
        f.write(program.source)
    record = {"seed": seed, "outcome": "ok", "message": ""}
    torch = _gpu()
    try:
        kernel = tritium.compile(path)
        if torch is not None and _POISONED:
            record.update(outcome="unrun", message="an earlier kernel of this worker faulted")
        elif torch is not None:
            dtype = torch.int32 if program.dtype == "i32" else torch.float16
            if program.op == "argmax":  # a few values: ties
                x = torch.randint(-4, 4, (program.m, program.n), dtype=dtype, device="cuda")
            elif dtype == torch.int32:
                x = torch.randint(-2**31, 2**31 - 1, (program.m, program.n), dtype=dtype, device="cuda")
            else:
                x = torch.randn(program.m, program.n, device="cuda").to(dtype)
            want = expected(program, x, torch)
            z = torch.full_like(want, 77)
            kernel[(1, 1, 1)](x.data_ptr(), z.data_ptr())
            torch.cuda.synchronize()
            bits = torch.int16 if dtype == torch.float16 else torch.int32
            if not torch.equal(want.view(bits), z.view(bits)):
                wrong = (want.view(bits) != z.view(bits)).sum().item()
                record.update(outcome="wrong", message=f"{program.op}: {wrong} of {want.numel()} elements wrong")
    except OutOfResources as e:
        record.update(outcome="too big", message=str(e).splitlines()[0][:200])
    except tritium.CompilationError as e:
        first = str(e).splitlines()[0]
        outcome = "failed"
        if "#ttg." in first and ("invalid" in first or "field" in first):
            outcome = "refused"
        elif "cannot lower the scan" in first:
            outcome = "unsupported"
        record.update(outcome=outcome, message=first.split(": error: ")[-1][:300])
    except Exception as e:  # noqa: BLE001 - reported with its text
        text = f"{type(e).__name__}: {e}"
        if "CUDA error" in text:  # a fault: the context cannot run anything more
            _POISONED = True
            record.update(outcome="fault", message=text.splitlines()[0][:300])
        else:
            record.update(outcome="failed", message=text[:300])
    return record


def run_pool(seeds, jobs: int, stall: float, check=None):
    """(records, unfinished seeds) of one pool of `jobs` fresh workers over
    `seeds`; unfinished when no seed finished for `stall` seconds."""
    records = []
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        results = pool.imap_unordered(check or check_seed, seeds)
        for _ in seeds:
            try:
                records.append(results.next(timeout=stall))
            except multiprocessing.TimeoutError:
                done = {r["seed"] for r in records}
                pool.terminate()
                return records, [s for s in seeds if s not in done]
    return records, []


def run_rounds(seeds, jobs: int, stall: float, check=None):
    """Runs `seeds` in pools of fresh workers, again for the seeds a faulted
    worker left unrun, until none is left or a round makes no progress;
    returns (records, unfinished seeds)."""
    records, pending = {}, list(seeds)
    while pending:
        batch, unfinished = run_pool(pending, max(1, jobs), stall, check)
        for r in batch:
            records[r["seed"]] = r
        if unfinished:
            return list(records.values()), unfinished
        rerun = [r["seed"] for r in batch if r["outcome"] == "unrun"]
        if len(rerun) == len(pending):  # no progress
            break
        pending = rerun
    return list(records.values()), []


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--stall", type=float, default=120.0)
    parser.add_argument("--show", type=int)
    args = parser.parse_args(argv)
    if args.show is not None:
        print(generate(args.show).source)
        return 0
    # compiled apart from the user's cache (the workers inherit this)
    os.environ["TRITIUM_CACHE_DIR"] = tempfile.mkdtemp(prefix="tritium-layout-fuzz-cache-")
    start = time.monotonic()
    seeds = list(range(args.first, args.first + args.count))
    records, unfinished = run_rounds(seeds, args.jobs, args.stall)
    tally = collections.Counter(r["outcome"] for r in records)
    bad = [r for r in sorted(records, key=lambda r: r["seed"]) if r["outcome"] in ("failed", "wrong", "fault")]
    for r in bad:
        print(f"seed {r['seed']}: {r['outcome']}: {r['message']}")
    for kind in ("refused", "unsupported"):
        messages = collections.Counter(r["message"] for r in records if r["outcome"] == kind)
        for message, count in messages.most_common(8):
            print(f"{kind} {count}x: {message}")
    if unfinished:
        print(f"crash: no seed finished in {args.stall:.0f} s; unfinished: {' '.join(map(str, unfinished[:40]))}")
    mode = "compiled and run on the GPU" if _gpu() is not None else "compiled (no GPU)"
    print(f"{len(records)} of {len(seeds)} layout programs {mode} in {time.monotonic() - start:.0f} s: " +
          ", ".join(f"{k} {v}" for k, v in sorted(tally.items())))
    return 1 if bad or unfinished else 0


if __name__ == "__main__":
    sys.exit(main())
