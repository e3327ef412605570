"""NativeLibrary.compile_cuda (tritium_compile_cuda): TTIR, TTGIR or an LLVM
dialect module to PTX and a cubin for an NVIDIA GPU, without a GPU.

Options are checked before anything compiles; each mistake is a
CompilationError naming the option.  The back end (translation, libdevice,
O3, NVPTX, ptxas) is tested from LLVM dialect input (`input=llir`), so it
does not wait for the TTGIR lowering; the whole TTIR -> cubin path is tested
once tritium-make-ttgir and tritium-make-llir are registered."""
import os
import shutil

import pytest

import tritium
import tritium.language as tl
from tritium._native import native_library


def _ptxas_available():
    explicit = os.environ.get("TRITIUM_PTXAS_PATH")
    if explicit:
        return explicit != "none" and os.access(explicit, os.X_OK)
    candidates = [os.path.join(os.environ[v], "bin", "ptxas")
                  for v in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(v)]
    candidates += ["/usr/local/cuda/bin/ptxas", shutil.which("ptxas") or ""]
    return any(p and os.access(p, os.X_OK) for p in candidates)


needs_ptxas = pytest.mark.skipif(not _ptxas_available(), reason="no ptxas installed")

# What tritium-make-llir leaves: llvm + nvvm dialects, the kernel marked
# nvvm.kernel, dynamic shared memory in the module's ttg.shared attribute.
LLVM_ADD = """\
module attributes {ttg.shared = 1024 : i32} {
  llvm.func @add(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>, %out: !llvm.ptr<1>, %n: i32)
      attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128>} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %bid = nvvm.read.ptx.sreg.ctaid.x : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %base = llvm.mul %bid, %c128 : i32
    %i = llvm.add %base, %tid : i32
    %inside = llvm.icmp "slt" %i, %n : i32
    llvm.cond_br %inside, ^body, ^exit
  ^body:
    %px = llvm.getelementptr %x[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %py = llvm.getelementptr %y[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %po = llvm.getelementptr %out[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %a = llvm.load %px : !llvm.ptr<1> -> f32
    %b = llvm.load %py : !llvm.ptr<1> -> f32
    %s = llvm.fadd %a, %b : f32
    llvm.store %s, %po : f32, !llvm.ptr<1>
    llvm.br ^exit
  ^exit:
    llvm.return
  }
}
"""

LLVM_EXP = """\
module {
  llvm.func @exp_kernel(%x: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %p = llvm.getelementptr %x[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %v = llvm.load %p : !llvm.ptr<1> -> f32
    %e = llvm.call @__nv_expf(%v) : (f32) -> f32
    llvm.store %e, %p : f32, !llvm.ptr<1>
    llvm.return
  }
  llvm.func @__nv_expf(f32) -> f32
}
"""

LLVM_BAD_ASM = """\
module {
  llvm.func @bad_asm() attributes {nvvm.kernel} {
    llvm.inline_asm has_side_effects "not.an.instruction;", "" : () -> ()
    llvm.return
  }
}
"""

TTIR_ADD = """\
module {
  tt.func public @add_kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32},
                             %y: !tt.ptr<f32> {tt.divisibility = 16 : i32},
                             %out: !tt.ptr<f32> {tt.divisibility = 16 : i32},
                             %n: i32 {tt.divisibility = 16 : i32}) {
    %c1024 = arith.constant 1024 : i32
    %pid = tt.get_program_id {axis = 0 : i32} : i32
    %start = arith.muli %pid, %c1024 : i32
    %r = tt.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
    %s = tt.splat %start : i32 -> tensor<1024xi32>
    %offs = arith.addi %s, %r : tensor<1024xi32>
    %ns = tt.splat %n : i32 -> tensor<1024xi32>
    %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %yp = tt.addptr %ys, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %a = tt.load %xp, %mask : tensor<1024x!tt.ptr<f32>>
    %b = tt.load %yp, %mask : tensor<1024x!tt.ptr<f32>>
    %sum = arith.addf %a, %b : tensor<1024xf32>
    %os = tt.splat %out : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %op = tt.addptr %os, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %op, %sum, %mask : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}
"""


def compile_llir(text, **options):
    return native_library().compile_cuda(text, dict(options, input="llir"), "kernel.mlir")


# ---- option validation: every mistake is an exception naming the option ----

@pytest.mark.parametrize("options, message", [
    ({"num_warps": 3}, "num_warps=3: must be a power of two from 1 to 32"),
    ({"num_warps": 0}, "num_warps=0: must be a power of two from 1 to 32"),
    ({"num_warps": 64}, "num_warps=64: must be a power of two from 1 to 32"),
    ({"num_warps": "four"}, "option num_warps=four: expected a non-negative integer"),
    ({"num_ctas": 3}, "num_ctas=3: must be a power of two from 1 to 16"),
    ({"num_ctas": 2, "arch": 80}, "num_ctas=2: thread block clusters need compute capability 9.0"),
    ({"num_stages": 99}, "num_stages=99: must be from 0 to 16"),
    ({"maxnreg": 256}, "maxnreg=256: must be from 1 to 255 (0: no cap)"),
    ({"maxnreg": -1}, "option maxnreg=-1: expected a non-negative integer"),
    ({"maxnreg": 32, "input": "llir"}, "maxnreg applies when TTGIR is lowered: it cannot be used with input=llir"),
    ({"arch": 75}, "unsupported arch '75' (compute capability 7.5): Tritium compiles for "
                   "compute capabilities 80, 86, 89, 90"),
    ({"arch": 100}, "unsupported arch '100'"),
    ({"arch": "hopper"}, "invalid arch 'hopper'"),
    ({"ptx_version": "7.9"}, "unknown PTX ISA version 7.9"),
    ({"ptx_version": 78, "arch": 90}, "PTX ISA 7.8 cannot target sm_90a: it needs PTX ISA 8.0 or newer"),
    ({"enable_fp_fusion": "maybe"}, "option enable_fp_fusion=maybe: expected true or false"),
    ({"input": "ptx"}, "option input=ptx: expected ttir, ttgir or llir"),
    ({"num_wraps": 4}, "unknown option 'num_wraps'"),
])
def test_bad_options_are_reported_before_compiling(options, message):
    with pytest.raises(tritium.CompilationError) as info:
        native_library().compile_cuda(LLVM_ADD, options)
    assert message in str(info.value)


def test_separators_in_option_values_are_refused_in_python():
    with pytest.raises(ValueError):
        native_library().compile_cuda(LLVM_ADD, {"dump_dir": "a;num_warps=3"})


def test_ir_that_does_not_parse_points_at_its_line():
    with pytest.raises(tritium.CompilationError) as info:
        native_library().compile_cuda("module {\n  this is not IR\n}\n", {}, "junk.ttir")
    assert "junk.ttir:2:" in str(info.value)


# ---- the back end, from LLVM dialect input ----------------------------------

def test_llvm_dialect_kernel_becomes_ptx_with_metadata():
    stages, _ = compile_llir(LLVM_ADD, num_warps=4, arch=90)
    ptx = stages["ptx"]
    assert ".target sm_90a" in ptx
    assert ".visible .entry add(" in ptx
    assert ".maxntid 128" in ptx
    assert "add.f32" in ptx or "add.rn.f32" in ptx
    assert stages["name"] == "add"
    assert stages["num_warps"] == 4
    assert stages["shared"] == 1024  # from ttg.shared
    assert stages["target"] == "cuda:90" and stages["arch"] == "sm_90a"
    assert f".version {stages['ptx_version'] // 10}.{stages['ptx_version'] % 10}" in ptx
    # llir is LLVM IR (as in Triton's asm["llir"]), llvm_mlir the dialect form.
    assert 'target triple = "nvptx64-nvidia-cuda"' in stages["llir"]
    assert "define ptx_kernel void @add(" in stages["llir"]
    assert "llvm.func @add" in stages["llvm_mlir"] or stages["llvm_mlir"] == ""
    for step in ("translate", "link", "optimize", "ptx", "ptxas", "total"):
        assert stages["times_ms"][step] >= 0


@pytest.mark.parametrize("arch, chip", [(80, "sm_80"), (86, "sm_86"), (89, "sm_89"), ("sm_90a", "sm_90a")])
def test_each_supported_arch(arch, chip):
    stages, _ = compile_llir(LLVM_ADD, arch=arch)
    assert f".target {chip}" in stages["ptx"]


def test_ptx_version_option_sets_the_version_directive():
    stages, _ = compile_llir(LLVM_ADD, ptx_version=84)
    assert ".version 8.4" in stages["ptx"]
    assert stages["ptx_version"] == 84


@needs_ptxas
def test_ptxas_makes_a_cubin_and_reports_registers():
    stages, cubin = compile_llir(LLVM_ADD)
    assert stages["has_cubin"] is True
    assert cubin[:4] == b"\x7fELF"
    assert stages["registers"] > 0
    assert stages["spills"] == 0
    assert "Compiling entry function 'add'" in stages["ptxas_log"]


def _ptxas_children():
    """The ptxas processes this process started that are still there."""
    own = str(os.getpid())
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{pid}/comm") as f:
                name = f.read().strip()
        except OSError:
            continue
        if fields[1] == own and name == "ptxas":
            found.append(pid)
    return found


@needs_ptxas
def test_ptxas_started_before_its_ptx_makes_the_cubin_ptxas_makes_of_the_file(tmp_path):
    # ptxas starts with the compile and reads the PTX through a pipe; its
    # cubin is the one ptxas makes from the PTX as a file, byte for byte (the
    # embedded PTX text of .nv_debug_ptx_txt included).
    import subprocess
    stages, cubin = compile_llir(LLVM_ADD)
    ptx = tmp_path / "kernel.ptx"
    ptx.write_text(stages["ptx"])
    command = stages["ptxas_command"].split()
    assert command[-3].endswith("/kernel.ptx") and command[-2] == "-o"
    command[-3], command[-1] = str(ptx), str(tmp_path / "kernel.cubin")
    subprocess.run(command, check=True, capture_output=True)
    assert (tmp_path / "kernel.cubin").read_bytes() == cubin
    assert b".nv_debug_ptx_txt" in cubin


@needs_ptxas
def test_a_compile_that_fails_before_its_ptx_leaves_no_ptxas_behind(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    for _ in range(3):
        with pytest.raises(tritium.CompilationError):
            native_library().compile_cuda("module {\n  this is not IR\n}\n", {}, "junk.ttir")
        with pytest.raises(tritium.CompilationError):
            compile_llir(LLVM_BAD_ASM)
    assert _ptxas_children() == []
    assert os.listdir(tmp_path) == []


def test_libdevice_calls_are_linked():
    stages, _ = compile_llir(LLVM_EXP)
    assert ".extern" not in stages["ptx"]
    assert "__nv_expf" not in stages["ptx"]
    assert "ex2.approx" in stages["ptx"]


def _twin_library(ptxas):
    """The libnvJitLink of ptxas's CUDA release beside it (as a toolkit lays
    it out), or None."""
    import re
    import subprocess
    version = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout
    release = re.search(r"release (\d+)\.", version)
    root = os.path.dirname(os.path.dirname(ptxas))
    for sub in ("lib64", "lib", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib", "targets/aarch64-linux/lib"):
        path = os.path.join(root, sub, f"libnvJitLink.so.{release.group(1)}") if release else ""
        if path and os.path.exists(path):
            return path
    return None


@needs_ptxas
def test_the_twin_library_of_ptxas_compiles_in_process_with_the_same_report(monkeypatch):
    monkeypatch.setenv("TRITIUM_NVJITLINK", "twin")
    stages, cubin = compile_llir(LLVM_ADD)
    twin = _twin_library(stages["ptxas"])
    if twin:  # the toolkit's nvJitLink, in this process
        assert stages["ptxas_command"].startswith(f"nvJitLink ({twin}) -arch=sm_90a -O3")
    else:
        assert stages["ptxas_command"].startswith(stages["ptxas"])
    monkeypatch.delenv("TRITIUM_NVJITLINK")  # (the default: ptxas)
    by_ptxas, ptxas_cubin = compile_llir(LLVM_ADD)
    assert by_ptxas["ptxas_command"].startswith(stages["ptxas"] + " -v --gpu-name=sm_90a -O3")
    assert cubin[:4] == ptxas_cubin[:4] == b"\x7fELF"
    for key in ("registers", "spills", "spill_loads", "stack_frame", "static_shared"):
        assert stages[key] == by_ptxas[key], key
    assert "Compiling entry function 'add'" in stages["ptxas_log"]


@needs_ptxas
def test_preparing_the_ptx_compiler_loads_the_twin_library(monkeypatch):
    monkeypatch.setenv("TRITIUM_NVJITLINK", "twin")
    native_library()._dll.tritium_prepare_ptx_compiler()  # (what a GPU machine's first load starts)
    stages, cubin = compile_llir(LLVM_ADD)
    twin = _twin_library(stages["ptxas"])
    assert stages["ptxas_command"].startswith(f"nvJitLink ({twin})" if twin else stages["ptxas"])
    assert cubin[:4] == b"\x7fELF"


@needs_ptxas
def test_an_nvjitlink_that_cannot_be_loaded_is_an_error(monkeypatch):
    monkeypatch.setenv("TRITIUM_NVJITLINK", "/nonexistent/libnvJitLink.so.13")
    with pytest.raises(tritium.CompilationError) as info:
        compile_llir(LLVM_ADD)
    assert "TRITIUM_NVJITLINK=/nonexistent/libnvJitLink.so.13 cannot be used" in str(info.value)


@needs_ptxas
@pytest.mark.parametrize("nvjitlink", ["twin", None])
def test_ptxas_errors_come_back_as_diagnostics_with_the_stages(monkeypatch, nvjitlink):
    if nvjitlink:
        monkeypatch.setenv("TRITIUM_NVJITLINK", nvjitlink)
    else:
        monkeypatch.delenv("TRITIUM_NVJITLINK", raising=False)
    with pytest.raises(tritium.CompilationError) as info:
        compile_llir(LLVM_BAD_ASM)
    message = str(info.value)
    assert "ptxas rejected the PTX of kernel 'bad_asm' for sm_90a" in message
    assert "kernel.ptx, line" in message
    assert "not.an.instruction" in info.value.stages["ptx"]


def test_without_ptxas_the_ptx_is_the_artifact(monkeypatch):
    monkeypatch.setenv("TRITIUM_PTXAS_PATH", "none")
    stages, cubin = compile_llir(LLVM_ADD)
    assert cubin is None
    assert stages["has_cubin"] is False and stages["ptxas"] is None
    assert ".entry add(" in stages["ptx"]
    assert any("no ptxas found" in w for w in stages["warnings"])


def test_a_missing_explicit_ptxas_is_an_error(monkeypatch):
    monkeypatch.setenv("TRITIUM_PTXAS_PATH", "/nonexistent/ptxas")
    with pytest.raises(tritium.CompilationError) as info:
        compile_llir(LLVM_ADD)
    assert "ptxas at '/nonexistent/ptxas' does not exist" in str(info.value)


def test_tritons_ptxas_setting_names_the_ptxas(monkeypatch):
    monkeypatch.delenv("TRITIUM_PTXAS_PATH", raising=False)
    monkeypatch.setenv("TRITON_PTXAS_PATH", "/nonexistent/triton/ptxas")
    assert native_library().ptxas_path() == "/nonexistent/triton/ptxas"
    with pytest.raises(tritium.CompilationError) as info:
        compile_llir(LLVM_ADD)
    assert "ptxas at '/nonexistent/triton/ptxas' does not exist" in str(info.value)
    monkeypatch.setenv("TRITIUM_PTXAS_PATH", "none")  # Tritium's own setting comes first
    assert native_library().ptxas_path() == ""


@tritium.jit
def _scaled(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, 2.0 * tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@needs_ptxas
def test_the_kernel_cache_keeps_apart_what_different_ptxas_built(monkeypatch, tmp_path):
    # A cached kernel is not answered for another ptxas: here the first
    # compile had none (PTX only), the second must still get its cubin.
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("TRITON_PTXAS_PATH", raising=False)

    def compile_it():
        return tritium.compile(_scaled, signature={"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32"},
                               constexprs={"BLOCK": 128}, target="cuda:90")
    monkeypatch.setenv("TRITIUM_PTXAS_PATH", "none")
    assert "cubin" not in compile_it().asm
    monkeypatch.delenv("TRITIUM_PTXAS_PATH")
    assert "cubin" in compile_it().asm
    assert len(os.listdir(tmp_path)) >= 2


def test_dump_dir_receives_each_back_end_step(tmp_path):
    dump = tmp_path / "dump"
    compile_llir(LLVM_EXP, dump_dir=str(dump))
    names = sorted(os.listdir(dump))
    assert [n.split("-", 1)[1] for n in names][:4] == [
        "llvm-ir.ll", "llvm-ir-linked.ll", "llvm-ir-optimized.ll", "kernel.ptx"]
    assert names[0].startswith("000-")


def test_fp_fusion_off_keeps_multiply_and_add_apart():
    text = """\
module {
  llvm.func @mul_add(%x: !llvm.ptr<1>, %a: f32, %b: f32) attributes {nvvm.kernel} {
    %v = llvm.load %x : !llvm.ptr<1> -> f32
    %m = llvm.fmul %v, %a : f32
    %s = llvm.fadd %m, %b : f32
    llvm.store %s, %x : f32, !llvm.ptr<1>
    llvm.return
  }
}
"""
    fused, _ = compile_llir(text)
    separate, _ = compile_llir(text, enable_fp_fusion=False)
    assert "fma.rn.f32" in fused["ptx"]
    assert "fma" not in separate["ptx"]


@needs_ptxas
def test_ptxas_opt_off_assembles_without_optimizing():
    optimized, cubin = compile_llir(LLVM_ADD)
    plain, plain_cubin = compile_llir(LLVM_ADD, ptxas_opt=False)
    assert optimized["ptxas_opt"] is True and plain["ptxas_opt"] is False
    assert plain["ptx"] == optimized["ptx"] and plain_cubin != cubin


@tritium.jit
def scale(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 3.0)


@needs_ptxas
def test_disable_ptxas_opt_reaches_ptxas_and_the_cache_key(tmp_path, monkeypatch):
    """Triton's DISABLE_PTXAS_OPT=1: ptxas -O0, cached apart from -O3."""
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(tmp_path))

    optimized = tritium.compile(scale, signature={"x_ptr": "*fp32"}, constexprs={"BLOCK": 128})
    monkeypatch.setenv("DISABLE_PTXAS_OPT", "1")
    plain = tritium.compile(scale, signature={"x_ptr": "*fp32"}, constexprs={"BLOCK": 128})
    assert plain.asm["ptx"] == optimized.asm["ptx"] and plain.asm["cubin"] != optimized.asm["cubin"]
    assert len(os.listdir(tmp_path)) == 2


@needs_ptxas
def test_disable_line_info_drops_the_locations_and_is_part_of_the_cache_key(tmp_path, monkeypatch):
    """Triton's TRITON_DISABLE_LINE_INFO=1: no .loc in the PTX (and no
    ptxas -lineinfo), cached apart from the default."""
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(tmp_path))

    located = tritium.compile(scale, signature={"x_ptr": "*fp32"}, constexprs={"BLOCK": 128})
    monkeypatch.setenv("TRITON_DISABLE_LINE_INFO", "1")
    plain = tritium.compile(scale, signature={"x_ptr": "*fp32"}, constexprs={"BLOCK": 128})
    assert ".loc" in located.asm["ptx"] and ".loc" not in plain.asm["ptx"]
    assert len(os.listdir(tmp_path)) == 2


def test_a_module_without_kernel_is_an_error():
    with pytest.raises(tritium.CompilationError) as info:
        compile_llir("module {\n  llvm.func @f() {\n    llvm.return\n  }\n}\n")
    assert "the module has no kernel" in str(info.value)


# ---- the whole compile, TTIR -> cubin ---------------------------------------

def _compile_or_skip(ttir, options):
    try:
        return native_library().compile_cuda(ttir, options, "add_kernel.ttir")
    except tritium.CompilationError as e:
        if "is not registered in this build" in str(e):
            pytest.skip(f"pipeline not there yet: {e}")
        raise


def test_ttir_vector_add_end_to_end(tmp_path):
    ttir = native_library().run_pipeline(TTIR_ADD, "builtin.module(tritium-make-ttir)")
    stages, cubin = _compile_or_skip(ttir, {"num_warps": 4, "arch": 90,
                                            "dump_dir": str(tmp_path)})
    assert "#ttg.blocked" in stages["ttgir"]
    assert "llvm.func @add_kernel" in stages["llvm_mlir"]
    assert stages["name"] == "add_kernel"
    ptx = stages["ptx"]
    assert ".visible .entry add_kernel(" in ptx
    # 1024 elements over 128 threads with 16-byte alignment: vector accesses.
    assert "ld.global.v4" in ptx
    assert "st.global.v4" in ptx
    if _ptxas_available():
        assert cubin[:4] == b"\x7fELF"
        assert stages["registers"] > 0 and stages["spills"] == 0
    # The dump holds the IR after each pass of both pipelines.
    names = os.listdir(tmp_path)
    assert any("-ttgir-" in n for n in names) and any("-llir-" in n for n in names)


def test_line_info_is_on_by_default_and_names_the_source():
    stages, _ = native_library().compile_cuda(LLVM_ADD, {"input": "llir"}, "my_kernel.py")
    assert '.file\t1 "my_kernel.py"' in stages["ptx"]
    assert ".loc\t1 " in stages["ptx"]
    assert ".target sm_90a\n" in stages["ptx"]  # not "sm_90a, debug": ptxas still optimizes
    off, _ = native_library().compile_cuda(LLVM_ADD, {"input": "llir", "line_info": 0}, "my_kernel.py")
    assert ".loc" not in off["ptx"]


# ---- Triton's host API on a compiled kernel (no GPU needed up to the launch) ----

@tritium.jit
def _scaled_copy(x_ptr, y_ptr, n, scale, BLOCK: tritium.language.constexpr):
    tl = tritium.language
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * scale, mask=offs < n)


def test_compiled_kernel_takes_all_arguments_or_the_runtime_ones(monkeypatch):
    # Tutorial 02 launches a warmed-up kernel with every argument, constexprs
    # included: they are dropped, in order, before the launch.
    k = tritium.compile(_scaled_copy, signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32",
                                                 "scale": "fp32", "BLOCK": "constexpr"},
                        constexprs={"BLOCK": 128}, target="cuda:90")
    launched = []
    monkeypatch.setattr(k, "launch", lambda grid, args: launched.append((grid, list(args))))
    k[(3,)](1, 2, 100, 0.5, 128)
    k[(3,)](1, 2, 100, 0.5)
    assert launched == [((3,), [1, 2, 100, 0.5])] * 2
    # metadata reads as attributes, as Triton's host code expects
    assert k.metadata.shared == k.metadata["shared"] == 0
    assert k.metadata.num_warps == 4
    assert k.n_regs == k.metadata["registers"] > 0
    with pytest.raises(AttributeError):
        k.metadata.no_such_field


@tritium.jit
def _register_hungry(x_ptr, y_ptr, n, BLOCK: tritium.language.constexpr):
    tl = tritium.language
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, tl.exp(x) * tl.sin(x) + tl.sqrt(x), mask=offs < n)


_HUNGRY_SIGNATURE = {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}


def test_maxnreg_caps_the_kernels_registers():
    # The launch option becomes ttg.maxnreg on the TTGIR module and .maxnreg
    # on the PTX entry; ptxas then stays within it (spilling if it must).
    free = tritium.compile(_register_hungry, signature=_HUNGRY_SIGNATURE, constexprs={"BLOCK": 1024},
                           target="cuda:90")
    capped = tritium.compile(_register_hungry, signature=_HUNGRY_SIGNATURE, constexprs={"BLOCK": 1024},
                             target="cuda:90", options={"maxnreg": 32})
    assert free.metadata["maxnreg"] is None and capped.metadata["maxnreg"] == 32
    assert "ttg.maxnreg" not in free.asm["ttgir"] and "ttg.maxnreg = 32 : i32" in capped.asm["ttgir"]
    assert ".maxnreg" not in free.asm["ptx"]
    assert ".maxnreg 32" in capped.asm["ptx"]
    if _ptxas_available():
        assert free.n_regs > 32 >= capped.n_regs


@pytest.mark.parametrize("value", [0, -3, "32", True, 3.5])
def test_maxnreg_that_is_not_a_positive_integer_is_refused_before_compiling(value):
    with pytest.raises(tritium.TritiumError, match=r"maxnreg must be a positive integer"):
        tritium.compile(_register_hungry, signature=_HUNGRY_SIGNATURE, constexprs={"BLOCK": 1024},
                        target="cuda:90", options={"maxnreg": value})


@pytest.mark.parametrize("value", [256, 1024])
def test_maxnreg_above_the_hardware_limit_caps_nothing(value):
    # As in Triton (mamba's autotune configs list maxnreg=256): accepted, and
    # the kernel is compiled as without a cap (ptxas ignores such a .maxnreg).
    free = tritium.compile(_register_hungry, signature=_HUNGRY_SIGNATURE, constexprs={"BLOCK": 1024},
                           target="cuda:90")
    high = tritium.compile(_register_hungry, signature=_HUNGRY_SIGNATURE, constexprs={"BLOCK": 1024},
                           target="cuda:90", options={"maxnreg": value})
    assert ".maxnreg" not in high.asm["ptx"] and high.asm["ptx"] == free.asm["ptx"]


def test_the_active_driver_is_importable_without_a_gpu():
    from tritium.runtime import driver
    assert hasattr(driver.active, "utils") and callable(driver.active.utils.get_device_properties)


@needs_ptxas
def test_ptxas_performance_notes_reach_the_metadata():
    # Tutorial 06's backward at head dim 128, 4 warps, BLOCK_M1 32: dK and dV
    # take 128 registers a thread each, and ptxas (CUDA 13.0) serializes the
    # kernel's wgmma for lack of registers (note C7512).  At head dim 64 it
    # notes nothing.
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "bench"))
    from kernel_sources import load_kernels
    bwd = load_kernels("attention_bwd.py", tritium, tl, "tritium").attn_bwd
    signature = {n: "*fp16" for n in ("Q", "K", "V", "DO", "DQ", "DK", "DV")}
    signature.update({"sm_scale": "fp32", "M": "*fp32", "D": "*fp32", "stride_z": "i32", "stride_h": "i32",
                      "stride_tok": "i32", "H": "i32", "N_CTX": "i32"})
    attrs = {n: [["tt.divisibility", 16]] for n in signature if n not in ("sm_scale", "H")}
    notes = {}
    for head_dim in (128, 64):
        k = tritium.compile(bwd, signature=signature, attrs=attrs, target="cuda:90", num_warps=4, num_stages=3,
                            constexprs={"BLOCK_M1": 32, "BLOCK_N1": 128, "BLOCK_M2": 128, "BLOCK_N2": 32,
                                        "BLK_SLICE_FACTOR": 2, "HEAD_DIM": head_dim, "CAUSAL": False})
        notes[head_dim] = k.metadata.get("ptxas_notes")
    assert notes == {128: ["C7512"], 64: None}
