"""Observation tensors for learning agents, from any game's ``planes``.

A game gives ``game.planes(s, player)``: ``float32[len(PLANES), ncells]``,
one value per cell, seen by ``player`` ("own" means ``player``'s).  This
module lays them out in two forms:

- ``"grid"``: ``float32[C, H, W]`` with ``C = len(PLANES) + 1``.  Cell
  ``(x, r)`` (doubled x, row) sits at row ``r`` and *axial column*
  ``q = (x - r) // 2`` (shifted to start at 0), so the six hex neighbours
  of a grid point are always the same six of its 3x3 neighbourhood: E/W
  ``(0, ±1)``, SE/NW ``(±1, 0)``, SW ``(+1, -1)``, NE ``(-1, +1)``.  A
  hexhex board of base n becomes a ``(2n-1) x (2n-1)`` rhombus with two
  corners cut off.  The last plane is the on-board mask (1 on cells).
  Glued links (Projective Hex's seams) are not grid neighbours: the graph
  form has them.
- ``"graph"``: node features ``float32[ncells, C]`` (the same planes,
  cell-major; the mask column is all ones) and ``int32[2, E]`` directed
  edges, both directions of every link of the topology's neighbour table.

>>> import hexarena
>>> state = hexarena.load("projective-hex", size=2, opening="none").new_state()
>>> _ = state.play("a1")
>>> obs = observation(state)          # seen by the player to move (player 1)
>>> obs.shape
(5, 4, 4)
>>> int(obs[1].sum()), int(obs[0].sum()), int(obs[-1].sum())   # opponent's stones, own, cells
(1, 0, 12)
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from .board import Topology

if TYPE_CHECKING:
    from .games.base import Game, State

FORMS = ("grid", "graph")


@lru_cache(maxsize=32)
def grid_index(topo: Topology) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """Each cell's (grid row, grid column) and the grid's (H, W).

    >>> from hexarena.board import hexhex
    >>> rows, cols, shape = grid_index(hexhex(2))
    >>> shape, rows.tolist(), cols.tolist()
    ((3, 3), [0, 0, 1, 1, 1, 2, 2], [1, 2, 0, 1, 2, 0, 1])
    """
    x, r = topo.xy[:, 0].astype(np.int64), topo.xy[:, 1].astype(np.int64)
    diff = x - r
    if np.any((diff - diff[0]) % 2):
        raise ValueError(f"{topo.kind}: cells' doubled coordinates mix parities; use form='graph'")
    rows = r - r.min()
    cols = (diff - diff.min()) // 2
    rows.flags.writeable = cols.flags.writeable = False  # cached: shared by every call
    return rows, cols, (int(rows.max()) + 1, int(cols.max()) + 1)


@lru_cache(maxsize=32)
def grid_points(topo: Topology) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's point in the flattened ``H * W`` grid (``int64[ncells]``)
    and the on-board mask plane (``float32[H, W]``: 1 on cells).

    >>> from hexarena.board import hexhex
    >>> points, mask = grid_points(hexhex(2))
    >>> points.tolist(), mask.tolist()
    ([1, 2, 3, 4, 5, 6, 7], [[0.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 0.0]])
    """
    rows, cols, (h, w) = grid_index(topo)
    points = rows * w + cols
    mask = np.zeros((h, w), dtype=np.float32)
    mask[rows, cols] = 1.0
    points.flags.writeable = mask.flags.writeable = False  # cached: shared by every call
    return points, mask


@lru_cache(maxsize=32)
def edges(topo: Topology) -> np.ndarray:
    """``int32[2, E]``: (from, to) of every directed link, sorted.

    >>> from hexarena.board import hexhex
    >>> edges(hexhex(2)).shape     # 12 links of the 7-cell board, both ways
    (2, 24)
    """
    src = np.repeat(np.arange(topo.ncells), topo.nbr.shape[1])
    dst = topo.nbr.reshape(-1)
    pairs = np.unique(np.stack([src[dst >= 0], dst[dst >= 0]], axis=1), axis=0)
    out = np.ascontiguousarray(pairs.T, dtype=np.int32)
    out.flags.writeable = False  # cached: shared by every call
    return out


def default_form(game: Game) -> str:
    """The form the interop environments use for ``game``: its
    ``Game.OBSERVATION_FORM``, "grid" unless the game sets "graph" (boards a
    grid fits badly, such as an open plane of tiles).

    >>> import hexarena
    >>> default_form(hexarena.load("projective-hex"))
    'grid'
    """
    form = game.OBSERVATION_FORM
    if form not in FORMS:
        raise ValueError(f"{game.name}: OBSERVATION_FORM {form!r} is not one of {', '.join(FORMS)}")
    return form


def observation_shape(game, form: str = "grid") -> tuple[int, ...]:
    """The shape of :func:`observation`'s tensor (node features for "graph")."""
    channels = len(game.PLANES) + 1
    if form == "grid":
        return (channels, *grid_index(game.topology)[2])
    if form == "graph":
        return (game.topology.ncells, channels)
    return _bad_form(form)


def observation(state: State, player: int | None = None, form: str = "grid"):
    """The position seen by ``player`` (default: the player to move, or
    player 0 once the game is over).

    ``form="grid"``: ``float32[C, H, W]``; ``form="graph"``: the tuple
    ``(float32[ncells, C], int32[2, E])``.  See the module docstring.
    """
    if player is None:
        player = state.to_move if state.to_move is not None else 0
    return observe_array(state.game, state.array, player, form)


def observe_array(game: Game, s: np.ndarray, player: int, form: str = "grid"):
    """:func:`observation` of the raw position ``s`` of ``game`` (for agents
    that keep arrays, not States)."""
    if player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {player!r}")
    topo, channels = game.topology, len(game.PLANES) + 1
    if form == "graph":
        features = np.ones((topo.ncells, channels), dtype=np.float32)
        features[:, :-1] = game.planes(s, player).T
        return features, edges(topo)
    if form != "grid":
        _bad_form(form)
    points, mask = grid_points(topo)
    out = np.zeros((channels, *mask.shape), dtype=np.float32)
    game.write_planes(s, player, out[:-1].reshape(channels - 1, -1), points)  # a view: written in place
    out[-1] = mask
    return out


def _bad_form(form: str):
    raise ValueError(f"unknown observation form {form!r}; forms: {', '.join(FORMS)}")
