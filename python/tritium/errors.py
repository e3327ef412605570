"""Exceptions Tritium raises.  Every failure of the compiler reaches Python
as one of these; nothing in the native library ends the process.  Triton's
names for them (`TritonError`, `triton.compiler.errors.*`,
`triton.runtime.errors.*`) are the same classes."""
from typing import Optional


class TritiumError(Exception):
    """Base class of Tritium's own errors."""


class CompilationError(TritiumError):
    """A kernel (or IR) with a mistake in it.

    The message reads ``file:line:col: error: message``, then the offending
    source line and a caret under the column; `file`, `line`, `col` and
    `error_message` hold the parts (None where unknown, e.g. for diagnostics
    from the native library, which are already formatted that way).

    An error in a @jit function also gives its place within the function as
    Triton does, ``at L:C:`` (line 1 is the `def` line, C counts from 0 in
    the dedented source), above an excerpt that starts at the `def` line:

        kernel.py:14:4: error: unsupported operand type(s) for +: 'int' and 'str'
        at 2:4:
        def kernel():
            0 + "a"
            ^

    An error inside a called @jit function is the `__cause__` of one at the
    call; a Python exception raised by a language function is the
    `__cause__` of the error at the user's line.
    """

    def __init__(self, message: str, file: Optional[str] = None, line: Optional[int] = None,
                 col: Optional[int] = None, source_line: Optional[str] = None,
                 function_source: Optional[str] = None, function_line: Optional[int] = None,
                 function_col: int = 0):
        self.error_message = message
        self.file, self.line, self.col = file, line, col
        self.source_line = source_line
        if file is not None and line is not None:
            text = f"{file}:{line}:{col or 1}: error: {message}"
            if function_source is not None and function_line is not None:
                text += f"\nat {function_line}:{function_col}:\n" + _excerpt(function_source, function_line,
                                                                           function_col)
            elif source_line is not None:
                stripped = source_line.rstrip("\n")
                caret = " " * max(0, (col or 1) - 1) + "^"
                text += f"\n{stripped}\n{caret}"
        else:
            text = message
        self.diagnostics = text
        super().__init__(text)


# An excerpt shows the `def` line and at most this many lines ending at the error.
_EXCERPT_LINES = 5


def _excerpt(function_source: str, line: int, col: int) -> str:
    """Lines of a function's source (dedented, starting at its `def`) up to
    `line`, and a caret under column `col` (0-based) of that line."""
    lines = function_source.splitlines()
    line = max(1, min(line, len(lines)))
    first = max(1, line - _EXCERPT_LINES + 1)
    shown = [lines[0]] if first > 1 else []
    if first > 2:
        shown.append("...")
    shown += lines[first - 1:line]
    return "\n".join(shown + [" " * max(0, col) + "^"])


class CompileTimeAssertionFailure(CompilationError):
    """A `tl.static_assert` that failed (Triton's name for it)."""


class UnsupportedLanguageConstruct(CompilationError):
    """Python that a @jit function cannot contain (Triton's name for it)."""


class InterpreterError(TritiumError):
    """Triton's error of its CPU interpreter.  Tritium has no interpreter
    (TRITON_INTERPRET is not honoured), so it is never raised; the name
    exists for code that catches it."""


class PTXASError(TritiumError):
    """ptxas refused the PTX of a kernel."""


class ArgumentError(TritiumError, ValueError):
    """A kernel argument that cannot be passed (a CPU tensor, say): also a
    ValueError, as Triton raises."""


class ArgumentOverflowError(TritiumError, OverflowError):
    """An integer kernel argument wider than 64 bits: also an OverflowError,
    as Triton raises."""


class OptionError(TritiumError, AssertionError):
    """A compile option out of its range (num_warps not a power of 2, say):
    also an AssertionError, which is what Triton raises for it."""


class AutotunerError(TritiumError):
    """An autotuner left without a config to run (`early_config_prune`
    returned none): Triton's `triton.runtime.errors.AutotunerError`."""


class NativeLibraryError(TritiumError):
    """The native library is missing, unloadable, or of another ABI revision."""


class OutOfResources(TritiumError):
    """A kernel needs more of a resource (e.g. shared memory) than the device has."""

    def __init__(self, required: int, limit: int, name: str):
        self.required, self.limit, self.name = required, limit, name
        super().__init__(f"out of resource: {name}, Required: {required}, Hardware limit: {limit}. "
                         "Reducing block sizes or `num_stages` may help.")  # (Triton's wording)
