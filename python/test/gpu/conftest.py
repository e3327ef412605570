"""GPU tests: skipped on machines without a CUDA GPU and PyTorch.

Tests marked `whole_gpu` (Triton's tutorial 06 test, whose torch reference
holds tens of GiB) run alone: every GPU test takes a shared file lock for
its duration and those take it exclusively, so that under pytest-xdist
they wait for the tests running in other workers and hold the others off;
each test returns the memory torch cached for it."""
import fcntl
import os
import tempfile

import pytest

try:
    import torch
    HAS_GPU = torch.cuda.is_available()
except ImportError:  # pragma: no cover - CI has no torch
    HAS_GPU = False

_LOCK_PATH = os.path.join(tempfile.gettempdir(), f"tritium-gpu-tests-{os.getuid()}.lock")


def pytest_configure(config):
    config.addinivalue_line("markers", "whole_gpu: runs with no other GPU test at the same time")


def pytest_collection_modifyitems(config, items):
    if HAS_GPU:
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU and PyTorch")
    for item in items:
        if "/gpu/" in str(item.fspath):
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _gpu_share(request):
    if not HAS_GPU:
        yield
        return
    exclusive = request.node.get_closest_marker("whole_gpu") is not None
    with open(_LOCK_PATH, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        try:
            yield
        finally:
            # what this worker's allocator keeps cached would be missing
            # for a whole_gpu test running next in another worker
            torch.cuda.empty_cache()
            fcntl.flock(lock, fcntl.LOCK_UN)
