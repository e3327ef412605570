"""NativeLibrary.run_pipeline: a textual pass pipeline run on MLIR text through
the C ABI (tritium_run_pipeline).  Success returns the transformed IR; a bad
pipeline, a failing pass or bad IR raise CompilationError with the
diagnostics, and the process survives all of them."""
import pytest

import tritium

MAKE_TTIR = "builtin.module(tritium-make-ttir)"

KERNEL_WITH_CALL = """\
module {
  tt.func private @twice(%v: tensor<64xf32>) -> tensor<64xf32> {
    %r = arith.addf %v, %v : tensor<64xf32>
    tt.return %r : tensor<64xf32>
  }
  tt.func public @kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
    %b = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %p = tt.addptr %b, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %v = tt.load %p : tensor<64x!tt.ptr<f32>>
    %w = tt.call @twice(%v) : (tensor<64xf32>) -> tensor<64xf32>
    tt.store %p, %w : tensor<64x!tt.ptr<f32>>
    tt.return
  }
}
"""

BLOCK_POINTER_ARGUMENT = """\
module {
  tt.func public @kernel(%p: !tt.ptr<tensor<16xf32>>) {
    tt.return
  }
}
"""


def test_make_ttir_inlines_and_drops_the_private_function():
    out = tritium.native_library().run_pipeline(KERNEL_WITH_CALL, MAKE_TTIR, "k.ttir")
    assert "tt.func public @kernel" in out
    assert "tt.call" not in out
    assert "@twice" not in out
    assert "arith.addf" in out  # the inlined body
    # The result is valid IR of its own.
    assert tritium.native_library().parse_and_verify(out) == out


def test_upstream_passes_run_by_name():
    text = """\
module {
  tt.func public @f(%a: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %r = arith.addi %a, %c0 : i32
    tt.return %r : i32
  }
}
"""
    out = tritium.native_library().run_pipeline(text, "builtin.module(canonicalize,cse)")
    assert "arith.addi" not in out
    assert "tt.return %arg0 : i32" in out


def test_unknown_pass_name_raises():
    with pytest.raises(tritium.CompilationError) as info:
        tritium.native_library().run_pipeline(KERNEL_WITH_CALL, "builtin.module(no-such-pass)")
    message = str(info.value)
    assert "invalid pass pipeline" in message
    assert "no-such-pass" in message


def test_malformed_pipeline_raises():
    with pytest.raises(tritium.CompilationError, match="invalid pass pipeline"):
        tritium.native_library().run_pipeline(KERNEL_WITH_CALL, "builtin.module(canonicalize")


def test_pass_failure_is_reported_with_its_location():
    with pytest.raises(tritium.CompilationError) as info:
        tritium.native_library().run_pipeline(BLOCK_POINTER_ARGUMENT, MAKE_TTIR, "bp.ttir")
    message = str(info.value)
    assert "bp.ttir:2:3: error:" in message
    assert "block pointers cannot be passed to or returned from a function" in message


def test_invalid_ir_is_reported_before_any_pass_runs():
    with pytest.raises(tritium.CompilationError) as info:
        tritium.native_library().run_pipeline("module { tt.func @f( }", MAKE_TTIR, "junk.ttir")
    assert "junk.ttir:1:" in str(info.value)


def test_the_library_keeps_working_after_failures():
    lib = tritium.native_library()
    for _ in range(3):
        with pytest.raises(tritium.CompilationError):
            lib.run_pipeline(KERNEL_WITH_CALL, "builtin.module(no-such-pass)")
        with pytest.raises(tritium.CompilationError):
            lib.run_pipeline(BLOCK_POINTER_ARGUMENT, MAKE_TTIR)
        assert "tt.call" not in lib.run_pipeline(KERNEL_WITH_CALL, MAKE_TTIR)
