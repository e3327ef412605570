"""bench/bench_torch_compile.py's driver without a GPU: a case's process
group ends at its result line (Inductor's compile workers with it), a case
that prints none by its deadline is a timeout, parts of a run merge into the
record of the case set they cover, the record states where the cases ran,
and it names a case a compiler did not finish, with the error."""
import json
import os
import sys
import textwrap
import time

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "bench"))
import bench_torch_compile as btc  # noqa: E402
import torch_zoo  # noqa: E402


def test_the_process_group_ends_at_the_result_line(tmp_path):
    pid_file = tmp_path / "worker.pid"
    case = textwrap.dedent(f"""
        import json, subprocess, sys, time
        worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        open({str(pid_file)!r}, "w").write(str(worker.pid))
        print("ZOO " + json.dumps({{"cold_s": 1.0}}), flush=True)
        time.sleep(60)
    """)
    start = time.monotonic()
    out, tail = btc.run_until_result([sys.executable, "-c", case], dict(os.environ), timeout=120)
    assert time.monotonic() - start < 30
    assert out.strip().splitlines()[-1] == 'ZOO {"cold_s": 1.0}' and tail == ""
    worker = int(pid_file.read_text())
    for _ in range(100):  # killed; gone once its parent (init) reaps it
        if not os.path.exists(f"/proc/{worker}") or open(f"/proc/{worker}/stat").read().split()[2] == "Z":
            break
        time.sleep(0.05)
    else:
        pytest.fail("the case's worker process outlived it")


def test_a_case_without_a_result_by_its_deadline_is_a_timeout():
    out, tail = btc.run_until_result([sys.executable, "-c", "import time; time.sleep(60)"], dict(os.environ),
                                     timeout=1)
    assert out == "" and tail == "timeout"


def _result(case, backend, commit="abc1234", gpu="NVIDIA H200"):
    model, task, precision, mode, dynamic = case
    return {"model": model, "task": task, "precision": precision, "mode": mode, "dynamic": dynamic,
            "backend": backend, "cold_s": 2.0, "warm_ms": 1.0, "err": 0.0, "compile": {}, "date": "2026-11-30",
            "gpu": gpu, "cpu": "a CPU", "commit": commit, "modified": False, "torch": "2.11",
            "command": f"python3 bench/bench_torch_compile.py --models {model}"}


def test_parts_merge_into_the_record_of_the_set_they_cover(tmp_path):
    cases = torch_zoo.cases("autotune")
    paths = []
    for i, part in enumerate((cases[:1], cases[1:])):
        paths.append(tmp_path / f"part{i}.json")
        paths[-1].write_text(json.dumps([_result(c, b) for c in part for b in ("tritium", "triton")]))
    results, case_set = btc.merge([str(p) for p in paths])
    assert case_set == "autotune" and len(results) == 2 * len(cases)
    results, case_set = btc.merge([str(paths[0])])
    assert case_set is None


def test_the_record_says_where_the_cases_ran():
    case = torch_zoo.cases("bench")[0]
    measured, differing = btc.measured_on([_result(case, "tritium"), _result(case, "triton")])
    assert measured == {"date": "2026-11-30", "gpu": "NVIDIA H200", "cpu": "a CPU", "commit": "abc1234",
                        "modified": False, "versions": {"torch": "2.11"},
                        "command": f"python3 bench/bench_torch_compile.py --models {case[0]}"} and differing == []
    _, differing = btc.measured_on([_result(case, "tritium"), _result(case, "triton", commit="def5678")])
    assert differing == ["commit"]


def test_a_case_a_compiler_did_not_finish_is_named_in_the_record(tmp_path, monkeypatch):
    monkeypatch.setenv("TRITIUM_RESULTS_DIR", str(tmp_path))
    case = torch_zoo.cases("autotune")[0]
    timed_out = {k: v for k, v in _result(case, "triton").items() if k not in ("cold_s", "warm_ms", "err")}
    timed_out.update(error="no result: timeout", process_s=260.4)
    btc.report([_result(case, "tritium"), timed_out], "autotune")
    record = json.loads(next(tmp_path.glob("bench_torch_compile_autotune*.json")).read_text())
    assert record["rows"][0]["failed"] == ["triton"]
    assert f"{btc.label(timed_out)}: no figure under triton: no result: timeout after 260 s" in record["notes"]
