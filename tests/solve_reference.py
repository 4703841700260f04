"""An independent, plain minimax for checking the solver (tests/search/test_solve.py).

It shares nothing with :mod:`hexarena.search.alphabeta`: no symmetry,
no hashing, no window; recursion over the game's ``legal`` / ``apply``
kernels with a dict of exact values keyed by the position's own entries
(the cells and the fields that decide what can happen next).

``outcome`` (win / draw / loss for the player to move) stops looking at a
position's moves once one wins, which cannot change the value (nothing
beats a win).  ``perfect`` also finds the length of the game: the winner
takes the fastest win, the loser the slowest loss; it looks at every move.
"""

from __future__ import annotations

import random
import sys

import numpy as np

from hexarena.games import hex_pushpin, projective_hex
from hexarena.games.base import DRAW, PLY, TO_MOVE, WINNER

sys.setrecursionlimit(10_000)


def position_id(game, s: np.ndarray) -> bytes:
    """What decides the rest of the game: the cells and a few header fields."""
    n = game.topology.ncells
    if game.name == "projective-hex":
        board, extra = s[projective_hex.BOARD:projective_hex.BOARD + n], (s[projective_hex.COLOR0], s[PLY] == 1)
    else:
        board, extra = s[hex_pushpin.BOARD:hex_pushpin.BOARD + n], (s[hex_pushpin.PASSES],)
    return bytes([int(s[TO_MOVE]) + 1, *map(int, extra)]) + board.astype(np.int8).tobytes()


class Reference:
    """Memoised minimax over one game's kernels."""

    def __init__(self, game) -> None:
        self.game = game
        self.legal, self.apply, self.t = game.kernels.legal, game.kernels.apply, game.tables
        self.outcomes: dict[bytes, int] = {}
        self.perfects: dict[bytes, tuple[int, int]] = {}

    def children(self, s: np.ndarray):
        """(action, position after it) for every legal move."""
        buf = np.empty(self.game.num_actions, dtype=np.int32)
        for a in buf[:self.legal(s, self.t, buf)].copy():
            c = s.copy()
            self.apply(c, self.t, a)
            yield int(a), c

    def result_of(self, child: np.ndarray, mover: int, outcome) -> int:
        """The child's value for ``mover``: 1 win, 0 draw, -1 loss."""
        if child[WINNER] >= 0:
            w = child[WINNER]
            return 0 if w == DRAW else 1 if w == mover else -1
        v = outcome(child)
        return v if child[TO_MOVE] == mover else -v

    def outcome(self, s: np.ndarray) -> int:
        """1, 0 or -1: the best the player to move can force."""
        k = position_id(self.game, s)
        if k not in self.outcomes:
            best = -1
            for _, c in self.children(s):
                best = max(best, self.result_of(c, s[TO_MOVE], self.outcome))
                if best == 1:
                    break
            self.outcomes[k] = best
        return self.outcomes[k]

    def perfect(self, s: np.ndarray) -> tuple[int, int]:
        """(outcome for the player to move, plies to the end) with perfect play."""
        k = position_id(self.game, s)
        if k not in self.perfects:
            best = None
            for _, c in self.children(s):
                r, d = self.child_perfect(c, s[TO_MOVE])
                rank = (r, -d if r > 0 else d if r < 0 else 0)
                if best is None or rank > best[0]:
                    best = rank, (r, d)
            self.perfects[k] = best[1]
        return self.perfects[k]

    def child_perfect(self, child: np.ndarray, mover: int) -> tuple[int, int]:
        """A child's (outcome for ``mover``, plies to the end counting the move to it)."""
        if child[WINNER] >= 0:
            w = child[WINNER]
            return (0 if w == DRAW else 1 if w == mover else -1), 1
        r, d = self.perfect(child)
        return (r if child[TO_MOVE] == mover else -r), d + 1


def midgame(game, stones: int, seed: int):
    """A position after ``stones`` random placements (no passes), not over."""
    rng = random.Random(seed)
    while True:
        s = game.new_state()
        while len(s.history) < stones and not s.is_over():
            s.play(rng.choice([m for m in s.legal_moves() if m != "pass"]))
        if not s.is_over():
            return s
