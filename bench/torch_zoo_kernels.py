"""Triton kernels written by hand and called from models that torch.compile
compiles (bench/torch_zoo.py's `user_kernel` model): Inductor wraps each
launch in its triton_kernel_wrapper and analyses which arguments the
kernel writes.  Imported only in a zoo case's process, where `triton` may
be Tritium."""
import torch
import triton
import triton.language as tl


@triton.jit
def bias_gelu_kernel(x_ptr, bias_ptr, out_ptr, n_elements, n_cols, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask) + tl.load(bias_ptr + offsets % n_cols, mask=mask)
    y = 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))
    tl.store(out_ptr + offsets, y, mask=mask)


@triton.jit
def bias_gelu_grad_kernel(grad_ptr, x_ptr, bias_ptr, dx_ptr, n_elements, n_cols, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask) + tl.load(bias_ptr + offsets % n_cols, mask=mask)
    cdf = 0.5 * (1.0 + tl.erf(x * 0.7071067811865476))
    pdf = tl.exp(-0.5 * x * x) * 0.3989422804014327
    tl.store(dx_ptr + offsets, tl.load(grad_ptr + offsets, mask=mask) * (cdf + x * pdf), mask=mask)


class BiasGelu(torch.autograd.Function):
    """gelu(x + bias) over the last dimension, forward and backward in the
    kernels above (fp32, contiguous)."""

    @staticmethod
    def forward(ctx, x, bias):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        bias_gelu_kernel[(triton.cdiv(n, 1024),)](x, bias, out, n, x.shape[-1], BLOCK=1024)
        ctx.save_for_backward(x, bias)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, bias = ctx.saved_tensors
        grad = grad.contiguous()
        dx = torch.empty_like(x)
        n = x.numel()
        bias_gelu_grad_kernel[(triton.cdiv(n, 1024),)](grad, x, bias, dx, n, x.shape[-1], BLOCK=1024)
        return dx, dx.reshape(-1, x.shape[-1]).sum(0)


class UserKernelMLP(torch.nn.Module):
    def __init__(self, dim=256, hidden=1024):
        super().__init__()
        self.up = torch.nn.Linear(dim, hidden, bias=False)
        self.bias = torch.nn.Parameter(torch.randn(hidden) * 0.1)
        self.down = torch.nn.Linear(hidden, dim)

    def forward(self, x):
        return self.down(BiasGelu.apply(self.up(x), self.bias))
