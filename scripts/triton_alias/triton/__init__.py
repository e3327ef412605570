"""`import triton` answered by Tritium, for running Triton's own tests
against it (scripts/triton_suite.sh puts this folder first on PYTHONPATH).

This module replaces itself in sys.modules with the `tritium` package, and
a finder answers every `triton.X` import with the module `tritium.X`, the
same object, so that `triton.language.constexpr` and
`tritium.language.constexpr` are one class.  A `triton.X` that Tritium
lacks fails to import as it would in a Triton without it.
"""
import importlib
import importlib.abc
import importlib.util
import sys


class _TritiumAliasLoader(importlib.abc.Loader):
    def __init__(self, target: str):
        self.target = target

    def create_module(self, spec):
        return importlib.import_module(self.target)

    def exec_module(self, module):
        pass  # already executed as the tritium module

    def get_code(self, fullname):
        """The code of tritium.X, which `python -m triton.X` runs as __main__
        (e.g. `python -m triton.tools.compile`)."""
        spec = importlib.util.find_spec(self.target)
        return spec.loader.get_code(self.target)


class _TritiumAliasFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith("triton."):
            return None
        real = "tritium." + fullname[len("triton."):]
        real_spec = importlib.util.find_spec(real)
        if real_spec is None:
            return None
        # (the origin is the file `python -m triton.X` reports as sys.argv[0])
        return importlib.util.spec_from_loader(fullname, _TritiumAliasLoader(real), origin=real_spec.origin)


sys.meta_path.insert(0, _TritiumAliasFinder())
import tritium as _tritium  # noqa: E402

sys.modules["triton"] = _tritium
