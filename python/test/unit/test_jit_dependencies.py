"""What a @jit function's cache key and staleness checks depend on
(runtime/dependencies.py), and the forms of Triton's runtime API around
them: warmup with dtypes, preload from the hooks' specialization data, the
`debug` launch option.  Launches run on the fake CUDA runtime of
test_warm_launch.py."""
import json
import math
import os
import textwrap

import pytest

import tritium
import tritium.language as tl
from tritium.runtime.jit import JITFunction

from test_warm_launch import FakeTensor, cuda  # noqa: F401 - the fixture


ROWS = tl.constexpr(16)
ELEMENT = tl.float16
PLAIN = 7


@tritium.jit
def _helper(x):
    return x * ROWS


class _Namespace:
    helper = _helper


helpers = _Namespace()


def reads_of(fn):
    fn.hash = None
    fn.cache_key  # noqa: B018
    return sorted(read.name for read in fn.used_reads)


def test_reads_are_the_globals_the_body_reads_before_binding_them():
    @tritium.jit
    def kernel(x_ptr, n, BLOCK: tl.constexpr = ROWS):
        a = ELEMENT                  # a global read
        PLAIN = 3                    # noqa: F841 - a local from here on: not a read
        b = PLAIN                    # noqa: F841
        offs = tl.arange(0, BLOCK)   # tl: a module
        for ROWS in range(2):        # noqa: B007 - the loop target is local
            pass
        tl.store(x_ptr + offs, _helper(offs).to(a))
    assert reads_of(kernel) == ["ELEMENT", "ROWS"]  # ROWS through _helper; the default is no read
    assert [name for (name, _) in kernel.used_global_vals] == ["ELEMENT", "ROWS"]


def test_modules_jit_functions_and_builtins_are_not_reads():
    @tritium.jit
    def kernel(x_ptr):
        tl.store(x_ptr, min(1, 2) + _Namespace.helper(1))
    assert reads_of(kernel) == ["ROWS", "_Namespace"]  # ROWS from the helper; the class object itself
    assert _helper in _callees(kernel)


def _callees(fn):
    from tritium.runtime import dependencies
    return dependencies.scan(fn)[1]


def test_a_jit_function_reached_through_an_attribute_is_a_callee():
    @tritium.jit
    def kernel(x_ptr):
        tl.store(x_ptr, helpers.helper(1))
    assert _callees(kernel) == [_helper]
    before = kernel.cache_key
    _helper.hash = None
    _helper._unsafe_update_src(_helper.src.replace("x * ROWS", "x * ROWS + 1"))
    try:
        kernel.hash = None
        assert kernel.cache_key != before
    finally:
        _helper._unsafe_update_src(_helper.src.replace("x * ROWS + 1", "x * ROWS"))
        _helper.hash = None


def test_the_first_line_is_part_of_the_cache_key(tmp_path):
    # upstream test_changed_line_numbers_invalidate_cache: the same source at
    # another line compiles with other line info
    import importlib.util
    code = textwrap.dedent("""
        import tritium
        @tritium.jit
        def kernel(i):
            i = i + 1
    """)
    keys = []
    for shift in (0, 1):
        path = tmp_path / f"module{shift}.py"
        path.write_text("\n" * shift + code)
        spec = importlib.util.spec_from_file_location(f"module{shift}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        keys.append(module.kernel.cache_key)
    assert keys[0] != keys[1]


CONFLICT = tl.constexpr(0)


@tritium.jit
def _reads_conflict():
    a = CONFLICT  # noqa: F841


def test_a_callee_that_saw_another_value_of_a_global_raises(monkeypatch):
    @tritium.jit
    def first():
        a = CONFLICT  # noqa: F841
        _reads_conflict()

    @tritium.jit
    def second():
        a = CONFLICT  # noqa: F841
        _reads_conflict()
    _reads_conflict.hash = None
    first.cache_key  # noqa: B018 - the callee records CONFLICT = 0
    monkeypatch.setitem(globals(), "CONFLICT", tl.constexpr(1))
    with pytest.raises(RuntimeError, match=r"Global variable CONFLICT has value constexpr\[1\] when compiling second, "
                                           r"but inner function _reads_conflict has conflicting value constexpr\[0\]"):
        second.cache_key  # noqa: B018
    _reads_conflict.hash = None


def test_a_changed_dtype_global_raises(cuda, monkeypatch):  # noqa: F811
    @tritium.jit
    def fill(x_ptr):
        tl.store(x_ptr + tl.arange(0, 16), tl.zeros([16], ELEMENT).to(tl.float32))
    x = FakeTensor(0x10000)
    fill[(1,)](x)
    monkeypatch.setitem(globals(), "ELEMENT", tl.float32)
    with pytest.raises(RuntimeError, match="Global variable ELEMENT has changed since we compiled this kernel"):
        fill[(1,)](x)
    monkeypatch.setitem(globals(), "ELEMENT", tl.float16)
    fill[(1,)](x)
    assert len(cuda.records) == 2


def test_debug_is_a_launch_option_with_its_own_specializations(cuda):  # noqa: F811
    @tritium.jit
    def check(x_ptr):
        tl.device_assert(tl.load(x_ptr) == 1, "x == 1")
    x = FakeTensor(0x10000, "torch.int32")
    check[(1,)](x, debug=False)
    check[(1,)](x, debug=True)
    check[(1,)](x, debug=True)  # the warm path keys on it too
    assert len(check.compiled) == 2
    without, with_ = check.compiled.values()
    assert "tt.assert" not in without.asm["ttir"] and "tt.assert" in with_.asm["ttir"]
    assert len(cuda.records) == 3


class _TorchDType:
    """Plays torch.float32 for warmup (a class named dtype of module torch)."""

    def __init__(self, name):
        self.name = name

    def __str__(self):
        return self.name


_TorchDType.__name__ = "dtype"
_TorchDType.__module__ = "torch"


@tritium.jit
def _add(a, b, o, N: tl.constexpr, KIND: tl.constexpr):
    idx = tl.arange(0, N)
    tl.store(o + idx, (tl.load(a + idx) + tl.load(b + idx)).to(KIND))


@pytest.fixture
def hooks():
    yield
    JITFunction.cache_hook = JITFunction.compiled_hook = None


def test_warmup_takes_dtypes_and_preload_compiles_the_hooks_data_again(cuda, hooks, monkeypatch, tmp_path):  # noqa: F811
    seen = []
    JITFunction.cache_hook = lambda **kw: seen.append(kw)
    f32 = _TorchDType("torch.float32")
    _add.compiled.clear()
    kernel = _add.warmup(f32, f32, f32, 32, tl.float32, grid=(1,))
    assert len(seen) == 1 and seen[0]["compile"]["is_warmup"] is True
    assert seen[0]["compile"]["key"] in _add.compiled and not cuda.records
    data = seen[0]["compile"]["specialization_data"]
    assert json.loads(data)["name"].endswith("test_jit_dependencies._add")
    # a launch with tensors of those dtypes finds it
    _add[(1,)](FakeTensor(0x10000), FakeTensor(0x20000), FakeTensor(0x30000), 32, tl.float32)
    assert len(seen) == 1 and len(cuda.records) == 1
    # preloaded in a fresh cache, the same compile; a later warmup compiles nothing
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(tmp_path / "fresh"))
    _add.compiled.clear()
    preloaded = _add.preload(data)
    assert preloaded.hash == kernel.hash and preloaded.hash is not None
    assert len(seen) == 2 and len(_add.compiled) == 1
    assert _add.warmup(f32, f32, f32, 32, tl.float32, grid=(1,)) is preloaded and len(seen) == 2
    with pytest.raises(RuntimeError, match="Specialization data is for .*_add but trying to preload for .*fill"):
        _fill_i32.preload(data)
    tampered = json.loads(data)
    tampered["constexprs"]["N"] = 64
    with pytest.raises(RuntimeError, match="does not match"):
        _add.preload(json.dumps(tampered))


@tritium.jit
def _fill_i32(o):
    tl.store(o, 1)


def test_the_compiled_hook_sees_the_same_specialization_data(cuda, hooks):  # noqa: F811
    data = {}
    JITFunction.cache_hook = lambda **kw: data.setdefault("before", kw["compile"]["specialization_data"])
    JITFunction.compiled_hook = lambda **kw: data.setdefault("after", kw["compile"]["specialization_data"])
    _fill_i32.compiled.clear()
    _fill_i32.warmup(_TorchDType("torch.int32"), grid=(1,))
    assert data["before"] == data["after"] and json.loads(data["after"])["signature"] == {"o": "*i32"}


class _Plain:
    """An object without value equality."""


PLAIN_OBJECT = _Plain()
SIZES = [16, 32]


def test_a_list_changed_in_place_is_a_change_and_a_plain_object_is_itself(monkeypatch):
    @tritium.jit
    def kernel():
        a = SIZES  # noqa: F841
        b = PLAIN_OBJECT  # noqa: F841
    kernel._check_globals()  # records both
    kernel._check_globals()  # nothing changed: the object is compared by identity
    SIZES.append(64)
    try:
        with pytest.raises(RuntimeError, match=r"Global variable SIZES has changed .* from \[16, 32\] to "
                                               r"\[16, 32, 64\]"):
            kernel._check_globals()
    finally:
        SIZES.pop()
    kernel._check_globals()
    monkeypatch.setitem(globals(), "PLAIN_OBJECT", _Plain())
    with pytest.raises(RuntimeError, match="Global variable PLAIN_OBJECT has changed"):
        kernel._check_globals()


def test_launch_hooks_assigned_on_compiled_kernel_reach_warm_launches(cuda):  # noqa: F811
    # Triton's older spelling (upstream test_launch::test_metadata); the
    # hook must see launches that took the warm path before it was set
    from tritium.compiler import CompiledKernel
    seen = []

    @tritium.jit(launch_metadata=lambda grid, kernel, args: {"value": args["x"]})
    def kernel(x):
        pass
    kernel[(1, 3, 2)](6)
    kernel[(1, 3, 2)](6)  # warm
    CompiledKernel.launch_enter_hook = lambda metadata: seen.append(metadata.get())
    try:
        kernel[(1, 3, 2)](6)
    finally:
        CompiledKernel.launch_enter_hook = None
    kernel[(1, 3, 2)](6)
    assert [(m["grid"], m["value"]) for m in seen] == [((1, 3, 2), 6)]
    assert not CompiledKernel.launch_enter_hook and len(cuda.records) == 4


@tritium.constexpr_function
def _flag():
    return False


@tritium.jit
def _uses_flag(out):
    a: tl.constexpr = _flag()
    tl.store(out, a)


def test_a_constexpr_function_enters_its_callers_cache_key():
    # Triton's rule (upstream test_cache::test_constexpr_fn_change): the
    # caller's kernels are stale once the constexpr function changes
    _uses_flag.hash = None
    baseline = _uses_flag.cache_key
    source = _flag.src
    assert source.startswith("def _flag():")
    try:
        _flag._unsafe_update_src(source.replace("False", "True"))
        _uses_flag.hash = None
        assert _uses_flag.cache_key != baseline
    finally:
        _flag._unsafe_update_src(source)
        _uses_flag.hash = None
    assert _uses_flag.cache_key == baseline


@tritium.constexpr_function
def _asks_the_machine():
    return os.cpu_count()


def test_a_constexpr_function_referring_to_a_plain_function_has_no_cache_key():
    # (upstream test_cache::test_invalid_constexpr_fn): the key cannot follow
    # os.cpu_count, so a kernel using it could be served stale
    with pytest.raises(RuntimeError, match="Unsupported function referenced: <built-in function cpu_count>"):
        _asks_the_machine.cache_key  # noqa: B018


@tritium.constexpr_function
def _halves(n):
    return math.ceil(n / 2)


def test_a_constexpr_function_calling_math_has_a_cache_key():
    assert len(_halves.cache_key) == 64


class _QueuedPool:
    """An executor that runs what it was given only when asked (as the
    upstream test_cache::test_async_compile_mock's pool)."""

    def __init__(self):
        self.queue = []

    def submit(self, fn, *args, **kwargs):
        from concurrent.futures import Future
        future = Future()

        def task():
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(fn(*args, **kwargs))
                except Exception as e:  # noqa: BLE001 - handed to the future
                    future.set_exception(e)
        self.queue.append(task)
        return future

    def run_one(self):
        self.queue.pop(0)()

    def run_all(self):
        while self.queue:
            self.run_one()


@tritium.jit
def _store_a(Y, a: tl.constexpr):
    tl.store(Y, a)


def test_async_compile_mode_compiles_in_the_executor_and_caches_when_taken(cuda):  # noqa: F811
    _store_a.compiled.clear()
    f32, i32 = _TorchDType("torch.float32"), _TorchDType("torch.int32")
    pool = _QueuedPool()
    with tritium.AsyncCompileMode(pool):
        for dtype in (f32, i32):
            for a in (0, 1):
                _store_a.warmup(dtype, a, grid=(1,))
        assert len(_store_a.compiled) == 0 and len(pool.queue) == 4
        _store_a.warmup(f32, 0, grid=(1,))  # the same specialization: the same future
        assert len(pool.queue) == 4
        pool.run_one()  # compiles (f32, 0), which only a launch or the block's end caches
        assert len(_store_a.compiled) == 0
        _store_a[(1,)](FakeTensor(0x10000), 0)
        assert len(_store_a.compiled) == 1 and len(cuda.records) == 1
        pool.run_all()
    assert len(_store_a.compiled) == 4  # the block's end took the rest


def test_async_compile_mode_with_threads_gives_each_launch_its_kernel(cuda):  # noqa: F811
    from concurrent.futures import ThreadPoolExecutor
    _store_a.compiled.clear()
    f32, i32 = _TorchDType("torch.float32"), _TorchDType("torch.int32")
    with ThreadPoolExecutor(2) as pool, tritium.AsyncCompileMode(pool):
        futures = [_store_a.warmup(dtype, a, grid=(1,)) for dtype in (f32, i32) for a in (0, 1, 2)]
        for a in (0, 1, 2):
            _store_a[(1,)](FakeTensor(0x10000, "torch.int32"), a)
        assert len(cuda.records) == 3
    assert len(_store_a.compiled) == 6
    assert {f.result() for f in futures} == set(_store_a.compiled.values())
