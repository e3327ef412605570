"""Launch grids are checked on the host, without a GPU: 1 to 3 positive
integers within CUDA's limits (x up to 2^31 - 1 programs, y and z up to
65535), with an error that names the kernel and the limit."""
import pytest

from tritium.errors import TritiumError
from tritium.runtime.launcher import MAX_GRID, grid_dims


@pytest.mark.parametrize("grid,expected", [((7,), (7, 1, 1)), ((2, 3), (2, 3, 1)), ((2 ** 31 - 1, 65535, 65535),
                                                                                   (2 ** 31 - 1, 65535, 65535))])
def test_grids_within_the_limits(grid, expected):
    assert grid_dims(grid, "k") == expected


@pytest.mark.parametrize("grid", [(2 ** 31,), (1, 65536), (1, 1, 65536)])
def test_grids_over_the_limits_name_them(grid):
    with pytest.raises(TritiumError, match=r"grid .* for 'k' exceeds CUDA's limits: x up to 2147483647, "
                                           r"y and z up to 65535"):
        grid_dims(grid, "k")
    assert MAX_GRID == (2147483647, 65535, 65535)


@pytest.mark.parametrize("grid", [(), (0,), (1, -1), (1, 2, 3, 4)])
def test_malformed_grids(grid):
    with pytest.raises(TritiumError, match="grid must be 1 to 3 positive integers"):
        grid_dims(grid, "k")
