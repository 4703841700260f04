"""Push and Pull's rules as kernels: the position's layout, the tables the
kernels read, the legal steps, a step applied and the end of the game.

An action is a cell (a placement) or ``ncells + L + v``: the asked marker
moves ``v`` cells along its line to the stone (negative toward it), ``L`` the
longest line.  The game's facade is :mod:`hexarena.games.push_and_pull`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..kernels import inline, njit
from .base import DRAW, HEADER, PLY, STEP, TO_MOVE, TURN, WINNER
from .position import write_cells, zobrist

# state layout after the shared header
MARK = HEADER  # 2 entries: each player's marker cell
MOVED = HEADER + 2  # 2 entries: 1 once that marker moved this turn
STONE = HEADER + 4  # the placement being resolved (-1 between placements)
PHASE = HEADER + 5  # PLACE, or whose marker's move is asked: OWN / OTHER
PLACED = HEADER + 6  # placements finished this turn
ENDING = HEADER + 7  # why the game ended: NOT_OVER, STUCK, BOTH_STUCK, NO_TURN
BOARD = HEADER + 8  # ncells entries: EMPTY, NEUTRAL, or 2 + owner for a marker
PLACE, OWN, OTHER = range(3)
NOT_OVER, STUCK, BOTH_STUCK, NO_TURN = range(4)
EMPTY, NEUTRAL = 0, 1


class Tables(NamedTuple):
    """What the kernels read besides the position (``game.tables``)."""

    rays: np.ndarray  # int32[n, 6, L]: the cells straight from each cell (hexarena.board.rays)
    line: np.ndarray  # int32[n, n]: d * L + k where rays[m, d, k] == c, else -1 (c not on a line from m)
    ncells: int
    ray_bits: np.ndarray  # uint64[n, 6, W]: each ray's cells as bits, for the playouts (push_and_pull_playouts)
    ray_layout: np.ndarray  # int64[6]: per direction, where its layout's words start in cell_bits (0 or W)
    cell_bits: np.ndarray  # uint64[n, 2W]: each cell's bit in two layouts, by cell number and reversed


def lines(rays_: np.ndarray) -> np.ndarray:
    """``int32[n, n]``: ``d * L + k`` where ``rays_[m, d, k] == c``, else -1."""
    n, _, length = rays_.shape
    out = np.full((n, n), -1, dtype=np.int32)
    m, d, k = np.nonzero(rays_ >= 0)
    out[m, rays_[m, d, k]] = d * length + k
    return out


@inline
def empty_run(board, rays_, c, d):
    """How many empty cells follow ``c`` in direction ``d`` before an occupied
    cell or the edge (:func:`hexarena.games.pushing.empty_run`, inlined here:
    a call costs more than the walk)."""
    k, L = 0, rays_.shape[2]
    while k < L:
        m = rays_[c, d, k]
        if m < 0 or board[m] != EMPTY:
            break
        k += 1
    return k


@inline
def placements(s):
    """Placements in the current turn: 1 on the first turn, then 2."""
    return 1 if s[TURN] == 1 else 2


@inline
def asked(s):
    """The player whose marker's move is asked now."""
    return s[TO_MOVE] if s[PHASE] == OWN else 1 - s[TO_MOVE]


@inline
def reach(board, rays_, m, mask, bit):
    """Set ``bit`` in ``mask`` on every empty cell whose stone would let the
    marker on ``m`` move (it sees the cell and can step toward or away)."""
    for d in range(6):
        back = rays_[m, (d + 3) % 6, 0]
        push = back >= 0 and board[back] == EMPTY
        for k in range(empty_run(board, rays_, m, d)):
            if k >= 1 or push:
                mask[rays_[m, d, k]] |= bit


@njit
def owed_reach(s, rays_, n):
    """Per empty cell, the bits (1: first player's, 2: second's) of the markers
    owed a move this turn that a stone there would let move."""
    mask = np.zeros(n, dtype=np.int32)
    board = s[BOARD:BOARD + n]
    for p in range(2):
        if s[MOVED + p] == 0:
            reach(board, rays_, s[MARK + p], mask, 1 << p)
    return mask


@inline
def owed_bits(s):
    return (1 - s[MOVED]) | ((1 - s[MOVED + 1]) << 1)


@inline
def lets_move(s, t, m, c):
    """Would a stone on the empty cell ``c`` let the marker on ``m`` move
    (``c`` seen along a line, and a step toward or away possible)?"""
    e = t.line[m, c]
    if e < 0:
        return False
    rays_ = t.rays
    L = rays_.shape[2]
    d, k = e // L, e % L
    for i in range(k):
        if s[BOARD + rays_[m, d, i]] != EMPTY:
            return False
    if k >= 1:
        return True
    back = rays_[m, (d + 3) % 6, 0]
    return back >= 0 and s[BOARD + back] == EMPTY


@njit
def owed_cells(s, t, out, want, runs):
    """The empty cells whose stone lets the owed markers move into ``out``:
    with ``want`` 0 those that let every owed marker move (``mask == owed``
    of :func:`owed_reach`), with 1 those that let any owed one move; their
    number (with no marker owed: 0, those cells are not listed).  Read from
    the markers' empty runs, kept in ``runs`` (12 ints of scratch, from the
    inlined :func:`runs_from`)."""
    if owed_bits(s) == 0:
        return 0
    for p in range(2):
        runs_from(s, t.rays, s[MARK + p], runs, 6 * p)
    return owed_cells_from_runs(s, t, out, want, runs)


@inline
def owed_cells_from_runs(s, t, out, want, runs):
    """:func:`owed_cells` from the markers' runs already in ``runs`` (player
    p's marker's at ``6 * p``), some marker owed a move."""
    rays_, line, L = t.rays, t.line, t.rays.shape[2]
    owed = owed_bits(s)
    k = 0
    for p in range(2):
        if not owed & (1 << p) or (p == 1 and owed == 3 and want == 0):
            continue
        m, at, other = s[MARK + p], 6 * p, 6 * (1 - p)
        mo = s[MARK + 1 - p]
        for d in range(6):
            push = runs[at + (d + 3) % 6] > 0
            for i in range(runs[at + d]):
                if i == 0 and not push:
                    continue
                c = rays_[m, d, i]
                if owed == 3:  # does the other marker move with it too?
                    e = line[mo, c]
                    both = False
                    if e >= 0:
                        d2, k2 = e // L, e % L
                        both = k2 < runs[other + d2] and (k2 >= 1 or runs[other + (d2 + 3) % 6] > 0)
                    if (want == 0 and not both) or (want == 1 and p == 1 and both):
                        continue  # not moving both; or listed already with the first marker's
                out[k] = c
                k += 1
    return k


@inline
def runs_from(s, rays_, m, runs, at):
    """The empty run from cell m in each direction into ``runs[at:at + 6]``
    (the board read in the position ``s``)."""
    L = rays_.shape[2]
    for d in range(6):
        r = 0
        while r < L:
            x = rays_[m, d, r]
            if x < 0 or s[BOARD + x] != EMPTY:
                break
            r += 1
        runs[at + d] = r


@inline
def movable(s, rays_, m):
    """Could some placement let the marker on m move (its
    :func:`~hexarena.games.push_and_pull_playouts.mobility` > 0)?"""
    free = 0  # the directions whose first cell is empty
    for d in range(6):
        x = rays_[m, d, 0]
        if x >= 0 and s[BOARD + x] == EMPTY:
            y = rays_[m, d, 1]
            if y >= 0 and s[BOARD + y] == EMPTY:
                return True  # a stone on y: a step toward it
            free |= 1 << d
    return (free & (free >> 3) & 7) != 0  # a stone next to it, pushed away into an empty cell behind


@inline
def check(s, t):
    """The loss and draw rules, on the board as it stands, before a placement
    that begins a turn or is a turn's last."""
    rays_ = t.rays
    owed = owed_bits(s)
    can = 0
    for p in range(2):
        if owed & (1 << p) and movable(s, rays_, s[MARK + p]):
            can |= 1 << p
    stuck = owed & ~can
    if stuck == 3:
        s[WINNER], s[ENDING] = DRAW, BOTH_STUCK
    elif stuck:
        s[WINNER], s[ENDING] = (1 if stuck == 1 else 0), STUCK
    elif s[PLACED] == placements(s) - 1 and not _last_placement_exists(s, t, owed):
        s[WINNER], s[ENDING] = 1 - s[TO_MOVE], NO_TURN
    if s[WINNER] >= 0:
        s[TO_MOVE] = -1


@inline
def _last_placement_exists(s, t, owed):
    """Is there an empty cell whose stone lets every owed marker move (each owed one can move)?"""
    n = t.ncells
    if owed == 0:
        for c in range(n):
            if s[BOARD + c] == EMPTY:
                return True
        return False
    if owed != 3:
        return True
    rays_, m, other = t.rays, s[MARK], s[MARK + 1]
    for d in range(6):  # the first marker's cells (as owed_cells lists them) that move the second too
        back = rays_[m, (d + 3) % 6, 0]
        push = back >= 0 and s[BOARD + back] == EMPTY
        i = 0
        while i < rays_.shape[2]:
            c = rays_[m, d, i]
            if c < 0 or s[BOARD + c] != EMPTY:
                break
            if (i >= 1 or push) and lets_move(s, t, other, c):
                return True
            i += 1
    return False


@inline
def marker_line(s, t, p):
    """(direction to the placed stone, its distance) when player p's marker
    sees it, else (-1, 0)."""
    rays_ = t.rays
    m = s[MARK + p]
    if s[STONE] < 0:
        return -1, 0
    e = t.line[m, s[STONE]]
    if e < 0:
        return -1, 0
    L = rays_.shape[2]
    d, k = e // L, e % L
    for i in range(k):
        if s[BOARD + rays_[m, d, i]] != EMPTY:
            return -1, 0
    return d, k + 1


@inline
def marker_options(s, t, p):
    """(how far toward the stone, how far away, whether 0 is allowed) for
    player p's marker: it may move v for ``-toward <= v <= away``, v != 0
    unless allowed; (0, 0, False) when it does not see the stone or cannot move."""
    d, dist = marker_line(s, t, p)
    return options_along(s, t, p, d, dist)


@inline
def options_along(s, t, p, d, dist):
    """:func:`marker_options` of player p's marker, given its :func:`marker_line` (d, dist)."""
    if d < 0:
        return 0, 0, False
    rays_, m, back = t.rays, s[MARK + p], (d + 3) % 6
    run = 0  # empty_run, written out
    while run < rays_.shape[2]:
        x = rays_[m, back, run]
        if x < 0 or s[BOARD + x] != EMPTY:
            break
        run += 1
    if dist == 1 and run == 0:
        return 0, 0, False
    return dist - 1, run, not (s[MOVED + p] == 0 and s[PLACED] == placements(s) - 1)


@inline
def can_move(s, t, p):
    """Does player p's marker see the stone and have a move?"""
    toward, away, zero = marker_options(s, t, p)
    return toward + away > 0 or zero


@njit
def marker_moves(s, t, p, out, k):
    """Append player p's marker's legal moves (ascending) to ``out`` at ``k``;
    the new count.  Nothing when it does not see the stone or cannot move."""
    toward, away, zero = marker_options(s, t, p)
    base = t.ncells + t.rays.shape[2]
    for v in range(-toward, away + 1):
        if v != 0 or zero:
            out[k] = base + v
            k += 1
    return k


@njit
def legal(s, t, out):
    rays_, n = t.rays, t.ncells
    if s[WINNER] >= 0:
        return 0
    if s[PHASE] != PLACE:
        return marker_moves(s, t, asked(s), out, 0)
    k = 0
    if s[PLACED] == placements(s) - 1:  # the turn's last: it must let every owed marker move
        mask, owed = owed_reach(s, rays_, n), owed_bits(s)
        for c in range(n):
            if mask[c] == owed and s[BOARD + c] == EMPTY:
                out[k] = c
                k += 1
        return k
    for c in range(n):
        if s[BOARD + c] == EMPTY:
            out[k] = c
            k += 1
    return k


@inline
def advance(s, t, phase):
    """Ask the next marker (from ``phase``) that sees the stone and can move;
    with none left, finish the placement (and maybe the turn)."""
    while phase <= OTHER:
        s[PHASE] = phase
        if can_move(s, t, asked(s)):
            return
        phase += 1
    s[PHASE], s[STONE] = PLACE, -1
    s[PLACED] += 1
    if s[PLACED] == placements(s):
        s[TO_MOVE] = 1 - s[TO_MOVE]
        s[TURN] += 1
        s[STEP] = 0
        s[PLACED] = 0
        s[MOVED] = 0
        s[MOVED + 1] = 0
    check(s, t)


@njit
def apply(s, t, a):
    rays_, n = t.rays, t.ncells
    s[PLY] += 1
    s[STEP] += 1
    if s[PHASE] == PLACE:
        s[BOARD + a] = NEUTRAL
        s[STONE] = a
        advance(s, t, OWN)
        return
    p = asked(s)
    v = a - n - rays_.shape[2]
    if v != 0:
        d, dist = marker_line(s, t, p)
        m = s[MARK + p]
        land = rays_[m, d, -v - 1] if v < 0 else rays_[m, (d + 3) % 6, v - 1]
        s[BOARD + m] = EMPTY
        s[BOARD + land] = 2 + p
        s[MARK + p] = land
        s[MOVED + p] = 1
    advance(s, t, s[PHASE] + 1)


@njit
def is_legal(s, t, a):
    """Is ``a`` (in range, the game not over) legal?  As :func:`legal` lists them."""
    rays_, n = t.rays, t.ncells
    if s[PHASE] == PLACE:
        if a >= n or s[BOARD + a] != EMPTY:
            return False
        if s[PLACED] != placements(s) - 1:
            return True
        owed, bits = owed_bits(s), 0
        for p in range(2):
            if owed & (1 << p) and lets_move(s, t, s[MARK + p], a):
                bits |= 1 << p
        return bits == owed
    if a < n:
        return False
    toward, away, zero = marker_options(s, t, asked(s))
    v = a - n - rays_.shape[2]
    return -toward <= v <= away and (v != 0 or zero)


@njit
def identity(s, t, out, zcell, zfield):
    """What identifies the position (:mod:`hexarena.games.position`): the player to move, the winner, why it
    ended, which markers moved this turn, the stone being resolved and whose marker is asked, the placements
    done this turn and whether this is the first turn (one placement); per cell its content."""
    out[0] = 9
    out[1], out[2], out[3], out[4], out[5] = s[TO_MOVE], s[WINNER], s[ENDING], s[MOVED], s[MOVED + 1]
    out[6], out[7], out[8], out[9] = s[STONE], s[PHASE], s[PLACED], s[TURN] == 1
    k = write_cells(s, BOARD, t.ncells, out, 10)
    return k, zobrist(out, k, zcell, zfield)
