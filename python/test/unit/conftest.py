"""Shared set-up of the unit tests (no GPU): each test module compiles with
a kernel cache of its own, empty at the start, so that no cache left by an
older compiler answers for this one; `compile_ttir` compiles to Triton IR."""
import re

import pytest

import tritium as triton


@pytest.fixture(autouse=True, scope="module")
def _fresh_kernel_cache(tmp_path_factory):
    patch = pytest.MonkeyPatch()
    patch.setenv("TRITIUM_CACHE_DIR", str(tmp_path_factory.mktemp("kernel-cache")))
    patch.delenv("TRITIUM_ALWAYS_COMPILE", raising=False)
    yield
    patch.undo()


_LOCATION = re.compile(r' loc\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)')


def strip_locations(text: str) -> str:
    """IR text without its locations: the ` loc(...)` suffixes and the
    `#locN = loc(...)` alias lines, so tests can match ops and headers."""
    lines = [line for line in text.splitlines() if not line.startswith("#loc")]
    return _LOCATION.sub("", "\n".join(lines)) + "\n"


def compile_ttir(fn, signature, constexprs=None, **kwargs) -> str:
    """The kernel's Triton IR (after the TTIR pipeline), without locations."""
    return strip_locations(triton.compile(fn, signature=signature, constexprs=constexprs or {},
                                          stop_after="ttir", **kwargs).asm["ttir"])


def count_calls(monkeypatch, owner, name: str) -> list:
    """Wraps `owner.name` for the test so that every call appends to the
    returned list (then calls through)."""
    calls = []
    original = getattr(owner, name)

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)
    monkeypatch.setattr(owner, name, counted)
    return calls
