"""The layout fuzzer (tools/fuzz/layout_fuzz.py) without a GPU: its programs
are reproducible, cover every kind of layout and op it draws, and compile;
the GPU runs (bench/RESULTS.md) check their outputs."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tools", "fuzz"))

import layout_fuzz  # noqa: E402
from layout_generator import generate  # noqa: E402


def test_a_seed_gives_the_same_program():
    assert generate(17).source == generate(17).source
    assert generate(17).source != generate(18).source


def test_the_programs_draw_every_kind_of_layout_and_op():
    text = "".join(generate(seed).source for seed in range(200))
    assert "versionMajor=3, versionMinor=0, warpsPerCTA=[1, " in text  # fewer than a warpgroup along M
    for kind in ("#ttg.blocked", "#ttg.linear", "versionMajor=2", "versionMajor=3", "#ttg.dot_op",
                 "#ttg.swizzled_shared", "#ttg.nvmma_shared", "xi32", "xf16", '"tt.reduce"', '"tt.scan"',
                 "reverse = true", "reverse = false", "%s:2 = \"tt.reduce\"(%x, %idx)", "tt.trans", "tt.reshape",
                 "tt.gather"):
        assert kind in text, kind


def test_the_first_seeds_compile():
    # scans and reductions over layouts their lowerings refuse go through a
    # blocked layout (ttg-legalize-reduction-layouts): every seed compiles
    outcomes = [layout_fuzz.check_seed(seed) for seed in range(60)]
    assert all(o["outcome"] == "ok" for o in outcomes), [o for o in outcomes if o["outcome"] != "ok"]


_FAULTED = False  # per worker process, as a lost CUDA context is


def fake_check(seed: int) -> dict:
    """check_seed's outcomes as a GPU worker gives them: seeds that divide by
    7 fault, and the worker runs nothing after its first fault."""
    global _FAULTED
    if _FAULTED:
        return {"seed": seed, "outcome": "unrun", "message": ""}
    if seed % 7 == 0:
        _FAULTED = True
        return {"seed": seed, "outcome": "fault", "message": "illegal address"}
    return {"seed": seed, "outcome": "ok", "message": ""}


def test_seeds_a_faulted_worker_left_run_again_in_fresh_workers():
    records, unfinished = layout_fuzz.run_rounds(list(range(1, 60)), 2, 60.0, fake_check)
    outcomes = {r["seed"]: r["outcome"] for r in records}
    assert not unfinished and sorted(outcomes) == list(range(1, 60))
    assert all(outcomes[s] == ("fault" if s % 7 == 0 else "ok") for s in outcomes)
