"""Version numbers: `__version__` is the version of Triton's API that
Tritium implements (code that checks `triton.__version__` takes its 3.x
paths); `__tritium_version__` is Tritium's own, part of every kernel cache
key."""
__version__ = "3.6.0"
__tritium_version__ = "0.1.0"
