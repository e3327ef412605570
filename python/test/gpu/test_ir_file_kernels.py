"""Kernels compiled from files of Triton IR (`triton.compile(path)`) run on
the GPU: a tile moved between two layouts (Triton's printed syntax, some
through shared memory, some larger than it, in parts) comes back equal to
its input; sums and running sums over layouts the reduce and scan lowerings
cannot take directly equal torch's; a .ttir file runs through the whole
pipeline.  Outputs are poisoned before launch."""
import os
import sys

import pytest

torch = pytest.importorskip("torch")

import tritium as triton  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "unit"))
from kernels.ir_files import (LARGE_TILE_PAIRS, LAYOUT_PAIRS, ODD_REDUCTIONS, ODD_SCANS, TTIR_ADD,  # noqa: E402
                              cumsum_ttgir, large_tile_copy_ttgir, layout_copy_ttgir, sum_ttgir)


@pytest.mark.parametrize("m, n", [(64, 64), (128, 32), (32, 128)])
@pytest.mark.parametrize("src, dst, interm", LAYOUT_PAIRS, ids=[f"pair{i}" for i in range(len(LAYOUT_PAIRS))])
def test_layout_conversion_from_a_ttgir_file_keeps_every_element(tmp_path, m, n, src, dst, interm):
    path = tmp_path / "copy.ttgir"
    path.write_text(layout_copy_ttgir(m, n, src, dst, interm))
    kernel = triton.compile(str(path))
    x = torch.randn(m, n, device="cuda", dtype=torch.float16)
    z = torch.full_like(x, float("nan"))
    kernel[(1, 1, 1)](x.data_ptr(), z.data_ptr())
    torch.cuda.synchronize()
    assert torch.equal(z, x)


@pytest.mark.parametrize("src, dst", LARGE_TILE_PAIRS, ids=[f"pair{i}" for i in range(len(LARGE_TILE_PAIRS))])
def test_a_conversion_larger_than_shared_memory_keeps_every_element(tmp_path, src, dst):
    path = tmp_path / "large.ttgir"
    path.write_text(large_tile_copy_ttgir(src, dst))
    kernel = triton.compile(str(path))
    x = _int_tile(256, 256)
    z = torch.full_like(x, -(2 ** 31))
    kernel[(1, 1, 1)](x.data_ptr(), z.data_ptr())
    torch.cuda.synchronize()
    assert torch.equal(z, x)


def _int_tile(m, n):
    return torch.randint(-1000, 1000, (m, n), device="cuda", dtype=torch.int32)


@pytest.mark.parametrize("m, n, warps, layout, axis", ODD_REDUCTIONS, ids=[f"odd{i}" for i in range(len(ODD_REDUCTIONS))])
def test_sum_over_a_layout_the_reduction_cannot_take_directly(tmp_path, m, n, warps, layout, axis):
    path = tmp_path / "sum.ttgir"
    path.write_text(sum_ttgir(m, n, warps, layout, axis))
    kernel = triton.compile(str(path))
    x = _int_tile(m, n)
    z = torch.full((n if axis == 0 else m,), -(2 ** 31), device="cuda", dtype=torch.int32)
    kernel[(1, 1, 1)](x.data_ptr(), z.data_ptr())
    torch.cuda.synchronize()
    assert torch.equal(z, x.sum(dim=axis, dtype=torch.int32))


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("m, n, warps, layout, axis", ODD_SCANS, ids=[f"odd{i}" for i in range(len(ODD_SCANS))])
def test_running_sum_over_a_layout_the_scan_cannot_take_directly(tmp_path, m, n, warps, layout, axis, reverse):
    path = tmp_path / "cumsum.ttgir"
    path.write_text(cumsum_ttgir(m, n, warps, layout, axis, reverse))
    kernel = triton.compile(str(path))
    x = _int_tile(m, n)
    z = torch.full_like(x, -(2 ** 31))
    kernel[(1, 1, 1)](x.data_ptr(), z.data_ptr())
    torch.cuda.synchronize()
    want = (x.flip(axis).cumsum(axis).flip(axis) if reverse else x.cumsum(axis)).to(torch.int32)
    assert torch.equal(z, want)


def test_ttir_file_kernel_runs(tmp_path):
    path = tmp_path / "add.ttir"
    path.write_text(TTIR_ADD)
    kernel = triton.compile(str(path))
    x = torch.randn(128, device="cuda")
    want = x.clone()
    want[:100] += 1
    kernel[(1,)](x, 100)
    torch.cuda.synchronize()
    assert torch.equal(x, want)
