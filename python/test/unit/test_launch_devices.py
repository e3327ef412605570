"""The rule for several GPUs, checked on the host with stand-in tensors: a
kernel launches on the current device, and a GPU tensor on any other device
is an ArgumentError naming the argument and both devices; the warm path
keys tensors by device where the process sees several GPUs, so such a
tensor never reaches a launch registered for another device."""
import pytest

import tritium
import tritium.language as tl
from tritium.errors import ArgumentError
from tritium.runtime.launcher import check_device


class FakeCudaTensor:
    """What the launch path reads of a torch CUDA tensor."""
    is_cuda = True

    def __init__(self, device: int, address: int = 0x10000):
        self.device, self.address, self.dtype = device, address, "float32"

    def get_device(self):
        return self.device

    def data_ptr(self):
        return self.address


def test_a_tensor_on_the_launch_device_passes():
    check_device(FakeCudaTensor(1), "x", 1)
    check_device(3, "n", 0)  # not a tensor: nothing to check


def test_a_tensor_on_another_device_names_both():
    with pytest.raises(ArgumentError, match=r"argument 'x_ptr' is on cuda:1, but the kernel launches on cuda:0, "
                                            r"the current device: .*torch.cuda.set_device\(1\)"):
        check_device(FakeCudaTensor(1), "x_ptr", 0)


@tritium.jit
def copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def _warm_key(single_device, current, *tensors):
    _, warm_key = copy._make_dispatcher(single_device=single_device)
    copy._dispatch_namespace.update(_Tensor=FakeCudaTensor, _device=lambda: current)
    return warm_key(*tensors, 7, BLOCK=16)


def test_warm_keys_carry_tensor_devices_only_with_several_gpus():
    on0, on1 = FakeCudaTensor(0), FakeCudaTensor(1)
    assert _warm_key(False, 0, on0, on0) != _warm_key(False, 0, on0, on1)
    assert _warm_key(False, 0, on1, on1) != _warm_key(False, 1, on1, on1)
    assert _warm_key(True, 0, on0, on0) == _warm_key(True, 0, on0, on1)
