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
    for kind in ("#ttg.blocked", "#ttg.linear", "versionMajor=2", "versionMajor=3", "#ttg.dot_op",
                 "#ttg.swizzled_shared", "#ttg.nvmma_shared", "xi32", "xf16", '"tt.reduce"', '"tt.scan"',
                 "reverse = true", "reverse = false"):
        assert kind in text, kind


def test_the_first_seeds_compile():
    # a scan over a layout its lowering does not take is "unsupported" (its
    # documented limits); everything else compiles
    outcomes = [layout_fuzz.check_seed(seed) for seed in range(60)]
    assert all(o["outcome"] == "ok" or (o["outcome"] == "unsupported" and generate(o["seed"]).op == "cumsum")
               for o in outcomes), [o for o in outcomes if o["outcome"] != "ok"]
    assert sum(o["outcome"] == "ok" for o in outcomes) >= 50
