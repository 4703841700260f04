"""Lisbon's rules as numba kernels: the position's layout, the kernels'
tables, and ``legal``, ``apply`` and the playouts with what they use (the
game's facade is :mod:`hexarena.games.lisbon`).

The kernels keep union-find trees whose root is always the group's newest
stone, so ``WHEN[root] == TURN`` says "this group holds a stone of this
turn" (the group restriction, O(1) per neighbour).  Each root also keeps the
shortest perimeter arc holding the group's perimeter cells; merging two such
arcs is O(1) and exact while each is under half the perimeter (a longer one
wins at once).  A new stone closes a ring exactly when two runs of own cells
around it already belonged to one group (it adds runs − groups holes: the
Euler characteristic of the triangular lattice), so no flood fill is needed.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..kernels import inline, njit, note
from .base import DRAW, HEADER, PLY, STEP, TO_MOVE, TURN, WINNER
from .position import write_cells, zobrist

# state layout after the shared header
ALLOW = HEADER  # stones the current turn allows
STONES = HEADER + 1  # stones on the board
WIN_HOW = HEADER + 2  # EDGES | RING bits of the winning stone's group, 0 before
WIN_CELL = HEADER + 3  # the winning stone, -1 before
BOARD = HEADER + 4  # n + 1 colours (the last, OFF, stands for "off the board"), then the Tables' offsets

BLACK, WHITE, OFF = 1, 2, 3
EDGES, RING = 1, 2
SEQUENCES = ("progressive", "12*")
PROGRESSIVE, TWELVE = range(2)



class Tables(NamedTuple):
    """What the kernels read besides the position (``game.tables``)."""

    links: np.ndarray  # int32[n, 6]: the neighbour in each direction, or n (the OFF entry) off the board
    ppos: np.ndarray  # int32[n]: each cell's perimeter position, -1 inside
    ncells: int
    perimeter: int  # P, the perimeter cells
    longest: int  # L = P // 2 - 1: the longest arc holding a group that has not won
    sequence: int  # PROGRESSIVE or TWELVE
    par: int  # offsets in the position, n entries each after the colours: union-find parent
    when: int  # the turn a stone was placed (a root's: its group's newest stone's)
    arc0: int  # per root: the start of the shortest perimeter arc holding its group's perimeter cells
    arcl: int  # per root: that arc's steps (-1: no perimeter cell)


@njit
def allowance(turn, sequence):
    """Stones turn ``turn`` allows: 1,2,2,2,3,4,4,4,5,... or 1,2,2,2,... (12*)."""
    if sequence == TWELVE:
        return 1 if turn == 1 else 2
    k, r = (turn - 1) // 4, (turn - 1) % 4
    return 2 * k + 1 if r == 0 else 2 * k + 2


@inline
def _root(s, par, x, compress):
    """The root of x's group (halving the path on the way if ``compress``)."""
    while s[par + x] != x:
        if compress:
            s[par + x] = s[par + s[par + x]]
        x = s[par + x]
    return x


@inline
def groups_around(s, t, c, colour, turn, out, compress):
    """The distinct groups of ``colour`` next to c into ``out[:k]`` (their
    roots) and the runs of such neighbours going round c into ``out[6]``;
    returns k, or -1 if one of them holds a stone placed in ``turn`` (the
    group restriction refuses c)."""
    links, par, when = t.links, t.par, t.when
    k, runs = 0, 0
    was_own = s[BOARD + links[c, 5]] == colour
    for d in range(6):
        m = links[c, d]
        own = s[BOARD + m] == colour
        if own:
            runs += not was_own
            r = _root(s, par, m, compress)
            if s[when + r] == turn:
                return -1
            new = True
            for i in range(k):
                new = new and out[i] != r
            if new:
                out[k] = r
                k += 1
        was_own = own
    out[6] = runs
    return k


@inline
def merge_arcs(a, la, b, lb, perimeter):
    """The shortest arc (start, steps) holding the arcs (a, la) and (b, lb),
    each shorter than half the perimeter; a result of half or more only says
    "not within half".

    >>> merge_arcs(40, 3, 2, 1, 45)  # p40..p43 and p2..p3: p40..p3
    (40, 8)
    """
    d = b - a if b >= a else b - a + perimeter  # clockwise from a to b
    e = perimeter - d if d else 0  # clockwise from b to a
    c1, c2 = max(la, d + lb), max(lb, e + la)
    return (a, c1) if c1 <= c2 else (b, c2)


@inline
def place(s, t, c, colour, turn, groups, k):
    """Put a stone of ``colour`` on c, the newest stone and so the root of the
    ``k`` groups found by :func:`groups_around`; returns its group's win bits:
    EDGES (its perimeter cells do not fit in an arc of L steps) and RING (it
    joins two runs of one group round c, enclosing a region: on the
    triangular lattice a stone adds runs − groups holes)."""
    ppos, par, when, arc0, arcl = t.ppos, t.par, t.when, t.arc0, t.arcl
    s[BOARD + c] = colour
    s[par + c] = c
    s[when + c] = turn
    start, steps = ppos[c], 0 if ppos[c] >= 0 else -1
    for i in range(k):
        r = groups[i]
        s[par + r] = c
        if s[arcl + r] >= 0:
            if steps < 0:
                start, steps = s[arc0 + r], s[arcl + r]
            else:
                start, steps = merge_arcs(start, steps, s[arc0 + r], s[arcl + r], t.perimeter)
    s[arc0 + c], s[arcl + c] = start, steps
    return (EDGES if steps > t.longest else 0) | (RING if groups[6] > k else 0)


@njit
def _next_turn(s, sequence):
    s[TURN] += 1
    s[TO_MOVE] = 1 - s[TO_MOVE]
    s[STEP] = 0
    s[ALLOW] = allowance(s[TURN], sequence)


@njit
def _finish(s, winner, how, cell):
    s[WINNER] = winner
    s[TO_MOVE] = -1
    s[WIN_HOW] = how
    s[WIN_CELL] = cell


@njit
def legal(s, t, out):
    n = t.ncells
    if s[WINNER] >= 0:
        return 0
    colour = 1 + s[TO_MOVE]
    groups = np.empty(8, dtype=np.int32)
    k = 0
    for c in range(n):
        if s[BOARD + c] == 0 and groups_around(s, t, c, colour, s[TURN], groups, False) >= 0:
            out[k] = c
            k += 1
    if s[STEP] > 0:
        out[k] = n  # end
        k += 1
    return k


@njit
def is_legal(s, t, a):
    """Is ``a`` (in range, the game not over) legal: ``end`` after a stone
    this turn, or an empty cell next to no own group grown this turn?"""
    if a == t.ncells:
        return s[STEP] > 0
    if s[BOARD + a] != 0:
        return False
    groups = np.empty(8, dtype=np.int32)
    return groups_around(s, t, a, 1 + s[TO_MOVE], s[TURN], groups, False) >= 0


@njit
def apply(s, t, a):
    n = t.ncells
    s[PLY] += 1
    if a == n:  # end
        _next_turn(s, t.sequence)
        return
    colour = 1 + s[TO_MOVE]
    groups = np.empty(8, dtype=np.int32)
    k = groups_around(s, t, a, colour, s[TURN], groups, True)
    how = place(s, t, a, colour, s[TURN], groups, k)
    s[STEP] += 1
    s[STONES] += 1
    if how:
        _finish(s, s[TO_MOVE], how, a)
    elif s[STONES] == n:  # a full board without a winner (small boards only)
        _finish(s, DRAW, 0, -1)
    elif s[STEP] == s[ALLOW]:
        _next_turn(s, t.sequence)


@njit
def playout(s, t):
    """Random play to the end, in place: every turn places its whole
    allowance, each stone uniformly among the cells legal then, and ends
    early (``end``) only when no legal cell is left."""
    none = np.empty(0, dtype=np.int32)
    recorded_playout(s, t, none, none)


@njit
def recorded_playout(s, t, actions, movers):
    """``playout`` that also writes each action and its mover into ``actions``
    and ``movers`` while they have room; returns the number written (for
    MCTS's AMAF).  The same rules as ``apply``, with the header kept in locals."""
    n = t.ncells
    if s[WINNER] >= 0:
        return 0
    pool = np.empty(n, dtype=np.int32)  # [0, active): untried; [active, k): refused this turn
    groups = np.empty(8, dtype=np.int32)
    k = 0
    for c in range(n):
        if s[BOARD + c] == 0:
            pool[k] = c
            k += 1
    mover, turn, step, allow, ply = s[TO_MOVE], s[TURN], s[STEP], s[ALLOW], s[PLY]
    written = 0
    x = np.uint64(np.random.randint(1, 2**62))  # xorshift64 state, seeded from numba's generator
    while True:
        colour, active = 1 + mover, k
        while step < allow and active > 0:
            x ^= x << np.uint64(13)
            x ^= x >> np.uint64(7)
            x ^= x << np.uint64(17)
            j = np.int64(((x >> np.uint64(32)) * np.uint64(active)) >> np.uint64(32))  # uniform in [0, active)
            c = pool[j]
            active -= 1
            pool[j] = pool[active]
            g = groups_around(s, t, c, colour, turn, groups, True)
            if g < 0:
                pool[active] = c
                continue
            k -= 1
            pool[active] = pool[k]
            step += 1
            ply += 1
            written = note(actions, movers, written, c, mover)
            how = place(s, t, c, colour, turn, groups, g)
            if how:
                s[STONES] = n - k
                s[TURN], s[STEP], s[ALLOW], s[PLY] = turn, step, allow, ply
                _finish(s, mover, how, c)
                return written
        if k == 0:  # a full board without a winner
            s[STONES] = n
            s[TURN], s[STEP], s[ALLOW], s[PLY] = turn, step, allow, ply
            _finish(s, DRAW, 0, -1)
            return written
        if step < allow:  # the turn ends early: no legal cell left
            ply += 1
            written = note(actions, movers, written, n, mover)
        turn, mover, step = turn + 1, 1 - mover, 0
        allow = allowance(turn, t.sequence)


@njit
def identity(s, t, out, zcell, zfield):
    """What identifies the position (:mod:`hexarena.games.position`): the player to move, the winner, the
    turn where the sequence makes it matter (progressive: the allowances to come), how and by which stone a
    group won; per stone its colour, plus 2 if it was placed this turn (the group restriction)."""
    out[0] = 5
    out[1], out[2], out[3] = s[TO_MOVE], s[WINNER], s[TURN] if t.sequence == PROGRESSIVE else 0
    out[4], out[5] = s[WIN_HOW], s[WIN_CELL]
    k = write_cells(s, BOARD, t.ncells, out, 6, t.when, s[TURN])
    return k, zobrist(out, k, zcell, zfield)
