"""Triton's AsyncCompileMode: inside `with AsyncCompileMode(executor):`,
the compiles that @jit functions need run in `executor` (a
concurrent.futures executor) instead of the calling thread.

A warmup submits its compile and returns at once, with a FutureKernel; the
same specialization submitted again in the block gets the same future.  A
compiled kernel enters its function's cache only when the calling side
takes it: when a launch needs it (the launch waits for it) or when the
block ends (which waits for every compile it submitted).  So, as in Triton,
a kernel compiled in a worker is never seen half-way, and the cache holds
only kernels some thread has asked for.
"""
from __future__ import annotations

import contextvars
import threading
from typing import Any, Callable, Dict, Hashable, Optional

_ACTIVE: contextvars.ContextVar = contextvars.ContextVar("tritium_async_compile_mode", default=None)


class FutureKernel:
    """A compile running in an executor; `result()` waits for it and
    finishes it (into its function's cache) once."""

    def __init__(self, future, finalize: Callable[[Any], Any]):
        self._future = future
        self._finalize = finalize
        self._lock = threading.Lock()
        self._done = False
        self._kernel = None

    def result(self, ignore_errors: bool = False):
        try:
            kernel = self._future.result()
        except Exception:
            if ignore_errors:
                return None
            raise
        with self._lock:
            if not self._done:
                self._kernel = self._finalize(kernel)
                self._done = True
        return self._kernel


class AsyncCompileMode:
    """The context manager (Triton's name and arguments)."""

    def __init__(self, executor):
        self.executor = executor
        self.future_kernels: Dict[Hashable, FutureKernel] = {}
        self._lock = threading.Lock()
        self._token = None

    def submit(self, key: Hashable, compile_fn: Callable[[], Any], finalize_fn: Callable[[Any], Any]) -> FutureKernel:
        """The future of `key`'s compile: submitted the first time, shared
        afterwards."""
        with self._lock:
            future_kernel = self.future_kernels.get(key)
            if future_kernel is None:
                future_kernel = FutureKernel(self.executor.submit(compile_fn), finalize_fn)
                self.future_kernels[key] = future_kernel
            return future_kernel

    def __enter__(self):
        if _ACTIVE.get() is not None:
            raise RuntimeError("AsyncCompileMode blocks do not nest")
        self._token = _ACTIVE.set(self)
        return self

    def __exit__(self, exc_type, exc, tb):
        _ACTIVE.reset(self._token)
        for future_kernel in list(self.future_kernels.values()):
            # a compile that failed fails again, at its line, when launched
            future_kernel.result(ignore_errors=True)
        return False


def active() -> Optional[AsyncCompileMode]:
    """The block this code runs in, or None."""
    return _ACTIVE.get()
