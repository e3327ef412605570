"""Exceptions Tritium raises.  Every failure of the compiler reaches Python
as one of these; nothing in the native library ends the process."""


class TritiumError(Exception):
    """Base class of Tritium's own errors."""


class CompilationError(TritiumError):
    """Input that does not compile: a kernel or IR with a mistake in it.

    `diagnostics` holds the compiler's messages, each of the form
    ``file:line:col: error: message`` followed by the offending source line
    and a caret under the column.
    """

    def __init__(self, diagnostics: str):
        self.diagnostics = diagnostics
        super().__init__(diagnostics)


class NativeLibraryError(TritiumError):
    """The native library is missing, unloadable, or of another ABI revision."""
