"""The on-disk kernel cache (python/tritium/runtime/cache.py) seen from a
second process: it finds a kernel the first one compiled without compiling
again, and the kernel it reads back binds its arguments in the kernel's
parameter order (which the metadata's signature records; it once came back
sorted by name, so `x_ptr, y_ptr, out_ptr` launched as `out_ptr, x_ptr,
y_ptr`)."""
import json
import os
import subprocess
import sys
import textwrap

import tritium
import tritium.language as tl

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(tritium.__file__)))

KERNEL = '''
import tritium
import tritium.language as tl


@tritium.jit
def scale(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, alpha * tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)
'''

SIGNATURE = {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "alpha": "fp32",
             "BLOCK": "constexpr"}

# Compiles the kernel of kernel_module.py; with "--cached", the native
# compiler fails if it is asked, so only the cache can answer.  Prints the
# runtime parameters and the launcher's parameter types, as JSON.
CHILD = textwrap.dedent('''
    import json, sys
    sys.path.insert(0, sys.argv[1])
    import tritium
    from tritium import _native
    import kernel_module
    if "--cached" in sys.argv:
        def refuse(*args, **kwargs):
            raise AssertionError("compiled again: the cache did not answer")
        _native.native_library().compile_cuda = refuse
    signature = json.loads(sys.argv[2])
    kernel = tritium.compile(kernel_module.scale, signature=signature, constexprs={"BLOCK": 256},
                             target="cuda:90")
    launcher = kernel._make_launcher()
    print(json.dumps({"runtime": kernel.runtime_params, "names": launcher.param_names,
                      "types": launcher.param_types, "signature": list(kernel.metadata["signature"])}))
''')


def run_child(tmp_path, *flags):
    env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT)
    out = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path), json.dumps(SIGNATURE), *flags],
                         capture_output=True, text=True, env=env, check=False)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_second_process_reads_the_kernel_back_in_parameter_order(tmp_path):
    (tmp_path / "kernel_module.py").write_text(KERNEL)
    first = run_child(tmp_path)
    second = run_child(tmp_path, "--cached")
    expected_runtime = ["x_ptr", "y_ptr", "out_ptr", "n", "alpha"]
    for result in (first, second):
        assert result["signature"] == list(SIGNATURE)
        assert result["runtime"] == result["names"] == expected_runtime
        assert result["types"] == ["*fp32", "*fp32", "*fp32", "i32", "fp32"]


def test_the_metadata_file_keeps_the_signature_order(tmp_path):
    @tritium.jit
    def zeta_alpha(z_ptr, a_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(a_ptr + offs, tl.load(z_ptr + offs))
    kernel = tritium.compile(zeta_alpha, signature={"z_ptr": "*fp32", "a_ptr": "*fp32", "BLOCK": "constexpr"},
                             constexprs={"BLOCK": 64}, target="cuda:90")
    cache_dir = os.environ["TRITIUM_CACHE_DIR"]
    written = [os.path.join(d, f) for d, _, files in os.walk(cache_dir) for f in files
               if f == "zeta_alpha.json"]
    assert written
    with open(written[0]) as f:
        assert list(json.load(f)["signature"]) == ["z_ptr", "a_ptr", "BLOCK"]
    assert kernel.runtime_params == ["z_ptr", "a_ptr"]
