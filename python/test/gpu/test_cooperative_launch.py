"""Cooperative launches (Triton's `launch_cooperative_grid=True`): every
program of the grid is resident at once, so programs may wait on each
other.  A grid-wide barrier built from atomics exchanges values between
programs (each reads what another wrote before the barrier); a grid larger
than the GPU can hold at once is refused with the driver's reason, where a
plain launch of that barrier would hang."""
import pytest

torch = pytest.importorskip("torch")

import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402


@triton.jit
def exchange_across_a_grid_barrier(out_ptr, neighbour_ptr, count_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    programs = tl.num_programs(0)
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + pid * BLOCK + offs, pid * BLOCK + offs)
    # the barrier: the program's threads meet (so that one thread's release
    # covers all their stores), count in (release), wait until all are in (acquire)
    tl.debug_barrier()
    tl.atomic_add(count_ptr, 1, sem="release", scope="gpu")
    arrived = tl.atomic_add(count_ptr, 0, sem="acquire", scope="gpu")
    while arrived < programs:
        arrived = tl.atomic_add(count_ptr, 0, sem="acquire", scope="gpu")
    other = (pid + 1) % programs
    tl.store(neighbour_ptr + pid * BLOCK + offs, tl.load(out_ptr + other * BLOCK + offs))


def resident_programs(num_warps: int) -> int:
    """Programs the GPU holds at once for this small kernel: one per SM, times
    the warps an SM takes (64) over the kernel's, capped at 4 per SM."""
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    return sms * min(4, 64 // num_warps)


@pytest.mark.parametrize("num_warps", [1, 4])
def test_programs_of_a_cooperative_grid_wait_for_each_other(num_warps):
    block = 128
    programs = resident_programs(num_warps)
    out = torch.full((programs * block,), -1, dtype=torch.int32, device="cuda")
    neighbour = torch.full_like(out, -1)
    count = torch.zeros(1, dtype=torch.int32, device="cuda")
    for _ in range(3):  # later launches come through the same (slow) path
        count.zero_()
        neighbour.fill_(-1)
        exchange_across_a_grid_barrier[(programs,)](out, neighbour, count, BLOCK=block, num_warps=num_warps,
                                                    launch_cooperative_grid=True)
        torch.cuda.synchronize()
        expected = torch.arange(programs * block, dtype=torch.int32, device="cuda")
        assert torch.equal(out, expected)
        assert torch.equal(neighbour, torch.roll(expected, -block))
        assert count.item() == programs


def test_a_cooperative_grid_larger_than_the_gpu_holds_is_refused():
    programs = 64 * torch.cuda.get_device_properties(0).multi_processor_count * 32
    out = torch.empty(programs * 16, dtype=torch.int32, device="cuda")
    count = torch.zeros(1, dtype=torch.int32, device="cuda")
    with pytest.raises(triton.runtime.driver.CudaError,
                       match=r"launching 'exchange_across_a_grid_barrier' failed: .*COOPERATIVE_LAUNCH_TOO_LARGE"):
        exchange_across_a_grid_barrier[(programs,)](out, out, count, BLOCK=16, num_warps=1,
                                                    launch_cooperative_grid=True)
