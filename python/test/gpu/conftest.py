"""GPU tests: skipped on machines without a CUDA GPU and PyTorch."""
import pytest

try:
    import torch
    HAS_GPU = torch.cuda.is_available()
except ImportError:  # pragma: no cover - CI has no torch
    HAS_GPU = False


def pytest_collection_modifyitems(config, items):
    if HAS_GPU:
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU and PyTorch")
    for item in items:
        if "/gpu/" in str(item.fspath):
            item.add_marker(skip)
