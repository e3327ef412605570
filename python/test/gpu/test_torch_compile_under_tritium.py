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
