"""Processes and threads compiling and launching at once into one cache
directory, on the GPU: 8 processes x 4 threads, each thread on its own
stream launching the 3 axpy variants every thread uses and a row_sum variant
of its own (2 processes share each), 3 times over, with fresh inputs and
outputs poisoned first, every result checked against torch.  Afterwards the
shared cache holds exactly one whole entry per variant and no temporary
file.  (python/test/unit/test_cache_integrity.py checks the same without a
GPU, at compile level.)"""
import glob
import json
import os
import subprocess
import sys
import textwrap

import pytest

torch = pytest.importorskip("torch")

import tritium  # noqa: E402
from tritium.runtime import cache  # noqa: E402

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "unit")
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(tritium.__file__)))

# One process: 4 threads; prints the number of checked launches per thread.
CHILD = textwrap.dedent('''
    import json, sys
    from concurrent.futures import ThreadPoolExecutor
    import torch
    sys.path.insert(0, sys.argv[1])
    from kernels import cache_kernels as K
    process = int(sys.argv[2])

    def work(thread):
        g = torch.Generator(device="cuda").manual_seed(process * 4 + thread)
        stream = torch.cuda.Stream()
        checked = 0
        with torch.cuda.stream(stream):
            for _ in range(3):
                for block in (64, 128, 256):
                    n = 1000 + 7 * thread
                    x = torch.randn(n, device="cuda", generator=g)
                    y = torch.randn(n, device="cuda", generator=g)
                    want = (0.5 * x.double() + y.double()).float()
                    K.axpy[((n + block - 1) // block,)](x, y, n, 0.5, BLOCK=block)
                    stream.synchronize()
                    torch.testing.assert_close(y, want, rtol=1e-6, atol=1e-6)
                    checked += 1
                block = 16 << ((process * 4 + thread) % 16 // 2)
                x = torch.randn(5, block, device="cuda", generator=g)
                out = torch.full((5,), float("nan"), device="cuda")
                K.row_sum[(5,)](x, out, block, BLOCK=block)
                stream.synchronize()
                torch.testing.assert_close(out, x.sum(dim=1), rtol=1e-4, atol=1e-3)
                checked += 1
        return checked

    with ThreadPoolExecutor(4) as pool:
        print(json.dumps(list(pool.map(work, range(4)))))
''')


def test_processes_and_threads_launch_through_one_cache(tmp_path):
    shared = tmp_path / "shared"
    env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT, TRITIUM_CACHE_DIR=str(shared))
    env.pop("TRITIUM_ALWAYS_COMPILE", None)
    children = [subprocess.Popen([sys.executable, "-c", CHILD, KERNELS, str(p)], env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True) for p in range(8)]
    for child in children:
        out, err = child.communicate(timeout=600)
        assert child.returncode == 0, err[-3000:]
        assert json.loads(out.strip().splitlines()[-1]) == [12] * 4
    # 3 axpy variants (n is never 16-divisible: one key each) and 8 row_sum
    # variants, each entry whole; no temporary file left behind
    entries = glob.glob(str(shared / "*" / "*.json"))
    assert len(entries) == 11, f"{len(entries)} entries: a variant got two keys"
    previous = os.environ.get("TRITIUM_CACHE_DIR")
    os.environ["TRITIUM_CACHE_DIR"] = str(shared)
    try:
        for meta in entries:
            key, name = os.path.basename(os.path.dirname(meta)), os.path.basename(meta)[:-5]
            assert cache.load(key, name) is not None, f"{meta}: the entry does not verify"
    finally:
        if previous is None:
            os.environ.pop("TRITIUM_CACHE_DIR")
        else:
            os.environ["TRITIUM_CACHE_DIR"] = previous
    assert not glob.glob(str(shared / "**" / ".tmp-*"), recursive=True)
