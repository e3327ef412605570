"""bench/bench_library_kernels.py without a GPU: what makes two launches one
item, the comparison of the two compilers' results, and the report a run
prints (geomean, items below 0.95, items only Triton runs, results that
differ)."""
import json
import os
import subprocess
import sys
import types

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "bench")
sys.path.insert(0, BENCH)

import bench_library_kernels as blk  # noqa: E402


class FakeTensor:
    def __init__(self, shape, stride, dtype="bf16"):
        self.shape, self._stride, self.dtype = shape, stride, dtype

    def stride(self):
        return self._stride


FAKE_TORCH = types.SimpleNamespace(Tensor=FakeTensor)


class JITFunction:  # as both compilers' @jit function: the Python function is .fn
    def __init__(self, name):
        def fn():
            pass
        fn.__name__ = name
        self.fn = fn


class Wrapper:  # an autotuner or heuristics object: the launched function is .fn
    def __init__(self, fn):
        self.fn = fn


def test_a_kernel_is_named_through_its_wrappers():
    kernel = JITFunction("_chunk_scan_fwd_kernel")
    assert blk._name(kernel) == "_chunk_scan_fwd_kernel"
    assert blk._name(Wrapper(Wrapper(kernel))) == "_chunk_scan_fwd_kernel"
    # Mamba's layer-norm backward: an autotuner over five heuristics
    stacked = kernel
    for _ in range(6):
        stacked = Wrapper(stacked)
    assert blk._name(stacked) == "_chunk_scan_fwd_kernel"


def test_a_kernel_is_dumped_through_its_wrappers():
    kernel = JITFunction("_layer_norm_bwd_kernel")
    kernel.device_caches = {0: ({}, None)}
    stacked = kernel
    for _ in range(6):  # an autotuner over five heuristics
        stacked = Wrapper(stacked)
    assert blk._jit_function(stacked) is kernel
    assert blk._jit_function(Wrapper(object())) is None


def test_launches_are_one_item_when_shapes_strides_dtypes_and_scalars_agree():
    kernel = Wrapper(JITFunction("k"))
    a = FakeTensor((4, 8), (8, 1))
    sig = blk._signature(FAKE_TORCH, kernel, (a, 3), {"BLOCK": 64})
    assert sig == blk._signature(FAKE_TORCH, kernel, (FakeTensor((4, 8), (8, 1)), 3), {"BLOCK": 64})
    assert sig != blk._signature(FAKE_TORCH, kernel, (FakeTensor((4, 8), (1, 4)), 3), {"BLOCK": 64})
    assert sig != blk._signature(FAKE_TORCH, kernel, (FakeTensor((4, 8), (8, 1), "fp16"), 3), {"BLOCK": 64})
    assert sig != blk._signature(FAKE_TORCH, kernel, (a, 4), {"BLOCK": 64})
    assert sig != blk._signature(FAKE_TORCH, kernel, (a, 3), {"BLOCK": 128})
    assert sig != blk._signature(FAKE_TORCH, Wrapper(JITFunction("other")), (a, 3), {"BLOCK": 64})


def test_results_compare_by_sum_and_magnitude():
    same = {"check": [[10.0, 100.0], [1.0, 2.0]]}
    assert blk.check_state(same, {"check": [[10.05, 100.0], [1.0, 2.0]]}) == "same"
    assert blk.check_state(same, {"check": [[10.2, 100.0], [1.0, 2.0]]}) == "differ"
    assert blk.check_state(same, {"check": [[10.0, 100.0]]}) == "differ"
    assert blk.check_state(same, {}) == "-"
    nan = float("nan")
    assert blk.check_state({"check": [[nan, nan]]}, {"check": [[nan, nan]]}) == "same"
    assert blk.check_state({"check": [[nan, nan]]}, {"check": [[1.0, 1.0]]}) == "differ"


def test_the_report_compares_config_by_config(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("TRITIUM_RESULTS_DIR", str(tmp_path))
    def entry(work, config, ms, check=((1.0, 1.0),), **extra):
        return {"work": work, "config": config, "ms": ms, "compile_s": 0.5, "check": [list(c) for c in check],
                **extra}
    triton = {("case k#1", "A"): entry("case k#1", "A", 1.0), ("case k#1", "B"): entry("case k#1", "B", 2.0),
              ("case j#1", "as launched"): entry("case j#1", "as launched", 1.0),
              ("other m#1", "A"): entry("other m#1", "A", 1.0, check=((5.0, 5.0),))}
    tritium = {("case k#1", "A"): entry("case k#1", "A", 0.5), ("case k#1", "B"): entry("case k#1", "B", 2.5),
               ("case j#1", "as launched"): {"work": "case j#1", "config": "as launched",
                                             "error": "CompilationError: out of resources"},
               ("other m#1", "A"): entry("other m#1", "A", 1.0, check=((6.0, 6.0),))}
    rows, notes = blk.report(blk.table_rows({"tritium": tritium, "triton": triton}), partial="a test")
    ratios = {(r["work"], r["config"]): r["ratio"] for r in rows}
    assert ratios == {("case k#1", "A"): 2.0, ("case k#1", "B"): 0.8, ("case j#1", "as launched"): None,
                      ("other m#1", "A"): 1.0}
    assert notes[0].startswith("3 (kernel launch, config) items under both: speed geomean 1.170")
    assert "1 below 0.95" in notes[0]
    assert any(n.startswith("1 items Triton runs and Tritium does not: case j#1 [as launched]: CompilationError")
               for n in notes)
    assert any(n.startswith("1 items whose results differ: other m#1 [A]") for n in notes)
    assert "0.800  case k#1  [B]" in capsys.readouterr().out
    with open(tmp_path / "bench_library_kernels.partial.json") as f:
        assert json.load(f)["partial"] == "a test"


def _record(directory, name, rows, command, **fields):
    data = {"script": "bench_library_kernels", "rows": rows, "command": command, "gpu": "H200", "commit": "abc",
            "modified": False, **fields}
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        json.dump(data, f)
    return path


def _row(work, config, tritium, triton, **extra):
    return {"work": work, "config": config, "unit": "ms", "tritium": tritium, "triton": triton,
            "ratio": round(triton / tritium, 3), "tritium compile s": 0.5, "triton compile s": 0.6,
            "check": "same", **extra}


def test_records_of_groups_of_cases_merge_into_one(tmp_path, monkeypatch):
    out = tmp_path / "out"
    monkeypatch.setenv("TRITIUM_RESULTS_DIR", str(out))
    cases = list(blk.CASES)
    half = len(cases) // 2
    first = _record(tmp_path, "a.json", [_row(f"{c} k#1", "w4", 1.0, 1.0) for c in cases[:half]],
                    "bench_library_kernels.py --cases " + ",".join(cases[:half]), partial="cases ...")
    second = _record(tmp_path, "b.json", [_row(f"{c} k#1", "w4", 1.0, 2.0) for c in cases[half:]],
                     "bench_library_kernels.py --cases " + ",".join(cases[half:]), partial="cases ...")
    rows, notes = blk.merge([first, second])
    assert len(rows) == len(cases)
    assert any(n.startswith("joined from 2 runs") for n in notes)
    with open(out / "bench_library_kernels.json") as f:  # whole: every case, nothing left, one GPU and commit
        data = json.load(f)
    assert "partial" not in data and data["gpu"] == "H200" and data["commit"] == "abc"

    # one group alone, a budget that left items, or another commit: partial
    rows, _ = blk.merge([first])
    with open(out / "bench_library_kernels.partial.json") as f:
        assert json.load(f)["partial"].startswith("cases not run: " + cases[half])
    left = _record(tmp_path, "c.json", [_row(f"{c} k#1", "w4", 1.0, 2.0) for c in cases[half:]] +
                   [{"work": cases[-1] + " k#1", "config": "w8", "unit": "ms", "tritium": None, "triton": 1.0, "ratio": None,
                     "tritium compile s": None, "triton compile s": 0.6, "check": "-",
                     "tritium error": "budget spent"}],
                   "...", partial="cases ...", commit="def")
    blk.merge([first, left])
    with open(out / "bench_library_kernels.partial.json") as f:
        why = json.load(f)["partial"]
    assert "1 items left by --budget-s" in why and "runs of different commits" in why
    matched = _record(tmp_path, "d.json", [_row(f"{c} k#1", "w4", 1.0, 2.0) for c in cases[half:]], "...",
                      partial="cases ...; items matching ['k#1']")
    blk.merge([first, matched])
    with open(out / "bench_library_kernels.partial.json") as f:
        assert json.load(f)["partial"] == "a run was partial: items matching ['k#1']"


def test_an_unknown_case_is_refused():
    run = subprocess.run([sys.executable, os.path.join(BENCH, "bench_library_kernels.py"), "--cases", "nope"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "no case 'nope'" in run.stderr


class FakeTuner:
    """The parts of an autotuner _candidates uses: its argument names, its
    list, the pruner hooks and prune_configs (as both compilers define it:
    early_config_prune(configs, nargs, **kwargs))."""
    arg_names = ["a", "M"]
    perf_model = None

    def __init__(self, configs, early_config_prune=None):
        self.configs, self.early_config_prune = configs, early_config_prune

    def prune_configs(self, kwargs):
        return self.early_config_prune(self.configs, self.nargs, **kwargs)


def test_a_launch_replays_the_configs_its_autotuner_would_compare():
    configs = [{"BLOCK_M": 16}, {"BLOCK_M": 64}, {"BLOCK_M": 128}]
    # without a pruner: the whole list
    assert blk._candidates(FakeTuner(configs), configs, ("a", 40), {}) == configs

    # a pruner that keeps the blocks fitting the launch's M and completes them
    def prune(cs, nargs, **kwargs):
        return [dict(c, NUM_STAGES=kwargs["stages"]) for c in cs if c["BLOCK_M"] <= nargs["M"]]
    tuner = FakeTuner([configs[0]], prune)
    got = blk._candidates(tuner, configs, ("a", 64), {"stages": 3})
    assert got == [{"BLOCK_M": 16, "NUM_STAGES": 3}, {"BLOCK_M": 64, "NUM_STAGES": 3}]
    assert tuner.configs == [configs[0]]  # the tuner's own list is left as it was

    # a pruner that fails prunes nothing
    def broken(cs, nargs, **kwargs):
        raise KeyError("N")
    assert blk._candidates(FakeTuner(configs, broken), configs, ("a", 64), {}) == configs


def test_each_library_runs_in_its_own_worker_within_one_budget(monkeypatch):
    # Cases of different libraries go to separate processes (a library on
    # the path changes another's imports), in turn, each given what is left
    # of --budget-s; a library reached after the budget is recorded as left.
    calls = []
    clock = iter([0.0, 1.0, 31.0, 70.0])
    monkeypatch.setattr(blk.time, "monotonic", lambda: next(clock))

    def fake_run(cmd, env, capture_output, text, timeout):
        cases = cmd[cmd.index("--cases") + 1]
        calls.append((cases, float(cmd[cmd.index("--budget-s") + 1])))
        with open(cmd[cmd.index("--out") + 1], "a") as f:
            for case in cases.split(","):
                f.write(json.dumps({"case": case, "work": case + " k", "config": "w4", "ms": 1.0}) + "\n")
        return types.SimpleNamespace(returncode=0, stderr="")

    monkeypatch.setattr(blk.subprocess, "run", fake_run)
    args = types.SimpleNamespace(cases="mamba_rms_norm,fla_gla,mamba_gated_norm,torchao_fp8_blockwise",
                                 libraries="L", max_configs=4, budget_s=60.0, match=[], dump="")
    results = blk.run_backend("tritium", args)
    assert calls == [("mamba_rms_norm,mamba_gated_norm", 59.0), ("fla_gla", 29.0)]
    assert results[("torchao_fp8_blockwise", "")]["error"] == "budget spent"
    assert ("fla_gla k", "w4") in results and ("mamba_gated_norm k", "w4") in results
