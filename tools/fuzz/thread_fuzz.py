"""Concurrent-compile fuzzing: the programs of kernel_generator.py (valid and
invalid) compiled in one process, first one after another, then again on
several threads at once, with the disk cache bypassed.  Compiles on several
threads each run in an MLIR context of their own (capi/CompileContext.cpp)
and start their own ptxas; what a thread gets must be what the serial
compile got: the same PTX for a valid program, the same error (kind, line,
first line of the message) for an invalid one.

A difference prints the seed, which `compile_fuzz.py --show SEED
[--invalid]` turns back into its program.

Usage:
  python tools/fuzz/thread_fuzz.py [--first SEED] [--count N] [--threads T]
Seeds first .. first + count - 1 give 2 x count programs.  Exit status 1
when any program differs.
"""
import argparse
import hashlib
import os
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import compile_fuzz  # noqa: E402


def _outcomes(jobs, threads, workdir):
    """(status, line, message, PTX digest) of each (seed, invalid) job,
    compiled on `threads` threads (1: in order on this one)."""
    import tritium
    compile_fn = tritium.compile
    ptx = {}

    def recording_compile(*args, **kwargs):
        kernel = compile_fn(*args, **kwargs)
        ptx[threading.get_ident()] = hashlib.sha256(kernel.asm["ptx"].encode()).hexdigest()
        return kernel

    def outcome(job):
        ptx.pop(threading.get_ident(), None)
        result = compile_fuzz._compile_one(job[0], job[1], workdir)
        return (result["status"], result.get("line"), result.get("message", ""),
                ptx.get(threading.get_ident()))

    tritium.compile = recording_compile
    try:
        if threads == 1:
            return [outcome(job) for job in jobs]
        with ThreadPoolExecutor(threads) as pool:
            return list(pool.map(outcome, jobs))
    finally:
        tritium.compile = compile_fn


def run(first: int, count: int, threads: int) -> list:
    """The jobs whose threaded outcome differs from the serial one, as
    (seed, kind, serial outcome, threaded outcome)."""
    os.environ["TRITIUM_ALWAYS_COMPILE"] = "1"
    jobs = [(seed, invalid) for seed in range(first, first + count) for invalid in (False, True)]
    with tempfile.TemporaryDirectory(prefix="tritium-thread-fuzz-") as workdir:
        serial = _outcomes(jobs, 1, workdir)
        threaded = _outcomes(jobs, threads, workdir)
    return [(seed, "invalid" if invalid else "valid", s, t)
            for (seed, invalid), s, t in zip(jobs, serial, threaded) if s != t]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args(argv)
    differing = run(args.first, args.count, args.threads)
    for seed, kind, serial, threaded in differing:
        print(f"seed {seed} ({kind}): serial {serial}, on {args.threads} threads {threaded}")
    print(f"{2 * args.count} programs (seeds {args.first}..{args.first + args.count - 1}) on "
          f"{args.threads} threads: {len(differing)} differing from the serial compile")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
