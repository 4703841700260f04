"""Witnesses: proven positions deep in a df-pn table, found by random walks.

The table keys positions by hash, so its proofs cannot be listed; but
walking down from a tracked position, looking every child up, finds the
positions it holds.  Those it holds as proven (enough stones in, so that a
plain search can check them) are kept with their moves, and the length of
the game where an alpha-beta search finds it within a small node budget.
The slow tests re-prove them with a plain minimax: a check of the table's
proofs, not only of the run's top-level values.
"""

from __future__ import annotations

import random

import numpy as np

from ..games.base import TO_MOVE, WINNER
from .dfpn import find
from .frontier import Frontier
from .proven import UNKNOWN_PLIES, Proven
from .solve import Solver

LENGTH_NODES = 200_000  # alpha-beta nodes for one witness's length


class Witnesses:
    """Random walks through a df-pn table (``table``, keys salted with ``salt``,
    proofs for player ``attacker``) from the frontier's positions."""

    def __init__(self, frontier: Frontier, table: tuple, salt: int, attacker: int, min_stones: int,
                 seed: int = 0) -> None:
        self.frontier, self.table, self.salt, self.attacker = frontier, table, salt, attacker
        self.min_stones = min_stones
        self.rng = random.Random(seed)
        self.lengths = Solver(frontier.game, table_bits=18)

    def settled(self, key: int) -> int | None:
        """The table's value of a position for ``attacker`` (1 proven, -1 disproven), if settled."""
        slot = find(self.table, np.uint64(key ^ self.salt))
        if slot < 0:
            return None
        pn, dn = int(self.table[1][slot]), int(self.table[2][slot])
        return 1 if pn == 0 else -1 if dn == 0 else None

    def walk(self, proven: Proven) -> int:
        """One walk from a random first move down through the table's
        entries (a random child the table holds, each step); adds the proven
        positions met (``min_stones`` in or more) to ``proven`` and returns
        how many were new."""
        f = self.frontier
        node = self.rng.choice(f.levels[1])
        s, moves, added = f.array(node.key), list(node.moves), 0
        while True:
            steps = [(a, child) for a in f.legal(s) if (child := f.play(s, a))[WINNER] < 0
                     and find(self.table, np.uint64(f.keys.key(child) ^ self.salt)) >= 0]
            if not steps:
                return added
            a, s = self.rng.choice(steps)
            moves.append(int(a))
            key = f.keys.key(s)
            value = self.settled(key)
            if value is not None and len(moves) >= self.min_stones and key not in proven:
                result = value if s[TO_MOVE] == self.attacker else -value
                proven.add(key, result, tuple(moves), self.length(s, result))
                added += 1

    def length(self, s: np.ndarray, result: int) -> int:
        """Plies to the end with perfect play, if the alpha-beta finds them
        within LENGTH_NODES; its result must be ``result``."""
        found = self.lengths.exact(s, LENGTH_NODES)
        if found is None:
            return UNKNOWN_PLIES
        if found[0] != result:
            raise RuntimeError(f"df-pn and alpha-beta disagree on {s.tolist()}: {result} and {found[0]}")
        return UNKNOWN_PLIES if found[1] is None else found[1]
