"""The layout fuzzer (tools/fuzz/layout_fuzz.py) without a GPU: its programs
are reproducible, cover every kind of layout it draws, and compile; the
GPU runs (scripts/gpu_run.sh, bench/RESULTS.md) check their outputs."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tools", "fuzz"))

import layout_fuzz  # noqa: E402
from layout_generator import generate  # noqa: E402


def test_a_seed_gives_the_same_program():
    assert generate(17).source == generate(17).source
    assert generate(17).source != generate(18).source


def test_the_programs_draw_every_kind_of_layout():
    text = "".join(generate(seed).source for seed in range(200))
    for kind in ("#ttg.blocked", "#ttg.linear", "versionMajor=2", "versionMajor=3", "#ttg.dot_op",
                 "#ttg.swizzled_shared", "#ttg.nvmma_shared", "xi32", "xf16"):
        assert kind in text, kind


def test_the_first_seeds_compile():
    outcomes = [layout_fuzz.check_seed(seed) for seed in range(40)]
    assert all(o["outcome"] == "ok" for o in outcomes), [o for o in outcomes if o["outcome"] != "ok"]
