"""Shared numba helpers: the ``njit`` decorator every rules kernel uses,
seeding of numba's random generator, and small array utilities.

Set ``NUMBA_DISABLE_JIT=1`` to run every kernel as plain Python.
"""

from __future__ import annotations

import numba
import numpy as np

njit = numba.njit(cache=True, nogil=True)
# Small helpers inlined into the loops that call them (a numba call passing
# the tables can cost more than the helper's work).
inline = numba.njit(cache=True, nogil=True, inline="always")


@njit
def seed(value: int) -> None:
    """Seed numba's generator (separate from numpy's in compiled code)."""
    np.random.seed(value)


@njit
def shuffle_prefix(arr: np.ndarray, n: int) -> None:
    """Fisher-Yates shuffle of ``arr[:n]`` in place."""
    for i in range(n - 1, 0, -1):
        j = int(np.random.random() * (i + 1))
        arr[i], arr[j] = arr[j], arr[i]
