"""bench/bench_corpus.py without a GPU: the item list (at least the 150
items issue-42's corpus asks for, each family present, shards that
partition it) and the summary a run prints (geomean, worst items, compile
ratio, failures)."""
import os
import subprocess
import sys

import pytest

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "bench")
sys.path.insert(0, BENCH)

import bench_corpus  # noqa: E402


def listed(*args):
    run = subprocess.run([sys.executable, os.path.join(BENCH, "bench_corpus.py"), "--list", *args],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip().splitlines()[:-1]


def test_the_corpus_has_every_family_and_enough_items():
    items = listed()
    assert len(items) >= 150
    assert {line.split()[0] for line in items} == set(bench_corpus.FAMILIES)
    # every 8-warp attention config is an item in both dtypes, head dims and masks
    eight = [line for line in items if line.split()[0] == "attention" and line.endswith(", 8)")]
    # (fp16 and bf16 at head dims 64 and 128, fp8 and add_product at 128; fp16 at 256 over its own list)
    assert len(eight) == (2 * 2 * 2 + 2 + 2) * sum(1 for c in bench_corpus.CONFIGS_ATTN if c[3] == 8) + \
        2 * sum(1 for c in bench_corpus.CONFIGS_ATTN_D256 if c[3] == 8)


def defines(kernel_file, names):
    """Whether bench/kernels/<kernel_file> defines every function of `names`."""
    with open(os.path.join(BENCH, "kernels", kernel_file)) as f:
        source = f.read()
    return all(f"def {name}(" in source for name in names)


def test_tutorial_06_attention_is_timed_in_each_form_at_every_config():
    items = listed("--families", "attention_forms")
    assert len(items) == 3 * 3 * len(bench_corpus.CONFIGS_ATTN)
    assert {line.split("'")[1] for line in items} == {"pointers", "block_pointers", "descriptors"}
    assert defines("attention.py", bench_corpus.ATTENTION_FORMS.values())


def test_tutorial_06_backward_is_timed_in_each_form_at_every_config():
    items = listed("--families", "attention_bwd")
    assert len(items) == 3 * 4 * len(bench_corpus.CONFIGS_ATTN_BWD)
    assert {line.split("'")[1] for line in items} == {"pointers", "block_pointers", "descriptors"}
    assert defines("attention_bwd.py", [*bench_corpus.ATTENTION_BWD_FORMS.values(), "bwd_preprocess", "attn_fwd_lse"])


@pytest.mark.parametrize("n", [2, 3])
def test_shards_partition_the_items(n):
    whole = listed()
    shards = [listed("--shard", f"{k}/{n}") for k in range(1, n + 1)]
    assert sorted(sum(shards, [])) == sorted(whole)
    assert all(abs(len(s) - len(whole) / n) <= 1 for s in shards)


def test_summary_counts_only_items_both_compilers_ran():
    rows = [
        {"work": "attention fp16 128 False", "config": "(128, 64, 3, 8)", "unit": "TFLOP/s", "tritium": 300.0,
         "triton": 400.0, "ratio": 0.75, "tritium compile s": 1.0, "triton compile s": 2.0},
        {"work": "matmul fp16", "config": "(128, 256, 64, 8, 3, 8)", "unit": "TFLOP/s", "tritium": 600.0,
         "triton": 500.0, "ratio": 1.2, "tritium compile s": 0.5, "triton compile s": 1.0},
        {"work": "inductor_mm fp32", "config": "(128, 128, 128, 4, 8)", "unit": "TFLOP/s", "tritium": 3.0,
         "triton error": "OutOfResources: out of resource: shared memory"},
    ]
    lines = bench_corpus.summary(rows)
    assert lines[0] == "items 3, compared 2, geomean Tritium/Triton 0.949"
    assert "Tritium 1.5, Triton 3.0 (0.50x)" in lines[1]
    worst = lines.index("worst 15:")
    assert lines[worst + 1].startswith("  0.750  attention fp16 128 False (128, 64, 3, 8)")
    assert lines[-1].startswith("failed: inductor_mm fp32 (128, 128, 128, 4, 8): triton error: OutOfResources")


def test_tutorial_09_matmuls_are_timed_at_every_config():
    items = listed("--families", "persistent_matmul")
    assert len(items) == len(bench_corpus.PERSISTENT_KERNELS) * 2 * len(bench_corpus.CONFIGS_PERSISTENT)
    assert defines("persistent_matmul.py", bench_corpus.PERSISTENT_KERNELS)


def test_tutorial_08_grouped_matmul_is_a_matmul_form():
    items = [line for line in listed("--families", "matmul_forms") if "'grouped'" in line]
    assert len(items) == len(bench_corpus.CONFIGS_GROUPED)
    assert defines("matmul_forms.py", ["grouped_matmul"])
    assert all(m % 128 == 0 for m in bench_corpus.GROUP_ROWS)  # the kernel takes sizes multiple of its blocks


def test_seeded_dropout_reference_is_the_tutorial_kernel_on_the_cpu():
    # The corpus checks tutorial 04's dropout against bench/philox_reference.py;
    # the kernel run on the CPU target keeps exactly the elements it says.
    import numpy as np

    import kernel_sources
    import philox_reference
    import tritium
    import tritium.language as tl
    tutorials = kernel_sources.load_kernels(["tutorials.py"], tritium, tl, "corpus-test")
    n, p, seed = 3000, 0.5, 123
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    out = np.empty_like(x)
    tutorials._seeded_dropout[((n + 1023) // 1024,)](x, out, n, p, seed, BLOCK_SIZE=1024)
    keep = philox_reference.uniform(np, seed, np.arange(n, dtype=np.int64)) > np.float32(p)
    assert 0.4 < keep.mean() < 0.6
    np.testing.assert_array_equal(out, np.where(keep, x / np.float32(1 - p), np.float32(0)))


def test_head_dim_256_fp8_attention_int8_and_dropout_items():
    items = listed("--families", "attention,matmul_forms,tutorials")
    d256 = [line for line in items if line.startswith("attention ('fp16', 256,")]
    assert len(d256) == 2 * len(bench_corpus.CONFIGS_ATTN_D256)
    fp8 = [line for line in items if line.startswith("attention ('fp8', 128,")]
    assert len(fp8) == 2 * len(bench_corpus.CONFIGS_ATTN)
    added = [line for line in items if "'add_product')" in line]
    assert len(added) == 2 * sum(1 for c in bench_corpus.CONFIGS_ATTN if c[3] == 8) and defines("attention_one_loop.py", ["attn_fwd_one_loop"])
    int8 = [line for line in items if line.startswith("matmul_forms ('int8', 'int8')")]
    assert len(int8) == len(bench_corpus.CONFIGS_MM_FP8)
    assert defines("matmul_forms.py", ["int8_matmul"])
    assert sum(line.startswith("tutorials ('seeded_dropout',") for line in items) == 3
