"""Kernels compiled ahead of time (tritium.tools.compile), linked
(tritium.tools.link) and launched from C: a program written here creates a
CUDA context with the driver API, allocates, launches through the linked
dispatchers, copies back and checks; the matmul's result is checked
against numpy.  On sm_90 the matmul's block pointers move by TMA, so its
launch allocates the kernel's global scratch."""
import os
import shutil
import subprocess
import sys

import pytest

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CUDA_HOME = os.environ.get("CUDA_HOME", "/usr/local/cuda")
CUDA_INCLUDE = os.path.join(CUDA_HOME, "include")

# The kernel file the tests compile (copied next to their outputs).
KERNELS = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "unit", "kernels", "aot.py")).read()

M, N, K = 100, 96, 80

MAIN = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda.h>
#include "add.h"
#include "matmul.h"

#define CHECK(call) do { CUresult r_ = (call); if (r_ != CUDA_SUCCESS) { \
  const char *s_ = NULL; cuGetErrorString(r_, &s_); \
  fprintf(stderr, "%s failed: %s\n", #call, s_ ? s_ : "?"); return 1; } } while (0)

static int read_file(const char *path, void *data, size_t bytes) {
  FILE *f = fopen(path, "rb");
  size_t got = f ? fread(data, 1, bytes, f) : 0;
  if (f) fclose(f);
  return got == bytes ? 0 : -1;
}

int main(void) {
  enum { M = @M@, N = @N@, K = @K@, LEN = 5000 };
  CUdevice dev;
  CUcontext ctx;
  CUstream stream;
  CUdeviceptr x, y, out, a, b, c;
  static float hx[LEN], hy[LEN], hout[LEN], hc[M * N];
  static unsigned short ha[M * K], hb[K * N];
  int i, bad = 0;

  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  load_add();
  load_matmul();

  /* vector add: 16-byte aligned arguments (the :16 variant), then arguments
     one element in (the unspecialized one), then the 256-wide algorithm */
  for (i = 0; i < LEN; ++i) { hx[i] = (float)i; hy[i] = 2.0f * i + 1.0f; }
  CHECK(cuMemAlloc(&x, sizeof(hx)));
  CHECK(cuMemAlloc(&y, sizeof(hy)));
  CHECK(cuMemAlloc(&out, sizeof(hout)));
  CHECK(cuMemcpyHtoD(x, hx, sizeof(hx)));
  CHECK(cuMemcpyHtoD(y, hy, sizeof(hy)));
  CHECK(cuMemsetD32Async(out, 0, LEN, stream));
  CHECK(add_default(stream, x, y, out, 4096));
  CHECK(add(stream, x + 4 * 4096 + 4, y + 4 * 4096 + 4, out + 4 * 4096 + 4, 603, 0));
  CHECK(cuStreamSynchronize(stream));
  CHECK(cuMemcpyDtoH(hout, out, sizeof(hout)));
  for (i = 0; i < LEN; ++i) {
    float want = (i < 4096 || (i > 4096 && i < 4096 + 1 + 603)) ? 3.0f * i + 1.0f : 0.0f;
    if (hout[i] != want && bad++ < 5) fprintf(stderr, "add: out[%d] = %g, want %g\n", i, hout[i], want);
  }
  if (add_get_num_algos() != 2) { fprintf(stderr, "add has %d algorithms\n", add_get_num_algos()); bad++; }
  CHECK(cuMemsetD32Async(out, 0, LEN, stream));
  CHECK(add(stream, x, y, out, 1000, 1));
  CHECK(cuStreamSynchronize(stream));
  CHECK(cuMemcpyDtoH(hout, out, sizeof(hout)));
  for (i = 0; i < LEN; ++i) {
    float want = i < 1000 ? 3.0f * i + 1.0f : 0.0f;
    if (hout[i] != want && bad++ < 10) fprintf(stderr, "add 256: out[%d] = %g, want %g\n", i, hout[i], want);
  }
  if (add(stream, x, y, out, 1000, 2) != CUDA_ERROR_INVALID_VALUE) { fprintf(stderr, "algo 2 ran\n"); bad++; }

  /* matmul: the variant needs strides divisible by 16; alpha = 0.5 as fp16 */
  if (read_file("a.bin", ha, sizeof(ha)) || read_file("b.bin", hb, sizeof(hb))) {
    fprintf(stderr, "cannot read a.bin / b.bin\n");
    return 1;
  }
  CHECK(cuMemAlloc(&a, sizeof(ha)));
  CHECK(cuMemAlloc(&b, sizeof(hb)));
  CHECK(cuMemAlloc(&c, sizeof(hc)));
  CHECK(cuMemcpyHtoD(a, ha, sizeof(ha)));
  CHECK(cuMemcpyHtoD(b, hb, sizeof(hb)));
  CHECK(matmul_default(stream, a, b, c, M, N, K, K, N, N, 0.5f));
  if (matmul_default(stream, a, b, c, M, N, K, K + 1, N, N, 0.5f) != CUDA_ERROR_INVALID_VALUE) {
    fprintf(stderr, "a stride not divisible by 16 found a variant\n");
    bad++;
  }
  CHECK(cuStreamSynchronize(stream));
  CHECK(cuMemcpyDtoH(hc, c, sizeof(hc)));
  {
    FILE *f = fopen("c.bin", "wb");
    if (!f || fwrite(hc, 1, sizeof(hc), f) != sizeof(hc)) { fprintf(stderr, "cannot write c.bin\n"); return 1; }
    fclose(f);
  }

  unload_add();
  unload_matmul();
  cuMemFree(x); cuMemFree(y); cuMemFree(out); cuMemFree(a); cuMemFree(b); cuMemFree(c);
  cuStreamDestroy(stream);
  cuDevicePrimaryCtxRelease(dev);
  if (bad) return 2;
  printf("ok\n");
  return 0;
}
"""


def _libcuda_dir():
    """A folder with libcuda.so to link against: the driver's, else the
    toolkit's stub (the program then loads the driver's libcuda.so.1)."""
    for d in [os.environ.get("TRITON_LIBCUDA_PATH", ""), "/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib/wsl/lib",
              os.path.join(CUDA_HOME, "lib64", "stubs"), os.path.join(CUDA_HOME, "lib64")]:
        if d and os.path.isfile(os.path.join(d, "libcuda.so")):
            return d
    return None


def _tool(cwd, module, *args):
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
    result = subprocess.run([sys.executable, "-m", module, *args], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr


def build(directory, target: str) -> str:
    """Compiles, links and builds the test program in `directory` for
    `target` (e.g. "cuda:90"); returns the program's path."""
    (directory / "kernels.py").write_text(KERNELS)
    for signature in ("*fp32:16, *fp32:16, *fp32:16, i32:16, 1024", "*fp32, *fp32, *fp32, i32, 1024"):
        _tool(directory, "tritium.tools.compile", "kernels.py", "-n", "add_kernel", "-s", signature,
              "-g", "(n + BLOCK - 1) / BLOCK, 1, 1", "-w", "4", "-t", target, "-on", "add", "-o", "add")
    _tool(directory, "tritium.tools.compile", "kernels.py", "-n", "add_kernel", "-s", "*fp32, *fp32, *fp32, i32, 256",
          "-g", "(n + 255) / 256, 1, 1", "-w", "2", "-t", target, "-on", "add", "-o", "add")
    _tool(directory, "tritium.tools.compile", "kernels.py", "-n", "scaled_matmul", "-s",
          "*fp16:16, *fp16:16, *fp32:16, i32, i32, i32, i32:16, i32:16, i32:16, fp16, 64, 64, 32",
          "-g", "(M + BM - 1) / BM, (N + BN - 1) / BN, 1", "-w", "4", "-t", target, "-on", "matmul", "-o", "matmul")
    add_headers = sorted((str(p) for p in directory.glob("add.*.h")),
                         key=lambda h: "warps2xstages" in open(h).read())  # algorithm 0: the 1024-wide one
    _tool(directory, "tritium.tools.link", *add_headers, "-o", "add")
    _tool(directory, "tritium.tools.link", *sorted(str(p) for p in directory.glob("matmul.*.h")), "-o", "matmul")
    (directory / "main.c").write_text(MAIN.replace("@M@", str(M)).replace("@N@", str(N)).replace("@K@", str(K)))
    sources = sorted(str(p.name) for p in directory.glob("*.c"))
    command = ["gcc", "-O1", "-Wall", "-Werror", *sources, "-I", CUDA_INCLUDE, "-L", _libcuda_dir(), "-lcuda",
               "-o", "aot_test"]
    result = subprocess.run(command, cwd=directory, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return str(directory / "aot_test")


@pytest.mark.skipif(shutil.which("gcc") is None or not os.path.isfile(os.path.join(CUDA_INCLUDE, "cuda.h")),
                    reason="needs gcc and cuda.h")
def test_aot_kernels_run_from_c(tmp_path):
    np = pytest.importorskip("numpy")
    torch = pytest.importorskip("torch")
    from tritium.backends.compiler import SUPPORTED_ARCHS
    major, minor = torch.cuda.get_device_capability(0)
    if major * 10 + minor not in SUPPORTED_ARCHS:
        pytest.skip(f"Tritium does not compile for sm_{major}{minor}")
    if _libcuda_dir() is None:
        pytest.skip("no libcuda.so to link against")
    program = build(tmp_path, f"cuda:{major}{minor}")

    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (M, K)).astype(np.float16)
    b = rng.uniform(-1, 1, (K, N)).astype(np.float16)
    a.tofile(tmp_path / "a.bin")
    b.tofile(tmp_path / "b.bin")
    result = subprocess.run([program], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout == "ok\n", result.stdout + result.stderr
    c = np.fromfile(tmp_path / "c.bin", dtype=np.float32).reshape(M, N)
    np.testing.assert_allclose(c, 0.5 * (a.astype(np.float32) @ b.astype(np.float32)), atol=2e-2, rtol=1e-2)
