"""The installable package (pyproject.toml, setup.py) and its
TRITIUM_AS_TRITON switch, end to end, without a GPU.

The package sources (pyproject.toml, setup.py, README.md, python/tritium
with its _lib link to the built library) are copied to a temporary folder,
built into a wheel there with `pip wheel --no-build-isolation --no-index`
(no network; setuptools and wheel from the system), and the wheel is
installed into a fresh venv that sees no other site-packages.  Every check
runs that venv's interpreter in a fresh process with PYTHONPATH unset, so
the checkout is out of sight:
  * without the variable, `import triton` fails, `import tritium` works,
    and start-up imports nothing of tritium;
  * with TRITIUM_AS_TRITON=1, `import triton` is tritium (also when a
    "real" triton package is ahead of site-packages on PYTHONPATH), and a
    grandchild process started with sys.executable, as Inductor starts its
    compile workers, gets Tritium too;
  * the installed package compiles a kernel for cuda:90 with the library
    bundled in it;
  * a build without the native library stops with a message that says so.
Skipped, with the reason, when the library is not built or when pip,
setuptools, wheel or venv are missing.
"""
import os
import re
import shutil
import subprocess
import sys
import textwrap
import zipfile

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PACKAGE = os.path.join(REPO, "python", "tritium")
LIBRARY = os.path.join(PACKAGE, "_lib", "libtritium.so")

# Variables that would let a child see the checkout, or steer the switch.
_CLEARED = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "TRITIUM_LIBRARY", "TRITIUM_AS_TRITON")


def _clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in _CLEARED}
    env.update(extra)
    return env


def _tritium_version():
    with open(os.path.join(PACKAGE, "version.py")) as f:
        return re.search(r'^__tritium_version__ = "([^"]+)"', f.read(), re.MULTILINE).group(1)


def _copy_sources(dest):
    """What `pip wheel` needs from the checkout, copied to `dest` (the build
    writes its build-python/ folder beside setup.py, here not in the checkout)."""
    os.makedirs(dest)
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(os.path.join(REPO, name), dest)
    shutil.copytree(PACKAGE, os.path.join(dest, "python", "tritium"), symlinks=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return dest


def _pip(*args, env=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
                          capture_output=True, text=True, env=env or _clean_env(), cwd=cwd, timeout=600)


def _skip_unless_tools():
    if not os.path.isfile(LIBRARY):
        pytest.skip(f"the native library is not built ({LIBRARY})")
    for probe in (["-c", "import setuptools, wheel, venv"], ["-m", "pip", "--version"]):
        result = subprocess.run([sys.executable, *probe], capture_output=True, text=True)
        if result.returncode:
            pytest.skip(f"{sys.executable} cannot build wheels offline: {result.stderr.strip().splitlines()[-1]}")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The built wheel's path."""
    _skip_unless_tools()
    work = tmp_path_factory.mktemp("packaging")
    src = _copy_sources(str(work / "src"))
    out = work / "wheels"
    build = _pip("wheel", "--no-build-isolation", "--no-deps", "--no-index", "-w", str(out), src, cwd=str(work))
    assert build.returncode == 0, build.stdout + build.stderr
    (path,) = out.glob("tritium-*.whl")
    return str(path)


@pytest.fixture(scope="module")
def venv_python(wheel, tmp_path_factory):
    """The interpreter of a fresh venv (no system site-packages) with the wheel installed."""
    venv = tmp_path_factory.mktemp("venv")
    made = subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], capture_output=True,
                          text=True, env=_clean_env())
    if made.returncode:
        pytest.skip(f"python3 -m venv fails here: {made.stderr.strip()}")
    python = str(venv / "bin" / "python")
    site_packages = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['platlib'])"],
                                   capture_output=True, text=True, check=True, env=_clean_env()).stdout.strip()
    install = _pip("install", "--no-deps", "--no-index", "--target", site_packages, wheel)
    assert install.returncode == 0, install.stdout + install.stderr
    return python


def _venv_dir(python):
    return os.path.dirname(os.path.dirname(python))


def _run(python, code, cwd, **env):
    """Runs `code` in `python`, in a fresh process, with a clean environment."""
    result = subprocess.run([python, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=str(cwd),
                            env=_clean_env(**env), timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_wheel_holds_the_stripped_library_and_the_pth_file(wheel):
    name = os.path.basename(wheel)
    assert name.startswith(f"tritium-{_tritium_version()}-py3-none-linux_"), name
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        assert "tritium-as-triton.pth" in names  # at the root: site-packages itself
        assert "tritium/__init__.py" in names and "tritium/_triton_alias.py" in names
        info = z.getinfo("tritium/_lib/libtritium.so")
        with z.open(info) as f:
            assert f.read(4) == b"\x7fELF"
        pth = z.read("tritium-as-triton.pth").decode()
    assert pth.count("\n") == 1 and pth.startswith("import os;") and "TRITIUM_AS_TRITON" in pth
    if shutil.which("strip"):
        assert info.file_size <= os.path.getsize(os.path.realpath(LIBRARY))
    assert not any("test" in n.split("/")[0] for n in names)


def test_without_the_switch_triton_is_not_tritium(venv_python, tmp_path):
    out = _run(venv_python, """
        import sys
        assert not any(m == "tritium" or m.startswith("tritium.") for m in sys.modules), "imported at start-up"
        assert not any(getattr(f, "tritium_alias", False) for f in sys.meta_path)
        try:
            import triton
        except ModuleNotFoundError:
            print("no triton")
        else:
            assert not hasattr(triton, "__tritium_version__"), triton
        import tritium
        print(tritium.__file__)
        """, tmp_path)
    assert "no triton" in out
    assert _venv_dir(venv_python) in out  # the venv's copy, not the checkout's


def test_with_the_switch_triton_is_tritium_in_grandchildren_too(venv_python, tmp_path):
    out = _run(venv_python, """
        import subprocess, sys
        assert "tritium" not in sys.modules, "the switch imports tritium only when triton is imported"
        assert getattr(sys.meta_path[0], "tritium_alias", False), sys.meta_path
        import triton, triton.language, tritium, tritium.language
        assert triton is tritium and triton.language is tritium.language
        assert triton.language.constexpr is tritium.language.constexpr
        from triton.language import core
        assert core is tritium.language.core
        assert triton.__tritium_version__ == tritium.__tritium_version__
        grandchild = subprocess.run([sys.executable, "-c",
                                     "import triton, tritium; assert triton is tritium; print(triton.__file__)"],
                                    capture_output=True, text=True)
        assert grandchild.returncode == 0, grandchild.stderr
        print("grandchild", grandchild.stdout.strip())
        """, tmp_path, TRITIUM_AS_TRITON="1")
    assert "grandchild " + _venv_dir(venv_python) in out


def test_the_switch_wins_over_an_installed_triton(venv_python, tmp_path):
    fake = tmp_path / "fake" / "triton"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text('__version__ = "3.6.0"\n')
    code = "import triton; print(getattr(triton, '__tritium_version__', 'real triton'))"
    assert _run(venv_python, code, tmp_path, PYTHONPATH=str(fake.parent)).strip() == "real triton"
    for value in ("1", "true", "YES"):
        assert _run(venv_python, code, tmp_path, PYTHONPATH=str(fake.parent),
                    TRITIUM_AS_TRITON=value).strip() == _tritium_version()
    assert _run(venv_python, code, tmp_path, PYTHONPATH=str(fake.parent),
                TRITIUM_AS_TRITON="0").strip() == "real triton"


def test_info_says_which_triton_answers(venv_python, tmp_path):
    def info(**env):
        result = subprocess.run([venv_python, "-m", "tritium.info"], capture_output=True, text=True,
                                cwd=str(tmp_path), env=_clean_env(**env))
        assert result.returncode == 0, result.stderr
        return result.stdout

    off = info()
    assert "import triton: fails" in off and "(present)" in off
    on = info(TRITIUM_AS_TRITON="1")
    assert "import triton: Tritium " in on and "finder installed" in on


def test_python_m_triton_tools_compile_runs_tritiums(venv_python, tmp_path):
    result = subprocess.run([venv_python, "-m", "triton.tools.compile", "--help"], capture_output=True, text=True,
                            cwd=str(tmp_path), env=_clean_env(TRITIUM_AS_TRITON="1"))
    assert result.returncode == 0 and "--kernel-name" in result.stdout, result.stderr


def test_installed_package_compiles_with_its_bundled_library(venv_python, tmp_path):
    (tmp_path / "kernel.py").write_text(textwrap.dedent("""
        import os
        import triton
        import triton.language as tl
        from tritium import _native

        @triton.jit
        def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            mask = offs < n
            tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)

        kernel = triton.compile(add_kernel, signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32",
                                                       "n": "i32"},
                                constexprs={"BLOCK": 1024}, target="cuda:90", num_warps=4)
        assert ".target sm_90a" in kernel.asm["ptx"]
        print("library", _native.native_library().path)
        """))
    result = subprocess.run([venv_python, "kernel.py"], capture_output=True, text=True, cwd=str(tmp_path),
                            env=_clean_env(TRITIUM_AS_TRITON="1", TRITIUM_CACHE_DIR=str(tmp_path / "cache")),
                            timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    library = result.stdout.split("library ", 1)[1].strip()
    assert library.startswith(_venv_dir(venv_python)) and library.endswith("tritium/_lib/libtritium.so")


def test_build_without_the_library_says_so(wheel, tmp_path):
    src = _copy_sources(str(tmp_path / "src"))
    result = _pip("wheel", "--no-build-isolation", "--no-deps", "--no-index", "-w", str(tmp_path / "out"), src,
                  env=_clean_env(TRITIUM_LIBRARY=str(tmp_path / "missing" / "libtritium.so")), cwd=str(tmp_path))
    assert result.returncode != 0
    assert "the native library is not built" in result.stdout + result.stderr
