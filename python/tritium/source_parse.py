"""Parsing kernel source into an AST safely from several threads.

CPython 3.11 before 3.11.8 keeps the depth counter of its AST constructor
(what turns the parser's tree into `ast` objects) per interpreter, not per
call.  The constructor runs no Python code of its own, but an allocation in
it can start a garbage collection, whose finalizers and callbacks are Python
code; the thread can hand the GIL to another there, and if that thread
parses too, the first parse fails with `SystemError: AST constructor
recursion depth mismatch` for a tree it built correctly.  Compiles run on
several threads at once (Inductor's max-autotune precompiles its templates
in a thread pool), each parsing its kernel's source, so on those versions a
parse here runs with the collector held off, one at a time: no Python code
runs inside the constructor, and no other thread with it."""
import ast
import gc
import sys
import threading

AFFECTED = (3, 11) <= sys.version_info[:3] < (3, 11, 8)
_lock = threading.Lock()


def parse_source(source: str) -> ast.Module:
    """ast.parse(source), guarded on the affected versions (above)."""
    if not AFFECTED:
        return ast.parse(source)
    with _lock:
        collecting = gc.isenabled()
        gc.disable()
        try:
            return ast.parse(source)
        finally:
            if collecting:
                gc.enable()
