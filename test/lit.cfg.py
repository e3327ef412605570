# lit configuration of Tritium's IR tests: each .mlir file runs tritium-opt
# and checks its output with FileCheck (or -verify-diagnostics).
import os

import lit.formats

config.name = "Tritium"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["lib", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tritium_obj_root, "test")

# Our tools first, then LLVM's FileCheck/not/count.
config.environment["PATH"] = os.pathsep.join(
    [config.tritium_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))]
)
