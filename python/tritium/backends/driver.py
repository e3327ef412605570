"""`triton.backends.driver`: DriverBase, what a driver is (the object
`triton.runtime.driver.active` holds).  Tritium's one driver,
tritium.runtime.driver.CudaDriver, derives from it; code written for
Triton imports the base class by this name."""
from abc import ABCMeta, abstractmethod


class DriverBase(metaclass=ABCMeta):
    """A driver answers whether its devices are usable, the current
    target, the torch device kernels run on, and the benchmarker the
    autotuner times configs with."""

    @classmethod
    @abstractmethod
    def is_active(cls) -> bool:
        ...

    @abstractmethod
    def get_current_target(self):
        ...

    @abstractmethod
    def get_active_torch_device(self):
        ...

    @abstractmethod
    def get_benchmarker(self):
        ...
