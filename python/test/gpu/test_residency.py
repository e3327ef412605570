"""Residency limits on the GPU: a streaming kernel compiled for the H100
(cuda:90) runs with at most 40 warps per SM, which the native library gets
by launching it with padded dynamic shared memory (checked through the
driver's occupancy calculator), and still computes the right result on
every launch path; kernels that are not streams keep the occupancy their
resources allow."""
import pytest

torch = pytest.importorskip("torch")

import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402
from tritium.runtime import driver  # noqa: E402
from tritium.runtime.launcher import Launcher  # noqa: E402


@triton.jit
def scale_add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, 2.0 * tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    tl.store(out_ptr + row, tl.sum(tl.load(x_ptr + row * BLOCK + tl.arange(0, BLOCK)), axis=0))


def on_hopper():
    return driver.cuda().device_properties(driver.current_device())["capability"] == 90


def compiled_with(kernel, num_warps):
    """The specialization of `kernel` compiled for `num_warps`."""
    return next(k for k in kernel.compiled.values() if k.metadata["num_warps"] == num_warps)


@pytest.mark.parametrize("num_warps", [1, 2, 4, 8])
def test_a_streaming_kernel_keeps_at_most_40_warps_per_sm(num_warps):
    n = 1_000_003
    x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    for _ in range(2):  # first launch (slow path), then the warm path
        out = torch.full_like(x, float("nan"))
        scale_add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024, num_warps=num_warps)
        torch.testing.assert_close(out, 2.0 * x + y, rtol=0, atol=0)
    compiled = compiled_with(scale_add_kernel, num_warps)
    assert compiled.metadata["streaming"] == "yes"
    launcher = compiled._launcher
    blocks = launcher.blocks_per_sm[driver.current_device()]
    if not on_hopper():
        assert compiled.metadata["max_warps_per_sm"] == 0
        return
    assert compiled.metadata["max_warps_per_sm"] == 40
    # the driver's own occupancy figure at the launch's shared memory
    assert blocks * num_warps <= 40, (blocks, launcher._launch_shared)
    padded = launcher._launch_shared[driver.current_device()] > launcher.shared
    if num_warps >= 4:  # 16 or 8 blocks (64 warps) would fit: padded down to the limit
        assert padded and blocks == 40 // num_warps
    # (1- and 2-warp blocks: the H100 fits 20 of them per SM at most, measured by
    # the driver's occupancy calculator, already under the limit)


def test_other_kernels_keep_their_occupancy():
    x = torch.randn(64, 1024, device="cuda")
    out = torch.full((64,), float("nan"), device="cuda")
    row_sum_kernel[(64,)](x, out, BLOCK=1024)
    torch.testing.assert_close(out, x.sum(dim=1), rtol=1e-5, atol=1e-4)
    compiled = compiled_with(row_sum_kernel, 4)
    assert compiled.metadata["max_warps_per_sm"] == 0
    assert compiled.metadata["streaming"].startswith("no: ")
    launcher = compiled._launcher
    device = driver.current_device()
    assert launcher._launch_shared[device] == launcher.shared
    assert launcher.blocks_per_sm[device] * 4 > 40  # 4 warps, registers and scratch allow more than 10


def test_a_limit_already_met_pads_nothing():
    """A launcher asked for a limit its resources already meet (64 warps
    per SM is the hardware's own) launches with the kernel's shared memory."""
    compiled = scale_add_kernel.warmup(torch.empty(1, device="cuda"), torch.empty(1, device="cuda"),
                                       torch.empty(1, device="cuda"), 1, BLOCK=1024, grid=(1,))
    device = driver.current_device()
    image = compiled.asm.get("cubin") or compiled.asm["ptx"].encode() + b"\0"
    launcher = Launcher(compiled.metadata["kernel_name"], image, ["x_ptr", "y_ptr", "out_ptr"],
                        ["*fp32", "*fp32", "*fp32"], 4, compiled.shared, 64)
    launcher.function(device)
    assert launcher._launch_shared[device] == compiled.shared
