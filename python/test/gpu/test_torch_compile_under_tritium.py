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


def test_torch_compile_mlp_matches_eager(tmp_path):
    paths = [os.path.join(REPO, "scripts", "triton_alias"), os.path.join(REPO, "python")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths + [os.environ.get("PYTHONPATH", "")]),
               TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "inductor"), TRITON_CACHE_DIR=str(tmp_path / "triton"))
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
        warnings.append(record.getMessage())
logging.getLogger("torch._higher_order_ops.triton_kernel_wrap").addHandler(Catch())
t = torch.empty(64, device="cuda")
mutated = identify_mutated_tensors(add_into, {"x_ptr": t, "bias_ptr": t, "out_ptr": t, "count_ptr": t, "n": 64,
                                              "BLOCK": 64}, {})
assert not warnings, warnings
print("MUTATED", sorted(mutated))
'''


def test_inductor_finds_what_a_user_kernel_writes(tmp_path):
    """Inductor's mutation analysis of a user-defined kernel walks
    ASTSource.make_ir's tree: it finds the two arguments written, not
    every tensor (its fallback when the walk fails)."""
    paths = [os.path.join(REPO, "scripts", "triton_alias"), os.path.join(REPO, "python")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths + [os.environ.get("PYTHONPATH", "")]),
               TRITON_CACHE_DIR=str(tmp_path / "triton"))
    result = subprocess.run([sys.executable, "-c", _MUTATION_SCRIPT], env=env, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr[-6000:]
    assert "MUTATED ['count_ptr', 'out_ptr']" in result.stdout, result.stdout + result.stderr[-3000:]
