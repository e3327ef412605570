"""Triton's tools without a GPU: ahead-of-time compilation
(`python -m tritium.tools.compile`) and linking (`tritium.tools.link`) to
C that gcc compiles against cuda.h, the SASS listing of `tools.disasm`
(from a canned cuobjdump listing), and `testing.perf_report`'s table, CSV
and plot.  python/test/gpu/test_aot_from_c.py runs the generated C."""
import glob
import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys

import pytest

import tritium
from tritium.tools import compile as aot
from tritium.tools import disasm, link
from kernels import aot as aot_kernels

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPO = os.path.dirname(PYTHON_DIR)
CUDA_INCLUDE = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "include")
HAS_CUDA_H = os.path.isfile(os.path.join(CUDA_INCLUDE, "cuda.h")) and shutil.which("gcc") is not None
needs_cuda_h = pytest.mark.skipif(not HAS_CUDA_H, reason="needs gcc and cuda.h")

# The kernel file the tests compile (copied next to their outputs, as a
# user's file; imported here to compile the same kernels in-process).
KERNELS = open(aot_kernels.__file__).read()


def _env(extra_path=()):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(list(extra_path) + [PYTHON_DIR])
    return env


def run_compile(cwd, *args, module="tritium.tools.compile", extra_path=(), check=True):
    result = subprocess.run([sys.executable, "-m", module, *args], cwd=cwd, env=_env(extra_path),
                            capture_output=True, text=True, timeout=300)
    if check:
        assert result.returncode == 0, result.stderr
    return result


@pytest.fixture
def kernel_dir(tmp_path):
    (tmp_path / "kernels.py").write_text(KERNELS)
    return tmp_path


def _sig_hash(signature, warps, stages):
    items = [s.strip() for s in signature.split(",")] + [f"warps{warps}xstages{stages}"]
    return hashlib.sha256(" ".join(items).encode()).hexdigest()[:8]


def _gcc_c(cwd, source):
    result = subprocess.run(["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-c", str(source), "-I",
                             CUDA_INCLUDE, "-o", os.devnull], cwd=cwd, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


ADD_SIG = "*fp32:16, *fp32:16, *fp32:16, i32:16, 1024"
ADD_GRID = "(n + 1023) / BLOCK, 1, 1"
MATMUL_SIG = "*fp16:16, *fp16:16, *fp32:16, i32, i32, i32, i32:16, i32:16, i32:16, fp16, 64, 64, 32"
MATMUL_GRID = "(M + BM - 1) / BM, (N + BN - 1) / BN, 1"


def test_compile_vector_add(kernel_dir):
    run_compile(kernel_dir, "kernels.py", "-n", "add_kernel", "--signature", ADD_SIG, "--grid", ADD_GRID,
                "-w", "4", "--target", "cuda:90:32", "--out-name", "add", "-o", "add")
    sig_hash = _sig_hash(ADD_SIG, 4, 3)
    name = f"add_{sig_hash}_0d1d2d3d"
    header = kernel_dir / f"add.{sig_hash}_0d1d2d3d.h"
    source = kernel_dir / f"add.{sig_hash}_0d1d2d3d.c"
    assert sorted(p.name for p in kernel_dir.glob("add.*")) == sorted([header.name, source.name])
    h = header.read_text()
    assert "// tt-linker-backend: cuda" in h
    assert (f"// tt-linker: {name}:CUdeviceptr x_ptr, CUdeviceptr y_ptr, CUdeviceptr out_ptr, int32_t n:"
            "1024_warps4xstages3") in h
    assert (f"CUresult {name}(CUstream stream, CUdeviceptr x_ptr, CUdeviceptr y_ptr, CUdeviceptr out_ptr, "
            "int32_t n);") in h
    assert f"void load_{name}(void);" in h and f"void unload_{name}(void);" in h
    c = source.read_text()
    assert f'cuModuleGetFunction(&{name}_func, {name}_mod, "add_kernel")' in c
    assert re.search(rf"unsigned char {name}_cubin\[\d+\]", c)
    assert "void *args[4] = { &x_ptr, &y_ptr, &out_ptr, &n };" in c  # no scratch parameter
    assert "const int64_t BLOCK = 1024LL;" in c and "gX = (unsigned int)((n + 1023) / BLOCK);" in c
    assert re.search(rf"cuLaunchKernel\({name}_func, gX, gY, gZ, 128, 1, 1, 0,\s+stream, args", c)
    if HAS_CUDA_H:
        _gcc_c(kernel_dir, source)


def test_embedded_image_is_the_compiled_kernel(kernel_dir):
    """The bytes in the C file are the cubin (or, without ptxas, the PTX)
    tritium.compile makes of the same specialization."""
    run_compile(kernel_dir, "kernels.py", "-n", "add_kernel", "--signature", ADD_SIG, "--grid", ADD_GRID,
                "-w", "4", "--target", "cuda:90", "--out-name", "add")
    compiled = tritium.compile(aot_kernels.add_kernel, signature={"x_ptr": "*fp32", "y_ptr": "*fp32",
                                                              "out_ptr": "*fp32", "n": "i32"},
                               constexprs={"BLOCK": 1024}, target="cuda:90", num_warps=4,
                               attrs={k: [["tt.divisibility", 16]] for k in ("x_ptr", "y_ptr", "out_ptr", "n")})
    image = compiled.asm.get("cubin") or compiled.asm["ptx"].encode() + b"\0"
    c = next(kernel_dir.glob("add.*.c")).read_text()
    body = re.search(r"_cubin\[(\d+)\] = \{\n(.*?)\n\};", c, re.S)
    data = bytes(int(b, 16) for b in re.findall(r"0x([0-9a-f]{2})", body.group(2)))
    assert int(body.group(1)) == len(data) and data == image


def test_compile_constexprs_and_scratch(kernel_dir):
    """A kernel with constexprs and block pointers feeding a dot: on sm_90
    the launch allocates the kernel's global scratch and passes it last,
    checks that the sizes TMA takes are not negative, and passes the fp16
    scalar as its 16 bits."""
    signature = MATMUL_SIG
    run_compile(kernel_dir, "kernels.py", "-n", "scaled_matmul", "--signature", signature, "--grid", MATMUL_GRID,
                "-w", "4", "-t", "cuda:90:32", "--out-name", "matmul", "-o", "out/matmul")
    sig_hash = _sig_hash(signature, 4, 3)
    name = f"matmul_{sig_hash}_0d1d2d6d7d8d"
    source = kernel_dir / "out" / f"matmul.{sig_hash}_0d1d2d6d7d8d.c"
    c = source.read_text()
    assert (f"CUresult {name}(CUstream stream, CUdeviceptr a_ptr, CUdeviceptr b_ptr, CUdeviceptr c_ptr, "
            "int32_t M, int32_t N, int32_t K, int32_t stride_am, int32_t stride_bk, int32_t stride_cm, "
            "float alpha)") in c
    assert "const int64_t BM = 64LL;" in c and "const int64_t BN = 64LL;" in c and "const int64_t BK = 32LL;" in c
    assert "uint16_t tt_alpha_bits = tt_f32_to_f16(alpha);" in c
    scratch = re.search(r"/\* (\d+) bytes of global scratch per program", c)
    assert scratch and int(scratch.group(1)) > 0
    assert "cuMemAllocAsync(&global_scratch, (size_t)gX * gY * gZ * " in c
    assert ("void *args[11] = { &a_ptr, &b_ptr, &c_ptr, &M, &N, &K, &stride_am, &stride_bk, &stride_cm, "
            "&tt_alpha_bits, &global_scratch };") in c
    assert "if (M < 0)" in c and "if (K < 0)" in c
    h = (kernel_dir / "out" / f"matmul.{sig_hash}_0d1d2d6d7d8d.h").read_text()
    assert f"// tt-linker: {name}:" in h and ":64x64x32_warps4xstages3" in h
    if HAS_CUDA_H:
        _gcc_c(kernel_dir, source)

    # on sm_80 block pointers load without TMA: no scratch
    run_compile(kernel_dir, "kernels.py", "-n", "scaled_matmul", "--signature", signature, "--grid", MATMUL_GRID,
                "-w", "4", "-t", "cuda:80", "--out-name", "matmul80")
    c80 = next(kernel_dir.glob("matmul80.*.c")).read_text()
    assert "&tt_alpha_bits };" in c80 and "global scratch per program" not in c80


def test_compile_checks_made_descriptor_strides(kernel_dir):
    """A tensor map made in the kernel with a row stride of unknown
    divisibility: the launch refuses a stride that is not a multiple of 8
    fp16 elements (16 bytes), as the JIT's launcher does, and the kernel
    has no assertion of its own."""
    signature = "*fp16:16, *fp16:16, i32, i32, i32"
    run_compile(kernel_dir, "kernels.py", "-n", "made_descriptor_copy", "--signature", signature, "--grid", "1, 1, 1",
                "-w", "4", "-t", "cuda:90:32", "--out-name", "copy", "-o", "copy")
    source = next(kernel_dir.glob("copy.*.c"))
    c = source.read_text()
    assert re.search(r"  if \(row_stride % 8 != 0\)\n    return CUDA_ERROR_INVALID_VALUE; /\* tensor descriptor "
                     r"made in the kernel at .*kernels.py:\d+: its stride 0 \(2-byte elements\) must be a multiple "
                     r"of 16 bytes \(the copy engine's rule\) \*/", c), c
    if HAS_CUDA_H:
        _gcc_c(kernel_dir, source)


def test_compile_as_script_and_through_the_triton_alias(kernel_dir):
    """Triton's own AOT tests run tools/compile.py by path; users run
    `python -m triton.tools.compile`."""
    script = os.path.join(os.path.dirname(aot.__file__), "compile.py")
    result = subprocess.run([sys.executable, script, "-n", "add_kernel", "-s", ADD_SIG, "-g", ADD_GRID, "-w", "4",
                             "-t", "cuda:90:32", "-on", "by_path", "kernels.py"], cwd=kernel_dir, env=_env(),
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    (kernel_dir / "tkernels.py").write_text(KERNELS.replace("import tritium as triton", "import triton")
                                            .replace("import tritium.language as tl", "import triton.language as tl"))
    run_compile(kernel_dir, "tkernels.py", "-n", "add_kernel", "-s", ADD_SIG, "-g", ADD_GRID, "-w", "4",
                "-t", "cuda:90:32", "-on", "aliased", module="triton.tools.compile",
                extra_path=[os.path.join(REPO, "scripts", "triton_alias")])
    sig_hash = _sig_hash(ADD_SIG, 4, 3)
    assert (kernel_dir / f"by_path.{sig_hash}_0d1d2d3d.c").is_file()
    assert (kernel_dir / f"aliased.{sig_hash}_0d1d2d3d.h").is_file()


@pytest.mark.parametrize("signature, message", [
    ("*fp32, *fp32, *fp32, i32", "the signature has 4 items but add_kernel has 5 parameters"),
    ("*fp32, *fp32, *fp32, i32:8, 1024", "only the hints 1 and 16 are valid"),
    ("*fp32, *fp32, *fp32, i32, BLOCK", "'BLOCK' is a constexpr parameter"),
    ("*fp32, *fp32, *fp32, int, 1024", "unknown type 'int'"),
])
def test_compile_errors(kernel_dir, signature, message):
    result = run_compile(kernel_dir, "kernels.py", "-n", "add_kernel", "-s", signature, "-g", "1,1,1",
                         "-t", "cuda:90", check=False)
    assert result.returncode != 0 and message in result.stderr, result.stderr
    assert not list(kernel_dir.glob("add_kernel.*"))


def _compile_add_variants(kernel_dir):
    for hints in ((":16", ":16"), ("", ""), ("", ":1")):
        signature = f"*fp32{hints[0]}, *fp32{hints[0]}, *fp32{hints[0]}, i32{hints[1]}, 1024"
        run_compile(kernel_dir, "kernels.py", "-n", "add_kernel", "-s", signature, "-g", "(n + 1023) / 1024, 1, 1",
                    "-w", "4", "-t", "cuda:90:32", "-on", "add", "-o", "add")
    run_compile(kernel_dir, "kernels.py", "-n", "add_kernel", "-s", "*fp32, *fp32, *fp32, i32, 256",
                "-g", "(n + 255) / 256, 1, 1", "-w", "2", "-t", "cuda:90:32", "-on", "add", "-o", "add")


def _dispatch(c, algo):
    """[(condition, variant, arguments)] of an algorithm's dispatcher, in order."""
    body = c[c.index(f"TT_ResultTy {algo}("):]
    body = body[:body.index("\n}\n")]
    assert "return TT_ERROR_INVALID_VALUE;" in body
    return re.findall(r"  if \((.*)\)\n    return (\w+)\(stream, ([^)]*)\);", body)


def test_link_specializations(kernel_dir):
    _compile_add_variants(kernel_dir)
    headers = sorted(str(p) for p in kernel_dir.glob("add.*.h"))
    assert len(headers) == 4
    result = subprocess.run([sys.executable, "-m", "tritium.tools.link", *headers, "-o", "kernel"], cwd=kernel_dir,
                            env=_env(), capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    h = (kernel_dir / "kernel.h").read_text()
    c = (kernel_dir / "kernel.c").read_text()
    full = "CUdeviceptr x_ptr, CUdeviceptr y_ptr, CUdeviceptr out_ptr, int32_t n"
    assert f"TT_ResultTy add(TT_StreamTy stream, {full}, int algo_id);" in h
    assert f"TT_ResultTy add_default(TT_StreamTy stream, {full});" in h
    assert "int add_get_num_algos(void);" in h and "void load_add(void);" in h and "void unload_add(void);" in h
    assert f"TT_ResultTy add_1024_warps4xstages3(TT_StreamTy stream, {full});" in h
    assert f"TT_ResultTy add_256_warps2xstages3(TT_StreamTy stream, {full});" in h

    # the 1024 algorithm dispatches its two variants, most specialized first;
    # the variant with n equal to 1 is an algorithm of its own (its constants differ)
    assert [cond for cond, _, _ in _dispatch(c, "add_1024_warps4xstages3")] == [
        "((uintptr_t)x_ptr % 16 == 0) && ((uintptr_t)y_ptr % 16 == 0) && ((uintptr_t)out_ptr % 16 == 0) && "
        "((uintptr_t)n % 16 == 0)", "1"]
    [(cond, function, args)] = _dispatch(c, "add_1024x1_warps4xstages3")
    assert cond == "(n == 1)" and args == "x_ptr, y_ptr, out_ptr" and re.fullmatch(r"add_[0-9a-f]{8}_3c", function)
    assert f"TT_ResultTy {function}(TT_StreamTy stream, {full.rpartition(', ')[0]});" in c
    table = re.search(r"add_kernels\[\] = \{\n(.*?)\};", c, re.S).group(1).split()
    assert sorted(table) == ["add_1024_warps4xstages3,", "add_1024x1_warps4xstages3,", "add_256_warps2xstages3,"]
    if HAS_CUDA_H:
        for source in glob.glob(str(kernel_dir / "*.c")):
            _gcc_c(kernel_dir, source)


def test_link_rejects_mismatched_signatures(kernel_dir, tmp_path):
    run_compile(kernel_dir, "kernels.py", "-n", "add_kernel", "-s", "*fp32, *fp32, *fp32, i32, 1024",
                "-g", "1,1,1", "-t", "cuda:90", "-on", "k")
    run_compile(kernel_dir, "kernels.py", "-n", "add_kernel", "-s", "*fp32, *fp32, *fp32, i64, 1024",
                "-g", "1,1,1", "-t", "cuda:90", "-on", "k")
    with pytest.raises(link.LinkerError, match="mismatched signature"):
        link.link(sorted(str(p) for p in kernel_dir.glob("k.*.h")), tmp_path / "linked")
    with pytest.raises(link.LinkerError, match="no `// tt-linker:` line"):
        (tmp_path / "empty.h").write_text("// nothing here\n")
        link.link([str(tmp_path / "empty.h")], tmp_path / "linked")


def test_entry_param_bytes():
    ptx = """
.visible .entry k(
\t.param .u64 .ptr .global .align 16 k_param_0,
\t.param .u8 k_param_1,
\t.param .align 2 .b8 k_param_2[2],
\t.param .f64 k_param_3,
\t.param .u32 k_param_4,
\t.param .align 64 .b8 k_param_5[128]
)
"""
    assert aot.entry_param_bytes(ptx, "k") == [8, 1, 2, 8, 4, 128]


@needs_cuda_h
def test_half_conversions(tmp_path):
    """The launch function's float -> fp16 / bf16 conversions round to
    nearest even, as numpy (fp16) and Tritium's launcher (bf16) do."""
    np = pytest.importorskip("numpy")
    from tritium.runtime.launcher import _bf16_bits
    values = [0.0, -0.0, 1.0, -2.5, 65504.0, 65520.0, 1e6, -1e6, 6.1e-5, 5.96e-8, 2.98e-8, 3e-8, 1e-9, 0.1,
              1.0009765625, 1.00048828125, 1.000732421875, 3.14159265, float("inf"), float("-inf"), 1e-40,
              2049.0, 2051.0, 0.33333334]
    program = ("#include <math.h>\n#include <stdio.h>\n#include <stdint.h>\n#include <string.h>\n" +
               aot._F16_HELPER + aot._BF16_HELPER +
               "int main(void) {\n  static const float v[] = {" + ", ".join(
                   "INFINITY" if v == float("inf") else "-INFINITY" if v == float("-inf") else repr(v) + "f"
                   for v in values) + "};\n"
               "  for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); ++i)\n"
               "    printf(\"%u %u\\n\", tt_f32_to_f16(v[i]), tt_f32_to_bf16(v[i]));\n  return 0;\n}\n")
    (tmp_path / "halves.c").write_text(program)
    subprocess.run(["gcc", "-Wall", "-Werror", "halves.c", "-o", "halves"], cwd=tmp_path, check=True)
    lines = subprocess.run(["./halves"], cwd=tmp_path, capture_output=True, text=True, check=True).stdout.split("\n")
    for v, line in zip(values, lines):
        f16, bf16 = (int(t) for t in line.split())
        f32 = np.float32(v)
        with np.errstate(over="ignore"):
            expected = int(f32.astype(np.float16).view(np.uint16))
        assert f16 == expected, v
        assert bf16 == _bf16_bits(float(f32)), v


# ---- tools.disasm --------------------------------------------------------

CUOBJDUMP_LISTING = """
Fatbin elf code:
================
arch = sm_90
code version = [1,8]

\tcode for sm_90
\t\tFunction : looped
\t.headerflags    @"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                        /* 0x00000a00ff017b82 */
                                                                                 /* 0x000fe20000000800 */
        /*0010*/              @!P0 BRA 0x40 ;                                    /* 0x0000000000088947 */
                                                                                 /* 0x000fea0003800000 */
        /*0020*/                   IADD3 R0, R0, 0x1, RZ ;                       /* 0x0000000100007810 */
                                                                                 /* 0x001fca0007ffe0ff */
        /*0030*/                   BRA 0x20;                                     /* 0xfffffff800f87947 */
                                                                                 /* 0x000fea000383ffff */
        /*0040*/                   EXIT ;                                        /* 0x000000000000794d */
                                                                                 /* 0x000fea0003800000 */
\t\t..........
"""


def _fake_tool(tmp_path, listing):
    (tmp_path / "listing.txt").write_text(listing)
    tool = tmp_path / "fake-cuobjdump"
    tool.write_text(f"#!/bin/sh\ncat '{tmp_path / 'listing.txt'}'\n")
    tool.chmod(0o755)
    return str(tool)


def test_disasm_listing(tmp_path, monkeypatch):
    monkeypatch.setenv("TRITON_CUOBJDUMP_PATH", _fake_tool(tmp_path, CUOBJDUMP_LISTING))
    sass = disasm.get_sass(b"not used by the fake tool")
    assert sass == ("Function:looped\n"
                    "--:-:-:-:1\tLDC R1, c[0x0][0x28];\n"
                    "--:-:-:-:5\t@!P0 BRA LBB1;\n"
                    "LBB0:\n"
                    "01:-:-:Y:5\tIADD3 R0, R0, 0x1, RZ;\n"
                    "--:-:-:-:5\tBRA LBB0;\n"
                    "LBB1:\n"
                    "--:-:-:-:5\tEXIT;\n\n")
    assert disasm.extract(str(tmp_path / "listing.txt"), "looped") == sass
    with pytest.raises(RuntimeError, match="no function 'other'"):
        disasm.extract(str(tmp_path / "listing.txt"), "other")


def test_disasm_nvdisasm_listing_reads_the_same():
    nvdisasm = """
//--------------------- .text.looped             --------------------------
\t.section\t.text.looped,"ax",@progbits
        .global         looped
.text.looped:
        /*0000*/                   LDC R1, c[0x0][0x28] ;                        /* 0x00000a00ff017b82 */
                                                                                 /* 0x000fe20000000800 */
        /*0010*/              @!P0 BRA `(.L_x_1) ;                               /* 0x0000000000088947 */
                                                                                 /* 0x000fea0003800000 */
.L_x_0:
        /*0020*/                   IADD3 R0, R0, 0x1, RZ ;                       /* 0x0000000100007810 */
                                                                                 /* 0x001fca0007ffe0ff */
        /*0030*/                   BRA `(.L_x_0);                                /* 0xfffffff800f87947 */
                                                                                 /* 0x000fea000383ffff */
.L_x_1:
        /*0040*/                   EXIT ;                                        /* 0x000000000000794d */
                                                                                 /* 0x000fea0003800000 */
.L_x_2:
"""
    assert disasm.parse_listing(nvdisasm) == disasm.parse_listing(CUOBJDUMP_LISTING)


def test_disasm_without_tools(tmp_path, monkeypatch):
    monkeypatch.setenv("TRITON_CUOBJDUMP_PATH", str(tmp_path / "none"))
    monkeypatch.setenv("TRITON_NVDISASM_PATH", str(tmp_path / "none"))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(disasm.DisassemblerNotFoundError, match="cuobjdump or nvdisasm"):
        disasm.get_sass(b"\x7fELF")


def test_disasm_of_a_compiled_kernel():
    """With a real cuobjdump or nvdisasm that reads this ptxas's cubins."""
    try:
        disasm.find_disassembler()
    except disasm.DisassemblerNotFoundError:
        pytest.skip("no cuobjdump or nvdisasm")
    compiled = tritium.compile(aot_kernels.add_kernel, signature={"x_ptr": "*fp32", "y_ptr": "*fp32",
                                                              "out_ptr": "*fp32", "n": "i32"},
                               constexprs={"BLOCK": 256}, target="cuda:90", num_warps=4)
    if "cubin" not in compiled.asm:
        pytest.skip("no ptxas: no cubin")
    try:
        sass = disasm.get_sass(compiled.asm["cubin"])
    except RuntimeError as e:
        pytest.skip(f"the disassembler refuses this cubin: {e}")
    assert sass.startswith("Function:add_kernel\n") and "EXIT" in sass


# ---- testing.perf_report -------------------------------------------------

def test_perf_report_saves_table_and_plot(tmp_path, capsys):
    calls = []

    @tritium.testing.perf_report([
        tritium.testing.Benchmark(x_names=["N"], x_vals=[128, 1024], line_arg="provider", line_vals=["a", "b"],
                                  line_names=["Triton", "Torch"], styles=[("blue", "-"), ("green", "--")],
                                  ylabel="GB/s", plot_name="vector-add", args={"scale": 2.0}, x_log=True),
        tritium.testing.Benchmark(x_names=["M", "K"], x_vals=[(1, 2), (3, 4)], line_arg="provider",
                                  line_vals=["a"], line_names=["only"], plot_name="second", args={"scale": 1.0}),
    ])
    def bench(provider, scale, N=None, M=None, K=None):
        calls.append((provider, N, M, K))
        value = scale * (N or M * K) / 1000 * (1.0 if provider == "a" else 1.5)
        return (value, value * 0.9, value * 1.1) if provider == "a" else value

    out = tmp_path / "results"
    bench.run(print_data=True, save_path=str(out))
    assert len(calls) == 6
    printed = capsys.readouterr().out
    assert printed.startswith("vector-add:\n")
    assert re.search(r"N\s+Triton \(GB/s\)\s+Torch \(GB/s\)\n0\s+128\s+0\.256\s+0\.384\n1\s+1024\s+2\.048\s+3\.072",
                     printed)
    assert "second:\n" in printed
    assert (out / "vector-add.csv").read_text().splitlines() == [
        "N,Triton (GB/s),Torch (GB/s)", "128,0.256000,0.384000", "1024,2.048000,3.072000"]
    assert (out / "second.csv").read_text().splitlines() == ["M,K,only ()", "1,2,0.002000", "3,4,0.012000"]
    assert '<image src="vector-add.png"/>' in (out / "results.html").read_text()
    if importlib.util.find_spec("matplotlib") is None:
        assert not (out / "vector-add.png").exists()
    else:
        assert (out / "vector-add.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (out / "second.png").is_file()

    table = bench.run(return_df=True)[0]
    assert list(table.columns) == ["N", "Triton (GB/s)", "Torch (GB/s)"]
    assert list(table["Torch (GB/s)"]) == pytest.approx([0.384, 3.072])
    assert capsys.readouterr().out == ""  # print_data is off by default, as in Triton
    assert bench(provider="b", scale=1.0, N=1000) == 1.5  # the mark still calls the function


def test_perf_report_without_matplotlib(tmp_path, monkeypatch):
    """Without matplotlib the table and CSV are still saved, with a warning
    instead of the plot."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    mark = tritium.testing.perf_report(tritium.testing.Benchmark(
        x_names=["N"], x_vals=[1, 2], line_arg="p", line_vals=[1], line_names=["x"], plot_name="plain"))(
        lambda N, p: float(N * p))
    with pytest.warns(UserWarning, match="matplotlib is not installed"):
        mark.run(save_path=str(tmp_path))
    assert (tmp_path / "plain.csv").read_text().splitlines() == ["N,x ()", "1,1.000000", "2,2.000000"]
    assert not (tmp_path / "plain.png").exists()
