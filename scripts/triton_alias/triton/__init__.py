"""`import triton` answered by Tritium, for running Triton's own tests
against it (scripts/triton_suite.sh puts this folder first on PYTHONPATH).

This module replaces itself in sys.modules with the `tritium` package and
installs tritium._triton_alias's finder at the front of sys.meta_path, which
answers every `triton.X` import with the module `tritium.X`, the same
object.  `python -m triton.tools.compile` runs tritium.tools.compile.  An
installed tritium does the same in every process when TRITIUM_AS_TRITON=1
(README, "Install").
"""
import sys

from tritium import _triton_alias

_triton_alias.install()
import tritium as _tritium  # noqa: E402

sys.modules["triton"] = _tritium
