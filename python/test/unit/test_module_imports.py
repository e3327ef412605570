"""Every module of the tritium package imports on its own, and the imports
between the package's modules form no cycle.

`test_module_imports_first` imports each module, found by walking
python/tritium, in a fresh interpreter as the first module of the package
to load.  The package's top-level __init__ is not run there: it imports
every part in an order that works, and run first it would hide a module
that imports only when something else has been loaded before it.  (The
package object is made from its spec, so its submodules resolve through
its __path__.)

`test_no_import_cycles` reads every module's import statements (at module
level and inside functions) and checks that the graph of tritium modules
they form has no cycle.  Importing `tritium.a.b` runs the __init__ of
package `tritium.a` first, unless the importer is inside that package, so
such an import is an edge to the package as well; importing a name that is
not a submodule from a package is an edge to the package's __init__.
"""
import ast
import os
import subprocess
import sys

import pytest

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGE_DIR = os.path.join(PYTHON_DIR, "tritium")


def _module_files():
    """{module name: path} of every .py file under python/tritium."""
    modules = {}
    for directory, dirs, files in os.walk(PACKAGE_DIR):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for file in sorted(files):
            if not file.endswith(".py"):
                continue
            parts = os.path.relpath(os.path.join(directory, file), PYTHON_DIR)[:-3].split(os.sep)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = os.path.join(directory, file)
    return modules


MODULES = _module_files()

# Run in the fresh interpreter: the package object without its __init__,
# then exactly the module under test.  Exit status 3: a third-party module
# the module needs is not installed (a skip, not a failure).
_IMPORT_FIRST = """
import importlib, importlib.util, sys
name = sys.argv[1]
if name != "tritium":
    sys.modules["tritium"] = importlib.util.module_from_spec(importlib.util.find_spec("tritium"))
try:
    importlib.import_module(name)
except ModuleNotFoundError as e:
    if e.name and e.name.partition(".")[0] != "tritium":
        print(f"needs {e.name}, which is not installed")
        sys.exit(3)
    raise
"""


@pytest.mark.parametrize("module", sorted(MODULES))
def test_module_imports_first(module):
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
    result = subprocess.run([sys.executable, "-c", _IMPORT_FIRST, module], env=env, cwd=PYTHON_DIR,
                            capture_output=True, text=True, timeout=120)
    if result.returncode == 3:
        pytest.skip(result.stdout.strip())
    if result.returncode != 0:
        pytest.fail(f"`import {module}` as the first module failed:\n{result.stderr}", pytrace=False)


def _package_of(module: str) -> str:
    """The package a module's relative imports start from."""
    return module if MODULES[module].endswith("__init__.py") else module.rpartition(".")[0]


def _ancestors(module: str):
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _imports(module: str):
    """The tritium modules `module` depends on, with the line of each import."""
    with open(MODULES[module], encoding="utf-8") as f:
        tree = ast.parse(f.read(), MODULES[module])
    own_ancestors = set(_ancestors(module))
    edges = []

    def add(target: str, line: int):
        """An import of module `target`: its packages first, unless the
        importer is inside them (they have then already started)."""
        for name in _ancestors(target) + [target]:
            if name in MODULES and name not in own_ancestors and name != module:
                edges.append((name, line))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.partition(".")[0] == "tritium":
                    add(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = _package_of(module).split(".")
                base = ".".join(base[:len(base) - (node.level - 1)] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base.partition(".")[0] != "tritium":
                continue
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                if submodule in MODULES:
                    add(submodule, node.lineno)
                elif base in own_ancestors:
                    edges.append((base, node.lineno))  # a name from a package that is still being imported
                else:
                    add(base, node.lineno)
    return edges


def test_no_import_cycles():
    graph = {module: _imports(module) for module in MODULES}
    state = {}  # module -> "open" while on the DFS path, "done" after
    path = []
    cycles = []

    def visit(module):
        state[module] = "open"
        path.append(module)
        for target, line in graph[module]:
            if state.get(target) == "open":
                cycle = path[path.index(target):] + [target]
                cycles.append(" -> ".join(cycle))
            elif target not in state:
                visit(target)
        path.pop()
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module)
    assert not cycles, "import cycles among tritium's modules:\n" + "\n".join(cycles)
