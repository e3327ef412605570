"""`triton.compile(path)` of a .ttgir or .ttir file (compiler/ir_source.py),
without a GPU: the launch signature comes from the kernel's arguments, the
warps from the module, Triton's printed layouts are read, the result is
cached, and mistakes are errors that name the file, the line or the rule."""
import os
import sys

import pytest

import tritium
from tritium.errors import CompilationError, TritiumError

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernels.ir_files import (BLOCKED_ROWS, LARGE_TILE_PAIRS, LAYOUT_PAIRS, MMA_V2, MMA_V3, NVMMA_ROWS,  # noqa: E402
                              ODD_REDUCTIONS, ODD_SCANS, TTIR_ADD, cumsum_ttgir, large_tile_copy_ttgir,
                              layout_copy_ttgir, sum_ttgir)



def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("src, dst, interm", LAYOUT_PAIRS, ids=[f"pair{i}" for i in range(len(LAYOUT_PAIRS))])
def test_ttgir_file_compiles_with_the_signature_of_its_kernel(tmp_path, src, dst, interm):
    kernel = tritium.compile(write(tmp_path, "copy.ttgir", layout_copy_ttgir(64, 64, src, dst, interm)))
    assert kernel.name == "kernel"
    assert kernel.metadata["signature"] == {"arg0": "*fp16", "arg1": "*fp16"}  # as MLIR prints them
    assert kernel.num_warps == 4
    assert ".entry kernel(" in kernel.asm["ptx"]
    assert kernel.asm["ttgir"] == open(tmp_path / "copy.ttgir").read() and "ttir" not in kernel.asm


@pytest.mark.parametrize("src, dst", LARGE_TILE_PAIRS, ids=[f"pair{i}" for i in range(len(LARGE_TILE_PAIRS))])
def test_a_conversion_larger_than_shared_memory_runs_in_parts(tmp_path, src, dst):
    # (before, OutOfResources: the whole 256 KiB tile was staged)
    kernel = tritium.compile(write(tmp_path, "large.ttgir", large_tile_copy_ttgir(src, dst)))
    assert 0 < kernel.metadata["shared"] <= 140 * 1024  # one part of two, padded or swizzled
    # per conversion (the tile's and its offsets'): a barrier inside each
    # part and one between the parts; one more between the two conversions
    assert kernel.asm["ptx"].count("bar.sync") == 7


ODD_PROGRAMS = ([sum_ttgir(m, n, warps, layout, axis) for m, n, warps, layout, axis in ODD_REDUCTIONS] +
                [cumsum_ttgir(m, n, warps, layout, axis, False) for m, n, warps, layout, axis in ODD_SCANS])


@pytest.mark.parametrize("source", ODD_PROGRAMS, ids=[f"sum{i}" for i in range(len(ODD_REDUCTIONS))] +
                         [f"scan{i}" for i in range(len(ODD_SCANS))])
def test_reductions_and_scans_on_layouts_their_lowerings_refuse_go_through_a_blocked_layout(tmp_path, monkeypatch,
                                                                                            source):
    # (before, the reductions compiled to wrong sums and the scans failed)
    monkeypatch.setenv("TRITIUM_DUMP_DIR", str(tmp_path / "dump"))
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(tmp_path / "cache"))
    tritium.compile(write(tmp_path, "kernel.ttgir", source))
    [after] = (tmp_path / "dump").glob("*-ttg-legalize-reduction-layouts.mlir")
    # the operand converted to a blocked layout, the result back
    assert after.read_text().count("ttg.convert_layout") == source.count("ttg.convert_layout") + 2


def test_ttir_file_runs_the_whole_pipeline(tmp_path):
    kernel = tritium.compile(write(tmp_path, "add.ttir", TTIR_ADD), options={"num_warps": 2})
    assert kernel.metadata["signature"] == {"arg0": "*fp32", "arg1": "i32"}
    assert kernel.num_warps == 2
    assert "#ttg.blocked" in kernel.asm["ttgir"]  # layouts assigned by tritium-make-ttgir
    assert "ld.global" in kernel.asm["ptx"]


def test_a_compiled_file_is_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(tmp_path / "cache"))
    path = write(tmp_path, "copy.ttgir", layout_copy_ttgir(32, 32, BLOCKED_ROWS, MMA_V2))
    first = tritium.compile(path)
    second = tritium.compile(path)
    assert second.asm["ptx"] == first.asm["ptx"]
    assert os.listdir(tmp_path / "cache")


def test_mistakes_name_the_file_the_line_or_the_rule(tmp_path):
    with pytest.raises(TritiumError, match="cannot read .*missing.ttgir"):
        tritium.compile(str(tmp_path / "missing.ttgir"))
    with pytest.raises(TritiumError, match="path of a .ttir or .ttgir file"):
        tritium.compile(write(tmp_path, "kernel.mlir", TTIR_ADD))
    bad = TTIR_ADD.replace("tt.make_range {end = 128", "tt.make_range {end = 100")
    with pytest.raises(CompilationError, match=r"bad\.ttir:3:\d+: error: .*power of two"):
        tritium.compile(write(tmp_path, "bad.ttir", bad))
    two_ctas = layout_copy_ttgir(32, 32, BLOCKED_ROWS.replace("CTASplitNum=[1, 1]", "CTASplitNum=[2, 1]"), MMA_V2)
    with pytest.raises(CompilationError, match="CTASplitNum' must be all ones"):
        tritium.compile(write(tmp_path, "ctas.ttgir", two_ctas))
    wide = layout_copy_ttgir(32, 32, BLOCKED_ROWS, MMA_V2).replace('"ttg.threads-per-warp" = 32',
                                                                   '"ttg.threads-per-warp" = 64')
    with pytest.raises(CompilationError, match=r"wide\.ttgir:\d+:\d+: error: .*uses 32 threads per warp, but the "
                                               "module has ttg.threads-per-warp = 64"):
        tritium.compile(write(tmp_path, "wide.ttgir", wide))
    private = TTIR_ADD.replace("tt.func public", "tt.func private")
    with pytest.raises(CompilationError, match="no public tt.func"):
        tritium.compile(write(tmp_path, "private.ttir", private))
    tensor_arg = TTIR_ADD.replace("%n: i32", "%n: tensor<4xi32>").replace(
        "tt.splat %n : i32 -> tensor<128xi32>", "arith.constant dense<100> : tensor<128xi32>")
    with pytest.raises(CompilationError, match="argument %arg1 of @add_one has type tensor<4xi32>"):
        tritium.compile(write(tmp_path, "tensor.ttir", tensor_arg))


def test_the_target_is_the_modules_unless_given(tmp_path):
    text = layout_copy_ttgir(64, 64, BLOCKED_ROWS, MMA_V2)
    # No ttg.target: compiled for cuda:90, whose lowering stores an
    # accumulator tile into an nvmma_shared buffer with stmatrix.
    hopper = tritium.compile(write(tmp_path, "any.ttgir", layout_copy_ttgir(128, 128, MMA_V3, BLOCKED_ROWS,
                                                                            NVMMA_ROWS)))
    assert ".target sm_90a" in hopper.asm["ptx"] and "stmatrix" in hopper.asm["ptx"]
    ampere_text = text.replace('"ttg.num-ctas" = 1 : i32', '"ttg.num-ctas" = 1 : i32, ttg.target = "cuda:80"')
    ampere = tritium.compile(write(tmp_path, "ampere.ttgir", ampere_text))
    assert ".target sm_80" in ampere.asm["ptx"]
    with pytest.raises(CompilationError,
                       match=r"the module's ttg.target is \"cuda:80\" but it is compiled for cuda:90"):
        tritium.compile(write(tmp_path, "ampere.ttgir", ampere_text), target="cuda:90")
