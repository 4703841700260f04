"""df-pn for Projective Hex with virtual connections (:mod:`hexarena.search.virtual`).

The search of :mod:`hexarena.search.dfpn` (same loop, table, keys,
thresholds and statistics; its docstring says how it works) with its own
pruning where a node is expanded, once the colours are settled: instead of
the one-move forced blocks, the virtual connections decide.  A mover with a
virtual win or a threat has won, a mover facing the opponent's virtual win
has lost, and a mover facing the opponent's threats plays only inside the
intersection of their carriers (none left: lost); then dead cells are
dropped as before.  The forced blocks are the one-cell case of the threats.
The loop is specialised with this pruning (:func:`hexarena.search.loops.compiled`),
so numba caches it on disk: a new process loads it in about a second instead
of compiling for half a minute (the AI's proven moves,
:mod:`hexarena.search.solutions`, start it).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..games.base import Game
from ..kernels import TO_MOVE, njit
from .dfpn import DfpnSolver, drop_dead_cells
from .loops import compiled
from .positions import PositionKeys
from .virtual import make_work, virtual_moves


@njit
def vc_prune(S, h, t, moves, n, offset, cells, threats, rings, work):
    """The df-pn's pruning step (:func:`hexarena.search.loops.compiled`) by
    the virtual connections, then the dead cells of ``rings``."""
    s = S[h]
    if s[threats] == 0:
        return n
    scratch, carrier, region = work
    n = virtual_moves(s[offset:offset + cells], s[threats], s[TO_MOVE], t.nbr, t.seam, moves[h], n, scratch, carrier,
                      region)
    if n < 0 or rings.shape[0] == 0:
        return n
    return drop_dead_cells(s, offset, rings, moves[h], n)


@njit
def vc_work(cells):
    """:func:`vc_prune`'s scratch: the virtual connections' arrays, a carrier and a region."""
    return make_work(cells), np.zeros(cells, dtype=np.bool_), np.zeros(cells, dtype=np.bool_)


class VcDfpn(DfpnSolver):
    """:class:`hexarena.search.dfpn.DfpnSolver` for Projective Hex with
    the virtual connections' pruning."""

    def __init__(self, game: Game, table_bits: int = 22, keys: PositionKeys | None = None,
                 dead_cells: bool = True) -> None:
        if game.name != "projective-hex":
            raise ValueError(f"virtual connections are Projective Hex's, not {game.name!r}'s")
        if (game.dead_cell_rings()[:, 0] < 0).any():  # the strategies' soundness rests on it (solver.virtual)
            raise ValueError("virtual connections need every cell's neighbours to make a ring (sizes 2 to 4)")
        super().__init__(game, table_bits, keys, dead_cells)

    def _search(self, game: Game) -> Callable:
        return compiled(game.kernels, (vc_prune, vc_work)).dfpn
