"""The launch path without a GPU: a fake CUDA runtime records every launch
record, so these tests check what the warm path (the generated dispatcher
and launch entries, python/tritium/runtime/jit.py and launcher.py) sends to
the driver, when it falls back to the slow path, and its errors."""
import struct

import pytest

import tritium
import tritium.language as tl
from tritium.errors import ArgumentError, CompilationError, TritiumError
from tritium.runtime import driver
from tritium.runtime.launcher import last_launched

from conftest import count_calls

HEADER = "@QQIIIIII"


class FakeDType:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return self.name

    def __eq__(self, other):
        return isinstance(other, FakeDType) and other.name == self.name

    def __hash__(self):
        return hash(self.name)


class FakeTensor:
    """A stand-in for a torch tensor: address, dtype, device."""

    def __init__(self, address, dtype="torch.float32", is_cuda=True, index=0):
        self.address = address
        self.dtype = FakeDType(dtype)
        self.is_cuda = is_cuda
        self.index = index if is_cuda else -1
        self.device = f"cuda:{index}" if is_cuda else "cpu"

    def data_ptr(self):
        return self.address

    def get_device(self):
        return self.index


class FakeCuda:
    """The subset of driver.CudaRuntime the launch path uses."""

    def __init__(self, device_count=1):
        self.device_count = device_count
        self.allocations = []
        self.records = []
        self.loads = []
        self.fail_with = 0
        self.last = 0
        self.cooperative = []  # (record, argument offsets) of cooperative launches

    def device_properties(self, device):
        return {"major": 9, "minor": 0, "capability": 90, "multiprocessor_count": 132,
                "max_shared_mem": 232448}

    def load(self, image, name, shared, device):
        self.loads.append((name, device))
        return 1, 0xF000 + len(self.loads), 32

    def launch(self, record):
        self.records.append(bytes(record))
        self.last = struct.unpack_from("@Q", record)[0]
        return self.fail_with

    def launch_cooperative(self, record, offsets, count):
        self.cooperative.append((bytes(record), list(offsets)[:count]))
        self.last = struct.unpack_from("@Q", record)[0]
        return self.fail_with

    def last_launched(self):
        return self.last

    def allocate(self, device, size):
        self.allocations.append((device, size))
        return 0x7000000 * len(self.allocations)

    def stream_capturing(self, stream):
        return False

    def error_text(self, result):
        return f"CUDA_ERROR_{result}: fake"


@pytest.fixture
def cuda(monkeypatch, tmp_path):
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(tmp_path))
    fake = FakeCuda()
    monkeypatch.setattr(driver, "_runtime", fake)
    monkeypatch.setattr(driver, "_device_getter", lambda: 0)
    monkeypatch.setattr(driver, "_stream_getter", lambda device: 0x5000 + device)
    return fake


def decode(record, formats):
    header = struct.unpack_from(HEADER, record)
    params = struct.unpack_from("@" + formats, record, struct.calcsize(HEADER))
    assert header[7] == len(record) - 40
    return {"function": header[0], "stream": header[1], "grid": header[2:5], "threads": header[5],
            "shared": header[6], "params": params}


def counting_slow_path(monkeypatch, kernel):
    return count_calls(monkeypatch, kernel, "_run_slow")


def fresh_copy_kernel():
    @tritium.jit
    def copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)
    return copy


@pytest.fixture(params=["torch.Tensor inline", "other tensor classes"])
def tensor_path(request):
    return request.param


def use_path(kernel, path):
    """The dispatcher handles exact torch.Tensor inline and other tensor
    classes through _warm_spec; without torch here, FakeTensor plays
    torch.Tensor for the inline path."""
    if path == "torch.Tensor inline":
        kernel._dispatch_namespace["_Tensor"] = FakeTensor


def test_the_second_launch_takes_the_warm_path(cuda, monkeypatch, tensor_path):
    copy = fresh_copy_kernel()
    slow = counting_slow_path(monkeypatch, copy)
    x, y = FakeTensor(0x10000), FakeTensor(0x20000)
    copy[(4,)](x, y, 100, BLOCK=128)
    use_path(copy, tensor_path)
    copy[(4,)](x, y, 100, BLOCK=128)
    copy[(4,)](FakeTensor(0x30000), FakeTensor(0x40000), 200, BLOCK=128)
    assert len(slow) == 1
    first, second, third = (decode(r, "PPi") for r in cuda.records)
    assert first == second
    assert first["function"] == 0xF001 and first["stream"] == 0x5000
    assert first["grid"] == (4, 1, 1) and first["threads"] == 128
    assert first["shared"] == next(iter(copy.compiled.values())).shared
    assert first["params"] == (0x10000, 0x20000, 100)
    assert third["params"] == (0x30000, 0x40000, 200)
    assert last_launched() == "copy"


def test_a_cooperative_launch_passes_every_argument_by_pointer_and_stays_off_the_warm_path(cuda, monkeypatch):
    # launch_cooperative_grid=True (Triton's option): cuLaunchCooperativeKernel
    # takes the arguments one by one; each such launch comes through the slow path
    copy = fresh_copy_kernel()
    slow = counting_slow_path(monkeypatch, copy)
    x, y = FakeTensor(0x10000), FakeTensor(0x20000)
    for _ in range(2):
        copy[(4,)](x, y, 100, BLOCK=128, launch_cooperative_grid=True)
    assert len(slow) == 2 and not cuda.records and len(cuda.cooperative) == 2
    record, offsets = cuda.cooperative[0]
    assert decode(record, "PPi")["params"] == (0x10000, 0x20000, 100) and offsets == [0, 8, 16]
    copy[(4,)](x, y, 100, BLOCK=128)  # the same kernel, launched plainly
    assert len(cuda.records) == 1 and len(cuda.cooperative) == 2


SCALE = tl.constexpr(3)


def test_a_changed_global_constexpr_raises_instead_of_launching_a_stale_kernel(cuda, monkeypatch, tensor_path):
    # Triton's rule (upstream test_cache::test_kernel_global_var_change):
    # the kernels compiled with the old value would be stale
    @tritium.jit
    def scale(x_ptr):
        tl.store(x_ptr, tl.load(x_ptr) * SCALE)
    slow = counting_slow_path(monkeypatch, scale)
    x = FakeTensor(0x10000)
    scale[(1,)](x)
    use_path(scale, tensor_path)
    scale[(1,)](x)
    assert len(slow) == 1 and len(cuda.records) == 2
    monkeypatch.setitem(globals(), "SCALE", tl.constexpr(3))  # the same value again: no change
    scale[(1,)](x)
    assert len(slow) == 1 and len(cuda.records) == 3
    monkeypatch.setitem(globals(), "SCALE", 4)
    with pytest.raises(RuntimeError, match="Global variable SCALE has changed since we compiled this kernel, "
                                           "from constexpr\\[3\\] to 4"):
        scale[(1,)](x)
    assert len(cuda.records) == 3


def test_a_new_specialization_takes_the_slow_path_once(cuda, monkeypatch, tensor_path):
    copy = fresh_copy_kernel()
    slow = counting_slow_path(monkeypatch, copy)
    x, y = FakeTensor(0x10000), FakeTensor(0x20000)
    launches = [
        lambda: copy[(1,)](x, y, 100, BLOCK=128),
        lambda: copy[(1,)](FakeTensor(0x10004), y, 100, BLOCK=128),  # not 16-byte aligned
        lambda: copy[(1,)](x, y, 1, BLOCK=128),  # n == 1 becomes a constant
        lambda: copy[(1,)](x, y, 112, BLOCK=128),  # n a multiple of 16 (100 is not)
        lambda: copy[(1,)](x, y, 2**40, BLOCK=128),  # i64
        lambda: copy[(1,)](FakeTensor(0x10000, "torch.float16"), FakeTensor(0x20000, "torch.float16"), 100,
                           BLOCK=128),
        lambda: copy[(1,)](x, y, 100, BLOCK=256),
        lambda: copy[(1,)](x, y, 100, BLOCK=128, num_warps=8),
    ]
    for i, launch in enumerate(launches):
        launch()
        use_path(copy, tensor_path)
        assert len(slow) == i + 1, i
    for launch in launches:
        launch()
    assert len(slow) == len(launches)
    assert len(cuda.records) == 2 * len(launches)
    assert cuda.records[len(launches):] == cuda.records[:len(launches)]
    # n == 1 is not passed; i64 is
    assert decode(cuda.records[2], "PP")["params"] == (0x10000, 0x20000)
    assert decode(cuda.records[4], "PPq")["params"] == (0x10000, 0x20000, 2**40)
    assert decode(cuda.records[7], "PPi")["threads"] == 256


def test_keywords_callable_grids_and_lists(cuda, monkeypatch, tensor_path):
    copy = fresh_copy_kernel()
    slow = counting_slow_path(monkeypatch, copy)
    x, y = FakeTensor(0x10000), FakeTensor(0x20000)
    grid = lambda meta: (triton_cdiv(meta["n"], meta["BLOCK"]), 2)  # noqa: E731
    copy[grid](x, y, n=1000, BLOCK=128)
    use_path(copy, tensor_path)
    copy[grid](y_ptr=y, x_ptr=x, BLOCK=128, n=1000)
    copy[[8, 2, 1]](x, y, 1000, BLOCK=128)
    assert len(slow) == 1
    assert [decode(r, "PPi")["grid"] for r in cuda.records] == [(8, 2, 1)] * 3
    assert {decode(r, "PPi")["params"] for r in cuda.records} == {(0x10000, 0x20000, 1000)}


def triton_cdiv(a, b):
    return (a + b - 1) // b


def test_bad_launches_fail_clearly_on_the_warm_path_too(cuda, monkeypatch, tensor_path):
    copy = fresh_copy_kernel()
    x, y = FakeTensor(0x10000), FakeTensor(0x20000)
    copy[(1,)](x, y, 100, BLOCK=128)
    use_path(copy, tensor_path)
    with pytest.raises(TritiumError, match=r"grid must be 1 to 3 positive integers, got \(0,\)"):
        copy[(0,)](x, y, 100, BLOCK=128)
    with pytest.raises(TritiumError, match=r"grid must be 1 to 3 positive integers"):
        copy[(1, 1, 1, 1)](x, y, 100, BLOCK=128)
    with pytest.raises(TritiumError, match=r"'x_ptr' is a tensor on cpu.*\.cuda\(\)"):
        copy[(1,)](FakeTensor(0x10000, is_cuda=False), y, 100, BLOCK=128)
    with pytest.raises(CompilationError, match=r"missing 1 argument.*\bn\b"):
        copy[(1,)](x, y, BLOCK=128)
    with pytest.raises(CompilationError, match=r"unexpected keyword argument 'm'"):
        copy[(1,)](x, y, 100, BLOCK=128, m=3)
    with pytest.raises(CompilationError, match=r"takes 4 arguments but 5 were given"):
        copy[(1,)](x, y, 100, 128, 7)
    # a value outside every integer type: its key is new, and the slow path says why
    copy[(1,)](x, y, -2**40, BLOCK=128)
    with pytest.raises(TritiumError, match=r"integer argument -1180591620717411303424 does not fit in 64 bits"):
        copy[(1,)](x, y, -2**70, BLOCK=128)
    assert len(cuda.records) == 2


def test_a_failed_launch_names_the_kernel(cuda, tensor_path):
    copy = fresh_copy_kernel()
    x, y = FakeTensor(0x10000), FakeTensor(0x20000)
    copy[(1,)](x, y, 100, BLOCK=128)
    use_path(copy, tensor_path)
    cuda.fail_with = 701
    with pytest.raises(driver.CudaError, match=r"launching 'copy' failed: CUDA_ERROR_701"):
        copy[(1,)](x, y, 100, BLOCK=128)


def test_jit_run_and_kernel_interfaces_share_the_warm_path(cuda, monkeypatch):
    copy = fresh_copy_kernel()
    slow = counting_slow_path(monkeypatch, copy)
    x, y = FakeTensor(0x10000), FakeTensor(0x20000)
    copy.run(x, y, 100, BLOCK=128, grid=(2,), warmup=False)
    copy[(2,)](x, y, 100, BLOCK=128)
    assert len(slow) == 1 and len(cuda.records) == 2
    assert isinstance(copy.warmup(x, y, 100, BLOCK=128, grid=(2,)), tritium.compiler.compiler.CompiledKernel)
    assert len(cuda.records) == 2  # warmup compiles, never launches


def test_every_parameter_kind_is_packed_at_its_offset(cuda, tensor_path):
    @tritium.jit
    def mixed(a, flag, x_ptr, s, big, h, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        v = tl.load(x_ptr + offs) * s + a + big.to(tl.float32)
        tl.store(x_ptr + offs, tl.where(flag, v, h.to(tl.float32)))
    x = FakeTensor(0x10000)
    args = (3, True, x, 0.5, 2**40, 7.0)
    mixed[(1,)](*args, BLOCK=32)
    use_path(mixed, tensor_path)
    mixed[(1,)](*args, BLOCK=32)
    assert len(cuda.records) == 2 and cuda.records[0] == cuda.records[1]
    assert decode(cuda.records[1], "iBPfqf")["params"] == (3, 1, 0x10000, 0.5, 2**40, 7.0)


def test_each_device_gets_its_own_function_and_stream(cuda, monkeypatch, tensor_path):
    cuda.device_count = 2
    current = [0]
    monkeypatch.setattr(driver, "_device_getter", lambda: current[0])
    copy = fresh_copy_kernel()
    slow = counting_slow_path(monkeypatch, copy)
    tensors = {d: (FakeTensor(0x10000, index=d), FakeTensor(0x20000, index=d)) for d in (0, 1)}
    for device in (0, 1, 0, 1):
        current[0] = device
        copy[(1,)](*tensors[device], 100, BLOCK=128)
        use_path(copy, tensor_path)
    assert len(slow) == 2  # compiled once, loaded and registered once per device
    # a tensor of another device than the current one: an error, also after the warm launches
    with pytest.raises(ArgumentError, match="argument 'x_ptr' is on cuda:0, but the kernel launches on cuda:1"):
        copy[(1,)](tensors[0][0], tensors[1][1], 100, BLOCK=128)
    assert cuda.loads == [("copy", 0), ("copy", 1)]
    launched = [(r["function"], r["stream"]) for r in (decode(rec, "PPi") for rec in cuda.records)]
    assert launched == [(0xF001, 0x5000), (0xF002, 0x5001)] * 2


def test_one_device_needs_no_device_query(cuda, monkeypatch):
    copy = fresh_copy_kernel()
    x, y = FakeTensor(0x10000), FakeTensor(0x20000)
    copy[(1,)](x, y, 100, BLOCK=128)

    def no_query():
        raise AssertionError("the warm path asked for the device")
    copy._dispatch_namespace["_device"] = no_query
    copy[(1,)](x, y, 100, BLOCK=128)
    assert len(cuda.records) == 2


def test_kernels_launch_with_the_shared_memory_they_use(cuda, tensor_path):
    @tritium.jit
    def row_sums(x_ptr, out_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(out_ptr + tl.program_id(0), tl.sum(tl.load(x_ptr + offs), axis=0))
    copy = fresh_copy_kernel()
    x, y = FakeTensor(0x10000), FakeTensor(0x20000)
    for _ in range(2):
        row_sums[(1,)](x, y, BLOCK=1024)
        copy[(1,)](x, y, 100, BLOCK=128)
        use_path(row_sums, tensor_path)
        use_path(copy, tensor_path)
    sums = next(iter(row_sums.compiled.values()))
    copied = next(iter(copy.compiled.values()))
    assert sums.shared > 0  # the reduction's scratch
    shared = [decode(r, "PP" if i % 2 == 0 else "PPi")["shared"] for i, r in enumerate(cuda.records)]
    assert shared == [sums.shared, copied.shared] * 2


def test_a_closure_constexpr_changed_in_place_raises(cuda, tensor_path):
    # Triton's rule (upstream test_cache::test_cache_closure): the value a
    # kernel was compiled with is copied, so assigning `.value` shows
    def make(cst):
        @tritium.jit
        def fill(x_ptr):
            tl.store(x_ptr + tl.arange(0, 16), tl.full((16,), cst, dtype=tl.int32))
        return fill
    cst = tl.constexpr(42)
    fill = make(cst)
    x = FakeTensor(0x10000, "torch.int32")
    fill[(1,)](x)
    use_path(fill, tensor_path)
    fill[(1,)](x)
    cst.value = 43
    with pytest.raises(RuntimeError, match=r"cst has changed since we compiled this kernel, from constexpr\[42\] "
                                           r"to constexpr\[43\]"):
        fill[(1,)](x)
    assert len(cuda.records) == 2


def test_threads_launching_a_new_kernel_at_once_share_one_load(cuda, monkeypatch):
    # Found on the GPU under compute-sanitizer (test_concurrent_launches.py):
    # two threads each made the new kernel's launcher, the second replaced
    # the first, and the thread that had loaded the module through the first
    # found no function when registering its warm-path entry (KeyError).
    import threading
    import time
    slow_load = cuda.load

    def load(*args):
        time.sleep(0.05)  # widen the window the threads race in
        return slow_load(*args)
    monkeypatch.setattr(cuda, "load", load)
    kernel = fresh_copy_kernel()
    kernel[(1,)](FakeTensor(0x1000), FakeTensor(0x2000), 8, BLOCK=16)  # compiled; launcher not yet shared
    (compiled,) = kernel.compiled.values()
    compiled._launcher = None
    kernel._warm.clear()
    errors, start = [], threading.Barrier(8)

    def launch():
        try:
            start.wait()
            kernel[(1,)](FakeTensor(0x1000), FakeTensor(0x2000), 8, BLOCK=16)
        except Exception as e:  # noqa: BLE001 - every failure is the test's
            errors.append(e)
    threads = [threading.Thread(target=launch) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(cuda.loads) == 2  # the first launch's, then one for the new launcher
    assert len(cuda.records) == 9


def fresh_made_descriptor_copy():
    @tritium.jit
    def made_descriptor_copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        src = tl.make_tensor_descriptor(x_ptr, shape=[n], strides=[1], block_shape=[BLOCK])
        dst = tl.make_tensor_descriptor(y_ptr, shape=[n], strides=[1], block_shape=[BLOCK])
        dst.store([tl.program_id(0) * BLOCK], src.load([tl.program_id(0) * BLOCK]))
    return made_descriptor_copy


class RecordingAllocator:
    def __init__(self):
        self.calls = []

    def __call__(self, size, alignment, stream):
        self.calls.append((size, alignment, stream))
        return FakeTensor(0x900000 + 0x1000 * len(self.calls))


@pytest.fixture
def allocator():
    from tritium.runtime._allocation import NullAllocator
    recording = RecordingAllocator()
    tritium.set_allocator(recording)
    yield recording
    tritium.set_allocator(NullAllocator())


def test_tensor_maps_made_in_the_kernel_get_scratch_from_the_allocator(cuda, allocator, tensor_path):
    # two tensor maps: 256 bytes of scratch a program, for all 6 programs of
    # the grid, its address the kernel's last argument (slow and warm path)
    made_descriptor_copy = fresh_made_descriptor_copy()
    x, y = FakeTensor(0x10000), FakeTensor(0x20000)
    made_descriptor_copy[(3, 2)](x, y, 1000, BLOCK=128)
    use_path(made_descriptor_copy, tensor_path)
    made_descriptor_copy[(3, 2)](x, y, 1000, BLOCK=128)
    assert allocator.calls == [(6 * 256, 128, 0x5000)] * 2
    first, second = (decode(r, "PPiP") for r in cuda.records)
    assert first["params"] == (0x10000, 0x20000, 1000, 0x901000)
    assert second["params"] == (0x10000, 0x20000, 1000, 0x902000)


def fresh_made_2d_descriptor_copy():
    @tritium.jit
    def made_2d_descriptor_copy(x_ptr, y_ptr, rows, cols, row_stride):
        src = tl.make_tensor_descriptor(x_ptr, shape=[rows, cols], strides=[row_stride, 1], block_shape=[16, 32])
        dst = tl.make_tensor_descriptor(y_ptr, shape=[rows, cols], strides=[row_stride, 1], block_shape=[16, 32])
        dst.store([0, 0], src.load([0, 0]))
    return made_2d_descriptor_copy


def test_made_descriptor_strides_are_checked_at_launch(cuda, allocator, tensor_path):
    # fp32 rows: a stride of 36 elements (144 bytes) compiles the kernel
    # without its divisibility by 16 and is a multiple of the 4 elements the
    # copy engine needs; 38 (152 bytes) is not, and is refused before any
    # launch (slow and warm path), naming the argument and the kernel's line
    copy = fresh_made_2d_descriptor_copy()
    x, y = FakeTensor(0x10000), FakeTensor(0x20000)
    copy[(1,)](x, y, 64, 32, 36)
    use_path(copy, tensor_path)
    copy[(1,)](x, y, 64, 32, 36)
    for _ in range(2):
        with pytest.raises(TritiumError, match=r"argument 'row_stride' of 'made_2d_descriptor_copy' is 38, not a "
                                               r"multiple of 4: tensor descriptor made in the kernel at "
                                               r".*test_warm_launch.py:\d+: its stride 0 \(4-byte elements\) must "
                                               r"be a multiple of 16 bytes"):
            copy[(1,)](x, y, 64, 32, 38)
    assert len(cuda.records) == 2


def test_tensor_maps_made_in_the_kernel_need_an_allocator(cuda):
    with pytest.raises(TritiumError, match="must provide an allocator with triton.set_allocator"):
        fresh_made_descriptor_copy()[(1,)](FakeTensor(0x10000), FakeTensor(0x20000), 1000, BLOCK=128)


def fresh_block_pointer_matmul():
    @tritium.jit
    def block_pointer_matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_a, stride_b, stride_c, BM: tl.constexpr,
                             BN: tl.constexpr, BK: tl.constexpr):
        a_blk = tl.make_block_ptr(a_ptr, (M, K), (stride_a, 1), (tl.program_id(0) * BM, 0), (BM, BK), (1, 0))
        b_blk = tl.make_block_ptr(b_ptr, (K, N), (stride_b, 1), (0, tl.program_id(1) * BN), (BK, BN), (1, 0))
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for _ in range(0, K, BK):
            acc = tl.dot(tl.load(a_blk, boundary_check=(0, 1)), tl.load(b_blk, boundary_check=(0, 1)), acc)
            a_blk = tl.advance(a_blk, (0, BK))
            b_blk = tl.advance(b_blk, (BK, 0))
        c_blk = tl.make_block_ptr(c_ptr, (M, N), (stride_c, 1), (tl.program_id(0) * BM, tl.program_id(1) * BN),
                                  (BM, BN), (1, 0))
        tl.store(c_blk, acc, boundary_check=(0, 1))
    return block_pointer_matmul


def test_block_pointer_maps_take_the_runtimes_scratch(cuda, monkeypatch, tensor_path):
    # three tensor maps made in the kernel (A, B, C): 384 bytes a program of
    # the runtime's own memory, no allocator asked (none is set)
    from tritium.runtime import _allocation
    monkeypatch.setattr(_allocation, "_runtime_buffers", {})
    matmul = fresh_block_pointer_matmul()
    a, b = FakeTensor(0x10000, "torch.float16"), FakeTensor(0x20000, "torch.float16")
    c = FakeTensor(0x30000)
    args = (a, b, c, 256, 256, 256, 256, 256, 256)
    matmul[(2, 2)](*args, BM=128, BN=128, BK=64)
    use_path(matmul, tensor_path)
    matmul[(2, 2)](*args, BM=128, BN=128, BK=64)
    assert cuda.allocations == [(0, 1 << 20)]  # once, for stream 0x5000 of device 0
    first, second = (decode(r, "PPPiiiiiiP") for r in cuda.records)
    assert first["params"][-1] == second["params"][-1] == 0x7000000


def test_negative_block_pointer_strides_are_refused(cuda, tensor_path):
    matmul = fresh_block_pointer_matmul()
    a, b = FakeTensor(0x10000, "torch.float16"), FakeTensor(0x20000, "torch.float16")
    c = FakeTensor(0x30000)
    matmul[(2, 2)](a, b, c, 256, 256, 256, 256, 256, 256, BM=128, BN=128, BK=64)
    use_path(matmul, tensor_path)
    with pytest.raises(TritiumError, match="argument 'stride_b' of 'block_pointer_matmul' is -256: a block "
                                           "pointer moved by the copy engine"):
        matmul[(2, 2)](a, b, c, 256, 256, 256, 256, -256, 256, BM=128, BN=128, BK=64)
    with pytest.raises(TritiumError, match="argument 'M' .* is -3"):
        matmul[(2, 2)](a, b, c, -3, 256, 256, 256, 256, 256, BM=128, BN=128, BK=64)
    assert len(cuda.records) == 1


def test_compiled_kernel_run_launches_as_inductor_calls_it(cuda):
    # Inductor's launcher for a kernel it does not launch itself calls
    # run(grid x, y, z, stream, function, packed_metadata, launch_metadata,
    # enter hook, exit hook, *every parameter's value), constexprs included
    copy = fresh_copy_kernel()
    x, y = FakeTensor(0x10000), FakeTensor(0x20000)
    kernel = copy.warmup(x, y, 100, BLOCK=128, grid=(1,))
    run = kernel.run
    assert run.__name__ == "run" and kernel.run is run  # generated once per kernel
    seen = []
    run(3, 1, 1, 0x77, kernel.function, kernel.packed_metadata, "meta", seen.append, seen.append, x, y, 100, 128)
    run(2, 1, 1, 0x78, 0, kernel.packed_metadata, None, None, None, x, y, 7, 128)  # function 0: the current device's
    run(5, 1, 1, 0x79, kernel.function, kernel.packed_metadata, None, None, None, x, y, 9)  # runtime values only
    assert seen == ["meta", "meta"]
    first, second, third = (decode(r, "PPi") for r in cuda.records)
    assert first["function"] == second["function"] == kernel.function
    assert (first["grid"], first["stream"], first["threads"], first["params"]) == ((3, 1, 1), 0x77, 128,
                                                                                  (0x10000, 0x20000, 100))
    assert (second["grid"], second["stream"], second["params"]) == ((2, 1, 1), 0x78, (0x10000, 0x20000, 7))
    assert (third["grid"], third["stream"], third["params"]) == ((5, 1, 1), 0x79, (0x10000, 0x20000, 9))


def test_compiled_kernel_run_names_a_bad_argument(cuda):
    copy = fresh_copy_kernel()
    x, y = FakeTensor(0x10000), FakeTensor(0x20000)
    kernel = copy.warmup(x, y, 100, BLOCK=128, grid=(1,))
    with pytest.raises(TritiumError, match="argument 'n' of 'copy' cannot be passed as i32: 4294967296"):
        kernel.run(1, 1, 1, 0, kernel.function, None, None, None, None, x, y, 1 << 32, 128)
    with pytest.raises(ArgumentError, match="argument 'y_ptr' is a tensor on cpu"):
        kernel.run(1, 1, 1, 0, kernel.function, None, None, None, None, x, FakeTensor(0x20000, is_cuda=False),
                   1, 128)
    with pytest.raises(TritiumError, match="grid"):
        kernel.run(0, 1, 1, 0, kernel.function, None, None, None, None, x, y, 1, 128)
    assert cuda.records == []
