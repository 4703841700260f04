"""The Iqishiqi family's shared mechanic: a neutral piece (Iqishiqi's ball,
Hex Pushpin's pin, Push and Pull's markers) that moves straight along hex
lines over empty cells, and the family's direction notation.

Kernels index ``rays`` (:func:`hexarena.board.rays`): ``rays[c, d, k]`` is
the (k+1)-th cell going straight from ``c`` in direction slot ``d``, -1 past
the edge.  ``board`` is any int array over the cells where 0 means empty.

>>> from hexarena.board import hexhex, rays
>>> import numpy as np
>>> t = hexhex(3); r = rays(t); board = np.zeros(t.ncells, np.int32)
>>> board[t.index("c5")] = 9
>>> t.name(first_along(board, r, t.index("c1"), 0)), empty_run(board, r, t.index("c1"), 0)
('c5', 3)
"""

from __future__ import annotations

from ..board import DIRECTIONS
from ..kernels import hot

OPPOSITE = tuple((d + 3) % 6 for d in range(6))


@hot
def first_along(board, rays, c, d):
    """The first occupied cell going straight from ``c`` in direction ``d``, or -1."""
    for k in range(rays.shape[2]):
        m = rays[c, d, k]
        if m < 0 or board[m] != 0:
            return m
    return -1


@hot
def empty_run(board, rays, c, d):
    """How many empty cells follow ``c`` in direction ``d`` before an occupied
    cell or the board's edge."""
    k = 0
    while k < rays.shape[2]:
        m = rays[c, d, k]
        if m < 0 or board[m] != 0:
            break
        k += 1
    return k


def direction_index(text: str) -> int:
    """The slot of a direction name (``e``, ``se``, ``sw``, ``w``, ``nw``, ``ne``);
    ValueError listing the names otherwise."""
    try:
        return DIRECTIONS.index(text.lower())
    except ValueError:
        raise ValueError(f"{text!r} is not a direction; directions: {', '.join(DIRECTIONS)}") from None
