"""The kernels of Triton's tutorials (bench/kernels/tutorials.py) compile
to Triton IR with the ops that make each of them what it is, and that IR
verifies with the native tool.

The checks look for ops (never for the absence of `tt.call`), so they hold
whether or not the TTIR pipeline inlined the helper functions."""
import inspect
import os
import re
import subprocess
import sys

import pytest

import tritium as triton
import tritium.language as tl
from tritium.compiler.compiler import ASTSource

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(REPO_ROOT, "bench"))
from kernel_sources import load_kernels  # noqa: E402

T = load_kernels("tutorials.py", triton, tl, "tritium")
TRITIUM_OPT = os.path.join(REPO_ROOT, "build", "bin", "tritium-opt")
TUTORIALS_FILE = T.add_kernel.file_name

I32 = "i32"

ADD = (T.add_kernel,
       {"x_ptr": "*fp32", "y_ptr": "*fp32", "output_ptr": "*fp32", "n_elements": I32},
       {"BLOCK_SIZE": 1024}, {})
SOFTMAX = (T.softmax_kernel,
           {"output_ptr": "*fp32", "input_ptr": "*fp32", "input_row_stride": I32, "output_row_stride": I32,
            "n_rows": I32, "n_cols": I32},
           {"BLOCK_SIZE": 1024, "num_stages": 4}, {})
MATMUL = (T.matmul_kernel,
          {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": I32, "N": I32, "K": I32,
           "stride_am": I32, "stride_ak": I32, "stride_bk": I32, "stride_bn": I32, "stride_cm": I32,
           "stride_cn": I32},
          {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8,
           "ACTIVATION": "leaky_relu"},
          {"stride_am": [["tt.divisibility", 16]], "stride_bk": [["tt.divisibility", 16]]})
DROPOUT = (T._seeded_dropout,
           {"x_ptr": "*fp32", "output_ptr": "*fp32", "n_elements": I32, "p": "fp32", "seed": I32},
           {"BLOCK_SIZE": 1024}, {})
LAYER_NORM = (T._layer_norm_fwd_fused,
              {"X": "*fp16", "Y": "*fp16", "W": "*fp16", "B": "*fp16", "Mean": "*fp32", "Rstd": "*fp32",
               "stride": I32, "N": I32, "eps": "fp32"},
              {"BLOCK_SIZE": 1024}, {})
_ATTN_STRIDES = ("stride_qz stride_qh stride_qm stride_qk stride_kz stride_kh stride_kn stride_kk "
                 "stride_vz stride_vh stride_vk stride_vn stride_oz stride_oh stride_om stride_on Z H").split()
ATTENTION = (T._attn_fwd,
             dict({"Q": "*fp16", "K": "*fp16", "V": "*fp16", "sm_scale": "fp32", "M": "*fp32", "Out": "*fp16"},
                  **{n: I32 for n in _ATTN_STRIDES}),
             {"N_CTX": 1024, "HEAD_DIM": 64, "BLOCK_M": 128, "BLOCK_N": 64, "STAGE": 3}, {})

ALL = {"vector_add": ADD, "fused_softmax": SOFTMAX, "matmul": MATMUL, "dropout": DROPOUT,
       "layer_norm": LAYER_NORM, "fused_attention": ATTENTION}

_cache = {}


def ttir(case) -> str:
    key = id(case)
    if key not in _cache:
        fn, signature, constexprs, attrs = case
        _cache[key] = triton.compile(fn, signature=signature, constexprs=constexprs, attrs=attrs,
                                     target="cuda:90", stop_after="ttir").asm["ttir"]
    return _cache[key]


def count(text: str, op: str) -> int:
    """Occurrences of op `op` (custom or generic form), not of longer names
    (`tt.reduce` does not count `tt.reduce.return`)."""
    return len(re.findall(r'(?<![\w."])"?' + re.escape(op) + r'"?(?![\w.])', text))


def lines_with(text: str, op: str):
    return [line for line in text.splitlines() if count(line, op)]


def source_line_of(fn, needle: str) -> int:
    """The file line number of the first line of @jit function `fn` holding `needle`."""
    lines, start = inspect.getsourcelines(fn.fn)
    for i, line in enumerate(lines):
        if needle in line:
            return start + i
    raise AssertionError(f"{needle!r} not in {fn.__name__}")


# ---- each tutorial: its key ops -------------------------------------------------------

def test_vector_add():
    t = ttir(ADD)
    assert "tt.func public @add_kernel(" in t
    assert count(t, "tt.get_program_id") == 1
    assert re.search(r"tt\.make_range \{end = 1024 : i32, start = 0 : i32\} : tensor<1024xi32>", t)
    assert count(t, "tt.load") == 2
    # masked loads: the mask is the `offsets < n_elements` comparison
    assert re.search(r"arith\.cmpi slt, .* : tensor<1024xi32>", t)
    assert all(re.search(r"tt\.load %[\w#]+, %[\w#]+ ", line) for line in lines_with(t, "tt.load")), t
    assert re.search(r"arith\.addf %[\w#]+, %[\w#]+ : tensor<1024xf32>", t)
    assert re.search(r"tt\.store %[\w#]+, %[\w#]+, %[\w#]+ : tensor<1024x!tt\.ptr<f32>>", t)


def test_fused_softmax():
    t = ttir(SOFTMAX)
    assert count(t, "tt.get_num_programs") == 1
    # the persistent row loop with its pipelining option
    assert count(t, "scf.for") == 1
    assert re.search(r"\}\s*\{[^}]*tt\.num_stages = 4 : i32", t), "tl.range(num_stages=...) attribute lost"
    # one max and one sum reduction over the row
    assert count(t, "tt.reduce") == 2
    assert re.search(r"arith\.maxnumf %[\w#]+, %[\w#]+ : f32", t)
    assert re.search(r"arith\.addf %[\w#]+, %[\w#]+ : f32", t)
    assert re.search(r"math\.exp %[\w#]+ : tensor<1024xf32>", t)
    assert re.search(r"arith\.divf %[\w#]+, %[\w#]+ : tensor<1024xf32>", t)
    # other=-inf for the masked load
    assert "0xFF800000" in t
    assert count(t, "tt.store") == 1


def test_matmul_with_grouped_ordering_and_leaky_relu():
    t = ttir(MATMUL)
    assert count(t, "scf.for") == 1
    dots = lines_with(t, "tt.dot")
    assert len(dots) == 1
    assert "tensor<128x64xf16> * tensor<64x256xf16> -> tensor<128x256xf32>" in dots[0]
    # the accumulator is loop-carried: the dot is inside the loop and its result yielded
    loop = t[t.index("scf.for"):]
    assert loop.index("tt.dot") < loop.index("scf.yield")
    assert re.search(r"arith\.truncf %[\w#]+ : tensor<128x256xf32> to tensor<128x256xf16>", t)
    assert re.search(r"tt\.store %[\w#]+, %[\w#]+, %[\w#]+ : tensor<128x256x!tt\.ptr<f16>>", t)
    # masked loads with other=0.0 in f16
    assert len([l for l in lines_with(t, "tt.load") if "f16" in l]) == 2
    # leaky_relu: where(x >= 0, x, 0.01 * x)
    assert re.search(r"arith\.cmpf oge, .*tensor<128x256xf32>", t)
    assert re.search(r"arith\.select %[\w#]+, %[\w#]+, %[\w#]+ : tensor<128x256xi1>, tensor<128x256xf32>", t)
    # grouped ordering: min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    assert re.search(r"arith\.minsi %[\w#]+, %[\w#]+ : i32", t)
    # tl.cdiv of a runtime value
    assert re.search(r"arith\.divsi %[\w#]+, %[\w#]+ : i32", t)
    # the specialization attributes reach the kernel's arguments
    header = next(line for line in t.splitlines() if "tt.func public @matmul_kernel" in line)
    assert header.count("tt.divisibility = 16 : i32") == 2


def test_low_memory_dropout():
    t = ttir(DROPOUT)
    # Philox: umulhi, xor, and the uniform conversion
    assert count(t, "tt.mulhiui") >= 2
    assert count(t, "arith.xori") >= 2
    assert re.search(r"arith\.cmpf ogt, %[\w#]+, %[\w#]+ : tensor<1024xf32>", t)   # random > p
    assert re.search(r"arith\.divf %[\w#]+, %[\w#]+ : tensor<1024xf32>", t)        # x / (1 - p)
    assert re.search(r"arith\.select %[\w#]+, %[\w#]+, %[\w#]+ : tensor<1024xi1>, tensor<1024xf32>", t)
    assert count(t, "tt.load") == 1 and count(t, "tt.store") == 1


def test_layer_norm_forward():
    t = ttir(LAYER_NORM)
    assert count(t, "scf.for") == 3
    assert count(t, "tt.reduce") == 2
    assert re.search(r"math\.sqrt %[\w#]+ : f32", t)
    assert re.search(r"arith\.extf %[\w#]+ : tensor<1024xf16> to tensor<1024xf32>", t)
    assert re.search(r"arith\.truncf %[\w#]+ : tensor<1024xf32> to tensor<1024xf16>", t)
    # mean and rstd are scalars stored once each; y is a masked block store
    assert len(re.findall(r"tt\.store %[\w#]+, %[\w#]+ : !tt\.ptr<f32>", t)) == 2
    assert re.search(r"tt\.store %[\w#]+, %[\w#]+, %[\w#]+ : tensor<1024x!tt\.ptr<f16>>", t)
    # the first two loops carry an accumulator
    assert len(re.findall(r"scf\.for .* iter_args\(.*\) -> \(tensor<1024xf32>\)", t)) == 2


def test_fused_attention_forward():
    t = ttir(ATTENTION)
    dots = lines_with(t, "tt.dot")
    # two dots (q @ k, p @ v) in each of the two inner-loop instantiations (STAGE=3)
    assert len(dots) == 4
    assert sum("tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>" in d for d in dots) == 4
    assert count(t, "math.exp2") >= 4
    assert re.search(r"math\.log2 %\S+ : tensor<128xf32>", t)
    assert count(t, "scf.for") == 2
    assert count(t, "tt.reduce") == 4
    # the causal stage masks with offs_m[:, None] >= start_n + offs_n[None, :]
    assert re.search(r"arith\.cmpi sge, %[\w#]+, %[\w#]+ : tensor<128x64xi32>", t)
    # block pointers, or the tensors of pointers they are rewritten to
    block_ptr_form = "tt.make_tensor_ptr" in t and "tt.advance" in t and \
        re.search(r"tt\.load %[\w#]+ .*: !tt\.ptr<tensor<64x64xf16>>", t)
    rewritten_form = re.search(r"tt\.load .*: tensor<64x64x!tt\.ptr<f16>>", t)
    assert block_ptr_form or rewritten_form, t
    if block_ptr_form:
        assert count(t, "tt.make_tensor_ptr") == 4
        assert re.search(r"tt\.make_tensor_ptr .* \{order = array<i32: 0, 1>\} : !tt\.ptr<tensor<64x64xf16>>", t)
    assert re.search(r"arith\.truncf %\S+ : tensor<128x64xf32> to tensor<128x64xf16>", t)
    assert count(t, "tt.store") == 2


@pytest.mark.parametrize("name", list(ALL))
def test_tutorial_ttir_verifies_with_tritium_opt(name, tmp_path):
    if not os.access(TRITIUM_OPT, os.X_OK):
        pytest.skip(f"{TRITIUM_OPT} is not built")
    path = tmp_path / f"{name}.ttir"
    path.write_text(ttir(ALL[name]))
    out = subprocess.run([TRITIUM_OPT, str(path)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "tt.func public" in out.stdout


@pytest.mark.parametrize("name", list(ALL))
def test_tutorial_ttir_round_trips_through_the_native_library(name):
    t = ttir(ALL[name])
    printed = triton.native_library().parse_and_verify(t, f"{name}.ttir")
    assert triton.native_library().parse_and_verify(printed, f"{name}.ttir") == printed


def test_compiled_kernel_records_its_stages_and_metadata():
    fn, signature, constexprs, attrs = ADD
    k = triton.compile(fn, signature=signature, constexprs=constexprs, num_warps=8, stop_after="ttir")
    assert set(k.asm) >= {"source", "ttir"}
    assert "def add_kernel(" in k.asm["source"]
    assert k.metadata["num_warps"] == 8
    assert k.metadata["name"] == "add_kernel"


# ---- locations ---------------------------------------------------------------------------

def test_printed_ttir_locations_refer_to_the_tutorial_file():
    t = ttir(ADD)
    if "loc(" not in t:
        pytest.skip("the printed TTIR carries no locations (printed without debug info); "
                    "see test_generated_ir_locations_refer_to_the_tutorial_file")
    files = set(re.findall(r'loc\("([^"]+)":\d+:\d+\)', t))
    assert files and files <= {TUTORIALS_FILE}, files


def _generated_text(case):
    fn, signature, constexprs, attrs = case
    from tritium.compiler.code_generator import generate_ttir
    values, arg_attrs = ASTSource(fn, signature, constexprs, attrs).arg_values()
    return generate_ttir(fn, values, arg_attrs, False)


def test_generated_ir_locations_refer_to_the_tutorial_file():
    text = _generated_text(ADD)
    locations = re.findall(r'loc\("([^"]+)":(\d+):(\d+)\)', text)
    assert locations
    assert {f for f, _, _ in locations} == {TUTORIALS_FILE}
    store_line = source_line_of(T.add_kernel, "tl.store(output_ptr")
    store = next(line for line in text.splitlines() if '"tt.store"' in line)
    assert f'loc("{TUTORIALS_FILE}":{store_line}:5)' in store
    # it parses and verifies, locations included
    printed = triton.native_library().parse_and_verify(text, "add_kernel.ttir")
    assert "tt.store" in printed


def test_native_diagnostic_points_at_the_tutorial_source_line():
    text = _generated_text(ADD)
    assert "end = 1024 : i32" in text
    broken = text.replace("end = 1024 : i32", "end = 1000 : i32", 1)
    with pytest.raises(triton.CompilationError) as info:
        triton.native_library().parse_and_verify(broken, "add_kernel.ttir")
    message = str(info.value)
    arange_line = source_line_of(T.add_kernel, "tl.arange(0, BLOCK_SIZE)")
    source = open(TUTORIALS_FILE).read().splitlines()[arange_line - 1]
    col = source.index("tl.arange") + 1
    assert f"{TUTORIALS_FILE}:{arange_line}:{col}: error:" in message
    assert "power of two" in message
    assert source.rstrip() in message
    assert "\n" + " " * (col - 1) + "^" in message
