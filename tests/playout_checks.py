"""The check every game with a ``recorded_playout`` kernel passes: its
recorded moves are the game, played through the facade."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import hexarena
from hexarena.games.base import PLY, State


def check_recorded_playout(state: State, seed: int, length: int,
                           same: Callable[[np.ndarray, np.ndarray], bool] = np.array_equal):
    """Run ``recorded_playout`` from ``state`` (numba seeded with ``seed``,
    room for ``length`` moves) and check that its moves are legal in order
    with their movers and lead ``state`` to the playout's final array
    (compared by ``same``), that it counts the plies it played, and that
    ``playout`` with the same seed reaches the same array.  Returns the
    count, the recorded actions and the final array."""
    game = state.game
    start = state.array.copy()
    arr, plain = start.copy(), start.copy()
    actions, movers = np.full(length, -1, np.int32), np.full(length, -1, np.int32)
    hexarena.kernels.seed(seed)
    count = game.kernels.recorded_playout(arr, game.tables, actions, movers)
    assert count == arr[PLY] - start[PLY]
    for a, p in zip(actions[:count], movers[:count], strict=True):
        assert state.to_move == p
        state.apply(int(a))
    assert state.is_over() and same(state.array, arr)
    hexarena.kernels.seed(seed)
    game.kernels.playout(plain, game.tables)
    assert np.array_equal(plain, arr)
    return count, actions, arr
