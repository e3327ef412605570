"""torch.compile with DistributedDataParallel on two GPUs, both ranks on
Tritium: `torchrun --nproc_per_node 2` runs ddp_compiled_training.py (a small
GPT-2 trained for a few steps, compiled and eager side by side) with `triton`
answered by Tritium in both ranks and in their compile workers
(scripts/triton_alias first on PYTHONPATH, which children inherit).

Both ranks share one Inductor cache and one kernel cache directory: the cold
run has both compile the same kernels into it at once, and a second run
loads everything from it and must reproduce the first run's losses.  When
Triton is installed, the same cold run under Triton gives the losses Tritium's
must match.  NCCL's NVLink multicast stays off (the machine's GPUs may be
shared).  Skipped with fewer than two GPUs."""
import importlib.util
import json
import os
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "bench"))
SCRIPT = os.path.join(HERE, "ddp_compiled_training.py")
STEPS = 6

HAVE_TRITON = importlib.util.find_spec("triton") is not None and \
    "tritium" not in (importlib.util.find_spec("triton").origin or "")

pytestmark = pytest.mark.skipif(not torch.cuda.is_available() or torch.cuda.device_count() < 2,
                                reason="needs two CUDA GPUs")


def _torchrun(backend, cache_root, out_dir):
    import bench_torch_compile  # (the zoo's environment: caches under cache_root, the alias for Tritium)
    env = bench_torch_compile.case_env(backend, str(cache_root))
    env.update(NCCL_NVLS_ENABLE="0", TORCH_SYMM_MEM_DISABLE_MULTICAST="1")
    os.makedirs(out_dir, exist_ok=True)
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2", SCRIPT,
           str(out_dir), str(STEPS)]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-8000:]
    ranks = []
    for rank in range(2):
        with open(os.path.join(out_dir, f"rank{rank}.json")) as f:
            ranks.append(json.load(f))
    print(backend, json.dumps(ranks))
    return ranks


def _loss_err(ranks):
    """Largest relative difference between compiled and eager losses."""
    return max(abs(got - want) / abs(want) for r in ranks for got, want in zip(r["loss"], r["loss_eager"]))


def _check_run(ranks, backend):
    for r in ranks:
        assert r["triton"] == backend
        # The gradients were all-reduced: every rank took the same steps.
        assert r["rank_weight_diff"] == 0.0, r
    # Every rank saw the same mean loss.
    assert ranks[0]["mean_loss"] == ranks[1]["mean_loss"]


def test_ddp_training_on_two_gpus_shares_one_cache(tmp_path):
    cache = tmp_path / "cache"
    cold = _torchrun("tritium", cache, tmp_path / "cold")
    _check_run(cold, "tritium")
    assert any(name.endswith(".cubin") for _, _, files in os.walk(os.path.join(cache, "triton")) for name in files)
    warm = _torchrun("tritium", cache, tmp_path / "warm")
    _check_run(warm, "tritium")
    for c, w in zip(cold, warm):
        for got, want in zip(w["loss"], c["loss"]):
            assert abs(got - want) <= 1e-5 * abs(want), (c["loss"], w["loss"])
    # Compiled against eager (fp32; Inductor reorders reductions, and Adam
    # turns any difference in a near-zero gradient into a whole step): no
    # further apart than under Triton, or than these floors.
    loss_bound, weight_bound = 1e-4, 1e-3
    if HAVE_TRITON:
        triton = _torchrun("triton", tmp_path / "triton_cache", tmp_path / "triton_run")
        _check_run(triton, "triton")
        for ours, theirs in zip(cold, triton):
            for got, want in zip(ours["mean_loss"], theirs["mean_loss"]):
                assert abs(got - want) <= 1e-4 * abs(want), (ours["mean_loss"], theirs["mean_loss"])
        loss_bound = max(loss_bound, 2 * _loss_err(triton))
        weight_bound = max(weight_bound, 2 * max(r["weight_err"] for r in triton))
    assert _loss_err(cold) <= loss_bound, [r["loss"] for r in cold] + [r["loss_eager"] for r in cold]
    assert max(r["weight_err"] for r in cold) <= weight_bound, [r["weight_err"] for r in cold]
