"""The kernel cache under damage and under load, without a GPU: an entry
records its key and the SHA-256 of every file, and an entry that was edited,
truncated or copied from another variant is compiled again (and rewritten),
never loaded; a cache directory that cannot be written leaves kernels
compiled in memory, with one warning; 8 processes of 4 threads compiling
the same and different kernels into one directory all get the code a serial
compile gives, compute one key per variant (threads hashing one function at
once once disagreed), leave every entry valid and no temporary file behind,
and finish (a hang fails the test at its timeout)."""
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
import threading

import pytest

import tritium
from tritium import _native
from tritium.runtime import cache

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(tritium.__file__)))
sys.path.insert(0, HERE)
from kernels import cache_kernels as K  # noqa: E402
from conftest import count_calls  # noqa: E402

AXPY = {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32", "alpha": "fp32"}
ROW_SUM = {"x_ptr": "*fp32", "out_ptr": "*fp32", "stride": "i32"}


def compile_axpy(block):
    return tritium.compile(K.axpy, signature=AXPY, constexprs={"BLOCK": block}, target="cuda:90")


@pytest.fixture
def cache_root(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(root))
    monkeypatch.delenv("TRITIUM_ALWAYS_COMPILE", raising=False)
    return root


@pytest.fixture
def native_compiles(monkeypatch):
    """Counts the native compiles (the cache's misses)."""
    return count_calls(monkeypatch, _native.native_library(), "compile_cuda")


def entry_files(root, block):
    """The files of the axpy variant with `block`, by extension."""
    for meta in glob.glob(str(root / "*" / "axpy.json")):
        if json.loads(open(meta).read())["constexprs"]["BLOCK"] == repr(block):
            directory = os.path.dirname(meta)
            return {name.split(".", 1)[1]: os.path.join(directory, name) for name in os.listdir(directory)
                    if name.startswith("axpy.")}
    raise AssertionError(f"no cache entry for BLOCK={block}")


def test_an_entry_records_its_key_and_the_hash_of_every_file(cache_root):
    compile_axpy(256)
    files = entry_files(cache_root, 256)
    metadata = json.loads(open(files["json"]).read())
    assert metadata["cache_key"] == os.path.basename(os.path.dirname(files["json"]))
    assert sorted(metadata["sha256"]) == sorted(metadata["files"]) == sorted(set(files) - {"json"})
    for ext, digest in metadata["sha256"].items():
        assert hashlib.sha256(open(files[ext], "rb").read()).hexdigest() == digest


def edit_ptx(root, files):
    with open(files["ptx"], "r+b") as f:
        f.seek(100)
        f.write(b"X")


def truncate_cubin(root, files):
    os.truncate(files["cubin"], os.path.getsize(files["cubin"]) // 2)


def truncate_metadata(root, files):
    os.truncate(files["json"], os.path.getsize(files["json"]) - 10)


def copy_another_variant(root, files):
    compile_axpy(128)
    for ext, path in entry_files(root, 128).items():
        shutil.copyfile(path, files[ext])


@pytest.mark.parametrize("damage", [edit_ptx, truncate_cubin, truncate_metadata, copy_another_variant])
def test_a_damaged_entry_is_compiled_again_and_rewritten(cache_root, native_compiles, damage):
    first = compile_axpy(256)
    files = entry_files(cache_root, 256)
    damage(cache_root, files)
    misses = len(native_compiles)
    again = compile_axpy(256)
    assert len(native_compiles) == misses + 1, "the damaged entry was loaded"
    assert again.asm["ptx"] == first.asm["ptx"] and again.asm["cubin"] == first.asm["cubin"]
    third = compile_axpy(256)  # the entry was rewritten whole: a hit
    assert len(native_compiles) == misses + 1 and third.asm["ptx"] == first.asm["ptx"]


def test_an_unwritable_cache_compiles_in_memory_and_warns_once(tmp_path, monkeypatch, native_compiles):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(blocker / "cache"))
    with pytest.warns(RuntimeWarning, match="cannot write the kernel cache in .*a_file/cache"):
        kernel = compile_axpy(512)
    assert ".entry axpy" in kernel.asm["ptx"] and kernel.asm["cubin"]
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no second warning for the same directory
        compile_axpy(1024)
    assert len(native_compiles) == 2


def test_a_full_disk_leaves_no_partial_entry(cache_root, monkeypatch, native_compiles):
    """The disk fills while an entry is written (the cubin, the largest file,
    fails with ENOSPC): the compile still returns the kernel, warns once, and
    leaves neither a temporary file nor an entry that loads; the next
    compile, with room again, writes it whole."""
    import errno
    real_fdopen = os.fdopen

    class FillingFile:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def write(self, data):
            if len(data) > 4096:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return self.f.write(data)

    monkeypatch.setattr(cache.os, "fdopen", lambda fd, mode: FillingFile(real_fdopen(fd, mode)))
    with pytest.warns(RuntimeWarning, match="No space left on device"):
        kernel = compile_axpy(2048)
    assert kernel.asm["cubin"] and len(native_compiles) == 1
    assert not glob.glob(str(cache_root / "**" / ".tmp-*"), recursive=True)
    assert not glob.glob(str(cache_root / "*" / "*.json")), "an entry without its cubin has metadata"
    monkeypatch.setattr(cache.os, "fdopen", real_fdopen)
    again = compile_axpy(2048)
    assert len(native_compiles) == 2 and again.asm["cubin"] == kernel.asm["cubin"]
    compile_axpy(2048)
    assert len(native_compiles) == 2, "the entry written with room again does not load"


def test_threads_hashing_one_function_agree():
    # cache_key of a function being hashed by another thread once came
    # back as "" (the placeholder that breaks cycles), giving that thread's
    # compile another key
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns every few bytecodes
    try:
        race_hash_threads()
    finally:
        sys.setswitchinterval(interval)


def race_hash_threads():
    for _ in range(30):
        K.row_sum.hash = None
        K.row_sum._ast = None
        start = threading.Barrier(8)
        keys = []

        def hash_it():
            start.wait()
            keys.append(K.row_sum.cache_key)
        threads = [threading.Thread(target=hash_it) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(set(keys)) == 1 and keys[0], keys


# One process: 4 threads, each compiling the 3 axpy variants every thread
# compiles and the row_sum variant of its own index; prints, per variant,
# the SHA-256 of the PTX it got.
CHILD = textwrap.dedent('''
    import hashlib, json, sys
    from concurrent.futures import ThreadPoolExecutor
    sys.path.insert(0, sys.argv[1])
    import tritium
    from kernels import cache_kernels as K
    process = int(sys.argv[2])
    AXPY = {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32", "alpha": "fp32"}
    ROW_SUM = {"x_ptr": "*fp32", "out_ptr": "*fp32", "stride": "i32"}

    def work(thread):
        got = {}
        for block in (64, 128, 256):
            k = tritium.compile(K.axpy, signature=AXPY, constexprs={"BLOCK": block}, target="cuda:90")
            got[f"axpy{block}"] = hashlib.sha256(k.asm["ptx"].encode()).hexdigest()
        block = 16 << ((process * 4 + thread) % 8)
        k = tritium.compile(K.row_sum, signature=ROW_SUM, constexprs={"BLOCK": block}, target="cuda:90")
        got[f"row_sum{block}"] = hashlib.sha256(k.asm["ptx"].encode()).hexdigest()
        return got

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(work, range(4)))
    print(json.dumps(results))
''')


SERIAL = textwrap.dedent('''
    import hashlib, json, sys
    sys.path.insert(0, sys.argv[1])
    import tritium
    from kernels import cache_kernels as K
    AXPY = {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32", "alpha": "fp32"}
    ROW_SUM = {"x_ptr": "*fp32", "out_ptr": "*fp32", "stride": "i32"}
    got = {}
    for block in (64, 128, 256):
        k = tritium.compile(K.axpy, signature=AXPY, constexprs={"BLOCK": block}, target="cuda:90")
        got[f"axpy{block}"] = hashlib.sha256(k.asm["ptx"].encode()).hexdigest()
    for i in range(8):
        k = tritium.compile(K.row_sum, signature=ROW_SUM, constexprs={"BLOCK": 16 << i}, target="cuda:90")
        got[f"row_sum{16 << i}"] = hashlib.sha256(k.asm["ptx"].encode()).hexdigest()
    print(json.dumps(got))
''')


def test_processes_and_threads_share_one_cache(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT, TRITIUM_CACHE_DIR=str(shared))
    env.pop("TRITIUM_ALWAYS_COMPILE", None)
    children = [subprocess.Popen([sys.executable, "-c", CHILD, HERE, str(p)], env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True) for p in range(8)]
    results = []
    for child in children:
        out, err = child.communicate(timeout=600)
        assert child.returncode == 0, err[-3000:]
        results.extend(json.loads(out.strip().splitlines()[-1]))
    # what a serial compile gives: one more process, one thread, a cache of its own
    serial_env = dict(env, TRITIUM_CACHE_DIR=str(tmp_path / "serial"), TRITIUM_ALWAYS_COMPILE="1")
    serial = subprocess.run([sys.executable, "-c", SERIAL, HERE], env=serial_env, capture_output=True, text=True,
                            timeout=600)
    assert serial.returncode == 0, serial.stderr[-3000:]
    expected = json.loads(serial.stdout.strip().splitlines()[-1])
    assert len(results) == 32
    for got in results:
        for name, digest in got.items():
            assert digest == expected[name], f"{name}: a thread got other code than a serial compile"
    # one entry per variant (every process computed the same keys), each
    # whole, and no temporary file left behind
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(shared))
    entries = glob.glob(str(shared / "*" / "*.json"))
    assert len(entries) == 11, "a variant got two keys"
    for meta in entries:
        key, name = os.path.basename(os.path.dirname(meta)), os.path.basename(meta)[:-5]
        assert cache.load(key, name) is not None, f"{meta}: the entry does not verify"
    assert not glob.glob(str(shared / "**" / ".tmp-*"), recursive=True)


NESTED = '''
import tritium
import tritium.language as tl


@tritium.jit
def helper(i):
    return i + 1


@tritium.jit
def kernel(x_ptr):
    tl.store(x_ptr, helper(tl.load(x_ptr)))
'''


def test_cache_key_is_a_property_that_follows_the_functions_called(tmp_path, monkeypatch):
    # Triton's upstream test_cache: kernel.cache_key (a property) changes when
    # a called @jit function's source does, once the memos (`hash`) are reset
    (tmp_path / "nested_kernels.py").write_text(NESTED)
    monkeypatch.syspath_prepend(str(tmp_path))
    import nested_kernels as N
    baseline = N.kernel.cache_key
    assert isinstance(baseline, str) and len(baseline) == 64 and N.kernel.hash == baseline

    def key_with_helper(src):
        N.kernel.hash = N.helper.hash = None
        N.helper._unsafe_update_src(src)
        return N.kernel.cache_key
    original = N.helper.src
    assert key_with_helper(original.replace("i + 1", "i + 2")) != baseline
    assert key_with_helper(original) == baseline
