"""A plain memoised minimax for Projective Hex, compiled with numba: fast
enough to value thousands of positions 12 to 20 stones into the 27-cell
board, for checking the solvers' pruning rules (tests/search/test_solve_rules.py)
and the long run's proven positions (tests/search/test_solver_run.py).

Like :mod:`tests.solve_reference` it shares nothing with the solvers but the
rules kernels: no symmetry, no Zobrist hashing, no pruning, no move
ordering.  It walks ``projective_hex.legal`` / ``apply`` depth first on an
explicit stack and remembers each position's outcome (1 or -1 for the
player to move; Projective Hex has no draws) in an open-addressing table
whose key is the position verbatim: the cells in base 3 and the player to
move.  A position's moves are looked at until one wins (nothing beats a
win).  Colours must be settled (opening none, or after the swap or choice).
"""

from __future__ import annotations

import numba
import numpy as np

from hexarena.games.base import TO_MOVE, WINNER
from hexarena.games.projective_hex import BOARD, COLOR0, apply, legal

BITS = 22  # table slots: 4M (36 MB), cleared when 3/4 full
ENTER, NEXT, TAKE, FINISH, RETURN = range(5)


@numba.njit(cache=True)
def position_key(s, ncells):
    """The cells in base 3, then the player to move (never 0)."""
    k = np.int64(0)
    for c in range(ncells):
        k = k * 3 + s[BOARD + c]
    return k * 2 + s[TO_MOVE] + 1


@numba.njit(cache=True)
def slot_of(keys, k):
    """The slot holding ``k``, or the empty slot where it would go."""
    mask = keys.shape[0] - 1
    i = np.int64((np.uint64(k) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - BITS)) & mask
    while keys[i] != 0 and keys[i] != k:
        i = (i + 1) & mask
    return i


@numba.njit(cache=True)
def outcome(root, t, keys, values, stats):
    """1 if the player to move in ``root`` (not over) wins, else -1;
    ``stats[0]`` counts the positions stored."""
    n = t.ncells
    D = n + 2
    S = np.empty((D, root.shape[0]), dtype=root.dtype)
    moves = np.empty((D, n + 3), dtype=np.int32)
    count = np.zeros(D, dtype=np.int64)
    nxt = np.zeros(D, dtype=np.int64)
    best = np.zeros(D, dtype=np.int64)
    S[0, :] = root
    h, state, v = 0, ENTER, 0
    while True:
        if state == ENTER:
            i = slot_of(keys, position_key(S[h], n))
            if keys[i] != 0:
                v, state = values[i], RETURN
                continue
            count[h], nxt[h], best[h] = legal(S[h], t, moves[h]), 0, -1
            state = NEXT
        elif state == NEXT:
            if nxt[h] >= count[h] or best[h] == 1:
                state = FINISH
                continue
            S[h + 1, :] = S[h]
            apply(S[h + 1], t, moves[h, nxt[h]])
            nxt[h] += 1
            if S[h + 1, WINNER] >= 0:
                v, state = (1 if S[h + 1, WINNER] == S[h, TO_MOVE] else -1), TAKE
            else:
                h, state = h + 1, ENTER
        elif state == TAKE:
            best[h] = max(best[h], v)
            state = NEXT
        elif state == FINISH:
            k = position_key(S[h], n)
            i = slot_of(keys, k)
            keys[i], values[i] = k, best[h]
            stats[0] += 1
            v, state = best[h], RETURN
        else:  # RETURN: v is node h's value for its player to move
            if h == 0:
                return v
            if S[h, TO_MOVE] != S[h - 1, TO_MOVE]:
                v = -v
            h, state = h - 1, TAKE


class PlainMinimax:
    """One game's plain minimax with its table (kept between calls)."""

    def __init__(self, game) -> None:
        self.game = game
        self.keys = np.zeros(1 << BITS, dtype=np.int64)
        self.values = np.zeros(1 << BITS, dtype=np.int8)
        self.stats = np.zeros(1, dtype=np.int64)

    def outcome(self, s: np.ndarray) -> int:
        """1 or -1 for the player to move in ``s`` (a position not over, colours settled)."""
        assert s[WINNER] < 0 and s[COLOR0] != 0
        if self.stats[0] > 3 * len(self.keys) // 4:
            self.keys[:] = 0
            self.stats[0] = 0
        return int(outcome(np.array(s, dtype=np.int32), self.game.tables, self.keys, self.values, self.stats))


def with_stone(game, s: np.ndarray, cell: int, colour: int) -> np.ndarray:
    """``s`` with a ``colour`` stone (1 black, 2 white) on the empty ``cell`` and the same player to move."""
    x = np.array(s, dtype=np.int32)
    mover = x[TO_MOVE]
    x[TO_MOVE] = 0 if x[COLOR0] == colour else 1  # the player whose colour it is places it
    apply(x, game.tables, cell)
    x[TO_MOVE] = mover
    return x


def image(game, s: np.ndarray, perm: np.ndarray) -> np.ndarray:
    """The position ``s`` with every stone moved from cell c to ``perm[c]``
    (its groups built again by the rules), the same player to move."""
    x = game.new_state().array.copy()
    x[COLOR0] = s[COLOR0]
    for c in range(game.topology.ncells):
        if s[BOARD + c]:
            x = with_stone(game, x, int(perm[c]), int(s[BOARD + c]))
    x[TO_MOVE] = s[TO_MOVE]
    return x
