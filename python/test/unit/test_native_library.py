"""The native library boundary: it loads without a GPU or any environment
variable, exports only the C API, depends on no LLVM/MLIR shared library,
and turns every kind of bad input into a Python exception."""
import os
import random
import subprocess
import sys

import pytest

import tritium
from tritium._native import library_path

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

ADD_KERNEL = """\
module {
  tt.func public @add(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %pid = tt.get_program_id {axis = 0 : i32} : i32
    %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
    %b = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %p = tt.addptr %b, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %ns = tt.splat %n : i32 -> tensor<128xi32>
    %m = arith.cmpi slt, %r, %ns : tensor<128xi32>
    %v = tt.load %p, %m : tensor<128x!tt.ptr<f32>>
    %w = arith.addf %v, %v : tensor<128xf32>
    tt.store %p, %w, %m : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}
"""


def test_import_finds_its_library_with_no_environment():
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRITIUM")}
    env["PYTHONPATH"] = "python"
    out = subprocess.run(
        [sys.executable, "-c", "import tritium; print(tritium.native_version())"],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "MLIR 22" in out.stdout


def test_round_trip_of_a_tt_kernel():
    printed = tritium.native_library().parse_and_verify(ADD_KERNEL, "add.ttir")
    assert "tt.func public @add" in printed
    assert "tt.load %" in printed and "tt.store %" in printed
    # The printed form parses again to the same text.
    assert tritium.native_library().parse_and_verify(printed) == printed


def test_garbage_text_raises_with_a_location():
    with pytest.raises(tritium.CompilationError) as info:
        tritium.native_library().parse_and_verify("this is not IR {", "junk.mlir")
    message = str(info.value)
    assert "junk.mlir:1:1: error:" in message
    assert "^" in message  # the caret under the column


def test_verifier_error_names_the_rule_and_line():
    bad = """module {
  tt.func @f() {
    %r = tt.make_range {start = 0 : i32, end = 100 : i32} : tensor<100xi32>
    tt.return
  }
}
"""
    with pytest.raises(tritium.CompilationError) as info:
        tritium.native_library().parse_and_verify(bad, "range.ttir")
    message = str(info.value)
    assert "range.ttir:3:10: error:" in message
    assert "length end - start = 100 must be a power of two" in message


def test_layout_rule_error_comes_back_as_exception():
    bad = """
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f() {
    %r = tt.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #blocked>
    tt.return
  }
}
"""
    with pytest.raises(tritium.CompilationError, match="spans 8 warps"):
        tritium.native_library().parse_and_verify(bad, "layout.ttgir")


def test_library_depends_on_no_llvm_or_mlir_library():
    out = subprocess.run(["ldd", library_path()], capture_output=True, text=True, check=True)
    assert "libLLVM" not in out.stdout and "libMLIR" not in out.stdout
    assert "not found" not in out.stdout


def test_library_exports_only_the_c_api():
    out = subprocess.run(["nm", "-D", "--defined-only", library_path()],
                         capture_output=True, text=True, check=True)
    symbols = [line.split()[-1] for line in out.stdout.splitlines() if line.strip()]
    assert symbols, "no exported symbols"
    assert all(s.startswith("tritium_") for s in symbols), symbols


def _mutate(text: str, rng: random.Random) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(chars))
        action = rng.choice(("delete", "insert", "replace", "truncate"))
        if action == "delete":
            del chars[i]
        elif action == "insert":
            chars.insert(i, rng.choice("{}()<>[]%:,x0123456789 tensor!tt.ptr#"))
        elif action == "replace":
            chars[i] = rng.choice("{}()<>[]%:,x09 -")
        else:
            chars = chars[:i]
        if not chars:
            chars = ["{"]
    return "".join(chars)


FUZZ_SCRIPT = """
import random, sys
sys.path.insert(0, "python")
import tritium
from test_native_library import ADD_KERNEL, _mutate
rng = random.Random(int(sys.argv[1]))
lib = tritium.native_library()
ok = bad = 0
for _ in range(int(sys.argv[2])):
    try:
        lib.parse_and_verify(_mutate(ADD_KERNEL, rng), "fuzz.ttir")
        ok += 1
    except tritium.CompilationError as e:
        assert "fuzz.ttir" in str(e) or "error" in str(e), str(e)
        bad += 1
print(ok, bad)
"""


def test_mutated_kernels_never_kill_the_process():
    # In a child process: an abort there fails this test instead of pytest.
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run([sys.executable, "-c", FUZZ_SCRIPT, "1234", "400"],
                         cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    ok, bad = map(int, out.stdout.split())
    assert ok + bad == 400 and bad > 300
