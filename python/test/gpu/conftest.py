"""GPU tests: skipped on machines without a CUDA GPU and PyTorch.

Tests marked `whole_gpu` (Triton's tutorial 06 test, whose torch reference
holds about 60 GiB) need the GPU's memory to themselves: under
pytest-xdist with several workers, whose CUDA contexts and cached tensors
stay resident, they are skipped with the command that runs them alone
(`python3 -m pytest python/test/gpu -m whole_gpu`, which
scripts/gpu_run.sh also runs).

Tests marked `deliberate_fault` make a kernel fault on purpose (in a child
process) to check the error users see; under compute-sanitizer that fault is
a reported error by design, so scripts/gpu_sanitize.sh deselects them.
Tests marked `huge_grid` launch up to 2^31 - 1 programs of a kernel without
shared memory: racecheck, which tracks every block's shared memory, would
take hours over them, so the racecheck run deselects them."""
import os

import pytest

try:
    import torch
    HAS_GPU = torch.cuda.is_available()
except ImportError:  # pragma: no cover - CI has no torch
    HAS_GPU = False


def pytest_configure(config):
    config.addinivalue_line("markers", "whole_gpu: needs the GPU's memory to itself (no pytest-xdist workers)")
    config.addinivalue_line("markers", "deliberate_fault: a kernel faults on purpose (not for compute-sanitizer)")
    config.addinivalue_line("markers", "huge_grid: billions of programs (too slow under racecheck)")
    config.addinivalue_line("markers", "full_scale: a full-size upstream run (too slow under compute-sanitizer; a small one covers its kernels)")


def pytest_collection_modifyitems(config, items):
    if not HAS_GPU:
        skip = pytest.mark.skip(reason="needs a CUDA GPU and PyTorch")
        for item in items:
            if "/gpu/" in str(item.fspath):
                item.add_marker(skip)
        return
    if int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) > 1:
        alone = pytest.mark.skip(reason="needs the whole GPU: run `python3 -m pytest python/test/gpu -m whole_gpu` "
                                        "without -n")
        for item in items:
            if item.get_closest_marker("whole_gpu"):
                item.add_marker(alone)
