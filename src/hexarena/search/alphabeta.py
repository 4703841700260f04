"""The solver's search: alpha-beta negamax over a game's kernels with a
transposition table keyed by symmetry-canonical position hashes.

Scores are for the player to move.  In *distance* mode a win ``d`` plies
after the search's root scores ``WIN - d`` (a loss ``-(WIN - d)``, a draw
0), so the search prefers the fastest win and the longest defence; the
table keeps scores relative to the stored position (``WIN - plies from
there``) and converts on the way in and out, as chess programs do with mate
scores.  In *value* mode every win scores ``WIN`` (no distances): with the
window (-WIN, WIN) the first win found cuts, which proves values much
faster.

The search runs on explicit stacks (one row per ply: the position, its
moves, the window, the best so far), never recursion.  A turn of several
steps (the same player moving again, as in cut-and-choose's three opening
stones) keeps the sign; only a change of mover negates.  The solvable games
(``Game.SOLVABLE``) are acyclic, so a position's value never depends on the
path to it and the table is exact.

The loop is ``alphabeta`` in ``template.py``, specialised to a game's
kernels (:func:`hexarena.search.loops.compiled`) so that numba caches it;
its table and score conversions live here.  :class:`hexarena.search.solve.Solver`
runs it.
"""

from __future__ import annotations

import numpy as np

from ..kernels import DRAW, njit

WIN = 1 << 20  # a win's score before its distance is taken off
INF = 1 << 30  # beyond every score: an open window's bound
# stats: nodes entered, table hits that ended a node, aborted (1 when the node budget ran out)
NODES, HITS, ABORTED = range(3)


@njit
def to_table(v, h, distance):
    """A score at ply ``h`` of the search as the position's own score (for the table)."""
    if not distance or v >= INF or v <= -INF:
        return v
    if v > WIN // 2:
        return v + h
    if v < -WIN // 2:
        return v - h
    return v


@njit
def from_table(v, h, distance):
    """The inverse of :func:`to_table`."""
    if not distance or v >= INF or v <= -INF:
        return v
    if v > WIN // 2:
        return v - h
    if v < -WIN // 2:
        return v + h
    return v


@njit
def terminal_score(winner, mover, ply, distance):
    """The score for ``mover`` of a game that ended (``winner``) at ``ply``."""
    if winner == DRAW:
        return 0
    best = WIN - ply if distance else WIN
    return best if winner == mover else -best


class Table:
    """The transposition table: ``2**bits`` slots of (key, lower bound,
    upper bound, best move in the canonical frame), always replaced."""

    def __init__(self, bits: int) -> None:
        size = 1 << bits
        self.key = np.zeros(size, dtype=np.uint64)
        self.lo = np.zeros(size, dtype=np.int32)
        self.hi = np.zeros(size, dtype=np.int32)
        self.move = np.zeros(size, dtype=np.int32)
        self.clear()

    def clear(self) -> None:
        self.key[:] = 0
        self.lo[:] = -INF
        self.hi[:] = INF
        self.move[:] = -1

    @property
    def arrays(self) -> tuple:
        return self.key, self.lo, self.hi, self.move

    def used(self) -> int:
        return int(np.count_nonzero(self.key))
