"""torch.compile (PyTorch's Inductor) running on Tritium: a small MLP
compiled with `triton` answered by Tritium (scripts/triton_alias first on
PYTHONPATH, in a child process, which Inductor's compile workers inherit
through PYTHONPATH), compared with eager PyTorch."""
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

_SCRIPT = r'''
import torch
import triton
assert triton.__name__ == "tritium", triton.__name__
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.GELU(), torch.nn.LayerNorm(256),
                            torch.nn.Linear(256, 32), torch.nn.Softmax(dim=-1)).cuda()
x = torch.randn(128, 64, device="cuda")
with torch.no_grad():
    expected = model(x)
    compiled = torch.compile(model)
    got = compiled(x)
    got = compiled(x)
torch.testing.assert_close(got, expected, rtol=1e-4, atol=1e-5)
print("OK")
'''


def _alias_env(tmp_path):
    """The environment of a child whose `import triton` is Tritium, with
    fresh caches; kernels go to TRITON_CACHE_DIR, as they do under Inductor
    when nothing else is set."""
    paths = [os.path.join(REPO, "scripts", "triton_alias"), os.path.join(REPO, "python")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths + [os.environ.get("PYTHONPATH", "")]),
               TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "inductor"), TRITON_CACHE_DIR=str(tmp_path / "triton"))
    env.pop("TRITIUM_CACHE_DIR", None)
    return env


def test_torch_compile_mlp_matches_eager(tmp_path):
    env = _alias_env(tmp_path)
    result = subprocess.run([sys.executable, "-c", _SCRIPT], env=env, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr[-6000:]
    assert result.stdout.strip().endswith("OK")


_MUTATION_SCRIPT = r'''
import logging
import torch
import triton
import triton.language as tl
from torch._higher_order_ops.triton_kernel_wrap import identify_mutated_tensors
assert triton.__name__ == "tritium", triton.__name__

@triton.jit
def add_into(x_ptr, bias_ptr, out_ptr, count_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    y = tl.load(x_ptr + offs, mask=mask) + tl.load(bias_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, y, mask=mask)
    tl.atomic_add(count_ptr, 1)

warnings = []
class Catch(logging.Handler):
    def emit(self, record):
        warnings.append(record.getMessage() + (logging.Formatter().formatException(record.exc_info)
                                               if record.exc_info else ""))
for name in ("torch._higher_order_ops.triton_kernel_wrap", "torch._dynamo"):
    logging.getLogger(name).addHandler(Catch())

# CUDA tensors, and what Inductor puts in place of fake tensors and symbolic
# sizes when it traces (2-element host tensors, the integer 2)
t = torch.empty(64, device="cuda")
mutated = identify_mutated_tensors(add_into, {"x_ptr": t, "bias_ptr": t, "out_ptr": t, "count_ptr": t, "n": 64,
                                              "BLOCK": 64}, {})
assert not warnings, warnings
print("MUTATED", sorted(mutated))
h = torch.empty(2)
mutated = identify_mutated_tensors(add_into, {"x_ptr": h, "bias_ptr": h, "out_ptr": h, "count_ptr": h, "n": 2,
                                              "BLOCK": 64}, {})
assert not warnings, warnings
print("HOST", sorted(mutated))

# through torch.compile: the bias read by the kernel and written afterwards
# in the same graph keeps the later write
def step(x, bias, count):
    out = torch.empty_like(x)
    add_into[(triton.cdiv(x.numel(), 64),)](x, bias, out, count, x.numel(), BLOCK=64)
    bias.add_(1.0)
    return out
x = torch.randn(1000, device="cuda")
bias = torch.randn(1000, device="cuda")
count = torch.zeros(1, dtype=torch.int32, device="cuda")
expected_bias = bias + 1.0
got = torch.compile(step, fullgraph=True)(x, bias, count)
torch.testing.assert_close(got, x + expected_bias - 1.0)
torch.testing.assert_close(bias, expected_bias)
assert not [w for w in warnings if "identify_mutated_tensors" in w], warnings
print("COMPILED OK")
'''


def test_inductor_finds_what_a_user_kernel_writes(tmp_path):
    """Inductor's mutation analysis of a user-defined kernel walks
    ASTSource.make_ir's tree: it finds the two arguments written, not
    every tensor (its fallback when the walk fails), for CUDA tensors and
    for the host stand-ins Inductor traces with, and inside torch.compile."""
    env = _alias_env(tmp_path)
    script = tmp_path / "kernel_mutation.py"  # a file: @triton.jit reads the kernel's source
    script.write_text(_MUTATION_SCRIPT)
    result = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr[-6000:]
    assert "MUTATED ['count_ptr', 'out_ptr']" in result.stdout, result.stdout + result.stderr[-3000:]
    assert "HOST ['count_ptr', 'out_ptr']" in result.stdout, result.stdout + result.stderr[-3000:]
    assert "COMPILED OK" in result.stdout, result.stdout + result.stderr[-3000:]


_LAUNCHERS_SCRIPT = r'''
import sys
import torch
import triton
from torch._inductor.codecache import PyCodeCache
from torch._inductor.runtime.triton_heuristics import CachingAutotuner
assert triton.__name__ == "tritium", triton.__name__
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.GELU(), torch.nn.LayerNorm(256),
                            torch.nn.Linear(256, 32), torch.nn.Softmax(dim=-1)).cuda()
x = torch.randn(128, 64, device="cuda")
eager = [p.detach().clone() for p in model.parameters()]


def step(m, x):
    m.zero_grad(set_to_none=True)
    loss = m(x).square().mean()
    loss.backward()
    return [loss.detach()] + [p.grad for p in m.parameters()]


want = step(model, x)
compiled = torch.compile(model)
got = step(compiled, x)
got = step(compiled, x)
for g, w in zip(got, want):
    torch.testing.assert_close(g, w, rtol=1e-4, atol=1e-5)
modules = PyCodeCache.modules
modules = modules.values() if isinstance(modules, dict) else modules
static, through_run = [], []
for module in list(modules):
    for value in vars(module).values():
        if isinstance(value, CachingAutotuner):
            for launcher in value.launchers:
                name = value.fn.__name__
                (static if getattr(launcher, "_is_static", False) else through_run).append(name)
print("STATIC", len(static), "RUN", sorted(through_run))
'''


def test_inductor_launches_tritium_kernels_itself(tmp_path):
    """Inductor launches the kernels it generates with its own launcher
    (PyTorch's static CUDA launcher, which loads <TRITON_CACHE_DIR>/<hash>/
    <name>.cubin and starts 32 * num_warps threads), not through
    CompiledKernel.run, when Tritium compiles them: forward and backward of
    a small model, every kernel launched that way, results as eager's."""
    result = subprocess.run([sys.executable, "-c", _LAUNCHERS_SCRIPT], env=_alias_env(tmp_path),
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr[-6000:]
    line = next(l for l in result.stdout.splitlines() if l.startswith("STATIC"))
    assert line.endswith("RUN []") and int(line.split()[1]) >= 4, result.stdout
