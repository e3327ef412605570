"""Native compiles on several threads at once, without a GPU (what Inductor's
max-autotune does when it precompiles its template configs in a thread
pool): each thread's compile runs in an MLIR context no other compile uses
meanwhile, so the threads get the PTX a serial compile gives, and a compile
that fails reports its own diagnostics, never another thread's, while the
others succeed."""
import hashlib
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

import tritium
from tritium import _native
from tritium.errors import CompilationError

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernels import cache_kernels as K  # noqa: E402

AXPY = {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32", "alpha": "fp32"}
ROW_SUM = {"x_ptr": "*fp32", "out_ptr": "*fp32", "stride": "i32"}


def ttir_of(fn, signature, block):
    return tritium.compile(fn, signature=signature, constexprs={"BLOCK": block}, target="cuda:90").asm["ttir"]


@pytest.fixture(scope="module")
def sources():
    """TTIR texts of distinct kernels, and one whose types do not match
    (an f32 operand given to an integer add) on a line of its own."""
    texts = [ttir_of(K.axpy, AXPY, b) for b in (64, 256, 1024)]
    texts += [ttir_of(K.row_sum, ROW_SUM, b) for b in (32, 128, 512)]
    broken = texts[0].replace("arith.addf", "arith.addi", 1)
    assert broken != texts[0]
    return texts, broken


def compile_text(text, name):
    stages, _ = _native.native_library().compile_cuda(text, {"num_warps": 4, "arch": 90}, source_name=name)
    return hashlib.sha256(stages["ptx"].encode()).hexdigest()


def test_threads_get_the_serial_ptx_and_their_own_errors(sources, monkeypatch):
    monkeypatch.setenv("TRITIUM_PTXAS_PATH", "none")  # PTX is the artifact compared
    texts, broken = sources
    serial = [compile_text(t, f"kernel{i}.ttir") for i, t in enumerate(texts)]
    with pytest.raises(CompilationError) as failed:
        compile_text(broken, "broken.ttir")
    serial_error = str(failed.value)
    assert "arith.addi" in serial_error

    jobs = [(i % len(texts), f"kernel{i % len(texts)}.ttir") for i in range(48)]
    jobs += [(-1, f"broken{j}.ttir") for j in range(8)]
    jobs.sort(key=lambda job: hash(job[1]) % 7)  # failures spread among the others
    start = threading.Barrier(8)

    def work(job):
        index, name = job
        if index < 0:
            try:
                compile_text(broken, name)
            except CompilationError as e:
                return name, str(e)
            return name, None
        return name, compile_text(texts[index], name)

    def first(job):
        start.wait()
        return work(job)

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(first, jobs[:8])) + list(pool.map(work, jobs[8:]))

    for (index, name), (got_name, got) in zip(jobs, results):
        assert got_name == name
        if index < 0:
            assert got == serial_error, f"{name}: diagnostics differ from the serial compile's: {got}"
        else:
            assert got == serial[index], f"{name}: PTX differs from the serial compile's"
