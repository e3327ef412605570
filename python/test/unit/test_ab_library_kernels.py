"""bench/tools/ab_library_kernels.py without a GPU: the rounds' order, the
medians, the ratios to Triton, the results check and the spread, on fake
worker results."""
import os
import sys
import types

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "bench", "tools"))
import ab_library_kernels as ab  # noqa: E402

ITEM = ("mamba_rms_norm _layer_norm_bwd_kernel#1", "w1 s3")
OTHER = ("gemlite_gemm gemm_INT_kernel#1", "BLOCK_SIZE_K=64 w8 s2")
CHECK = [[10.0, 20.0]]


def fake_run(times, calls, caches=None):
    """A worker stand-in: ms per (backend or build, round) from `times`;
    the cache folder of each call goes to `caches`."""
    rounds = {}
    caches = [] if caches is None else caches

    def run(backend, args, cache_root=None):
        name = backend if backend == "triton" else os.path.basename(os.environ["TRITIUM_LIBRARY"])
        caches.append(cache_root)
        r = rounds.get(name, 0)
        rounds[name] = r + 1
        calls.append(name)
        result = {}
        for key, per_round in times[name].items():
            ms = per_round[r]
            result[key] = {"work": key[0], "config": key[1], "ms": ms,
                           "check": [[11.0, 20.0]] if ms < 0 else CHECK}
            if ms < 0:
                result[key]["ms"] = -ms
        return result
    return run


def test_rounds_rotate_the_builds_and_ratios_use_medians(monkeypatch):
    times = {"triton": {ITEM: [1.0, 1.2, 1.1], OTHER: [0.3, 0.3, 0.3]},
             "a": {ITEM: [2.0, 2.4, 2.2], OTHER: [0.31, 0.29, 0.30]},
             "b": {ITEM: [1.1, 1.0, 1.2], OTHER: [0.6, 0.6, 0.6]}}
    calls = []
    args = types.SimpleNamespace(rounds=3)
    runs = ab.run_rounds(args, [("a", "/x/a"), ("b", "/x/b")], run=fake_run(times, calls))
    assert calls == ["triton", "a", "b", "triton", "b", "a", "triton", "a", "b"]
    rows = ab.compare(runs, ["a", "b"])
    by_item = {(w, c): (r, s, d) for w, c, _, r, s, d in rows}
    ratios, spread, differ = by_item[ITEM]
    assert ratios["a"] == pytest.approx(1.1 / 2.2) and ratios["b"] == pytest.approx(1.1 / 1.1)
    assert spread["a"] == pytest.approx(2.4 / 2.0)
    assert differ == []
    assert by_item[OTHER][0]["b"] == pytest.approx(0.5)
    assert "TRITIUM_LIBRARY" not in os.environ or os.environ["TRITIUM_LIBRARY"] not in ("/x/a", "/x/b")


def test_an_item_a_build_did_not_time_is_left_out_and_differences_are_flagged(capsys):
    times = {"triton": {ITEM: [1.0], OTHER: [0.3]},
             "a": {ITEM: [-1.0]},  # results differ from Triton's
             "b": {ITEM: [1.0], OTHER: [0.3]}}
    runs = ab.run_rounds(types.SimpleNamespace(rounds=1), [("a", "/y/a"), ("b", "/y/b")], run=fake_run(times, []))
    rows = ab.compare(runs, ["a", "b"])
    assert [(w, c) for w, c, *_ in rows] == [ITEM]
    assert rows[0][5] == ["a"]
    ab.report(rows, ["a", "b"], 1)
    out = capsys.readouterr().out
    assert "differ: a" in out and "geomean a 1.000, b 1.000" in out
    assert "    1.0000  " in out  # Triton's median ms beside the ratios


def test_a_build_must_be_name_equals_an_existing_file(tmp_path):
    with pytest.raises(SystemExit):
        ab.unpack("nolibrary", str(tmp_path))
    with pytest.raises(SystemExit):
        ab.unpack(f"a={tmp_path}/missing.so", str(tmp_path))
    lib = tmp_path / "lib.so"
    lib.write_bytes(b"\x7fELF")
    assert ab.unpack(f"a={lib}", str(tmp_path)) == ("a", str(lib.resolve()))


def test_items_left_uncompared_are_counted_by_their_first_error():
    # Triton's worker ran out of its budget on OTHER; build a never reached THIRD
    third = ("fla_gla chunk_fwd_kernel_h#1", "BK=64 BV=32 w1 s2")
    runs = {"triton": [{ITEM: {"ms": 1.0}, OTHER: {"error": "budget spent"}}],
            "a": [{ITEM: {"ms": 1.0}, OTHER: {"ms": 0.3}, third: {"ms": 0.2}}],
            "b": [{ITEM: {"ms": 1.0}, OTHER: {"ms": 0.3}}]}
    assert ab.uncompared(runs, ["a", "b"]) == {"triton: budget spent": 1, "triton: not reached": 1}
    assert ab.timed_count(runs["triton"][0]) == "1 of 2 entries"


def test_each_worker_keeps_its_caches_across_the_rounds():
    times = {"triton": {ITEM: [1.0, 1.0]}, "a": {ITEM: [1.0, 1.0]}, "b": {ITEM: [1.0, 1.0]}}
    caches = []
    ab.run_rounds(types.SimpleNamespace(rounds=2), [("a", "/z/a"), ("b", "/z/b")],
                  run=fake_run(times, [], caches), caches="/tmp/ab")
    assert caches == ["/tmp/ab/triton", "/tmp/ab/build-a", "/tmp/ab/build-b",
                      "/tmp/ab/triton", "/tmp/ab/build-b", "/tmp/ab/build-a"]
    caches.clear()
    ab.run_rounds(types.SimpleNamespace(rounds=1), [("a", "/z/a")], run=fake_run(times, [], caches))
    assert caches == [None, None]
