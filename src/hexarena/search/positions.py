"""Position keys that identify a position up to the board's symmetries.

A solver's transposition table and the solution store
(:mod:`hexarena.search.solutions`) both need one number per position that
(a) ignores what does not change the game's future (move counters, the
union-find layout of Projective Hex's groups) and (b) is the same for
positions that a symmetry of the board maps onto each other.

`Game.position_fields` (:func:`key_spec`) says which entries of the state array matter:
the cells (``cells`` entries from ``offset``) and a few header fields.
:func:`symmetries` finds the board's automorphisms (cell permutations that
keep the neighbour graph) and keeps those that also keep the game's rules
(``Game.keeps_rules``: the seam parity of every cycle on the projective
plane, the straight lines a pin moves on).
:func:`canonical_key` hashes a position (Zobrist) under every kept
symmetry and returns the smallest hash with the symmetry that gave it.

>>> import hexarena
>>> g = hexarena.load("hex-pushpin", size=3)
>>> keys = PositionKeys(g)
>>> len(keys.perms)
12
>>> a, b = g.new_state(), g.new_state()
>>> _ = a.play("a3"); _ = b.play("g5")  # two corners: one position up to symmetry
>>> keys.key(a.array) == keys.key(b.array)
True
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..games.base import Game
from ..kernels import njit

ZOBRIST_SEED = 20261124  # fixed: the shipped solutions are keyed by hashes of these numbers
MAX_FIELD = 64  # header fields are hashed with values clipped into 0..MAX_FIELD-1


class KeySpec(NamedTuple):
    """Which state entries make a position: ``cells`` cell values from ``offset``, and ``fields``."""

    offset: int
    cells: int
    fields: tuple[int, ...]


def key_spec(game: Game) -> KeySpec:
    """The entries that identify a position of ``game`` (a solvable game); ValueError otherwise."""
    return KeySpec(*game.position_fields())


def automorphisms(nbr: np.ndarray) -> list[np.ndarray]:
    """Every permutation ``p`` of the cells with ``m`` a neighbour of ``c`` iff
    ``p[m]`` is one of ``p[c]`` (backtracking in breadth-first order)."""
    n = nbr.shape[0]
    near = [frozenset(int(m) for m in nbr[c] if m >= 0) for c in range(n)]
    order, seen = [0], {0}
    for c in order:
        for m in sorted(near[c]):
            if m not in seen:
                seen.add(m)
                order.append(m)
    if len(order) != n:
        raise ValueError("the board is not connected")
    found: list[np.ndarray] = []
    image = np.full(n, -1, dtype=np.int64)
    used = np.zeros(n, dtype=bool)

    def fits(c: int, v: int) -> bool:
        if used[v] or len(near[v]) != len(near[c]):
            return False
        return all((image[m] in near[v]) == (m in near[c]) for m in order if image[m] >= 0 and m != c)

    def extend(i: int) -> None:
        if i == n:
            found.append(image.copy())
            return
        c = order[i]
        placed = [image[m] for m in near[c] if image[m] >= 0]
        candidates = near[placed[0]] if placed else range(n)
        for v in candidates:
            if fits(c, v):
                image[c], used[v] = v, True
                extend(i + 1)
                image[c], used[v] = -1, False

    extend(0)
    return found


def symmetries(game: Game) -> np.ndarray:
    """int64[k, ncells]: the board automorphisms that keep ``game``'s rules and
    its start (the identity first)."""
    topo = game.topology
    perms = automorphisms(topo.nbr)
    perms = [p for p in perms if game.keeps_rules(p)]
    ident = np.arange(topo.ncells)
    perms.sort(key=lambda p: not np.array_equal(p, ident))
    return np.array(perms, dtype=np.int64)


def action_maps(game: Game, perms: np.ndarray) -> np.ndarray:
    """int32[k, num_actions]: each action seen through each symmetry (a cell's
    placement or push goes to the image cell; other actions stay)."""
    k, n = perms.shape
    out = np.tile(np.arange(game.num_actions, dtype=np.int32), (k, 1))
    width = game.width  # actions per cell (Hex Pushpin: a placement, then pushes)
    for j in range(k):
        for a in range(n * width):
            out[j, a] = perms[j, a // width] * width + a % width
    return out


@njit
def canonical_key(s, offset, cells, fields, perms, zcell, zfield):
    """(smallest Zobrist hash of ``s`` under ``perms``, the index of a symmetry giving it)."""
    base = np.uint64(0)
    for j in range(fields.shape[0]):
        v = min(max(s[fields[j]] + 1, 0), zfield.shape[1] - 1)
        base ^= zfield[j, v]
    best, arg = np.uint64(0), 0
    for k in range(perms.shape[0]):
        h = base
        for c in range(cells):
            v = s[offset + c]
            if v != 0:
                h ^= zcell[perms[k, c], v]
        if k == 0 or h < best:
            best, arg = h, k
    return best, arg


class PositionKeys:
    """A game's key spec, symmetries and Zobrist numbers, and :meth:`key`."""

    def __init__(self, game: Game) -> None:
        spec = key_spec(game)
        self.offset, self.cells = spec.offset, spec.cells
        self.fields = np.array(spec.fields, dtype=np.int64)
        self.perms = symmetries(game)
        self.actions = action_maps(game, self.perms)
        rng = np.random.default_rng(ZOBRIST_SEED)
        self.zcell = rng.integers(0, 2**63, size=(self.cells, 8), dtype=np.uint64) * np.uint64(2) + np.uint64(1)
        self.zfield = rng.integers(0, 2**63, size=(len(spec.fields), MAX_FIELD), dtype=np.uint64)

    def key(self, s: np.ndarray) -> int:
        """The position's key (the same for every symmetric image of it)."""
        return int(self.key_and_symmetry(s)[0])

    def key_and_symmetry(self, s: np.ndarray) -> tuple[int, int]:
        """The key and the index of a symmetry that maps ``s`` onto the canonical image."""
        h, k = canonical_key(s, self.offset, self.cells, self.fields, self.perms, self.zcell, self.zfield)
        return int(h), int(k)
