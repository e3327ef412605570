"""Build steps of the tritium package beyond pyproject.toml's metadata:

  * the native library is copied into the package as
    tritium/_lib/libtritium.so (stripped when `strip` exists), from
    $TRITIUM_LIBRARY when set, else from the checkout's build
    (python/tritium/_lib/libtritium.so, the link the build makes, or
    build/lib/libtritium.so); without it the build stops and says so;
  * tritium-as-triton.pth goes to the top of site-packages: its one line
    (tritium._triton_alias.PTH_LINE) makes `import triton` mean Tritium in
    every process when TRITIUM_AS_TRITON=1, and costs a dictionary lookup
    when the variable is unset;
  * the wheel is tagged for the platform (py3-none-<platform>): it holds a
    native library, but no CPython extension.

setuptools' own build folder is build-python/, apart from the CMake build in
build/.
"""
import importlib.util
import os
import re
import shutil
import subprocess

from setuptools import Distribution, find_packages, setup
from setuptools.command.build_py import build_py

ROOT = os.path.dirname(os.path.abspath(__file__))
PACKAGE_DIR = os.path.join(ROOT, "python", "tritium")
PTH_NAME = "tritium-as-triton.pth"
LIBRARY_NAME = "libtritium.so"


def _alias_module():
    """python/tritium/_triton_alias.py, loaded on its own (it needs only the
    standard library), for its PTH_LINE."""
    spec = importlib.util.spec_from_file_location("_tritium_triton_alias",
                                                  os.path.join(PACKAGE_DIR, "_triton_alias.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def version() -> str:
    """Tritium's own version, __tritium_version__ of python/tritium/version.py."""
    with open(os.path.join(PACKAGE_DIR, "version.py")) as f:
        return re.search(r'^__tritium_version__ = "([^"]+)"', f.read(), re.MULTILINE).group(1)


def native_library() -> str:
    """The real path of the libtritium.so to ship; stops the build without one."""
    explicit = os.environ.get("TRITIUM_LIBRARY")
    candidates = [explicit] if explicit else [os.path.join(PACKAGE_DIR, "_lib", LIBRARY_NAME),
                                              os.path.join(ROOT, "build", "lib", LIBRARY_NAME)]
    for candidate in candidates:
        if os.path.isfile(candidate):
            return os.path.realpath(candidate)
    raise SystemExit(
        "tritium: the native library is not built (looked for "
        + " and ".join(candidates)
        + "). Build it first with scripts/setup.sh, or set TRITIUM_LIBRARY to a built libtritium.so."
    )


class BuildPyWithNativeLibrary(build_py):
    """build_py, then the native library and the .pth file into build_lib."""

    def run(self):
        library = native_library()  # before anything is built: fail early
        # A module deleted from the checkout must not stay in the package.
        shutil.rmtree(os.path.join(self.build_lib, "tritium"), ignore_errors=True)
        super().run()
        if self.dry_run:
            return
        target = os.path.join(self.build_lib, "tritium", "_lib", LIBRARY_NAME)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if os.path.lexists(target):
            os.remove(target)
        strip = shutil.which("strip")
        stripped = strip is not None and subprocess.run(
            [strip, "--strip-unneeded", "-o", target, library], capture_output=True).returncode == 0
        if not stripped:
            shutil.copyfile(library, target)
        os.chmod(target, 0o755)
        self.announce(f"tritium: {library} -> {target}{' (stripped)' if stripped else ''}", level=2)
        with open(os.path.join(self.build_lib, PTH_NAME), "w") as f:
            f.write(_alias_module().PTH_LINE)

    def get_outputs(self, include_bytecode=1):
        return super().get_outputs(include_bytecode) + [
            os.path.join(self.build_lib, "tritium", "_lib", LIBRARY_NAME),
            os.path.join(self.build_lib, PTH_NAME),
        ]


class BinaryDistribution(Distribution):
    """A distribution with platform-specific content: the wheel's files go to
    its root (platlib), not to a .data/purelib folder."""

    def has_ext_modules(self):
        return True


cmdclass = {"build_py": BuildPyWithNativeLibrary}
try:
    from wheel.bdist_wheel import bdist_wheel

    class PlatformWheel(bdist_wheel):
        """A wheel for this platform, for any Python 3 (no extension module)."""

        def get_tag(self):
            return "py3", "none", super().get_tag()[2]

    cmdclass["bdist_wheel"] = PlatformWheel
except ImportError:  # no wheel package: `pip wheel` needs it, a plain install does not
    pass

setup(
    version=version(),
    package_dir={"": "python"},
    packages=find_packages("python", include=["tritium", "tritium.*"]),
    zip_safe=False,
    cmdclass=cmdclass,
    distclass=BinaryDistribution,
    options={"build": {"build_base": "build-python"},
             "egg_info": {"egg_base": "build-python"}},
)
