"""The exact searches' loops (``template.py``) specialised to a game, and what they share.

Both searches run on explicit stacks, a row per ply (:func:`ply_stacks`),
over the keys of :class:`hexarena.search.positions.PositionKeys`
(:func:`search_keys`).  Their loops call the game's kernels ``legal`` and
``apply``, and the df-pn a pruning step ``prune`` where it expands a node,
so they are written once as a template and specialised per game as the
MCTS is (:mod:`hexarena.specialise`): numba compiles the kernels in as
globals and caches the result on disk.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType

import numpy as np

from ..kernels import njit
from ..specialise import specialised, where
from .positions import PositionKeys

KERNELS_LINE = "legal = apply = prune = prune_work = None"
MOVER_WINS, MOVER_LOSES = -1, -2  # a pruning step's verdicts (else the count of moves it kept)


def search_keys(keys: PositionKeys) -> tuple:
    """The searches' ``keys`` argument: (offset, cells, fields, perms, action
    maps, their inverses, zcell, zfield)."""
    inverse = np.zeros_like(keys.actions)
    for j, row in enumerate(keys.actions):
        inverse[j, row] = np.arange(row.shape[0], dtype=np.int32)
    return keys.offset, keys.cells, keys.fields, keys.perms, keys.actions, inverse, keys.zcell, keys.zfield


def max_plies(game) -> int:
    """More plies than any game of ``game`` lasts (passes come between
    stones at most): the searches' stack depth."""
    return 4 * game.topology.ncells + 8


@njit
def ply_stacks(root, max_ply, num_actions):
    """The stacks both searches start with, a row per ply (``max_ply + 2``):
    the positions (the first is ``root``), their moves, their move counts
    and their position keys."""
    depth = max_ply + 2
    S = np.empty((depth, root.shape[0]), dtype=root.dtype)
    S[0, :] = root
    moves = np.empty((depth, num_actions), dtype=np.int32)
    return S, moves, np.zeros(depth, dtype=np.int64), np.zeros(depth, dtype=np.uint64)


def compiled(kernels, prune: tuple[Callable, Callable] | None = None) -> ModuleType:
    """The template bound to ``kernels``' ``legal`` and ``apply`` and, for the
    df-pn, to ``prune``: a pair of module-level jitted functions
    ``(prune(S, h, t, moves, n, offset, cells, threats, rings, work) -> kept count,
    MOVER_WINS or MOVER_LOSES; prune_work(cells) -> work)``; by default the
    template's ``forced_blocks`` (the forced blocks and dead cells)."""
    roles = (where(kernels.legal), where(kernels.apply)) + (() if prune is None else tuple(map(where, prune)))
    return _module(roles)


@cache
def _module(roles: tuple) -> ModuleType:
    names = ("legal", "apply", "prune", "prune_work")[:len(roles)]
    extra = [] if len(roles) == 4 else ["prune, prune_work = forced_blocks, no_work"]
    stem = "exact_" + roles[0][0].rsplit(".", 1)[-1] + ("_" + roles[2][1] if len(roles) == 4 else "")
    return specialised(Path(__file__).with_name("template.py"), KERNELS_LINE, list(zip(names, roles, strict=True)),
                       extra, kind="search", stem=stem,
                       depends=["hexarena.search.dfpn", "hexarena.search.alphabeta", __name__])
