"""`import triton` answered by Tritium: a meta-path finder that answers
`triton` with the module `tritium` and every `triton.X` with `tritium.X`,
the same objects, so that `triton.language.constexpr` and
`tritium.language.constexpr` are one class.  A `triton.X` that Tritium
lacks fails to import as it would in a Triton without it.

`install()` puts the finder at the front of sys.meta_path, ahead of the
path finder, so that an installed Triton never answers.  Nothing is
imported until `import triton` runs.

Two things install it:
  * the `tritium-as-triton.pth` file that the installed package puts in
    site-packages, at the start of every Python process of that
    environment, when TRITIUM_AS_TRITON is 1, true or yes (see
    `PTH_LINE`); it loads this file on its own, without importing the
    tritium package, so that it costs nothing until `import triton`;
  * scripts/triton_alias/triton/__init__.py, for a checkout put first on
    PYTHONPATH.

This module imports only the standard library, and at start-up only what
the interpreter has already loaded (importlib.util and importlib.abc, 20 ms
with importlib.resources, are imported when `import triton` runs): the .pth
line runs it before the tritium package is imported.
"""
import importlib
import os
import sys

ENV_VAR = "TRITIUM_AS_TRITON"
_ON = ("1", "true", "yes")

# The one line of tritium-as-triton.pth.  site runs a .pth line that starts
# with "import" at interpreter start-up; this one reads the variable and,
# only when it is set, loads this file (found beside the tritium package
# on sys.path) as a module of its own and calls install().
PTH_LINE = (
    "import os; os.environ.get('" + ENV_VAR + "', '').strip().lower() in " + repr(_ON) + " and exec("
    "'import importlib.machinery as m, sys\\n"
    "p = m.PathFinder.find_spec(\"tritium\")\\n"
    "if p and p.submodule_search_locations:\\n"
    " f = os.path.join(p.submodule_search_locations[0], \"_triton_alias.py\")\\n"
    " a = type(sys)(\"tritium._triton_alias\"); a.__file__ = f\\n"
    " m.SourceFileLoader(a.__name__, f).exec_module(a); a.install()', {'os': os})\n"
)


def enabled() -> bool:
    """Whether TRITIUM_AS_TRITON asks for `import triton` to mean Tritium."""
    return os.environ.get(ENV_VAR, "").strip().lower() in _ON


def _alias_target(fullname: str):
    """The tritium module name that answers `fullname`, or None."""
    if fullname == "triton":
        return "tritium"
    if fullname.startswith("triton."):
        return "tritium." + fullname[len("triton."):]
    return None


class _TritiumAliasLoader:
    def __init__(self, target: str):
        self.target = target
        self._own_spec = None

    def create_module(self, spec):
        module = importlib.import_module(self.target)
        self._own_spec = getattr(module, "__spec__", None)
        return module

    def exec_module(self, module):
        # Already executed as the tritium module.  The import system has just
        # set module.__spec__ to the alias spec; the module keeps its own.
        if self._own_spec is not None:
            module.__spec__ = self._own_spec

    def get_code(self, fullname):
        """The code of tritium.X, which `python -m triton.X` runs as __main__
        (e.g. `python -m triton.tools.compile`)."""
        import importlib.util
        spec = importlib.util.find_spec(self.target)
        return spec.loader.get_code(self.target)


class _TritiumAliasFinder:
    # Marks the finder whichever copy of this module made it (the .pth loads
    # this file apart from the package's own tritium._triton_alias).
    tritium_alias = True

    def find_spec(self, fullname, path=None, target=None):
        real = _alias_target(fullname)
        if real is None:
            return None
        import importlib.util
        try:
            real_spec = importlib.util.find_spec(real)
        except (ImportError, ValueError):
            return None
        if real_spec is None:
            return None
        # (the origin is the file `python -m triton.X` reports as sys.argv[0])
        return importlib.util.spec_from_loader(fullname, _TritiumAliasLoader(real), origin=real_spec.origin,
                                               is_package=real_spec.submodule_search_locations is not None)


def installed() -> bool:
    """Whether a Tritium alias finder is on sys.meta_path."""
    return any(getattr(finder, "tritium_alias", False) for finder in sys.meta_path)


def install() -> None:
    """Puts the finder at the front of sys.meta_path (once per process)."""
    if not installed():
        sys.meta_path.insert(0, _TritiumAliasFinder())
