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


def assert_located(error, file: str, line: int, col: int, source: str, message: str):
    """`error` reads `file:line:col: error: ...message...`, then the source line, then a
    caret under the column.  An error in a @jit function puts Triton's `at L:C:` (line 1 is
    the `def` line, C counts from 0 in the dedented source) and an excerpt from the `def`
    line down to the source line (dedented) in between."""
    text = str(error)
    header = f"{file}:{line}:{col}: error: "
    assert header in text, f"expected {header!r} in:\n{text}"
    lines = text.splitlines()
    i = next(i for i, l in enumerate(lines) if header in l)
    assert re.search(message, lines[i]), f"message does not match {message!r}:\n{text}"
    relative = re.fullmatch(r"at (\d+):(\d+):", lines[i + 1])
    if relative:
        rel_line, rel_col = int(relative.group(1)), int(relative.group(2))
        file_lines = open(file).read().splitlines()
        def_line = file_lines[line - rel_line]
        indent = len(def_line) - len(def_line.lstrip())
        assert def_line.lstrip().startswith("def "), f"line {rel_line} is not the def:\n{text}"
        assert lines[i + 2] == def_line[indent:], f"the excerpt does not start at the def:\n{text}"
        assert rel_col == col - 1 - indent, f"at {rel_line}:{rel_col} does not name column {col}:\n{text}"
        i = next(j for j in range(i + 2, len(lines)) if lines[j].strip() == "^") - 2
        source, col = source[indent:], col - indent
    assert lines[i + 1] == source, f"expected the source line {source!r} in:\n{text}"
    assert lines[i + 2] == " " * (col - 1) + "^", f"expected a caret at column {col} in:\n{text}"
