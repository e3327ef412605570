"""`python -m tritium.info`: where this Tritium and its native library are,
whether TRITIUM_AS_TRITON is on, and what `import triton` resolves to in
this environment (Tritium, a real Triton, or nothing), and from where.

Exit status 0 in every case; the report is for reading.  Under Tritium,
`triton.__tritium_version__` exists; a real Triton has no such attribute.
"""
import os
import sys


def triton_resolution() -> str:
    """What `import triton` gives in this process, in words."""
    try:
        import triton
    except Exception as e:  # an installed Triton may fail for reasons of its own
        return f"fails ({type(e).__name__}: {e})"
    import tritium
    where = os.path.dirname(getattr(triton, "__file__", None) or "?")
    if triton is tritium:
        return f"Tritium {tritium.__tritium_version__} from {where}"
    if hasattr(triton, "__tritium_version__"):
        return f"Tritium {triton.__tritium_version__} (a second copy) from {where}"
    return f"Triton {getattr(triton, '__version__', '?')} from {where}"


def report() -> str:
    import tritium
    from tritium import _native, _triton_alias

    resolution = triton_resolution()  # first: importing triton may install the finder
    library = _native.library_path()
    lines = [
        f"tritium {tritium.__tritium_version__} (Triton API {tritium.__version__}) "
        f"from {os.path.dirname(os.path.abspath(tritium.__file__))}",
        f"native library: {library} ({'present' if os.path.exists(library) else 'MISSING'}"
        f"{', from TRITIUM_LIBRARY' if os.environ.get('TRITIUM_LIBRARY') else ''})",
        f"{_triton_alias.ENV_VAR}={os.environ.get(_triton_alias.ENV_VAR, '')!r}: "
        f"alias {'on' if _triton_alias.enabled() else 'off'}, finder "
        f"{'installed' if _triton_alias.installed() else 'not installed'}",
        f"import triton: {resolution}",
        f"python: {sys.executable}",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
