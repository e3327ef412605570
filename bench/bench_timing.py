"""Timing shared by the bench scripts: bandwidth of launch functions timed
in interleaved rounds.

The H100 switches between two bandwidth levels about 0.3% apart for seconds
at a time, so a single measurement per backend would credit the compiler
with the GPU's state.  Each round times every backend once (do_bench: the
median of CUDA-event timings with the L2 flushed between runs); the median
round per backend counts.
"""
import statistics

from tritium.testing import do_bench


def median_ms(fn, quick: bool = False) -> float:
    return do_bench(fn, warmup=25, rep=200 if not quick else 50, return_mode="median")


def fastest(candidates: dict, rounds: int = 3, quick: bool = False):
    """(median ms, key) of the fastest of `candidates` ({key: launch fn}),
    each timed once per round over `rounds` interleaved rounds (1 when
    `quick`), the order rotating every round, the lowest median winning.
    A single timing per candidate moves by 1-3% with the GPU's state,
    enough to pick a config that per-process A/Bs put behind another
    (bench/results/archive.md); a fixed order would also time each candidate
    always right after the same one."""
    rounds = 1 if quick else rounds
    times = {key: [] for key in candidates}
    keys = list(candidates)
    for r in range(rounds):
        for key in keys[r % len(keys):] + keys[:r % len(keys)]:
            times[key].append(median_ms(candidates[key], quick))
    return min(((statistics.median(v), key) for key, v in times.items()), key=lambda t: t[0])


def interleaved_rounds(fns, nbytes: int, quick: bool = False, rounds: int = 5) -> dict:
    """{name: [GB/s of each round], ascending} of the launch functions `fns`
    ({name: fn}), each moving `nbytes`, over `rounds` interleaved rounds (1
    when `quick`)."""
    rounds = 1 if quick else rounds
    samples = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            samples[name].append(nbytes / median_ms(fn, quick) / 1e6)
    return {name: sorted(v) for name, v in samples.items()}


def interleaved_gbps(fns, nbytes: int, quick: bool = False, rounds: int = 5) -> dict:
    """{name: GB/s of the median round} (see interleaved_rounds)."""
    return {name: v[len(v) // 2] for name, v in interleaved_rounds(fns, nbytes, quick, rounds).items()}
