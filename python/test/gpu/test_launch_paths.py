"""The launch paths users rely on, on the GPU: launches captured in a CUDA
graph and replayed on new data (also an autotuned kernel, tuned before the
capture), launches on non-default streams and from several threads at once,
the largest grids CUDA allows (2^31 - 1 programs in x, 65535 in y and z;
the last program's ids are checked), grids over them as a clear error
before anything is launched, and (with two GPUs) tensors on another device
than the current one as a clear error.  Outputs are poisoned before every launch."""
import threading

import pytest

torch = pytest.importorskip("torch")

import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402
from tritium.errors import TritiumError  # noqa: E402


@triton.jit
def axpy_kernel(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, alpha * x + y, mask=mask)


@triton.autotune(configs=[triton.Config({"BLOCK": 128}, num_warps=4), triton.Config({"BLOCK": 1024}, num_warps=8)],
                 key=["n"])
@triton.jit
def tuned_axpy_kernel(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, alpha * tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@triton.jit
def last_program_kernel(out_ptr):
    # only the last program writes: its ids and the grid's size
    px, py, pz = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    nx, ny, nz = tl.num_programs(0), tl.num_programs(1), tl.num_programs(2)
    if (px == nx - 1) & (py == ny - 1) & (pz == nz - 1):
        tl.store(out_ptr + 0, px)
        tl.store(out_ptr + 1, py)
        tl.store(out_ptr + 2, pz)
        tl.store(out_ptr + 3, nx)


def check(out, alpha, x, y):
    # the kernel fuses alpha * x + y into one FMA (one rounding), as Triton does
    reference = (alpha * x.double() + y.double()).float()
    torch.testing.assert_close(out, reference, rtol=1e-6, atol=1e-6)


def data(n, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(n, device="cuda", generator=g), torch.randn(n, device="cuda", generator=g))


def capture_and_replay(launch, n, alpha, seeds):
    """Runs `launch(x, y, out)` once (compiling, loading, tuning), captures
    it in a CUDA graph, then replays the graph on fresh x and y per seed,
    the output poisoned before each replay."""
    x, y = data(n, 0)
    out = torch.full_like(x, float("nan"))
    launch(x, y, out)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        launch(x, y, out)
    for seed in seeds:
        nx, ny = data(n, seed)
        x.copy_(nx)
        y.copy_(ny)
        out.fill_(float("nan"))
        graph.replay()
        torch.cuda.synchronize()
        check(out, alpha, nx, ny)


def test_cuda_graph_capture_and_replay():
    n = 100_003
    capture_and_replay(lambda x, y, out: axpy_kernel[(triton.cdiv(n, 512),)](x, y, out, n, 3.0, BLOCK=512),
                       n, 3.0, seeds=(1, 2))


def test_cuda_graph_of_an_autotuned_kernel():
    n = 65_536
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)  # noqa: E731
    capture_and_replay(lambda x, y, out: tuned_axpy_kernel[grid](x, y, out, n, 1.5), n, 1.5, seeds=(4,))


def test_launches_on_non_default_streams():
    n = 1 << 20
    x, y = data(n, 5)
    outs = []
    streams = [torch.cuda.Stream() for _ in range(3)]
    for i, stream in enumerate(streams):
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            out = torch.full_like(x, float("nan"))
            axpy_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, float(i), BLOCK=1024)
            outs.append(out)
    for i, (stream, out) in enumerate(zip(streams, outs)):
        stream.synchronize()
        check(out, float(i), x, y)


def test_launches_from_several_threads():
    n = 50_000
    errors = []

    def work(index):
        try:
            stream = torch.cuda.Stream()
            with torch.cuda.stream(stream):
                x, y = data(n, 100 + index)
                for step in range(20):
                    out = torch.full_like(x, float("nan"))
                    axpy_kernel[(triton.cdiv(n, 256),)](x, y, out, n, float(step), BLOCK=256)
                    stream.synchronize()
                    check(out, float(step), x, y)
        except Exception as e:  # reported by the main thread
            errors.append(f"thread {index}: {e!r}")

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads), "a launching thread hung"
    assert not errors, errors


@pytest.mark.huge_grid
@pytest.mark.parametrize("grid", [(2 ** 31 - 1,), (1, 65535), (1, 1, 65535), (3, 65535, 2)])
def test_the_largest_grids(grid):
    out = torch.full((4,), -7, device="cuda", dtype=torch.int32)
    last_program_kernel[grid](out, num_warps=1)
    torch.cuda.synchronize()
    full = list(grid) + [1] * (3 - len(grid))
    assert out.tolist() == [full[0] - 1, full[1] - 1, full[2] - 1, full[0]]


@pytest.mark.parametrize("grid", [(2 ** 31,), (1, 65536), (1, 1, 65536)])
def test_grids_over_the_limits_are_a_clear_error(grid):
    out = torch.full((4,), -7, device="cuda", dtype=torch.int32)
    last_program_kernel[(1,)](out, num_warps=1)  # the warm launch path
    with pytest.raises(TritiumError, match="exceeds CUDA's limits: x up to 2147483647, y and z up to 65535"):
        last_program_kernel[grid](out, num_warps=1)
    torch.cuda.synchronize()


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two GPUs")
def test_tensors_on_another_device_than_the_current_one():
    """The kernel runs on the current device; its tensors must live there.
    Also after the warm path has seen the same call on the current device."""
    n, alpha = 1000, 0.5
    x0, y0 = data(n, 1)
    out0 = torch.full_like(x0, float("nan"))
    axpy_kernel[(1,)](x0, y0, out0, n, alpha, BLOCK=1024)  # warm entry on cuda:0
    check(out0, alpha, x0, y0)
    x1, y1, out1 = x0.to("cuda:1"), y0.to("cuda:1"), torch.full_like(x0, float("nan"), device="cuda:1")
    with pytest.raises(TritiumError, match=r"argument 'x_ptr' is on cuda:1, but the kernel launches on cuda:0"):
        axpy_kernel[(1,)](x1, y0, out0, n, alpha, BLOCK=1024)
    with pytest.raises(TritiumError, match=r"argument 'out_ptr' is on cuda:1"):
        axpy_kernel[(1,)](x0, y0, out1, n, alpha, BLOCK=1024)
    with torch.cuda.device(1):
        axpy_kernel[(1,)](x1, y1, out1, n, alpha, BLOCK=1024)
        axpy_kernel[(1,)](x1, y1, out1, n, alpha, BLOCK=1024)  # the warm path on cuda:1
    torch.cuda.synchronize(1)
    check(out1.cpu(), alpha, x0.cpu(), y0.cpu())
