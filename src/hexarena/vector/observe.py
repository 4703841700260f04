"""Many positions of one game observed at once, in numba: the grid form of
:func:`hexarena.observe.observation` for each row of an ``int32[k, S]``
array, written by the game's ``planes`` kernel inside one compiled loop
(:mod:`hexarena.vector.loops`).  :class:`hexarena.vector.VectorGame`
observes its games with it, and the PUCT search its leaves
(:mod:`hexarena.ai.puct`).

>>> import hexarena
>>> state = hexarena.load("projective-hex", size=2, opening="none").new_state()
>>> _ = state.play("a1")
>>> batch = observe_positions(state.game, np.stack([state.array, state.array]), [0, 1])
>>> batch.shape, int(batch[0, 0].sum()), int(batch[1, 1].sum())   # player 0's stone, own then the opponent's
((2, 5, 4, 4), 1, 1)
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ..board import Topology
from ..games.base import TO_MOVE, Game
from ..observe import grid_points, observation_shape
from .loops import loops


@lru_cache(maxsize=32)
def grid_arrays(topo: Topology) -> tuple[np.ndarray, np.ndarray]:
    """:func:`hexarena.observe.grid_points` as the loops read them: each
    cell's point (``int64[ncells]``) and the flattened mask (``float32[H * W]``)."""
    points, mask = grid_points(topo)
    return np.ascontiguousarray(points), mask.ravel().copy()


def observe_positions(game: Game, positions: np.ndarray, players: Any = None,
                      out: np.ndarray | None = None) -> np.ndarray:
    """``float32[k, C, H, W]``: each position of ``game`` (``int32[k, S]``,
    rows as ``State.array`` holds them: the compiled planes trust their
    contents) as ``observation(state, player)`` gives it, seen by ``players``
    (an int for all, one per position, or by default each position's player
    to move; player 0 in a game over).  ``out``: an array of that shape and
    dtype to write into."""
    positions = np.ascontiguousarray(positions, dtype=np.int32)
    if positions.ndim != 2 or positions.shape[1] != game.state_size:
        raise ValueError(f"positions are int32[k, {game.state_size}], got shape {positions.shape}")
    k = positions.shape[0]
    if players is None:
        players = np.maximum(positions[:, TO_MOVE], 0)
    viewers = np.broadcast_to(np.asarray(players), (k,))
    if viewers.dtype == np.bool_ or not np.issubdtype(viewers.dtype, np.integer) or \
            not np.isin(viewers, (0, 1)).all():
        raise ValueError(f"players are 0 or 1 (one for all, or one per position), got {players!r}")
    shape = (k, *observation_shape(game))
    if out is None:
        out = np.empty(shape, dtype=np.float32)
    points, mask = grid_arrays(game.topology)
    loops(game.kernels).observe(positions, game.tables, np.ascontiguousarray(viewers, dtype=np.int64),
                                flat(out, shape), points, mask)
    return out


def flat(out: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """``out`` (``float32[shape]``: ``[k, C, H, W]``, C-contiguous, checked) as the loops write it, ``[k, C, H*W]``."""
    if not isinstance(out, np.ndarray) or out.shape != shape or out.dtype != np.float32 or \
            not out.flags.c_contiguous or not out.flags.writeable:
        got = f"{out.dtype}{list(out.shape)}" if isinstance(out, np.ndarray) else type(out).__name__
        raise ValueError(f"out must be a writable C-contiguous float32{list(shape)}, got {got}")
    k, c, h, w = shape
    return out.reshape(k, c, h * w)
